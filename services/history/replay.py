"""Pure functions over a match's log entries: what the public may see, and the state at a version.

The log holds every secret of a match (private events, sealed bids, the revealed seed).
``public_log`` is the one place the history service decides what of it leaves: while
the match runs, every event goes through the engine's ``redact`` as a spectator sees it
and the actions are left out; once it is finished, everything is shown. Each entry shown
says its events as sentences (``sentences``), as they are shown.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

from services.lobby_events import ACTION, ENDED, STARTED, entry_sentences, names_at
from shared.engine import (
    DEFAULT_LANGUAGE,
    EngineError,
    State,
    UnknownRulesVersion,
    apply,
    new_match,
    redact,
)

Entry = dict[str, Any]

FINISHED = "finished"

# What a running match's log shows of an entry besides its redacted events. The state hash
# is a commitment, not a secret: the hashed state holds the 256-bit seed, so nothing can be
# guessed from it, and after the reveal anyone can check it was fixed before the end.
RUNNING_FIELDS = (
    "version", "time", "kind", "actor", "status", "to_act", "deadline", "seat", "player",
    "strategy", "match", "seed_sha256", "setup", "finished", "result", "rules_version",
    "state_hash", "turn_deadline", "reason", "rematch",
)  # fmt: skip


class Diverged(Exception):
    """The recorded log does not replay through the engine (tampered, or other rules);
    ``check`` says what failed: ``rules`` (a rules version this engine does not know),
    ``setup`` or ``action``."""

    def __init__(self, version: int, message: str, check: str = "action") -> None:
        super().__init__(f"version {version}: {message}")
        self.version, self.message, self.check = version, message, check


def is_finished(entries: list[Entry]) -> bool:
    return bool(entries) and entries[-1].get("status") == FINISHED


def revealed_seed(entries: list[Entry]) -> str | None:
    """The seed, as the entry that finished the match revealed it (None while it runs): its
    last action, the ``match.ended`` of a resignation or an abandonment, or the start when
    the deal itself ended the match."""
    for entry in reversed(entries):
        if entry.get("kind") in (STARTED, ACTION, ENDED) and entry.get("finished"):
            seed = entry.get("seed")
            return seed if isinstance(seed, str) and seed else None
    return None


def started_entry(entries: list[Entry]) -> Entry | None:
    return next((e for e in entries if e.get("kind") == STARTED), None)


def public_log(entries: list[Entry], lang: str = DEFAULT_LANGUAGE) -> list[Entry]:
    """The log as anyone may read it: redacted while the match runs, whole once finished;
    each entry's events said in ``lang``, the players by name."""
    finished = is_finished(entries)
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


def rules_version_of(setup: dict[str, Any]) -> Any:
    """The rules version a match was played under, as its setup recorded it; a log from
    before rules versions were recorded was played under every game's version 1."""
    return setup.get("rules_version", 1)


def new_state(setup: dict[str, Any], seed: str, version: int) -> tuple[State, list[dict]]:
    """The deal recorded in ``match.started``, re-done by the engine under the rules version
    it was played under; (state, setup events)."""
    try:
        return new_match(
            setup["game"], setup["variant"], setup["players"], seed, setup.get("options") or {},
            rules_version_of(setup),
        )  # fmt: skip
    except UnknownRulesVersion as exc:
        raise Diverged(version, f"cannot replay this match: {exc}", "rules") from exc
    except (EngineError, KeyError, TypeError) as exc:
        raise Diverged(version, f"the recorded setup does not deal: {exc}", "setup") from exc


def apply_entry(state: State, entry: Entry) -> list[dict]:
    """Re-apply one recorded action (the actor's seat; null: the server) and return its events."""
    seat = (entry.get("actor") or {}).get("seat")
    try:
        return apply(state, seat, entry.get("action"))  # type: ignore[arg-type]
    except EngineError as exc:
        raise Diverged(entry["version"], f"the engine refuses the recorded action: {exc}") from exc


def state_at(entries: list[Entry], seed: str, version: int) -> State | None:
    """The engine's state right after ``version`` (None before the deal). Raises Diverged."""
    start = started_entry(entries)
    if start is None or start["version"] > version:
        return None
    state, _ = new_state(start.get("setup") or {}, seed, start["version"])
    for entry in entries:
        if start["version"] < entry["version"] <= version and entry.get("kind") == ACTION:
            apply_entry(state, entry)
    return state


def as_json(value: Any) -> Any:
    """``value`` as it reads back from the log (tuples become lists...), to compare like with like."""
    return json.loads(json.dumps(value))
