"""Record the replay corpus: one seeded random match per game, variant and player count (min and max).

Each file holds the match's setup and every step's seat, action, events and state hash, so
``tests/test_corpus.py`` can check that a change to the engine or a game leaves every stored
match replaying to the same events and the same states. ``python -m tests.corpus.record`` records
the variants that have no file yet, so a new game or variant joins the corpus.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

from shared import jsoncodec
from shared.engine import apply, new_match
from shared.eventstore import state_hash
from tests.playouts import MAX_ACTIONS, choose, variant_cases

HERE = Path(__file__).resolve().parent


def path_for(game: str, variant: str, players: int) -> Path:
    return HERE / f"{game}.{variant}.{players}p.json.gz"


def record(game: str, variant: str, players: int) -> dict:
    seed = f"corpus:{game}:{variant}:{players}"
    state, events = new_match(game, variant, players, seed=seed)
    steps = []
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if state.finished:
            break
        seat, action = choose(state, rng)
        events_after = apply(state, seat, action)
        steps.append(
            {
                "seat": seat,
                "action": action,
                "events": events_after,
                "hash": state_hash(state.to_json()),
            }
        )
    return {
        "game": game,
        "variant": variant,
        "players": players,
        "seed": seed,
        "options": state.options,
        "setup_events": events,
        "steps": steps,
    }


def main() -> None:
    """Record the variants that have no file yet; a recorded file is never rewritten here
    (delete it first, when a change of the rules is meant to change play)."""
    for game, variant, players in variant_cases():
        if path_for(game, variant, players).exists():
            continue
        doc = record(game, variant, players)
        data = json.loads(jsoncodec.dumps(doc))
        path_for(game, variant, players).write_bytes(
            gzip.compress(json.dumps(data, sort_keys=True).encode(), mtime=0)
        )
        print(f"{game}/{variant}/{players}p: {len(doc['steps'])} steps")


if __name__ == "__main__":
    main()
