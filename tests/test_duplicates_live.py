"""Duplicate groups as deployed (services/lobby/duplicates.py): the rules, lobby and history
services under gunicorn, the bot dispatcher and an rq worker, on a real Redis and on a Redis
Cluster.

A group of two Escoba tables played to the end by bots is dealt the same cards at both
(the entrants rotated over the seats), and both verify once the group has revealed its
seed; a table that finishes first keeps its seed and its log's secrets while the other
plays on; refused groups create nothing.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import Any

import pytest

from shared.engine import get_game
from shared.verify import verify_export
from tests.bots_fixtures import BotProcess, BotProcesses
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


def test_a_table_finished_first_keeps_its_seed_until_the_other_table_finishes(
    lobby: Http, history: Http, bots: list[BotProcess]
):
    ana = lobby.player("Ana")
    group = open_group(lobby, ana, tables=2, seats=["me", "random"], bot_level="easy")
    mine, bots_only = (table["match"] for table in group["tables"])
    assert lobby.view(ana, mine)["seats"][0]["player"] == ana["id"]
    assert [s["bot"] for s in lobby.view(ana, bots_only)["seats"]] == ["random", "easy"]
    group = until(lobby, ana, group, lambda g: g["tables"][1]["status"] == "finished")
    assert group["status"] == "playing" and group["seed"] is None
    assert group["comparison"] is None
    finished = lobby.view(ana, bots_only)
    assert "seed" not in finished
    log = history.get(f"/v1/matches/{bots_only}/log").body
    assert log["revealed"] is False and log["seed"] is None
    assert all(entry.get("seed") is None for entry in log["entries"])
    assert all(entry["action"] is None for entry in log["entries"])  # as a running match's
    error_of(history.get(f"/v1/matches/{bots_only}/verify"), 409, "seed_withheld")
    error_of(history.get(f"/v1/matches/{bots_only}/replay?seat=0"), 403)

    assert lobby.post(f"/v1/matches/{mine}/resign", ana["token"]).status == 200
    group = until(lobby, ana, group, lambda g: g["status"] == "finished")
    for match_id in (mine, bots_only):
        report = history.get(f"/v1/matches/{match_id}/verify").body
        assert report["ok"] and report["seed"]["revealed"], report
        assert lobby.view(ana, match_id)["seed"] == group["seed"]
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
