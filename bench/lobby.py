"""Lobby benchmark: moves per second and POST /actions latency with 50 concurrent matches.

Starts Redis (embedded unless REDIS_URL is set), the rules service and the lobby under
gunicorn with the project's settings, and beside them the ceiling: a trivial Flask
endpoint under the same gunicorn settings, hit by the same load tool in the same run.
The load comes from a separate process (this file with --load): an asyncio HTTP/1.1
client keeping one connection per match, light enough to leave the cores to the servers.

Each match is a 2-player Brisca driven by one client that plays both seats the way a
thrifty client does: it plays a card of the hand its last view showed, and when that
went stale (422) it plays one of the legal actions the refusal lists. Only POST /actions
is timed; a finished match is replaced by a new one. Each round has three runs, and the
rounds repeat (3 by default, interleaved) to print medians; the saturated run also shows
the CPU each process spent per move:

* ceiling   - closed loop, one request in flight per connection, on the trivial endpoint;
* two hops  - the same, on a trivial endpoint that relays each body to the ceiling's through
              the lobby's own rules client: the most any design with the lobby -> rules HTTP
              hop could reach, before Redis, the rules themselves or any match bookkeeping;
* rules hop - the same, on a trivial endpoint that makes the lobby's rules call (apply, on a
              fixed mid-deal state) and answers as a move does: a lobby with nothing else to do;
* saturated - closed loop, one move in flight per match: the most moves per second;
  each reference line and this one also give the CPU each process spent per request
  (per move), so the lobby's CPU a move reads against the same gunicorn's floor;
* paced     - every match moves at a fixed pace, half the saturated rate in all: latency
              under load rather than queueing (with one move always in flight, Little's
              law makes latency = matches / throughput, whatever the server does).

Then the same saturated run on each way of keeping the match store, in the same run, each
with a fresh lobby: one node without persistence (the runs above), its append-only file
fsynced every second (Redis' default) or on every write (``appendfsync always``), a move
acknowledged only after WAITAOF on a node fsyncing every second (``REDIS_ACK_FSYNC``), a
Redis Cluster of three primaries (each with a replica), and that cluster with replicated
acknowledgement (``REDIS_ACK_REPLICAS=1``: WAIT for the replica).

With ``--listing`` it measures ``GET /v1/matches`` instead: the latency of a page (50
matches) under each filter, with 3,000 open matches (and a few hundred running ones) in
Redis, one request at a time.

Usage: python bench/lobby.py [--seconds 10] [--matches 50] [--repeat 3] [--no-stores | --stores-only]
       python bench/lobby.py --listing [--open 3000] [--requests 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("TAPETE_DEV", "1")  # a load tool on this machine: development keys

from services.settings import LOAD_TOOL_LIMITS  # noqa: E402

if TYPE_CHECKING:
    from tests.service_fixtures import Service

GUNICORN_ENV = {
    "GUNICORN_WORKERS": os.environ.get("GUNICORN_WORKERS", "2"),
    "GUNICORN_THREADS": os.environ.get("GUNICORN_THREADS", "16"),
    **LOAD_TOOL_LIMITS,  # one load tool plays every match
}  # the Procfile's lobby
TARGET_SHARE, TARGET_P99_MS = 0.25, 25.0
TARGET_HOP_SHARE, TARGET_LOBBY_CPU_MS = 0.60, 1.0  # of the rules-hop bound; lobby CPU per move


# -- the ceiling: a trivial endpoint under the same gunicorn settings ----------------------
def ceiling_app():
    """gunicorn factory (``lobby:ceiling_app()``): parse a small JSON body, answer JSON."""
    from flask import Flask, request

    app = Flask("ceiling")

    @app.post("/ping")
    def ping():
        return {"ok": True, "echo": request.get_json()}

    @app.get("/readyz")
    def ready():
        return {"status": "ready"}

    return app


def relay_app():
    """gunicorn factory (``lobby:relay_app()``): the ceiling's endpoint, relayed to RELAY_URL
    through the lobby's own rules client; with RELAY_APPLY (a JSON file: game, state, seat,
    action), every request makes the lobby's rules call instead: that apply, answered as a
    move is (version, events, view)."""
    from flask import Flask, request

    from services.lobby.rules_client import RulesClient

    app = Flask("relay")
    upstream = RulesClient(os.environ["RELAY_URL"])
    fixed = None
    if os.environ.get("RELAY_APPLY"):
        with open(os.environ["RELAY_APPLY"]) as file:
            fixed = json.load(file)

    @app.post("/ping")
    def ping():
        body = request.get_json()
        if fixed is None:
            return upstream._call("POST", "/ping", body)  # the path every rules call takes
        out = upstream.apply(fixed["game"], fixed["state"], fixed["seat"], fixed["action"])
        return {"version": 1, "events": out.events, "view": out.view}

    @app.get("/readyz")
    def ready():
        return {"status": "ready"}

    return app


def apply_body(rules_url: str) -> str:
    """A file holding a legal first move of a fresh Brisca deal, for ``relay_app``."""
    import requests

    state = requests.post(f"{rules_url}/v1/games/brisca/setup", json={}, timeout=10).json()["state"]
    seat = state["to_act"][0]
    view = requests.post(
        f"{rules_url}/v1/games/brisca/view", json={"state": state, "seat": seat}, timeout=10
    ).json()
    fixed = {"game": "brisca", "state": state, "seat": seat, "action": view["legal_actions"][0]}
    fd, path = tempfile.mkstemp(prefix="tapete-bench-apply-", suffix=".json")
    with os.fdopen(fd, "w") as file:
        json.dump(fixed, file)
    return path


# -- the load process -----------------------------------------------------------------------
class Connection:
    """One keep-alive HTTP/1.1 connection; JSON in, (status, JSON) out."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        for attempt in (1, 2):  # the server may have closed an idle keep-alive connection
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                return await self._exchange(method, path, body, token)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.writer = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, method: str, path: str, body: Any, token: str | None):
        assert self.reader is not None and self.writer is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line = await self.reader.readuntil(b"\r\n")
        length = 0
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return int(status_line.split()[1]), json.loads(payload) if payload else None


