"""Verification of a finished match from its log alone: re-deal, re-apply, compare.

Pure functions over the log's entries, depending on the engine only, so that anyone can
check a match without the services: the history service's ``/verify`` and the offline
verifier (``python -m shared.verify match.json``, on a match exported by the history
service) run this same code. It checks that the revealed seed matches the SHA-256
published before anyone else's seed was known, that the deal seed is the one its seed
scheme makes from the seeds the log records (``shared.engine.seeds``), that the deal and
every action give the recorded events, seats to act and state hash, and that the match
ends with the recorded result. It reports every place the log and the replay disagree;
after the state itself diverges the replay stops, since later comparisons would mean
nothing.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, cast

from shared.duplicate import group_of
from shared.endings import ended_result
from shared.engine import EngineError, State, UnknownRulesVersion, apply, new_match, seeds
from shared.engine.undo import Undo, is_undo
from shared.entry_kinds import (
    ACTION,
    BOT_ADDED,
    CREATED,
    ENDED,
    JOINED,
    LEFT,
    RETURNED,
    SAT_IN,
    SEED_REVEALED,
    STARTED,
)
from shared.jsoncodec import state_hash

Entry = dict[str, Any]


class Diverged(Exception):
    """The recorded log does not replay through the engine (tampered, or other rules);
    ``check`` says what failed: ``rules`` (a rules version this engine does not know),
    ``setup`` or ``action``."""

    def __init__(self, version: int, message: str, check: str = "action") -> None:
        super().__init__(f"version {version}: {message}")
        self.version, self.message, self.check = version, message, check


def revealed_seed(entries: list[Entry]) -> str | None:
    """The seed, as the entry that revealed it (None while it runs): the one that finished
    the match (its last action, the ``match.ended`` of a resignation or an abandonment, or
    the start when the deal itself ended the match), or, at a duplicate table, the
    ``seed.revealed`` once every table of its group had finished."""
    seed = _revealing(entries).get("seed")
    return seed if isinstance(seed, str) and seed else None


def _revealing(entries: list[Entry]) -> Entry:
    """The entry that reveals the seed ({} when none does)."""
    revealed = next((e for e in reversed(entries) if e.get("kind") == SEED_REVEALED), None)
    return revealed or finishing_entry(entries)


def finishing_entry(entries: list[Entry]) -> Entry:
    """The entry that finished the match, with its result ({} while it runs)."""
    for entry in reversed(entries):
        if entry.get("kind") in (STARTED, ACTION, ENDED) and entry.get("finished"):
            return entry
    return {}


def seed_withheld(entries: list[Entry]) -> bool:
    """A duplicate table that has finished but not yet revealed its seed: another table of its
    group may still be playing the same cards, so its log stays as a running match's."""
    created = (entries[0].get("match") if entries else None) or {}
    if group_of(created) is None or not finishing_entry(entries):
        return False
    return not any(e.get("kind") == SEED_REVEALED for e in entries)


def started_entry(entries: list[Entry]) -> Entry | None:
    return next((e for e in entries if e.get("kind") == STARTED), None)


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


def replay_action(state: State, entry: Entry, undo: Undo) -> tuple[State, list[dict]]:
    """One recorded action re-done: (the state after it, its events). A solitaire's ``undo``
    gives back the state before the newest move it may take back (shared/engine/undo.py),
    with no event; ``undo`` follows which those are."""
    if is_undo(entry.get("action")) and state.players == 1:
        try:
            return undo.take_back(state), []
        except EngineError as exc:
            raise Diverged(
                entry["version"], f"the engine refuses the recorded undo: {exc}"
            ) from exc
    before = state.clone() if state.players == 1 else None
    events = apply_entry(state, entry)
    if before is not None:
        undo.played(before, state)
    return state, events


def apply_entry(state: State, entry: Entry) -> list[dict]:
    """Re-apply one recorded action (the actor's seat; null: the server) and return its events."""
    seat = (entry.get("actor") or {}).get("seat")
    try:
        return apply(state, seat, entry.get("action"))  # type: ignore[arg-type]
    except EngineError as exc:
        raise Diverged(entry["version"], f"the engine refuses the recorded action: {exc}") from exc


def deal_seed_of(start: Entry, seed: str) -> str:
    """The seed the match was dealt with: made from the server's ``seed`` and the seats' seeds
    recorded at the start, under the start's seed scheme (none recorded: scheme 1)."""
    try:
        return seeds.deal_seed(
            start.get("seed_scheme", seeds.SERVER_ONLY), seed, start.get("player_seeds") or []
        )
    except (ValueError, TypeError) as exc:
        message = f"the recorded seeds do not make a deal: {exc}"
        raise Diverged(start["version"], message, "seed") from exc


