"""Duplicate groups as deployed (services/lobby/duplicates.py): the rules, lobby and history
services under gunicorn, the bot dispatcher and an rq worker, on a real Redis and on a Redis
Cluster.

A group of two Escoba tables played to the end by bots is dealt the same cards at both
(the entrants rotated over the seats), and both verify once the group has revealed its
seed; a table that finishes first keeps its seed and its log's secrets while the other
plays on, and a person of the group may not watch the other table until the seed is
revealed; refused groups create nothing.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from shared.engine import get_game
from shared.verify import verify_export
from tests.bots_fixtures import BotProcess, BotProcesses
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import Http, Service, error_of, session

pytestmark = pytest.mark.cluster  # on one Redis and on a Redis Cluster (rq on its own)

GROUP_DONE_S = 120  # two bot matches of Escoba on a loaded 2-core machine


@pytest.fixture(scope="module")
def bots(bot_processes: BotProcesses) -> Iterator[list[BotProcess]]:
    dispatcher, worker = bot_processes.dispatcher(), bot_processes.worker()
    dispatcher.wait_for_log("dispatching")
    worker.wait_for_log("working on")
    yield [dispatcher, worker]


@pytest.fixture
def lobby(lobby_service: Service) -> Http:
    return Http(session(), lobby_service.url)


def open_group(lobby: Http, player: dict[str, Any], **body: Any) -> dict[str, Any]:
    reply = lobby.post("/v1/duplicates", player["token"], json={"game": "escoba", **body})
    assert reply.status == 201, reply.body
    return reply.body


def until(lobby: Http, player: dict[str, Any], group: dict[str, Any], done: Any) -> dict[str, Any]:
    """The group once ``done(group)`` holds (read every 0.3 s)."""
    deadline = time.monotonic() + GROUP_DONE_S
    while not done(group):
        assert time.monotonic() < deadline, f"the group did not get there: {group}"
        time.sleep(0.3)
        group = lobby.get(f"/v1/duplicates/{group['id']}", player["token"]).body
    return group


def whole_log(history: Http, match_id: str) -> list[dict[str, Any]]:
    reply = history.get(f"/v1/matches/{match_id}/log")
    assert reply.status == 200, reply.body
    return reply.body["entries"]


def dealt(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deal's events, each seat's private cards included (a revealed log shows them)."""
    start = next(e for e in entries if e["kind"] == "match.started")
    return start["events"][1:]


def test_two_tables_of_escoba_played_by_bots_are_dealt_the_same_cards_and_verify(
    lobby: Http, history: Http, bots: list[BotProcess]
):
    host = lobby.player("Host")
    group = open_group(lobby, host, tables=2, seats=["random", "easy"])
    first, second = (table["match"] for table in group["tables"])
    assert [s["bot"] for s in group["tables"][0]["seats"]] == ["random", "easy"]
    assert [s["bot"] for s in group["tables"][1]["seats"]] == ["easy", "random"]  # rotated
    assert [t["entrants"] for t in group["tables"]] == [[0, 1], [1, 0]]
    for match_id in (first, second):
        match = lobby.view(host, match_id)
        assert match["seed_sha256"] == group["seed_sha256"]
        assert match["duplicate"]["group"] == group["id"]
    group = until(lobby, host, group, lambda g: g["status"] == "finished")
    assert hashlib.sha256(group["seed"].encode()).hexdigest() == group["seed_sha256"]
    logs = [whole_log(history, m) for m in (first, second)]
    assert dealt(logs[0]) == dealt(logs[1])  # the same cards at the same seats
    for match_id, log in zip((first, second), logs, strict=True):
        assert log[-1]["kind"] == "seed.revealed" and log[-1]["seed"] == group["seed"]
        report = history.get(f"/v1/matches/{match_id}/verify").body
        assert report["ok"], report
    exported = history.get(f"/v1/matches/{second}/export").body
    assert verify_export(exported)["ok"]
    exported["entries"][0]["match"]["duplicate"]["seed_sha256"] = "0" * 64  # another group's
    assert not verify_export(exported)["ok"]
    comparison = group["comparison"]
    assert comparison["compared_deals"] >= 1
    played = [len(t["result"]["rounds"]) for t in group["tables"]]
    assert comparison["deals_played"] == played
    assert [t["rules_version"] for t in group["tables"]] == [get_game("escoba").rules_version] * 2
    assert all(deal["same_cards"] for deal in comparison["deals"])  # Escoba deals alike
    deal = comparison["deals"][0]["seats"][0]["tables"]
    assert [(cell["table"], cell["entrant"]) for cell in deal] == [(0, 0), (1, 1)]


