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
from tests.bots_fixtures import TEST_BOTS_ENV, BotProcess
from tests.history_fixtures import ConsumerProcess
from tests.service_fixtures import (
    FEED_CONF,
    GUNICORN_CONF,
    ROOT,
    Http,
    Service,
    session,
    stop_process,
    wait_until,
)
from tests.sse import Stream


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


class DeployedRedis:
    """Redis started by the deployment's own command (Compose's, the dev overlay's), this
    machine's server standing in for ``redis-server``: the ACL user tapete with
    ``password``, the default user off."""

    def __init__(self, folder: Path, password: str) -> None:
        (folder / "bin").mkdir()
        (folder / "bin" / "redis-server").symlink_to(server_binary())
        self.port, self.password = free_port(), password
        env = {**os.environ, "PATH": f"{folder / 'bin'}:{os.environ['PATH']}"}
        command = compose_redis_command() + ["--port", str(self.port), "--bind", "127.0.0.1"]
        self.process = subprocess.Popen(
            command, cwd=folder, env={**env, "REDIS_PASSWORD": password},
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        self.client = redis.Redis.from_url(self.settings(0).redis_url)
        wait_until(lambda: ping(self.client), what="redis with its ACL")

    def url(self, db: int) -> str:
        return f"redis://tapete@127.0.0.1:{self.port}/{db}"  # as in Compose: no password

    def settings(self, db: int) -> Settings:
        return Settings.from_env({"REDIS_URL": self.url(db), "REDIS_PASSWORD": self.password})

    def stop(self) -> None:
        stop_process(self.process)


def test_redis_started_as_deployed_admits_only_its_acl_user(tmp_path: Path):
    """The default user is off; ``tapete`` gets in with REDIS_PASSWORD (a consumer process
    given it as a setting reads the feed)."""
    deployed = DeployedRedis(tmp_path, "a pass#word > with spaces")
    consumer = None
    try:
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=deployed.port).ping()  # the default user
        health = tmp_path / "health"
        consumer = ConsumerProcess(
            "c",
            deployed.url(0),
            {"REDIS_PASSWORD": deployed.password, "HEARTBEAT_DIR": str(health)},
        )
        wait_until(lambda: age(health / READY) < 5, what="the consumer on the ACL user")
        groups = deployed.client.xinfo_groups("tapete:{p0}:feed")
        assert any(g["name"] == b"history" for g in groups)
    finally:
        if consumer is not None:
            consumer.stop()
        deployed.stop()


REFUSED = [  # what the services never send, and would hurt: each refused to the ACL user
    ("SWAPDB", "0", "1"),  # in Compose: the match store swapped with rq's queue
    ("MIGRATE", "127.0.0.1", "1", "", "0", "1000", "KEYS", "tapete:token:x"),
    ("SCRIPT", "FLUSH"),
    ("FUNCTION", "FLUSH"),
    ("FUNCTION", "LOAD", "#!lua name=x\nserver.register_function('x', function() end)"),
    ("KEYS", "*"),
    ("FLUSHALL",),
    ("FLUSHDB",),
    ("CONFIG", "GET", "*"),
    ("CONFIG", "SET", "appendonly", "no"),
    ("CLIENT", "KILL", "ID", "1"),
    ("SHUTDOWN",),
    ("MONITOR",),
    ("RESTORE", "k", "0", "x"),
    ("MOVE", "k", "1"),
    ("EVAL", "return 1", "0"),
]


def test_the_acl_user_may_send_what_the_services_send_and_nothing_more(tmp_path: Path):
    """Redis as deployed, and every process of the platform on it as deployed (no
    TAPETE_DEV, generated secrets, the store in db 0, rq's queue in db 1 as in Compose): a
    person's move, a bot's move made by an rq job, the feed's stream of them; meanwhile each
    command of ``REFUSED`` is refused."""
    keys = real_secrets()
    deployed = DeployedRedis(tmp_path, keys["REDIS_PASSWORD"])
    production = {k: v for k, v in os.environ.items() if k != "TAPETE_DEV"} | keys
    store = {"REDIS_URL": deployed.url(0), "RQ_REDIS_URL": deployed.url(1)}
    started: list[Service] = []
    bots: list[BotProcess] = []
    try:
        for command in REFUSED:
            with pytest.raises(redis.exceptions.NoPermissionError):
                deployed.client.execute_command(*command)
        rules = Service("rules", "services.rules.wsgi:app", {})
        rules.env = {**rules.env, **production}
        rules.env.pop("TAPETE_DEV", None)
        rules.start()
        started.append(rules)
        for name, config in (("lobby", GUNICORN_CONF), ("feed", FEED_CONF)):
            service = Service(name, "services.lobby.wsgi:app", {}, config=config)
            service.env = {**service.env, **production, **store, "RULES_URL": rules.url}
            service.env.pop("TAPETE_DEV", None)
            service.start()
            started.append(service)
        lobby, feed = started[1], started[2]
        bot_env = {**production, **store, **TEST_BOTS_ENV, "RULES_URL": rules.url}
        bot_env |= {"LOBBY_URL": lobby.url}
        bots.append(BotProcess("dispatcher", "acl-dispatcher", bot_env))
        bots.append(BotProcess("worker", "acl-worker", {**bot_env, "BOTS_WORKER_NAME": "acl-w"}))
        http = Http(session(), lobby.url)
        ana = http.player("Ana")
        match = http.match(ana, players=2)
        reply = http.post(f"/v1/matches/{match['id']}/bots", ana["token"],
                          json={"seat": 1, "strategy": "random"})  # fmt: skip
        assert reply.status == 200, reply.body
        started_match = http.join(ana, match["id"], seat=0)
        ticket = http.post(f"/v1/matches/{match['id']}/stream-ticket", ana["token"]).body
        stream = Stream(feed.url + ticket["stream"])
        assert stream.status == 200, stream.error()
        moved_by = []
        version, to_act = started_match["version"], started_match["to_act"]
        for message in stream.messages():  # until both have moved
            if message.event != "entry":
                continue
            entry = message.entry
            version, to_act = entry["version"], entry["to_act"]
            if entry["kind"] == "action":
                moved_by.append(entry["actor"]["player"])
            if {ana["id"], "bot-random"} <= set(moved_by):
                break
            if to_act == [0] and entry["status"] == "running":
                legal = http.view(ana, match["id"])["view"]["legal_actions"][0]
                assert http.act(ana, match["id"], legal, version).status == 200
        stream.close()
        assert {ana["id"], "bot-random"} <= set(moved_by)
        for process in bots:
            assert process.alive(), process.log_tail()
            assert "NOPERM" not in process.log_text() and "permission" not in process.log_text()
        for service in started:
            assert "NOPERM" not in service.log_path.read_text()
    finally:
        for process in bots:
            process.stop()
        for service in started:
            service.stop()
        deployed.stop()