def state_at(entries: list[Entry], seed: str, version: int) -> State | None:
    """The engine's state right after ``version`` (None before the deal), from the server's
    ``seed``. Raises Diverged."""
    start = started_entry(entries)
    if start is None or start["version"] > version:
        return None
    state, _ = new_state(start.get("setup") or {}, deal_seed_of(start, seed), start["version"])
    undo = Undo()
    for entry in entries:
        if start["version"] < entry["version"] <= version and entry.get("kind") == ACTION:
            state, _ = replay_action(state, entry, undo)
    return state


def as_json(value: Any) -> Any:
    """``value`` as it reads back from the log (tuples become lists...), to compare like with like."""
    return json.loads(json.dumps(value))


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
    seed_ok = seed is not None and seeds.commitment(seed) == published
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
                replayed=seeds.commitment(seed),
            )
        )
    if start is not None and seed is not None and not found:
        found += _seats_seeds(entries, start)
    if start is not None and seed is not None and not found:
        try:
            checked = _replay(entries, start, deal_seed_of(start, seed), found)
        except Diverged as exc:
            found.append(Divergence(exc.version, STARTED, exc.check, exc.message))
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


def _seats_seeds(entries: list[Entry], start: Entry) -> list[Divergence]:
    """The seeds the deal was made from are the ones the log recorded before it: the server's
    commitment in the created match (when it was made there, as it must be to combine seeds:
    else the server could have chosen its seed knowing the players'), and each seat's seed
    from its last join (a bot's and a left seat's: none)."""
    version = start["version"]
    found = []
    created = (entries[0].get("match") if entries else None) or {}
    committed = created.get("seed_sha256")
    combined = start.get("seed_scheme", seeds.SERVER_ONLY) != seeds.SERVER_ONLY
    if (committed is not None or combined) and committed != start.get("seed_sha256"):
        found.append(
            Divergence(version, STARTED, "seed",
                       "the start publishes another SHA-256 than the one committed at creation",
                       recorded=start.get("seed_sha256"), replayed=committed)
        )  # fmt: skip
    group = group_of(created)
    if group is not None and (combined or group.get("seed_sha256") != committed):
        found.append(
            Divergence(version, STARTED, "seed",
                       "a duplicate table is dealt from its group's committed seed alone",
                       recorded=committed, replayed=group.get("seed_sha256"))
        )  # fmt: skip
    if not combined:
        return found
    by_seat: list[str | None] = [None] * int(created.get("players") or 0)
    for entry in entries:
        if entry["version"] >= version:
            break
        seat = entry.get("seat")
        if entry.get("kind") in (JOINED, LEFT, BOT_ADDED) and _is_seat(seat, by_seat):
            by_seat[cast(int, seat)] = (
                entry.get("player_seed") if entry.get("kind") == JOINED else None
            )
    if start.get("player_seeds") != by_seat:
        found.append(
            Divergence(version, STARTED, "seed",
                       "the deal names other seats' seeds than their joins gave",
                       recorded=start.get("player_seeds"), replayed=by_seat)
        )  # fmt: skip
    return found


def _is_seat(seat: Any, seats: list) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seats)


def _replay(entries: list[Entry], start: Entry, seed: str, found: list[Divergence]) -> int:
    """Re-deal and re-apply, appending divergences to ``found``; how many entries were replayed."""
    checked = 0
    try:
        state, events = new_state(start.get("setup") or {}, seed, start["version"])
        found += _setup(entries, start, state, events)
        checked += 1
        diverged = _compare(start, (start.get("events") or [])[1:], events, state, found)
        ended = None
        undo = Undo()
        for entry in entries:
            if diverged or entry["version"] <= start["version"]:
                continue
            if entry.get("kind") == ENDED and ended is None:
                ended = entry
                checked += 1
                diverged = _ended(entry, state, found)
            if entry.get("kind") in (SAT_IN, RETURNED) and ended is None:
                checked += 1  # a bot sitting in, or its person back: the state stays as it was
                diverged = _same_state(entry, state, found, "a seat's sit-in changed the state")
            if entry.get("kind") != ACTION:
                continue
            if ended is not None:
                found.append(Divergence(entry["version"], ACTION, "sequence",
                                        "an action after the match ended"))  # fmt: skip
                break
            state, events = replay_action(state, entry, undo)
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
    return _same_state(entry, state, found, "the state at the end differs")


