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
        used = GaugeMetricFamily(
            "tapete_redis_used_memory_bytes", "Redis used_memory, per primary", labels=["node"]
        )
        limit = GaugeMetricFamily(
            "tapete_redis_maxmemory_bytes",
            "Redis maxmemory (0: no limit), per primary",
            labels=["node"],
        )
        for node, info in memory_by_node(client).items():
            used.add_metric([node], float(info["used_memory"]))
            limit.add_metric([node], float(info.get("maxmemory") or 0))
        yield used
        yield limit
        partitions = list(group.streams.values())
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
        for partition in partitions:
            pipe.xlen(dead_key(group.group, partition))
        dead = sum(int(n) for n in pipe.execute())
        backlog = GaugeMetricFamily(
            "tapete_consumer_pending",
            "notifications delivered to the group and not yet acknowledged",
            labels=["group"],
        )
        backlog.add_metric([group.group], pending)
        yield backlog
        behind = GaugeMetricFamily(
            "tapete_consumer_unread",
            "notifications in the feed not yet delivered to the group (its lag, in entries)",
            labels=["group"],
        )
        behind.add_metric([group.group], unread)
        yield behind
        letters = GaugeMetricFamily(
            "tapete_consumer_dead_letters",
            "notifications in the group's dead-letter streams (kept until an operator clears them)",
            labels=["group"],
        )
        letters.add_metric([group.group], dead)
        yield letters
        if self.queue is not None:
            queued = GaugeMetricFamily(
                "tapete_bot_queue_length", "jobs waiting in the bots' rq queue", labels=["queue"]
            )
            queued.add_metric([self.queue.name], self.queue.count)
            yield queued
