"""Secrets and what processes on one host share: outside development every service process
refuses to start without each secret it needs, or with a placeholder, a development key or
a too short one, and says which and why in one line; Redis, as Compose and Kubernetes start
it, admits only its ACL user, whose password the services take from REDIS_PASSWORD, and
grants that user only the commands the services send; and each gunicorn runs without a
control socket, so stopping one gunicorn cannot take another's away."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import redis
import requests
import yaml

from services.rules import seal
from services.rules.app import create_rules_app
from services.settings import (
    DEV_BOT_TOKEN_KEY,
    DEV_STATE_KEY,
    SECRETS_OF,
    MissingSecret,
    Settings,
)
from shared.heartbeat import READY, age
from shared.redis_server import free_port, server_binary
from tests.history_fixtures import ConsumerProcess
from tests.service_fixtures import FEED_CONF, GUNICORN_CONF, ROOT, Service, stop_process, wait_until


def ping(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


def real_secrets() -> dict[str, str]:
    """Every secret, as the docs' recipes make them (openssl rand -hex 32)."""
    return {
        name: secrets.token_hex(32)
        for name in ("TAPETE_STATE_KEY", "TAPETE_BOT_TOKEN_KEY", "REDIS_PASSWORD")
    }


def production_env(**changes: str | None) -> dict[str, str]:
    """This environment without development mode, with real secrets, then ``changes``
    (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != "TAPETE_DEV"} | real_secrets()
    env |= {"REDIS_URL": f"redis://tapete@127.0.0.1:{free_port()}/0"}  # nobody listens there
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


# -- the decision: Settings.with_secrets -------------------------------------------------------
PLACEHOLDER = "REPLACE-ME-with-32-random-bytes"  # k8s/base/secret.yaml's


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (None, "is not set"),
        ("", "is not set"),
        ("   ", "is not set"),
        (PLACEHOLDER, "is a placeholder"),
        ("REPLACE-ME-dev-only-bot-token-key", "is a placeholder"),
        ("changeme", "is a placeholder"),
        (DEV_BOT_TOKEN_KEY, "is a development key"),
        (DEV_STATE_KEY, "is a development key"),
        ("0123456789abcdef", "is too short (16 characters, at least 32)"),
    ],
)
def test_outside_development_an_unusable_bot_token_key_stops_the_lobby(
    value: str | None, problem: str
) -> None:
    settings = Settings.from_env(production_env(TAPETE_BOT_TOKEN_KEY=value))
    with pytest.raises(MissingSecret) as refused:
        settings.with_secrets("lobby")
    line = str(refused.value)
    assert line.startswith(f"TAPETE_BOT_TOKEN_KEY {problem}") and "\n" not in line
    assert "openssl rand -hex 32" in line and "TAPETE_DEV=1" in line


def test_each_process_needs_its_own_secrets_only() -> None:
    needs = {process: {s.variable for s in found} for process, found in SECRETS_OF.items()}
    assert needs == {
        "rules": {"TAPETE_STATE_KEY"},
        "lobby": {"TAPETE_BOT_TOKEN_KEY", "REDIS_PASSWORD"},  # the feed and bot workers too
        "history": {"REDIS_PASSWORD"},
        "history-consumer": {"REDIS_PASSWORD"},
        "bots-dispatcher": {"REDIS_PASSWORD"},
    }
    rules_only = Settings.from_env(production_env(TAPETE_BOT_TOKEN_KEY=None, REDIS_PASSWORD=None))
    assert rules_only.with_secrets("rules").state_key == rules_only.state_key


def test_a_redis_password_may_come_inside_the_url_but_must_be_real() -> None:
    inside = f"rediss://tapete:{secrets.token_hex(16)}@redis:6379/0"
    Settings.from_env(production_env(REDIS_PASSWORD=None, REDIS_URL=inside)).with_secrets("history")
    for url in ("rediss://tapete@redis:6379/0", "rediss://tapete:REPLACE-ME@redis:6379/0"):
        settings = Settings.from_env(production_env(REDIS_PASSWORD=None, REDIS_URL=url))
        with pytest.raises(MissingSecret, match="^REDIS_PASSWORD is"):
            settings.with_secrets("history")


def test_an_old_state_key_may_not_be_a_known_one() -> None:
    for old in (PLACEHOLDER, DEV_STATE_KEY):
        settings = Settings.from_env(production_env(TAPETE_STATE_KEYS_PREVIOUS=f"oldkey,{old}"))
        with pytest.raises(MissingSecret, match="^TAPETE_STATE_KEYS_PREVIOUS holds a key"):
            settings.with_secrets("rules")
    short = Settings.from_env(production_env(TAPETE_STATE_KEYS_PREVIOUS="an-old-short-key"))
    assert short.with_secrets("rules").state_keys_previous == ("an-old-short-key",)  # rotate away


def test_in_development_a_missing_key_is_the_development_key() -> None:
    settings = Settings.from_env({"TAPETE_DEV": "1"})
    assert settings.with_secrets("lobby").bot_token_key == DEV_BOT_TOKEN_KEY
    assert settings.with_secrets("rules").state_key == DEV_STATE_KEY
    given = Settings.from_env({"TAPETE_DEV": "1", "TAPETE_STATE_KEY": "short one"})
    assert given.with_secrets("rules").state_key == "short one"  # what is given is used


def test_the_rules_app_seals_with_the_checked_key() -> None:
    with pytest.raises(MissingSecret, match="^TAPETE_STATE_KEY is not set"):
        create_rules_app(settings=Settings(state_key=None, dev=False))
    create_rules_app(settings=Settings(state_key=None, dev=True))  # make run, the tests
    assert DEV_STATE_KEY.encode() == seal.KEY
    key = secrets.token_hex(32)
    create_rules_app(settings=Settings(state_key=key, dev=False))
    assert key.encode() == seal.KEY


def test_development_mode_is_an_explicit_setting():
    assert Settings.from_env({}).dev is False
    assert Settings.from_env({"TAPETE_DEV": "1"}).dev is True
    assert Settings.from_env({"TAPETE_DEV": "0"}).dev is False


# -- real processes ----------------------------------------------------------------------------
GUNICORN_APPS = {  # process: (app, gunicorn settings)
    "rules": ("services.rules.wsgi:app", GUNICORN_CONF),
    "lobby": ("services.lobby.wsgi:app", GUNICORN_CONF),
    "feed": ("services.lobby.wsgi:app", FEED_CONF),
    "history": ("services.history.wsgi:app", GUNICORN_CONF),
}
MODULES = {
    "history-consumer": "services.history.consumer",
    "dispatcher": "services.bots.dispatcher",
    "worker": "services.bots.worker",
}
NEEDED = [  # (process, variable) for each secret each process needs
    ("rules", "TAPETE_STATE_KEY"),
    ("lobby", "TAPETE_BOT_TOKEN_KEY"),
    ("lobby", "REDIS_PASSWORD"),
    ("feed", "TAPETE_BOT_TOKEN_KEY"),
    ("feed", "REDIS_PASSWORD"),
    ("history", "REDIS_PASSWORD"),
    ("history-consumer", "REDIS_PASSWORD"),
    ("dispatcher", "REDIS_PASSWORD"),
    ("worker", "TAPETE_BOT_TOKEN_KEY"),
    ("worker", "REDIS_PASSWORD"),
]


def start_and_wait(process: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The process as deployed (gunicorn, or python -m), run until it exits (60 s at most)."""
    if process in GUNICORN_APPS:
        app, config = GUNICORN_APPS[process]
        port = free_port()
        command = [sys.executable, "-m", "gunicorn", "--config", str(config)]
        command += ["--bind", f"127.0.0.1:{port}", app]
        env = {**env, "GUNICORN_WORKERS": "1", "FEED_WORKERS": "1"}
    else:
        command = [sys.executable, "-m", MODULES[process]]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("value", [None, PLACEHOLDER], ids=["unset", "placeholder"])
