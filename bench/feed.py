"""Feed benchmark: 10,000 streams on one feed process at the target's 10,000 deliveries a second.

The feed process runs on core 0 (``taskset -c 0``), everything else (Redis, the rules
service, the lobby, the driver and the stream readers) on core 1 (``taskset -c 1``): the
figures measure the feed, not how the scheduler shares two cores.

Starts Redis (embedded unless REDIS_URL is set), the rules service, the lobby and one feed
process (the lobby app on gevent, ``services/gunicorn_feed_conf.py``) as ``make run`` does,
then runs the load from a separate process (this file with --load, asyncio, raw sockets):

1. 250 two-player Brisca matches are set up, plus 600 others for the baseline;
2. baseline: 200 matches move at full speed over HTTP for --seconds, no stream open: moves/s;
3. 10,000 streams are opened (40 per match: each seat on twenty devices) and read to the end
   of their backlog; the feed worker's RSS before and after gives the memory per idle stream;
4. the driven phase, the feed at the target's load: a driver process (this file with
   --drive) appends real moves to the 250 matches at a fixed offered rate (--rate, 260
   moves/s = 10,400 deliveries/s over 40 streams a match) for --seconds, through the lobby's
   own application layer in process (``Lobby.submit_action``, the rules app in process too:
   the same checks, the same append and the same feed notification as a POST /actions, but
   none of the lobby's HTTP, which on core 1 could not offer that many); for each entry each
   stream receives, the delay from the driver's submit returning (the append acknowledged) to
   the stream's receipt, and the feed's own histogram (append -> write) over the phase;
5. the HTTP phase: the same 200-match load as the baseline for --seconds with every stream
   attached: moves/s with streams against the baseline's. Both HTTP phases also give each
   process's CPU a move on core 1 (the lobby, the rules, Redis and this load process, whose
   stream readers share that core with the lobby): what the streams cost the platform
   itself, told apart from what reading them costs the bench.

The stream readers read big chunks and count ``id:`` lines with ``bytes.find`` (no line by
line parsing), so that reading 10,000 deliveries a second leaves core 1 to the driver.
Each figure is printed next to its target (met / MISSES). --quick: a short run to iterate with.

Usage: python bench/feed.py [--quick] [--seconds 10] [--streams 10000] [--matches 250]
                            [--movers 200] [--rate 260]
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
from collections.abc import Callable
from typing import Any

FEED_CORE, OTHERS_CORE = 0, 1
TARGET_DELIVERIES_PER_S, TARGET_P99_MS, TARGET_KB_PER_STREAM, TARGET_RATIO = 10_000, 100, 30, 0.90
READ_CHUNK = 1 << 16  # what a stream reader takes from its socket at once

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]

from lobby import GUNICORN_ENV, Connection, Match, cpu_seconds, platform  # noqa: E402

from services.errors import DomainError  # noqa: E402
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


def waited_seconds(pid: int) -> float:
    """The time process ``pid``'s main thread has spent ready to run, waiting for a CPU (on a
    machine shared with other work, what the others took from it)."""
    with open(f"/proc/{pid}/schedstat") as stat:
        return int(stat.read().split()[1]) / 1e9


# -- the driver process -----------------------------------------------------------------------
def in_process_lobby() -> Any:
    """The lobby's application layer on the bench's Redis (REDIS_URL), its rules calls
    answered by the rules app in this process (its Flask test client): the same checks,
    append and feed notification as the lobby service's, without its HTTP."""
    from services.lobby.application import Lobby, redis_client
    from services.lobby.quotas import Quotas
    from services.lobby.rules_client import RulesClient
    from services.rules.app import create_rules_app
    from services.settings import Settings
    from services.store import match_log

    class InProcessRules(RulesClient):
        def __init__(self) -> None:
            super().__init__()
            self.app = create_rules_app().test_client()

        def _exchange(self, method: str, path: str, data: bytes | None) -> tuple[int, bytes]:
            reply = self.app.open(path, method=method, data=data, content_type="application/json")
            return reply.status_code, reply.get_data()

    settings = Settings.from_env().with_secrets("lobby")
    client = redis_client(settings.redis_url)
    return Lobby(
        client, InProcessRules(), match_log(settings, client),
        bot_token_key=settings.bot_token_key or "", quotas=Quotas.from_settings(settings),
    )  # fmt: skip


