"""The one ``main`` of the processes that run a consumer-group loop (``shared/feedgroup.py``):
the history consumer and the bot dispatcher.

Each names what differs (its service name for the logs, its loggers, how to build its
group from the settings, where it serves its metrics); the rest is here: the settings read
once from the environment, JSON logs, the metrics port, the heartbeat files, SIGTERM and SIGINT (finish what is
in hand, then leave) and the loop itself. No Flask here.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from typing import Any

from prometheus_client import REGISTRY, start_http_server

from services import tracing
from services.logs import json_logging
from services.settings import Metrics, Settings
from services.store import match_log, store_client
from services.store_metrics import StoreCollector
from shared.eventstore import MatchLog
from shared.feedgroup import FeedGroup
from shared.heartbeat import Heartbeat


def consumer_store(settings: Settings) -> MatchLog:
    """The match store as a consumer reads it: a blocking read waits at most a few seconds."""
    client = store_client(settings, socket_timeout=30, socket_connect_timeout=2)
    return match_log(settings, client)


def serve_metrics(metrics: Metrics) -> None:
    """Serve this process's ``/metrics`` where ``metrics`` says, if it says anywhere."""
    if metrics.port is not None:
        start_http_server(metrics.port, addr=metrics.addr)


def run_group(
    service: str,
    build: Callable[[Settings], FeedGroup],
    metrics: Callable[[Settings], Metrics],
    loggers: Sequence[str],
    doing: str,
) -> int:
    """Build the group from the environment's settings and consume until SIGTERM or SIGINT.

    ``doing`` starts the log line that says the loop has started ("consuming", ...)."""
    settings = Settings.for_process(service)  # or MissingSecret: one line, exit 1
    json_logging(service, list(loggers), settings.log_level)
    tracing.setup(service, settings.otel_endpoint)  # off without an OTLP endpoint
    group = build(settings)
    group.heartbeat = Heartbeat(settings.heartbeat_dir)  # the probes' (docs/operations.md)
    REGISTRY.register(StoreCollector(group, getattr(group, "queue", None)))  # read at a scrape
    serve_metrics(metrics(settings))

    def stop(signum: int, _frame: Any) -> None:
        group.stopping = True  # finish the batch in hand, then leave

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    group.logger.info("%s %s as %s", doing, ", ".join(group.streams), group.settings.name)
    group.run()
    return 0
