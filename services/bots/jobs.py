"""The jobs the rq workers run: plain functions taking ids (see tasks.py for the kinds).

Each job acts only at the version it was made for. It first compares that version with
the snapshot's (one Redis read, no secret in it) and drops the job as stale if the match
has moved on; the lobby's compare-and-append is the real guard, answering 409 to a move
at an old version. With the action id of tasks.Task, a job that is run twice moves at
most once: jobs at least once, moves exactly once.

A bot plays as a client: the lobby's HTTP API with its seat's token, its seat's view
(``GET /v1/matches/{id}``, the very view a person in that seat gets) and
``shared.bots.reflexes.choose_at_table`` (the strategy's choice, or a wait where a reflex
game's call would only be penalised). A turn timer and a window's timeout are the server's own moves,
made in process through ``Lobby.submit_for_seat`` / ``Lobby.submit_action(SYSTEM)``,
which need no token; the turn timer chooses from the seat's own view too.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import requests
from prometheus_client import Histogram
from requests.adapters import HTTPAdapter
from rq import get_current_job
from urllib3.util.retry import Retry

from services.errors import Conflict, DomainError, Forbidden, NotFound
from services.lobby.application import SYSTEM, Lobby
from services.lobby.match import strategy_at
from services.settings import Settings
from shared.bots.reflexes import choose_at_table

from .tasks import ADVANCE, BOT, IDLE, JOBS, START, TURN, WINDOW, Task
from .timers import Leases

__all__ = ["play_bot", "play_for_seat", "close_window", "end_idle", "start_match", "context"]

HTTP_TIMEOUT_S = (2.0, 10.0)  # connect, read
HTTP_RETRY = Retry(  # POST too: the action id makes a repeated move return the first answer
    total=2,
    status_forcelist=(502, 503, 504),
    allowed_methods=frozenset({"GET", "POST"}),
    backoff_factor=0.05,
    raise_on_status=False,
)
TIMEOUT_STRATEGY = "random"  # what a turn timer plays for an absent person
TIMEOUT_ACTION = {"type": "timeout"}
TOKEN_CACHE_SIZE = 10_000
# Fault injection for the tests (the variables of Settings.bots_pause_*): a bot job sleeps
# there, so a test can kill its worker there.
PAUSE_BEFORE_SUBMIT = "BOTS_PAUSE_BEFORE_SUBMIT_S"
PAUSE_AFTER_SUBMIT = "BOTS_PAUSE_AFTER_SUBMIT_S"

PLAYED, STALE, DROPPED, FAILED = "played", "stale", "dropped", "failed"
WAITED = "waited"  # nothing worth doing at this version: the next entry asks again

JOB_SECONDS = Histogram(
    "tapete_bot_job_seconds",
    "from a bot job's enqueue to its end",
    buckets=(0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5, 10),
)

QUEUE_WAIT_SECONDS = Histogram(
    "tapete_bot_queue_wait_seconds",
    "from a bot job's enqueue to a worker starting it",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)

log = logging.getLogger("tapete.bots")
rng = random.Random()  # a bot's choices need no seed: the log records what it played


class LobbyError(RuntimeError):
    """The lobby answered what a job cannot take as done (5xx, 422): the job fails."""


@dataclass
class Context:
    """A worker's connections, made once per process."""

    lobby: Lobby  # in process, for the server's own moves (timers)
    leases: Leases
    http: requests.Session
    lobby_url: str
    pauses: dict[str, float] = field(default_factory=dict)  # fault injection: variable -> s
    tokens: dict[tuple[str, int], str] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: Settings) -> Context:
        lobby = Lobby.from_settings(settings)
        return cls(
            lobby=lobby,
            leases=Leases(lobby.log),
            http=http_session(),
            lobby_url=settings.lobby_url.rstrip("/"),
            pauses={
                PAUSE_BEFORE_SUBMIT: settings.bots_pause_before_submit_s,
                PAUSE_AFTER_SUBMIT: settings.bots_pause_after_submit_s,
            },
        )

    def version(self, match_id: str) -> int | None:
        """The match's current version, from its snapshot (None: no such match)."""
        raw = self.lobby.client.hget(self.lobby.log.keys(match_id).snapshot, "version")
        return int(raw) if raw is not None else None  # type: ignore[arg-type]

    def bot_token(self, match_id: str, seat: int) -> str | None:
        """The bot seat's token (None: no bot plays that seat now), remembered: a seat's token
        never changes (it is derived from the match and seat; the lobby revokes it at the
        end, or when a person takes back the seat a bot sat in for them). A None is not
        remembered: a bot may sit in for that seat's person later."""
        key = (match_id, seat)
        if key not in self.tokens:
            token = self.lobby.bot_token(match_id, seat)
            if token is None:
                return None
            if len(self.tokens) >= TOKEN_CACHE_SIZE:
                self.tokens.clear()
            self.tokens[key] = token
        return self.tokens[key]