class Match:
    """A Brisca match played by one client for both seats."""

    def __init__(self, conn: Connection, rng: random.Random) -> None:
        self.conn, self.rng = conn, rng

    async def setup(self) -> None:
        self.tokens = []
        for name in ("Ana", "Beto"):
            _, player = await self.conn.request("POST", "/v1/players", {"name": name})
            self.tokens.append(player["token"])
        _, match = await self.conn.request(
            "POST", "/v1/matches", {"game": "brisca"}, self.tokens[0]
        )
        self.id = match["id"]
        for token in self.tokens:
            _, match = await self.conn.request("POST", f"/v1/matches/{self.id}/join", {}, token)
        self.version, self.to_act = match["version"], match["to_act"]
        self.options: dict[int, list] = {}
        for seat, token in enumerate(self.tokens):
            _, match = await self.conn.request("GET", f"/v1/matches/{self.id}", None, token)
            self.options[seat] = match["view"]["legal_actions"]

    async def move(self) -> tuple[int, float]:
        """One POST /actions: (status, seconds)."""
        seat = self.rng.choice(self.to_act)
        if not self.options[seat]:  # a new deal since this seat's last view: read it
            _, match = await self.conn.request(
                "GET", f"/v1/matches/{self.id}", None, self.tokens[seat]
            )
            self.options[seat] = match["view"]["legal_actions"]
        action = self.rng.choice(self.options[seat])
        body = {"action": action, "expected_version": self.version}
        started = time.perf_counter()
        status, reply = await self.conn.request(
            "POST", f"/v1/matches/{self.id}/actions", body, self.tokens[seat]
        )
        elapsed = time.perf_counter() - started
        if status == 200:
            view = reply["view"]
            self.version, self.to_act = reply["version"], view["to_act"]
            hand = view["zones"][f"hand:{seat}"]["cards"]
            self.options[seat] = view["legal_actions"] or [
                {"type": "play", "card": c} for c in hand
            ]
        elif status == 422:
            self.options[seat] = reply["error"]["details"]["legal_actions"]
        else:
            raise RuntimeError(f"POST /actions answered {status}: {reply}")
        return status, elapsed

    @property
    def finished(self) -> bool:
        return not self.to_act


