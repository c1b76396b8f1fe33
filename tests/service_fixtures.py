"""Pytest plugin: the rules service and the lobby as REAL gunicorn processes on free ports.

Session fixtures, started once: `rules_service`, and `lobby_service` on the session's Redis
(`redis_store`) and that rules service. `Service.restart()` stops and starts one again on the
same port, as a deployment would. Each process logs to a file shown when it fails to start.

`Http` drives either such a live server (through `requests`) or Flask's test client with
the same steps (players, matches, moves), so every lobby test reads the same way.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from services.settings import LOAD_TOOL_LIMITS
from shared.redis_server import free_port
from tests.redis_fixtures import RedisStore

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "services" / "gunicorn_conf.py"
FEED_CONF = ROOT / "services" / "gunicorn_feed_conf.py"
START_TIMEOUT_SECONDS = 30.0
STOP_TIMEOUT_SECONDS = 15.0
TEST_STATE_KEY = "tapete-test-state-key"


def stop_process(process: subprocess.Popen, timeout: float = STOP_TIMEOUT_SECONDS) -> None:
    """SIGTERM, so it can finish cleanly; SIGKILL if it has not exited within ``timeout``."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_until(condition: Any, timeout: float = 20.0, what: str = "the condition") -> None:
    """Poll ``condition`` every 50 ms until it is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a gunicorn master's workers), from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return found


class Service:
    """One gunicorn master with its workers, serving `app` on 127.0.0.1:`port`."""

    def __init__(
        self, name: str, app: str, env: dict[str, str], config: Path = GUNICORN_CONF
    ) -> None:
        self.name, self.app, self.config = name, app, config
        self.port = free_port()
        self.env = {
            **os.environ, "GUNICORN_WORKERS": "2", "GUNICORN_THREADS": "16", **LOAD_TOOL_LIMITS, **env
        }  # fmt: skip
        self.log_path = Path(tempfile.mkstemp(prefix=f"tapete-{name}-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = START_TIMEOUT_SECONDS) -> None:
        """Start and return once /readyz answers 200 (within ``timeout`` seconds)."""
        command = [sys.executable, "-m", "gunicorn", "--config", str(self.config)]
        command += ["--bind", f"127.0.0.1:{self.port}", self.app]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start:\n{self.log_tail()}")
            try:
                if requests.get(f"{self.url}/readyz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{self.name} not ready in time:\n{self.log_tail()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM: gunicorn finishes the requests in flight, then exits."""
        if self.process is None:
            return
        stop_process(self.process)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture(scope="session")
def rules_service() -> Iterator[Service]:
    service = Service("rules", "services.rules.wsgi:app", {"TAPETE_STATE_KEY": TEST_STATE_KEY})
    service.start()
    yield service
    service.stop()


@pytest.fixture(scope="session")
def lobby_service(redis_store: RedisStore, rules_service: Service) -> Iterator[Service]:
    env = {**redis_store.env, "RULES_URL": rules_service.url}
    service = Service("lobby", "services.lobby.wsgi:app", env)
    service.start()
    yield service
    service.stop()


def feed_process(redis_store: RedisStore, rules_service: Service, **env: str) -> Service:
    """A feed process (the lobby app on gevent) on the session's Redis; not started."""
    env = {**redis_store.env, "RULES_URL": rules_service.url, **env}
    return Service("feed", "services.lobby.wsgi:app", env, config=FEED_CONF)


@pytest.fixture(scope="session")
def feed_service(redis_store: RedisStore, rules_service: Service) -> Iterator[Service]:
    service = feed_process(redis_store, rules_service)
    service.start()
    yield service
    service.stop()


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


def session() -> requests.Session:
    """A client session that skips the environment's proxy lookups (about 1 ms a request)."""
    client = requests.Session()
    client.trust_env = False
    return client


