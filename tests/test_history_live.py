"""The history service as deployed: lobby, rules and history under gunicorn, the consumer as a
real process, all on a real Redis.

Matches played through the lobby's HTTP API build every read model; a consumer killed
with SIGKILL mid-stream and replaced leaves the same read models as a run without a
crash; a poison notification is dead-lettered without blocking the group; a running
match's log hides every hidden card, a finished one reveals everything and verifies, and
a log edited in Redis fails verification with a report of where. Every test runs on one
Redis and on a Redis Cluster (tests/redis_fixtures.py).
"""

from __future__ import annotations

import json
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import pytest
import redis

from services.history.consumer import GROUP, dead_key
from services.history.store import ReadModels, ratings_key
from shared.eventstore import MatchLog, decode_entry, encode_entry
from tests.history_fixtures import (
    Consumers,
    applied_version,
    forget_read_models,
    read_models,
    same_up_to_rating_order,
    wait_applied,
)
from tests.service_fixtures import Http, Service, session

pytestmark = pytest.mark.cluster  # on one Redis and on a Redis Cluster


@pytest.fixture
def lobby(lobby_service: Service, redis_client: redis.Redis) -> Http:
    """The lobby over HTTP, on a Redis flushed for this test."""
    return Http(session(), lobby_service.url)


def play_match(
    lobby_url: str, seated: list[dict[str, Any]], game: str, seed: str, moves: int | None = None
) -> str:
    """A match of ``seated`` through the lobby's HTTP API, played to the end (or ``moves``)."""
    http = Http(session(), lobby_url)  # one session per thread
    match = http.match(seated[0], game=game, players=len(seated))
    for seat, player in enumerate(seated):
        match = http.join(player, match["id"], seat=seat)
    if moves is None:
        http.play_to_the_end(match, seated, random.Random(seed))
        return str(match["id"])
    rng = random.Random(seed)
    for _ in range(moves):
        fresh = http.view(seated[match["to_act"][0]], match["id"])
        seat = fresh["to_act"][0]
        action = rng.choice(fresh["view"]["legal_actions"])
        assert http.act(seated[seat], match["id"], action, fresh["version"]).status == 200
        match = http.view(seated[0], match["id"])
    return str(match["id"])


def play_many(lobby: Http, tables: list[tuple[list[dict], str]], tag: str) -> list[str]:
    """Several matches at once (threads), each (seated players, game)."""

    def one(args: tuple[int, tuple[list[dict], str]]) -> str:
        index, (seated, game) = args
        return play_match(lobby.base_url, seated, game, f"{tag}-{index}")

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, enumerate(tables)))


def test_matches_played_through_the_lobby_build_every_read_model(
    lobby: Http, history: Http, consumers: Consumers, store_log: MatchLog
):
    consumer = consumers.start("live")
    ana, ben, cai = (lobby.player(name) for name in ("Ana", "Ben", "Cai"))
    tables = [([ana, ben], "brisca"), ([ben, cai], "brisca"), ([cai, ana], "brisca")]
    tables.append(([ana, ben, cai], "raj"))
    ids = play_many(lobby, tables, "read-models")
    wait_applied(store_log, ids, consumer=consumer)

    for match_id, (seated, game) in zip(ids, tables, strict=True):
        result = lobby.view(seated[0], match_id)["result"]
        sheet = history.get(f"/v1/matches/{match_id}/scores").body
        assert sheet["status"] == "finished" and sheet["game"] == game
        assert sheet["rounds"] == result["rounds"] and sheet["totals"] == result["scores"]
        assert sheet["winners"] == result["winners"]
        assert [s["player"] for s in sheet["seats"]] == [p["id"] for p in seated]
        verified = history.get(f"/v1/matches/{match_id}/verify").body
        assert verified["ok"] is True, verified["divergences"]

    anas = history.get(f"/v1/players/{ana['id']}/matches").body["matches"]
    assert {m["id"] for m in anas} == {ids[0], ids[2], ids[3]}
    assert all(m["status"] == "finished" and isinstance(m["won"], bool) for m in anas)

    board = history.get("/v1/leaderboards/brisca").body["players"]
    assert {row["player"]: row["matches"] for row in board} == {
        ana["id"]: 2,
        ben["id"]: 2,
        cai["id"]: 2,
    }
    assert sum(row["wins"] for row in board) >= 3  # one winner a match at least (ties share)
    raj = history.get("/v1/leaderboards/raj").body["players"]
    assert len(raj) == 3 and all(row["matches"] == 1 for row in raj)


def pending(log: MatchLog) -> dict[str, int]:
    """Consumer name -> the notifications it holds unacknowledged, over every partition."""
    held: dict[str, int] = {}
    for partition in range(log.partitions):
        feed = log.feed_key(partition)
        if not log.client.exists(feed):
            continue
        for row in cast(list, log.client.xinfo_consumers(feed, GROUP)):
            held[row["name"]] = held.get(row["name"], 0) + int(row["pending"])
    return held


