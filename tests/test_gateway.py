"""The gateway of `make run` (services/gateway.py): its route table is the Ingress's, so
the web client meets the same API on a laptop as in the cluster; it serves the built app,
proxies each path to its service and streams the SSE feed through as it is written. As the
real process, over real sockets: it routes on the path as nginx normalizes it and forwards
the raw target, refuses what nginx refuses, holds clients to nginx's timeouts and framing,
sends the web app's security headers, and passes the client's address on so that, under
`make run`, the lobby's rate limits count each browser apart and none can pose as another."""

from __future__ import annotations

import http.client
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
import requests
import yaml

from services.gateway import ROUTES, SECURITY_HEADERS, Gateway, backend_for
from services.settings import upstreams_from_env
from shared.redis_server import free_port
from shared.supervisor import read_procfile
from tests.proxy_fixtures import GatewayProcess, SlowClients, still_open
from tests.service_fixtures import ROOT, Service, stop_process, wait_until

INGRESS_FILES = ("k8s/base/ingress.yaml", "k8s/base/feed.yaml", "k8s/base/web.yaml")


def ingress_paths() -> list[tuple[str, str]]:
    """Every (path, Service) of the Ingresses of k8s/base."""
    found = []
    for name in INGRESS_FILES:
        for doc in yaml.safe_load_all((ROOT / name).read_text()):
            if doc and doc["kind"] == "Ingress":
                for rule in doc["spec"]["rules"]:
                    for path in rule["http"]["paths"]:
                        found.append((path["path"], path["backend"]["service"]["name"]))
    return found


def test_the_route_table_is_the_ingress_s() -> None:
    api = {(path, backend) for path, backend in ingress_paths() if backend != "web"}
    assert set(ROUTES) == api
    web = [path for path, backend in ingress_paths() if backend == "web"]
    assert web == ["/"], "the Ingress sends everything else to the web app"


def test_the_routes_are_tried_longest_first_as_ingress_nginx_does() -> None:
    lengths = [len(path) for path, _ in ROUTES]
    assert lengths == sorted(lengths, reverse=True)


@pytest.mark.parametrize(
    ("path", "backend"),
    [
        ("/v1/matches/m1/stream", "feed"),
        ("/v1/matches/m1/stream-ticket", "lobby"),
        ("/v1/matches/m1/replay", "history"),
        ("/v1/matches/m1/log", "history"),
        ("/v1/matches/m1/actions", "lobby"),
        ("/v1/matches", "lobby"),
        ("/v1/players", "lobby"),
        ("/v1/players/me", "lobby"),
        ("/v1/players/me/token", "lobby"),
        ("/v1/players/p1/matches", "history"),
        ("/v1/leaderboards/brisca", "history"),
        ("/v1/games", "rules"),
        ("/v1/games/brisca", "rules"),
        ("/v1/games/brisca/apply", None),  # the rules service's work is not public
        ("/metrics", None),
        ("/", None),
    ],
)
def test_each_path_goes_where_the_ingress_sends_it(path: str, backend: str | None) -> None:
    assert backend_for(path) == backend
    ingress = sorted(ingress_paths(), key=lambda p: len(p[0]), reverse=True)
    expected = next((b for p, b in ingress if re.match("^" + p, path)), None)
    assert (expected if expected != "web" else None) == backend


def test_upstreams_come_from_the_procfile_s_ports_or_urls() -> None:
    found = upstreams_from_env({"LOBBY_PORT": "9000", "HISTORY_URL": "http://h:1"})
    assert found["lobby"] == "http://127.0.0.1:9000"
    assert found["history"] == "http://h:1"
    assert found["feed"] == "http://127.0.0.1:8003"


