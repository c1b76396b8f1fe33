"""Record the replay corpus: one seeded random match per game, variant and player count (min and max).

Each file holds the match's setup and every step's seat, action, events and state hash, so
``tests/test_corpus.py`` can check that a change to the engine or a game leaves every stored
match replaying to the same events and the same states. ``python -m tests.corpus.record`` records
the variants that have no file yet, so a new game or variant joins the corpus.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path

from shared import jsoncodec
from shared.engine import apply, get_game, new_match
from shared.jsoncodec import state_hash
from tests.playouts import MAX_ACTIONS, every_choice, variant_cases

HERE = Path(__file__).resolve().parent


#: Recordings beside the one per variant and player count: a seed whose random play meets a rule
#: that a later rules version changed, where the variant's own recording never does (so that
#: changing that rule for the matches of the earlier version fails the corpus test).
#: (game, variant, players, rules version, seed, file name)
EXTRA = [
    (
        "chinchon", "con-comodin", 2, 1, "corpus:chinchon:con-comodin:2:v1:5",
        "chinchon.con-comodin.2p.v1-natural-one",
    ),
    (  # the house takes every chip: a match no player won
        "siete-y-media", "con-apuestas", 2, 1, "corpus:siete-y-media:con-apuestas:2:v1:14",
        "siete-y-media.con-apuestas.2p.v1-house-won",
    ),
]  # fmt: skip


def name_for(game: str, variant: str, players: int, version: int) -> str:
    """``game.variant.Np``, with ``.vN`` for rules version 2 on (version 1's files came first)."""
    return f"{game}.{variant}.{players}p" + (f".v{version}" if version > 1 else "")


def path_for(game: str, variant: str, players: int, version: int = 1) -> Path:
    return HERE / f"{name_for(game, variant, players, version)}.json.gz"


def choices_digest(choices: list) -> str:
    """SHA-256 of every (seat, action) possible before a step, in no particular order: a rule
    that only forbids something never shows in the actions played, but shows here."""
    lines = sorted(json.dumps(c, sort_keys=True) for c in json.loads(jsoncodec.dumps(choices)))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def record(
    game: str, variant: str, players: int, version: int | None = None, seed: str | None = None
) -> dict:
    seed = seed or f"corpus:{game}:{variant}:{players}" + (f":v{version}" if version else "")
    state, events = new_match(game, variant, players, seed=seed, rules_version=version)
    steps = []
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if state.finished:
            break
        choices = every_choice(state)
        seat, action = rng.choice(choices)
        events_after = apply(state, seat, action)
        steps.append(
            {
                "seat": seat,
                "action": action,
                "legal": choices_digest(choices),
                "events": events_after,
                "hash": state_hash(state.to_json()),
            }
        )
    return {
        "game": game,
        "variant": variant,
        "players": players,
        "rules_version": version or get_game(game).rules_version,
        "seed": seed,
        "options": state.options,
        "setup_events": events,
        "steps": steps,
    }


def main() -> None:
    """Record, under each game's current rules version, the variants that have no file yet.

    A recorded file is never rewritten: a change of behaviour bumps the game's rules version
    (docs/engine.md), the files of the earlier versions stay and keep replaying under their
    own version, and this records the new version's."""
    for game, variant, players in variant_cases():
        version = get_game(game).rules_version
        path = path_for(game, variant, players, version)
        if path.exists():
            continue
        write(path, record(game, variant, players, version if version > 1 else None))
    for game, variant, players, version, seed, name in EXTRA:
        path = HERE / f"{name}.json.gz"
        if not path.exists():
            write(path, record(game, variant, players, version, seed))


def write(path: Path, doc: dict) -> None:
    data = json.loads(jsoncodec.dumps(doc))
    path.write_bytes(gzip.compress(json.dumps(data, sort_keys=True).encode(), mtime=0))
    print(f"{path.name}: {len(doc['steps'])} steps")


if __name__ == "__main__":
    main()
