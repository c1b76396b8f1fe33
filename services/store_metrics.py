"""What the match store holds that an operator watches, read from Redis at each scrape.

The history consumer and the bot dispatcher serve these on their metrics port with their
own metrics (``services/consumers.py``): Redis' memory against its ``maxmemory`` (per
primary), their consumer group's backlog (pending notifications) and dead letters, and the
dispatcher's rq queue length. Every replica reports the same store, so the dashboards and
alerts take the ``max`` over replicas. A scrape that finds Redis away reports nothing for
these (the process's own metrics still come), rather than failing the scrape.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import redis
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from shared.feedgroup import FeedGroup, dead_key
from shared.redisconn import UNAVAILABLE, is_cluster

log = logging.getLogger("tapete.metrics")


def memory_by_node(client: Any) -> dict[str, dict[str, Any]]:
    """``INFO memory`` of every primary (one node: the server itself), by node name."""
    if not is_cluster(client):
        return {"redis": client.info("memory")}
    return {node.name: client.info("memory", target_nodes=node) for node in client.get_primaries()}


class StoreCollector(Collector):
    """Reads the store when Prometheus scrapes: a few commands, one per partition at most."""

    def __init__(self, group: FeedGroup, queue: Any = None) -> None:
        """``queue``: the rq queue whose length to report (the dispatcher's), or None."""
        self.group = group
        self.queue = queue

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            yield from self._read()
        except (*UNAVAILABLE, redis.ResponseError) as exc:
            log.warning("store metrics not read: %r", exc)

    def _read(self) -> Iterator[GaugeMetricFamily]:
        group, client = self.group, self.group.client
        memory = memory_by_node(client)
        yield gauge(
            "tapete_redis_used_memory_bytes", "Redis used_memory, per primary", "node",
            {node: float(info["used_memory"]) for node, info in memory.items()},
        )  # fmt: skip
        yield gauge(
            "tapete_redis_maxmemory_bytes", "Redis maxmemory (0: no limit), per primary", "node",
            {node: float(info.get("maxmemory") or 0) for node, info in memory.items()},
        )  # fmt: skip
        pipe = client.pipeline(transaction=False)
        for stream in group.streams:
            pipe.exists(stream)
        exists = pipe.execute()
        pipe = client.pipeline(transaction=False)
        for stream, present in zip(group.streams, exists, strict=True):
            if present:
                pipe.xinfo_groups(stream)
        pending = unread = 0
        for groups in pipe.execute():
            for found in (g for g in groups if g["name"] == group.group):
                pending += int(found["pending"])
                unread += int(found.get("lag") or 0)  # None: Redis cannot tell (after a trim)
        pipe = client.pipeline(transaction=False)
        for partition in group.streams.values():
            pipe.xlen(dead_key(group.group, partition))
        dead = sum(int(n) for n in pipe.execute())
        name = group.group
        yield gauge(
            "tapete_consumer_pending",
            "notifications delivered to the group and not yet acknowledged", "group", {name: pending},
        )  # fmt: skip
        yield gauge(
            "tapete_consumer_unread",
            "notifications in the feed not yet delivered to the group (its lag, in entries)",
            "group", {name: unread},
        )  # fmt: skip
        yield gauge(
            "tapete_consumer_dead_letters",
            "notifications in the group's dead-letter streams (kept until an operator clears them)",
            "group", {name: dead},
        )  # fmt: skip
        if self.queue is not None:
            yield gauge(
                "tapete_bot_queue_length", "jobs waiting in the bots' rq queue", "queue",
                {self.queue.name: self.queue.count},
            )  # fmt: skip


def gauge(name: str, documentation: str, label: str, values: dict[str, float]) -> GaugeMetricFamily:
    """One gauge family with one label, a sample per value."""
    family = GaugeMetricFamily(name, documentation, labels=[label])
    for key, value in values.items():
        family.add_metric([key], value)
    return family
