"""Feed benchmark: 10,000 streams on one feed process while 200 matches play at full speed.

The feed process runs on core 0 (``taskset -c 0``), everything else (Redis, the rules
service, the lobby, the load) on core 1 (``taskset -c 1``): the figures measure the feed,
not how the scheduler shares two cores.

Starts Redis (embedded unless REDIS_URL is set), the rules service, the lobby and one feed
process (the lobby app on gevent, ``services/gunicorn_feed_conf.py``) as ``make run`` does,
then runs the load from a separate process (this file with --load, asyncio, raw sockets):

1. 250 two-player Brisca matches are set up, plus 600 others for the baseline;
2. baseline: 200 matches move at full speed for --seconds, no stream open: moves/s;
3. 10,000 streams are opened (40 per match: each seat on twenty devices, so that the moves
   of one core's lobby make the 10,000 deliveries a second of the target) and read to the end
   of their backlog; the feed worker's RSS before and after gives the memory per idle stream;
4. the same 200-match load for --seconds with every stream attached: moves/s, and for each
   entry each stream receives, the delay from the move's acknowledgment (its 200 reaching
   the mover) to the stream's receipt.

Each figure is printed next to its target (met / MISSES). --quick: a short run to iterate with.

Usage: python bench/feed.py [--quick] [--seconds 10] [--streams 10000] [--matches 250]
                            [--movers 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import time
from typing import Any

FEED_CORE, OTHERS_CORE = 0, 1
TARGET_DELIVERIES_PER_S, TARGET_P99_MS, TARGET_KB_PER_STREAM, TARGET_RATIO = 10_000, 100, 30, 0.90

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]

from lobby import GUNICORN_ENV, Connection, Match, platform  # noqa: E402

from tests.service_fixtures import children_of as children  # noqa: E402


def raise_fd_limit() -> int:
    """Streams are sockets: take the hard limit (processes started after inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


# -- the load process -----------------------------------------------------------------------
async def setup_games(url: str, count: int, conns: int = 50) -> list[Match]:
    """``count`` started 2-player Brisca matches (bench/lobby.py's), set up over ``conns``."""
    host, port = url.removeprefix("http://").split(":")
    games: list[Match] = []

    async def worker(conn: Connection) -> None:
        while len(games) < count:
            match = Match(conn, random.Random(len(games)))
            await match.setup()
            games.append(match)

    await asyncio.gather(*(worker(Connection(host, int(port))) for _ in range(conns)))
    return games[:count]


async def move_until(conn: Connection, games: list[Match], deadline: float, acks: dict) -> int:
    """Play one match after another (taken from ``games``) on ``conn`` until the deadline,
    noting when each move was acknowledged; the number of moves."""
    moves = 0
    while time.perf_counter() < deadline and games:
        match = games.pop()
        match.conn = conn  # one request at a time per connection: this mover's own
        while not match.finished and time.perf_counter() < deadline:
            status, _ = await match.move()
            if status == 200:
                acks[(match.id, match.version)] = time.time()
                moves += 1
    return moves


async def play_phase(
    url: str, games: list[Match], movers: int, seconds: float, acks: dict
) -> float:
    host, port = url.removeprefix("http://").split(":")
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    counts = await asyncio.gather(
        *(move_until(Connection(host, int(port)), games, deadline, acks) for _ in range(movers))
    )
    return sum(counts) / (time.perf_counter() - started)


def server_delivery(feed_url: str) -> dict[str, float]:
    """The feed's own histogram (append -> write on a stream): count and bucket shares."""
    import urllib.request

    text = urllib.request.urlopen(f"{feed_url}/metrics", timeout=10).read().decode()
    buckets = {}
    for line in text.splitlines():
        if line.startswith("tapete_feed_delivery_seconds_bucket"):
            le = line.split('le="')[1].split('"')[0]
            buckets[le] = float(line.split()[-1])
    total = buckets.get("+Inf", 0.0)
    return {le: n / total for le, n in buckets.items()} if total else {}


class Subscriber:
    """One raw stream: its receipt time of every (match, version) it reads."""

    def __init__(self, host: str, port: int, game: Match, seat: int, receipts: list) -> None:
        self.host, self.port, self.game, self.seat, self.receipts = host, port, game, seat, receipts
        self.version = 0
        self.caught_up = asyncio.Event()
        self.refused: bytes | None = None  # the status line of a stream not opened

    async def run(self) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        writer.write(
            f"GET /v1/matches/{self.game.id}/stream HTTP/1.1\r\nHost: {self.host}\r\n"
            f"Authorization: Bearer {self.game.tokens[self.seat]}\r\n\r\n".encode()
        )
        status = await reader.readuntil(b"\r\n")
        if b" 200 " not in status:  # counted as a failure; the run goes on without it
            self.refused = status
            self.caught_up.set()
            return
        while await reader.readuntil(b"\r\n") != b"\r\n":
            pass
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                self.version = int(line[4:])
                self.receipts.append((self.game.id, self.version, time.time()))
                if self.version >= self.game.version:
                    self.caught_up.set()


async def run_load(args: argparse.Namespace) -> dict[str, Any]:
    feed_host, feed_port = args.feed.removeprefix("http://").split(":")
    games = await setup_games(args.load, args.matches)
    spare = await setup_games(args.load, 600)
    progress(f"{len(games)} + {len(spare)} matches set up; the baseline runs")
    baseline = await play_phase(args.load, spare, args.movers, args.seconds, {})
    progress(f"baseline {baseline:.0f} moves/s; opening {args.streams} streams")
    workers = children(args.feed_pid)
    rss_before = sum(rss_kb(p) for p in workers)
    receipts: list[tuple[str, int, float]] = []
    subs = [
        Subscriber(
            feed_host, int(feed_port), games[i % len(games)], (i // len(games)) % 2, receipts
        )
        for i in range(args.streams)
    ]
    tasks = []
    opened = time.perf_counter()
    for start in range(0, len(subs), 250):  # about 1,000 new streams a second
        tasks += [asyncio.create_task(s.run()) for s in subs[start : start + 250]]
        await asyncio.sleep(0.25)
    await asyncio.wait_for(asyncio.gather(*(s.caught_up.wait() for s in subs)), 300)
    open_seconds = time.perf_counter() - opened
    progress(f"streams open and caught up in {open_seconds:.1f} s; the loaded run")
    await asyncio.sleep(2)
    rss_after = sum(rss_kb(p) for p in workers)
    receipts.clear()
    acks: dict[tuple[str, int], float] = {}
    movers = sorted(games, key=lambda g: random.Random(g.id).random())
    started = time.perf_counter()
    loaded = await play_phase(args.load, movers, args.movers, args.seconds, acks)
    loaded_seconds = time.perf_counter() - started
    await asyncio.sleep(1)  # the last entries' way to their streams
    server_side = server_delivery(args.feed)
    delays = [t - acks[(m, v)] for m, v, t in receipts if (m, v) in acks]
    for task in tasks:
        task.cancel()
    failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
    failed += [s for s in subs if s.refused is not None]
    delays.sort()
    q = lambda p: delays[min(len(delays) - 1, int(p * len(delays)))] if delays else float("nan")  # noqa: E731
    return {
        "streams": len(subs),
        "stream_failures": len(failed),
        "open_seconds": open_seconds,
        "baseline_moves_per_s": baseline,
        "loaded_moves_per_s": loaded,
        "deliveries": len(delays),
        "deliveries_per_s": len(delays) / loaded_seconds,
        "p50_ms": q(0.50) * 1000,
        "p99_ms": q(0.99) * 1000,
        "max_ms": delays[-1] * 1000 if delays else float("nan"),
        "early": sum(1 for d in delays if d < 0),
        "rss_before_kb": rss_before,
        "rss_after_kb": rss_after,
        "kb_per_stream": (rss_after - rss_before) / len(subs),
        "server_side": server_side,
    }


def progress(message: str) -> None:
    print(f"  {time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def pin(pid: int, core: int) -> None:
    """Every thread of process ``pid`` on ``core`` alone (its children started later inherit it)."""
    subprocess.run(["taskset", "-a", "-p", "-c", str(core), str(pid)], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip


def verdict(met: bool) -> str:
    return "met" if met else "MISSES"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=250)
    parser.add_argument("--movers", type=int, default=200)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short run: 3 s phases, 2,000 streams on 100 matches, 100 movers",
    )
    parser.add_argument("--load", help=argparse.SUPPRESS)
    parser.add_argument("--feed", help=argparse.SUPPRESS)
    parser.add_argument("--feed-pid", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.streams, args.matches, args.movers = 3.0, 2_000, 100, 100
    limit = raise_fd_limit()
    if args.load:
        print(json.dumps(asyncio.run(run_load(args))))
        return 0

    from tests.service_fixtures import FEED_CONF, Service

    pinned = len(os.sched_getaffinity(0)) >= 2
    if pinned:  # before anything starts: Redis, the services and the load inherit it
        pin(os.getpid(), OTHERS_CORE)
    print(f"feed benchmark: {args.streams} streams over {args.matches} Brisca matches, "
          f"{args.movers} moving at full speed for {args.seconds:.0f} s; {os.cpu_count()} cores, "
          f"file descriptors {limit}; "
          + (f"the feed on core {FEED_CORE}, everything else on core {OTHERS_CORE} (taskset)"
             if pinned else "one core: nothing pinned"))  # fmt: skip
    with platform() as (redis_url, rules, lobby):
        env = {**GUNICORN_ENV, "REDIS_URL": redis_url, "RULES_URL": rules.url}
        feed = Service("feed", "services.lobby.wsgi:app", env, config=FEED_CONF)
        feed.start()
        try:
            assert feed.process is not None
            if pinned:
                for pid in [feed.process.pid, *children(feed.process.pid)]:
                    pin(pid, FEED_CORE)
            command = [sys.executable, __file__, "--load", lobby.url, "--feed", feed.url,
                       "--feed-pid", str(feed.process.pid), "--seconds", str(args.seconds),
                       "--streams", str(args.streams), "--matches", str(args.matches),
                       "--movers", str(args.movers)]  # fmt: skip
            done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
            if done.returncode != 0:
                return 1
            r = json.loads(done.stdout.strip().splitlines()[-1])
        finally:
            feed.stop()
    ratio = r["loaded_moves_per_s"] / r["baseline_moves_per_s"]
    print(f"streams open: {r['streams']} in {r['open_seconds']:.1f} s, "
          f"{r['stream_failures']} failed")  # fmt: skip
    print(f"deliveries: {r['deliveries_per_s']:.0f}/s ({r['deliveries']} in the loaded run)  "
          f"[target >= {TARGET_DELIVERIES_PER_S:,}/s: "
          f"{verdict(r['deliveries_per_s'] >= TARGET_DELIVERIES_PER_S)}]")  # fmt: skip
    print(f"delivery, move acknowledged -> stream receipt: "
          f"p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms "
          f"({r['early']} arrived before the mover's acknowledgment)  "
          f"[target p99 <= {TARGET_P99_MS} ms: {verdict(r['p99_ms'] <= TARGET_P99_MS)}]")  # fmt: skip
    shares = r["server_side"]
    print("feed's own delivery histogram (append -> write), share within: "
          + ", ".join(f"{le} s {share:.0%}" for le, share in shares.items() if le in ("0.01", "0.1", "1.0", "5.0")))  # fmt: skip
    print(f"memory per idle stream: {r['kb_per_stream']:.1f} KB (feed RSS "
          f"{r['rss_before_kb'] / 1024:.0f} -> {r['rss_after_kb'] / 1024:.0f} MB)  "
          f"[target <= {TARGET_KB_PER_STREAM} KB: "
          f"{verdict(r['kb_per_stream'] <= TARGET_KB_PER_STREAM)}]")  # fmt: skip
    print(f"lobby moves/s: {r['baseline_moves_per_s']:.0f} without streams, "
          f"{r['loaded_moves_per_s']:.0f} with {r['streams']} attached = {ratio:.0%}  "
          f"[target >= {TARGET_RATIO:.0%}: {verdict(ratio >= TARGET_RATIO)}]")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
