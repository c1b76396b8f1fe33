"""The proxy in front of the public services (deploy/nginx/tapete.conf.template): Debian's
nginx, run with the project's configuration in front of real gunicorn services, routes the
public paths as the Kubernetes Ingress does and keeps slow clients away from the services.

nginx is installed by this set-up where missing (`apt-get install -y nginx`); without apt
the tests are skipped with the reason, except where TAPETE_REQUIRE_NGINX or CI is set (CI):
there they fail.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from string import Template

import pytest
import requests
import yaml

from shared.redis_server import free_port
from tests.service_fixtures import ROOT, Http, Service, session, stop_process

TEMPLATE = ROOT / "deploy" / "nginx" / "tapete.conf.template"
INGRESS = ROOT / "k8s" / "base" / "ingress.yaml"
FEED_INGRESS = ROOT / "k8s" / "base" / "feed.yaml"
SLOW_CLIENTS = 500
ANSWER_WITHIN_S = 5.0  # each request while the slow clients drip


def nginx_binary() -> str:
    """nginx's path, installed with apt if missing; skip (or fail on CI) if it cannot be."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found:
        return found
    reason = "nginx is not installed and apt-get could not install it"
    if shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "RUNLEVEL": "1"}
        try:
            subprocess.run(["apt-get", "install", "-y", "-q", "nginx"], env=env, timeout=240,
                           check=True, capture_output=True)  # fmt: skip
        except (subprocess.SubprocessError, OSError) as exc:
            reason += f": {exc}"
        found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
        if found:
            return found
    else:
        reason += " (needs apt-get and root)"
    if os.environ.get("TAPETE_REQUIRE_NGINX") or os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def render(upstreams: dict[str, str]) -> str:
    """The template with its ${NAME}s filled in; nginx's own $variables stay as they are."""
    text = Template(TEMPLATE.read_text(encoding="utf-8")).safe_substitute(upstreams)
    missing = re.findall(r"\$\{([A-Z_]+)\}", text)
    assert not missing, f"template variables left unset: {missing}"
    return text