# -- the gateway in front of a real HTTP server ------------------------------------------------
class _Threaded(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def _upstream(environ: dict, start_response):  # type: ignore[no-untyped-def]
    """A stand-in service: echoes what it got; /stream writes three events 0.3 s apart."""
    if environ["PATH_INFO"].endswith("/stream"):
        start_response("200 OK", [("Content-Type", "text/event-stream")])

        def events() -> Iterator[bytes]:
            for n in range(3):
                yield f"id: {n}\nevent: entry\ndata: {{}}\n\n".encode()
                time.sleep(0.3)

        return events()
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    echo = f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}?{environ['QUERY_STRING']} "
    echo += f"auth={environ.get('HTTP_AUTHORIZATION')} body={body.decode()}"
    start_response("201 Created", [("Content-Type", "text/plain"), ("X-Upstream", "yes")])
    return [echo.encode()]


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    server = make_server("127.0.0.1", 0, _upstream, _Threaded, _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def call(app: Gateway, method: str, path: str, body: bytes = b"", **headers: str):  # type: ignore[no-untyped-def]
    path, _, query = path.partition("?")
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/json" if body else "",
        "REMOTE_ADDR": "10.0.0.9",
        "wsgi.input": io.BytesIO(body),
        **{f"HTTP_{k.upper()}": v for k, v in headers.items()},
    }
    answer: dict = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        answer["status"], answer["headers"] = status, dict(headers)

    chunks = app(environ, start_response)
    return answer, chunks


def test_it_proxies_a_call_with_its_body_query_and_token(upstream: str, tmp_path: Path) -> None:
    app = Gateway(tmp_path, dict.fromkeys(("lobby", "rules", "history", "feed"), upstream))
    answer, chunks = call(
        app, "POST", "/v1/matches?x=1", b'{"game": "brisca"}', authorization="Bearer t"
    )
    assert answer["status"] == "201 Created" and answer["headers"]["X-Upstream"] == "yes"
    assert b"".join(chunks).decode() == 'POST /v1/matches?x=1 auth=Bearer t body={"game": "brisca"}'


def test_it_streams_each_event_as_the_service_writes_it(upstream: str, tmp_path: Path) -> None:
    app = Gateway(tmp_path, dict.fromkeys(("lobby", "rules", "history", "feed"), upstream))
    started = time.monotonic()
    answer, chunks = call(app, "GET", "/v1/matches/m1/stream")
    assert answer["headers"]["Content-Type"] == "text/event-stream"
    first = next(iter(chunks))
    assert first.startswith(b"id: 0") and time.monotonic() - started < 0.25  # not held back
    assert b"".join(chunks).count(b"event: entry") == 2  # the other two, later


def test_it_serves_the_app_and_its_screens(tmp_path: Path) -> None:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<title>Tapete</title>")
    (tmp_path / "assets" / "app-1.js").write_text("js")
    app = Gateway(tmp_path, upstreams_from_env({}))
    answer, body = call(app, "GET", "/assets/app-1.js")
    assert body == [b"js"] and "immutable" in answer["headers"]["Cache-Control"]
    answer, body = call(app, "GET", "/any/screen")
    assert body == [b"<title>Tapete</title>"] and answer["headers"]["Cache-Control"] == "no-cache"
    answer, body = call(app, "GET", "/../../etc/passwd")
    assert answer["status"].startswith("400")  # never a file outside the app: refused
    answer, body = call(app, "GET", "/assets/../../../etc/passwd")
    assert answer["status"].startswith("400")
    answer, _ = call(app, "GET", "/v1/nothing")
    assert answer["status"].startswith("404")


def test_an_unreachable_service_is_a_502_not_a_crash(tmp_path: Path) -> None:
    app = Gateway(
        tmp_path, dict.fromkeys(("lobby", "rules", "history", "feed"), "http://127.0.0.1:1")
    )
    answer, body = call(app, "GET", "/v1/games")
    assert answer["status"].startswith("502") and b"unavailable" in b"".join(body)


@pytest.fixture
def idle_closing_upstream() -> Iterator[tuple[str, list[bytes]]]:
    """An HTTP/1.1 service that keeps each connection open after its answer, then drops the
    next request sent on it unanswered: a service closing an idle connection (gunicorn's
    keep-alive) just as a request arrives on it. Yields its URL and the requests answered."""
    listener = socket.create_server(("127.0.0.1", 0))
    answered: list[bytes] = []

    def serve(connection: socket.socket) -> None:
        with connection:
            request = b""
            while b"\r\n\r\n" not in request:
                request += connection.recv(65536)
            head, _, body = request.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: (\d+)", head)[1])  # type: ignore[index]
            while len(body) < length:
                body += connection.recv(65536)
            answered.append(body)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            connection.recv(65536)  # the next request on this connection: closed unanswered

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}", answered
    listener.close()