class Http:
    """`get`/`post` returning (status, JSON body) through a Flask test client or requests."""

    def __init__(self, client: Any, base_url: str = "") -> None:
        self.client, self.base_url = client, base_url
        self.live = isinstance(client, requests.Session)

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> Reply:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers.update(kw.pop("headers", {}))
        if self.live:
            r = self.client.request(method, self.base_url + path, headers=headers, timeout=40, **kw)
            return Reply(r.status_code, r.json(), dict(r.headers))
        r = self.client.open(path, method=method, headers=headers, **kw)
        return Reply(r.status_code, r.get_json(), dict(r.headers))

    def get(self, path: str, token: str | None = None, **kw: Any) -> Reply:
        return self.call("GET", path, token, **kw)

    def post(self, path: str, token: str | None = None, **kw: Any) -> Reply:
        return self.call("POST", path, token, **kw)

    # -- the usual steps ----------------------------------------------------------------
    def player(self, name: str = "Ana") -> dict[str, Any]:
        reply = self.post("/v1/players", json={"name": name})
        assert reply.status == 201, reply.body
        return reply.body

    def match(self, player: dict[str, Any], **body: Any) -> dict[str, Any]:
        reply = self.post("/v1/matches", player["token"], json={"game": "brisca", **body})
        assert reply.status == 201, reply.body
        return reply.body

    def join(self, player: dict[str, Any], match_id: str, **body: Any) -> dict[str, Any]:
        reply = self.post(f"/v1/matches/{match_id}/join", player["token"], json=body)
        assert reply.status == 200, reply.body
        return reply.body

    def view(self, player: dict[str, Any], match_id: str) -> dict[str, Any]:
        reply = self.get(f"/v1/matches/{match_id}", player["token"])
        assert reply.status == 200, reply.body
        return reply.body

    def act(
        self, player: dict[str, Any], match_id: str, action: dict, version: int, **kw: Any
    ) -> Reply:
        body = {"action": action, "expected_version": version, **kw}
        return self.post(f"/v1/matches/{match_id}/actions", player["token"], json=body)

    def events(
        self, player: dict[str, Any], match_id: str, after: int = 0, wait: float = 0
    ) -> Reply:
        path = f"/v1/matches/{match_id}/events?after={after}&wait={wait}"
        return self.get(path, player["token"])

    def seated_match(self, game: str = "brisca", players: int = 2, **body: Any):
        """A started match and its seated players, seat i held by players[i]."""
        seated = [self.player(f"P{i}") for i in range(players)]
        match = self.match(seated[0], game=game, players=players, **body)
        for seat, player in enumerate(seated):
            match = self.join(player, match["id"], seat=seat)
        return match, seated

    def play_to_the_end(
        self, match: dict[str, Any], seated: list[dict[str, Any]], rng: random.Random
    ) -> tuple[dict[str, Any], int]:
        """Legal moves from the seats' own views until the match ends; (match, moves).

        Among the legal actions of the seats to act, a random one of the rarest type: the
        rare moves (a close, a call, a slap in a window) are where rules are special and
        where games end, so they get played, and a random Nervioso that uniform choice
        would stretch over thousands of false slaps ends in about a hundred moves. Each
        seat's legal actions come from its own view at the current version (its move's
        answer, or a read of the match).
        """
        match_id, moves = match["id"], 0
        legal: dict[int, tuple[int, list[dict[str, Any]]]] = {}  # seat -> (version, actions)
        version, to_act = match["version"], match["to_act"]
        while to_act:
            for seat in [s for s in to_act if legal.get(s, (None,))[0] != version]:
                fresh = self.view(seated[seat], match_id)
                version, to_act = fresh["version"], fresh["to_act"]
                legal[seat] = (version, fresh["view"]["legal_actions"])
            if any(legal[s][0] != version for s in to_act):
                continue  # the match moved on while we read it
            choices = [(s, action) for s in to_act for action in legal[s][1]]
            assert choices, f"seats {to_act} are to act but have no legal action"
            types = Counter(action["type"] for _, action in choices)
            fewest = min(types.values())
            seat, action = rng.choice([c for c in choices if types[c[1]["type"]] == fewest])
            reply = self.act(seated[seat], match_id, action, version)
            assert reply.status == 200, reply.body
            moves += 1
            version, to_act = reply.body["version"], reply.body["view"]["to_act"]
            legal[seat] = (version, reply.body["view"]["legal_actions"])
        return self.view(seated[0], match_id), moves


def error_of(reply: Reply, status: int, code: str | None = None) -> dict[str, Any]:
    """The error body, checked to have the one error shape, the status and the code."""
    assert reply.status == status, reply.body
    error = reply.body["error"]
    assert isinstance(error["message"], str) and error["message"]
    if code is not None:
        assert error["code"] == code, error
    return error
