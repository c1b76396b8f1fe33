"""Fault drills under load (`make chaos`): the whole platform as `make run` starts it, under
the project's supervisor, with bot matches and client moves going on while one process of
each kind after another is killed with SIGKILL — Redis, a lobby worker, the lobby master, an
rq worker, the bot dispatcher, the history consumer.

The load: client threads each play 2-player Brisca matches through the lobby's API, both
seats, every move with an ``action_id`` and retried with it until answered (a connection
refused, a 5xx, a 503 are retried; the lobby answers a retry with its first answer); and a
few bot-only matches kept running (a finished one is replaced). After each kill the drill
waits for the supervisor to start the process again and for the platform to make progress
of the kind that process serves: a client move acknowledged (Redis, the lobby), a bot move
(rq worker, dispatcher), the history read models moving (consumer). That wait is the
fault's recovery time.

Then the load stops, every match is played to its end, and the figures are checked from
the match logs themselves: an acknowledged move is lost if the log's entry at its version
is not that move, duplicated if the log holds a move of a client seat that was never
acknowledged; every finished match must verify (the history service replays it), and the
history read models must catch up with every log.

    python bench/chaos.py                 # the drill, a few rounds of every fault
    python bench/chaos.py --rounds 1 --clients 3 --bots 3   # the short form the tests run
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
import requests  # noqa: E402

from services.history.store import ReadModels  # noqa: E402
from services.settings import LOAD_TOOL_LIMITS  # noqa: E402
from shared.eventstore import MatchLog  # noqa: E402
from shared.redis_server import free_port  # noqa: E402
from tests.service_fixtures import children_of  # noqa: E402

FAULTS = ("redis", "lobby-worker", "lobby", "worker", "dispatcher", "history-consumer")
QUICK = {  # lost jobs redone after a second, stale notifications taken over after 300 ms
    "BOTS_RETRY_AFTER_S": "1",
    "BOTS_SWEEP_EVERY_S": "0.1",
    "BOTS_MIN_IDLE_MS": "300",
    "BOTS_CLAIM_EVERY_S": "0.1",
    "BOTS_BLOCK_MS": "100",
    "HISTORY_MIN_IDLE_MS": "300",
    "HISTORY_CLAIM_EVERY_S": "0.1",
    "HISTORY_BLOCK_MS": "100",
}
MATCH = {"game": "brisca", "options": {"deals": 1}}  # about 40 moves
RETRIED = (500, 502, 503, 504)
SEAT_TAKEN = ("already_seated", "seat_taken", "match_not_open")  # a retried join went through
CALL_DEADLINE_S = 90.0
RECOVERY_DEADLINE_S = 60.0


class Gone(Exception):
    """A call that got no answer before its deadline."""


# -- the platform --------------------------------------------------------------------------
class Platform:
    """The Procfile under the supervisor, on free ports, Redis' data in a folder of its own."""

    def __init__(self, folder: Path, workers: int = 2) -> None:
        self.folder = folder
        names = ("REDIS", "RULES", "LOBBY", "FEED", "HISTORY", "GATEWAY")  # every Procfile port
        self.ports = {name: free_port() for name in names}
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
        env.update({f"{name}_PORT": str(port) for name, port in self.ports.items()})
        env.update(
            {**QUICK, **LOAD_TOOL_LIMITS},
            TAPETE_DEV="1",
            LOG_LEVEL="WARNING",
            REDIS_DATA=str(folder / "redis"),
        )
        env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
        self.log_path = folder / "supervisor.log"
        with self.log_path.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "shared.supervisor", "-f", "Procfile", "-c",
                 f"worker={workers}", "--stop-timeout", "10"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.redis_url = f"redis://127.0.0.1:{self.ports['REDIS']}/0"
        self.lobby = f"http://127.0.0.1:{self.ports['LOBBY']}"
        self.history = f"http://127.0.0.1:{self.ports['HISTORY']}"
        self.rules = f"http://127.0.0.1:{self.ports['RULES']}"

    def wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        for url in (self.rules, self.lobby, self.history):
            while not _ready(url):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the platform did not start:\n{self.log_tail()}")
                time.sleep(0.2)
        for name in ("history-consumer.1", "dispatcher.1", "worker.1"):
            while name not in self.pids():
                time.sleep(0.1)

    def pids(self) -> dict[str, int]:
        """The latest pid the supervisor started for each process (``lobby.1``...)."""
        found: dict[str, int] = {}
        for line in self.log_path.read_text(errors="replace").splitlines():
            if "| " in line and " started (pid " in line:
                name, _, rest = line.split("| ", 1)[1].partition(" started (pid ")
                found[name] = int(rest.rstrip(")"))
        return found

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


def _ready(url: str) -> bool:
    try:
        return requests.get(f"{url}/readyz", timeout=2).status_code == 200
    except requests.RequestException:
        return False


