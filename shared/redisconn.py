"""One way to open the match store, on a single Redis or a Redis Cluster, and the few things
that differ between the two for Tapete's code.

Every process opens the store with ``connect``: ``redis.Redis`` on one node, else
``redis.cluster.RedisCluster``, which routes each command to the primary of its key's slot
and follows failovers. Keyed commands, WATCH/MULTI over one slot, Lua scripts over one slot
and non-transactional pipelines behave the same on both. What does not:

* one XREAD/XREADGROUP over streams of several slots is refused on a cluster (CROSSSLOT), so
  ``read_streams`` polls them in one pipeline per node instead of blocking in one call;
* WAIT and WAITAOF count what the *connection* wrote, so ``node_client`` gives the client
  of the primary that owns a key, to write and wait on the same connection.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Mapping
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.exceptions import ClusterDownError, SlotNotCoveredError, TryAgainError

UNAVAILABLE = (
    redis.ConnectionError,
    redis.TimeoutError,
    ClusterDownError,  # a failover under way: no primary for a slot yet
    TryAgainError,
    SlotNotCoveredError,
)  # what a caller waits out (or answers 503 to), rather than a defect
POLL_SECONDS = 0.05  # on a cluster, how often an idle reader of many streams looks again


def connect(url: str, cluster: bool = False, max_connections: int | None = None, **options: Any):
    """A client of the store at ``url``: a cluster client when ``cluster``, and then ``url``
    names any one node. ``max_connections``: a blocking pool of that size per node (a caller
    past it waits for a free connection rather than failing). ``options`` go to every
    connection (``decode_responses``, timeouts...)."""
    if cluster:
        if max_connections is not None:
            options |= {
                "connection_pool_class": redis.BlockingConnectionPool,
                "max_connections": max_connections,
            }
        return RedisCluster.from_url(url, **options)
    if max_connections is None:
        return redis.Redis.from_url(url, **options)
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=max_connections, **options)
    return redis.Redis(connection_pool=pool)


class LuaScript:
    """A Lua script called by its SHA in one command (EVALSHA), loaded (SCRIPT LOAD, on every
    primary of a cluster) and called again only when the server does not know it yet (after a
    restart or a failover). Not EVAL: the deployed ACL user may run only loaded scripts
    (``-@scripting +evalsha +script|load``, k8s/overlays/dev/redis.yaml).

    Needs no ``register_script`` on a client, so a module can hold it and call it on any
    ``redis.Redis`` or cluster client (a cluster routes EVALSHA by its keys, which must
    share a slot); it runs outside pipelines only."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()

    def __call__(self, client: Any, keys: list[str], args: list[Any]) -> Any:
        try:
            return client.execute_command("EVALSHA", self.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:
            client.script_load(self.source)
            return client.execute_command("EVALSHA", self.sha, len(keys), *keys, *args)


def is_cluster(client: Any) -> bool:
    return isinstance(client, RedisCluster)


def node_client(client: Any, key: str) -> redis.Redis:
    """The plain client of the node that serves ``key`` (``client`` itself on one node)."""
    if not is_cluster(client):
        return client
    return client.get_redis_connection(client.get_node_from_key(key))


def refresh_topology(client: Any) -> None:
    """After a failover or a MOVED: learn again which node serves which slot (best effort)."""
    if is_cluster(client):
        with contextlib.suppress(redis.RedisError):  # the next command tries again
            client.nodes_manager.initialize()


def read_streams(
    client: Any,
    streams: Mapping[str, str],
    count: int,
    block_ms: int,
    group: tuple[str, str] | None = None,
) -> list[tuple[str, list]]:
    """XREAD (or XREADGROUP as ``group`` = (group, consumer)) of ``streams`` (key -> last id),
    waiting up to ``block_ms`` for something new; a list of (key, rows).

    One node: one blocking command. A cluster refuses a read across slots, so every stream
    is read without blocking, in one pipeline (one round trip per node), again every
    ``POLL_SECONDS`` until something comes or the time is up."""
    if not streams:
        time.sleep(block_ms / 1000)
        return []
    if not is_cluster(client):
        return _rows(_read(client, dict(streams), count, block_ms, group))
    deadline = time.monotonic() + block_ms / 1000
    while True:
        pipe = client.pipeline(transaction=False)
        for key, last in streams.items():
            _read(pipe, {key: last}, count, None, group)
        found = [row for reply in pipe.execute() for row in _rows(reply) if row[1]]
        left = deadline - time.monotonic()
        if found or left <= 0:
            return found
        time.sleep(min(POLL_SECONDS, left))


def latest_ids(client: Any, keys: list[str]) -> dict[str, str]:
    """Each stream's last id now ("0-0" when empty): where a reader that wants only what
    comes next starts (XREAD's "$" means nothing without blocking, as on a cluster)."""
    pipe = client.pipeline(transaction=False)
    for key in keys:
        pipe.xrevrange(key, count=1)
    return {
        key: (rows[0][0] if rows else "0-0") for key, rows in zip(keys, pipe.execute(), strict=True)
    }


def _read(
    client: Any, streams: dict, count: int, block_ms: int | None, group: tuple[str, str] | None
) -> Any:
    if group is None:
        return client.xread(streams, count=count, block=block_ms)
    return client.xreadgroup(group[0], group[1], streams, count=count, block=block_ms)


def _rows(reply: Any) -> list[tuple[str, list]]:
    """A stream read's reply as (key, rows), in RESP2 (a list) and RESP3 (a dict) alike."""
    return list(reply.items() if isinstance(reply, dict) else (reply or []))