async def play(conn: Connection, seconds: float, pace: float | None, seed: int) -> dict:
    """Moves on fresh matches until time is up; pace: seconds between moves, if any."""
    rng = random.Random(seed)
    match = Match(conn, rng)
    await match.setup()
    latencies, refused = [], 0
    deadline = time.perf_counter() + seconds
    next_move = time.perf_counter() + (rng.random() * pace if pace else 0)
    while time.perf_counter() < deadline:
        if pace:
            await asyncio.sleep(max(0.0, next_move - time.perf_counter()))
            next_move += pace
        status, elapsed = await match.move()
        if status == 200:
            latencies.append(elapsed)
        else:
            refused += 1
        if match.finished:
            match = Match(conn, rng)
            await match.setup()
    return {"latencies": latencies, "refused": refused}


async def ping(conn: Connection, seconds: float, seed: int) -> dict:
    latencies = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        status, _ = await conn.request("POST", "/ping", {"action": {"type": "play", "card": "1O"}})
        assert status == 200
        latencies.append(time.perf_counter() - started)
    return {"latencies": latencies, "refused": 0}


async def load(url: str, mode: str, clients: int, seconds: float, pace: float | None) -> dict:
    host, port = url.removeprefix("http://").split(":")
    conns = [Connection(host, int(port)) for _ in range(clients)]
    if mode == "ceiling":
        jobs = [ping(c, seconds, i) for i, c in enumerate(conns)]
    else:
        jobs = [play(c, seconds, pace, i) for i, c in enumerate(conns)]
    started = time.perf_counter()
    results = await asyncio.gather(*jobs)
    elapsed = time.perf_counter() - started
    latencies = sorted(x for r in results for x in r["latencies"])
    return {
        "per_second": len(latencies) / elapsed,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
        "count": len(latencies),
        "refused": sum(r["refused"] for r in results),
    }


def run_load(url: str, mode: str, clients: int, seconds: float, pace: float | None = None) -> dict:
    """The load in its own process, as a client machine would be."""
    command = [sys.executable, __file__, "--load", url, "--mode", mode]
    command += ["--matches", str(clients), "--seconds", str(seconds)]
    if pace:
        command += ["--pace", str(pace)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"the load process failed:\n{done.stderr[-3000:]}")
    out = done.stdout
    return json.loads(out.strip().splitlines()[-1])


# -- the run ---------------------------------------------------------------------------------
def background_load(seconds: float = 2.0) -> float:
    """Share of the machine's CPU busy before we start: other work skews every figure."""

    def busy_idle() -> tuple[int, int]:
        with open("/proc/stat") as stat:
            ticks = [int(x) for x in stat.readline().split()[1:]]
        idle = ticks[3] + ticks[4]
        return sum(ticks) - idle, idle

    try:
        busy0, idle0 = busy_idle()
        time.sleep(seconds)
        busy1, idle1 = busy_idle()
    except OSError:
        return float("nan")
    return (busy1 - busy0) / max(1, (busy1 - busy0) + (idle1 - idle0))


def cpu_seconds(roots: list[int]) -> float:
    """CPU time used so far by these processes and their children (the gunicorn workers)."""
    table: dict[int, tuple[int, int]] = {}  # pid -> (parent pid, ticks)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            table[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    pids, grown = set(roots), True
    while grown:
        children = {pid for pid, (parent, _) in table.items() if parent in pids} - pids
        pids |= children
        grown = bool(children)
    return sum(table[pid][1] for pid in pids if pid in table) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tree(service: Service) -> list[int]:
    """The root of a started service's process tree, for ``cpu_seconds``."""
    assert service.process is not None, f"{service.name} is not running"
    return [service.process.pid]


def with_cpu(roots: dict[str, list[int]], *load: Any) -> dict:
    """``run_load(*load)``'s figures and the CPU each process tree of ``roots`` (and the
    load process) spent per request it counted, in ms: what each side of a request costs."""
    before = {k: cpu_seconds(v) for k, v in roots.items()} | {"load": children_cpu()}
    result = run_load(*load)
    after = {k: cpu_seconds(v) for k, v in roots.items()} | {"load": children_cpu()}
    result["cpu_ms"] = {k: 1000 * (after[k] - before[k]) / result["count"] for k in after}
    return result


