"""The match store as ``Settings`` describe it: one client factory and one ``MatchLog`` for
every service (lobby, history, consumer, dispatcher, workers), on one node or a cluster."""

from __future__ import annotations

from typing import Any

from services import tracing
from services.settings import Settings
from shared.eventstore import MatchLog
from shared.redisconn import connect


def store_client(settings: Settings, **options: Any) -> Any:
    """A client of ``REDIS_URL`` (a cluster client with ``REDIS_CLUSTER``); ``options`` as
    ``shared.redisconn.connect`` takes them. Always decodes replies to str."""
    return connect(settings.redis_url, settings.redis_cluster, decode_responses=True, **options)


def match_log(settings: Settings, client: Any) -> MatchLog:
    """The match log on ``client`` with the settings' partitions and durability; each feed
    notification carries the trace context of its append when tracing is on."""
    return MatchLog(
        client,
        partitions=settings.feed_partitions,
        durability=settings.durability,
        notification_fields=tracing.notification_fields,
    )
