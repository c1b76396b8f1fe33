"""What the dispatcher asks the workers to do: one task per (kind, match, version, seat).

    bot     a bot seat is to act: a worker plays from the bot's own view (jobs.play_bot)
    turn    a person's seat has been to act for the match's ``turn_timeout``: the server
            plays a random legal action for it (jobs.play_for_seat)
    window  the rules opened a window with a deadline (a reaction, sealed bids): when it
            closes the server sends ``{"type": "timeout"}`` (jobs.close_window)
    idle    a running match has had no entry for the idle limit (``MATCH_IDLE_LIMIT_S``):
            the server ends it as abandoned (jobs.end_idle)
    start   a match that starts itself is full and still open a moment after its last seat
            was taken (the lobby's own start failed or never ran): the server deals it
            (jobs.start_match)
    advance a tournament's match has finished: the server advances its tournament, pairing
            the next round once every match of this one is over (jobs.advance_tournament)

A task's rq job id is unique to (kind, match, version, seat): a notification delivered
twice enqueues nothing new (rq's ``unique=True`` checks and enqueues in one Lua script).
An attempt the watchdog makes after a job was lost adds ``-r<attempt>``. The action id a
task submits is the same for every attempt, so an attempt after one that acted and then
died gets the first answer back from the lobby instead of acting twice.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from prometheus_client import Counter
from rq import Queue
from rq.exceptions import DuplicateJobError

QUEUE = "tapete-bots"
JOB_PREFIX = "tapete"  # job ids: tapete-<kind>-<match>-<version>[-<seat>][-r<attempt>]
BOT, TURN, WINDOW, IDLE, START, ADVANCE = "bot", "turn", "window", "idle", "start", "advance"
JOB_FUNCTIONS = {
    BOT: "services.bots.jobs.play_bot",
    TURN: "services.bots.jobs.play_for_seat",
    WINDOW: "services.bots.jobs.close_window",
    IDLE: "services.bots.jobs.end_idle",
    START: "services.bots.jobs.start_match",
    ADVANCE: "services.bots.jobs.advance_tournament",
}
JOB_TIMEOUT_S = 30  # a job is two lobby calls; anything near this is a hung lobby
RESULT_TTL_S = 300  # how long a finished job's id keeps a redelivered notification out
FAILURE_TTL_S = 86_400  # failed jobs stay a day in rq's failed registry, to be looked at
JOB_ID_SAFE = re.compile(r"[A-Za-z0-9_-]+")  # what rq accepts in a job id

JOBS = Counter(
    "tapete_bot_jobs_total",
    "bot and timer jobs by kind: enqueued, duplicate, retried (the dispatcher); "
    "played, stale, dropped, failed (the workers)",
    ["kind", "outcome"],
)


@dataclass(frozen=True)
class Task:
    kind: str
    match: str
    version: int
    seat: int | None = None  # None for a window, idle, start or advance: the server acts
    attempt: int = 0

    @property
    def name(self) -> str:
        """kind-match-version[-seat]: the same for every attempt."""
        seat = "" if self.seat is None else f"-{self.seat}"
        return f"{self.kind}-{self.match}-{self.version}{seat}"

    @property
    def job_id(self) -> str:
        name = self.name if JOB_ID_SAFE.fullmatch(self.name) else _safe(self.name)
        retry = f"-r{self.attempt}" if self.attempt else ""
        return f"{JOB_PREFIX}-{name}{retry}"

    @property
    def action_id(self) -> str:
        """The lobby's idempotency key: every attempt of a task makes at most one move."""
        return f"{JOB_PREFIX}-{self.name}"

    @property
    def args(self) -> tuple[Any, ...]:
        """The job function's arguments: ids only."""
        if self.kind in (WINDOW, IDLE, START, ADVANCE):
            return (self.match, self.version, self.attempt)
        return (self.match, self.version, self.seat, self.attempt)

    def retry(self) -> Task:
        return replace(self, attempt=self.attempt + 1)

    def encode(self) -> str:
        return json.dumps([self.kind, self.match, self.version, self.seat, self.attempt])

    @classmethod
    def decode(cls, raw: str | bytes) -> Task:
        kind, match, version, seat, attempt = json.loads(raw)
        return cls(kind, match, int(version), seat, int(attempt))


def enqueue(queue: Queue, task: Task, at: float | None = None) -> bool:
    """Queue ``task`` now, or at epoch ``at`` through the rq scheduler; False if its job id
    already exists (this task was queued before).

    rq's scheduler keeps whole seconds, cutting the fraction off (a timer due at 12.9 s was
    run at 12 s, up to a second early: a 0.5 s window closed after 0.07 s), so a delayed
    task is scheduled at the next whole second: never before ``at``, at most a second late.
    """
    options: dict[str, Any] = {
        "args": task.args,
        "job_id": task.job_id,
        "unique": True,
        "job_timeout": JOB_TIMEOUT_S,
        "result_ttl": RESULT_TTL_S,
        "failure_ttl": FAILURE_TTL_S,
        "description": task.name if not task.attempt else f"{task.name} attempt {task.attempt}",
    }
    try:
        if at is None or at <= time.time():
            queue.enqueue(JOB_FUNCTIONS[task.kind], **options)
        else:
            when = datetime.fromtimestamp(math.ceil(at), UTC)
            queue.enqueue_at(when, JOB_FUNCTIONS[task.kind], **options)
    except DuplicateJobError:
        return False
    return True


START_TOURNAMENT = "services.bots.jobs.start_tournament"
START_RETRY_S = 60  # a start job that failed is enqueued again after this long


def enqueue_start(queue: Queue, tournament_id: str, now: float) -> bool:
    """Queue the start of a tournament whose start time has come; False if queued already
    in this minute (its job id is the tournament's and the minute's, so several
    dispatchers, each sweep, enqueue it once, and a failed start is tried a minute later)."""
    job_id = f"{JOB_PREFIX}-tstart-{tournament_id}-{int(now // START_RETRY_S)}"
    try:
        queue.enqueue(
            START_TOURNAMENT, args=(tournament_id,), job_id=job_id, unique=True,
            job_timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S, failure_ttl=FAILURE_TTL_S,
            description=f"start tournament {tournament_id}",
        )  # fmt: skip
    except DuplicateJobError:
        return False
    return True


def _safe(name: str) -> str:
    """A match id with characters rq refuses in job ids (the lobby's are hex): escape them."""
    return "".join(c if JOB_ID_SAFE.fullmatch(c) else f"_{ord(c):x}_" for c in name)