class Api:
    """The lobby's and history's HTTP API, every call retried until answered."""

    def __init__(self, platform: Platform, load: Load) -> None:
        self.platform = platform
        self.load = load
        self.session = requests.Session()
        self.session.trust_env = False

    def call(self, method: str, url: str, token: str | None = None, body: Any = None) -> Any:
        """(status, body) of the first answer that is not a connection error or a 5xx."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        deadline, pause = time.monotonic() + CALL_DEADLINE_S, 0.05
        while True:
            try:
                reply = self.session.request(method, url, json=body, headers=headers, timeout=10)
                if reply.status_code not in RETRIED:
                    return reply.status_code, reply.json()
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise Gone(f"{method} {url}: no answer in {CALL_DEADLINE_S}s")
            with self.load.lock:
                self.load.retried += 1
            time.sleep(pause)
            pause = min(pause * 2, 1.0)

    def lobby(self, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        status, reply = self.call(method, self.platform.lobby + path, token, body)
        if status >= 300:
            raise AssertionError(f"{method} {path}: {status} {reply}")
        return reply

    def player(self, name: str) -> dict[str, Any]:
        return self.lobby("POST", "/v1/players", body={"name": name})


# -- the load ------------------------------------------------------------------------------
@dataclass
class Ack:
    match: str
    version: int  # the version the move made
    seat: int
    action: dict[str, Any]
    at: float


@dataclass
class Load:
    """What the load did, shared by its threads."""

    acks: list[Ack] = field(default_factory=list)
    refused: int = 0  # 409s: the move was not applied (a fresh view is read)
    retried: int = 0  # calls that got no answer or a 5xx, and were made again
    client_matches: list[str] = field(default_factory=list)
    bot_matches: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def last_ack(self) -> float:
        with self.lock:
            return self.acks[-1].at if self.acks else 0.0


def client(api: Api, load: Load, seed: int) -> None:
    """Play 2-player Brisca matches, both seats, until asked to stop, then finish the match."""
    rng = random.Random(seed)
    try:
        seated = [api.player(f"C{seed}-{seat}") for seat in range(2)]  # once, as a client does
        while not load.stopping.is_set():
            match = api.lobby("POST", "/v1/matches", seated[0]["token"], MATCH)
            for seat, player in enumerate(seated):
                join(api, match["id"], player, seat)
            with load.lock:
                load.client_matches.append(match["id"])
            play_to_the_end(api, load, match["id"], seated, rng)
    except Exception as exc:  # reported, and fails the drill
        with load.lock:
            load.errors.append(f"client {seed}: {exc!r}")


def join(api: Api, match_id: str, player: dict[str, Any], seat: int) -> None:
    """Take the seat. A join is not idempotent: when its answer was lost (a process killed
    after the write) the retry is told the seat is taken by this player, or that the match
    has started (the second join started it); both mean the first try went through."""
    path = f"{api.platform.lobby}/v1/matches/{match_id}/join"
    status, reply = api.call("POST", path, player["token"], {"seat": seat})
    done_before = status == 409 and reply["error"]["code"] in SEAT_TAKEN
    if status != 200 and not done_before:
        raise AssertionError(f"join {match_id}: {status} {reply}")


def play_to_the_end(
    api: Api, load: Load, match_id: str, seated: list[dict[str, Any]], rng: random.Random
) -> None:
    dealt_by = time.monotonic() + CALL_DEADLINE_S
    while True:
        now = api.lobby("GET", f"/v1/matches/{match_id}", seated[0]["token"])
        if now["status"] == "open":  # full: dealt by its last join, else by the dispatcher
            if time.monotonic() > dealt_by:
                raise AssertionError(f"{match_id}: full, and not dealt in {CALL_DEADLINE_S}s")
            time.sleep(0.1)
            continue
        if now["status"] != "running":
            return
        seat = now["to_act"][0]
        mine = api.lobby("GET", f"/v1/matches/{match_id}", seated[seat]["token"])
        if mine["to_act"] != now["to_act"] or not mine["view"]["legal_actions"]:
            continue
        action = rng.choice(mine["view"]["legal_actions"])
        body = {
            "action": action,
            "expected_version": mine["version"],
            "action_id": uuid.uuid4().hex,
        }
        status, reply = api.call(
            "POST",
            f"{api.platform.lobby}/v1/matches/{match_id}/actions",
            seated[seat]["token"],
            body,
        )
        with load.lock:
            if status == 200:
                load.acks.append(Ack(match_id, reply["version"], seat, action, time.monotonic()))
            elif status == 409:
                load.refused += 1
            else:
                raise AssertionError(f"move refused: {status} {reply}")


def bots(api: Api, load: Load, running: int) -> None:
    """Keep ``running`` bot-only Brisca matches going until asked to stop."""
    try:
        host = api.player("Host")
        live: list[str] = []
        while not load.stopping.is_set():
            client_ = redis.Redis.from_url(api.platform.redis_url, decode_responses=True)
            live = [m for m in live if status_of(client_, m) == "running"]
            while len(live) < running:
                match = api.lobby("POST", "/v1/matches", host["token"], MATCH)
                for seat in range(2):  # a retry after a lost answer: that seat is taken
                    path = f"{api.platform.lobby}/v1/matches/{match['id']}/bots"
                    body = {"seat": seat, "strategy": "random"}
                    status, reply = api.call("POST", path, host["token"], body)
                    taken = status == 409 and reply["error"]["code"] in SEAT_TAKEN
                    if status != 200 and not taken:
                        raise AssertionError(f"bot seat {match['id']}: {status} {reply}")
                live.append(match["id"])
                with load.lock:
                    load.bot_matches.append(match["id"])
            client_.close()
            load.stopping.wait(0.5)
    except Exception as exc:
        with load.lock:
            load.errors.append(f"bots: {exc!r}")


def status_of(client: redis.Redis, match_id: str) -> str | None:
    """The match's status from its snapshot, read straight from Redis (None: unreadable now)."""
    try:
        doc = client.hget(MatchLog(client).keys(match_id).snapshot, "match")
    except redis.RedisError:
        return "running"  # Redis is down: assume nothing changed
    return json.loads(str(doc))["status"] if doc else None


