"""Pytest plugin: a real Redis for the tests (`pytest_plugins = ["tests.redis_fixtures"]`).

With REDIS_URL set the tests use that server (and FLUSHALL it before each test!); otherwise
one embedded server runs for the whole session on a free port.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis

from shared.redis_server import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """URL of the Redis the whole session uses."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client on an empty database: each test starts from a clean slate."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushall()
    yield client
    client.close()
