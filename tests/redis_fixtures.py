"""Pytest plugin: a real Redis for the tests (`pytest_plugins = ["tests.redis_fixtures"]`).

`redis_store` is the match store the session's services and tests share, in one of two
topologies: "single" (one server) and "cluster" (a Redis Cluster of three primaries and
three replicas, with rq on a plain server of its own, as deployed). A test module marked
`pytestmark = pytest.mark.cluster` runs on both (one cluster for the whole session); every
other test, and a test of such a module marked `one_node` (with the reason), on "single" only. With
REDIS_URL set, "single" is that server (FLUSHALLed before each test!); otherwise one embedded
server runs for the whole session on a free port, and the cluster is started on first use.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from services.settings import Settings
from services.store import match_log, store_client
from shared.eventstore import MatchLog
from shared.redis_server import EmbeddedCluster, EmbeddedRedis
from shared.redisconn import connect

TOPOLOGIES = ("single", "cluster")
CLUSTER_PARTITIONS = 8  # a few per primary: enough to spread, few to poll


@dataclass
class RedisStore:
    """Where the match store and the rq queue are, as the services' environment says it."""

    topology: str
    env: dict[str, str]  # REDIS_URL, REDIS_CLUSTER, FEED_PARTITIONS, RQ_REDIS_URL
    cluster: EmbeddedCluster | None = None
    settings: Settings = field(init=False)

    def __post_init__(self) -> None:
        self.settings = Settings.from_env(self.env)

    @property
    def url(self) -> str:
        return self.env["REDIS_URL"]

    @property
    def rq_url(self) -> str:
        return self.env["RQ_REDIS_URL"]

    def client(self, **options: Any) -> Any:
        """A client (str replies) of the store: a cluster client on the cluster."""
        return store_client(self.settings, **options)

    def log(self, client: Any) -> MatchLog:
        """The match log as the services see it (their partitions)."""
        return match_log(self.settings, client)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "cluster: run on a single Redis and on a Redis Cluster")
    config.addinivalue_line("markers", "one_node(reason): in a cluster module, one node only")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "redis_store" in metafunc.fixturenames:
        definition = metafunc.definition
        both = definition.get_closest_marker("cluster") is not None
        both = both and definition.get_closest_marker("one_node") is None
        topologies = TOPOLOGIES if both else TOPOLOGIES[:1]
        metafunc.parametrize("redis_store", topologies, indirect=True, scope="session")


@pytest.fixture(scope="session")
def _single_redis() -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url and os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.exit("REDIS_URL is flushed before each test: run without xdist (-p no:xdist)", 2)
    if url:
        yield url
        return
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture(scope="session")
def _redis_cluster() -> Iterator[tuple[EmbeddedCluster, str]]:
    """Three primaries, three replicas; and rq's own plain server."""
    with EmbeddedCluster() as cluster, EmbeddedRedis() as rq:
        yield cluster, rq.url


@pytest.fixture(scope="session")
def redis_store(request: pytest.FixtureRequest) -> RedisStore:
    if request.param == "single":
        url = request.getfixturevalue("_single_redis")
        return RedisStore("single", {"REDIS_URL": url, "RQ_REDIS_URL": url})
    cluster, rq_url = request.getfixturevalue("_redis_cluster")
    env = {
        "REDIS_URL": cluster.url,
        "REDIS_CLUSTER": "1",
        "FEED_PARTITIONS": str(CLUSTER_PARTITIONS),
        "RQ_REDIS_URL": rq_url,
    }
    return RedisStore("cluster", env, cluster)


@pytest.fixture(scope="session")
def redis_url(redis_store: RedisStore) -> str:
    """URL of the Redis the whole session uses (a node of the cluster, on the cluster)."""
    return redis_store.url


@pytest.fixture
def redis_client(redis_store: RedisStore) -> Iterator[Any]:
    """A client on an empty store (every primary of a cluster, and rq's server, flushed):
    each test starts from a clean slate."""
    client = redis_store.client()
    client.flushall()
    if redis_store.rq_url != redis_store.url:
        rq = connect(redis_store.rq_url)
        rq.flushall()
        rq.close()
    yield client
    client.close()


@pytest.fixture
def store_log(redis_store: RedisStore, redis_client: Any) -> MatchLog:
    """The match log on the emptied store, with the services' partitions."""
    return redis_store.log(redis_client)