class Driven:
    """One match the driver moves: both seats' players, its version, who is to act and each
    seat's legal actions (as bench/lobby.py's ``Match`` keeps them)."""

    def __init__(self, lobby: Any, match_id: str, tokens: list[str], rng: random.Random) -> None:
        self.lobby, self.id, self.rng = lobby, match_id, rng
        self.players = [lobby.authenticate(token) for token in tokens]
        self.options: dict[int, list] = {}
        for seat, player in enumerate(self.players):
            match = lobby.get_match(player, match_id)
            self.version, self.to_act = match["version"], match["to_act"]
            self.options[seat] = match["view"]["legal_actions"]

    def move(self) -> bool:
        """One action by a seat to act; False if refused (a stale hand: it reads the legal ones)."""
        seat = self.rng.choice(self.to_act)
        if not self.options[seat]:
            self.options[seat] = self.lobby.get_match(self.players[seat], self.id)["view"][
                "legal_actions"
            ]
        action = self.rng.choice(self.options[seat])
        try:
            answer = self.lobby.submit_action(self.id, self.players[seat], action, self.version)
        except DomainError as refused:
            details = refused.details if isinstance(refused.details, dict) else {}
            self.options[seat] = details.get("legal_actions") or []
            return False
        view = answer["view"]
        self.version, self.to_act = answer["version"], view["to_act"]
        hand = view["zones"][f"hand:{seat}"]["cards"]
        self.options[seat] = view["legal_actions"] or [{"type": "play", "card": c} for c in hand]
        return True


def drive(args: argparse.Namespace) -> int:
    """The driver (--drive FILE: the matches' ids and tokens): says ``ready`` once set up,
    waits for a line on stdin, then moves the matches in turn at ``--rate`` moves a second for
    ``--seconds``; prints what it did and when each move was acknowledged, as JSON."""
    with open(args.drive) as file:
        games = json.load(file)
    lobby = in_process_lobby()
    matches = [Driven(lobby, g["id"], g["tokens"], random.Random(i)) for i, g in enumerate(games)]
    print("ready", flush=True)
    sys.stdin.readline()
    acks: list[tuple[str, int, float]] = []
    refused = 0
    since = time.time()
    started = time.perf_counter()
    deadline = started + args.seconds
    turn = 0
    while (now := time.perf_counter()) < deadline:
        due = started + turn / args.rate
        if due > now:
            time.sleep(due - now)
        match = matches[turn % len(matches)]
        turn += 1
        if not match.to_act:
            continue
        if match.move():
            acks.append((match.id, match.version, time.time()))
        else:
            refused += 1
    elapsed = time.perf_counter() - started
    print(json.dumps({"acks": acks, "refused": refused, "seconds": elapsed, "since": since}),
          flush=True)  # fmt: skip
    return 0


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


async def refresh(url: str, games: list[Match], conns: int = 50) -> None:
    """Each match's version, turn and hands as they are now (the driver moved them)."""
    host, port = url.removeprefix("http://").split(":")
    todo = list(games)

    async def worker(conn: Connection) -> None:
        while todo:
            match = todo.pop()
            for seat, token in enumerate(match.tokens):
                _, doc = await conn.request("GET", f"/v1/matches/{match.id}", None, token)
                match.version, match.to_act = doc["version"], doc["to_act"]
                match.options[seat] = doc["view"]["legal_actions"]

    await asyncio.gather(*(worker(Connection(host, int(port))) for _ in range(conns)))


async def move_until(conn: Connection, games: list[Match], deadline: float) -> int:
    """Play one match after another (taken from ``games``) on ``conn`` until the deadline;
    the number of moves."""
    moves = 0
    while time.perf_counter() < deadline and games:
        match = games.pop()
        match.conn = conn  # one request at a time per connection: this mover's own
        while not match.finished and time.perf_counter() < deadline:
            status, _ = await match.move()
            moves += status == 200
    return moves