def test_a_consumer_killed_mid_stream_and_replaced_leaves_the_same_read_models(
    lobby: Http, consumers: Consumers, store_log: MatchLog
):
    players = [lobby.player(f"K{i}") for i in range(4)]
    tables = [([players[i % 4], players[(i + 1) % 4]], "brisca") for i in range(8)]
    first = play_many(lobby, tables, "backlog")  # a backlog for the first consumer
    log, client = store_log, store_log.client

    doomed = consumers.start("doomed", HISTORY_BATCH="50")
    deadline = time.monotonic() + 60
    while True:  # kill it while it holds notifications it has read but not acknowledged
        assert time.monotonic() < deadline, doomed.log_tail()
        if ReadModels(client, log).journal_length() >= 10:
            doomed.pause()
            if pending(log).get("doomed", 0) > 0:
                doomed.kill()
                break
            doomed.resume()
        time.sleep(0.001)
    behind = [m for m in first if applied_version(log, m) < len(log.entries(m))]
    assert behind, "the first consumer had applied everything: nothing was mid-stream"

    time.sleep(0.5)  # past HISTORY_MIN_IDLE_MS: the pending notifications are up for grabs
    heir = consumers.start("heir")
    more = play_many(lobby, tables[:3], "after-the-crash")  # the stream goes on meanwhile
    wait_applied(log, first + more, consumer=heir)
    assert not any(pending(log).values())  # the heir took the dead one's over, and acked
    survived = read_models(client)
    heir.stop()

    forget_read_models(log)  # the same feed again, by a consumer that never crashes
    clean = consumers.start("clean")
    wait_applied(log, first + more, consumer=clean)
    assert same_up_to_rating_order(log, read_models(client), survived)
    ratings = survived[ratings_key("brisca")]
    assert sum(r["matches"] for r in ratings.values()) == 2 * len(first + more)  # once each


def test_a_poison_notification_lands_in_the_dead_letters_and_the_group_moves_on(
    lobby: Http, consumers: Consumers, store_log: MatchLog
):
    log, client = store_log, store_log.client
    consumer = consumers.start("poisoned")
    client.xadd(log.keys("ghost").feed, {"match": "ghost", "version": "2", "kind": "action"})
    broken = log.keys("broken")
    client.xadd(broken.log, {"entry": "{not json", "kind": "match.created"}, id="0-1")
    client.xadd(broken.feed, {"match": "broken", "version": "1", "kind": "match.created"})
    ana, ben = lobby.player("Ana"), lobby.player("Ben")
    match_id = play_match(lobby.base_url, [ana, ben], "brisca", "after-poison", moves=4)
    wait_applied(log, [match_id], consumer=consumer)

    def dead_letters() -> dict[str, dict[str, str]]:
        pipe = client.pipeline(transaction=False)
        for partition in range(log.partitions):
            pipe.xrange(dead_key(partition))
        return {f["match"]: f for rows in pipe.execute() for _, f in rows}

    deadline = time.monotonic() + 20
    while len(dead_letters()) < 2:
        assert time.monotonic() < deadline, consumer.log_tail()
        time.sleep(0.05)
    dead = dead_letters()
    assert set(dead) == {"ghost", "broken"}
    assert "NoSuchMatch" in dead["ghost"]["error"] and "JSONDecodeError" in dead["broken"]["error"]
    assert all(int(f["deliveries"]) == 4 for f in dead.values())
    assert all(f["feed"] == log.keys(match).feed for match, f in dead.items())
    assert not any(pending(log).values())
    assert consumer.process.poll() is None  # still consuming


def test_the_log_hides_while_running_reveals_after_and_a_tampered_log_fails_verify(
    lobby: Http, history: Http, store_log: MatchLog
):
    redis_client = store_log.client
    ana, ben = lobby.player("Ana"), lobby.player("Ben")
    match = lobby.match(ana, game="brisca", players=2)
    lobby.join(ana, match["id"], seat=0)
    match = lobby.join(ben, match["id"], seat=1)
    match_id = match["id"]
    seed = store_log.snapshot(match_id)["seed"]  # type: ignore[index]
    running = history.get(f"/v1/matches/{match_id}/log").body
    text = json.dumps(running)
    hands = [
        lobby.view(p, match_id)["view"]["zones"][f"hand:{s}"]["cards"]
        for s, p in enumerate([ana, ben])
    ]
    trump = lobby.view(ana, match_id)["view"]["zones"]["trump"]["cards"]
    assert seed not in text and running["revealed"] is False
    for card in {c for hand in hands for c in hand} - set(trump):
        assert f'"{card}"' not in text, f"hidden card {card} in the running log"
    assert history.get(f"/v1/matches/{match_id}/verify").status == 409

    lobby.play_to_the_end(match, [ana, ben], random.Random("reveal"))
    finished = history.get(f"/v1/matches/{match_id}/log").body
    assert finished["revealed"] is True and finished["seed"] == seed
    revealed = json.dumps(finished)
    assert all(f'"{card}"' in revealed for hand in hands for card in hand)
    assert history.get(f"/v1/matches/{match_id}/verify").body["ok"] is True

    key = store_log.keys(match_id).log
    rows = cast(list, redis_client.xrange(key))
    redis_client.delete(key)
    version = len(rows) // 2
    for entry_id, fields in rows:
        if entry_id == f"0-{version}":
            entry = decode_entry(fields["entry"])
            entry["state_hash"] = "f" * 64
            fields = {**fields, "entry": encode_entry(entry)}
        redis_client.xadd(key, fields, id=entry_id)
    report = history.get(f"/v1/matches/{match_id}/verify").body
    assert report["ok"] is False and report["first_divergence"] == version
    assert report["divergences"][0]["check"] == "state_hash"
    assert report["divergences"][0]["recorded"] == "f" * 64
