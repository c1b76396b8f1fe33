"""The streaming feed: one Redis reader per process fans match entries out to its subscribers.

A subscriber is one open ``GET /v1/matches/{id}/stream``. It costs no thread and no Redis
connection of its own: the process's one ``Hub`` reader follows every feed partition with
``XREAD``, and for each new entry of a match that has subscribers here it reads the entry
from the match log once, redacts it once per distinct seat among them, and puts the bytes
in each subscriber's bounded buffer. The reader never waits on a subscriber: it reads one
batch of notifications, then every entry they name in one round trip, then buffers them. Each
stream writes all that is buffered for it in one write. A subscriber that falls
``capacity`` entries behind is dropped: its stream ends with a ``reconnect`` event (the
client resumes from its last id), so a slow reader never makes the process grow nor delays
the others.

A client that stops reading altogether is cut off: a write to its stream that its client
has not taken within ``write_timeout`` seconds (the heartbeat interval) has the connection
shut down under it, so the stream ends, a finished match's included, whose ``finished``
event waits behind the unread bytes.
Each player has at most ``Quotas.streams_per_player`` streams open, counted across every
feed process (``quotas.OpenStreams``); the hub renews the count's leases of its streams.

Exactly once and in order, across races and reconnects: a stream subscribes *before* it
reads the log after the client's last version, skips what it has already sent, and fills a
gap from the log, so an entry appended between the two is neither lost nor repeated.

Under gunicorn's gevent worker (``services/gunicorn_feed_conf.py``) the threads and events
below are greenlets, and thousands of streams share one process.
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from prometheus_client import REGISTRY, Counter, Gauge, Histogram

from services import tracing
from services.lobby_events import names_at
from shared import jsoncodec
from shared.engine import DEFAULT_LANGUAGE
from shared.eventstore import MatchLog
from shared.redisconn import latest_ids, read_streams

from . import match as rules_of
from .match import FINISHED
from .quotas import OpenStreams

log = logging.getLogger("tapete.lobby.feed")

SUBSCRIBERS = Gauge(
    "tapete_feed_subscribers", "open streams in this process", registry=REGISTRY,
    multiprocess_mode="livesum",
)  # fmt: skip
DROPPED = Counter(
    "tapete_feed_dropped_total", "streams closed because their reader fell behind",
    registry=REGISTRY,
)  # fmt: skip
CUT = Counter(
    "tapete_feed_cut_total",
    "streams whose connection was shut down under a write their client did not take",
    registry=REGISTRY,
)
DELIVERY = Histogram(
    "tapete_feed_delivery_seconds",
    "from an entry's append to its write on a stream",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
    registry=REGISTRY,
)


class Tally:
    """Delivery delays counted here and added to ``histogram`` at once (``flush``, every
    ``WATCH_EVERY_S``): a stream's write costs a list increment, not the metric's lock and
    bucket search. prometheus_client has no way to observe many values at once, so ``flush``
    adds to the histogram's buckets and sum as its ``observe`` does."""

    def __init__(self, histogram: Histogram) -> None:
        self.histogram = histogram
        self.bounds: list[float] = list(histogram._upper_bounds)
        self.counts = [0] * len(self.bounds)
        self.total = 0.0

    def add(self, delay: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, delay)] += 1
        self.total += delay

    def flush(self) -> None:
        counts, self.counts = self.counts, [0] * len(self.bounds)
        total, self.total = self.total, 0.0
        for bucket, count in zip(self.histogram._buckets, counts, strict=True):
            if count:
                bucket.inc(count)
        if any(counts):
            self.histogram._sum.inc(total)


RETRY_MS = 1000  # what a client waits before reconnecting (the SSE "retry" field)
FINISHED_RETRY_MS = 3_600_000  # after the finished event: no reason to come back soon
READ_BLOCK_MS = 5000
READ_COUNT = 1000
# How often the hub looks for stalled writes, wakes the streams due a heartbeat and renews a
# lot of the leases: a heartbeat comes up to this late.
WATCH_EVERY_S = 1.0
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


# A buffered entry: its version, its SSE bytes (None: the hub could not read it, the stream
# reads it from the log), its append time (ms), and the finished event's bytes if it ended
# the match (else None).
Item = tuple[int, bytes | None, int, bytes | None]


