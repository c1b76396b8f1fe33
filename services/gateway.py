"""The gateway of `make run`: the web client and the public API on one origin, as the Ingress.

A browser may only call its own origin, so the gateway serves the built web app
(`web/dist`) at `/` and sends each public API path to the service the Kubernetes Ingress
sends it to (`k8s/base/ingress.yaml`, `k8s/base/feed.yaml`; a test compares `ROUTES` with
them). It decides as nginx does: on the path percent-decoded once, with slashes merged and
dot segments resolved, and it forwards the raw request target unchanged, so a service
sees what it would see behind the Ingress. A path nginx would refuse (a bad escape, a NUL,
a climb above `/`) is a 400; an API path that routes nowhere a 404. Clients get nginx's
limits (`deploy/nginx/tapete.conf.template`): the request line and headers within 10 s, no
silence over 10 s in a body, at most 4 MiB of it, one framing only (a single
`Content-Length`, or `Transfer-Encoding: chunked`, which is read whole and forwarded with
its length), and every answer carries the web app's security headers.

It runs on gevent's WSGI server (`ClientHandler` adds those limits to its handler): a
proxied stream (the SSE feed, a long-poll) is a greenlet, and each chunk goes out as soon as
the service writes it. In Kubernetes the same process serves only the web app: the Ingress
routes the API paths before they could reach it.
"""

from __future__ import annotations

if __name__ == "__main__":  # the process itself, not a test importing ROUTES
    from gevent import monkey

    monkey.patch_all()  # before http.client imports ssl and sockets: gevent's advice

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import mimetypes  # noqa: E402
import re  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterable, Iterator, Mapping  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import quote, unquote, urlsplit  # noqa: E402

import gevent  # noqa: E402
from gevent.pywsgi import WSGIHandler  # noqa: E402

from services.logs import json_logging  # noqa: E402
from services.settings import Settings  # noqa: E402

log = logging.getLogger("tapete.gateway")

# The Ingress's paths and backends, in the order ingress-nginx tries them: longest first.
ROUTES: tuple[tuple[str, str], ...] = (
    (r"/v1/matches/[^/]+/(log|replay|verify|scores|export)$", "history"),
    (r"/v1/players/[^/]+/(matches|ratings/[^/]+)$", "history"),
    (r"/v1/tournaments/[^/]+/standings$", "history"),
    (r"/v1/players(/me(/token)?)?$", "lobby"),
    (r"/v1/matches/[^/]+/stream$", "feed"),
    (r"/v1/leaderboards(/|$)", "history"),
    (r"/v1/tournaments(/|$)", "lobby"),
    (r"/v1/games(/[^/]+)?$", "rules"),
    (r"/v1/duplicates(/|$)", "lobby"),
    (r"/v1/matches(/|$)", "lobby"),
    (r"/v1/quick(/|$)", "lobby"),
)
_COMPILED = tuple((re.compile(pattern), backend) for pattern, backend in ROUTES)
ROOT = Path(__file__).resolve().parent.parent
# Hop-by-hop headers belong to one connection and are never forwarded (RFC 9110, 7.6.1); the
# gateway frames each body itself.
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
    "host",
}
# What a browser is told about the web app (the player's token sits in its localStorage): run
# only this origin's scripts and styles, talk only to this origin, never inside a frame, no
# guessing of content types, no Referer (a stream's URL carries its one-use ticket). The
# same headers come from nginx (deploy/nginx/tapete.conf.template; a test compares them).
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    (
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'",
    ),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
)
# nginx's limits in front of the services (deploy/nginx/tapete.conf.template)
HEADER_TIMEOUT_S = 10.0  # client_header_timeout: the request line and headers, whole
BODY_TIMEOUT_S = 10.0  # client_body_timeout: the longest silence while a body arrives
SEND_TIMEOUT_S = 30.0  # send_timeout: the longest a client may leave an answer unread
MAX_BODY_BYTES = 4 * 1024 * 1024  # client_max_body_size 4m (the services refuse more too)
UNIQUE_HEADERS = ("content-length", "transfer-encoding", "host")  # twice: refused, as nginx
CONNECT_TIMEOUT_S = 5.0
READ_TIMEOUT_S = 3600.0  # a stream may stay open for an hour
CONNECT_TRIES = 3  # a request that never reached the service is sent again (0.1 s, 0.2 s)
IDEMPOTENT = {"GET", "HEAD", "OPTIONS"}  # sent again once if the service closed unanswered
BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")

