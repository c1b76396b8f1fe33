"""The lobby's only way to the rules: HTTP/1.1 keep-alive to the rules service, through libcurl.

Every rules endpoint is a pure function of its request body (the service owns no data),
so every call is idempotent and may be retried: a refused or broken connection and
502/503/504 are retried a couple of times with a short backoff, never a 4xx nor a timeout.
Each call carries the request id of the request being served, so one move can be
followed across services, and with tracing on (``services/tracing.py``) its span's
``traceparent``; a view's or a move's call, that request's language (``lang``), so the
view's facts, the move's sentences and an illegal move's reason are said in it.

Why pycurl and not ``requests``: a move makes one rules call, and measured client CPU per
call (bench-style, one thread) was ``requests`` 0.74 ms, urllib3 0.37 ms, pycurl 0.10 ms,
out of a move budget of under 2 ms. Each thread keeps one curl handle, and libcurl keeps
its connection alive and reconnects by itself: that is the connection pool.
"""

from __future__ import annotations

import io
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pycurl

from services import tracing
from services.errors import Rejected, Unavailable, UpstreamRefused
from services.logs import REQUEST_ID_HEADER
from services.settings import DEFAULT_RULES_URL
from shared import jsoncodec
from shared.engine import DEFAULT_LANGUAGE

CONNECT_TIMEOUT_MS, TIMEOUT_MS = 2_000, 10_000


def serving_language() -> str:
    """The language of the request this process is serving. Only a web process loads
    ``services.http`` (and Flask with it); elsewhere (a bot worker, a timer, the history
    consumer) no request is being served: the default language, without loading Flask."""
    http = sys.modules.get("services.http")
    return http.request_language() if http is not None else DEFAULT_LANGUAGE


CATALOG_TTL_SECONDS = 60.0
RETRY_STATUSES = frozenset({502, 503, 504})
RETRY_DELAYS_SECONDS = (0.05, 0.1)  # then give up: three attempts in all
RETRY_ERRORS = frozenset(  # no connection, or it broke; a timeout is not retried (10 s is enough)
    {pycurl.E_COULDNT_CONNECT, pycurl.E_GOT_NOTHING, pycurl.E_SEND_ERROR, pycurl.E_RECV_ERROR}
)


