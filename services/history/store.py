"""The history read models in Redis, and the one atomic step that brings a match up to date.

Keys (all under the hash tag ``{history}``, so each update's MULTI/EXEC and WATCH hold
on Redis Cluster too):

    tapete:{history}:match:<id>             JSON summary; its ``version`` is the last entry applied
    tapete:{history}:scores:<id>            JSON score sheet, written when the match finishes
    tapete:{history}:player:<id>:matches    sorted set: match id, scored by creation time
    tapete:{history}:ratings:<game>         hash: player id -> JSON rating record
    tapete:{history}:leaderboard:<game>     sorted set: player id, scored by rating ordinal
    tapete:{history}:journal                stream (capped): match, from, to, feed id, applied_ms

``catch_up`` reads the summary under WATCH, reads the next entries from the match log,
asks the pure projections what changes, and writes it all with the new summary in one
MULTI/EXEC: a read model and its "last entry applied" can never disagree, and a
notification delivered twice finds nothing left to apply.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from shared.eventstore import MatchLog

from . import projections
from .projections import Summary

PREFIX = "tapete:{history}"
JOURNAL_KEY = f"{PREFIX}:journal"
JOURNAL_MAXLEN = 100_000


def summary_key(match_id: str) -> str:
    return f"{PREFIX}:match:{match_id}"


def sheet_key(match_id: str) -> str:
    return f"{PREFIX}:scores:{match_id}"


def player_key(player_id: str) -> str:
    return f"{PREFIX}:player:{player_id}:matches"


def ratings_key(game: str) -> str:
    return f"{PREFIX}:ratings:{game}"


def leaderboard_key(game: str) -> str:
    return f"{PREFIX}:leaderboard:{game}"


class NoSuchMatch(LookupError):
    """A notification names a match whose log does not exist (or does not reach that version)."""


@dataclass(frozen=True)
class Applied:
    """One atomic update: versions after ``before`` up to ``after`` are now in the read models."""

    match: str
    before: int
    after: int
    finished: bool


class ReadModels:
    def __init__(self, client: redis.Redis, log: MatchLog) -> None:
        self.client = client
        self.log = log

    # -- writing -------------------------------------------------------------------------------
    def catch_up(self, match_id: str, upto: int | None = None, feed_id: str = "") -> Applied | None:
        """Apply the match's entries after the last one applied, up to ``upto`` (None: all).

        Returns None when there was nothing to apply: a repeated notification is a no-op.
        Applying only up to the notified version keeps the order of rating updates the
        order of the feed, whether the consumer runs live or rebuilds from the start.
        """
        key = summary_key(match_id)
        while True:
            with self.client.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(key)
                    summary = _load(pipe.get(key))
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
                    self._queue(pipe, match_id, update, before, feed_id)
                    pipe.execute()
                    after = update.summary["version"]
                    return Applied(match_id, before, after, update.finished)
                except redis.WatchError:
                    continue  # another consumer moved this match on: look again

    def _queue(
        self, pipe: Any, match_id: str, update: projections.Update, before: int, feed_id: str
    ) -> None:
        """Read what the update depends on (under WATCH), then queue every write in MULTI."""
        summary = update.summary
        game = summary["game"]
        ratings: dict[str, dict[str, Any]] = {}
        sheet = None
        if update.finished:
            pipe.watch(ratings_key(game))  # two finishes of one game must not interleave
            players = projections.seated_players(summary)
            raw = pipe.hmget(ratings_key(game), players) if players else []
            current = {p: _load(r) for p, r in zip(players, raw, strict=True)}
            teams = projections.teams_of(summary)
            ratings = projections.rate(summary, teams, current)
            sheet = projections.final_sheet(summary, teams)
        pipe.multi()
        pipe.set(summary_key(match_id), _dump(summary))
        for player, score in update.joined.items():
            pipe.zadd(player_key(player), {match_id: score})
        for player in update.left:
            pipe.zrem(player_key(player), match_id)
        if sheet is not None:
            pipe.set(sheet_key(match_id), _dump(sheet))
        if ratings:
            pipe.hset(ratings_key(game), mapping={p: _dump(r) for p, r in ratings.items()})
            pipe.zadd(
                leaderboard_key(game), {p: projections.ordinal(r) for p, r in ratings.items()}
            )
        journal = {
            "match": match_id,
            "from": before,
            "to": summary["version"],
            "feed": feed_id,
            "applied_ms": int(time.time() * 1000),
        }
        pipe.xadd(JOURNAL_KEY, journal, maxlen=JOURNAL_MAXLEN, approximate=True)

    # -- reading -------------------------------------------------------------------------------
    def summary(self, match_id: str) -> Summary | None:
        return _load(self.client.get(summary_key(match_id)))

    def sheet(self, match_id: str) -> dict[str, Any] | None:
        return _load(self.client.get(sheet_key(match_id)))

    def player_matches(
        self,
        player_id: str,
        limit: int,
        before: float | None = None,
        archived: Callable[[str], dict[str, Any] | None] = lambda match_id: None,
    ) -> list[Summary]:
        """The player's matches, newest first (created before ``before``, if given); the
        summary of an archived match from its document (``archived``: match id -> it)."""
        top = f"({before}" if before is not None else "+inf"
        ids: Any = self.client.zrevrangebyscore(player_key(player_id), top, "-inf", 0, limit)
        if not ids:
            return []
        pipe = self.client.pipeline(transaction=False)  # summaries hash apart on a cluster
        for match_id in ids:
            pipe.get(summary_key(match_id))
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

    def journal(self, count: int | None = None) -> list[dict[str, Any]]:
        """The applied updates, oldest first (for the lag benchmark and operators)."""
        rows: Any = self.client.xrange(JOURNAL_KEY, count=count)
        return [{"id": entry_id, **fields} for entry_id, fields in rows]


def _load(raw: Any) -> Any:
    return json.loads(raw) if raw else None


def _dump(doc: Any) -> str:
    return json.dumps(doc, separators=(",", ":"), sort_keys=True)
