"""The streaming feed: one Redis reader per process fans match entries out to its subscribers.

A subscriber is one open ``GET /v1/matches/{id}/stream``. It costs no thread and no Redis
connection of its own: the process's one ``Hub`` reader follows every feed partition with
``XREAD``, and for each new entry of a match that has subscribers here it reads the entry
from the match log once, redacts it once per distinct seat among them, and puts the bytes
in each subscriber's bounded buffer. A subscriber that falls ``capacity`` entries behind is
dropped (its stream ends; the client resumes from its last id), so a slow reader never makes
the process grow.

Exactly once and in order, across races and reconnects: a stream subscribes *before* it
reads the log after the client's last version, skips what it has already sent, and fills a
gap from the log, so an entry appended between the two is neither lost nor repeated.

Under gunicorn's gevent worker (``services/gunicorn_feed_conf.py``) the threads and events
below are greenlets, and thousands of streams share one process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import redis
from prometheus_client import REGISTRY, Counter, Gauge, Histogram

from services import tracing
from shared import jsoncodec
from shared.eventstore import MatchLog
from shared.redisconn import latest_ids, read_streams

from . import match as rules_of
from .match import FINISHED

log = logging.getLogger("tapete.lobby.feed")

SUBSCRIBERS = Gauge(
    "tapete_feed_subscribers", "open streams in this process", registry=REGISTRY,
    multiprocess_mode="livesum",
)  # fmt: skip
DROPPED = Counter(
    "tapete_feed_dropped_total", "streams closed because their reader fell behind",
    registry=REGISTRY,
)  # fmt: skip
DELIVERY = Histogram(
    "tapete_feed_delivery_seconds",
    "from an entry's append to its write on a stream",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
    registry=REGISTRY,
)

RETRY_MS = 1000  # what a client waits before reconnecting (the SSE "retry" field)
FINISHED_RETRY_MS = 3_600_000  # after the finished event: no reason to come back soon
READ_BLOCK_MS = 5000
READ_COUNT = 1000
CLOSE, DROP = "close", "drop"


def sse(version: int, entry: dict[str, Any]) -> bytes:
    """One entry as a Server-Sent Event whose id is its version."""
    return b"id: %d\nevent: entry\ndata: %s\n\n" % (version, jsoncodec.dumps(entry))


def finished_event(version: int, entry: dict[str, Any]) -> bytes:
    """The stream's last event once the match is over: the client closes its EventSource
    (the long ``retry`` slows one that would reconnect anyway)."""
    data = {"version": version, "status": entry.get("status"), "result": entry.get("result")}
    return b"retry: %d\nevent: finished\ndata: %s\n\n" % (FINISHED_RETRY_MS, jsoncodec.dumps(data))


HEARTBEAT = b": keep-alive\n\n"
HELLO = b"retry: %d\n\n" % RETRY_MS
GOODBYE = b"retry: %d\nevent: reconnect\ndata: {}\n\n" % RETRY_MS


# A buffered entry: its version, its SSE bytes, its append time (ms), and the finished event's
# bytes if it ended the match (else None).
Item = tuple[int, bytes, int, bytes | None]


class Subscriber:
    """One stream's bounded buffer of entries (``Item``) and its wake-up."""

    __slots__ = ("match_id", "player_id", "seat", "items", "capacity", "wake", "end")

    def __init__(self, match_id: str, player_id: str, seat: int | None, capacity: int) -> None:
        self.match_id, self.player_id, self.seat = match_id, player_id, seat
        self.items: deque[Item] = deque()
        self.capacity = capacity
        self.wake = threading.Event()
        self.end: str | None = None  # CLOSE (the process stops) or DROP (fell behind)

    def offer(self, item: Item) -> None:
        if len(self.items) >= self.capacity:
            if self.end is None:
                self.end = DROP
                DROPPED.inc()
        else:
            self.items.append(item)
        self.wake.set()

    def finish(self, how: str) -> None:
        self.end = self.end or how
        self.wake.set()

    def next(self, timeout: float) -> Item | str | None:
        """The next buffered item, CLOSE or DROP, or None after ``timeout`` s of silence."""
        if not self.items and self.end is None:
            self.wake.wait(timeout)
            self.wake.clear()
        if self.items:
            return self.items.popleft()
        return self.end


