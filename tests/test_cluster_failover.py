"""A primary of the Redis Cluster dies (SIGKILL) while 24 matches are played through the live
lobby with replicated acknowledgement on (``REDIS_ACK_REPLICAS=1``): its replica takes over,
the moves resume, and every move the lobby acknowledged is in its match's log afterwards.

The cluster is this module's own (three primaries, three replicas), since a primary of it
is killed. Clients do what a client must do on a 503 or a dropped connection: send the same
move again with the same action id, which answers the first answer if the move was kept.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest
import requests

from services.history.application import History
from services.settings import Settings
from services.store import match_log, store_client
from shared.redis_server import EmbeddedCluster, EmbeddedRedis
from tests.service_fixtures import Http, Reply, Service, session

GAME = "cinquillo"  # about 40 moves a match: 24 matches make some 1,000 moves
MATCHES = 24
THREADS = 10
KILL_AFTER_MOVES = 250  # acknowledged moves, all matches together, before the kill
UNAVAILABLE = (502, 503, 504)


@dataclass
class Record:
    """What the clients saw: every acknowledged move, and the refusals and errors between."""

    acked: list[tuple[str, int, str, float]] = field(default_factory=list)  # match, version, id
    unavailable: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, match_id: str, version: int, action_id: str) -> None:
        with self.lock:
            self.acked.append((match_id, version, action_id, time.monotonic()))


@pytest.fixture(scope="module")
def failover_env() -> Iterator[tuple[EmbeddedCluster, dict[str, str]]]:
    with EmbeddedCluster() as cluster, EmbeddedRedis() as rq:
        env = {
            "REDIS_URL": cluster.url,
            "REDIS_CLUSTER": "1",
            "FEED_PARTITIONS": "8",
            "RQ_REDIS_URL": rq.url,
            "REDIS_ACK_REPLICAS": "1",
            "REDIS_ACK_TIMEOUT_MS": "1000",
        }
        yield cluster, env


@pytest.fixture(scope="module")
def lobby(failover_env: tuple[EmbeddedCluster, dict[str, str]], rules_service: Service):
    _, env = failover_env
    service = Service(
        "lobby-failover", "services.lobby.wsgi:app", {**env, "RULES_URL": rules_service.url}
    )
    service.start()
    yield service
    service.stop()


def until_acknowledged(send: Any, record: Record) -> Reply:
    """Send until the lobby answers something other than unavailable (or the socket drops)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            reply = send()
            if reply.status not in UNAVAILABLE:
                return reply
        except requests.RequestException:
            pass
        with record.lock:
            record.unavailable += 1
        assert time.monotonic() < deadline, "the lobby never came back"
        time.sleep(0.05)


def play(http: Http, match: dict, seated: list[dict], seed: int, record: Record) -> None:
    """Random legal moves to the end, each with an action id, resent until answered."""
    rng = random.Random(seed)
    match_id, version, to_act = match["id"], match["version"], match["to_act"]
    legal: tuple[int, list] | None = None  # (seat, its legal actions) at ``version``
    while to_act:
        seat = to_act[0]
        if legal is None or legal[0] != seat:
            read = partial(http.get, f"/v1/matches/{match_id}", seated[seat]["token"])
            fresh = until_acknowledged(read, record).body
            if fresh["version"] != version:
                version, to_act = fresh["version"], fresh["to_act"]
                continue
            legal = (seat, fresh["view"]["legal_actions"])
        action = rng.choice(legal[1])
        action_id = f"{match_id}-{version}"
        move = partial(http.act, seated[seat], match_id, action, version, action_id=action_id)
        reply = until_acknowledged(move, record)
        assert reply.status == 200, reply.body
        record.ack(match_id, reply.body["version"], action_id)
        version, to_act = reply.body["version"], reply.body["view"]["to_act"]
        legal = (seat, reply.body["view"]["legal_actions"])


def test_a_primary_killed_mid_play_loses_no_acknowledged_move(
    failover_env: tuple[EmbeddedCluster, dict[str, str]], lobby: Service
):
    cluster, env = failover_env
    settings = Settings.from_env(env)
    log = match_log(settings, store_client(settings))
    http = Http(session(), lobby.url)
    tables = [http.seated_match(GAME, 2) for _ in range(MATCHES)]
    record = Record()

    victim = cluster.primary_of(log.keys(tables[0][0]["id"]).log)
    on_victim = [m["id"] for m, _ in tables if cluster.primary_of(log.keys(m["id"]).log) is victim]
    killed_at = 0.0

    def kill_when_busy() -> None:
        nonlocal killed_at
        while len(record.acked) < KILL_AFTER_MOVES:
            time.sleep(0.01)
        cluster.kill(victim)
        killed_at = time.monotonic()

    with ThreadPoolExecutor(THREADS + 1) as pool:
        killer = pool.submit(kill_when_busy)
        games = [
            pool.submit(play, Http(session(), lobby.url), match, seated, i, record)
            for i, (match, seated) in enumerate(tables)
        ]
        for game in games:
            game.result()
        killer.result()

    assert killed_at > 0 and not victim.running
    assert cluster.primary_of(log.keys(on_victim[0]).log) is not victim  # failed over

    # every acknowledged move is in its log, at its version; the logs have no gap
    lost = []
    for match, _ in tables:
        entries = log.entries(match["id"])
        assert [e["version"] for e in entries] == list(range(1, len(entries) + 1))
        versions = {e["version"] for e in entries}
        lost += [a for a in record.acked if a[0] == match["id"] and a[1] not in versions]
    assert lost == [], f"{len(lost)} acknowledged moves lost"

    # the moves resumed on the killed primary's matches, and every match finished and verifies
    after = [t for m, _, _, t in record.acked if m in on_victim and t > killed_at]
    assert after, "no move on the failed-over shard after the kill"
    history = History(log.client, log)
    for match, _ in tables:
        verified = history.verify(match["id"])
        assert verified["ok"] is True, verified

    pause = min(after) - killed_at
    print(
        f"\nfailover: {len(record.acked)} moves acknowledged, {len(lost)} lost, "
        f"{record.unavailable} answers unavailable, {len(on_victim)} matches on the killed "
        f"primary, first move there {pause:.2f} s after the kill"
    )
