"""Verification of a finished match: re-deal with the revealed seed, re-apply every action.

A pure function of the log. It checks what anyone holding the log can check: the
seed matches the SHA-256 published when the match started, the deal and every action
give the recorded events, seats to act and state hash, and the match ends with the
recorded result. It reports every place the log and the replay disagree; after the
state itself diverges the replay stops, since later comparisons would mean nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any

from prometheus_client import Counter

from shared.endings import ended_result
from shared.engine import State
from shared.eventstore import state_hash

from .replay import (
    ACTION,
    ENDED,
    STARTED,
    Diverged,
    Entry,
    apply_entry,
    as_json,
    new_state,
    revealed_seed,
    started_entry,
)

CREATED = "match.created"

# Verifications made by the history service (its /verify, and each archived match's report).
VERIFIED = Counter(
    "tapete_history_verify_total", "finished matches verified, by outcome (ok, failed)", ["outcome"]
)
for _outcome in ("ok", "failed"):  # both exist from the start: a first failure is an increase
    VERIFIED.labels(_outcome)


def counted(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` (``verify``'s), counted in ``VERIFIED`` by its outcome."""
    VERIFIED.labels("ok" if report["ok"] else "failed").inc()
    return report


@dataclass(frozen=True)
class Divergence:
    """Where the log and the replay disagree: the entry, what was checked, both sides."""

    version: int
    kind: str | None
    check: str  # sequence, seed, rules, setup, events, to_act, state_hash, result, action
    message: str
    recorded: Any = None
    replayed: Any = None


def engine_state_hash(state: State) -> str:
    """The hash the lobby records: SHA-256 of the canonical state JSON, without the rules' seal."""
    return state_hash(as_json(state.to_json()))


def verify(entries: list[Entry]) -> dict[str, Any]:
    """The verification report of a finished match's log (see docs/history.md)."""
    found: list[Divergence] = []
    checked = 0
    found += _sequence(entries)
    start = started_entry(entries)
    seed = revealed_seed(entries)
    published = start.get("seed_sha256") if start else None
    seed_ok = seed is not None and hashlib.sha256(seed.encode()).hexdigest() == published
    if start is None:
        found.append(Divergence(0, None, "sequence", "the log has no match.started entry"))
    elif seed is None:
        found.append(Divergence(start["version"], STARTED, "seed", "no seed was revealed"))
    elif not seed_ok:
        found.append(
            Divergence(
                start["version"],
                STARTED,
                "seed",
                "the revealed seed does not match the SHA-256 published at the start",
                recorded=published,
                replayed=hashlib.sha256(seed.encode()).hexdigest(),
            )
        )
    if start is not None and seed is not None and not found:
        checked = _replay(entries, start, seed, found)
    last = entries[-1]["version"] if entries else 0
    return {
        "ok": not found,
        "version": last,
        "checked": checked,
        "seed": {"sha256": published, "revealed": seed is not None, "matches": seed_ok},
        "rules_versions": sorted(
            {str(e["rules_version"]) for e in entries if e.get("rules_version")}
        ),
        "first_divergence": found[0].version if found else None,
        "divergences": [asdict(d) for d in found],
    }


def _sequence(entries: list[Entry]) -> list[Divergence]:
    """Versions 1, 2, 3... with match.created first and one match.started before any action."""
    found = []
    for expected, entry in enumerate(entries, start=1):
        if entry.get("version") != expected:
            found.append(
                Divergence(
                    expected,
                    entry.get("kind"),
                    "sequence",
                    "a version is missing",
                    recorded=entry.get("version"),
                    replayed=expected,
                )
            )
            break
    if entries and entries[0].get("kind") != CREATED:
        found.append(
            Divergence(1, entries[0].get("kind"), "sequence", f"the log must start with {CREATED}")
        )
    starts = [e for e in entries if e.get("kind") == STARTED]
    if len(starts) > 1:
        found.append(
            Divergence(starts[1]["version"], STARTED, "sequence", "the match starts twice")
        )
    first_action = next((e for e in entries if e.get("kind") == ACTION), None)
    if first_action and (not starts or starts[0]["version"] > first_action["version"]):
        found.append(
            Divergence(first_action["version"], ACTION, "sequence", "an action before the start")
        )
    return found