class Hub:
    """The process's one reader of the feed partitions and its subscribers, by match."""

    def __init__(self, store: MatchLog, capacity: int = 256) -> None:
        self.store = store
        self.capacity = capacity
        self.subscribers: dict[str, set[Subscriber]] = {}
        self.stopping = False
        self._started = False
        self._lock = threading.Lock()

    # -- subscribers -----------------------------------------------------------------------
    def subscribe(self, match_id: str, player_id: str, seat: int | None) -> Subscriber:
        self._start()
        sub = Subscriber(match_id, player_id, seat, self.capacity)
        if self.stopping:
            sub.finish(CLOSE)
        with self._lock:
            self.subscribers.setdefault(match_id, set()).add(sub)
        SUBSCRIBERS.inc()
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            subs = self.subscribers.get(sub.match_id)
            if subs is None or sub not in subs:
                return
            subs.discard(sub)
            if not subs:
                del self.subscribers[sub.match_id]
        SUBSCRIBERS.dec()

    def subscribers_of(self, match_id: str) -> list[Subscriber]:
        with self._lock:
            return list(self.subscribers.get(match_id, ()))

    def stop(self) -> None:
        """Tell every stream to end with a reconnect hint (SIGTERM): clients resume elsewhere."""
        self.stopping = True
        with self._lock:
            everyone = [sub for subs in self.subscribers.values() for sub in subs]
        for sub in everyone:
            sub.finish(CLOSE)

    # -- the reader ------------------------------------------------------------------------
    def _start(self) -> None:
        with self._lock:
            if not self._started:
                self._started = True
                threading.Thread(target=self._run, name="feed-reader", daemon=True).start()

    def _run(self) -> None:
        cursors: dict[str, str] = {}
        pause = 0.1
        while not self.stopping:
            try:
                if not cursors:  # from what comes next on every partition
                    keys = [self.store.feed_key(p) for p in range(self.store.partitions)]
                    cursors = latest_ids(self.store.client, keys)
                replies = read_streams(
                    self.store.client, cursors, count=READ_COUNT, block_ms=READ_BLOCK_MS
                )
                pause = 0.1
            except redis.RedisError as exc:
                log.warning("feed read failed, retrying", extra={"fields": {"error": str(exc)}})
                time.sleep(pause)
                pause = min(pause * 2, 5.0)
                continue
            for key, rows in replies:
                for stream_id, fields in rows:
                    cursors[key] = stream_id
                    with tracing.continued("feed deliver", [fields]):  # the move's trace
                        self._deliver(stream_id, fields)

    def _deliver(self, stream_id: str, fields: dict[str, Any]) -> None:
        """Read the entry once, redact it once per seat, and buffer it for each subscriber."""
        match_id = fields.get("match")
        subs = self.subscribers_of(match_id) if isinstance(match_id, str) else []
        if not subs or not isinstance(match_id, str):
            return
        version = int(fields["version"])
        try:
            [entry] = self.store.entries(match_id, after=version - 1, limit=1)
        except (ValueError, redis.RedisError):
            return  # the streams fill the gap from the log when the next entry comes
        appended_ms = int(stream_id.split("-")[0])
        payloads: dict[int | None, bytes] = {}
        ending = finished_event(version, entry) if entry.get("status") == FINISHED else None
        for sub in subs:
            sub.seat = seat_after(entry, sub.player_id, sub.seat)
            if sub.seat not in payloads:
                payloads[sub.seat] = sse(version, rules_of.public_entry(entry, sub.seat))
            sub.offer((version, payloads[sub.seat], appended_ms, ending))


def seat_after(entry: dict[str, Any], player_id: str, seat: int | None) -> int | None:
    """The player's seat once ``entry`` is applied: a stream follows its caller's joins."""
    for event in entry.get("events", ()):
        if event.get("player") == player_id:
            if event.get("type") in ("seat_joined", "bot_added"):
                seat = event["seat"]
            elif event.get("type") == "seat_left":
                seat = None
    return seat


def stream(
    hub: Hub,
    match_id: str,
    player_id: str,
    seat: int | None,
    after: int,
    heartbeat: float,
    clock: Callable[[], float] = time.time,
) -> Iterator[bytes]:
    """The bytes of one stream: every entry after ``after`` exactly once, in order, then live;
    once the match is finished, a ``finished`` event, and the stream ends."""
    sub = hub.subscribe(match_id, player_id, seat)
    ending: list[bytes] = []

    def from_log(after: int, limit: int | None = None) -> Iterator[tuple[int, bytes]]:
        """Entries read from the log (the backlog, or a gap), redacted for the caller. The
        backlog's read starts one entry early: resuming after the very end of a finished
        match must still say it is over."""
        start = max(after - 1, 0) if limit is None else after
        for entry in hub.store.entries(match_id, start, None if limit is None else limit):
            if entry.get("status") == FINISHED:
                ending[:] = [finished_event(entry["version"], entry)]
            if entry["version"] <= after:
                continue
            sub.seat = seat_after(entry, player_id, sub.seat)
            yield entry["version"], sse(entry["version"], rules_of.public_entry(entry, sub.seat))

    last = after
    try:
        yield HELLO
        for read, payload in from_log(after):
            last = read
            yield payload
        if ending:
            yield ending[0]
            return
        while True:
            item = sub.next(heartbeat)
            if item is None:
                yield HEARTBEAT
                continue
            if isinstance(item, str):  # CLOSE: the process stops; DROP: fell behind
                if item == CLOSE:
                    yield GOODBYE
                return
            version, payload, appended_ms, finished = item
            if version <= last:
                continue
            if version > last + 1:  # a gap (a failed read): fill it from the log
                for _read, missed in from_log(last, version - 1 - last):
                    yield missed
            yield payload
            DELIVERY.observe(max(0.0, clock() - appended_ms / 1000))
            last = version
            if finished or ending:
                yield finished or ending[0]
                return
    finally:
        hub.unsubscribe(sub)
