"""A Redis consumer group over every feed partition: the loop that the history consumer
and the bot dispatcher share.

Delivery is at least once: a subclass acknowledges a notification (``ack``) only once it
has acted on it, and leaves it pending with ``failed`` otherwise. Notifications left
pending by a consumer that died, and this consumer's own failures, are taken over with
XAUTOCLAIM once idle for ``min_idle_ms``; one delivered more than ``max_deliveries``
times is a poison: it moves to the partition's dead-letter stream, with its last error,
and is acknowledged in the same MULTI, so it never blocks the group, unless the subclass
says it is ``still_needed`` (the bot dispatcher: dropping it would strand a match).

Replicas of a consumer share the partitions: each says it is alive in the group's member
set every ``claim_every_s`` and reads (and reclaims) only its share of the partitions, the
ones whose number modulo the live members is its rank among them. A member silent for
three rounds is dropped and its partitions go to the others, who reclaim what it left
pending. A replica with no share (more replicas than partitions) reads them all, as
plain members of the group do. On a cluster, a share is read in one pipeline per node.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

import redis
from prometheus_client import Counter

from shared.eventstore import KEY_PREFIX, MatchLog
from shared.heartbeat import Heartbeat
from shared.redisconn import UNAVAILABLE, read_streams

Message = tuple[str, dict[str, str]]


def dead_key(group: str, partition: int) -> str:
    """Dead letters of one partition, beside its feed (same hash tag: XADD + XACK in one MULTI)."""
    return f"{KEY_PREFIX}:{{p{partition}}}:{group}:dead"


def errors_key(group: str, partition: int) -> str:
    """Feed id -> the last error of a notification that failed, for its dead letter."""
    return f"{KEY_PREFIX}:{{p{partition}}}:{group}:errors"


def members_key(group: str) -> str:
    """The group's live replicas: a sorted set, name -> when it stops counting (epoch s)."""
    return f"{KEY_PREFIX}:{{group-{group}}}:members"


def share_of(partitions: int, members: list[str], name: str) -> list[int]:
    """The partitions ``name`` reads among ``members``: p with p % len(members) == its rank;
    all of them when that leaves it none (or it is not among them)."""
    if name not in members:
        return list(range(partitions))
    rank = members.index(name)
    mine = [p for p in range(partitions) if p % len(members) == rank]
    return mine or list(range(partitions))


def process_name() -> str:
    """A consumer's default name: this host and process."""
    return f"{socket.gethostname()}-{os.getpid()}"


@dataclass(frozen=True)
class GroupSettings:
    name: str  # this consumer's name in the group
    batch: int = 100
    block_ms: int = 1000
    min_idle_ms: int = 10_000
    max_deliveries: int = 5
    claim_every_s: float = 1.0

    @classmethod
    def from_env(cls, prefix: str, name_variable: str, env: Mapping[str, str] = os.environ) -> Self:
        """Each setting from ``<prefix>_<FIELD>`` (``HISTORY_BLOCK_MS``...), else its default;
        the name from ``name_variable``, else this host and process. The services call it
        once, through ``services.settings.Settings.from_env``."""
        values: dict[str, Any] = {}
        for setting in dataclasses.fields(cls):
            raw = env.get(f"{prefix}_{setting.name.upper()}")
            if setting.name != "name" and raw is not None:
                number = float if isinstance(setting.default, float) else int  # as declared
                values[setting.name] = number(raw)
        return cls(name=env.get(name_variable) or process_name(), **values)