StartResponse = Callable[..., object]


class BadPath(ValueError):
    """A path nginx refuses with 400."""


def normalize(raw_path: str) -> str:
    """The path as nginx matches its locations: percent-decoded once (bytes as latin-1),
    slashes merged, `.` and `..` segments resolved; ``BadPath`` for what nginx refuses."""
    if not raw_path.startswith("/"):
        raise BadPath("the path must start with /")
    if BAD_ESCAPE.search(raw_path):
        raise BadPath("the path has a % not followed by two hex digits")
    decoded = unquote(raw_path, encoding="latin-1")
    if "\x00" in decoded:
        raise BadPath("the path holds a NUL byte")
    parts = decoded.split("/")[1:]
    kept: list[str] = []
    for n, part in enumerate(parts):
        last = n == len(parts) - 1
        if part == "..":
            if not kept:
                raise BadPath("the path climbs above /")
            kept.pop()
        elif part not in ("", "."):
            kept.append(part)
            continue
        if last:  # "/a/", "/a/.", "/a/b/..": the path ends with a slash
            kept.append("")
    return "/" + "/".join(kept)


def backend_for(path: str) -> str | None:
    """The service a (normalized) API path goes to, as the Ingress decides it; None: none."""
    for pattern, backend in _COMPILED:
        if pattern.match(path):
            return backend
    return None


def error(status: str, code: str, message: str, start_response: StartResponse) -> list[bytes]:
    """The services' error shape, from the gateway itself."""
    body = json.dumps({"error": {"code": code, "message": message}})
    start_response(status, [("Content-Type", "application/json"), *SECURITY_HEADERS])
    return [body.encode()]


class TooLarge(Exception):
    """The request body is over ``MAX_BODY_BYTES``."""