class Proxy:
    """nginx in the foreground on a free port, with a minimal main file around our site file."""

    def __init__(self, binary: str, upstreams: dict[str, str]) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tapete-nginx-"))
        self.dir.chmod(0o777)  # the workers run as nobody when the master is root
        (self.dir / "tapete.conf").write_text(render({**upstreams, "PROXY_PORT": str(self.port)}))
        temp = " ".join(
            f"{kind}_temp_path {self.dir / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.dir / "nginx.conf").write_text(
            f"worker_processes 1;\npid {self.dir / 'nginx.pid'};\n"
            f"error_log {self.dir / 'error.log'} warn;\n"
            "events { worker_connections 4096; }\n"
            f"http {{ access_log off; {temp} include {self.dir / 'tapete.conf'}; }}\n"
        )
        command = [binary, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")]
        command += ["-e", str(self.dir / "error.log"), "-g", "daemon off;"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"nginx did not start: {self.log()}") from None
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        path = self.dir / "error.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else "(no log)"

    def stop(self) -> None:
        stop_process(self.process, timeout=5)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def proxy(
    lobby_service: Service, feed_service: Service, history_service: Service, rules_service: Service
) -> Iterator[Proxy]:
    address = lambda service: f"127.0.0.1:{service.port}"  # noqa: E731
    upstreams = {
        "LOBBY_UPSTREAM": address(lobby_service),
        "FEED_UPSTREAM": address(feed_service),
        "HISTORY_UPSTREAM": address(history_service),
        "RULES_UPSTREAM": address(rules_service),
        "WEB_UPSTREAM": f"127.0.0.1:{free_port()}",  # no web app here: 502
        "RESOLVER": "127.0.0.1",
    }
    running = Proxy(nginx_binary(), upstreams)
    yield running
    running.stop()


def ingress_paths() -> set[str]:
    """Every path regex of the Ingress objects (the API's and the feed's)."""
    paths = set()
    for doc in [*yaml.safe_load_all(INGRESS.read_text()), *yaml.safe_load_all(FEED_INGRESS.read_text())]:  # fmt: skip
        if doc and doc.get("kind") == "Ingress":
            for rule in doc["spec"]["rules"]:
                paths |= {p["path"] for p in rule["http"]["paths"]}
    return paths


def test_the_proxy_routes_the_same_paths_as_the_ingress():
    locations = set(re.findall(r"location ~ \^(\S+) \{", TEMPLATE.read_text()))
    assert locations == ingress_paths()


def test_each_public_path_reaches_its_service_through_the_proxy(proxy: Proxy):
    http = Http(session(), proxy.url)
    ana, bea = http.player("Ana"), http.player("Bea")
    assert "brisca" in {g["id"] for g in http.get("/v1/games").body["games"]}  # rules
    match = http.match(ana, players=2)
    http.join(ana, match["id"])
    started = http.join(bea, match["id"])
    board = http.get("/v1/leaderboards/brisca")
    assert board.status == 200, board.body  # history's (the lobby has no such path)
    stream = session().get(
        f"{proxy.url}/v1/matches/{match['id']}/stream?after={started['version']}",
        headers={"Authorization": f"Bearer {ana['token']}"},
        stream=True,
        timeout=10,
    )
    assert stream.status_code == 200
    assert stream.headers["Content-Type"].startswith("text/event-stream")  # the feed
    stream.close()
    assert requests.get(f"{proxy.url}/", timeout=5).status_code == 502  # the web app's path


def test_a_body_over_the_limit_is_refused_by_the_proxy(proxy: Proxy):
    reply = session().post(f"{proxy.url}/v1/players", data=b"x" * (4 * 1024 * 1024 + 1), timeout=10)
    assert reply.status_code == 413


def drip(sockets: list[socket.socket], stop: threading.Event) -> None:
    """One more header byte a second on every slow connection, never the end of the headers."""
    while not stop.wait(1.0):
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.send(b"x")


def test_500_slow_header_clients_leave_moves_and_health_answering(
    proxy: Proxy, lobby_service: Service, history_service: Service
):
    slow = []
    for _ in range(SLOW_CLIENTS):
        sock = socket.create_connection(("127.0.0.1", proxy.port), timeout=5)
        sock.send(b"POST /v1/matches HTTP/1.1\r\nHost: tapete\r\nX-Slow: ")
        slow.append(sock)
    stop = threading.Event()
    dripper = threading.Thread(target=drip, args=(slow, stop), daemon=True)
    dripper.start()
    try:
        time.sleep(1.5)  # every slow client has sent, and dripped, part of its headers
        client = session()
        http = Http(client, proxy.url)
        match, seated = http.seated_match()
        version, to_act = match["version"], match["to_act"]
        for _ in range(6):  # moves through the proxy, each answered promptly
            mover = seated[to_act[0]]
            legal = http.view(mover, match["id"])["view"]["legal_actions"][0]
            started = time.monotonic()
            reply = http.act(mover, match["id"], legal, version)
            assert reply.status == 200 and time.monotonic() - started < ANSWER_WITHIN_S
            version, to_act = reply.body["version"], reply.body["view"]["to_act"]
        for service in (lobby_service, history_service):
            started = time.monotonic()
            health = client.get(f"{service.url}/healthz", timeout=ANSWER_WITHIN_S)
            assert health.status_code == 200 and time.monotonic() - started < ANSWER_WITHIN_S
        open_now = sum(1 for sock in slow if _still_open(sock))
        assert open_now == SLOW_CLIENTS  # they were all still dripping meanwhile
    finally:
        stop.set()
        dripper.join()
        for sock in slow:
            sock.close()


def _still_open(sock: socket.socket) -> bool:
    """True while the peer has not closed the connection (nothing to read, no EOF)."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)