Disconnect = Callable[[], None]  # shuts a stream's connection down (see ``connection``)


def connection(sock: Any, send_buffer: int) -> Disconnect | None:
    """Take charge of a stream's connection ``sock`` (the WSGI server's socket, e.g.
    ``gunicorn.socket``): the kernel keeps at most ``send_buffer`` bytes for its client
    (SO_SNDBUF, which Linux doubles; without it the buffer grows to megabytes for a client
    that does not read), and the function returned cuts it off: a shutdown wakes a write
    blocked on it with an error, in whichever thread or greenlet waits there. None without
    a socket (an in-process test client)."""
    if not isinstance(sock, socket.socket):
        return None
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)

    def disconnect() -> None:
        with contextlib.suppress(OSError):  # already gone
            sock.shutdown(socket.SHUT_RDWR)

    return disconnect


@dataclass(slots=True)
class EntryReader:
    """Who reads a stream's entries: the match's game, the caller's seat (None: a spectator),
    the language of the sentences and the players' names by seat. The seat and the names
    follow the entries read (``follow``): a stream opened before the start sees the joins."""

    game: str
    seat: int | None
    lang: str = DEFAULT_LANGUAGE
    names: Sequence[str | None] = ()  # kept as a tuple: the readers of a match share it

    def __post_init__(self) -> None:
        self.names = tuple(self.names)

    def follow(self, entry: dict[str, Any], player_id: str) -> None:
        """The seat and names once ``entry`` is read (before its sentences are said)."""
        self.seat = seat_after(entry, player_id, self.seat)
        self.names = tuple(names_at(entry, self.names))

    def key(self) -> tuple[Any, ...]:
        """Readers with equal keys read an entry alike: it is said once for them all."""
        return self.seat, self.lang, self.names

    def sse(self, entry: dict[str, Any]) -> bytes:
        """``entry`` as this reader sees it, as a Server-Sent Event."""
        shown = rules_of.public_entry(entry, self.seat, self.game, self.lang, self.names)
        return sse(entry["version"], shown)


class Subscriber:
    """One stream's bounded buffer of entries (``Item``), its wake-up, and its connection."""

    __slots__ = (
        "match_id", "player_id", "reader", "items", "capacity", "wake", "end", "slot",
        "disconnect", "writing", "heartbeat", "quiet_since", "lot",
    )  # fmt: skip

    def __init__(
        self,
        match_id: str,
        player_id: str,
        reader: EntryReader,
        capacity: int,
        slot: str | None = None,
        disconnect: Disconnect | None = None,
        heartbeat: float = 15.0,
    ) -> None:
        self.match_id, self.player_id, self.reader = match_id, player_id, reader
        self.items: deque[Item] = deque()
        self.capacity = capacity
        self.wake = threading.Event()
        self.end: str | None = None  # CLOSE (the process stops) or DROP (fell behind)
        self.slot = slot  # its id among its player's open streams (quotas.OpenStreams)
        self.disconnect = disconnect
        self.writing: float | None = None  # since when (monotonic) a write waits on its client
        self.heartbeat = heartbeat  # the silence (s) after which the hub's watch wakes it
        self.quiet_since = time.monotonic()  # when it last took something (or was woken)
        self.lot = 0  # the lot of the hub's lease renewals it is in (``renewal_lot``)

    def offer(self, item: Item) -> None:
        """Buffer ``item``; never waits. Past ``capacity`` the stream is dropped: once its
        write under way is done (the watch cuts one its client does not take), it ends with
        a ``reconnect`` event, and its client resumes from its last id."""
        if self.end is not None:
            return
        if len(self.items) >= self.capacity:
            self.end = DROP
            DROPPED.inc()
        else:
            self.items.append(item)
        self.wake.set()

    def cut(self) -> None:
        """Shut the connection down under a write its client does not take: the write fails
        and the stream ends (the client, if any, resumes from its last id)."""
        self.end = self.end or DROP
        if self.disconnect is not None:
            CUT.inc()
            self.disconnect()
            self.disconnect = None
        self.wake.set()

    def finish(self, how: str) -> None:
        self.end = self.end or how
        self.wake.set()

    def take(self) -> list[Item] | str | None:
        """Every buffered item, which the stream writes at once; CLOSE or DROP once the stream
        is to end (what is still buffered is not written: the client resumes from its last
        id); None when the hub's watch wakes it after ``heartbeat`` s of silence. The wait
        has no timeout of its own: a timer started and cancelled on every wait was a tenth
        of the feed's CPU at 10,000 deliveries a second; the watch's one pass a second
        wakes the streams due a heartbeat instead."""
        if not self.items and self.end is None:
            self.wake.wait()
            self.wake.clear()
        self.quiet_since = time.monotonic()
        if self.end is not None:
            return self.end
        if not self.items:
            return None
        items = list(self.items)
        self.items.clear()
        return items


