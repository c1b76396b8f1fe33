"""Per-client rate limits, counted in the services' Redis by the ``limits`` library.

Each limit is a rate the library parses (``"30/minute"``, ``"5 per second;100/hour"``) and
is counted for one client: an address, or a player. A moving window: a client over it is
refused with ``TooManyRequests`` (429, ``Retry-After``: when the oldest counted request leaves
the window) until then. Refused requests count too, so hammering does not shorten the wait.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import redis
from limits import RateLimitItem, parse_many
from limits.storage import RedisClusterStorage, RedisStorage, Storage
from limits.strategies import MovingWindowRateLimiter

from services.errors import TooManyRequests
from shared.redisconn import is_cluster

KEY_PREFIX = "tapete:limits"  # every counter's key starts so (tests leave them out of a diff)


class RateLimits:
    """Named limits (``{"register": "30/minute"}``) counted in the Redis ``client`` talks to
    (over connections of its own: the library reads bytes), checked by ``hit``."""

    def __init__(self, client: Any, rates: Mapping[str, str]) -> None:
        storage: Storage
        if is_cluster(client):  # the library's own cluster client, on the same nodes
            nodes = ",".join(f"{node.host}:{node.port}" for node in client.get_nodes())
            auth = client.nodes_manager.connection_kwargs
            options = {k: auth[k] for k in ("username", "password") if auth.get(k)}
            storage = RedisClusterStorage(
                f"redis+cluster://{nodes}", key_prefix=KEY_PREFIX, **options
            )
        else:
            pool = client.connection_pool
            own = redis.ConnectionPool(
                connection_class=pool.connection_class,
                **{**pool.connection_kwargs, "decode_responses": False},
            )
            storage = RedisStorage("redis://", connection_pool=own, key_prefix=KEY_PREFIX)
        self.limiter = MovingWindowRateLimiter(storage)
        self.rates: dict[str, list[RateLimitItem]] = {
            name: parse_many(rate) for name, rate in rates.items()
        }

    def hit(self, name: str, client: str) -> None:
        """Count one request of ``client`` against limit ``name``; over it: TooManyRequests."""
        for rate in self.rates[name]:
            if not self.limiter.hit(rate, name, client):
                reset = self.limiter.get_window_stats(rate, name, client).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise TooManyRequests(
                    f"too many requests ({name}: at most {rate}); try again in {wait} s",
                    retry_after=wait,
                )