class Gateway:
    """A WSGI app: static files of `static_dir` (index.html for the app's own routes) and
    the API paths proxied to `upstreams`."""

    def __init__(self, static_dir: Path, upstreams: Mapping[str, str]) -> None:
        self.static_dir = static_dir.resolve()
        self.upstreams = upstreams

    def __call__(self, environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        target = environ.get("RAW_URI") or quote(environ.get("PATH_INFO") or "/", safe="/")
        if environ.get("QUERY_STRING") and "?" not in target:
            target += "?" + environ["QUERY_STRING"]
        raw_path = target.partition("?")[0]
        try:
            path = normalize(raw_path)
        except BadPath as exc:
            return error("400 Bad Request", "bad_path", str(exc), start_response)
        if path == "/healthz":
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [b"ok\n"]
        if path == "/readyz":  # ready once there is an app to serve
            ready = (self.static_dir / "index.html").is_file()
            start_response("200 OK" if ready else "503 Service Unavailable", [])
            return [b"ok\n" if ready else b"web app not built\n"]
        backend = backend_for(path)
        if backend is not None:
            return self.proxy(self.upstreams[backend], target, environ, start_response)
        if path == "/v1" or path.startswith("/v1/"):
            return error("404 Not Found", "not_found", "no such API path", start_response)
        return self.static(path, start_response)

    def static(self, path: str, start_response: StartResponse) -> list[bytes]:
        """A file of the built app; any other path is one of the app's screens: index.html."""
        target = self.static_dir / "index.html"
        try:
            found = (self.static_dir / path.lstrip("/")).resolve()
            if found.is_relative_to(self.static_dir) and found.is_file():
                target = found
        except (OSError, ValueError):  # a name too long for the file system, say
            pass
        if not target.is_file():
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"the web app is not built: cd web && npm ci && npm run build\n"]
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        # Built assets carry a content hash in their names; index.html must be fetched anew.
        cache = "public, max-age=31536000, immutable" if "/assets/" in path else "no-cache"
        headers = [("Content-Type", kind), ("Cache-Control", cache), *SECURITY_HEADERS]
        start_response("200 OK", headers)
        return [target.read_bytes()]

    def proxy(
        self, base: str, target: str, environ: dict, start_response: StartResponse
    ) -> Iterable[bytes]:
        """The request, its target as the client sent it, to `base`; the answer streamed back
        chunk by chunk."""
        headers = {
            key[5:].replace("_", "-").title(): value
            for key, value in environ.items()
            if key.startswith("HTTP_") and key[5:].replace("_", "-").lower() not in HOP_BY_HOP
        }
        if environ.get("CONTENT_TYPE"):
            headers["Content-Type"] = environ["CONTENT_TYPE"]
        # as nginx's $proxy_add_x_forwarded_for: the services trust the last FORWARDED_HOPS
        # entries, so a client's own X-Forwarded-For changes nothing they count
        forwarded = environ.get("HTTP_X_FORWARDED_FOR")
        client = environ.get("REMOTE_ADDR", "")
        headers["X-Forwarded-For"] = f"{forwarded}, {client}" if forwarded else client
        try:
            body = read_body(environ)
        except TooLarge:
            return error("413 Request Entity Too Large", "too_large",
                         "the body is over 4 MiB", start_response)  # fmt: skip
        except (gevent.Timeout, OSError, ValueError):
            return error("400 Bad Request", "bad_body", "the body did not arrive whole in time",
                         start_response)  # fmt: skip
        if body or environ["REQUEST_METHOD"] in ("POST", "PUT", "PATCH"):
            headers["Content-Length"] = str(len(body))
        method = environ["REQUEST_METHOD"]
        try:
            connection, answer = send(base, method, target, headers, body)
        except (OSError, http.client.HTTPException) as exc:
            log.warning("%s %s: %s unreachable: %r", method, target, base, exc)
            return error("502 Bad Gateway", "unavailable", "the service is not reachable",
                         start_response)  # fmt: skip
        kept = [(k, v) for k, v in answer.getheaders() if k.lower() not in HOP_BY_HOP]
        names = {k.lower() for k, _ in kept}
        kept += [(k, v) for k, v in SECURITY_HEADERS if k.lower() not in names]
        start_response(f"{answer.status} {answer.reason}", kept)
        return _chunks(answer, connection)


def read_body(environ: dict) -> bytes:
    """The whole request body (chunked or not), each read within ``BODY_TIMEOUT_S``."""
    stream, chunks, size = environ["wsgi.input"], [], 0
    left = int(environ.get("CONTENT_LENGTH") or 0)
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    while left > 0 or chunked:
        with gevent.Timeout(BODY_TIMEOUT_S):
            chunk = stream.read(min(left, 65536) if not chunked else 65536)
        if not chunk:
            if left > 0:
                raise ValueError("the body ended early")
            break
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise TooLarge()
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def send(
    base: str, method: str, target: str, headers: dict[str, str], body: bytes
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    """One request on a connection of its own (as the Ingress's nginx opens by default: a
    pooled one could be closed by the service for idling just as a move is sent on it, and a
    move cannot be sent again). Sent again only when it never reached the service, or, for
    a read, when the service closed without an answer."""
    where = urlsplit(base)
    for attempt in range(CONNECT_TRIES):
        connection = http.client.HTTPConnection(
            where.hostname or "127.0.0.1", where.port or 80, timeout=CONNECT_TIMEOUT_S
        )
        try:
            connection.connect()
        except OSError:
            connection.close()
            if attempt == CONNECT_TRIES - 1:
                raise
            time.sleep(0.1 * 2**attempt)
            continue
        assert connection.sock is not None
        connection.sock.settimeout(READ_TIMEOUT_S)
        try:
            connection.request(method, target, body=body or None, headers=headers)
            return connection, connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError):
            connection.close()
            if method not in IDEMPOTENT or attempt == CONNECT_TRIES - 1:
                raise
    raise AssertionError("unreachable")


