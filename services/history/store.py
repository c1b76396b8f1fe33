"""The history read models in Redis, and the steps that bring a match up to date.

No key is shared by every update, so no slot of a Redis Cluster is a hot spot: each read
model lives under the hash tag of what it is about.

    tapete:{p<P>}:history:match:<id>        JSON summary; its ``version`` is the last entry applied
    tapete:{p<P>}:history:scores:<id>       JSON score sheet, written when the match finishes
    tapete:{p<P>}:history:journal           stream (capped): match, from, to, feed id, applied_ms
    tapete:{player.<id>}:history:matches    sorted set: match id, scored by creation time
    tapete:{player.<id>}:history:marks      hash: match id -> last version applied to that set
    tapete:{game.<game>}:history:ratings    hash: player id -> JSON rating record
    tapete:{game.<game>}:history:leaderboard  sorted set: player id, scored by rating ordinal
    tapete:{game.<game>}:history:rated      set: the matches already in the ratings

The summary, sheet and journal of a match sit in its feed partition's slot (``{p<P>}``,
beside its log); a player's index in the player's slot; a game's ratings in the game's.

An update is planned (``plan``: the summary, the next entries from the match log, and what
the pure projections say they change), then written in steps, each in one slot and each
idempotent by a marker in that slot, the summary last:

1. ``index_players``: per player touched, a script adds or removes the match unless the
   player's marks already hold this version or a later one (a stale consumer cannot undo
   a newer update);
2. ``rate`` (a finish only): WATCH/MULTI on the game's slot; a match already in ``rated``
   is skipped, so a redelivered finish never rates twice;
3. ``commit``: WATCH the summary, and in one MULTI write it, the sheet and the journal
   entry (and a finish's time to be archived, ``archive.py``), if it is still the summary
   the plan started from.

A consumer that crashes between steps leaves the summary behind, so the notification is
redelivered, planned again from the same summary and entries, and the steps already done
find their markers and do nothing. A reader that sees a summary sees everything before it.
"""

from __future__ import annotations

import heapq
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from shared.eventstore import KEY_PREFIX, MatchLog

from . import projections
from .projections import Summary

HISTORY = "history"  # the segment every history key has after its hash tag
PATTERN = f"{KEY_PREFIX}:*:{HISTORY}:*"  # every history key (and the consumer group's own)
JOURNAL_NAME = f"{HISTORY}:journal"
MARKS_NAME = f"{HISTORY}:marks"
JOURNAL_MAXLEN = 100_000  # across all partitions, each keeping its share (at least 1,000)
ARCHIVE_DUE_NAME = "archive:due"  # a partition's finished matches -> when to archive them

# One player's index in one step: add or remove the match unless a later version did already.
INDEX_SCRIPT = """
local seen = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if seen >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[3] == 'add' then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 1
"""


def player_key(player_id: str) -> str:
    return f"{KEY_PREFIX}:{{player.{player_id}}}:{HISTORY}:matches"


def marks_key(player_id: str) -> str:
    return f"{KEY_PREFIX}:{{player.{player_id}}}:{MARKS_NAME}"


def ratings_key(game: str) -> str:
    return f"{KEY_PREFIX}:{{game.{game}}}:{HISTORY}:ratings"


def leaderboard_key(game: str) -> str:
    return f"{KEY_PREFIX}:{{game.{game}}}:{HISTORY}:leaderboard"


def rated_key(game: str) -> str:
    return f"{KEY_PREFIX}:{{game.{game}}}:{HISTORY}:rated"


class NoSuchMatch(LookupError):
    """A notification names a match whose log does not exist (or does not reach that version)."""


@dataclass(frozen=True)
class Applied:
    """One update: versions after ``before`` up to ``after`` are now in the read models."""

    match: str
    before: int
    after: int
    finished: bool


@dataclass(frozen=True)
class Plan:
    """What the next entries of a match change, computed from its summary at ``before``."""

    match: str
    before: int
    update: projections.Update
    teams: list[list[int]] | None  # the sides, when these entries finished the match

    @property
    def after(self) -> int:
        return int(self.update.summary["version"])

    @property
    def finished(self) -> bool:
        return self.update.finished