class RulesRefused(Exception):
    """The rules service answered 4xx: ``status``, ``code``, ``message`` and ``details``."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


class RulesUnavailable(Exception):
    """The rules service could not be reached or failed (5xx, timeout, bad reply)."""


@contextmanager
def rules_errors() -> Iterator[None]:
    """The rules service's refusals as the lobby's: an illegal action (422) passes through with
    its code, any other refusal is a defect of ours, and no answer is unavailability."""
    try:
        yield
    except RulesRefused as exc:
        if exc.status == 422:
            raise Rejected(exc.message, code=exc.code, details=exc.details) from exc
        message = f"the rules service refused: {exc.message}"
        raise UpstreamRefused(message, code="rules_refused") from exc
    except RulesUnavailable as exc:
        raise Unavailable(str(exc), code="rules_unavailable") from exc


@dataclass(frozen=True)
class Outcome:
    """What setup or apply produced. ``state`` is sealed: store it and send it back unchanged."""

    state: dict[str, Any]
    events: list[dict[str, Any]]
    to_act: list[int]
    finished: bool
    result: dict[str, Any] | None
    deadline: dict[str, Any] | None
    view: dict[str, Any] | None = None  # the acting seat's view (apply sends it along)
    texts: list[str] | None = None  # apply: its events as the acting seat reads them
    state_hash: str | None = None  # what the log records; older rules services do not send it
    rules_version: int | None = None  # setup: the game's rules version it dealt under
    undoable: bool = False  # apply: a solitaire's move its player may take back (undo.py)


class RulesClient:
    """Catalog (cached), setup, apply and view over HTTP."""

    def __init__(
        self,
        base_url: str = DEFAULT_RULES_URL,
        request_id: Callable[[], str] = lambda: "-",
        catalog_ttl: float = CATALOG_TTL_SECONDS,
        language: Callable[[], str] | None = None,
    ) -> None:
        """``request_id`` and ``language``: the request being served's id and language (the
        default, ``serving_language``: ``lang``, else Accept-Language, else the default
        language; the default language outside a request, as a bot's or a timer's)."""
        self.base_url = base_url.rstrip("/")
        self.request_id = request_id
        self.language = language or serving_language
        self.catalog_ttl = catalog_ttl
        self._local = threading.local()  # one curl handle (and its connection) per thread
        self._catalog: dict[str, dict[str, Any]] = {}
        self._catalog_time = float("-inf")

    def catalog(self) -> dict[str, dict[str, Any]]:
        """Game id -> catalog entry; fetched at most once per ``catalog_ttl`` seconds."""
        if time.monotonic() - self._catalog_time > self.catalog_ttl:
            games = self._call("GET", "/v1/games")["games"]
            self._catalog = {game["id"]: game for game in games}
            self._catalog_time = time.monotonic()
        return self._catalog

    def setup(
        self, game: str, variant: str, players: int, options: dict[str, Any], seed: str
    ) -> Outcome:
        body = {"variant": variant, "players": players, "options": options, "seed": seed}
        reply = self._call("POST", f"/v1/games/{game}/setup", body)
        if "deadline" not in reply:  # an older rules service: its public view has it
            reply["deadline"] = self.view(game, reply["state"], None).get("deadline")
        return _outcome(reply)

    def apply(
        self,
        game: str,
        state: dict[str, Any],
        seat: int | None,
        action: Any,
        names: list[str | None] | None = None,
    ) -> Outcome:
        """The state after ``action``; ``RulesRefused`` (422) with the legal actions if illegal.
        ``names``: the players' names by seat, for its sentences, view and refusal."""
        body = {"state": state, "seat": seat, "action": action, "names": names or []}
        return _outcome(self._call("POST", self._said(f"/v1/games/{game}/apply"), body))

    def view(
        self,
        game: str,
        state: dict[str, Any],
        seat: int | None,
        names: list[str | None] | None = None,
    ) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, its facts naming the players ``names``."""
        body = {"state": state, "seat": seat, "names": names or []}
        return self._call("POST", self._said(f"/v1/games/{game}/view"), body)

    def _said(self, path: str) -> str:
        """``path`` in the language of the request being served."""
        return f"{path}?lang={self.language()}"

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        # nothing when tracing is off; the span is named by the path without its query
        with tracing.span(f"rules {method} {path.partition('?')[0]}", client=True):
            return self._answer(method, path, body)

    def _answer(self, method: str, path: str, body: Any) -> Any:
        data = None if body is None else jsoncodec.dumps(body)
        status, payload = 0, b""
        for delay in (*RETRY_DELAYS_SECONDS, None):
            try:
                status, payload = self._exchange(method, path, data)
                if status not in RETRY_STATUSES or delay is None:
                    break
            except pycurl.error as exc:
                if delay is None or exc.args[0] not in RETRY_ERRORS:
                    raise RulesUnavailable(f"the rules service did not answer: {exc}") from exc
            time.sleep(delay)
        try:
            reply = jsoncodec.loads(payload)
        except ValueError as exc:
            raise RulesUnavailable(f"the rules service answered {status} without JSON") from exc
        if status == 200 and isinstance(reply, dict):
            return reply
        error = reply.get("error") if isinstance(reply, dict) else None
        if 400 <= status < 500 and isinstance(error, dict):
            raise RulesRefused(
                status,
                str(error.get("code", "refused")),
                str(error.get("message", "refused by the rules service")),
                error.get("details"),
            )
        raise RulesUnavailable(f"the rules service answered {status} to {path}")

    def _exchange(self, method: str, path: str, data: bytes | None) -> tuple[int, bytes]:
        """One request on this thread's handle: (status, body). ``pycurl.error`` if it failed."""
        curl = self._handle()
        out = io.BytesIO()
        curl.setopt(pycurl.URL, self.base_url + path)
        curl.setopt(pycurl.WRITEDATA, out)
        headers = [f"{REQUEST_ID_HEADER}: {self.request_id()}", "Expect:", *tracing.headers()]
        if data is None:
            curl.setopt(pycurl.HTTPGET, 1)
        else:
            curl.setopt(pycurl.POSTFIELDS, data)
            headers.append("Content-Type: application/json")
        curl.setopt(pycurl.HTTPHEADER, headers)
        curl.perform()
        return curl.getinfo(pycurl.RESPONSE_CODE), out.getvalue()

    def _handle(self) -> pycurl.Curl:
        curl = getattr(self._local, "curl", None)
        if curl is None:
            curl = self._local.curl = pycurl.Curl()
            curl.setopt(pycurl.NOSIGNAL, 1)  # timeouts without signals: safe in threads
            curl.setopt(pycurl.CONNECTTIMEOUT_MS, CONNECT_TIMEOUT_MS)
            curl.setopt(pycurl.TIMEOUT_MS, TIMEOUT_MS)
            curl.setopt(pycurl.PROXY, "")  # internal traffic: never through a proxy
        return curl


def _outcome(reply: dict[str, Any]) -> Outcome:
    return Outcome(
        state=reply["state"],
        events=reply.get("events") or [],
        to_act=list(reply.get("to_act") or []),
        finished=bool(reply.get("finished", False)),
        result=reply.get("result"),
        deadline=reply.get("deadline"),
        view=reply.get("view"),
        texts=reply.get("texts"),
        state_hash=reply.get("state_hash"),
        rules_version=reply.get("rules_version"),
        undoable=bool(reply.get("undoable", False)),
    )
