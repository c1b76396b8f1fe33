"""Pytest plugin: the history service (gunicorn) and its consumer as REAL processes.

`history_service` is a session fixture like the lobby's (tests/service_fixtures.py).
`consumers` starts consumer processes for one test (`consumers.start(name)`), each
killable with SIGKILL, and stops whatever is left at the end of the test. The helpers
below read the read models back, to wait for them and to compare two runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import redis

from services.history.consumer import GROUP
from services.history.store import JOURNAL_NAME, MARKS_NAME, PATTERN, ReadModels
from shared.eventstore import MatchLog
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import ROOT, Http, Service, session, stop_process

# Quick retries, so a poison reaches the dead letters in about a second.
TEST_CONSUMER_ENV = {
    "HISTORY_MIN_IDLE_MS": "300",
    "HISTORY_CLAIM_EVERY_S": "0.1",
    "HISTORY_MAX_DELIVERIES": "3",
    "HISTORY_BLOCK_MS": "100",
}


@pytest.fixture(scope="session")
def history_service(redis_store: RedisStore) -> Iterator[Service]:
    service = Service("history", "services.history.wsgi:app", redis_store.env)
    service.start()
    yield service
    service.stop()


class ConsumerProcess:
    """`python -m services.history.consumer` under a fixed consumer name."""

    def __init__(self, name: str, store: RedisStore | str, env: dict[str, str]) -> None:
        """``store``: the session's, or the URL of a Redis of the test's own."""
        self.name = name
        where = store.env if isinstance(store, RedisStore) else {"REDIS_URL": store}
        self.env = {**os.environ, **TEST_CONSUMER_ENV, **env, **where}
        self.env.update(HISTORY_CONSUMER_NAME=name)
        self.log_path = Path(tempfile.mkstemp(prefix=f"tapete-{name}-", suffix=".log")[1])
        command = [sys.executable, "-m", "services.history.consumer"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )

    def pause(self) -> None:
        """SIGSTOP: frozen where it is, so what it holds can be looked at."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL: no chance to finish or acknowledge anything."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        stop_process(self.process, timeout=10)

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


class Consumers:
    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.started: list[ConsumerProcess] = []

    def start(self, name: str, **env: str) -> ConsumerProcess:
        process = ConsumerProcess(name, self.store, env)
        self.started.append(process)
        return process

    def stop_all(self) -> None:
        for process in self.started:
            process.stop()


@pytest.fixture
def history(history_service: Service) -> Http:
    """The history service over HTTP."""
    return Http(session(), history_service.url)


@pytest.fixture
def consumers(redis_store: RedisStore) -> Iterator[Consumers]:
    running = Consumers(redis_store)
    yield running
    running.stop_all()


# -- reading the read models back ------------------------------------------------------------
def applied_version(log: MatchLog, match_id: str) -> int:
    summary = ReadModels(log.client, log).summary(match_id)
    return int(summary["version"]) if summary else 0


def wait_applied(
    log: MatchLog,
    match_ids: list[str],
    timeout: float = 60.0,
    consumer: ConsumerProcess | None = None,
) -> None:
    """Until every match's summary has reached the last version of its log."""
    deadline = time.monotonic() + timeout
    while True:
        behind = [m for m in match_ids if applied_version(log, m) < log.entries(m)[-1]["version"]]
        if not behind:
            return
        if consumer is not None and consumer.process.poll() is not None:
            raise AssertionError(f"the consumer died:\n{consumer.log_tail()}")
        if time.monotonic() > deadline:
            tail = consumer.log_tail() if consumer else ""
            raise AssertionError(f"matches not applied in time: {behind}\n{tail}")
        time.sleep(0.05)


# History keys that are not read models: what depends on how the notifications were batched
# (the journal, the players' marks), and the consumer group's dead letters.
NOT_READ_MODELS = (JOURNAL_NAME, MARKS_NAME, f"{GROUP}:dead", f"{GROUP}:errors")


def read_models(client: redis.Redis) -> dict[str, Any]:
    """Every history read model, decoded: to compare two runs exactly."""
    out: dict[str, Any] = {}
    for key in sorted(client.scan_iter(match=PATTERN, count=500)):  # every node of a cluster
        if key.endswith(NOT_READ_MODELS):
            continue
        kind = client.type(key)
        if kind == "string":
            out[key] = json.loads(cast(str, client.get(key)))
        elif kind == "hash":
            fields = cast(dict, client.hgetall(key))
            out[key] = {k: json.loads(v) for k, v in fields.items()}
        elif kind == "zset":
            out[key] = client.zrange(key, 0, -1, withscores=True)
        elif kind == "set":
            out[key] = sorted(cast(set, client.smembers(key)))
        else:
            out[key] = kind
    return out


def same_up_to_rating_order(log: MatchLog, left: dict[str, Any], right: dict[str, Any]) -> bool:
    """Two runs' read models are equal, key by key; on several partitions, whose finishes a
    consumer may apply in another order, the ratings only by each player's matches and wins
    (a rating depends on the order of the finishes it counts)."""
    if log.partitions == 1:
        return left == right

    def counted(models: dict[str, Any]) -> dict[str, Any]:
        out = dict(models)
        for key, value in models.items():
            if key.endswith(":history:ratings"):
                out[key] = {p: (r["matches"], r["wins"]) for p, r in value.items()}
            elif key.endswith(":history:leaderboard"):
                out[key] = sorted(player for player, _ in value)
        return out

    return counted(left) == counted(right)


def forget_read_models(log: MatchLog) -> None:
    """Drop every read model and the group: the next consumer rebuilds from the first entry."""
    client = log.client
    for key in list(client.scan_iter(match=PATTERN, count=500)):  # every node of a cluster
        client.delete(key)  # one at a time: they hash apart
    for partition in range(log.partitions):
        feed = log.feed_key(partition)
        if client.exists(feed):
            with contextlib.suppress(redis.ResponseError):
                client.xgroup_destroy(feed, GROUP)