def test_a_move_is_never_sent_on_a_connection_the_service_may_have_closed(
    idle_closing_upstream: tuple[str, list[bytes]], tmp_path: Path
) -> None:
    """Each request gets a connection of its own: a POST is not retried (it may have been
    applied), so a pooled connection closed under it would lose the move with a 502."""
    url, answered = idle_closing_upstream
    app = Gateway(tmp_path, dict.fromkeys(("lobby", "rules", "history", "feed"), url))
    for n in range(3):
        body = b'{"action": %d}' % n
        answer, chunks = call(app, "POST", "/v1/matches/m1/actions", body)
        assert answer["status"] == "200 OK" and b"".join(chunks) == b"ok"
    assert answered == [b'{"action": 0}', b'{"action": 1}', b'{"action": 2}']


# -- the real gateway process, over real sockets -----------------------------------------------
class _Recorder(BaseHTTPRequestHandler):
    """A stand-in service that answers 200 with what it got: the request target exactly as
    sent, its headers and its body."""

    protocol_version = "HTTP/1.1"

    def do_any(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        got = {
            "method": self.command,
            "target": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": self.rfile.read(length).decode("latin-1"),
        }
        body = json.dumps(got).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = do_any

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def recorder() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="module")
def built_app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dist")
    (folder / "assets").mkdir()
    (folder / "index.html").write_text("<title>Tapete</title>")
    (folder / "assets" / "app-1.js").write_text("js")
    return folder


@pytest.fixture(scope="module")
def gateway(recorder: str, rules_service: Service, built_app: Path) -> Iterator[GatewayProcess]:
    """The gateway process: the real rules service behind it, the recorder for the rest."""
    upstreams = {"lobby": recorder, "history": recorder, "feed": recorder}
    running = GatewayProcess({**upstreams, "rules": rules_service.url}, static=built_app)
    yield running
    running.stop()


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def send(
    port: int, method: str, target: str, headers: Sequence[tuple[str, str]] = (),
    body: bytes | Iterable[bytes] | None = None, source: str = "127.0.0.1",
) -> Answer:  # fmt: skip
    """One request with its target and headers exactly as given (http.client changes
    neither), from the loopback address ``source``; a chunked body if ``body`` is an
    iterable of pieces."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=15, source_address=(source, 0)
    )
    try:
        connection.putrequest(method, target, skip_accept_encoding=True)
        chunked = body is not None and not isinstance(body, bytes)
        for name, value in headers:
            connection.putheader(name, value)
        if isinstance(body, bytes):
            connection.putheader("Content-Length", str(len(body)))
        if chunked:
            connection.putheader("Transfer-Encoding", "chunked")
        connection.endheaders(body, encode_chunked=chunked)  # type: ignore[arg-type]
        reply = connection.getresponse()
        return Answer(reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read())
    finally:
        connection.close()


def test_an_encoded_slash_does_not_reach_the_rules_service_s_work(
    gateway: GatewayProcess, rules_service: Service
) -> None:
    """`brisca%252Fapply` is the game `brisca%2Fapply` to nginx and to the rules service: a
    game that does not exist. Forwarding the path decoded once made it `brisca/apply`: the
    rules service's own `apply`, not public, which dealt a move (200)."""
    deal = requests.post(
        f"{rules_service.url}/v1/games/brisca/setup",
        json={"variant": "base", "players": 2, "seed": "demo"}, timeout=10,
    ).json()  # fmt: skip
    move = {"state": deal["state"], "seat": 1, "action": {"type": "play", "card": "6C"}}
    body = json.dumps(move).encode()
    json_type = [("Content-Type", "application/json")]
    answer = send(gateway.port, "POST", "/v1/games/brisca%252Fapply", json_type, body)
    # the rules service: the catalog's `GET /v1/games/{id}`, of a game "brisca%2Fapply"
    assert answer.status == 405, answer.body
    assert "state" not in answer.json()
    for target in ("/v1/games/brisca%2Fapply", "/v1/games/brisca/apply", "/v1/games//brisca/apply"):
        answer = send(gateway.port, "POST", target, json_type, body)
        assert (answer.status, answer.json()["error"]["code"]) == (404, "not_found"), target
    assert send(gateway.port, "GET", "/v1/games/brisca").json()["id"] == "brisca"  # public