def http_session() -> requests.Session:
    session = requests.Session()
    session.trust_env = False  # no proxy or netrc lookups: ~1 ms a call, and the lobby is internal
    adapter = HTTPAdapter(pool_connections=1, pool_maxsize=4, max_retries=HTTP_RETRY)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


_context: Context | None = None


def use_settings(settings: Settings) -> Context:
    """Make this process's context from ``settings`` (the worker does, at its start)."""
    global _context
    _context = Context.from_settings(settings)
    return _context


def context() -> Context:
    """This process's context; made from the environment on first use if nobody made it."""
    return _context or use_settings(Settings.from_env())


# -- the jobs --------------------------------------------------------------------------------
def play_bot(match_id: str, version: int, seat: int, attempt: int = 0) -> str:
    """A bot seat's move at ``version``: its own view, its strategy's choice, its token."""
    return _run(Task(BOT, match_id, version, seat, attempt), _play_bot)


def play_for_seat(match_id: str, version: int, seat: int, attempt: int = 0) -> str:
    """A person's seat still to act at ``version`` when its turn timed out: a random legal
    action from that seat's view, recorded as the server acting for the seat."""
    return _run(Task(TURN, match_id, version, seat, attempt), _play_for_seat)


def close_window(match_id: str, version: int, attempt: int = 0) -> str:
    """The window open at ``version`` reached its deadline: the server's ``timeout``."""
    return _run(Task(WINDOW, match_id, version, None, attempt), _close_window)


def end_idle(match_id: str, version: int, attempt: int = 0) -> str:
    """The match has lain idle at ``version`` for the idle limit: the server ends it as
    abandoned, by nobody in particular (``Lobby.abandon``)."""
    return _run(Task(IDLE, match_id, version, None, attempt), _end_idle)


def start_match(match_id: str, version: int, attempt: int = 0) -> str:
    """The match starts itself and is still full and open at ``version``: the server deals it
    (``Lobby.deal``). While the rules do not answer the job fails, and is tried again."""
    return _run(Task(START, match_id, version, None, attempt), _start_match)


def advance_tournament(match_id: str, version: int, attempt: int = 0) -> str:
    """A tournament's match finished at ``version``: advance the tournament (pair its next
    round when this was the round's last match). Idempotent: a second run pairs nothing."""
    return _run(Task(ADVANCE, match_id, version, None, attempt), _advance_tournament)


def start_tournament(tournament_id: str) -> str:
    """A tournament's start time has come: start it (pair round one). Idempotent."""
    status = context().lobby.tournaments.start_due(tournament_id)
    JOBS.labels("tstart", PLAYED).inc()
    log.info("tournament %s at its start time: %s", tournament_id, status)
    return status


def _run(task: Task, work: Callable[[Context, Task], str]) -> str:
    """Drop a stale task unread, else do it; count the outcome and end the task's lease.

    A job that raises keeps its lease: rq records the failure, and the dispatcher's
    watchdog tries the task again while the match waits at that version.
    """
    ctx = context()
    job = get_current_job()
    enqueued = job.enqueued_at if task.kind == BOT and job is not None else None
    if enqueued is not None and job is not None:
        QUEUE_WAIT_SECONDS.observe(_seconds(enqueued, job.started_at))
    try:
        outcome = work(ctx, task) if ctx.version(task.match) == task.version else STALE
    except Exception:
        JOBS.labels(task.kind, FAILED).inc()
        raise
    JOBS.labels(task.kind, outcome).inc()
    ctx.leases.release(task)
    if enqueued is not None:
        JOB_SECONDS.observe(_seconds(enqueued, None))
    log.debug("%s: %s", task.job_id, outcome)
    return outcome


def _seconds(start: datetime, end: datetime | None) -> float:
    """Seconds from ``start`` to ``end`` (None: now); rq's times are UTC, with or without a zone."""
    utc = [
        moment.replace(tzinfo=moment.tzinfo or UTC) for moment in (start, end or datetime.now(UTC))
    ]
    return max((utc[1] - utc[0]).total_seconds(), 0.0)


