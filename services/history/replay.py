"""Pure functions over a match's log entries: what the public may see.

The log holds every secret of a match (private events, sealed bids, the revealed seed).
``public_log`` is the one place the history service decides what of it leaves: while
the match runs, every event goes through the engine's ``redact`` as a spectator sees it
and the actions are left out; once it is finished and its seed revealed (``is_revealed``),
everything is shown. Each entry shown
says its events as sentences (``sentences``), as they are shown. Replaying a log (the
state at a version, verification) is the engine's alone: ``shared.verify``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from services.lobby_events import entry_sentences, names_at
from shared.engine import DEFAULT_LANGUAGE, redact
from shared.verify import Entry, seed_withheld

FINISHED = "finished"

# What a running match's log shows of an entry besides its redacted events. The state hash
# is a commitment, not a secret: the hashed state holds the 256-bit seed, so nothing can be
# guessed from it, and after the reveal anyone can check it was fixed before the end.
RUNNING_FIELDS = (
    "version", "time", "kind", "actor", "status", "to_act", "deadline", "seat", "player",
    "strategy", "match", "seed_sha256", "setup", "finished", "result", "rules_version",
    "state_hash", "turn_deadline", "reason", "rematch", "player_seed", "seed_scheme", "player_seeds",
    "strategy_version",
    "group",
)  # fmt: skip


def is_finished(entries: list[Entry]) -> bool:
    return bool(entries) and entries[-1].get("status") == FINISHED


def is_revealed(entries: list[Entry]) -> bool:
    """Finished with its seed revealed: every secret of the match may be shown. A duplicate
    table that has finished before the other tables of its group stays as a running match
    until its ``seed.revealed`` entry (they hold the same cards)."""
    return is_finished(entries) and not seed_withheld(entries)


def public_log(entries: list[Entry], lang: str = DEFAULT_LANGUAGE) -> list[Entry]:
    """The log as anyone may read it: redacted while the match runs, whole once finished
    and its seed revealed; each entry's events said in ``lang``, the players by name."""
    finished = is_revealed(entries)
    game = game_of(entries)
    names: Sequence[str | None] = ()
    out = []
    for entry in entries:
        if finished:
            shown = copy.deepcopy(entry)
        else:
            shown = {k: copy.deepcopy(entry[k]) for k in RUNNING_FIELDS if k in entry}
            shown["events"] = [redact(event, None) for event in entry.get("events") or []]
            shown["action"] = None  # a sealed bid is a secret until the rules reveal it
        names = names_at(entry, names)
        shown["sentences"] = entry_sentences(game, shown.get("events") or [], lang, names)
        out.append(shown)
    return out


def game_of(entries: list[Entry]) -> str:
    """The game of the match whose log ``entries`` is (its first entry, the creation, says)."""
    return str((entries[0].get("match") or {}).get("game"))


def seat_names(entries: list[Entry]) -> list[str | None]:
    """The players' names by seat, as the log's seat entries last named them."""
    names: list[str | None] = []
    for entry in entries:
        names = names_at(entry, names)
    return names