@pytest.mark.parametrize(
    ("target", "status"),
    [
        ("/v1/matches/../../metrics", 200),  # nginx's /metrics: the web app's, not a service's
        ("/v1/matches/m1/%2e%2e/%2e%2e/%2e%2e/healthz", 200),  # the gateway's own probe
        ("/v1/matches/..%2F..%2Fmetrics", 200),
        ("/..", 400),  # above the root
        ("/v1/../../metrics", 400),
        ("/index.html%00.js", 400),  # a NUL byte: was a 500
        ("/assets/%00", 400),
        ("/v1/matches/%zz", 400),  # not an escape
        ("/v1/%2e%2e/v1/nothing", 404),  # an API path that routes nowhere
    ],
)
def test_paths_are_normalized_as_nginx_does_before_routing(
    gateway: GatewayProcess, target: str, status: int
) -> None:
    answer = send(gateway.port, "GET", target)
    assert answer.status == status, answer.body
    assert b"tapete_http_requests_total" not in answer.body and b'"target"' not in answer.body


def test_the_target_is_forwarded_exactly_as_the_client_sent_it(gateway: GatewayProcess) -> None:
    for target in ("/v1/matches/a%2Fb?after=1&x=%20", "/v1/matches/m1/../m1/events?wait=0"):
        answer = send(gateway.port, "GET", target)
        assert answer.status == 200 and answer.json()["target"] == target


def test_a_chunked_body_is_forwarded_whole(gateway: GatewayProcess) -> None:
    pieces = [b'{"action": ', b'{"type": "play"}', b', "expected_version": 3}']
    answer = send(gateway.port, "POST", "/v1/matches/m1/actions", body=iter(pieces))
    got = answer.json()
    assert answer.status == 200 and got["body"] == b"".join(pieces).decode()
    assert got["headers"]["content-length"] == str(len(b"".join(pieces)))
    assert "transfer-encoding" not in got["headers"]


def test_a_body_over_the_limit_is_refused(gateway: GatewayProcess) -> None:
    big = b"x" * (4 * 1024 * 1024 + 1)
    assert send(gateway.port, "POST", "/v1/players", body=big).status == 413
    assert send(gateway.port, "POST", "/v1/players", body=iter([big[:65536]] * 65)).status == 413


@pytest.mark.parametrize(
    "headers",
    [
        [("Content-Length", "3"), ("Content-Length", "4")],  # which one is the body?
        [("Content-Length", "3"), ("Content-Length", "3")],  # nginx refuses any repeat
        [("Content-Length", "3"), ("Transfer-Encoding", "chunked")],
        [("Transfer-Encoding", "gzip, chunked")],
        [("Content-Length", "-1")],
        [("Host", "a"), ("Host", "b")],
    ],
)
def test_a_body_framed_two_ways_is_refused(
    gateway: GatewayProcess, headers: list[tuple[str, str]]
) -> None:
    with socket.create_connection(("127.0.0.1", gateway.port), timeout=10) as sock:
        head = "".join(f"{name}: {value}\r\n" for name, value in headers)
        sock.sendall(f"POST /v1/matches HTTP/1.1\r\nHost: t\r\n{head}\r\nabcd".encode())
        reply = sock.recv(65536)
    assert reply.startswith(b"HTTP/1.1 400"), reply


SECURITY = (
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
    "referrer-policy",
)