def median_run(runs: list[dict]) -> dict:
    """Each figure's median over the repeated runs."""
    out = {
        key: statistics.median(r[key] for r in runs) for key in ("per_second", "p50_ms", "p99_ms")
    }
    out["refused"], out["count"] = sum(r["refused"] for r in runs), sum(r["count"] for r in runs)
    if "cpu_ms" in runs[0]:
        out["cpu_ms"] = {
            k: statistics.median(r["cpu_ms"][k] for r in runs) for k in runs[0]["cpu_ms"]
        }
    return out


@contextmanager
def platform() -> Iterator[tuple[str, Any, Any]]:
    """(redis_url, rules, lobby): Redis (embedded unless REDIS_URL is set), the rules service
    and the lobby under this bench's gunicorn settings; all stopped on the way out."""
    from shared.redis_server import EmbeddedRedis
    from tests.service_fixtures import Service

    redis_url = os.environ.get("REDIS_URL")
    embedded = None if redis_url else EmbeddedRedis()
    if embedded:
        embedded.start()
        redis_url = embedded.url
    assert redis_url is not None
    services: list[Service] = []
    try:
        rules = Service("rules", "services.rules.wsgi:app", {"GUNICORN_THREADS": "4"})
        services.append(rules)
        rules.start()
        env = {**GUNICORN_ENV, "REDIS_URL": redis_url, "RULES_URL": rules.url}
        lobby = Service("lobby", "services.lobby.wsgi:app", env)
        services.append(lobby)
        lobby.start()
        yield redis_url, rules, lobby
    finally:
        while services:
            services.pop().stop()
        if embedded:
            embedded.stop()


def listing_bench(open_matches: int, requests_each: int) -> int:
    """Latency of a page of ``GET /v1/matches`` per filter, with ``open_matches`` open matches
    (and one running for every ten) made through the lobby's application layer."""
    import redis

    from services.lobby.application import Lobby
    from services.lobby.quotas import Quotas
    from services.lobby.rules_client import RulesClient
    from tests.service_fixtures import Http, session

    with platform() as (redis_url, rules, lobby_service):
        redis.Redis.from_url(redis_url).flushall()
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        many = Quotas(open_per_player=open_matches + 1)  # one host makes them all
        lobby = Lobby(client, RulesClient(rules.url), quotas=many)
        ana, token = lobby.register("Ana")
        beto, _ = lobby.register("Beto")
        started = time.monotonic()
        for i in range(open_matches):
            game = "raj" if i % 3 else "brisca"
            match = lobby.create_match(ana, game, "base", None, {})
            if i % 10 == 0:  # a running one beside every ten open ones
                running = lobby.create_match(beto, "brisca", "base", 2, {})
                lobby.join(ana, running["id"])
                lobby.join(beto, running["id"])
            elif i % 4 == 0:
                lobby.join(ana, match["id"])
        made = time.monotonic() - started
        http = Http(session(), lobby_service.url)
        second = http.get("/v1/matches?limit=50", token).body["next"]
        queries = {
            "(reference) GET /v1/players/me": None,
            "newest, any status": "",
            "status=open": "status=open",
            "free_seats=true": "free_seats=true",
            "game=raj&status=open": "game=raj&status=open",
            "mine=true": "mine=true",
            "mine=true&status=running": "mine=true&status=running",
            "page 2 (cursor)": f"cursor={second}",
        }
        print(f"listing benchmark: {open_matches} open matches (+{open_matches // 10} running)"
              f" made in {made:.0f} s; {requests_each} sequential GETs per filter, limit 50,"
              f" {os.cpu_count()} cores; CPU already busy: {background_load():.0%}")  # fmt: skip
        for name, query in queries.items():
            times, size = [], 0
            for _ in range(requests_each):
                path = "/v1/players/me" if query is None else f"/v1/matches?limit=50&{query}"
                t0 = time.perf_counter()
                reply = http.get(path, token)
                times.append((time.perf_counter() - t0) * 1000)
                assert reply.status == 200, reply.body
                size = len(reply.body.get("matches", ()))
            print(f"  {name:40s} {size:3d} matches   {percentiles(times)}")
        # the listing's own work, in this process: the index shards' tops, one page of documents
        times = []
        for _ in range(requests_each):
            t0 = time.perf_counter()
            lobby.list_matches(ana, limit=50)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"  {'Lobby.list_matches in process':40s}  50 matches   {percentiles(times)}")
    return 0


