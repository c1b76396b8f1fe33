"""The bot dispatcher: reads every feed partition with the consumer group "bots" and turns
each notification into rq jobs (tasks.py): a job for each bot seat to act, a delayed job
for the window the rules opened, and one for each person's seat when the match has a
``turn_timeout``.

Delivery is at least once: a notification is acknowledged after its jobs are enqueued,
and a job id is unique to (kind, match, version, seat), so a notification delivered again
enqueues nothing new. Only the latest version of a match matters: a notification whose
match has moved on since (the snapshot's version is higher) asks for nothing. Taking
over a dead dispatcher's notifications, retries and dead letters (bots:dead) are the
shared consumer-group loop's (``shared/feedgroup.py``), and so is its ``main``
(``services/consumers.py``).

A tournament's match that finishes gets an advance task: its tournament pairs the next round
once every match of the round has finished (services/lobby/tournaments.py), and the
watchdog retries it until it has run, since a finished match stays at its last version.
Each sweep also starts the tournaments whose start time has come (a job each).

A match that starts itself and is left full and open by its last join's notification (the
lobby's own start failed, or its process died, after the join's append) gets a start task
a moment later: the server deals it, and the watchdog retries it for as long as the match
waits at that version, so a full match is always dealt; two deals are impossible, since the
start is appended at the join's version. Normally the lobby has dealt it by then, the
match has moved on, and the notification asks for nothing.

The watchdog (timers.py) runs here too: a task whose job has not ended by its lease's
time while the match still waits at that version is enqueued again, as a new attempt,
with a pause that doubles each time (capped), for as long as the match waits for it.

    python -m services.bots.dispatcher   # REDIS_URL, RQ_REDIS_URL, FEED_PARTITIONS, BOTS_*
"""

from __future__ import annotations

import functools
import json
import logging
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import redis
from prometheus_client import Counter, Histogram
from rq import Queue
from rq.job import Job, JobStatus

from services.consumers import consumer_store, run_group
from services.lobby.match import deals_itself
from services.settings import DispatcherSettings, Settings
from shared import feedgroup
from shared.bots.reflexes import REFLEX_WINDOWS, Reflexes
from shared.eventstore import MATCH_ID, MatchLog
from shared.feedgroup import FeedGroup, Message
from shared.tournament_log import TournamentLog

from .tasks import (
    ADVANCE,
    BOT,
    IDLE,
    JOBS,
    QUEUE,
    START,
    TURN,
    WINDOW,
    Task,
    enqueue,
    enqueue_start,
)
from .timers import IdleMatches, Leases, turn_times_out_at, window_closes_at

GROUP = "bots"
RUNNING, OPEN, FINISHED = "running", "open", "finished"
# How long after a full match's last join its start task runs: the lobby's own start (one
# rules call right after the join) has normally dealt it well before, and the task is stale.
START_GRACE_S = 1.0

NOTIFICATIONS = Counter(
    "tapete_bot_notifications_total",
    "feed notifications: dispatched (jobs made), idle (nothing to do), stale (the match moved "
    "on), failed, dead-lettered",
    ["outcome"],
)
DISPATCH_SECONDS = Histogram(
    "tapete_bot_dispatch_seconds",
    "from a feed entry's append to its jobs being enqueued",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5),
)

log = logging.getLogger("tapete.bots.dispatcher")
_rng = random.Random()  # reaction times need no seed: the log records when the bot moved
dead_key = functools.partial(feedgroup.dead_key, GROUP)


