"""Rolling restarts under load (`make restart-drill`): every lobby, feed and bot worker
process is restarted one after the other, gracefully, while clients play, follow their
matches' streams and bots play; nothing acknowledged may be lost or repeated, and no request
may be refused except the retries the server tells a client to make.

What it models: a Kubernetes rolling update behind a Service. Two lobby gunicorns and two
feed gunicorns (each as its pod runs it, `services/gunicorn_conf.py` and
`services/gunicorn_feed_conf.py`, with one worker each) sit behind a TCP balancer each (the
Service: every new connection goes to a ready backend, connections already open stay where
they are). A restart is what the kubelet does: the backend leaves the balancer (its endpoint
removed, during the `preStop` pause), then gets SIGTERM — gunicorn stops accepting, finishes
the requests in flight; the feed first tells every stream to reconnect — and once it has
exited a new one starts on the same port and rejoins the balancer when `/readyz` answers.
A bot worker gets SIGTERM (rq's warm shutdown: the job in hand finishes) and a new one
starts. Redis, rules, history, the history consumer and the dispatcher keep running.

The load: client threads play 2-player Brisca matches through the lobby's balancer (both
seats; every move with an action id, retried with it until answered), and each follows its
match on a stream through the feed's balancer, resuming with Last-Event-ID when told to
reconnect; bot-only matches run too (the workers reach the lobby through its balancer).
Every client request is a new connection (`Connection: close`), so every failure counts:

* refused: a connection error or a 5xx answer (a request the server did not answer as it
  should) — must be 0;
* retries told: a 503 with Retry-After, and streams that got `event: reconnect` — counted,
  allowed (the client does what it is told);
* streams cut without being told (ended before the match's end without `reconnect`) — 0;
* stream entries missed or repeated (each stream's versions against the log) — 0;
* moves acknowledged and lost, or in the log and never acknowledged — 0 (as `make chaos`
  checks them), every match finished and verified by the history service.

    python bench/rolling.py                       # 100 restarts
    python bench/rolling.py --restarts 6 --clients 2 --bots 1   # the short form (tests)
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from bench.chaos import MATCH, Api, Gone, Load, bots, check, join, play_to_the_end  # noqa: E402
from services.settings import LOAD_TOOL_LIMITS  # noqa: E402
from shared.redis_server import EmbeddedRedis  # noqa: E402
from tests.bots_fixtures import TEST_BOTS_ENV, BotProcess  # noqa: E402
from tests.history_fixtures import TEST_CONSUMER_ENV, ConsumerProcess  # noqa: E402
from tests.service_fixtures import FEED_CONF, Service, stop_process  # noqa: E402
from tests.sse import Stream  # noqa: E402

DRAIN_S = 0.5  # the preStop pause: the balancer has stopped sending new connections
START_S = 120.0  # a gunicorn booting on a busy machine (several at once at the start)
GRACE_S = 45.0  # the pods' terminationGracePeriodSeconds: then SIGKILL (counted: not graceful)
CALL_DEADLINE_S = 60.0


# -- the Service in front -----------------------------------------------------------------
class Balancer:
    """A TCP balancer on 127.0.0.1: each new connection goes to the next ready backend port;
    ``drain`` takes one out of the rotation (its open connections carry on)."""

    def __init__(self, ports: list[int]) -> None:
        self.ready = list(ports)
        self.lock = threading.Lock()
        self.turn = itertools.count()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def drain(self, port: int) -> None:
        with self.lock:
            self.ready.remove(port)

    def rejoin(self, port: int) -> None:
        with self.lock:
            self.ready.append(port)

    def _accept(self) -> None:
        while True:
            client, _ = self.server.accept()
            with self.lock:
                port = self.ready[next(self.turn) % len(self.ready)]
            threading.Thread(target=self._serve, args=(client, port), daemon=True).start()

    def _serve(self, client: socket.socket, port: int) -> None:
        try:
            backend = socket.create_connection(("127.0.0.1", port))
        except OSError:
            client.close()  # seen by the client as a refused request: counted there
            return
        for source, target in ((client, backend), (backend, client)):
            threading.Thread(target=_pump, args=(source, target), daemon=True).start()


def _pump(source: socket.socket, target: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            target.sendall(data)
    with contextlib.suppress(OSError):
        target.shutdown(socket.SHUT_WR)  # pass the end on; the other way may still talk


# -- the platform -------------------------------------------------------------------------
class Platform:
    """Redis, rules, two lobbies and two feeds behind their balancers, history, the history
    consumer, the dispatcher and two bot workers, on free ports."""

    def __init__(self, folder: Path, workers: int = 2) -> None:
        self.folder = folder
        self.http: list[Service] = []
        self.workers: list[BotProcess] = []
        self.forced: list[str] = []  # stops that needed SIGKILL: not graceful
        self.others: list[Any] = []  # the consumer and the dispatcher
        self.redis = EmbeddedRedis(data_dir=folder / "redis", persistent=True)
        try:
            self._start(workers)
        except BaseException:
            self.stop()
            raise

    def _start(self, workers: int) -> None:
        self.redis.start()
        self.redis_url = self.redis.url
        # one gunicorn worker per process: the claim is about processes, and each boots faster
        base = {"REDIS_URL": self.redis_url, "LOG_LEVEL": "WARNING", "TAPETE_DEV": "1",
                "GUNICORN_WORKERS": "1"}  # fmt: skip
        self.rules = Service("rules", "services.rules.wsgi:app", base)
        env = {**base, "RULES_URL": self.rules.url}
        self.lobbies = [Service(f"lobby-{n}", "services.lobby.wsgi:app", env) for n in "ab"]
        self.feeds = [
            Service(f"feed-{n}", "services.lobby.wsgi:app", env, config=FEED_CONF) for n in "ab"
        ]
        self.history_service = Service("history", "services.history.wsgi:app", base)
        self.http = [self.rules, *self.lobbies, *self.feeds, self.history_service]
        starting = [threading.Thread(target=s.start, args=(START_S,)) for s in self.http]
        for thread in starting:
            thread.start()
        for thread in starting:
            thread.join()
        for service in self.http:
            if service.process is None or service.process.poll() is not None:
                raise RuntimeError(f"{service.name} did not start:\n{service.log_tail()}")
        self.lobby_balancer = Balancer([s.port for s in self.lobbies])
        self.feed_balancer = Balancer([s.port for s in self.feeds])
        self.lobby = self.lobby_balancer.url
        self.feed = self.feed_balancer.url
        self.history = self.history_service.url
        self.bot_env = {
            **os.environ, **TEST_BOTS_ENV, **LOAD_TOOL_LIMITS, **env, "LOG_LEVEL": "WARNING",
            "RQ_REDIS_URL": self.redis_url, "LOBBY_URL": self.lobby,
        }  # fmt: skip
        self.others.append(ConsumerProcess("drill-consumer", self.redis_url, TEST_CONSUMER_ENV))
        dispatcher_env = {**self.bot_env, "BOTS_DISPATCHER_NAME": "drill-dispatcher"}
        self.others.append(BotProcess("dispatcher", "drill-dispatcher", dispatcher_env))
        self.generation = itertools.count(1)
        self.every_worker: list[BotProcess] = []  # the replaced ones too: their logs count
        self.workers = [self._worker(n) for n in range(workers)]

    def _worker(self, slot: int) -> BotProcess:
        name = f"worker-{slot}-{next(self.generation)}"
        worker = BotProcess("worker", name, {**self.bot_env, "BOTS_WORKER_NAME": name})
        self.every_worker.append(worker)
        return worker

    # -- restarts ---------------------------------------------------------------------------
    def restart_http(self, service: Service, balancer: Balancer) -> float:
        """Out of the balancer, SIGTERM, gone; started again, ready, back in. How long it
        took to stop (the drain pause, then SIGTERM until it exited)."""
        began = time.monotonic()
        balancer.drain(service.port)
        time.sleep(DRAIN_S)
        assert service.process is not None
        stop_process(service.process, GRACE_S)  # SIGTERM; SIGKILL only past the grace period
        if service.process.returncode == -signal.SIGKILL:
            self.forced.append(service.name)
        service.process = None
        stopped = time.monotonic() - began
        service.start(START_S)  # returns once /readyz answers
        balancer.rejoin(service.port)
        return stopped

    def restart_worker(self, slot: int) -> float:
        began = time.monotonic()
        old = self.workers[slot]
        old.process.terminate()  # rq's warm shutdown: the job in hand finishes
        try:
            old.process.wait(GRACE_S)
        except subprocess.TimeoutExpired:
            self.forced.append(old.name)
        stopped = time.monotonic() - began
        old.stop()  # what is left of its group (rq's scheduler)
        self.workers[slot] = self._worker(slot)
        return stopped

    def processes(self) -> Iterator[tuple[str, Any]]:
        """What the drill restarts, one after the other, for ever: a lobby, a feed, a worker,
        the other lobby, the other feed, the other worker..."""
        kinds: list[tuple[str, Any]] = []
        for n, (lobby, feed) in enumerate(zip(self.lobbies, self.feeds, strict=True)):
            kinds.append((lobby.name, lambda s=lobby: self.restart_http(s, self.lobby_balancer)))
            kinds.append((feed.name, lambda s=feed: self.restart_http(s, self.feed_balancer)))
            kinds.append((f"worker-{n}", lambda n=n: self.restart_worker(n)))
        return itertools.cycle(kinds)

    def failed_jobs(self) -> int:
        """Bot jobs that raised in any worker (the watchdog redoes them), from their logs."""
        return sum(w.log_text().count("Traceback") for w in self.every_worker)

    def stop(self) -> None:
        for process in [*self.workers, *self.others]:
            process.stop()
        for service in self.http:
            service.stop()
        self.redis.stop()


# -- the clients --------------------------------------------------------------------------
@dataclass
class DrillLoad(Load):
    refused_calls: list[str] = field(default_factory=list)  # connection errors, 5xx
    told_retries: int = 0  # 503 with Retry-After
    streams: list[StreamLog] = field(default_factory=list)


@dataclass
class StreamLog:
    match: str
    versions: list[int] = field(default_factory=list)
    told_to_reconnect: int = 0
    cut: list[str] = field(default_factory=list)  # ended without being told, or failed
    finished: bool = False


class DrillApi(Api):
    """chaos' API, on a new connection per request, counting every answer that is not one."""

    load: DrillLoad

    def call(self, method: str, url: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Connection": "close"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        deadline = time.monotonic() + CALL_DEADLINE_S
        while True:
            try:
                reply = self.session.request(method, url, json=body, headers=headers, timeout=30)
            except requests.RequestException as exc:
                self._refused(f"{method} {url}: {exc!r}")
            else:
                if reply.status_code == 503 and "Retry-After" in reply.headers:
                    with self.load.lock:
                        self.load.told_retries += 1
                    time.sleep(float(reply.headers["Retry-After"]))
                    continue
                if reply.status_code < 500:
                    return reply.status_code, reply.json()
                self._refused(f"{method} {url}: {reply.status_code} {reply.text[:200]}")
            if time.monotonic() > deadline:
                raise Gone(f"{method} {url}: no answer in {CALL_DEADLINE_S}s")
            time.sleep(0.1)

    def _refused(self, what: str) -> None:
        with self.load.lock:
            self.load.refused_calls.append(what)
            self.load.retried += 1


def follow(feed_url: str, match_id: str, token: str, log: StreamLog, stop: threading.Event) -> None:
    """Read the match's stream to its end, resuming from the last id when told to."""
    last = 0
    while not log.finished and not stop.is_set():
        try:
            stream = Stream(f"{feed_url}/v1/matches/{match_id}/stream", token, last, timeout=60)
            if stream.status != 200:
                log.cut.append(f"status {stream.status}")
                time.sleep(0.2)
                continue
            told = False
            for message in stream.messages():
                if message.event == "entry":
                    log.versions.append(message.entry["version"])
                    last = message.entry["version"]
                elif message.event == "reconnect":
                    told = True
                elif message.event == "finished":
                    log.finished = True
            stream.close()
            if told:
                log.told_to_reconnect += 1
            elif not log.finished:
                log.cut.append(f"ended after {last} without a reconnect")
        except requests.RequestException as exc:
            log.cut.append(repr(exc))
            time.sleep(0.2)


def client(api: DrillApi, platform: Platform, load: DrillLoad, seed: int) -> None:
    """Play matches with both seats, each followed on a stream, until asked to stop."""
    rng = random.Random(seed)
    try:
        seated = [api.player(f"R{seed}-{seat}") for seat in range(2)]
        while not load.stopping.is_set():
            match = api.lobby("POST", "/v1/matches", seated[0]["token"], MATCH)
            log = StreamLog(match["id"])
            reader = threading.Thread(
                target=follow,
                args=(platform.feed, match["id"], seated[0]["token"], log, threading.Event()),
                daemon=True,
            )
            reader.start()
            for seat, player in enumerate(seated):
                join(api, match["id"], player, seat)
            with load.lock:
                load.client_matches.append(match["id"])
                load.streams.append(log)
            play_to_the_end(api, load, match["id"], seated, rng)
            reader.join(60)
    except Exception as exc:
        with load.lock:
            load.errors.append(f"client {seed}: {exc!r}")


# -- the drill ----------------------------------------------------------------------------
@dataclass
class Report:
    restarts: list[tuple[str, float, float]]  # process, seconds to stop, to be back
    moves: Any  # chaos' report of the moves and matches
    refused: list[str]
    told_retries: int
    streams: int
    told_to_reconnect: int
    cut: list[str]
    missed: int
    repeated: int
    unfinished_streams: int
    failed_jobs: int
    forced: list[str]  # processes SIGKILLed past the grace period

    def ok(self) -> bool:
        return (
            self.moves.ok()
            and not self.refused
            and not self.cut
            and not self.forced
            and self.missed == self.repeated == self.unfinished_streams == 0
        )

    def lines(self) -> list[str]:
        m = self.moves
        kinds = sorted({name.rsplit("-", 1)[0] for name, _, _ in self.restarts})
        out = [
            f"{len(self.restarts)} restarts in {m.seconds:.0f} s under load; stopped by SIGKILL "
            f"past the {GRACE_S:.0f} s grace period: {len(self.forced)}",
            f"client moves acknowledged {m.acknowledged}, lost {m.lost}, duplicated "
            f"{m.duplicated}; refused (409, not applied) {m.refused}",
            f"requests refused (connection errors, 5xx) {len(self.refused)}; retries the "
            f"server asked for (503 Retry-After) {self.told_retries}",
            f"streams {self.streams}: told to reconnect {self.told_to_reconnect}, cut without "
            f"being told {len(self.cut)}, not seen to the end {self.unfinished_streams}; "
            f"entries missed {self.missed}, repeated {self.repeated}",
            f"bot moves {m.bot_moves}; bot jobs failed and redone {self.failed_jobs}; matches "
            f"{m.matches}, finished {m.finished}, verified {m.verified}; history caught up: "
            f"{m.history_caught_up}",
            "per kind: restarts; to stop (drain + SIGTERM until exit) and to be back (ready "
            "again, or a new worker started), median / max:",
        ]
        for kind in kinds:
            mine = [(s, b) for name, s, b in self.restarts if name.rsplit("-", 1)[0] == kind]
            stops, backs = sorted(s for s, _ in mine), sorted(b for _, b in mine)
            out.append(
                f"  {kind:7} {len(mine)}; stop {stops[len(stops) // 2]:.2f} / {stops[-1]:.2f} s,"
                f" back {backs[len(backs) // 2]:.2f} / {backs[-1]:.2f} s"
            )
        out += [f"refused: {what}" for what in self.refused[:20]]
        out += [f"cut: {what}" for what in self.cut[:20]]
        out += [f"error: {error}" for error in m.errors]
        return out


def streams_against_logs(platform: Platform, load: DrillLoad) -> tuple[int, int, int]:
    """(missed, repeated, unfinished) over every stream, against its match's log."""
    from shared.eventstore import MatchLog
    from shared.redisconn import connect

    log = MatchLog(connect(platform.redis_url, decode_responses=True))
    missed = repeated = unfinished = 0
    for stream in load.streams:
        last = log.entries(stream.match)[-1]["version"]
        seen = stream.versions
        repeated += len(seen) - len(set(seen))
        missed += len(set(range(1, last + 1)) - set(seen))
        unfinished += not stream.finished
    return missed, repeated, unfinished


def run(restarts: int = 100, clients: int = 4, bots_running: int = 2, pause_s: float = 0.5):
    folder = Path(tempfile.mkdtemp(prefix="tapete-rolling-"))
    platform = Platform(folder)
    load = DrillLoad()
    done: list[tuple[str, float]] = []
    try:
        api = DrillApi(platform, load)
        threads = [
            threading.Thread(
                target=client, args=(DrillApi(platform, load), platform, load, seed), daemon=True
            )
            for seed in range(clients)
        ]
        threads.append(threading.Thread(target=bots, args=(api, load, bots_running), daemon=True))
        for thread in threads:
            thread.start()
        started = time.monotonic()
        for _, (name, restart) in zip(range(restarts), platform.processes(), strict=False):
            load.stopping.wait(pause_s)
            began = time.monotonic()
            stopped = restart()
            done.append((name, stopped, time.monotonic() - began))
        load.stopping.set()
        for thread in threads:
            thread.join(CALL_DEADLINE_S * 2)
        moves = check(platform, api, load, [], time.monotonic() - started)  # type: ignore[arg-type]
        missed, repeated, unfinished = streams_against_logs(platform, load)
        return Report(
            done, moves, list(load.refused_calls), load.told_retries, len(load.streams),
            sum(s.told_to_reconnect for s in load.streams),
            [f"{s.match}: {c}" for s in load.streams for c in s.cut], missed, repeated,
            unfinished, platform.failed_jobs(), list(platform.forced),
        )  # fmt: skip
    finally:
        load.stopping.set()
        platform.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=100, help="graceful restarts in all")
    parser.add_argument("--clients", type=int, default=4, help="client threads, each streaming")
    parser.add_argument("--bots", type=int, default=2, help="bot matches kept running")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds of load between restarts")
    args = parser.parse_args()
    report = run(args.restarts, args.clients, args.bots, args.pause)
    print("\n".join(report.lines()))
    return 0 if report.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