def percentiles(times: list[float]) -> str:
    times = sorted(times)
    p50, p99 = times[len(times) // 2], times[max(int(len(times) * 0.99) - 1, 0)]
    return f"p50 {p50:6.1f} ms   p99 {p99:6.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; medians shown")
    parser.add_argument("--no-stores", action="store_true", help="skip the store comparison")
    parser.add_argument("--stores-only", action="store_true", help="only the store comparison")
    parser.add_argument("--appends", type=int, default=APPENDS, help="of the store alone")
    parser.add_argument("--load", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="lobby", help=argparse.SUPPRESS)
    parser.add_argument("--pace", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--listing", action="store_true", help="GET /v1/matches latency instead")
    parser.add_argument("--open", type=int, default=3000, help="--listing: open matches")
    parser.add_argument("--requests", type=int, default=200, help="--listing: GETs per filter")
    args = parser.parse_args()
    if args.listing:
        return listing_bench(args.open, args.requests)
    if args.load:
        result = asyncio.run(load(args.load, args.mode, args.matches, args.seconds, args.pace))
        print(json.dumps(result))
        return 0

    if args.stores_only:
        return stores(args.matches, args.seconds, args.repeat, args.appends)
    from shared.redis_server import EmbeddedRedis
    from tests.service_fixtures import Service

    quiet = {**GUNICORN_ENV, "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO")}
    redis_url = os.environ.get("REDIS_URL")
    embedded = None if redis_url else EmbeddedRedis()
    if embedded:
        embedded.start()
        redis_url = embedded.url
    bench_path = {"PYTHONPATH": os.path.join(ROOT, "bench")}  # for lobby:ceiling_app()
    rules_env = {"GUNICORN_THREADS": "4"}  # as the Procfile runs it
    n, seconds = args.matches, args.seconds
    print(f"lobby benchmark: {n} concurrent Brisca matches, {args.repeat} x {seconds:.0f} s runs"
          f" (medians), {os.cpu_count()} cores, gunicorn {GUNICORN_ENV}; "
          f"CPU already busy before the run: {background_load():.0%}")  # fmt: skip
    runs: dict[str, list[dict]] = {}
    started: list[Service] = []

    def serve(name: str, app: str, env: dict[str, str]) -> Service:
        service = Service(name, app, env)
        started.append(service)
        service.start()
        return service

    def stop_all() -> None:
        while started:
            started.pop().stop()

    try:
        for _ in range(args.repeat):  # interleaved, so a slow spell of the machine hits all
            ceiling = serve("ceiling", "lobby:ceiling_app()", {**quiet, **bench_path})
            at_ceiling = {"server": tree(ceiling)}
            runs.setdefault("ceiling", []).append(
                with_cpu(at_ceiling, ceiling.url, "ceiling", n, seconds)
            )
            relay_env = {**quiet, **bench_path, "RELAY_URL": ceiling.url}
            relay = serve("relay", "lobby:relay_app()", relay_env)
            runs.setdefault("two hops", []).append(
                with_cpu({"relay": tree(relay), **at_ceiling}, relay.url, "ceiling", n, seconds)
            )
            stop_all()
            rules = serve("rules", "services.rules.wsgi:app", rules_env)
            fixed = apply_body(rules.url)
            relay_env = {**quiet, **bench_path, "RELAY_URL": rules.url, "RELAY_APPLY": fixed}
            relay = serve("relay", "lobby:relay_app()", relay_env)
            runs.setdefault("rules hop", []).append(
                with_cpu(
                    {"relay": tree(relay), "rules": tree(rules)}, relay.url, "ceiling", n, seconds
                )
            )
            started.remove(relay)
            relay.stop()
            os.unlink(fixed)
            env = {**quiet, "REDIS_URL": redis_url, "RULES_URL": rules.url}
            lobby = serve("lobby", "services.lobby.wsgi:app", env)
            run_load(lobby.url, "lobby", n, 2)  # warm-up
            roots = {"lobby": tree(lobby), "rules": tree(rules)}
            if embedded and embedded.process:
                roots["redis"] = [embedded.process.pid]
            full = with_cpu(roots, lobby.url, "lobby", n, seconds)
            runs.setdefault("moves", []).append(full)
            pace = n / (full["per_second"] / 2)
            runs.setdefault("paced", []).append(run_load(lobby.url, "lobby", n, seconds, pace=pace))
            stop_all()
    finally:
        stop_all()
        if embedded:
            embedded.stop()
    result = {name: median_run(r) for name, r in runs.items()}
    top = result["ceiling"]

    def line(name: str, r: dict, unit: str) -> str:
        text = (f"  {name:34s} {r['per_second']:6.0f} {unit:8s} p50 {r['p50_ms']:6.1f} ms"
                f"   p99 {r['p99_ms']:6.1f} ms")  # fmt: skip
        if "cpu_ms" in r:
            text += "   CPU each: " + ", ".join(f"{k} {v:.1f}" for k, v in r["cpu_ms"].items())
            text += f" = {sum(r['cpu_ms'].values()):.1f} ms"
        return text

    moves, paced = result["moves"], result["paced"]
    hops, hop = result["two hops"], result["rules hop"]
    print(line("ceiling: trivial Flask endpoint", top, "req/s"))
    print(line("two hops: relayed to the ceiling", hops, "req/s"))
    print(line("rules hop: the rules' apply alone", hop, "req/s"))
    print(line("POST /actions, saturated", moves, "moves/s"))
    print(line("POST /actions, paced at half that", paced, "moves/s"))
    print(f"  two hops = {hops['per_second'] / top['per_second']:.1%} of the ceiling: the bound of"
          " any design with the lobby -> rules hop")  # fmt: skip
    print(f"  rules hop = {hop['per_second'] / top['per_second']:.1%} of the ceiling: a lobby that"
          " only made its rules call, with no Redis, checks or matches to set up")  # fmt: skip
    print(f"  moves/s = {moves['per_second'] / top['per_second']:.1%} of the ceiling"
          f" (target {TARGET_SHARE:.0%}); paced p99 {paced['p99_ms']:.1f} ms"
          f" (target {TARGET_P99_MS:.0f} ms); stale-hand 422s: {moves['refused']} of"
          f" {moves['count'] + moves['refused']} moves tried")  # fmt: skip
    print(f"  moves/s = {moves['per_second'] / hop['per_second']:.1%} of the rules hop"
          f" (target {TARGET_HOP_SHARE:.0%}); lobby CPU {moves['cpu_ms']['lobby']:.2f} ms a move"
          f" (target {TARGET_LOBBY_CPU_MS:.1f} ms), against {hop['cpu_ms']['relay']:.2f} ms a"
          f" request for the rules hop's lobby and {top['cpu_ms']['server']:.2f} ms for the"
          " trivial endpoint under the same gunicorn")  # fmt: skip
    return 0 if args.no_stores else stores(n, seconds, args.repeat, args.appends)