@dataclass(frozen=True)
class Notice:
    """One feed notification: which match reached which version, and the public event."""

    id: str
    match: str
    version: int
    notified: float  # epoch seconds of the append (the feed id's milliseconds)
    status: str
    to_act: list[int]
    deadline: dict[str, Any] | None
    bot_seats: frozenset[int]
    turn_deadline: str | None = None
    bot_pace: float = 0.0  # seconds a bot's move waits after this entry (the lobby's bot_pace)
    tournament: str | None = None  # the tournament of a tournament's match

    @classmethod
    def parse(cls, message_id: str, fields: dict[str, str]) -> Notice:
        """Raises KeyError / ValueError / TypeError for a malformed notification."""
        match, event = fields["match"], json.loads(fields["event"])
        if not MATCH_ID.fullmatch(match):
            raise ValueError(f"bad match id {match!r}")
        return cls(
            id=message_id,
            match=match,
            version=int(fields["version"]),
            notified=int(message_id.split("-")[0]) / 1000,
            status=str(event["status"]),
            to_act=[int(seat) for seat in event.get("to_act") or []],
            deadline=event.get("deadline") or None,
            bot_seats=frozenset(int(bot["seat"]) for bot in event.get("bots") or []),
            turn_deadline=event.get("turn_deadline") or None,
            bot_pace=float(event.get("bot_pace") or 0.0),
            tournament=event.get("tournament") or None,
        )


def plan(
    notice: Notice,
    turn_timeout: float | None,
    reflexes: Reflexes = Settings.bot_reflexes,
    rng: random.Random | None = None,
    to_deal: bool = False,
) -> list[tuple[Task, float | None]]:
    """The tasks a current notification asks for, each with when (None: now); ``to_deal``:
    its match is open, full and starts itself (``deals_itself``, read from its snapshot).

    In a reflex window a bot acts after a person's reaction time, or misses it; otherwise
    no sooner than the match's bot pace after the entry (paced_at)."""
    if notice.status == OPEN and to_deal:
        return [(Task(START, notice.match, notice.version), notice.notified + START_GRACE_S)]
    if notice.status == FINISHED and notice.tournament:
        return [(Task(ADVANCE, notice.match, notice.version), None)]
    if notice.status != RUNNING:
        return []
    match, version = notice.match, notice.version
    bots = [seat for seat in notice.to_act if seat in notice.bot_seats]
    tasks: list[tuple[Task, float | None]] = []
    if notice.deadline and notice.deadline.get("kind") in REFLEX_WINDOWS:
        closes = window_closes_at(notice.deadline, notice.notified)
        for seat in bots:
            delay = reflexes.delay(rng or _rng, closes - notice.notified)
            if delay is not None:
                tasks.append((Task(BOT, match, version, seat), notice.notified + delay))
    else:
        tasks += [(Task(BOT, match, version, seat), paced_at(notice)) for seat in bots]
    if notice.deadline:
        closes = window_closes_at(notice.deadline, notice.notified)
        tasks.append((Task(WINDOW, match, version), closes))
    if turn_timeout:
        times_out = turn_times_out_at(turn_timeout, notice.notified, notice.turn_deadline)
        tasks += [
            (Task(TURN, match, version, seat), times_out)
            for seat in notice.to_act
            if seat not in notice.bot_seats
        ]
    return tasks


def paced_at(notice: Notice) -> float | None:
    """When a bot may answer this entry: the match's pace after the entry's append, so a
    person sees each bot move come at a human pace (None: at once). Counted from the entry,
    not from the dispatch: a dispatcher running late adds no wait of its own, and one later
    than the pace enqueues the move at once."""
    return notice.notified + notice.bot_pace if notice.bot_pace > 0 else None


