"""The history consumer: reads every feed partition with the consumer group "history".

Delivery is at least once, the effect exactly once: a notification is acknowledged only
after ``ReadModels.catch_up`` has written its match's update (atomically with the last
version applied), so a crash before the XACK redelivers it and the redelivery finds
nothing left to do. The feed only says "match M reached version V"; the entries
themselves always come from the match log.

Notifications left pending by a consumer that died are taken over with XAUTOCLAIM once
idle for ``min_idle_ms``; the same path retries this consumer's own failures. A
notification delivered ``max_deliveries`` times without success is a poison: it is
moved to the partition's dead-letter stream (with its last error) and acknowledged, so
it never blocks the group.

    python -m services.history.consumer          # REDIS_URL, FEED_PARTITIONS, HISTORY_*
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import time
from dataclasses import dataclass
from typing import Any

import redis
from prometheus_client import Counter, Histogram, start_http_server

from services.http import JsonLogFormatter
from shared.eventstore import KEY_PREFIX, MatchLog

from .store import ReadModels

GROUP = "history"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

LAG = Histogram(
    "tapete_history_lag_seconds",
    "from a feed entry's append to the read-model update that includes it",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60),
)
HANDLED = Counter("tapete_history_notifications_total", "notifications handled", ["outcome"])

log = logging.getLogger("tapete.history.consumer")


Message = tuple[str, dict[str, str]]


def plan(
    messages: list[Message],
) -> tuple[dict[str, tuple[int, list[str]]], list[tuple[str, Exception]]]:
    """Group a batch by match: {match: (highest version, ids)}, ordered by each match's last
    notification, and the malformed notifications with why."""
    groups: dict[str, tuple[int, list[str]]] = {}
    last: dict[str, int] = {}
    malformed: list[tuple[str, Exception]] = []
    for position, (message_id, fields) in enumerate(messages):
        try:
            match_id, version = fields["match"], int(fields["version"])
        except (KeyError, TypeError, ValueError) as exc:
            malformed.append((message_id, exc))
            continue
        upto, ids = groups.get(match_id, (0, []))
        groups[match_id] = (max(upto, version), [*ids, message_id])
        last[match_id] = position
    ordered = dict(sorted(groups.items(), key=lambda item: last[item[0]]))
    return ordered, malformed


def dead_key(partition: int) -> str:
    """Dead letters of one partition, beside its feed (same hash tag: XADD + XACK in one MULTI)."""
    return f"{KEY_PREFIX}:{{p{partition}}}:history:dead"


def errors_key(partition: int) -> str:
    """Feed id -> the last error of a notification that failed, for its dead letter."""
    return f"{KEY_PREFIX}:{{p{partition}}}:history:errors"


@dataclass(frozen=True)
class Settings:
    name: str
    batch: int = 100
    block_ms: int = 1000
    min_idle_ms: int = 10_000
    max_deliveries: int = 5
    claim_every_s: float = 1.0

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ.get
        return cls(
            name=env("HISTORY_CONSUMER_NAME") or f"{socket.gethostname()}-{os.getpid()}",
            batch=int(env("HISTORY_BATCH", "100")),
            block_ms=int(env("HISTORY_BLOCK_MS", "1000")),
            min_idle_ms=int(env("HISTORY_MIN_IDLE_MS", "10000")),
            max_deliveries=int(env("HISTORY_MAX_DELIVERIES", "5")),
            claim_every_s=float(env("HISTORY_CLAIM_EVERY_S", "1.0")),
        )


class Consumer:
    def __init__(self, models: ReadModels, settings: Settings) -> None:
        self.models = models
        self.log: MatchLog = models.log
        self.client: Any = models.client
        self.settings = settings
        self.streams = {self.log.feed_key(p): p for p in range(self.log.partitions)}
        self.stopping = False
        self._last_claim = float("-inf")

    def ensure_groups(self) -> None:
        """Create the group on every partition, reading from the very first notification."""
        for stream in self.streams:
            try:
                self.client.xgroup_create(stream, GROUP, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def run(self) -> None:
        """Consume until ``stopping``; Redis outages and a lost group are waited out."""
        backoff = 0.1
        while not self.stopping:
            try:
                self.ensure_groups()
                while not self.stopping:
                    self.step()
                    backoff = 0.1
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                log.warning("redis unavailable: %s; retrying in %.1fs", exc, backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
            except redis.ResponseError as exc:
                if "NOGROUP" not in str(exc):
                    raise
                log.warning("consumer group lost (%s): creating it again", exc)

    def step(self) -> int:
        """Take over stale pending notifications (now and then), then read and handle new ones."""
        handled = 0
        if time.monotonic() - self._last_claim >= self.settings.claim_every_s:
            self._last_claim = time.monotonic()
            handled += self.reclaim()
        reply: Any = self.client.xreadgroup(
            GROUP,
            self.settings.name,
            {stream: ">" for stream in self.streams},
            count=self.settings.batch,
            block=self.settings.block_ms,
        )
        for stream, messages in reply or []:
            self.handle(stream, messages)
            handled += len(messages)
        return handled

    def reclaim(self) -> int:
        """XAUTOCLAIM what has been pending too long; dead-letter what failed too often."""
        handled = 0
        for stream in self.streams:
            cursor = "0-0"
            while True:
                cursor, messages, _deleted = self.client.xautoclaim(
                    stream, GROUP, self.settings.name, self.settings.min_idle_ms, cursor,
                    count=self.settings.batch,
                )  # fmt: skip
                retries = []
                for message_id, fields in messages:
                    if self._deliveries(stream, message_id) > self.settings.max_deliveries:
                        self.dead_letter(stream, message_id, fields or {})
                    else:
                        retries.append((message_id, fields or {}))
                self.handle(stream, retries, retry=True)
                handled += len(messages)
                if cursor in ("0-0", b"0-0"):
                    break
        return handled

    def handle(self, stream: str, messages: list[Message], retry: bool = False) -> None:
        """Bring each notified match up to its notified version, then acknowledge.

        A batch's notifications of one match make one update, up to the highest version
        among them. Matches are updated in the order of their last notification: a match's
        last one is its finish, if any, so ratings still change in the feed's order.
        """
        groups, malformed = plan(messages)
        for message_id, problem in malformed:
            self._failed(stream, [message_id], problem)
        for match_id, (upto, ids) in groups.items():
            try:
                applied = self.models.catch_up(match_id, upto, ids[-1])
            except Exception as exc:  # any failure is retried, and after a few, dead-lettered
                self._failed(stream, ids, exc)
                continue
            if applied is not None:
                now = time.time()
                for message_id in ids:
                    LAG.observe(max(now - int(message_id.split("-")[0]) / 1000, 0.0))
            HANDLED.labels("applied" if applied else "no-op").inc(len(ids))
            self.client.xack(stream, GROUP, *ids)
            if retry:  # they may have failed before: forget their errors
                self.client.hdel(errors_key(self.streams[stream]), *ids)

    def _failed(self, stream: str, ids: list[str], exc: Exception) -> None:
        """Leave them pending (XAUTOCLAIM retries them) and note why, for a dead letter."""
        HANDLED.labels("failed").inc(len(ids))
        log.warning("notifications %s %s failed: %r", stream, ids, exc)
        error = repr(exc)[:1000]
        self.client.hset(errors_key(self.streams[stream]), mapping=dict.fromkeys(ids, error))

    def dead_letter(self, stream: str, message_id: str, fields: dict[str, str]) -> None:
        """Move a poison notification to the dead-letter stream and acknowledge it, atomically."""
        partition = self.streams[stream]
        error = self.client.hget(errors_key(partition), message_id) or "failed in another consumer"
        record = {
            **{k: v for k, v in fields.items() if k in ("match", "version", "kind")},
            "feed": stream,
            "id": message_id,
            "deliveries": self._deliveries(stream, message_id),
            "error": error,
            "consumer": self.settings.name,
            "time_ms": int(time.time() * 1000),
        }
        pipe = self.client.pipeline(transaction=True)
        pipe.xadd(dead_key(partition), record)
        pipe.xack(stream, GROUP, message_id)
        pipe.hdel(errors_key(partition), message_id)
        pipe.execute()
        HANDLED.labels("dead-lettered").inc()
        log.error("notification %s %s dead-lettered: %s", stream, message_id, error)

    def _deliveries(self, stream: str, message_id: str) -> int:
        rows = self.client.xpending_range(stream, GROUP, message_id, message_id, 1)
        return int(rows[0]["times_delivered"]) if rows else 0


def redis_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url, decode_responses=True, socket_timeout=30, socket_connect_timeout=2
    )


def main() -> int:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLogFormatter("history-consumer"))
    log.addHandler(handler)
    log.setLevel(os.environ.get("LOG_LEVEL", "INFO"))
    log.propagate = False
    client = redis_client(os.environ.get("REDIS_URL", DEFAULT_REDIS_URL))
    partitions = int(os.environ.get("FEED_PARTITIONS", "1"))
    models = ReadModels(client, MatchLog(client, partitions=partitions))
    consumer = Consumer(models, Settings.from_env())
    metrics_port = os.environ.get("HISTORY_CONSUMER_METRICS_PORT")
    if metrics_port:
        start_http_server(
            int(metrics_port), addr=os.environ.get("HISTORY_CONSUMER_METRICS_ADDR", "0.0.0.0")
        )

    def stop(signum: int, _frame: Any) -> None:
        consumer.stopping = True  # finish the notification in hand, then leave

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log.info("consuming %s as %s", ", ".join(consumer.streams), consumer.settings.name)
    consumer.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