STORES: dict[str, tuple[str, dict[str, str]]] = {
    # name: (topology and the servers' appendfsync, the lobby's settings)
    "one node, no persistence": ("single:", {}),
    "one node, AOF fsync every second": ("single:everysec", {}),
    "one node, AOF fsync always": ("single:always", {}),
    "one node, everysec + WAITAOF (ack fsync)": ("single:everysec", {"REDIS_ACK_FSYNC": "1"}),
    "cluster 3+3, no persistence": ("cluster:", {}),
    "cluster 3+3, ack replicated (WAIT 1)": ("cluster:", {"REDIS_ACK_REPLICAS": "1"}),
}


@contextmanager
def store(kind: str) -> Iterator[dict[str, str]]:
    """A fresh store of ``kind`` ("single:<fsync>" or "cluster:<fsync>", fsync empty: no
    append-only file); yields the lobby's environment for it."""
    from shared.redis_server import EmbeddedCluster, EmbeddedRedis

    topology, fsync = kind.split(":")
    persistent = bool(fsync)
    if topology == "single":
        folder = tempfile.mkdtemp(prefix="tapete-bench-") if persistent else None
        with EmbeddedRedis(
            data_dir=folder, persistent=persistent, fsync=fsync or "everysec"
        ) as one:
            yield {"REDIS_URL": one.url}
        return
    with EmbeddedCluster(persistent=persistent, fsync=fsync or "everysec") as cluster:
        yield {"REDIS_URL": cluster.url, "REDIS_CLUSTER": "1"}