def _play_bot(ctx: Context, task: Task) -> str:
    assert task.seat is not None
    token = ctx.bot_token(task.match, task.seat)
    if token is None:
        return DROPPED  # not a bot's seat: nothing for a bot to do
    auth = {"Authorization": f"Bearer {token}"}
    url = f"{ctx.lobby_url}/v1/matches/{task.match}"
    got = ctx.http.get(url, headers=auth, timeout=HTTP_TIMEOUT_S)
    if got.status_code != 200:
        return _refused(got.status_code, got.text)
    match = got.json()
    view = match["view"]
    if match["version"] != task.version:
        return STALE
    if task.seat not in view["to_act"] or not view["legal_actions"]:
        return DROPPED
    action = choose_at_table(view, strategy_at(match["seats"][task.seat]) or "random", rng)
    if action is None:
        return WAITED
    _pause(ctx, PAUSE_BEFORE_SUBMIT, task)
    body = {"action": action, "expected_version": task.version, "action_id": task.action_id}
    sent = ctx.http.post(f"{url}/actions", headers=auth, json=body, timeout=HTTP_TIMEOUT_S)
    if sent.status_code != 200:
        return _refused(sent.status_code, sent.text)
    _pause(ctx, PAUSE_AFTER_SUBMIT, task)
    return PLAYED


def _play_for_seat(ctx: Context, task: Task) -> str:
    assert task.seat is not None
    try:
        seen = ctx.lobby.seat_view(task.match, task.seat)
        view = seen["view"]
        if seen["version"] != task.version:
            return STALE
        if task.seat not in view["to_act"] or not view["legal_actions"]:
            return DROPPED
        action = choose_at_table(view, TIMEOUT_STRATEGY, rng, slips=False)
        if action is None:
            return WAITED  # a reflex game's penalised call is no move to make for the absent
        ctx.lobby.submit_for_seat(task.match, task.seat, action, task.version, task.action_id)
    except DomainError as exc:
        return _refused_in_process(exc)
    log.info("turn timed out: played %s for seat %s of %s", action, task.seat, task.match)
    return PLAYED


def _close_window(ctx: Context, task: Task) -> str:
    try:
        ctx.lobby.submit_action(task.match, SYSTEM, TIMEOUT_ACTION, task.version, task.action_id)
    except DomainError as exc:
        return _refused_in_process(exc)
    return PLAYED


def _end_idle(ctx: Context, task: Task) -> str:
    try:
        ctx.lobby.abandon(task.match, task.version)
    except DomainError as exc:
        return _refused_in_process(exc)
    log.info("match %s idle at version %s: ended as abandoned", task.match, task.version)
    return PLAYED


def _start_match(ctx: Context, task: Task) -> str:
    try:
        ctx.lobby.deal(task.match, task.version)
    except DomainError as exc:
        return _refused_in_process(exc)
    log.warning("match %s full and open at version %s: dealt", task.match, task.version)
    return PLAYED


def _advance_tournament(ctx: Context, task: Task) -> str:
    try:
        status = ctx.lobby.tournaments.match_finished(task.match)
    except DomainError as exc:
        return _refused_in_process(exc)
    log.info("match %s finished: its tournament is %s", task.match, status)
    return PLAYED


def _refused(status: int, message: str) -> str:
    """409: someone moved first (stale). 403/404: not this seat's turn, no such match
    (dropped). Anything else is not the job's to settle: it fails, and is retried."""
    if status == 409:
        return STALE
    if status in (403, 404):
        return DROPPED
    raise LobbyError(f"the lobby answered {status}: {message[:300]}")


def _refused_in_process(exc: DomainError) -> str:
    """The same outcomes as ``_refused``, from the lobby's application layer's domain errors:
    a conflict is stale, forbidden or not found is dropped, anything else fails."""
    if isinstance(exc, Conflict):
        return STALE
    if isinstance(exc, Forbidden | NotFound):
        return DROPPED
    raise LobbyError(f"the lobby refused ({exc.code}): {exc.message[:300]}") from exc


def _pause(ctx: Context, variable: str, task: Task) -> None:
    seconds = ctx.pauses.get(variable, 0.0)
    if seconds > 0:
        log.warning("%s: pausing %.1fs (%s)", task.job_id, seconds, variable)
        time.sleep(seconds)