# -- the faults ----------------------------------------------------------------------------
@dataclass
class Fault:
    kind: str
    killed: int  # pid
    recovery_s: float | None = None  # None: not recovered in time


def progress(platform: Platform, load: Load, kind: str) -> Callable[[], Any]:
    """A reading that grows when the platform does the work ``kind`` serves."""
    store = redis.Redis.from_url(platform.redis_url, decode_responses=True, socket_timeout=2)

    def bot_versions() -> int:
        log = MatchLog(store)
        pipe = store.pipeline(transaction=False)
        for match_id in load.bot_matches:
            pipe.hget(log.keys(match_id).snapshot, "version")
        return sum(int(v or 0) for v in pipe.execute())

    def applied() -> int:
        models = ReadModels(store, MatchLog(store))
        pipe = store.pipeline(transaction=False)
        for match_id in load.bot_matches + load.client_matches:
            pipe.get(models.summary_key(match_id))
        return sum(json.loads(raw)["version"] for raw in pipe.execute() if raw)

    if kind in ("worker", "dispatcher"):
        return bot_versions
    if kind == "history-consumer":
        return applied
    return load.last_ack


def kill(platform: Platform, kind: str) -> tuple[int, Callable[[], bool]]:
    """SIGKILL one process of ``kind``; its pid, and a test of whether it is back."""
    pids = platform.pids()
    if kind == "redis":  # the server itself, not the supervised wrapper that runs it
        [server] = children_of(pids["redis.1"])
        os.kill(server, signal.SIGKILL)
        return server, lambda: pids["redis.1"] != platform.pids().get("redis.1")
    if kind == "lobby-worker":
        master = pids["lobby.1"]
        before = set(children_of(master))
        victim = sorted(before)[0]
        os.kill(victim, signal.SIGKILL)
        return victim, lambda: bool(set(children_of(master)) - before)
    name = f"{kind}.1"
    os.kill(pids[name], signal.SIGKILL)
    return pids[name], lambda: platform.pids().get(name) != pids[name]


def drill(platform: Platform, load: Load, kind: str) -> Fault:
    """Kill one process of ``kind``; wait until it is back and the work it serves moves on."""
    started = time.monotonic()
    victim, back = kill(platform, kind)
    fault = Fault(kind, victim)
    reading = progress(platform, load, kind)
    deadline = started + RECOVERY_DEADLINE_S
    while time.monotonic() < deadline and not back():
        time.sleep(0.05)
    baseline = _safe(reading)
    while time.monotonic() < deadline:
        value = _safe(reading)
        if baseline is not None and value is not None and value > baseline:
            fault.recovery_s = time.monotonic() - started
            break
        baseline = baseline if baseline is not None else value
        time.sleep(0.05)
    return fault


def _safe(reading: Callable[[], Any]) -> Any:
    try:
        return reading()
    except redis.RedisError:
        return None


