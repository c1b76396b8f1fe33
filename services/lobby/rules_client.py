"""The lobby's only way to the rules: HTTP to the rules service through one pooled session.

Every rules endpoint is a pure function of its request body (the service owns no data),
so every call is idempotent and may be retried: connection failures and 502/503/504
are retried a couple of times with a short backoff, never a 4xx. Each call carries the
request id of the request being served, so one move can be followed across services.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from services.http import REQUEST_ID_HEADER

DEFAULT_RULES_URL = "http://127.0.0.1:8001"
TIMEOUT_SECONDS = (2.0, 10.0)  # connect, read
CATALOG_TTL_SECONDS = 60.0
RETRY = Retry(
    total=2,
    connect=2,
    read=1,
    status=2,
    status_forcelist=(502, 503, 504),
    allowed_methods=frozenset({"GET", "POST"}),  # POST too: every rules call is pure
    backoff_factor=0.05,
    raise_on_status=False,
)


class RulesRefused(Exception):
    """The rules service answered 4xx: ``status``, ``code``, ``message`` and ``details``."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


class RulesUnavailable(Exception):
    """The rules service could not be reached or failed (5xx, timeout, bad reply)."""


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


class RulesClient:
    """Catalog (cached), setup, apply and view over HTTP."""

    def __init__(
        self,
        base_url: str = DEFAULT_RULES_URL,
        request_id: Callable[[], str] = lambda: "-",
        pool_size: int = 32,
        catalog_ttl: float = CATALOG_TTL_SECONDS,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.request_id = request_id
        self.catalog_ttl = catalog_ttl
        self.session = requests.Session()
        self.session.trust_env = False  # no proxy or netrc lookups: ~1 ms a call, and internal
        adapter = HTTPAdapter(pool_connections=1, pool_maxsize=pool_size, max_retries=RETRY)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
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

    def apply(self, game: str, state: dict[str, Any], seat: int | None, action: Any) -> Outcome:
        """The state after ``action``; ``RulesRefused`` (422) with the legal actions if illegal."""
        body = {"state": state, "seat": seat, "action": action}
        return _outcome(self._call("POST", f"/v1/games/{game}/apply", body))

    def view(self, game: str, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see."""
        return self._call("POST", f"/v1/games/{game}/view", {"state": state, "seat": seat})

    def ping(self) -> bool:
        try:
            return self.session.get(f"{self.base_url}/healthz", timeout=1.0).ok
        except requests.RequestException:
            return False

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        try:
            response = self.session.request(
                method,
                self.base_url + path,
                json=body,
                timeout=TIMEOUT_SECONDS,
                headers={REQUEST_ID_HEADER: self.request_id()},
            )
            reply = response.json()
        except (requests.RequestException, ValueError) as exc:
            raise RulesUnavailable(f"the rules service did not answer: {exc}") from exc
        if response.status_code == 200 and isinstance(reply, dict):
            return reply
        error = reply.get("error") if isinstance(reply, dict) else None
        if 400 <= response.status_code < 500 and isinstance(error, dict):
            raise RulesRefused(
                response.status_code,
                str(error.get("code", "refused")),
                str(error.get("message", "refused by the rules service")),
                error.get("details"),
            )
        raise RulesUnavailable(f"the rules service answered {response.status_code} to {path}")


def _outcome(reply: dict[str, Any]) -> Outcome:
    return Outcome(
        state=reply["state"],
        events=reply.get("events") or [],
        to_act=list(reply.get("to_act") or []),
        finished=bool(reply.get("finished", False)),
        result=reply.get("result"),
        deadline=reply.get("deadline"),
        view=reply.get("view"),
    )