def _chunks(
    answer: http.client.HTTPResponse, connection: http.client.HTTPConnection
) -> Iterator[bytes]:
    """Each piece of the answer as it arrives (an SSE event is not held back), then close
    the answer and its connection."""
    try:
        while chunk := answer.read1(65536):
            yield chunk
    finally:
        answer.close()
        connection.close()


class HeaderTimeout(ValueError):
    """The request line and headers did not arrive within ``HEADER_TIMEOUT_S``."""


class ClientHandler(WSGIHandler):
    """gevent's request handler with nginx's limits on clients: a deadline for the request
    line and headers (a connection waiting for its next request has it too), answers that
    must be read within ``SEND_TIMEOUT_S``, one framing of the body, the raw target."""

    header_timer: gevent.Timeout | None = None

    def handle(self) -> None:
        self.socket.settimeout(SEND_TIMEOUT_S)
        super().handle()

    def handle_one_request(self):  # type: ignore[no-untyped-def]
        self.header_timer = gevent.Timeout.start_new(HEADER_TIMEOUT_S, HeaderTimeout)
        try:
            return super().handle_one_request()
        finally:
            self.header_timer.close()

    def read_requestline(self) -> str:
        try:
            return super().read_requestline()
        except HeaderTimeout:
            return ""  # nothing, or not enough, came in time: closed, as nginx does

    def MessageClass(self, *args):  # type: ignore[no-untyped-def]  # noqa: N802
        """The headers as gevent parses them, refused at once if their framing is not one
        single, plain one (before gevent drops a Content-Length sent with chunked)."""
        headers = super().MessageClass(*args)
        for name in UNIQUE_HEADERS:
            if len(headers.get_all(name) or ()) > 1:
                raise ValueError(f"{name} is sent more than once")
        encoding = headers.get("transfer-encoding")
        if encoding is not None and encoding.strip().lower() != "chunked":
            raise ValueError(f"unsupported Transfer-Encoding {encoding!r}")
        if encoding is not None and headers.get("content-length") is not None:
            raise ValueError("both Content-Length and Transfer-Encoding")
        return headers

    def read_request(self, raw_requestline: str) -> bool:
        try:
            return super().read_request(raw_requestline)
        finally:
            if self.header_timer is not None:
                self.header_timer.close()  # the headers are in: the app's time now

    def _handle_client_error(self, ex: BaseException):  # type: ignore[no-untyped-def]
        if isinstance(ex, HeaderTimeout):
            self.close_connection = True
            return None  # closed without an answer, as nginx does
        return super()._handle_client_error(ex)

    def get_environ(self) -> dict:
        env = super().get_environ()
        env["RAW_URI"] = self.path  # the target as sent: what is forwarded
        return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    settings = Settings.from_env()
    parser.add_argument("--host", default=settings.gateway_host)
    parser.add_argument("--port", type=int, default=settings.gateway_port)
    parser.add_argument("--static", type=Path, default=ROOT / "web" / "dist")
    args = parser.parse_args()
    json_logging("gateway", [log.name], settings.log_level)
    from gevent.pywsgi import WSGIServer

    app = Gateway(args.static, settings.gateway_upstreams)
    server = WSGIServer((args.host, args.port), app, log=None, handler_class=ClientHandler)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    log.info("serving the web app and the API on http://%s:%d/", shown, args.port)
    server.serve_forever()


if __name__ == "__main__":
    main()
