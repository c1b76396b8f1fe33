"""Every metric the dashboard and the alerts read is exported by the running services.

Each process as deployed: rules, lobby, feed and history under gunicorn with two workers and
the multiprocess metrics directory (as in the pods), the history consumer, the bot dispatcher
and a bot worker with their metrics ports. A little traffic — a match against a bot to its
end with a stream open on it, a refused request, a verification — and every ``/metrics`` is
scraped; each name in each dashboard query and alert expression must be among them
(deploy/monitoring; tests/test_monitoring.py checks the rest statically).
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from shared.redis_server import free_port
from tests.bots_fixtures import BotProcesses
from tests.history_fixtures import ConsumerProcess, Consumers
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import FEED_CONF, Http, Service, session
from tests.sse import Stream
from tests.test_monitoring import PROMETHEUS_OWN, every_query, metric_names


@pytest.fixture(scope="module")
def platform(redis_store: RedisStore) -> Iterator[dict[str, Any]]:
    """Every process, each serving /metrics; yields the scrape URLs by process name."""
    started: list[Service] = []

    def http(name: str, app: str, env: dict[str, str], config: Any = None) -> Service:
        metrics = {"PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix=f"tapete-{name}-metrics-")}
        service = Service(name, app, {**redis_store.env, **env, **metrics}, **(
            {"config": config} if config else {}))  # fmt: skip
        started.append(service)
        return service

    rules = http("rules", "services.rules.wsgi:app", {})
    lobby = http("lobby", "services.lobby.wsgi:app", {"RULES_URL": rules.url})
    http("feed", "services.lobby.wsgi:app", {"RULES_URL": rules.url}, FEED_CONF)
    http("history", "services.history.wsgi:app", {})
    ports = {name: free_port() for name in ("history-consumer", "dispatcher", "worker")}
    consumers = Consumers(redis_store)
    bots = BotProcesses(redis_store, lobby, rules)
    try:
        booting = [threading.Thread(target=s.start, args=(120.0,)) for s in started]  # at once
        for thread in booting:
            thread.start()
        for thread in booting:
            thread.join()
        assert all(s.process is not None and s.process.poll() is None for s in started)
        consumer: ConsumerProcess = consumers.start(
            "metrics-consumer", HISTORY_CONSUMER_METRICS_PORT=str(ports["history-consumer"])
        )
        bots.dispatcher("metrics-dispatcher", BOTS_DISPATCHER_METRICS_PORT=str(ports["dispatcher"]))
        bots.worker("metrics-worker", BOTS_WORKER_METRICS_PORT=str(ports["worker"]))
        yield {
            "services": {s.name: s for s in started},
            "metrics": {
                **{s.name: f"{s.url}/metrics" for s in started},
                **{name: f"http://127.0.0.1:{port}/metrics" for name, port in ports.items()},
            },
            "consumer": consumer,
        }
    finally:
        bots.stop_all()
        consumers.stop_all()
        for service in started:
            service.stop()


def scrape(url: str, timeout: float = 30.0) -> set[str]:
    """The sample names of one /metrics, once it answers."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            reply = requests.get(url, timeout=5)
            reply.raise_for_status()
            break
        except requests.RequestException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    return {
        sample.name
        for family in text_string_to_metric_families(reply.text)
        for sample in family.samples
    }


def play_against_a_bot(http: Http, feed_url: str) -> str:
    """A 2-player Brisca match, seat 0 played here and seat 1 by a bot, to its end, with a
    stream open on it meanwhile; the match id."""
    host = http.player("Host")
    match = http.match(host, options={"deals": 1})
    http.join(host, match["id"], seat=0)
    reply = http.post(
        f"/v1/matches/{match['id']}/bots", host["token"], json={"seat": 1, "strategy": "random"}
    )
    assert reply.status == 200, reply.body
    stream = Stream(f"{feed_url}/v1/matches/{match['id']}/stream", host["token"])
    assert stream.status == 200
    read: list[Any] = []
    reader = threading.Thread(target=lambda: read.extend(stream.messages()), daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = http.view(host, match["id"])
        if view["status"] == "finished":
            break
        if 0 in view["to_act"] and view["view"]["legal_actions"]:
            http.act(host, match["id"], view["view"]["legal_actions"][0], view["version"])
        else:
            http.events(host, match["id"], after=view["version"], wait=2)
    else:
        raise AssertionError("the match against the bot did not finish")
    reader.join(10)
    stream.close()
    assert any(m.event == "finished" for m in read), "the stream saw the match to its end"
    return match["id"]


def test_every_metric_the_dashboard_and_the_alerts_read_is_exported(
    platform: dict[str, Any],
) -> None:
    services = platform["services"]
    lobby = Http(session(), services["lobby"].url)
    match_id = play_against_a_bot(lobby, services["feed"].url)
    assert lobby.get("/v1/matches/no-such-match", lobby.player()["token"]).status == 404
    history = Http(session(), services["history"].url)
    deadline = time.monotonic() + 30
    while (reply := history.get(f"/v1/matches/{match_id}/verify")).status != 200:
        assert time.monotonic() < deadline, reply.body
        time.sleep(0.2)
    assert reply.body["ok"] is True

    exported: dict[str, set[str]] = {}
    for name, url in platform["metrics"].items():
        exported[name] = scrape(url)
    everything = set().union(*exported.values())
    missing = {
        (where, name)
        for where, expr in every_query()
        for name in metric_names(expr) - PROMETHEUS_OWN
        if name not in everything
    }
    assert not missing, f"read by the dashboard or the alerts, exported by no service: {missing}"
    # and each where the operations guide says it is
    assert "tapete_http_refusals_total" in exported["lobby"]
    assert "tapete_feed_subscribers" in exported["feed"]
    assert "tapete_history_verify_total" in exported["history"]
    assert "tapete_bot_queue_wait_seconds_bucket" in exported["worker"]
    assert "tapete_bot_queue_length" in exported["dispatcher"]
    for reader in ("history-consumer", "dispatcher"):
        assert {"tapete_redis_used_memory_bytes", "tapete_consumer_dead_letters"} <= exported[
            reader
        ]
