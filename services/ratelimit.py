"""Per-client rate limits, counted in the services' Redis by one Lua script of our own.

Each limit is a rate as the ``limits`` library parses it (``"30/minute"``,
``"5 per second;100/hour"``) and is counted for one client: an address, or a player. A
moving window: a client over it is refused with ``TooManyRequests`` (429, ``Retry-After``:
when the oldest counted request leaves the window) until then. A refused request is not
counted (as in the library's window): hammering neither shortens nor lengthens the wait.

The window is the ``limits`` library's own (a list of the latest timestamps per rate, newest
first): one script checks and counts every rate of a limit and, when one refuses, says when
its oldest request leaves the window, in one round trip on the services' own client (no
second connection pool). A limit's keys share a hash tag (``{name:client}``): one slot on a
cluster.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from limits import RateLimitItem, parse_many

from services.errors import TooManyRequests
from shared.redisconn import LuaScript

KEY_PREFIX = "tapete:limits"  # every counter's key starts so (tests leave them out of a diff)

# KEYS: one list per rate; ARGV: now, then each rate's (limit, seconds). Rates are counted in
# order, as the library's hit does one after another: a refusal stops there (the rates before
# it keep their count). Returns 0, or {the refusing rate (from 1), its oldest timestamp}.
HIT_SCRIPT = LuaScript("""
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 * i])
  local expiry = tonumber(ARGV[2 * i + 1])
  if limit < 1 then
    return {i, ARGV[1]}
  end
  local oldest = redis.call('LINDEX', key, limit - 1)
  if oldest and tonumber(oldest) >= now - expiry then
    return {i, oldest}
  end
  redis.call('LPUSH', key, ARGV[1])
  redis.call('LTRIM', key, 0, limit - 1)
  redis.call('EXPIRE', key, expiry)
end
return 0
""")


class RateLimits:
    """Named limits (``{"register": "30/minute"}``) counted in the Redis ``client`` talks to,
    checked by ``hit``."""

    def __init__(self, client: Any, rates: Mapping[str, str]) -> None:
        self.client = client
        self.rates: dict[str, list[RateLimitItem]] = {
            name: parse_many(rate) for name, rate in rates.items()
        }
        # per limit: each rate's key suffix and its (limit, seconds) arguments
        self._windows = {
            name: (
                [f"{rate.amount}/{rate.multiples}/{rate.GRANULARITY.name}" for rate in items],
                [n for rate in items for n in (rate.amount, rate.get_expiry())],
            )
            for name, items in self.rates.items()
        }

    def hit(self, name: str, client: str) -> None:
        """Count one request of ``client`` against limit ``name``; over it: TooManyRequests."""
        suffixes, windows = self._windows[name]
        tag = f"{KEY_PREFIX}:{{{name}:{client}}}:"
        now = time.time()
        refused = HIT_SCRIPT(self.client, [tag + suffix for suffix in suffixes], [now, *windows])
        if not refused:
            return
        index, oldest = refused
        rate = self.rates[name][int(index) - 1]
        reset = float(oldest) + rate.get_expiry()
        wait = max(1, math.ceil(reset - time.time()))
        raise TooManyRequests(
            f"too many requests ({name}: at most {rate}); try again in {wait} s",
            retry_after=wait,
        )