def _replay(entries: list[Entry], start: Entry, seed: str, found: list[Divergence]) -> int:
    """Re-deal and re-apply, appending divergences to ``found``; how many entries were replayed."""
    checked = 0
    try:
        state, events = new_state(start.get("setup") or {}, seed, start["version"])
        found += _setup(entries, start, state, events)
        checked += 1
        diverged = _compare(start, (start.get("events") or [])[1:], events, state, found)
        ended = None
        for entry in entries:
            if diverged or entry["version"] <= start["version"]:
                continue
            if entry.get("kind") == ENDED and ended is None:
                ended = entry
                checked += 1
                diverged = _ended(entry, state, found)
            if entry.get("kind") != ACTION:
                continue
            if ended is not None:
                found.append(Divergence(entry["version"], ACTION, "sequence",
                                        "an action after the match ended"))  # fmt: skip
                break
            events = apply_entry(state, entry)
            checked += 1
            diverged = _compare(entry, entry.get("events") or [], events, state, found)
        last_action = next((e for e in reversed(entries) if e.get("kind") == ACTION), start)
        if not diverged and not state.finished and ended is None:
            found.append(
                Divergence(
                    last_action["version"],
                    last_action.get("kind"),
                    "result",
                    "the log says finished but the replayed match goes on",
                )
            )
    except Diverged as exc:
        kind = next((e.get("kind") for e in entries if e["version"] == exc.version), None)
        found.append(Divergence(exc.version, kind, exc.check, exc.message))
    return checked


def _ended(entry: Entry, state: State, found: list[Divergence]) -> bool:
    """A resignation or abandonment: the match had not ended by the rules, the state is the
    replayed one, and the result is the one ``shared.endings`` gives; True if diverged."""
    version = entry["version"]
    if state.finished:
        found.append(Divergence(version, ENDED, "result", "the rules had already ended the match"))
    recorded = entry.get("result") or {}
    replayed = as_json(
        ended_result(
            str(entry.get("reason")), recorded.get("seat"), state.teams, len(state.scores),
            list(state.scores),
        )
    )  # fmt: skip
    if recorded != replayed:
        found.append(
            Divergence(
                version, ENDED, "result", "another result", recorded=recorded, replayed=replayed
            )
        )
    replayed_hash = engine_state_hash(state)
    if entry.get("state_hash") != replayed_hash:
        found.append(
            Divergence(version, ENDED, "state_hash", "the state at the end differs",
                       recorded=entry.get("state_hash"), replayed=replayed_hash)
        )  # fmt: skip
        return True
    return False


def _setup(
    entries: list[Entry], start: Entry, state: State, events: list[dict]
) -> list[Divergence]:
    """The setup agrees with the created match, and the start event with the published hash."""
    found = []
    created = (entries[0].get("match") if entries else None) or {}
    setup = start.get("setup") or {}
    for key in ("game", "variant", "players"):
        if created.get(key) != setup.get(key):
            found.append(
                Divergence(
                    start["version"],
                    STARTED,
                    "setup",
                    f"setup {key} differs from the created match",
                    recorded=setup.get(key),
                    replayed=created.get(key),
                )
            )
    first = (start.get("events") or [{}])[0]
    if first.get("seed_sha256") != start.get("seed_sha256"):
        found.append(
            Divergence(
                start["version"],
                STARTED,
                "setup",
                "the start event publishes another SHA-256",
                recorded=first.get("seed_sha256"),
                replayed=start.get("seed_sha256"),
            )
        )
    return found


def _compare(
    entry: Entry, recorded: list[dict], replayed: list[dict], state: State, found: list[Divergence]
) -> bool:
    """Compare one entry with its replay; True when the state itself diverged (stop there)."""
    version, kind = entry["version"], entry.get("kind")
    replayed = as_json(replayed)
    if recorded != replayed:
        index = next(
            (i for i, (a, b) in enumerate(zip(recorded, replayed, strict=False)) if a != b),
            min(len(recorded), len(replayed)),
        )
        found.append(
            Divergence(
                version,
                kind,
                "events",
                f"event {index} differs",
                recorded=recorded[index] if index < len(recorded) else None,
                replayed=replayed[index] if index < len(replayed) else None,
            )
        )
    if "to_act" in entry and entry["to_act"] != list(state.to_act):
        found.append(
            Divergence(
                version,
                kind,
                "to_act",
                "other seats to act",
                recorded=entry["to_act"],
                replayed=list(state.to_act),
            )
        )
    if kind in (STARTED, ACTION) and bool(entry.get("finished")) != state.finished:
        found.append(
            Divergence(
                version,
                kind,
                "result",
                "the match ends at another entry",
                recorded=bool(entry.get("finished")),
                replayed=state.finished,
            )
        )
    ends = kind in (STARTED, ACTION) and entry.get("finished")  # a deal may end the match
    if ends and entry.get("result") != as_json(state.result):
        found.append(
            Divergence(
                version,
                kind,
                "result",
                "another result",
                recorded=entry.get("result"),
                replayed=as_json(state.result),
            )
        )
    replayed_hash = engine_state_hash(state)
    if entry.get("state_hash") != replayed_hash:
        found.append(
            Divergence(
                version,
                kind,
                "state_hash",
                "the state after this entry differs",
                recorded=entry.get("state_hash"),
                replayed=replayed_hash,
            )
        )
        return True
    return False