class Hub:
    """The process's one reader of the feed partitions and its subscribers, by match."""

    def __init__(
        self,
        store: MatchLog,
        capacity: int = 256,
        streams: OpenStreams | None = None,
        write_timeout: float = 15.0,
        send_buffer: int = 65536,
    ) -> None:
        """``streams`` counts each player's open streams (None: no cap); ``write_timeout``:
        how long a write may wait on its client before the connection is shut down;
        ``send_buffer``: the bytes the kernel keeps for a stream's client (``connection``)."""
        self.store = store
        self.capacity = capacity
        self.streams = streams
        self.write_timeout = write_timeout
        self.send_buffer = send_buffer
        self.subscribers: dict[str, set[Subscriber]] = {}
        self.delivered = Tally(DELIVERY)  # the streams' delivery delays, for the histogram
        self.stopping = False
        self._started = False
        self._lock = threading.Lock()

    # -- subscribers -----------------------------------------------------------------------
    def subscribe(
        self,
        match_id: str,
        player_id: str,
        reader: EntryReader,
        sock: Any = None,
        heartbeat: float = 15.0,
    ) -> Subscriber:
        """A new stream's subscriber, on the connection ``sock`` (None: none to cut off), sent
        a heartbeat after ``heartbeat`` s of silence; 429 ``too_many_streams`` when its
        player has the most open streams allowed."""
        self._start()
        slot = self.streams.open(player_id) if self.streams is not None else None
        disconnect = connection(sock, self.send_buffer)
        sub = Subscriber(match_id, player_id, reader, self.capacity, slot, disconnect, heartbeat)
        sub.lot = renewal_lot(player_id, self.renewal_lots())
        if self.stopping:
            sub.finish(CLOSE)
        with self._lock:
            self.subscribers.setdefault(match_id, set()).add(sub)
        SUBSCRIBERS.inc()
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """The stream has ended (or was never read): forget it, and free its player's slot."""
        with self._lock:
            subs = self.subscribers.get(sub.match_id)
            if subs is None or sub not in subs:
                return
            subs.discard(sub)
            if not subs:
                del self.subscribers[sub.match_id]
        SUBSCRIBERS.dec()
        if self.streams is not None and sub.slot is not None:
            with contextlib.suppress(redis.RedisError):  # else its lease lapses
                self.streams.close(sub.player_id, sub.slot)

    def everyone(self) -> list[Subscriber]:
        with self._lock:
            return [sub for subs in self.subscribers.values() for sub in subs]

    def subscribers_of(self, match_id: str) -> list[Subscriber]:
        with self._lock:
            return list(self.subscribers.get(match_id, ()))

    def stop(self) -> None:
        """Tell every stream to end with a reconnect hint (SIGTERM): clients resume elsewhere."""
        self.stopping = True
        for sub in self.everyone():
            sub.finish(CLOSE)

    # -- the reader and the watch ------------------------------------------------------------
    def _start(self) -> None:
        with self._lock:
            if not self._started:
                self._started = True
                threading.Thread(target=self._run, name="feed-reader", daemon=True).start()
                threading.Thread(target=self._watch, name="feed-watch", daemon=True).start()

    def _watch(self) -> None:
        """Every ``WATCH_EVERY_S``: add the streams' deliveries to the histogram, cut off the
        streams whose write has waited on its client for longer than ``write_timeout``, wake
        the streams silent for their heartbeat, and renew the leases of one lot of the
        players (``renewal_lot``)."""
        lots = self.renewal_lots()
        tick = 0
        while not self.stopping:
            time.sleep(WATCH_EVERY_S)
            self.delivered.flush()
            now = time.monotonic()
            everyone = self.everyone()
            for sub in everyone:
                since = sub.writing
                if since is not None and now - since > self.write_timeout:
                    sub.cut()
                elif since is None and not sub.items and now - sub.quiet_since >= sub.heartbeat:
                    sub.wake.set()
            tick += 1
            lot = tick % lots
            held = [(sub.player_id, sub.slot) for sub in everyone if sub.lot == lot and sub.slot]
            if self.streams is not None and held:
                try:
                    self.streams.renew(held)
                except redis.RedisError as exc:  # its lot's next turn comes before they lapse
                    log.warning("stream leases not renewed", extra={"fields": {"error": str(exc)}})

    def renewal_lots(self) -> int:
        """Into how many lots the players are cut, one renewed each ``WATCH_EVERY_S``: each
        lease is renewed a third of a lease apart, and the renewal's work is spread evenly.
        All at once, 10,000 streams' leases held the worker 160-200 ms every 20 s, every
        stream's deliveries waiting behind them."""
        if self.streams is None:
            return 1
        return max(1, int(self.streams.lease_s / 3 / WATCH_EVERY_S))

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
                if rows:
                    cursors[key] = rows[-1][0]
            notifications = [fields for _, rows in replies for _, fields in rows]
            with tracing.continued("feed deliver", notifications):  # the moves' traces
                self._deliver([row for _, rows in replies for row in rows])

    def _deliver(self, rows: list[tuple[str, dict[str, Any]]]) -> None:
        """For one read of notifications (``rows``: stream id, fields): read every entry they
        name that has subscribers here in one round trip, say each once per kind of reader
        (seat, language, names), and buffer it for each subscriber."""
        wanted: list[tuple[str, int, int, list[Subscriber]]] = []
        for stream_id, fields in rows:
            match_id = fields.get("match")
            subs = self.subscribers_of(match_id) if isinstance(match_id, str) else []
            if subs and isinstance(match_id, str):
                appended_ms = int(stream_id.split("-")[0])
                wanted.append((match_id, int(fields["version"]), appended_ms, subs))
        if not wanted:
            return
        try:
            entries = self.store.entries_of(
                [(match_id, version) for match_id, version, *_ in wanted]
            )
        except (ValueError, redis.RedisError):
            entries = [None] * len(wanted)
        for (_, version, appended_ms, subs), entry in zip(wanted, entries, strict=True):
            if entry is None:
                # each stream reads it from the log itself: waiting for the next entry to
                # show the gap would leave a finished match's streams open for ever
                for sub in subs:
                    sub.offer((version, None, appended_ms, None))
                continue
            ending = finished_event(version, entry) if entry.get("status") == FINISHED else None
            if not changes_readers(entry):  # most entries: each kind of reader reads it alike
                items: dict[tuple[Any, ...], Item] = {}
                for sub in subs:
                    key = sub.reader.key()
                    item = items.get(key)
                    if item is None:
                        item = items[key] = (version, sub.reader.sse(entry), appended_ms, ending)
                    sub.offer(item)
                continue
            # A match's streams are a few players on many devices: readers alike before the
            # entry are alike after it, so each kind follows it and says it once.
            said: dict[tuple[Any, ...], tuple[int | None, Sequence[str | None], bytes]] = {}
            payloads: dict[tuple[Any, ...], bytes] = {}
            for sub in subs:
                reader = sub.reader
                before = (sub.player_id, *reader.key())
                known = said.get(before)
                if known is None:
                    reader.follow(entry, sub.player_id)
                    key = reader.key()
                    if key not in payloads:
                        payloads[key] = reader.sse(entry)
                    known = said[before] = (reader.seat, reader.names, payloads[key])
                else:
                    reader.seat, reader.names = known[0], known[1]
                sub.offer((version, known[2], appended_ms, ending))