def _same_state(entry: Entry, state: State, found: list[Divergence], message: str) -> bool:
    """An entry the rules did not make records the replayed state's hash; True if diverged."""
    replayed_hash = engine_state_hash(state)
    if entry.get("state_hash") != replayed_hash:
        found.append(
            Divergence(entry["version"], entry.get("kind"), "state_hash", message,
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


# -- a finished match as one document, and its offline verification ------------------------
EXPORT_FORMAT = "tapete-match/1"


def export_document(match_id: str, entries: list[Entry], game: dict[str, Any]) -> dict[str, Any]:
    """A finished match, self-contained: its whole log, its seeds, the rules version it was
    played under and its game's catalog entry (``game``). ``verify_export`` checks it."""
    start = started_entry(entries) or {}
    return {
        "format": EXPORT_FORMAT,
        "match": match_id,
        "game": game,
        "rules_version": rules_version_of(start.get("setup") or {}),
        "seeds": {
            "scheme": start.get("seed_scheme", seeds.SERVER_ONLY),
            "server": revealed_seed(entries),
            "sha256": start.get("seed_sha256"),
            "players": start.get("player_seeds"),
        },
        "entries": entries,
    }


def verify_export(doc: Any) -> dict[str, Any]:
    """The verification report of an exported match (``verify``'s), with the document's own
    fields checked against its log: a field that says otherwise than the log is a divergence
    at the entry it contradicts."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise ValueError(f"not an exported match: its format must be {EXPORT_FORMAT!r}")
    entries = doc.get("entries")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ValueError("an exported match's entries must be a list of objects")
    report = verify(entries)
    start = started_entry(entries)
    if start is None:
        return report
    claims = (
        ("seed", (doc.get("seeds") or {}).get("server"), revealed_seed(entries), _ending(entries)),
        ("seed", (doc.get("seeds") or {}).get("sha256"), start.get("seed_sha256"), start),
        ("seed", (doc.get("seeds") or {}).get("scheme"),
         start.get("seed_scheme", seeds.SERVER_ONLY), start),
        ("seed", (doc.get("seeds") or {}).get("players"), start.get("player_seeds"), start),
        ("rules", doc.get("rules_version"), rules_version_of(start.get("setup") or {}), start),
        ("setup", (doc.get("game") or {}).get("id"), (start.get("setup") or {}).get("game"),
         start),
    )  # fmt: skip
    found = [
        asdict(
            Divergence(
                entry["version"],
                entry.get("kind"),
                check,
                "the exported document says otherwise than its log",
                recorded=claimed,
                replayed=logged,
            )
        )  # fmt: skip
        for check, claimed, logged, entry in claims
        if claimed != logged
    ]
    if found:
        divergences = sorted(report["divergences"] + found, key=lambda d: d["version"])
        report = {**report, "ok": False, "divergences": divergences}
        report["first_divergence"] = divergences[0]["version"]
    return report


def _ending(entries: list[Entry]) -> Entry:
    """The entry that revealed the seed, else the last one."""
    return _revealing(entries) or entries[-1]


def describe(report: dict[str, Any]) -> str:
    """The report in a few lines, for a person."""
    if report["ok"]:
        seed = report["seed"]
        return (
            f"ok: {report['checked']} entries replayed (the deal and every action, to version "
            f"{report['version']}); "
            f"the seed matches its SHA-256 {seed['sha256']} committed before the deal; "
            "every event, seat to act, state hash and the result agree"
        )
    lines = [f"REFUSED: the first entry that disagrees is version {report['first_divergence']}"]
    for d in report["divergences"]:
        lines.append(f"  version {d['version']} ({d['kind']}), {d['check']}: {d['message']}")
        if d["recorded"] is not None or d["replayed"] is not None:
            lines.append(f"    recorded: {json.dumps(d['recorded'])[:200]}")
            lines.append(f"    replayed: {json.dumps(d['replayed'])[:200]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m shared.verify match.json``: 0 when the match verifies, 1 when refused,
    2 when the file is not an exported match."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(
        prog="python -m shared.verify",
        description="Verify an exported Tapete match offline: seeds, deal, every entry.",
    )
    parser.add_argument("file", help="the match as GET /v1/matches/{id}/export gave it")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as handle:
            report = verify_export(json.load(handle))
    except (OSError, ValueError) as exc:
        print(f"cannot verify {args.file}: {exc}", file=sys.stderr)
        return 2
    print(describe(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