class FeedGroup:
    """Subclasses name their ``group`` and implement ``handle``; ``step`` may add work."""

    group = ""

    def __init__(
        self, log: MatchLog, settings: GroupSettings, outcomes: Counter, logger: logging.Logger
    ) -> None:
        self.log = log
        self.client: Any = log.client
        self.settings = settings
        self.outcomes = outcomes  # counts notifications by outcome, failed and dead-lettered too
        self.logger = logger
        self.streams = {log.feed_key(p): p for p in range(log.partitions)}  # every partition
        self.owned = list(self.streams)  # the ones this replica reads now (``share``)
        self.stopping = False
        self.heartbeat = Heartbeat(None)  # the process's main gives it its folder
        self._last_claim = float("-inf")

    def share(self) -> list[str]:
        """Say this replica is alive, and take its share of the partitions among the live."""
        now = time.time()
        key = members_key(self.group)
        alive_for = 3 * max(self.settings.claim_every_s, 0.5)
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(key, {self.settings.name: now + alive_for})
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zrange(key, 0, -1)
        members = pipe.execute()[-1]
        partitions = share_of(self.log.partitions, sorted(members), self.settings.name)
        owned = [self.log.feed_key(p) for p in partitions]
        if owned != self.owned:
            self.logger.info("reading %d of %d partitions", len(owned), len(self.streams))
        self.owned = owned
        return owned

    def leave(self) -> None:
        """Give this replica's partitions to the others at once (on a clean stop)."""
        with contextlib.suppress(redis.RedisError):  # else it runs out by itself
            self.client.zrem(members_key(self.group), self.settings.name)

    def handle(self, stream: str, messages: list[Message], retry: bool = False) -> None:
        """Act on a batch of one stream, then ``ack`` or ``failed`` each notification."""
        raise NotImplementedError

    def ensure_groups(self) -> None:
        """Create the group on every partition, reading from the very first notification."""
        for stream in self.streams:
            try:
                self.client.xgroup_create(stream, self.group, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def run(self) -> None:
        """Consume until ``stopping``; Redis outages and a lost group are waited out, with a
        pause that doubles up to 5 s. The heartbeat says the loop turns, and whether Redis
        answered."""
        backoff = 0.1
        while not self.stopping:
            try:
                self.ensure_groups()
                while not self.stopping:
                    self.step()
                    self.heartbeat.ready()
                    backoff = 0.1
            except UNAVAILABLE as exc:
                self.heartbeat.alive()
                self.logger.warning("redis unavailable: %s; retrying in %.1fs", exc, backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
            except redis.ResponseError as exc:
                if "NOGROUP" not in str(exc):
                    raise
                self.logger.warning("consumer group lost (%s): creating it again", exc)
        self.leave()

    def step(self) -> int:
        """Now and then take over stale pending notifications; then read and handle new ones."""
        handled = 0
        if time.monotonic() - self._last_claim >= self.settings.claim_every_s:
            self._last_claim = time.monotonic()
            self.share()
            handled += self.reclaim()
        reply = read_streams(
            self.client,
            dict.fromkeys(self.owned, ">"),
            count=self.settings.batch,
            block_ms=self.settings.block_ms,
            group=(self.group, self.settings.name),
        )
        for stream, messages in reply:
            self.handle(stream, messages)
            handled += len(messages)
        return handled

    def reclaim(self) -> int:
        """XAUTOCLAIM what has been pending too long; dead-letter what failed too often."""
        handled = 0
        for stream in self.owned:
            cursor = "0-0"
            while True:
                cursor, messages, _deleted = self.client.xautoclaim(
                    stream, self.group, self.settings.name, self.settings.min_idle_ms, cursor,
                    count=self.settings.batch,
                )  # fmt: skip
                retries = []
                for message_id, fields in messages:
                    fields = fields or {}
                    too_often = self.deliveries(stream, message_id) > self.settings.max_deliveries
                    if too_often and not self.still_needed(fields):
                        self.dead_letter(stream, message_id, fields)
                    else:
                        retries.append((message_id, fields))
                if retries:
                    self.handle(stream, retries, retry=True)
                handled += len(messages)
                if cursor in ("0-0", b"0-0"):
                    break
        return handled

    def still_needed(self, fields: dict[str, str]) -> bool:
        """Whether a notification delivered too often must still be tried rather than
        dead-lettered: never, here; a subclass that strands a match by dropping one says so."""
        return False

    def ack(self, stream: str, ids: list[str], retry: bool = False) -> None:
        """Done with them; a retried one's earlier error is forgotten."""
        self.client.xack(stream, self.group, *ids)
        if retry:
            self.client.hdel(errors_key(self.group, self.streams[stream]), *ids)

    def failed(self, stream: str, ids: list[str], exc: Exception) -> None:
        """Leave them pending (XAUTOCLAIM retries them) and note why, for a dead letter."""
        self.outcomes.labels("failed").inc(len(ids))
        self.logger.warning("notifications %s %s failed: %r", stream, ids, exc)
        error = repr(exc)[:1000]
        key = errors_key(self.group, self.streams[stream])
        self.client.hset(key, mapping=dict.fromkeys(ids, error))

    def dead_letter(self, stream: str, message_id: str, fields: dict[str, str]) -> None:
        """Move a poison notification to the dead-letter stream and acknowledge it, atomically."""
        partition = self.streams[stream]
        errors = errors_key(self.group, partition)
        error = self.client.hget(errors, message_id) or "failed in another consumer"
        record = {
            **{k: v for k, v in fields.items() if k in ("match", "version", "kind")},
            "feed": stream,
            "id": message_id,
            "deliveries": self.deliveries(stream, message_id),
            "error": error,
            "consumer": self.settings.name,
            "time_ms": int(time.time() * 1000),
        }
        pipe = self.client.pipeline(transaction=True)
        pipe.xadd(dead_key(self.group, partition), record)
        pipe.xack(stream, self.group, message_id)
        pipe.hdel(errors, message_id)
        pipe.execute()
        self.outcomes.labels("dead-lettered").inc()
        self.logger.error("notification %s %s dead-lettered: %s", stream, message_id, error)

    def deliveries(self, stream: str, message_id: str) -> int:
        rows = self.client.xpending_range(stream, self.group, message_id, message_id, 1)
        return int(rows[0]["times_delivered"]) if rows else 0
