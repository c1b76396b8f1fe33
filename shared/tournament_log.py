"""A tournament's append-only log in Redis, and its document folded from the entries.

Like a match, a tournament is its log: ``tournament.created``, then ``tournament.registered``
and ``tournament.withdrawn`` entries, one ``round.paired`` per round (its tables, their
match ids, its byes, and the results of the round before, which its pairing was made from)
and ``tournament.finished`` (with the last round's results). A duplicate tournament's round
of two tables or more is one duplicate group: its ``round.paired`` names the ``group`` and
its ``seed_sha256``, committed before any of its tables is dealt. The results are the match
logs' (each match's winners), recorded so that the tournament reads on once its matches
are archived; the history service recomputes the standings from the match logs themselves. Every key of a tournament is under its
own hash tag, so an append (the entry and the folded document, at an expected version) is
one Lua script on one node of a Redis Cluster: two lobbies advancing a tournament at once
append one round, the other's append finds the version moved on. The same script adds the
entry's version to the tournament's notice stream, which a long-poll blocks on
(``TournamentLog.wait``, as a match's long-poll blocks on its log).

The lobby writes the log; the history service reads it with the match logs to show the
standings (shared/swiss.py).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from shared import swiss
from shared.entry_kinds import (
    REGISTERED,
    ROUND_PAIRED,
    TOURNAMENT_CREATED,
    TOURNAMENT_FINISHED,
    TOURNAMENT_KINDS,
    WITHDRAWN,
)
from shared.eventstore import wait_for_entry

TOURNAMENT_ID = re.compile(r"[0-9a-f]{16}")
LOG_KEY = "tapete:{{t{id}}}:tournament:log"  # list: the entries (JSON), version = position
DOC_KEY = "tapete:{{t{id}}}:tournament:doc"  # the document after the last entry (JSON)
# stream: the last entry's version as its id (0-<version>), for the long-poll to wait on
NOTICE_KEY = "tapete:{{t{id}}}:tournament:notice"
INDEX_KEY = "tapete:tournaments"  # zset: every tournament id by creation time (derivable)
STARTS_KEY = "tapete:tournaments:starts"  # zset: each tournament waiting for its starts_at
REGISTERING, RUNNING, FINISHED = "registering", "running", "finished"
STATUSES = (REGISTERING, RUNNING, FINISHED)

# KEYS: log, doc, notice. ARGV: expected version, entry, document. 0: the version has moved
# on. The notice keeps the newest entry's version only: a waiter reads the document after.
_APPEND = """
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[3], 'MAXLEN', '1', '0-' .. (tonumber(ARGV[1]) + 1), 'v', '')
return 1
"""

Doc = dict[str, Any]


class Stale(Exception):
    """Another append came first: nothing was written."""


def fold(doc: Doc | None, entry: dict[str, Any]) -> Doc:
    """The document after one entry (pure)."""
    kind = entry["kind"]
    if doc is None:
        if kind != TOURNAMENT_CREATED:
            raise ValueError(f"a tournament log starts with {TOURNAMENT_CREATED}, not {kind!r}")
        out = {
            **entry["tournament"], "status": REGISTERING, "entrants": [], "withdrawn": [],
            "rounds_paired": [], "results": {}, "reason": None,
        }  # fmt: skip
    else:
        out = copy.deepcopy(doc)
    out["version"] = entry["version"]
    out["results"].update(entry.get("results") or {})
    if kind == REGISTERED:
        out["entrants"].append(entry["entrant"])
    elif kind == WITHDRAWN and out["status"] == REGISTERING:
        out["entrants"] = [e for e in out["entrants"] if e["id"] != entry["entrant"]]
    elif kind == WITHDRAWN:
        out["withdrawn"].append(entry["entrant"])
    elif kind == ROUND_PAIRED:
        out["status"] = RUNNING
        out["rounds_paired"].append(entry["paired"])
        if out.get("rounds") is None:
            out["rounds"] = entry["rounds"]
    elif kind == TOURNAMENT_FINISHED:
        out["status"] = FINISHED
        out["finished"] = entry["time"]
        out["reason"] = entry.get("reason")
    elif kind not in TOURNAMENT_KINDS:
        raise ValueError(f"no tournament entry kind {kind!r}")
    return out


def replay(entries: list[dict[str, Any]]) -> Doc | None:
    doc = None
    for entry in entries:
        doc = fold(doc, entry)
    return doc


class TournamentLog:
    """Tournament logs on ``client`` (decoding responses)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._append = client.register_script(_APPEND)

    def append(self, doc: Doc | None, entry: dict[str, Any], tournament_id: str, now: float) -> Doc:
        """Append ``entry`` (its kind, actor, time and own fields) after ``doc``'s version
        (None: a new tournament): the new document. ``Stale`` if another entry came first."""
        version = doc["version"] if doc else 0
        entry = {"version": version + 1, **entry}
        after = fold(doc, entry)
        keys = [key.format(id=tournament_id) for key in (LOG_KEY, DOC_KEY, NOTICE_KEY)]
        if not self._append(keys=keys, args=[version, json.dumps(entry), json.dumps(after)]):
            raise Stale(tournament_id)
        if doc is None:
            self.client.zadd(INDEX_KEY, {tournament_id: now})
        return after

    def doc(self, tournament_id: str) -> Doc | None:
        if not TOURNAMENT_ID.fullmatch(tournament_id):
            return None
        raw = self.client.get(DOC_KEY.format(id=tournament_id))
        return json.loads(raw) if raw else None

    def wait(self, tournament_id: str, after: int, timeout_seconds: float) -> Doc | None:
        """The document once its version is past ``after``, or after ``timeout_seconds``
        (at most ``MAX_WAIT_SECONDS``) as it is then: for the tournament's long-poll."""
        doc = self.doc(tournament_id)
        if doc is not None and doc["version"] <= after:
            wait_for_entry(self.client, NOTICE_KEY.format(id=tournament_id), after, timeout_seconds)
            doc = self.doc(tournament_id)
        return doc

    def docs(self, tournament_ids: list[str]) -> list[Doc]:
        pipe = self.client.pipeline(transaction=False)
        for tournament_id in tournament_ids:
            pipe.get(DOC_KEY.format(id=tournament_id))
        raws = pipe.execute() if tournament_ids else []
        return [json.loads(raw) for raw in raws if raw]

    def entries(self, tournament_id: str) -> list[dict[str, Any]]:
        if not TOURNAMENT_ID.fullmatch(tournament_id):
            return []
        return [
            json.loads(raw) for raw in self.client.lrange(LOG_KEY.format(id=tournament_id), 0, -1)
        ]

    def newest(self, limit: int) -> list[str]:
        return list(self.client.zrevrange(INDEX_KEY, 0, limit - 1))

    def starts_at(self, tournament_id: str, when: float | None) -> None:
        """Wait for ``when`` (None: no longer waiting): the bot dispatcher starts it then."""
        if when is None:
            self.client.zrem(STARTS_KEY, tournament_id)
        else:
            self.client.zadd(STARTS_KEY, {tournament_id: when})

    def due(self, now: float, limit: int = 100) -> list[str]:
        """The tournaments whose start time has come and that wait for it still."""
        return list(self.client.zrangebyscore(STARTS_KEY, 0, now, start=0, num=limit))


def standings_of(doc: Doc, results: dict[str, Any]) -> list[dict[str, Any]]:
    """The tournament's ranked standings, each line with the entrant's name and bot level;
    ``results``: the winners of each of its finished matches."""
    entrants = {e["id"]: e for e in doc["entrants"]}
    lines = swiss.standings(
        list(entrants), doc["rounds_paired"], results, doc["withdrawn"], duplicate_game(doc)
    )
    return [
        {**line.as_dict(rank), "name": entrants[line.entrant]["name"],
         "bot": entrants[line.entrant]["bot"]}
        for rank, line in enumerate(lines, 1)
    ]  # fmt: skip


def duplicate_game(doc: Doc) -> str | None:
    """The game of a duplicate tournament, whose standings rank by matchpoints (None: not)."""
    return doc["game"] if doc.get("duplicate") else None


def match_ids(doc: Doc) -> list[str]:
    """Every match of the tournament's rounds, in order."""
    return [t["match"] for paired in doc["rounds_paired"] for t in paired["tables"]]
