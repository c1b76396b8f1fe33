"""The gateway of `make run`: the web client and the public API on one origin, as the Ingress.

A browser may only call its own origin, so the gateway serves the built web app
(`web/dist`) at `/` and sends each public API path to the service the Kubernetes Ingress
sends it to (`k8s/base/ingress.yaml`, `k8s/base/feed.yaml`; a test compares `ROUTES` with
them). It runs on gevent: a proxied stream (the SSE feed, a long-poll) is a greenlet, and
each chunk goes out as soon as the service writes it. In Kubernetes the same process serves
only the web app: the Ingress routes the API paths before they could reach it.
"""

from __future__ import annotations

if __name__ == "__main__":  # the process itself, not a test importing ROUTES
    from gevent import monkey

    monkey.patch_all()  # before requests imports ssl and sockets: gevent's advice

import argparse  # noqa: E402
import logging  # noqa: E402
import mimetypes  # noqa: E402
import re  # noqa: E402
from collections.abc import Callable, Iterable, Iterator, Mapping  # noqa: E402
from pathlib import Path  # noqa: E402

import requests  # noqa: E402
from requests.adapters import HTTPAdapter  # noqa: E402
from urllib3.util import Retry  # noqa: E402

from services.logs import json_logging  # noqa: E402
from services.settings import Settings  # noqa: E402

log = logging.getLogger("tapete.gateway")

# The Ingress's paths and backends, in the order ingress-nginx tries them: longest first.
ROUTES: tuple[tuple[str, str], ...] = (
    (r"/v1/matches/[^/]+/(log|replay|verify|scores)$", "history"),
    (r"/v1/players(/me(/token)?)?$", "lobby"),
    (r"/v1/players/[^/]+/matches$", "history"),
    (r"/v1/matches/[^/]+/stream$", "feed"),
    (r"/v1/leaderboards(/|$)", "history"),
    (r"/v1/games(/[^/]+)?$", "rules"),
    (r"/v1/matches(/|$)", "lobby"),
)
_COMPILED = tuple((re.compile(pattern), backend) for pattern, backend in ROUTES)
ROOT = Path(__file__).resolve().parent.parent
# Hop-by-hop headers belong to one connection and are never forwarded (RFC 9110, 7.6.1).
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
    "content-encoding",
    "host",
}
UPSTREAM_TIMEOUT = (5, 3600)  # connect, read: a stream may stay open for an hour
# As the Ingress does: a request that never reached the service (no connection) is sent
# again; one that did, only when it is idempotent (GET, a read of the match, say).
UPSTREAM_RETRY = Retry(total=2, connect=2, read=1, status=0, redirect=0, backoff_factor=0.1)


def upstream_session() -> requests.Session:
    """One request's own connection, as the Ingress's nginx opens by default. A pooled one
    could be closed by the service for idling (gunicorn's keep-alive) just as a move is sent
    on it; the move then fails with no answer, and the gateway cannot know whether to send it
    again (seen under load: `RemoteDisconnected` on a POST of an action)."""
    session = requests.Session()
    session.mount("http://", HTTPAdapter(max_retries=UPSTREAM_RETRY))
    return session


StartResponse = Callable[..., object]


def backend_for(path: str) -> str | None:
    """The service an API path goes to, as the Ingress decides it; None: the web app's."""
    for pattern, backend in _COMPILED:
        if pattern.match(path):
            return backend
    return None


class Gateway:
    """A WSGI app: static files of `static_dir` (index.html for the app's own routes) and
    the API paths proxied to `upstreams`."""

    def __init__(self, static_dir: Path, upstreams: Mapping[str, str]) -> None:
        self.static_dir = static_dir.resolve()
        self.upstreams = upstreams

    def __call__(self, environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO") or "/"
        if path == "/healthz":
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [b"ok\n"]
        if path == "/readyz":  # ready once there is an app to serve
            ready = (self.static_dir / "index.html").is_file()
            start_response("200 OK" if ready else "503 Service Unavailable", [])
            return [b"ok\n" if ready else b"web app not built\n"]
        backend = backend_for(path)
        if backend is not None:
            return self.proxy(self.upstreams[backend], environ, start_response)
        if path.startswith("/v1/"):
            return self.not_found(start_response)
        return self.static(path, start_response)

    def not_found(self, start_response: StartResponse) -> list[bytes]:
        body = b'{"error": {"code": "not_found", "message": "no such API path"}}'
        start_response("404 Not Found", [("Content-Type", "application/json")])
        return [body]

    def static(self, path: str, start_response: StartResponse) -> list[bytes]:
        """A file of the built app; any other path is one of the app's screens: index.html."""
        target = (self.static_dir / path.lstrip("/")).resolve()
        inside = target.is_relative_to(self.static_dir)
        if not (inside and target.is_file()):
            target = self.static_dir / "index.html"
        if not target.is_file():
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"the web app is not built: cd web && npm ci && npm run build\n"]
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        # Built assets carry a content hash in their names; index.html must be fetched anew.
        cache = "public, max-age=31536000, immutable" if "/assets/" in path else "no-cache"
        headers = [("Content-Type", kind), ("Cache-Control", cache)]
        start_response("200 OK", headers)
        return [target.read_bytes()]

    def proxy(self, base: str, environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        """The request as it came, to `base`; the answer streamed back chunk by chunk."""
        url = base + environ.get("PATH_INFO", "")
        if environ.get("QUERY_STRING"):
            url += "?" + environ["QUERY_STRING"]
        headers = {
            key[5:].replace("_", "-").title(): value
            for key, value in environ.items()
            if key.startswith("HTTP_") and key[5:].replace("_", "-").lower() not in HOP_BY_HOP
        }
        if environ.get("CONTENT_TYPE"):
            headers["Content-Type"] = environ["CONTENT_TYPE"]
        forwarded = environ.get("HTTP_X_FORWARDED_FOR")
        client = environ.get("REMOTE_ADDR", "")
        headers["X-Forwarded-For"] = f"{forwarded}, {client}" if forwarded else client
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else None
        session = upstream_session()
        try:
            answer = session.request(
                environ["REQUEST_METHOD"],
                url,
                headers=headers,
                data=body,
                stream=True,
                allow_redirects=False,
                timeout=UPSTREAM_TIMEOUT,
            )
        except requests.RequestException as exc:
            session.close()
            log.warning("%s %s: %s unreachable: %r", environ["REQUEST_METHOD"], url, base, exc)
            message = (
                b'{"error": {"code": "unavailable", "message": "the service is not reachable"}}'
            )
            start_response("502 Bad Gateway", [("Content-Type", "application/json")])
            return [message]
        kept = [(k, v) for k, v in answer.headers.items() if k.lower() not in HOP_BY_HOP]
        start_response(f"{answer.status_code} {answer.reason}", kept)
        return _chunks(answer, session)


def _chunks(answer: requests.Response, session: requests.Session) -> Iterator[bytes]:
    """Each piece of the answer as it arrives (an SSE event is not held back), then close
    the answer and its connection."""
    try:
        if answer.raw.chunked:  # each chunk as the service wrote it
            yield from answer.iter_content(chunk_size=None)
        else:  # whatever has arrived, without waiting for more or for the end
            while chunk := answer.raw.read1(65536, decode_content=True):
                yield chunk
    finally:
        answer.close()
        session.close()


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
    server = WSGIServer((args.host, args.port), app, log=None)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    log.info("serving the web app and the API on http://%s:%d/", shown, args.port)
    server.serve_forever()


if __name__ == "__main__":
    main()
