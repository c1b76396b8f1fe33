"""The processes without HTTP outlive Redis and tell how they are: a bot worker, the bot
dispatcher and the history consumer, as real processes on a Redis of their own that is
killed with SIGKILL (once in the middle of a job) and started again, carry on working; their
heartbeat files (shared/heartbeat.py, what the Kubernetes probes check) show the loop
turning through the outage, Redis answering again after it, and a process frozen with
SIGSTOP as stuck."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq import Queue

from services.bots.tasks import QUEUE
from shared.heartbeat import ALIVE, READY, age
from shared.redis_server import EmbeddedRedis
from tests.bots_fixtures import TEST_BOTS_ENV, BotProcess
from tests.history_fixtures import ConsumerProcess
from tests.service_fixtures import ROOT, wait_until


def probe(path: Path, max_age: float) -> bool:
    """The probes' own command, as the manifests run it."""
    command = [sys.executable, "-m", "shared.heartbeat", str(path), str(max_age)]
    return subprocess.run(command, cwd=ROOT, capture_output=True).returncode == 0


@pytest.fixture
def own_redis() -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis()
    server.start()
    yield server
    server.stop()


def sigkill(server: EmbeddedRedis) -> None:
    assert server.process is not None
    server.process.kill()
    server.process.wait()
    server.process = None


def test_worker_dispatcher_and_consumer_outlive_redis(own_redis: EmbeddedRedis, tmp_path: Path):
    url = own_redis.url
    health = {name: tmp_path / name for name in ("worker", "dispatcher", "consumer")}
    env = {**os.environ, **TEST_BOTS_ENV, "REDIS_URL": url, "RQ_REDIS_URL": url}
    worker = BotProcess(
        "worker", "w", {**env, "BOTS_WORKER_NAME": "w", "HEARTBEAT_DIR": str(health["worker"])}
    )
    dispatcher = BotProcess(
        "dispatcher",
        "d",
        {**env, "BOTS_DISPATCHER_NAME": "d", "HEARTBEAT_DIR": str(health["dispatcher"])},
    )
    consumer = ConsumerProcess("c", url, {"HEARTBEAT_DIR": str(health["consumer"])})
    processes = {"worker": worker.process, "dispatcher": dispatcher.process}
    processes["consumer"] = consumer.process
    try:
        for folder in health.values():
            wait_until(lambda f=folder: age(f / READY) < 5, what=f"{folder.name} ready")
        client = redis.Redis.from_url(url)
        job = Queue(QUEUE, connection=client).enqueue("time.sleep", 2)
        wait_until(lambda: job.get_status(refresh=True) == "started", what="the job to start")

        sigkill(own_redis)  # in the middle of the worker's job
        time.sleep(3)
        for name, folder in health.items():
            assert processes[name].poll() is None, f"{name} exited with Redis gone"
            assert probe(folder / ALIVE, 5.5), f"{name}: its loop stopped turning"
            assert not probe(folder / READY, 2.5), f"{name}: ready without Redis"

        own_redis.start()  # same port, empty: queues and groups are gone too
        for name, folder in health.items():
            wait_until(lambda f=folder: probe(f / READY, 1.5), what=f"{name} ready again")
            assert processes[name].poll() is None, name
        again = Queue(QUEUE, connection=client).enqueue("time.sleep", 0)
        wait_until(lambda: again.get_status(refresh=True) == "finished", what="a job done")
        groups = {g["name"]: g for g in client.xinfo_groups("tapete:{p0}:feed")}
        assert {b"history", b"bots"} <= set(groups)  # both read the feed again

        for process in processes.values():  # frozen: the liveness probe sees it
            process.send_signal(19)  # SIGSTOP
        time.sleep(2.5)
        assert not any(probe(folder / ALIVE, 2) for folder in health.values())
        for process in processes.values():
            process.send_signal(18)  # SIGCONT
        for name, folder in health.items():
            # an idle worker's loop turns every 5 s (rq's wait for a job)
            wait_until(lambda f=folder: probe(f / ALIVE, 6), what=f"{name} alive again")
    finally:
        worker.stop()
        dispatcher.stop()
        consumer.stop()
