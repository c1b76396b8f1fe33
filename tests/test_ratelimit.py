"""The rate limits' own moving window (services/ratelimit.py) on a real Redis, single and
cluster: every rate of a limit counted in one script, in order, a refusal's wait from the
oldest counted request, and a server that forgot the script (NOSCRIPT) still counted.
The limits at their defaults, through the lobby's API, are in test_limits.py."""

from __future__ import annotations

from typing import Any

import pytest

from services.errors import TooManyRequests
from services.ratelimit import KEY_PREFIX, RateLimits

pytestmark = pytest.mark.cluster


def refusal(limits: RateLimits, name: str, client: str) -> TooManyRequests:
    with pytest.raises(TooManyRequests) as refused:
        limits.hit(name, client)
    return refused.value


def test_a_limit_refuses_past_its_rate_with_the_wait_until_its_oldest_request_leaves(
    redis_client: Any,
):
    limits = RateLimits(redis_client, {"moves": "2/minute"})
    limits.hit("moves", "ana")
    limits.hit("moves", "ana")
    refused = refusal(limits, "moves", "ana")
    assert refused.retry_after in (59, 60) and "2 per 1 minute" in str(refused)
    limits.hit("moves", "bea")  # another client's count is her own
    keys = sorted(redis_client.scan_iter(f"{KEY_PREFIX}:*"))
    assert keys == [
        f"{KEY_PREFIX}:{{moves:ana}}:2/1/minute",
        f"{KEY_PREFIX}:{{moves:bea}}:2/1/minute",
    ]
    assert redis_client.llen(keys[0]) == 2  # the refused request is not a third entry
    assert 0 < redis_client.ttl(keys[0]) <= 60


def test_every_rate_of_a_limit_counts_in_order_and_the_first_to_refuse_answers(
    redis_client: Any,
):
    limits = RateLimits(redis_client, {"new": "5/minute;2/hour"})
    limits.hit("new", "ana")
    limits.hit("new", "ana")
    refused = refusal(limits, "new", "ana")  # the minute counted it, the hour refused it
    assert 3590 <= refused.retry_after <= 3600 and "2 per 1 hour" in str(refused)
    minute, hour = (f"{KEY_PREFIX}:{{new:ana}}:{rate}" for rate in ("5/1/minute", "2/1/hour"))
    assert (redis_client.llen(minute), redis_client.llen(hour)) == (3, 2)


def test_a_server_that_forgot_the_script_still_counts(redis_client: Any):
    limits = RateLimits(redis_client, {"moves": "1/minute"})
    redis_client.script_flush()  # as after a restart or a failover to a fresh replica
    limits.hit("moves", "ana")
    assert refusal(limits, "moves", "ana").retry_after in (59, 60)