async def play_phase(url: str, games: list[Match], movers: int, seconds: float) -> float:
    host, port = url.removeprefix("http://").split(":")
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    counts = await asyncio.gather(
        *(move_until(Connection(host, int(port)), games, deadline) for _ in range(movers))
    )
    return sum(counts) / (time.perf_counter() - started)


def core_seconds(args: argparse.Namespace) -> dict[str, float]:
    """CPU time used so far by each process on the others' core: the lobby's and the rules'
    workers, Redis (its own INFO) and this load process (the movers and the stream readers)."""
    import redis

    used = redis.Redis.from_url(args.redis).info("cpu")
    return {"lobby": cpu_seconds([args.lobby_pid]), "rules": cpu_seconds([args.rules_pid]),
            "redis": used["used_cpu_sys"] + used["used_cpu_user"], "load": time.process_time()}  # fmt: skip


async def measured_phase(
    args: argparse.Namespace, games: list[Match]
) -> tuple[float, dict[str, float]]:
    """``play_phase`` with ``args.movers``: moves/s, and each process's CPU ms per move."""
    before, started = core_seconds(args), time.perf_counter()
    rate = await play_phase(args.load, games, args.movers, args.seconds)
    moves = rate * (time.perf_counter() - started)
    after = core_seconds(args)
    return rate, {name: (after[name] - before[name]) / max(moves, 1) * 1e3 for name in after}


def server_delivery(feed_url: str) -> dict[str, float]:
    """The feed's own histogram (append -> write on a stream): its cumulative bucket counts."""
    import urllib.request

    text = urllib.request.urlopen(f"{feed_url}/metrics", timeout=10).read().decode()
    buckets = {}
    for line in text.splitlines():
        if line.startswith("tapete_feed_delivery_seconds_bucket"):
            le = line.split('le="')[1].split('"')[0]
            buckets[le] = float(line.split()[-1])
    return buckets