def renewal_lot(player_id: str, lots: int) -> int:
    """The lot of ``lots`` whose turn renews the player's leases: all its streams at once,
    in one ``ZADD`` (``OpenStreams.renew``)."""
    return hash(player_id) % lots


SEATED, UNSEATED = ("seat_joined", "bot_added"), "seat_left"  # the events that move a seat


def seat_after(entry: dict[str, Any], player_id: str, seat: int | None) -> int | None:
    """The player's seat once ``entry`` is applied: a stream follows its caller's joins."""
    for event in entry.get("events", ()):
        if event.get("player") == player_id:
            if event.get("type") in SEATED:
                seat = event["seat"]
            elif event.get("type") == UNSEATED:
                seat = None
    return seat


def changes_readers(entry: dict[str, Any]) -> bool:
    """Whether following ``entry`` may change a reader's seat or names (``EntryReader.follow``):
    only an entry that names a player (``names_at``) or has a seat's event (``seat_after``)."""
    if isinstance(entry.get("player"), dict):
        return True
    return any(
        event.get("type") in SEATED or event.get("type") == UNSEATED
        for event in entry.get("events", ())
    )


class Stream:
    """One open stream's bytes (iterate once). ``close`` ends it, read or not: the WSGI server
    calls it when the response is done, so the subscriber never outlives its connection."""

    def __init__(self, hub: Hub, sub: Subscriber, chunks: Generator[bytes, None, None]) -> None:
        self.hub, self.sub, self.chunks = hub, sub, chunks
        self.timed = _timed(sub, chunks)

    def __iter__(self) -> Iterator[bytes]:
        return self.timed

    def close(self) -> None:
        self.timed.close()
        self.chunks.close()
        self.hub.unsubscribe(self.sub)


