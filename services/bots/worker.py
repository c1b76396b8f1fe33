"""A bot worker: an rq worker on the bots' queue, with rq's scheduler for the delayed jobs.

It is a ``SimpleWorker``: jobs run in this process, with no fork per job (a bot's turn is
two short HTTP calls; a fork would cost more than the job). SIGTERM is rq's warm
shutdown: the job in hand finishes, then the worker leaves (a second SIGTERM or SIGINT
stops it at once). Several workers share the queue; one of them at a time holds the
scheduler lock and moves due timers to the queue.

    python -m services.bots.worker   # REDIS_URL, RQ_REDIS_URL, LOBBY_URL, RULES_URL, BOTS_*
"""

from __future__ import annotations

import logging
import sys
import time

import redis
from rq import Queue, SimpleWorker
from rq.version import VERSION as rq_version

from services.consumers import serve_metrics
from services.logs import json_logging
from services.settings import Settings

from .jobs import use_settings
from .tasks import QUEUE


def wait_for_redis(connection: redis.Redis) -> None:
    """Until Redis answers: rq's worker stops at once if it cannot register itself, and under
    ``make run`` (or a fresh deployment) Redis may come up after the workers."""
    backoff = 0.1
    while True:
        try:
            connection.ping()
            return
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            logging.getLogger("tapete.bots").warning("redis unavailable: %s; retrying", exc)
            time.sleep(backoff)
            backoff = min(backoff * 2, 5.0)


def main() -> int:
    settings = Settings.from_env()
    json_logging("bots-worker", ["tapete.bots"], settings.log_level)
    logger = logging.getLogger("tapete.bots")
    connection = redis.Redis.from_url(settings.rq_url(), socket_connect_timeout=2)
    use_settings(settings)  # the jobs' connections, made once, now
    wait_for_redis(connection)
    serve_metrics(settings.bots_worker_metrics)
    worker = SimpleWorker(
        [Queue(QUEUE, connection=connection)],
        connection=connection,
        name=settings.bots_worker_name,
        maintenance_interval=settings.bots_maintenance_s,  # rq's registry cleaning, scheduler
    )
    logger.info("working on %s (rq %s)", QUEUE, rq_version)
    # rq logs two lines per job at INFO; its warnings and errors are enough here.
    worker.work(with_scheduler=True, logging_level=settings.rq_log_level)
    return 0


if __name__ == "__main__":
    sys.exit(main())