def hidden_reads(lobby: Http, history: Http, person: dict[str, Any], match_id: str) -> None:
    """Every read of ``match_id`` by ``person`` (a player of another table of its duplicate
    group) is refused, and the history's log and replay of it too (it knows no caller)."""
    token = person["token"]
    for reply in (
        lobby.get(f"/v1/matches/{match_id}", token),
        lobby.events(person, match_id, after=0, wait=0),
        lobby.events(person, match_id, after=10_000, wait=2),  # refused at once, no wait
        lobby.post(f"/v1/matches/{match_id}/stream-ticket", token),
        lobby.get(f"/v1/matches/{match_id}/stream", token),
    ):
        error = error_of(reply, 403, "duplicate_table_hidden")
        assert "every table" in error["message"]
    for path in ("log", "replay", "replay?seat=0"):
        error_of(history.get(f"/v1/matches/{match_id}/{path}"), 403, "duplicate_table_hidden")


def tickets_of(store: RedisStore, player: dict[str, Any]) -> list[str]:
    """The stream tickets held for ``player`` (their records name them)."""
    client = store.client()
    try:
        found = (client.get(key) for key in client.scan_iter(match="tapete:ticket:*"))
        return [raw for raw in found if raw and json.loads(raw)["player"] == player["id"]]
    finally:
        client.close()


def test_a_player_of_a_group_may_not_watch_its_other_table_until_the_group_is_revealed(
    lobby: Http, history: Http, redis_store: RedisStore, bots: list[BotProcess]
):
    ana, eva = lobby.player("Ana"), lobby.player("Eva")  # Eva: a stranger to the group
    group = open_group(lobby, ana, tables=2, seats=["me", "random"], bot_level="easy")
    mine, bots_only = (table["match"] for table in group["tables"])
    assert lobby.view(ana, mine)["seats"][0]["player"] == ana["id"]
    assert lobby.view(ana, mine)["duplicate"]["people"] == [[ana["id"]], []]
    hidden_reads(lobby, history, ana, bots_only)  # while both tables play
    assert tickets_of(redis_store, ana) == []
    assert [s["bot"] for s in lobby.view(eva, bots_only)["seats"]] == ["random", "easy"]
    assert lobby.events(eva, bots_only).status == 200
    assert lobby.post(f"/v1/matches/{bots_only}/stream-ticket", eva["token"]).status == 200

    group = until(lobby, ana, group, lambda g: g["tables"][1]["status"] == "finished")
    assert group["status"] == "playing" and group["seed"] is None
    assert group["comparison"] is None
    finished = lobby.view(eva, bots_only)
    assert finished["status"] == "finished" and "seed" not in finished
    hidden_reads(lobby, history, ana, bots_only)  # finished, but Ana's table plays on
    assert lobby.events(eva, bots_only).body["version"] == finished["version"]  # unchanged
    error_of(history.get(f"/v1/matches/{bots_only}/verify"), 409, "seed_withheld")

    assert lobby.post(f"/v1/matches/{mine}/resign", ana["token"]).status == 200
    group = until(lobby, ana, group, lambda g: g["status"] == "finished")
    for match_id in (mine, bots_only):
        report = history.get(f"/v1/matches/{match_id}/verify").body
        assert report["ok"] and report["seed"]["revealed"], report
        assert lobby.view(ana, match_id)["seed"] == group["seed"]
    assert lobby.events(ana, bots_only).status == 200
    assert lobby.post(f"/v1/matches/{bots_only}/stream-ticket", ana["token"]).status == 200
    assert history.get(f"/v1/matches/{bots_only}/log").body["revealed"] is True


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"tables": 1}, 400, None),
        ({"tables": 13}, 400, None),
        ({"game": "no-such-game"}, 400, None),
        ({"seats": ["me"]}, 400, "bad_seats"),
        ({"seats": ["me", "me"]}, 400, "bad_seats"),
        ({"seats": ["me", "no-such-bot"]}, 400, None),
        ({"players": 9, "seats": ["me"] * 9}, 400, None),
        ({"seats": ["me", "random"], "autostart": False}, 400, None),
    ],
)
def test_a_refused_group_is_a_4xx_and_creates_nothing(
    lobby: Http, body: dict[str, Any], status: int, code: str | None
):
    bea = lobby.player("Bea")
    reply = lobby.post("/v1/duplicates", bea["token"], json={"game": "escoba", **body})
    error_of(reply, status, code)
    assert lobby.get("/v1/matches?mine=true", bea["token"]).body["matches"] == []


def test_an_unknown_group_is_a_404(lobby: Http):
    cid = lobby.player("Cid")
    error_of(lobby.get("/v1/duplicates/0123456789abcdef", cid["token"]), 404)
    error_of(lobby.get("/v1/duplicates/not-an-id", cid["token"]), 404)
    error_of(lobby.get("/v1/duplicates/0123456789abcdef"), 401)