def shares(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """The share of the deliveries between two reads of the histogram within each bucket."""
    counts = {le: n - before.get(le, 0.0) for le, n in after.items()}
    total = counts.get("+Inf", 0.0)
    return {le: n / total for le, n in counts.items()} if total else {}


class StreamReader(asyncio.Protocol):
    """One raw stream: its receipt time of every (match, version) it reads. It takes what
    the socket holds at once and finds each event's ``id:`` with ``bytes.find``."""

    def __init__(self, game: Match, receipts: list) -> None:
        self.game, self.receipts = game, receipts
        self.version = 0
        self.answered = asyncio.Event()  # its status line came
        self.caught_up = asyncio.Event()
        self.done = asyncio.Event()
        self.refused: bytes | None = None  # the status line of a stream not opened
        self.head = True  # still in the response's status and headers
        self.tail = b""  # the part of the last chunk after its last complete id line

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self.refused is not None:
            return
        data = self.tail + data
        if self.head:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                self.tail = data
                return
            status = data[: data.find(b"\r\n")]
            self.answered.set()
            if b" 200 " not in status:  # counted as a failure; the run goes on without it
                self.refused = status
                self.caught_up.set()
                return
            self.head, data = False, data[end + 2 :]
        now, at, done, match_id = time.time(), 0, 0, self.game.id
        while (at := data.find(b"\nid: ", at)) >= 0:
            end = data.find(b"\n", at + 5)
            if end < 0:  # the rest of the line comes with the next chunk
                break
            self.version = int(data[at + 5 : end])
            self.receipts.append((match_id, self.version, now))
            at = done = end
        # keep an id line cut short, or what may begin one
        self.tail = data[at:] if at >= 0 else data[max(done, len(data) - 4) :]
        if self.version >= self.game.version:
            self.caught_up.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.answered.set()
        self.caught_up.set()
        self.done.set()


async def open_stream(host: str, port: int, game: Match, seat: int, receipts: list) -> Any:
    """A stream of ``game`` for ``seat``, reading in the background; its ``StreamReader``."""
    loop = asyncio.get_running_loop()
    transport, reader = await loop.create_connection(
        lambda: StreamReader(game, receipts), host, port
    )
    transport.write(
        f"GET /v1/matches/{game.id}/stream HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {game.tokens[seat]}\r\n\r\n".encode()
    )
    return reader


async def driven_phase(
    args: argparse.Namespace, games: list[Match], go: Callable[[], None]
) -> dict[str, Any]:
    """The driver at ``args.rate`` moves a second (see ``drive``): what it says it did. ``go``
    is called once it is set up, just before it starts."""
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump([{"id": g.id, "tokens": g.tokens} for g in games], file)
    env = {**os.environ, "REDIS_URL": args.redis}
    driver = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--drive", file.name, "--rate", str(args.rate),
        "--seconds", str(args.seconds), env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert driver.stdin is not None and driver.stdout is not None
    ready = await driver.stdout.readline()
    if ready.strip() != b"ready":
        raise RuntimeError(f"the driver did not start: {ready!r}")
    go()
    driver.stdin.write(b"go\n")
    await driver.stdin.drain()
    done = json.loads(await driver.stdout.read())  # one line, longer than a line's limit
    await driver.wait()
    os.unlink(file.name)
    return done


def quantiles(delays: list[float]) -> dict[str, float]:
    delays = sorted(delays)
    q = lambda p: delays[min(len(delays) - 1, int(p * len(delays)))] if delays else float("nan")  # noqa: E731
    return {"p50_ms": q(0.50) * 1000, "p99_ms": q(0.99) * 1000,
            "max_ms": delays[-1] * 1000 if delays else float("nan"),
            "early": sum(1 for d in delays if d < 0)}  # fmt: skip


async def run_load(args: argparse.Namespace) -> dict[str, Any]:
    feed_host, feed_port = args.feed.removeprefix("http://").split(":")
    games = await setup_games(args.load, args.matches)
    spare = await setup_games(args.load, 600)
    progress(f"{len(games)} + {len(spare)} matches set up; the baseline runs")
    baseline, baseline_cpu = await measured_phase(args, spare)
    progress(f"baseline {baseline:.0f} moves/s; opening {args.streams} streams")
    workers = children(args.feed_pid)
    rss_before = sum(rss_kb(p) for p in workers)
    receipts: list[tuple[str, int, float]] = []
    subs = []
    opened = time.perf_counter()
    for start in range(0, args.streams, 250):  # 250 at a time, each lot once answered
        lot = await asyncio.gather(*(
            open_stream(feed_host, int(feed_port), games[i % len(games)],
                        (i // len(games)) % 2, receipts)
            for i in range(start, min(start + 250, args.streams))
        ))  # fmt: skip
        await asyncio.wait_for(asyncio.gather(*(s.answered.wait() for s in lot)), 60)
        subs += lot
    await asyncio.wait_for(asyncio.gather(*(s.caught_up.wait() for s in subs)), 300)
    open_seconds = time.perf_counter() - opened
    await asyncio.sleep(2)
    rss_after = sum(rss_kb(p) for p in workers)
    failed = [s for s in subs if s.refused is not None or s.done.is_set()]
    idle = len(subs) - len(failed)  # the streams the RSS grew by
    progress(f"streams open and caught up in {open_seconds:.1f} s; the driven phase")

    histogram: dict[str, dict[str, float]] = {}

    cpu: dict[str, float] = {}

    def go() -> None:  # the receipts, the histogram and the feed's CPU time from now
        receipts.clear()
        histogram["before"] = server_delivery(args.feed)
        cpu["before"] = cpu_seconds(workers)
        cpu["waited_before"] = sum(waited_seconds(p) for p in workers)

    driven = await driven_phase(args, games, go)
    await asyncio.sleep(2)  # the last entries' way to their streams
    cpu["after"] = cpu_seconds(workers)
    cpu["waited_after"] = sum(waited_seconds(p) for p in workers)
    histogram["after"] = server_delivery(args.feed)
    acks = {(m, v): t for m, v, t in driven["acks"]}
    delays = [t - acks[(m, v)] for m, v, t in receipts if (m, v) in acks]
    by_second: dict[int, list[float]] = {}  # the delays by the second of the phase acknowledged
    for m, v, t in receipts:
        if (m, v) in acks:
            by_second.setdefault(int(acks[(m, v)] - driven["since"]), []).append(t - acks[(m, v)])
    until = driven["since"] + driven["seconds"]  # what the feed delivered while it was offered
    in_time = sum(1 for m, v, t in receipts if t <= until and (m, v) in acks)
    per_match: dict[str, int] = {}
    for s in subs:
        if s.refused is None:
            per_match[s.game.id] = per_match.get(s.game.id, 0) + 1
    expected = sum(per_match.get(m, 0) for m, _ in acks)
    progress(f"driven: {len(acks) / driven['seconds']:.0f} moves/s; the HTTP phase")
    await refresh(args.load, games)
    movers = sorted(games, key=lambda g: random.Random(g.id).random())
    loaded, loaded_cpu = await measured_phase(args, movers)
    still_open = sum(1 for s in subs if not s.done.is_set())
    for s in subs:
        s.transport.close()
    return {
        "streams": len(subs),
        "stream_failures": len(failed),
        "still_open": still_open,
        "open_seconds": open_seconds,
        "baseline_moves_per_s": baseline,
        "loaded_moves_per_s": loaded,
        "baseline_cpu_ms": baseline_cpu,
        "loaded_cpu_ms": loaded_cpu,
        "driven_moves_per_s": len(acks) / driven["seconds"],
        "driven_refused": driven["refused"],
        "offered_per_s": expected / driven["seconds"],
        "deliveries": len(delays),
        "expected": expected,
        "deliveries_per_s": in_time / driven["seconds"],
        "feed_cpu_share": (cpu["after"] - cpu["before"]) / (driven["seconds"] + 2),
        "feed_waited_share": (cpu["waited_after"] - cpu["waited_before"]) / (driven["seconds"] + 2),
        "feed_cpu_us": (cpu["after"] - cpu["before"]) / max(len(delays), 1) * 1e6,
        **quantiles(delays),
        "p99_by_second_ms": [quantiles(by_second[k])["p99_ms"] for k in sorted(by_second)],
        "rss_before_kb": rss_before,
        "rss_after_kb": rss_after,
        "kb_per_stream": (rss_after - rss_before) / max(idle, 1),
        "server_side": shares(histogram["before"], histogram["after"]),
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
    parser.add_argument("--rate", type=float, default=260.0,
                        help="the driven phase's moves a second (x streams per match = "
                             "deliveries offered a second)")  # fmt: skip
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short run: 4 s phases, 4,000 streams on 100 matches, 100 movers",
    )
    parser.add_argument("--load", help=argparse.SUPPRESS)
    parser.add_argument("--feed", help=argparse.SUPPRESS)
    parser.add_argument("--feed-pid", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--lobby-pid", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--rules-pid", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    parser.add_argument("--drive", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.streams, args.matches, args.movers = 4.0, 4_000, 100, 100
    limit = raise_fd_limit()
    if args.drive:
        return drive(args)
    if args.load:
        print(json.dumps(asyncio.run(run_load(args))))
        return 0

    from tests.service_fixtures import FEED_CONF, Service

    pinned = len(os.sched_getaffinity(0)) >= 2
    if pinned:  # before anything starts: Redis, the services and the load inherit it
        pin(os.getpid(), OTHERS_CORE)
    per_match = args.streams / args.matches
    print(f"feed benchmark: {args.streams} streams over {args.matches} Brisca matches; "
          f"driven phase {args.rate:.0f} moves/s in process = {args.rate * per_match:,.0f} "
          f"deliveries/s offered, HTTP phases {args.movers} movers at full speed, "
          f"{args.seconds:.0f} s each; {os.cpu_count()} cores, file descriptors {limit}; "
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
                       "--feed-pid", str(feed.process.pid), "--redis", redis_url,
                       "--lobby-pid", str(lobby.process.pid), "--rules-pid", str(rules.process.pid),
                       "--seconds", str(args.seconds), "--streams", str(args.streams),
                       "--matches", str(args.matches), "--movers", str(args.movers),
                       "--rate", str(args.rate)]  # fmt: skip
            done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
            if done.returncode != 0:
                return 1
            r = json.loads(done.stdout.strip().splitlines()[-1])
        finally:
            feed.stop()
    ratio = r["loaded_moves_per_s"] / r["baseline_moves_per_s"]
    print(f"streams open: {r['streams']} in {r['open_seconds']:.1f} s, "
          f"{r['stream_failures']} failed, {r['still_open']} still open at the end")  # fmt: skip
    print(f"driven phase: {r['driven_moves_per_s']:.0f} moves/s appended in process "
          f"({r['driven_refused']} refused), {r['offered_per_s']:,.0f} deliveries/s offered; "
          f"the feed worker used {r['feed_cpu_share']:.0%} of a core (to 2 s after) and "
          f"waited for one {r['feed_waited_share']:.0%} of the time, "
          f"{r['feed_cpu_us']:.0f} us of CPU a delivery = "
          f"{1e6 / r['feed_cpu_us']:,.0f} deliveries/s on a whole core")  # fmt: skip
    print(f"deliveries while offered: {r['deliveries_per_s']:,.0f}/s ({r['deliveries']} of "
          f"{r['expected']} offered delivered in the end)  [target >= {TARGET_DELIVERIES_PER_S:,}/s: "
          f"{verdict(r['deliveries_per_s'] >= TARGET_DELIVERIES_PER_S)}]")  # fmt: skip
    print(f"delivery, append acknowledged -> stream receipt: "
          f"p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms "
          f"({r['early']} arrived before the driver's acknowledgment)  "
          f"[target p99 <= {TARGET_P99_MS} ms: {verdict(r['p99_ms'] <= TARGET_P99_MS)}]")  # fmt: skip
    print("  p99 by second of the phase (ms; a stall shows in one, a worker short of CPU in"
          " all): " + ", ".join(f"{p:.0f}" for p in r["p99_by_second_ms"]))  # fmt: skip
    within = r["server_side"]
    print("feed's own delivery histogram over the driven phase (append -> write), share within: "
          + ", ".join(f"{le} s {share:.0%}" for le, share in within.items() if le in ("0.01", "0.1", "1.0", "5.0")))  # fmt: skip
    print(f"memory per idle stream: {r['kb_per_stream']:.1f} KB (feed RSS "
          f"{r['rss_before_kb'] / 1024:.0f} -> {r['rss_after_kb'] / 1024:.0f} MB)  "
          f"[target <= {TARGET_KB_PER_STREAM} KB: "
          f"{verdict(r['kb_per_stream'] <= TARGET_KB_PER_STREAM)}]")  # fmt: skip
    print(f"lobby moves/s over HTTP: {r['baseline_moves_per_s']:.0f} without streams, "
          f"{r['loaded_moves_per_s']:.0f} with {r['streams']} attached = {ratio:.0%}  "
          f"[target >= {TARGET_RATIO:.0%}: {verdict(ratio >= TARGET_RATIO)}]")  # fmt: skip
    for phase in ("baseline", "loaded"):
        cpu = r[f"{phase}_cpu_ms"]
        print(f"  core {OTHERS_CORE}'s CPU a move {'with' if phase == 'loaded' else 'without'}"
              " streams, ms: " + ", ".join(f"{name} {ms:.2f}" for name, ms in cpu.items())
              + f" = {sum(cpu.values()):.2f}")  # fmt: skip
    platform_ms = [sum(ms for name, ms in r[f"{phase}_cpu_ms"].items() if name != "load")
                   for phase in ("baseline", "loaded")]  # fmt: skip
    print(f"  the platform's own (lobby, rules, Redis): {platform_ms[0]:.2f} -> "
          f"{platform_ms[1]:.2f} ms a move, {platform_ms[0] / platform_ms[1]:.0%} of the moves "
          "without streams on a core left to it; the rest is this bench's own stream readers"
          f" on core {OTHERS_CORE}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
