"""How the services are put together: one settings object read from the environment once,
domain errors with one table of HTTP statuses, and bots that do not load Flask."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from services import errors
from services.http import ERROR_STATUS
from services.settings import DispatcherSettings, Metrics, Settings
from shared.eventstore import Durability
from shared.feedgroup import GroupSettings

ROOT = Path(__file__).resolve().parent.parent
OPERATIONS = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")


def test_only_the_settings_module_reads_the_environment():
    readers = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "services").rglob("*.py"))
        if path.name != "settings.py" and re.search(r"os\.environ|getenv", path.read_text())
    ]
    assert readers == []


def test_every_variable_read_is_documented_for_operators():
    source = (ROOT / "services" / "settings.py").read_text(encoding="utf-8")
    read = set(re.findall(r'env\.get\(\s*"([A-Z0-9_]+)"', source))
    read |= {f"{p}_{s}" for p in ("HISTORY_CONSUMER", "BOTS_DISPATCHER", "BOTS_WORKER")
             for s in ("METRICS_PORT", "METRICS_ADDR")}  # fmt: skip
    read |= {"HISTORY_CONSUMER_NAME", "BOTS_DISPATCHER_NAME"}
    read |= {f"HISTORY_{f.name.upper()}" for f in fields(GroupSettings) if f.name != "name"}
    read |= {f"BOTS_{f.name.upper()}" for f in fields(DispatcherSettings) if f.name != "name"}
    assert len(read) > 30
    missing = sorted(name for name in read if f"`{name}`" not in OPERATIONS)
    assert missing == []


def test_without_variables_every_setting_has_todays_default():
    settings = Settings.from_env({})
    assert settings.redis_url == settings.rq_redis_url == "redis://127.0.0.1:6379/0"
    assert (settings.rules_url, settings.lobby_url) == (
        "http://127.0.0.1:8001",
        "http://127.0.0.1:8000",
    )
    assert (settings.feed_partitions, settings.log_level, settings.slow_request_ms) == (
        1,
        "INFO",
        250.0,
    )
    assert (settings.gunicorn_workers, settings.gunicorn_threads) == (2, 4)
    assert settings.lobby_max_waiting == 3  # 3/4 of the threads
    assert (settings.state_key, settings.state_keys_previous) == (None, ())
    assert settings.history_consumer == GroupSettings(name=settings.history_consumer.name)
    assert settings.bots_dispatcher == DispatcherSettings(name=settings.bots_dispatcher.name)
    assert settings.bots_dispatcher.block_ms == 500 and settings.history_consumer.block_ms == 1000
    assert settings.history_consumer_metrics == Metrics(None, "0.0.0.0")
    assert (settings.bots_maintenance_s, settings.rq_log_level) == (60, "WARNING")


def test_each_variable_lands_in_its_setting():
    settings = Settings.from_env(
        {
            "REDIS_URL": "redis://store:6379/0",
            "GUNICORN_THREADS": "16",
            "FEED_PARTITIONS": "8",
            "TAPETE_STATE_KEYS_PREVIOUS": " old1, ,old2 ",
            "HISTORY_BATCH": "7",
            "HISTORY_CONSUMER_NAME": "c1",
            "BOTS_WORKER_METRICS_PORT": "9104",
            "BOTS_PAUSE_AFTER_SUBMIT_S": "1.5",
        }
    )
    assert settings.rq_redis_url == "redis://store:6379/0"  # RQ_REDIS_URL defaults to it
    assert (settings.gunicorn_threads, settings.lobby_max_waiting) == (16, 12)
    assert settings.feed_partitions == 8
    assert settings.state_keys_previous == ("old1", "old2")
    assert (settings.history_consumer.name, settings.history_consumer.batch) == ("c1", 7)
    assert settings.bots_worker_metrics == Metrics(9104, "0.0.0.0")
    assert settings.bots_pause_after_submit_s == 1.5


def test_cluster_mode_partitions_the_feed_and_wants_its_own_rq_redis():
    plain = Settings.from_env({})
    assert (plain.redis_cluster, plain.feed_partitions, plain.durability) == (
        False,
        1,
        Durability(0, False, 1000),
    )
    env = {"REDIS_CLUSTER": "yes", "RQ_REDIS_URL": "redis://rq:6379/0"}
    cluster = Settings.from_env(env)
    assert (cluster.redis_cluster, cluster.feed_partitions) == (True, 64)
    assert Settings.from_env({**env, "FEED_PARTITIONS": "16"}).feed_partitions == 16
    durable = Settings.from_env({**env, "REDIS_ACK_REPLICAS": "1", "REDIS_ACK_FSYNC": "1"})
    assert durable.durability == Durability(1, True, 1000)
    assert durable.durability.command() == ["WAITAOF", 1, 1, 1000]
    assert cluster.rq_url() == "redis://rq:6379/0"
    with pytest.raises(ValueError, match="RQ_REDIS_URL"):
        Settings.from_env({"REDIS_CLUSTER": "1"}).rq_url()  # rq cannot run on the cluster
    with pytest.raises(ValueError, match="yes/no"):
        Settings.from_env({"REDIS_ACK_FSYNC": "sometimes"})


def test_a_malformed_number_fails_at_the_start():
    with pytest.raises(ValueError):
        Settings.from_env({"FEED_PARTITIONS": "many"})


def test_every_domain_error_has_its_http_status():
    kinds = [k for k in vars(errors).values() if isinstance(k, type) and issubclass(k, Exception)]
    statuses = dict(ERROR_STATUS)
    assert {k for k in kinds if k is not errors.DomainError} <= set(statuses)
    assert errors.Conflict("x", code="stale_version").code == "stale_version"
    assert errors.NotFound("no match").code == "not_found"


def test_the_bots_and_consumers_do_not_load_flask():
    code = (
        "import sys, services.bots.jobs, services.bots.worker, services.bots.dispatcher, "
        "services.history.consumer; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'flask_smorest', "
        "'werkzeug', 'webargs', 'marshmallow'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