def test_every_answer_carries_the_web_app_s_security_headers(gateway: GatewayProcess) -> None:
    for target in ("/", "/some/screen", "/assets/app-1.js", "/v1/nothing", "/v1/matches", "/.."):
        answer = send(gateway.port, "GET", target)
        assert dict(SECURITY_HEADERS) == {k: answer.headers[k.lower()] for k, _ in SECURITY_HEADERS}
    policy = dict(SECURITY_HEADERS)["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self';" in policy
    assert "unsafe" not in policy


def test_clients_slower_than_nginx_allows_are_closed(gateway: GatewayProcess) -> None:
    """Headers dripping a byte a second, a body that stops, a connection that says nothing:
    all closed once nginx's 10 s are up, while every other client is answered. (Before:
    4,000 dripping connections were all still open after 20 s.)"""
    dripping = SlowClients(gateway.port, 300)
    silent = socket.create_connection(("127.0.0.1", gateway.port), timeout=30)
    stalled = socket.create_connection(("127.0.0.1", gateway.port), timeout=30)
    stalled.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nabc")
    started = time.monotonic()
    try:
        time.sleep(2)
        for _ in range(3):  # the others meanwhile
            assert send(gateway.port, "GET", "/healthz").status == 200
            assert send(gateway.port, "GET", "/v1/matches").status == 200
        assert dripping.still_open() == 300 and still_open(silent)
        wait_until(lambda: dripping.still_open() == 0, timeout=15, what="the dripping closed")
        wait_until(lambda: not still_open(silent), timeout=5, what="the silent one closed")
        stalled.settimeout(15)
        reply = stalled.recv(65536)  # a 400, then the end; or the end
        assert reply == b"" or reply.startswith(b"HTTP/1.1 400"), reply
        assert 9 < time.monotonic() - started < 20
    finally:
        dripping.close()
        silent.close()
        stalled.close()


# -- the client's address, under make run ------------------------------------------------------
def procfile_command(name: str) -> str:
    return dict(read_procfile((ROOT / "Procfile").read_text()))[name]


@pytest.fixture(scope="module")
def make_run_front(redis_store: Any, rules_service: Service) -> Iterator[str]:
    """The lobby and the gateway started by the Procfile's own lines, as `make run` starts
    them, with registrations limited to 3 a minute per client address."""
    lobby_port, gateway_port = free_port(), free_port()
    env = {
        **os.environ,
        **redis_store.env,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "RULES_URL": rules_service.url,
        "LOBBY_PORT": str(lobby_port),
        "GATEWAY_PORT": str(gateway_port),
        "GUNICORN_WORKERS": "1",
        "LIMIT_REGISTER": "3/minute",
    }
    processes = [
        subprocess.Popen(
            ["sh", "-c", procfile_command(name)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        for name in ("lobby", "gateway")
    ]
    try:
        url = f"http://127.0.0.1:{gateway_port}"
        wait_until(lambda: ready(f"http://127.0.0.1:{lobby_port}"), timeout=30, what="lobby")
        wait_until(lambda: alive(url), timeout=30, what="gateway")  # it may start after the lobby
        yield url
    finally:
        for process in processes:
            stop_process(process)


def ready(url: str) -> bool:
    return answers(f"{url}/readyz")


def alive(url: str) -> bool:
    """The gateway answers (its /readyz waits for a built web app, which this test needs not)."""
    return answers(f"{url}/healthz")


def answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=1).status_code == 200
    except requests.RequestException:
        return False


def test_under_make_run_each_browser_has_its_own_rate_limit_and_cannot_pose_as_another(
    make_run_front: str,
) -> None:
    """Two browsers on two addresses, through make run's gateway: the lobby counts each
    apart (before, it saw the gateway's 127.0.0.1 for both: one bucket for everybody), and a
    browser's own X-Forwarded-For does not move it into another's bucket."""
    port = int(make_run_front.rsplit(":", 1)[1])
    name = json.dumps({"name": "Ana"}).encode()
    json_type = [("Content-Type", "application/json")]

    def register(source: str, *headers: tuple[str, str]) -> int:
        return send(port, "POST", "/v1/players", [*json_type, *headers], name, source).status

    assert [register("127.0.0.2") for _ in range(3)] == [201, 201, 201]
    assert register("127.0.0.2") == 429
    assert register("127.0.0.2", ("X-Forwarded-For", "127.0.0.9")) == 429  # not a new client
    assert register("127.0.0.3") == 201  # another browser: its own count
    assert register("127.0.0.3", ("X-Forwarded-For", "127.0.0.2")) == 201  # nor posing as one