class Dispatcher(FeedGroup):
    group = GROUP
    settings: DispatcherSettings

    def __init__(
        self,
        log: MatchLog,
        queue: Queue,
        settings: DispatcherSettings,
        idle_limit_s: float = Settings.match_idle_limit_s,
        reflexes: Reflexes = Settings.bot_reflexes,
    ) -> None:
        self.reflexes = reflexes
        super().__init__(log, settings, NOTIFICATIONS, logging.getLogger("tapete.bots.dispatcher"))
        self.queue = queue
        self.leases = Leases(log)
        self.idle = IdleMatches(log)
        self.idle_limit_s = idle_limit_s
        self._last_sweep = float("-inf")

    def step(self) -> int:
        """Now and then redo lost tasks (the watchdog); then the shared loop's step."""
        now = time.monotonic()
        if now - self._last_sweep >= self.settings.sweep_every_s:
            self._last_sweep = now
            self.sweep()
            self.end_idle()
            self.start_tournaments()
        return super().step()

    def start_tournaments(self) -> int:
        """Enqueue the start of every tournament whose start time has come."""
        now = time.time()
        due = TournamentLog(self.client).due(now)
        return sum(enqueue_start(self.queue, tournament_id, now) for tournament_id in due)

    def handle(self, stream: str, messages: list[Message], retry: bool = False) -> None:
        """Dispatch the latest notification of each match in the batch, then acknowledge."""
        latest: dict[str, Notice] = {}
        ids: dict[str, list[str]] = {}
        for message_id, fields in messages:
            try:
                notice = Notice.parse(message_id, fields)
            except (KeyError, ValueError, TypeError) as exc:
                self.failed(stream, [message_id], exc)
                continue
            ids.setdefault(notice.match, []).append(message_id)
            if notice.match not in latest or notice.version > latest[notice.match].version:
                latest[notice.match] = notice
        current = self._snapshots(list(latest))
        self.idle.seen(
            {m: n.notified for m, n in latest.items() if n.status == RUNNING},
            [m for m, n in latest.items() if n.status != RUNNING],
        )
        for match_id, notice in latest.items():
            try:
                outcome = self.dispatch(notice, *current[match_id])
            except Exception as exc:  # retried, and after a few deliveries dead-lettered
                self.failed(stream, ids[match_id], exc)
                continue
            NOTIFICATIONS.labels(outcome).inc(len(ids[match_id]))
            self.ack(stream, ids[match_id], retry)

    def still_needed(self, fields: dict[str, str]) -> bool:
        """A well-formed notification whose running match still waits at its version is
        never dead-lettered, however often its dispatch failed (the store timing out under
        load): dropping it would strand the match. Nor is one whose match waits at its
        version to be dealt. Malformed or stale ones are."""
        try:
            notice = Notice.parse("0-0", fields)
        except (KeyError, ValueError, TypeError):
            return False
        version, _, to_deal = self._snapshots([notice.match])[notice.match]
        return version == notice.version and (notice.status == RUNNING or to_deal)

    def dispatch(
        self,
        notice: Notice,
        version: int | None,
        turn_timeout: float | None,
        to_deal: bool = False,
    ) -> str:
        """Enqueue what ``notice`` asks for, if its match is still at its version (``version``,
        ``turn_timeout`` and ``to_deal`` are its snapshot's, as ``_snapshots`` reads them)."""
        if version != notice.version:
            return "stale"
        tasks = plan(notice, turn_timeout, self.reflexes, to_deal=to_deal)
        for task, at in tasks:
            due = (at or time.time()) + self.settings.retry_after_s
            self.leases.take(task, due)  # first: a crash between the two is then redone
            new = enqueue(self.queue, task, at)
            JOBS.labels(task.kind, "enqueued" if new else "duplicate").inc()
        if not tasks:
            return "idle"
        DISPATCH_SECONDS.observe(max(time.time() - notice.notified, 0.0))
        return "dispatched"

    def sweep(self) -> int:
        """Redo the tasks whose lease ran out while their match still waits at their version.

        A task still current is never given up: a slow or stalled worker pool must slow its
        matches down, not strand them. Each attempt waits twice as long as the one before
        (``retry_after_s``, doubling, at most ``retry_max_s``), so a pool that is behind is
        not flooded; an attempt that finally runs after a later one has acted is refused by
        the lobby (same action id, expected version), so the task still moves at most once.
        """
        overdue = self.leases.overdue(time.time(), self.settings.batch, self.partitions())
        if not overdue:
            return 0
        current = self._snapshots(list({task.match for task in overdue}))
        waiting = self._queued([t for t in overdue if current[t.match][0] == t.version])
        for task in overdue:
            if current[task.match][0] != task.version:
                self.leases.release(task)  # done, or overtaken by another move: nothing lost
                continue
            if task in waiting:  # not lost, only behind other jobs: a second attempt would
                # join the same line and make it longer, so its lease is renewed instead
                self.leases.extend(task, time.time() + self.retry_pause(task.attempt))
                JOBS.labels(task.kind, "waiting").inc()
                continue
            retry = task.retry()
            pause = self.retry_pause(retry.attempt)
            self.leases.renew(task, retry, time.time() + pause)
            enqueue(self.queue, retry)
            JOBS.labels(task.kind, "retried").inc()
            level = logging.ERROR if pause >= self.settings.retry_max_s else logging.WARNING
            log.log(
                level, "task %s not done in time: attempt %d, next look in %.1fs",
                task.name, retry.attempt, pause,
            )  # fmt: skip
        return len(overdue)

    def _queued(self, tasks: list[Task]) -> set[Task]:
        """The tasks whose job still waits in the rq queue: queued by rq's status and still
        in the queue's list, so a worker will take it in its turn. A job started, failed,
        finished or gone is not waiting: a started one may belong to a worker that was
        killed. Nor is a "queued" job missing from the list: a worker takes a job off the
        list before marking it started, and one killed in between leaves it in no queue."""
        if not tasks:
            return set()
        connection = self.queue.connection
        jobs = Job.fetch_many([t.job_id for t in tasks], connection=connection)
        with connection.pipeline(transaction=False) as pipe:
            for task in tasks:
                pipe.lpos(self.queue.key, task.job_id)
            places = pipe.execute()
        return {
            task
            for task, job, place in zip(tasks, jobs, places, strict=True)
            if job is not None
            and job.get_status(refresh=False) == JobStatus.QUEUED
            and place is not None
        }

    def retry_pause(self, attempt: int) -> float:
        """How long attempt ``attempt`` has before the watchdog looks again: the first (0,
        the dispatch's) has ``retry_after_s``, each later one twice the one before, capped
        at ``retry_max_s``."""
        doubled = self.settings.retry_after_s * 2 ** min(attempt, 32)
        return min(doubled, max(self.settings.retry_max_s, self.settings.retry_after_s))

    def end_idle(self) -> int:
        """Hand each match idle for the limit to a worker, to be ended as abandoned."""
        now = time.time()
        idle = self.idle.idle_since(now - self.idle_limit_s, self.settings.batch, self.partitions())
        if not idle:
            return 0
        current = self._snapshots(idle)
        for match_id in idle:
            version = current[match_id][0]
            if version is None:
                continue
            task = Task(IDLE, match_id, version)
            self.leases.take(task, now + self.settings.retry_after_s)
            new = enqueue(self.queue, task)
            JOBS.labels(IDLE, "enqueued" if new else "duplicate").inc()
        self.idle.rearm(idle, now)
        return len(idle)

    def partitions(self) -> list[int]:
        """The partitions this replica reads now: it sweeps their leases and idle matches."""
        return [self.streams[stream] for stream in self.owned]

    def _snapshots(self, match_ids: list[str]) -> dict[str, tuple[int | None, float | None, bool]]:
        """Each match's current version, turn timeout and whether it waits to be dealt
        (``deals_itself``), in one round trip."""
        pipe = self.client.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.hmget(self.log.keys(match_id).snapshot, ["version", "match"])
        current = {}
        for match_id, (version, doc) in zip(match_ids, pipe.execute(), strict=True):
            match = json.loads(doc) if doc else {}
            to_deal = match.get("status") == OPEN and deals_itself(match)
            current[match_id] = (
                int(version) if version else None,
                match.get("turn_timeout"),
                to_deal,
            )
        return current


def build(settings: Settings) -> Dispatcher:
    """The dispatcher on the store and the rq Redis ``settings`` name, with its ``BOTS_*``."""
    rq_connection = redis.Redis.from_url(
        settings.rq_url(), socket_timeout=30, socket_connect_timeout=2
    )
    return Dispatcher(
        consumer_store(settings),
        Queue(QUEUE, connection=rq_connection),
        settings.bots_dispatcher,
        settings.match_idle_limit_s,
        settings.bot_reflexes,
    )


def main() -> int:
    return run_group(
        "bots-dispatcher",
        build,
        lambda settings: settings.bots_dispatcher_metrics,
        loggers=["tapete.bots", log.name],
        doing="dispatching",
    )


if __name__ == "__main__":
    sys.exit(main())
