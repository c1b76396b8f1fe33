"""A bot worker: an rq worker on the bots' queue, with rq's scheduler for the delayed jobs.

It is a ``SimpleWorker``: jobs run in this process, with no fork per job (a bot's turn is
two short HTTP calls; a fork would cost more than the job). SIGTERM is rq's warm
shutdown: the job in hand finishes, then the worker leaves (a second SIGTERM or SIGINT
stops it at once). Several workers share the queue; one of them at a time holds the
scheduler lock and moves due timers to the queue.

    python -m services.bots.worker   # REDIS_URL, RQ_REDIS_URL, LOBBY_URL, RULES_URL, BOTS_*
"""

from __future__ import annotations

import contextlib
import faulthandler
import logging
import os
import signal
import sys
import time
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.version import VERSION as rq_version

from services import tracing
from services.consumers import serve_metrics
from services.logs import json_logging
from services.settings import Settings
from shared.heartbeat import Heartbeat

from .jobs import use_settings
from .tasks import QUEUE

log = logging.getLogger("tapete.bots")
TTL_S = 20  # rq: the worker's key lives 80 s past a beat; an idle worker beats every 5 s
BACKOFF_MAX_S = 5.0
SCHEDULER_STOP_S = 5.0  # rq's scheduler checks for a stop each second (its interval)
STOP_STACKS_AFTER_S = 20.0  # a stop still under way this long logs every thread's stack


class BotWorker(SimpleWorker):
    """rq's worker, beating the process's heartbeat files with rq's own heartbeat: each turn
    of its loop (``alive``, even when Redis fails it), and each time Redis took the beat
    (``ready``)."""

    max_connection_wait_time = BACKOFF_MAX_S  # rq's pause between tries, doubling up to this
    tapete_heartbeat = Heartbeat(None)

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        self.tapete_heartbeat.alive()
        super().heartbeat(timeout, pipeline)
        if pipeline is None:
            self.tapete_heartbeat.ready()

    def handle_warm_shutdown_request(self) -> None:
        """rq's first SIGTERM or SIGINT. A stop that has not ended when the orchestrator's
        grace is nearly gone writes where each thread is, for whoever reads the log."""
        super().handle_warm_shutdown_request()
        faulthandler.dump_traceback_later(STOP_STACKS_AFTER_S)

    def stop_scheduler(self) -> None:
        """rq's own waits for the scheduler's process without a limit; a scheduler that does
        not stop within a few of its turns is aborted instead (its stack goes to the log by
        ``faulthandler``, then it dies), so the worker's stop stays bounded. Its locks,
        still held, are released here, so that another worker's scheduler takes over at
        its next maintenance."""
        process = self.scheduler._process if self.scheduler else None
        if process is None or process.pid is None:
            return
        aborted = False
        for signum in (signal.SIGTERM, signal.SIGABRT, signal.SIGKILL):
            if not process.is_alive():  # stopped, and reaped: its pid may be another's now
                break
            if signum != signal.SIGTERM:
                log.warning("rq's scheduler (pid %s) has not stopped: %s", process.pid, signum.name)
                aborted = True
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signum)
            process.join(SCHEDULER_STOP_S)
        if aborted:
            with contextlib.suppress(redis.RedisError):  # else they expire, a minute on
                self.scheduler.release_locks()


def wait_for_redis(connection: redis.Redis, heartbeat: Heartbeat, stop: list[bool]) -> None:
    """Until Redis answers (or a stop is asked for): rq's worker stops at once if it cannot
    register itself, and Redis may come up after the workers, or come back after an outage."""
    backoff = 0.1
    while not stop:
        heartbeat.alive()
        try:
            connection.ping()
            heartbeat.ready()
            return
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            log.warning("redis unavailable: %s; retrying in %.1fs", exc, backoff)
            time.sleep(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX_S)


def main() -> int:
    """Work until SIGTERM or SIGINT. rq's worker quits when Redis fails it outside its wait
    for a job (in a job's bookkeeping, its maintenance): then a new one takes its place,
    under a new name in rq (its old entry expires), once Redis answers again."""
    settings = Settings.from_env()
    json_logging("bots-worker", ["tapete.bots"], settings.log_level)
    faulthandler.enable()  # a crash, or the SIGABRT of a stuck scheduler, logs its stack
    tracing.setup("bots-worker", settings.otel_endpoint)  # its lobby calls and Redis commands
    connection = redis.Redis.from_url(settings.rq_url(), socket_connect_timeout=2)
    use_settings(settings)  # the jobs' connections, made once, now
    heartbeat = Heartbeat(settings.heartbeat_dir)
    BotWorker.tapete_heartbeat = heartbeat
    stop: list[bool] = []  # not empty: a stop was asked for between two rq workers

    def stopped(signum: int, _frame: Any) -> None:
        stop.append(True)

    incarnation = 0
    while True:
        incarnation += 1
        signal.signal(signal.SIGTERM, stopped)
        signal.signal(signal.SIGINT, stopped)
        wait_for_redis(connection, heartbeat, stop)
        if stop:
            return 0
        if incarnation == 1:
            serve_metrics(settings.bots_worker_metrics)
        name = settings.bots_worker_name
        worker = BotWorker(
            [Queue(QUEUE, connection=connection)],
            connection=connection,
            name=name if incarnation == 1 else f"{name}.{incarnation}",
            worker_ttl=TTL_S,
            maintenance_interval=settings.bots_maintenance_s,  # registry cleaning, scheduler
        )
        log.info("working on %s as %s (rq %s)", QUEUE, worker.name, rq_version)
        try:
            # rq logs two lines per job at INFO; its warnings and errors are enough here.
            worker.work(with_scheduler=True, logging_level=settings.rq_log_level)
        except (redis.ConnectionError, redis.TimeoutError) as exc:  # its last words failed
            log.warning("the rq worker lost redis on its way out: %s", exc)
            with contextlib.suppress(Exception):
                worker.unsubscribe()
        if worker._shutdown_requested_date is not None:  # SIGTERM, SIGINT: rq's warm shutdown
            return 0
        log.warning("the rq worker %s quit; starting another once redis answers", worker.name)


if __name__ == "__main__":
    sys.exit(main())