@pytest.mark.parametrize(("process", "variable"), NEEDED)
def test_a_process_without_a_usable_secret_does_not_start(
    process: str, variable: str, value: str | None
) -> None:
    """Outside development, each process, started as deployed, exits non-zero at once with
    one line naming the variable and why, and nothing else needed (the others are real)."""
    done = start_and_wait(process, production_env(**{variable: value}))
    problem = "is not set" if value is None else "is a placeholder"
    assert done.returncode != 0
    output = done.stdout + done.stderr
    lines = [line for line in output.splitlines() if line.startswith(f"{variable} {problem}: ")]
    assert lines, output
    assert "Traceback" not in output, "one line, not a traceback"


def test_in_development_the_lobby_starts_without_its_secrets() -> None:
    """``make run`` (TAPETE_DEV=1, no key, no password): it starts, and says it uses the
    development key."""
    env = {**production_env(TAPETE_BOT_TOKEN_KEY=None, REDIS_PASSWORD=None), "TAPETE_DEV": "1"}
    lobby = Service("lobby", "services.lobby.wsgi:app", env)
    lobby.env.pop("REDIS_URL")  # the default one: readyz needs no Redis to answer at all
    lobby.port = free_port()
    command = [sys.executable, "-m", "gunicorn", "--config", str(GUNICORN_CONF)]
    command += ["--bind", f"127.0.0.1:{lobby.port}", lobby.app]
    process = subprocess.Popen(
        command, cwd=ROOT, env=lobby.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        wait_until(lambda: healthy(lobby.url), timeout=30, what="the lobby in development")
    finally:
        stop_process(process)
    assert "TAPETE_BOT_TOKEN_KEY is not set: using its development key" in process.stderr.read()


def healthy(url: str) -> bool:
    try:
        return requests.get(f"{url}/healthz", timeout=1).status_code == 200
    except requests.RequestException:
        return False


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