# -- the checks ----------------------------------------------------------------------------
@dataclass
class Report:
    faults: list[Fault]
    acknowledged: int
    lost: int
    duplicated: int
    refused: int
    retried_calls: int
    bot_moves: int
    matches: int
    finished: int
    verified: int
    history_caught_up: bool
    errors: list[str]
    seconds: float

    def ok(self) -> bool:
        return (
            self.lost == 0
            and self.duplicated == 0
            and not self.errors
            and self.finished == self.verified == self.matches
            and self.history_caught_up
            and all(f.recovery_s is not None for f in self.faults)
        )

    def lines(self) -> list[str]:
        out = [
            f"{len(self.faults)} faults in {self.seconds:.0f} s under load",
            f"client moves acknowledged {self.acknowledged}, lost {self.lost}, "
            f"duplicated {self.duplicated}; refused (409, not applied) {self.refused}; "
            f"calls retried {self.retried_calls}",
            f"bot moves {self.bot_moves}; matches {self.matches}, finished {self.finished}, "
            f"verified {self.verified}; history caught up: {self.history_caught_up}",
            "recovery per fault (kill -> back and working):",
        ]
        for kind in FAULTS:
            times = [f.recovery_s for f in self.faults if f.kind == kind]
            shown = ", ".join("not recovered" if t is None else f"{t:.2f} s" for t in times)
            out.append(f"  {kind:17} {shown}")
        out += [f"error: {error}" for error in self.errors]
        return out


def check(platform: Platform, api: Api, load: Load, faults: list[Fault], seconds: float) -> Report:
    store = redis.Redis.from_url(platform.redis_url, decode_responses=True)
    log = MatchLog(store)
    matches = load.client_matches + load.bot_matches
    deadline = time.monotonic() + 120
    while any(status_of(store, m) == "running" for m in matches) and time.monotonic() < deadline:
        time.sleep(0.2)  # the bots finish their matches
    logs = {m: log.entries(m) for m in matches}
    by_version = {m: {e["version"]: e for e in entries} for m, entries in logs.items()}
    errors = list(load.errors)
    for match_id, entries in logs.items():
        if [e["version"] for e in entries] != list(range(1, len(entries) + 1)):
            errors.append(f"{match_id}: versions not 1..n")
    lost, matched = 0, 0
    for ack in load.acks:
        entry = by_version[ack.match].get(ack.version)
        same = entry is not None and entry["kind"] == "action"
        same = same and entry["actor"]["seat"] == ack.seat and entry["action"] == ack.action
        lost += not same
        matched += same
    client_moves = sum(
        1
        for m in load.client_matches
        for e in logs[m]
        if e["kind"] == "action" and e["actor"]["seat"] is not None
    )
    bot_moves = sum(1 for m in load.bot_matches for e in logs[m] if e["kind"] == "action")
    finished = [m for m in matches if logs[m] and logs[m][-1].get("finished")]
    verified = 0
    for match_id in finished:
        status, report = api.call("GET", f"{platform.history}/v1/matches/{match_id}/verify")
        verified += status == 200 and bool(report.get("ok"))
    caught_up = False
    models = ReadModels(store, log)
    while time.monotonic() < deadline + 60 and not caught_up:
        summaries = {m: models.summary(m) for m in matches}
        caught_up = all(
            summaries[m] and summaries[m]["version"] == logs[m][-1]["version"]
            for m in matches
            if logs[m]
        )
        time.sleep(0.2)
    return Report(
        faults, len(load.acks), lost, client_moves - matched, load.refused, load.retried,
        bot_moves, len(matches), len(finished), verified, caught_up, errors, seconds,
    )  # fmt: skip


def run(rounds: int = 1, clients: int = 3, bots_running: int = 3, pause_s: float = 1.0) -> Report:
    """The drill: start the platform, load it, kill each kind ``rounds`` times, check."""
    folder = Path(tempfile.mkdtemp(prefix="tapete-chaos-"))
    platform = Platform(folder)
    load = Load()
    threads: list[threading.Thread] = []
    try:
        platform.wait_ready()
        api = Api(platform, load)
        threads = [
            threading.Thread(target=client, args=(Api(platform, load), load, seed), daemon=True)
            for seed in range(clients)
        ]
        threads.append(threading.Thread(target=bots, args=(api, load, bots_running), daemon=True))
        for thread in threads:
            thread.start()
        started = time.monotonic()
        faults = []
        for _ in range(rounds):
            for kind in FAULTS:
                load.stopping.wait(pause_s)  # load runs between faults
                faults.append(drill(platform, load, kind))
        load.stopping.set()
        for thread in threads:
            thread.join(CALL_DEADLINE_S * 2)
        seconds = time.monotonic() - started
        return check(platform, api, load, faults, seconds)
    except BaseException:
        print(platform.log_tail(), file=sys.stderr)
        raise
    finally:
        load.stopping.set()
        platform.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="kills of each kind")
    parser.add_argument("--clients", type=int, default=6, help="client threads playing")
    parser.add_argument("--bots", type=int, default=6, help="bot matches kept running")
    parser.add_argument("--pause", type=float, default=3.0, help="seconds of load between kills")
    args = parser.parse_args()
    report = run(args.rounds, args.clients, args.bots, args.pause)
    print("\n".join(report.lines()))
    return 0 if report.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
