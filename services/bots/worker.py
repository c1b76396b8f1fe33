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
import os
import socket
import sys
import time

import redis
from prometheus_client import start_http_server
from rq import Queue, SimpleWorker
from rq.version import VERSION as rq_version

from services.http import JsonLogFormatter

from .jobs import DEFAULT_REDIS_URL, context
from .tasks import QUEUE

MAINTENANCE_INTERVAL_S = 60  # rq's registry cleaning, and a new scheduler after one died


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
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLogFormatter("bots-worker"))
    logger = logging.getLogger("tapete.bots")
    logger.handlers = [handler]
    logger.setLevel(os.environ.get("LOG_LEVEL", "INFO"))
    logger.propagate = False
    url = os.environ.get("RQ_REDIS_URL") or os.environ.get("REDIS_URL", DEFAULT_REDIS_URL)
    connection = redis.Redis.from_url(url, socket_connect_timeout=2)
    context()  # made now, so that a malformed setting fails at start rather than in every job
    wait_for_redis(connection)
    metrics_port = os.environ.get("BOTS_WORKER_METRICS_PORT")
    if metrics_port:
        start_http_server(
            int(metrics_port), addr=os.environ.get("BOTS_WORKER_METRICS_ADDR", "0.0.0.0")
        )
    worker = SimpleWorker(
        [Queue(QUEUE, connection=connection)],
        connection=connection,
        name=os.environ.get("BOTS_WORKER_NAME") or f"{socket.gethostname()}-{os.getpid()}",
        maintenance_interval=int(os.environ.get("BOTS_MAINTENANCE_S", MAINTENANCE_INTERVAL_S)),
    )
    logger.info("working on %s (rq %s)", QUEUE, rq_version)
    # rq logs two lines per job at INFO; its warnings and errors are enough here.
    worker.work(with_scheduler=True, logging_level=os.environ.get("RQ_LOG_LEVEL", "WARNING"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
