"""Pure functions over a match's log entries: what the public may see, and the state at a version.

The log holds every secret of a match (private events, sealed bids, the revealed seed).
``public_log`` is the one place the history service decides what of it leaves: while
the match runs, every event goes through the engine's ``redact`` as a spectator sees it
and the actions are left out; once it is finished, everything is shown.
"""

from __future__ import annotations

import copy

from shared.engine import redact
from shared.verify import Entry

FINISHED = "finished"

# What a running match's log shows of an entry besides its redacted events. The state hash
# is a commitment, not a secret: the hashed state holds the 256-bit seed, so nothing can be
# guessed from it, and after the reveal anyone can check it was fixed before the end.
RUNNING_FIELDS = (
    "version", "time", "kind", "actor", "status", "to_act", "deadline", "seat", "player",
    "strategy", "match", "seed_sha256", "setup", "finished", "result", "rules_version",
    "state_hash", "turn_deadline", "reason", "rematch", "player_seed", "seed_scheme", "player_seeds",
)  # fmt: skip


def is_finished(entries: list[Entry]) -> bool:
    return bool(entries) and entries[-1].get("status") == FINISHED


def public_log(entries: list[Entry]) -> list[Entry]:
    """The log as anyone may read it: redacted while the match runs, whole once finished."""
    if is_finished(entries):
        return copy.deepcopy(entries)
    out = []
    for entry in entries:
        shown = {k: copy.deepcopy(entry[k]) for k in RUNNING_FIELDS if k in entry}
        shown["events"] = [redact(event, None) for event in entry.get("events") or []]
        shown["action"] = None  # a sealed bid is a secret until the rules reveal it
        out.append(shown)
    return out
