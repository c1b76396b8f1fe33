"""The gateway of `make run` (services/gateway.py): its route table is the Ingress's, so
the web client meets the same API on a laptop as in the cluster; it serves the built app,
proxies each path to its service and streams the SSE feed through as it is written."""

from __future__ import annotations

import io
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
import yaml

from services.gateway import ROUTES, Gateway, backend_for
from services.settings import upstreams_from_env
from tests.service_fixtures import ROOT

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
    assert body == [b"<title>Tapete</title>"]  # never a file outside the app
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
