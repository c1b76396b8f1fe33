"""Secrets and what processes on one host share: the rules service refuses to start without
its state key outside development mode; Redis, as Compose and Kubernetes start it, admits
only its ACL user, whose password the services take from REDIS_PASSWORD; and each gunicorn
runs without a control socket, so stopping one gunicorn cannot take another's away."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
import requests
import yaml

from services.rules import seal
from services.rules.app import create_rules_app
from services.settings import Settings
from shared.heartbeat import READY, age
from shared.redis_server import free_port, server_binary
from tests.history_fixtures import ConsumerProcess
from tests.service_fixtures import ROOT, Service, stop_process, wait_until


def ping(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


def test_without_a_state_key_the_rules_app_is_refused_outside_development():
    with pytest.raises(seal.MissingKey, match="TAPETE_STATE_KEY is not set"):
        create_rules_app(settings=Settings(state_key=None, dev=False))
    create_rules_app(settings=Settings(state_key=None, dev=True))  # make run, the tests
    assert seal.DEV_KEY.encode() == seal.KEY
    create_rules_app(settings=Settings(state_key="k1", dev=False))
    assert seal.KEY == b"k1"


def test_development_mode_is_an_explicit_setting():
    assert Settings.from_env({}).dev is False
    assert Settings.from_env({"TAPETE_DEV": "1"}).dev is True
    assert Settings.from_env({"TAPETE_DEV": "0"}).dev is False


def test_a_rules_process_without_a_state_key_does_not_start():
    """What gunicorn loads (``services.rules.wsgi``) stops with the reason, in a process
    whose environment has no key and no development mode."""
    env = {k: v for k, v in os.environ.items() if k not in ("TAPETE_DEV", "TAPETE_STATE_KEY")}
    done = subprocess.run(
        [sys.executable, "-c", "import services.rules.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "MissingKey: TAPETE_STATE_KEY is not set" in done.stderr


def test_gunicorns_on_one_host_share_no_control_socket(tmp_path: Path):
    """Two gunicorns of one user, with the services' settings: neither makes a control socket
    (by default both would use $HOME/.gunicorn/gunicorn.ctl, and the first to stop would
    delete the other's). A tiny app keeps it quick: the settings are what is tested."""
    env = {"HOME": str(tmp_path), "XDG_RUNTIME_DIR": "", "GUNICORN_WORKERS": "1"}
    first = Service("tiny", "tests.tiny_wsgi:app", env)
    second = Service("tiny", "tests.tiny_wsgi:app", env)
    first.start()
    try:
        second.start()
        try:
            assert list(tmp_path.rglob("*.ctl")) == []
            first.stop()
            assert requests.get(f"{second.url}/readyz", timeout=5).status_code == 200
            assert "control" not in second.log_path.read_text().lower()
        finally:
            second.stop()
    finally:
        first.stop()


# -- Redis with a password ----------------------------------------------------------------------
def test_the_services_put_redis_password_into_their_redis_urls():
    env = {"REDIS_URL": "redis://tapete@redis:6379/0", "REDIS_PASSWORD": "p@ss/w:rd"}
    settings = Settings.from_env(env)
    assert settings.redis_url == "redis://tapete:p%40ss%2Fw%3Ard@redis:6379/0"
    assert settings.rq_redis_url == settings.redis_url  # RQ_REDIS_URL defaults to it
    env |= {"RQ_REDIS_URL": "rediss://rq:6379/1"}
    assert Settings.from_env(env).rq_redis_url == "rediss://default:p%40ss%2Fw%3Ard@rq:6379/1"
    given = "rediss://u:given@redis:6379/0"  # a URL with its own password keeps it
    assert Settings.from_env({"REDIS_URL": given, "REDIS_PASSWORD": "x"}).redis_url == given
    assert Settings.from_env({}).redis_url == "redis://127.0.0.1:6379/0"


def compose_redis_command() -> list[str]:
    """The Compose file's Redis command, as Compose runs it (``$$`` is one ``$``)."""
    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["redis"]
    return [part.replace("$$", "$") for part in command["command"]]


def k8s_redis_command() -> list[str]:
    """The dev overlay's Redis command, as Kubernetes expands it (``$$`` is one ``$`` too)."""
    docs = yaml.safe_load_all((ROOT / "k8s/overlays/dev/redis.yaml").read_text())
    [redis_set] = [doc for doc in docs if doc["kind"] == "StatefulSet"]
    [container] = redis_set["spec"]["template"]["spec"]["containers"]
    env = [e["name"] for e in container["env"]]
    assert env == ["REDIS_PASSWORD"]
    return [part.replace("$$", "$") for part in container["command"]]


def test_compose_and_kubernetes_start_redis_with_the_same_acl():
    compose, k8s = compose_redis_command(), k8s_redis_command()
    assert compose[:4] == k8s[:4]  # sh -c SCRIPT redis-server, then each one's flags
    assert "user default off" in compose[2] and "REDIS_PASSWORD" in compose[2]
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert services["redis"]["environment"]["REDIS_PASSWORD"].startswith("${REDIS_PASSWORD:?")
    assert services["lobby"]["environment"]["REDIS_URL"] == "redis://tapete@redis:6379/0"
    assert services["lobby"]["environment"]["REDIS_PASSWORD"].startswith("${REDIS_PASSWORD:?")


def test_redis_started_as_deployed_admits_only_its_acl_user(tmp_path: Path):
    """The deployment's own command, with this machine's server as ``redis-server``: the
    default user is off, ``tapete`` gets in with REDIS_PASSWORD (a consumer process given
    it as a setting reads the feed), FLUSHALL and CONFIG are refused."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "redis-server").symlink_to(server_binary())
    port, password = free_port(), "a pass#word > with spaces"
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}"}
    command = compose_redis_command() + ["--port", str(port), "--bind", "127.0.0.1"]
    server = subprocess.Popen(
        command, cwd=tmp_path, env={**env, "REDIS_PASSWORD": password}, stdout=subprocess.DEVNULL
    )
    consumer = None
    try:
        url = f"redis://tapete@127.0.0.1:{port}/0"
        client = redis.Redis.from_url(
            Settings.from_env({"REDIS_URL": url, "REDIS_PASSWORD": password}).redis_url
        )
        wait_until(lambda: ping(client), what="redis with its ACL")
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=port).ping()  # the default user
        with pytest.raises(redis.exceptions.NoPermissionError):
            client.flushall()
        with pytest.raises(redis.exceptions.NoPermissionError):
            client.config_get("*")
        health = tmp_path / "health"
        consumer = ConsumerProcess(
            "c", url, {"REDIS_PASSWORD": password, "HEARTBEAT_DIR": str(health)}
        )
        wait_until(lambda: age(health / READY) < 5, what="the consumer on the ACL user")
        assert any(g["name"] == b"history" for g in client.xinfo_groups("tapete:{p0}:feed"))
    finally:
        if consumer is not None:
            consumer.stop()
        stop_process(server)
