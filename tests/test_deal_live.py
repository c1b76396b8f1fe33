"""A full match is always dealt, with the processes as deployed: the rules service and the
lobby under gunicorn, the bot dispatcher and two rq workers, on one Redis and on a Redis
Cluster.

The rules service is paused with SIGSTOP while the last seat is taken, long enough for the
lobby's own start to give up (its rules call times out), then resumed: the dispatcher's start
task deals the match within seconds, exactly once.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from tests.bots_fixtures import BotProcesses
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import TEST_STATE_KEY, Http, Service, children_of, session

pytestmark = pytest.mark.cluster

RULES_TIMEOUT_S = 10  # the lobby's rules call (rules_client.TIMEOUT_MS): then its start gives up
DEALT_WITHIN_S = 10  # after the rules come back


class Paused:
    """A gunicorn service frozen with SIGSTOP, master and workers, until ``resume``."""

    def __init__(self, service: Service) -> None:
        assert service.process is not None
        self.pids = [service.process.pid, *children_of(service.process.pid)]
        for pid in self.pids:
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self.pids:
            os.kill(pid, signal.SIGCONT)


@pytest.fixture(scope="module")
def rules() -> Iterator[Service]:
    """A rules service of this module's own: pausing it stops no other test."""
    service = Service("rules", "services.rules.wsgi:app", {"TAPETE_STATE_KEY": TEST_STATE_KEY})
    service.start()
    yield service
    service.stop()


@pytest.fixture(scope="module")
def lobby(redis_store: RedisStore, rules: Service, bot_processes: BotProcesses) -> Iterator[Http]:
    service = Service(
        "lobby", "services.lobby.wsgi:app", {**redis_store.env, "RULES_URL": rules.url}
    )
    service.start()
    on_our_rules = {"RULES_URL": rules.url, "LOBBY_URL": service.url}
    bot_processes.dispatcher(f"dispatcher-{time.monotonic_ns()}").wait_for_log("dispatching")
    for n in range(2):
        bot_processes.worker(f"worker-{n}-{time.monotonic_ns()}", **on_our_rules).wait_for_log(
            "working on"
        )
    yield Http(session(), service.url)
    bot_processes.stop_all()
    service.stop()


def test_a_full_match_whose_rules_were_paused_during_its_last_join_is_dealt_once_they_answer(
    lobby: Http, rules: Service, redis_store: RedisStore
):
    first, second = lobby.player("Ana"), lobby.player("Beto")
    match = lobby.match(first, game="brisca", players=2)
    lobby.join(first, match["id"], seat=0)
    paused = Paused(rules)
    try:
        started = time.monotonic()
        reply = lobby.post(f"/v1/matches/{match['id']}/join", second["token"], json={"seat": 1})
        assert time.monotonic() - started >= RULES_TIMEOUT_S - 1  # the lobby's start gave up
        assert reply.status == 200 and reply.body["status"] == "open", reply.body
        time.sleep(3)  # the start task's first attempt, and the watchdog's next, meet no rules
        assert lobby.view(first, match["id"])["status"] == "open"
    finally:
        paused.resume()
    resumed = time.monotonic()
    while lobby.view(first, match["id"])["status"] == "open":
        assert time.monotonic() - resumed < DEALT_WITHIN_S, "the full match was never dealt"
        time.sleep(0.1)
    print(f"\ndealt {time.monotonic() - resumed:.2f} s after the rules came back")
    store = redis_store.client()
    entries = redis_store.log(store).entries(match["id"])
    store.close()
    assert [e["version"] for e in entries] == list(range(1, len(entries) + 1))
    assert [e["kind"] for e in entries].count("match.started") == 1
    started_entry = next(e for e in entries if e["kind"] == "match.started")
    assert started_entry["actor"] == {"player": None, "seat": None, "system": True}
    view = lobby.view(second, match["id"])
    assert view["status"] == "running" and view["view"]["legal_actions"] is not None