def _timed(sub: Subscriber, chunks: Iterator[bytes]) -> Generator[bytes, None, None]:
    """``chunks``, each marked as waiting on the client from when it is handed to the server
    until the server asks for the next one (its write is done): what the hub's watch reads."""
    for chunk in chunks:
        sub.writing = time.monotonic()
        yield chunk
        sub.writing = None


def stream(
    hub: Hub,
    match_id: str,
    player_id: str,
    reader: EntryReader,
    after: int,
    heartbeat: float,
    sock: Any = None,
    clock: Callable[[], float] = time.time,
) -> Stream:
    """The bytes of one stream: every entry after ``after`` exactly once, in order, then live;
    once the match is finished, a ``finished`` event, and the stream ends. ``sock`` is its
    connection (``connection``). Subscribes now, so that a player over the cap is refused
    (429) before any byte is sent."""
    sub = hub.subscribe(match_id, player_id, reader, sock, heartbeat)
    return Stream(hub, sub, _follow(hub, sub, after, clock))


def _follow(
    hub: Hub, sub: Subscriber, after: int, clock: Callable[[], float]
) -> Generator[bytes, None, None]:
    match_id, player_id = sub.match_id, sub.player_id
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
            sub.reader.follow(entry, player_id)
            yield entry["version"], sub.reader.sse(entry)

    last = after
    try:
        yield HELLO
        for read, backlog in from_log(after):
            last = read
            yield backlog
        if ending:
            yield ending[0]
            return
        while True:
            taken = sub.take()
            if taken is None:
                yield HEARTBEAT
                continue
            if isinstance(taken, str):  # CLOSE: the process stops; DROP: fell behind
                yield GOODBYE
                return
            chunk: list[bytes] = []  # every entry taken, in one write
            appended: list[int] = []  # the append time (ms) of each live entry in it
            final: bytes | None = None
            for version, payload, appended_ms, finished in taken:
                if version <= last:
                    continue
                missing = version - last - (payload is not None)
                if missing:  # a gap, or an entry the hub could not read: from the log
                    for read, missed in from_log(last, missing):
                        last = read
                        chunk.append(missed)
                if payload is not None:
                    chunk.append(payload)
                    appended.append(appended_ms)
                    last = version
                final = finished or (ending[0] if ending else None)
                if final is not None:
                    chunk.append(final)
                    break
            if chunk:
                yield b"".join(chunk)
                written = clock()
                for appended_ms in appended:
                    hub.delivered.add(max(0.0, written - appended_ms / 1000))
            if final is not None:
                return
    except redis.RedisError as exc:  # the log is out of reach: the client resumes later
        log.warning("stream ended: the log failed", extra={"fields": {"error": str(exc)}})
        yield GOODBYE
    finally:
        hub.unsubscribe(sub)