class ReadModels:
    def __init__(
        self, client: redis.Redis, log: MatchLog, archive_after_s: float | None = None
    ) -> None:
        """``archive_after_s``: how long after its finish a match is due to be archived
        (None: never)."""
        self.client = client
        self.log = log
        self.archive_after_s = archive_after_s
        self._index = client.register_script(INDEX_SCRIPT)

    # -- keys of a match's slot -----------------------------------------------------------
    def summary_key(self, match_id: str) -> str:
        return self.log.partition_key(self.log.partition(match_id), f"{HISTORY}:match:{match_id}")

    def sheet_key(self, match_id: str) -> str:
        return self.log.partition_key(self.log.partition(match_id), f"{HISTORY}:scores:{match_id}")

    def journal_key(self, partition: int) -> str:
        return self.log.partition_key(partition, JOURNAL_NAME)

    def archive_due_key(self, partition: int) -> str:
        return self.log.partition_key(partition, ARCHIVE_DUE_NAME)

    # -- writing -------------------------------------------------------------------------------
    def catch_up(self, match_id: str, upto: int | None = None, feed_id: str = "") -> Applied | None:
        """Apply the match's entries after the last one applied, up to ``upto`` (None: all).

        Returns None when there was nothing to apply: a repeated notification is a no-op.
        Applying only up to the notified version keeps the order of rating updates the
        order of the feed, whether the consumer runs live or rebuilds from the start.
        """
        while True:
            plan = self.plan(match_id, upto)
            if plan is None:
                return None
            self.index_players(plan)
            if plan.finished:
                self.rate(plan)
            if self.commit(plan, feed_id):
                return Applied(match_id, plan.before, plan.after, plan.finished)
            # another consumer moved this match on meanwhile: plan again from its summary

    def plan(self, match_id: str, upto: int | None = None) -> Plan | None:
        """The update that brings the match from its summary up to ``upto`` (None: the end);
        None when the summary is there already. Reads only."""
        summary = self.summary(match_id)
        before = summary["version"] if summary else 0
        if upto is not None and before >= upto:
            return None
        limit = None if upto is None else upto - before
        entries = self.log.entries(match_id, after=before, limit=limit)
        if not entries:
            if upto is None and summary is not None:
                return None
            raise NoSuchMatch(f"match {match_id} has no entry after version {before}")
        update = projections.project(summary, entries)
        teams = projections.teams_of(update.summary) if update.finished else None
        return Plan(match_id, before, update, teams)

    def index_players(self, plan: Plan) -> int:
        """Step 1: file the match in (or out of) each touched player's index; how many changed."""
        changed = 0
        touched = [(p, "add", score) for p, score in plan.update.joined.items()]
        touched += [(p, "rem", 0.0) for p in sorted(plan.update.left)]
        for player, op, score in touched:
            keys = [player_key(player), marks_key(player)]
            changed += int(self._index(keys, [plan.match, plan.after, op, score]))
        return changed

    def rate(self, plan: Plan) -> bool:
        """Step 2: the finished match in its game's ratings, once; False if it was already."""
        summary, teams = plan.update.summary, plan.teams or []
        game = summary["game"]
        ratings, rated = ratings_key(game), rated_key(game)
        while True:
            with self.client.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(ratings, rated)  # two finishes of one game must not interleave
                    if pipe.sismember(rated, plan.match):
                        pipe.unwatch()
                        return False
                    players = projections.seated_players(summary)
                    raw = pipe.hmget(ratings, players) if players else []
                    current = {p: _load(r) for p, r in zip(players, raw, strict=True)}
                    records = projections.rate(summary, teams, current)
                    pipe.multi()
                    if records:
                        pipe.hset(ratings, mapping={p: _dump(r) for p, r in records.items()})
                        ordinals = {p: projections.ordinal(r) for p, r in records.items()}
                        pipe.zadd(leaderboard_key(game), ordinals)
                    pipe.sadd(rated, plan.match)
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue  # another finish of this game came first: read again

    def commit(self, plan: Plan, feed_id: str = "") -> bool:
        """Step 3, last: the new summary, the sheet of a finish and the journal entry, in one
        MULTI on the match's slot, if the summary is still the one planned from."""
        key = self.summary_key(plan.match)
        summary = plan.update.summary
        partition = self.log.partition(plan.match)
        with self.client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(key)
                current = _load(pipe.get(key))
                if (current["version"] if current else 0) != plan.before:
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.set(key, _dump(summary))
                if plan.teams is not None:
                    sheet = projections.final_sheet(summary, plan.teams)
                    pipe.set(self.sheet_key(plan.match), _dump(sheet))
                    if self.archive_after_s is not None:  # with the finish: never forgotten
                        due = {plan.match: time.time() + self.archive_after_s}
                        pipe.zadd(self.archive_due_key(partition), due, nx=True)
                journal: dict[Any, Any] = {
                    "match": plan.match,
                    "from": plan.before,
                    "to": plan.after,
                    "feed": feed_id,
                    "applied_ms": int(time.time() * 1000),
                }
                maxlen = max(JOURNAL_MAXLEN // self.log.partitions, 1_000)
                pipe.xadd(self.journal_key(partition), journal, maxlen=maxlen, approximate=True)
                pipe.execute()
                return True
            except redis.WatchError:
                return False

    # -- reading -------------------------------------------------------------------------------
    def summary(self, match_id: str) -> Summary | None:
        return _load(self.client.get(self.summary_key(match_id)))

    def sheet(self, match_id: str) -> dict[str, Any] | None:
        return _load(self.client.get(self.sheet_key(match_id)))

    def player_matches(
        self,
        player_id: str,
        limit: int,
        before: float | None = None,
        archived: Callable[[str], dict[str, Any] | None] = lambda match_id: None,
    ) -> list[Summary]:
        """The player's matches, newest first (created before ``before``, if given); the
        summary of an archived match from its document (``archived``: match id -> it).
        A match whose summary is not written yet (its update under way) is not listed."""
        top = f"({before}" if before is not None else "+inf"
        ids: Any = self.client.zrevrangebyscore(player_key(player_id), top, "-inf", 0, limit)
        if not ids:
            return []
        pipe = self.client.pipeline(transaction=False)  # summaries hash apart on a cluster
        for match_id in ids:
            pipe.get(self.summary_key(match_id))
        found = []
        for match_id, raw in zip(ids, pipe.execute(), strict=True):
            doc = _load(raw) or (archived(match_id) or {}).get("summary")
            if doc is not None:
                found.append(doc)
        return found

    def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        """The best-rated players of a game, best first, each with rank and rating."""
        rows: Any = self.client.zrevrange(leaderboard_key(game), 0, limit - 1, withscores=True)
        if not rows:
            return []
        raw: Any = self.client.hmget(ratings_key(game), [player for player, _ in rows])
        board = []
        for rank, ((player, score), record) in enumerate(zip(rows, raw, strict=True), start=1):
            doc = _load(record) or {"player": player}
            board.append({"rank": rank, **doc, "rating": score})
        return board

    def rating(self, game: str, player_id: str) -> dict[str, Any] | None:
        """One player's rating record in a game (None: never rated there)."""
        return _load(self.client.hget(ratings_key(game), player_id))

    def journal(self, since_ms: int = 0, count: int | None = None) -> list[dict[str, Any]]:
        """The applied updates since ``since_ms`` (epoch ms), oldest first, merged from every
        partition's journal (for the lag benchmark and operators)."""
        pipe = self.client.pipeline(transaction=False)
        for partition in range(self.log.partitions):
            pipe.xrange(self.journal_key(partition), min=f"{since_ms}-0", count=count)
        streams = [
            [(_stream_order(entry_id), {"id": entry_id, **fields}) for entry_id, fields in rows]
            for rows in pipe.execute()
        ]
        merged = [row for _, row in heapq.merge(*streams, key=lambda pair: pair[0])]
        return merged if count is None else merged[:count]

    def journal_length(self) -> int:
        pipe = self.client.pipeline(transaction=False)
        for partition in range(self.log.partitions):
            pipe.xlen(self.journal_key(partition))
        return sum(int(n) for n in pipe.execute())


def _stream_order(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def _load(raw: Any) -> Any:
    return json.loads(raw) if raw else None


def _dump(doc: Any) -> str:
    return json.dumps(doc, separators=(",", ":"), sort_keys=True)
