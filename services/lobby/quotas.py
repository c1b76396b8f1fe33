"""What one player, or all of them, may hold: open matches, open streams, room in Redis.

A match nobody starts costs memory for ever, and a full Redis refuses every write, moves
included. So each player holds at most ``open_per_player`` open matches, an open match
unchanged for ``open_idle_s`` seconds is deleted by Redis itself (its keys expire; a start
makes them permanent), and new matches are refused once Redis uses ``memory_fraction`` of
its ``maxmemory``, leaving the rest to the moves of running matches. An open stream costs
its feed process memory and a socket: each player holds at most ``streams_per_player`` of
them, counted across every feed process (``OpenStreams``).
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import redis

from services.errors import Conflict, TooManyRequests, Unavailable
from services.settings import Settings

from .match import OPEN

OPEN_KEY = "tapete:player:{player}:open"  # set: the ids of the open matches a player created
STREAMS_KEY = "tapete:player:{player}:streams"  # sorted set: stream id -> its lease's end
STREAM_LEASE_S = 60.0  # a stream's count outlives a feed process that died by at most this


@dataclass(frozen=True)
class Quotas:
    open_per_player: int = Settings.open_matches_per_player
    open_idle_s: int = Settings.open_match_idle_s
    memory_fraction: float = Settings.new_match_memory_fraction
    streams_per_player: int = Settings.feed_streams_per_player

    @classmethod
    def from_settings(cls, settings: Settings) -> Quotas:
        return cls(
            settings.open_matches_per_player,
            settings.open_match_idle_s,
            settings.new_match_memory_fraction,
            settings.feed_streams_per_player,
        )


DEFAULT_QUOTAS = Quotas()


class OpenMatches:
    """Each player's open matches, to cap them. A member that is no longer open (started, or
    expired) is dropped when counted, so nothing has to tell this set that a match moved on."""

    def __init__(self, client: redis.Redis, quotas: Quotas) -> None:
        self.client = client
        self.quotas = quotas

    def check_room(self, player_id: str, snapshot_key: Callable[[str], str]) -> None:
        """Refuse (409) a new match of a player who already has the most open ones allowed;
        ``snapshot_key`` names a match's snapshot, where its status is read."""
        key = OPEN_KEY.format(player=player_id)
        ids = sorted(str(m) for m in self.client.smembers(key))  # type: ignore[union-attr]
        if len(ids) < self.quotas.open_per_player:
            return
        pipe = self.client.pipeline(transaction=False)
        for match_id in ids:
            pipe.hget(snapshot_key(match_id), "match")
        gone = [m for m, doc in zip(ids, pipe.execute(), strict=True) if not _is_open(doc)]
        if gone:
            self.client.srem(key, *gone)
        if len(ids) - len(gone) >= self.quotas.open_per_player:
            raise Conflict(
                f"you have {self.quotas.open_per_player} open matches already: start one, "
                "or wait for one to expire",
                code="too_many_open_matches",
            )

    def created(self, player_id: str, match_id: str) -> None:
        key = OPEN_KEY.format(player=player_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.sadd(key, match_id)
        pipe.expire(key, self.quotas.open_idle_s)  # outlives its members' keys by no more
        pipe.execute()

    def keep(self, keys: Iterable[str], still_open: bool) -> None:
        """An open match's keys expire after the idle time, counted again from each change;
        a started match's are kept."""
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            if still_open:
                pipe.expire(key, self.quotas.open_idle_s)
            else:
                pipe.persist(key)
        pipe.execute()


class OpenStreams:
    """Each player's open streams, counted in Redis so that every feed process sees them all.

    A stream holds a member of its player's sorted set, scored by the end of its lease
    (``lease_s``); the process serving it renews the leases of its streams a third of a
    lease apart (``renew``, a lot of its players at a time) and removes the member when the stream
    ends. A process that dies leaves its members to lapse with their leases, and a player's
    set expires with its last lease. Counting per process would let a player hold the cap
    in every feed process behind the load balancer; this counts one player's streams once.
    """

    def __init__(
        self,
        client: redis.Redis,
        per_player: int,
        retry_after: float,
        lease_s: float = STREAM_LEASE_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``retry_after``: what a refused player is told to wait (s): the time in which a
        stream its client has closed is noticed (a write to it fails: the heartbeat's)."""
        self.client = client
        self.per_player = per_player
        self.retry_after = max(1, math.ceil(retry_after))
        self.lease_s = lease_s
        self.clock = clock

    def open(self, player_id: str) -> str:
        """A new stream's id, counted for ``player_id``; 429 ``too_many_streams`` past the cap.

        Counted and added in one MULTI on the player's one key (one slot on a cluster):
        two processes opening the player's last free stream at once both see both, and
        refuse both rather than both taking it."""
        key = STREAMS_KEY.format(player=player_id)
        stream_id = secrets.token_hex(8)
        now = self.clock()
        pipe = self.client.pipeline(transaction=True)
        pipe.zremrangebyscore(key, "-inf", now)  # the leases of streams nobody renews
        pipe.zadd(key, {stream_id: now + self.lease_s})
        pipe.zcard(key)
        pipe.expire(key, math.ceil(self.lease_s))
        count = pipe.execute()[2]
        if count > self.per_player:
            self.client.zrem(key, stream_id)
            raise TooManyRequests(
                f"you have {self.per_player} streams open already: close one (a closed stream "
                f"is counted until the server notices, within {self.retry_after} s)",
                retry_after=self.retry_after,
                code="too_many_streams",
            )
        return stream_id

    def close(self, player_id: str, stream_id: str) -> None:
        self.client.zrem(STREAMS_KEY.format(player=player_id), stream_id)

    def renew(self, held: Iterable[tuple[str, str]]) -> None:
        """Extend the leases of the streams ``held`` ((player id, stream id)), still open."""
        until = self.clock() + self.lease_s
        by_player: dict[str, dict[str, float]] = {}
        for player_id, stream_id in held:
            by_player.setdefault(player_id, {})[stream_id] = until
        pipe = self.client.pipeline(transaction=False)
        for player_id, leases in by_player.items():
            key = STREAMS_KEY.format(player=player_id)
            pipe.zadd(key, leases)
            pipe.expire(key, math.ceil(self.lease_s))
        pipe.execute()


def check_memory(client: redis.Redis, fraction: float) -> None:
    """Refuse (503) to create a match once Redis uses ``fraction`` of its maxmemory."""
    if fraction <= 0:
        return
    info: dict = client.info("memory")  # type: ignore[assignment]
    limit = int(info.get("maxmemory") or 0)
    if limit and int(info["used_memory"]) >= fraction * limit:
        raise Unavailable(
            "the match store is nearly full: no new matches for now; running matches go on",
            code="store_full",
        )


def _is_open(doc: str | bytes | None) -> bool:
    return doc is not None and json.loads(doc)["status"] == OPEN