APPENDS = 1000


def appends(env: dict[str, str], count: int = APPENDS) -> dict:
    """The store alone: ``count`` appends of a move-sized entry, one after the other, through
    the lobby's own MatchLog and client with ``env``'s settings: appends/s and latency."""
    from services.settings import Settings
    from services.store import match_log, store_client

    settings = Settings.from_env({**env, "RQ_REDIS_URL": "redis://unused:6379/0"})
    log = match_log(settings, store_client(settings))
    state = {"state": {"hands": [[f"card-{i}" for i in range(40)]], "turn": 0}}
    entry = {"kind": "action", "action": {"type": "play", "card": "oros-1"}, "pad": "x" * 400}
    latencies = []
    for match in range(count // 100):
        match_id = f"bench-{match}-{time.monotonic_ns()}"
        log.create(match_id, {"kind": "match.created"}, state, {})
        for version in range(1, 101):
            started = time.perf_counter()
            log.append(match_id, version, entry, state, {}, action_id=f"a{version}")
            latencies.append(time.perf_counter() - started)
    latencies.sort()
    return {
        "per_second": len(latencies) / sum(latencies),
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
    }


def stores(matches: int, seconds: float, repeat: int, count: int = APPENDS) -> int:
    """Appends/s alone, then saturated moves/s through the lobby, on each store of STORES;
    interleaved rounds, medians."""
    from tests.service_fixtures import Service

    print(f"match stores: {count} appends one at a time through MatchLog, {repeat} rounds")
    alone: dict[str, list[dict]] = {}
    for _ in range(repeat):
        for name, (kind, settings) in STORES.items():
            with store(kind) as env:
                alone.setdefault(name, []).append(appends({**env, **settings}, count))
                print(f"  ({name}: {alone[name][-1]['per_second']:.0f} appends/s)", flush=True)
    print_relative(alone, "appends/s")

    quiet = {**GUNICORN_ENV, "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO")}
    print(f"match stores: saturated POST /actions, {matches} matches, {repeat} x {seconds:.0f} s")
    rules = Service("rules", "services.rules.wsgi:app", {"GUNICORN_THREADS": "4"})
    rules.start()
    runs: dict[str, list[dict]] = {}
    try:
        for _ in range(repeat):
            for name, (kind, settings) in STORES.items():
                with store(kind) as env:
                    lobby_env = {**quiet, **env, **settings, "RULES_URL": rules.url}
                    lobby = Service("lobby", "services.lobby.wsgi:app", lobby_env)
                    lobby.start()
                    try:
                        run_load(lobby.url, "lobby", matches, 2)  # warm-up
                        runs.setdefault(name, []).append(
                            run_load(lobby.url, "lobby", matches, seconds)
                        )
                        print(f"  ({name}: {runs[name][-1]['per_second']:.0f} moves/s)", flush=True)
                    finally:
                        lobby.stop()
    finally:
        rules.stop()
    print_relative(runs, "moves/s")
    return 0


def print_relative(runs: dict[str, list[dict]], unit: str) -> None:
    """One line per store: the median rate, as a share of the first store's, and latency."""
    base = None
    for name, results in runs.items():
        r = {
            k: statistics.median(x[k] for x in results) for k in ("per_second", "p50_ms", "p99_ms")
        }
        base = base or r["per_second"]
        print(f"  {name:42s} {r['per_second']:6.0f} {unit} ({r['per_second'] / base:6.1%})"
              f"   p50 {r['p50_ms']:6.2f} ms   p99 {r['p99_ms']:6.2f} ms")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
