"""A bot sits in for a person, as deployed: the lobby and history services under gunicorn,
the bot dispatcher and an rq worker as real processes, on a real Redis.

A person who leaves a running Brisca is replaced by a bot of the match's ``sit_in``
strategy, whose moves say which strategy and version played them; they take the seat back
and play again, the bot no longer does; left again, the bot finishes the match, which
verifies and is rated for the person. Repeated timeouts seat the bot instead of abandoning
the match. Refusals change nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shared.bots import strategy_version
from shared.eventstore import MatchLog
from tests.bots_fixtures import BotProcess, BotProcesses
from tests.history_fixtures import Consumers, wait_applied
from tests.service_fixtures import Http, Service, error_of, session
from tests.test_bots_live import check_log, follow

Entry = dict[str, Any]
SAT_IN, RETURNED = "seat.sat_in", "seat.returned"


@pytest.fixture(scope="module")
def dispatcher(bot_processes: BotProcesses) -> BotProcess:
    process = bot_processes.dispatcher()
    process.wait_for_log("dispatching")
    return process


@pytest.fixture
def worker(bot_processes: BotProcesses, dispatcher: BotProcess) -> Iterator[BotProcess]:
    """One rq worker for the test (started after the store is emptied, where a test asks)."""
    process = bot_processes.worker(f"sitin-worker-{time.monotonic_ns()}")
    process.wait_for_log("working on")
    yield process
    process.stop()


@pytest.fixture
def lobby(lobby_service: Service) -> Http:
    return Http(session(), lobby_service.url)


def two_people(lobby: Http, **body: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A running two-player Brisca of Ana (seat 0) and Ben (seat 1)."""
    seated = [lobby.player("Ana"), lobby.player("Ben")]
    match = lobby.match(seated[0], game="brisca", players=2, **body)
    for seat, person in enumerate(seated):
        match = lobby.join(person, match["id"], seat=seat)
    assert match["status"] == "running", match
    return match, seated


def play(
    lobby: Http,
    match_id: str,
    players: dict[int, dict[str, Any]],
    until: Callable[[dict[str, Any]], bool],
    timeout: float = 60.0,
) -> dict[str, Any]:
    """The persons of ``players`` (seat -> player) play their turns, the first legal action,
    until ``until(match)``; the match then (read by the first of them)."""
    watcher = next(iter(players.values()))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = lobby.view(watcher, match_id)
        if until(now):
            return now
        mine = [seat for seat in now["to_act"] if seat in players]
        if not mine:  # someone else (a bot) is to act: wait for the next entry
            lobby.events(watcher, match_id, after=now["version"], wait=5)
            continue
        view = lobby.view(players[mine[0]], match_id)
        if view["version"] != now["version"]:
            continue
        move = lobby.act(
            players[mine[0]], match_id, view["view"]["legal_actions"][0], view["version"]
        )
        assert move.status in (200, 409), move.body  # 409: the match moved on meanwhile
    raise AssertionError(f"match {match_id}: not there in {timeout}s")


def entries(lobby: Http, player: dict[str, Any], match_id: str, after: int = 0) -> list[Entry]:
    reply = lobby.events(player, match_id, after=after)
    assert reply.status == 200, reply.body
    return list(reply.body["entries"])


def moves_of(log: list[Entry], seat: int) -> list[Entry]:
    return [e for e in log if e["kind"] == "action" and e["actor"]["seat"] == seat]


def test_a_person_who_leaves_is_replaced_by_a_bot_returns_and_the_match_is_rated_theirs(
    store_log: MatchLog, lobby: Http, history: Http, consumers: Consumers, worker: BotProcess
):
    consumer = consumers.start("sitin")
    match, (ana, ben) = two_people(lobby, sit_in="easy")
    match_id = match["id"]
    assert match["sit_in"] == "easy"
    people = {0: ana, 1: ben}
    played = lambda count: lambda m: len(moves_of(entries(lobby, ana, match_id), 0)) >= count  # noqa: E731

    # Ana leaves after two moves: a bot (Brisca's easy) plays her seat, which stays hers.
    play(lobby, match_id, people, played(2))
    left = lobby.post(f"/v1/matches/{match_id}/leave", ana["token"])
    assert left.status == 200, left.body
    seat = left.body["seats"][0]
    version = strategy_version("easy")
    assert seat["player"] == ana["id"] and seat["name"] == "Ana" and seat["bot"] is None
    assert seat["sat_in"] == {"strategy": "easy", "strategy_version": version, "reason": "left"}
    [sat] = [e for e in entries(lobby, ana, match_id) if e["kind"] == SAT_IN]
    assert sat["actor"] == {"player": ana["id"], "seat": 0, "system": False}
    assert (sat["seat"], sat["player"]["id"], sat["strategy"]) == (0, ana["id"], "easy")
    assert sat["strategy_version"] == version and sat["reason"] == "left"
    assert sat["sentences"] == ["Ana leaves the table: a bot (easy) plays their seat"]
    again = lobby.post(f"/v1/matches/{match_id}/leave", ana["token"])
    error_of(again, 409, "already_sat_in")

    # Ben plays on; the bot answers for Ana, each move saying which strategy played it.
    play(lobby, match_id, {1: ben}, lambda m: len(moves_of(entries(lobby, ana, match_id, sat["version"]), 0)) >= 3)  # fmt: skip
    bot_moves = moves_of(entries(lobby, ana, match_id, sat["version"]), 0)
    for move in bot_moves:
        assert move["actor"] == {
            "player": "bot-easy", "seat": 0, "system": False, "strategy": "easy",
            "strategy_version": version,
        }  # fmt: skip
    now = lobby.view(ana, match_id)
    if 0 in now["to_act"]:  # her own token may not play the seat the bot plays
        refused = lobby.act(ana, match_id, now["view"]["legal_actions"][0], now["version"])
        error_of(refused, 409, "seat_sat_in")

    # Ana takes her seat back: she plays again, and the bot no longer does.
    back = lobby.post(f"/v1/matches/{match_id}/return", ana["token"])
    assert back.status == 200, back.body
    assert "sat_in" not in back.body["seats"][0]
    returned = entries(lobby, ana, match_id, back.body["version"] - 1)[0]
    assert returned["kind"] == RETURNED and returned["actor"]["player"] == ana["id"]
    assert returned["sentences"] == ["Ana takes their seat back"]
    waiting = play(
        lobby, match_id, {1: ben}, lambda m: 0 in m["to_act"] or m["status"] != "running"
    )
    time.sleep(1.5)  # a bot would have played at once (no pace in the tests' lobby)
    hers = lobby.view(ana, match_id)
    assert hers["version"] == waiting["version"] and 0 in hers["to_act"]
    own = lobby.act(ana, match_id, hers["view"]["legal_actions"][0], hers["version"])
    assert own.status == 200, own.body
    mine = moves_of(entries(lobby, ana, match_id, back.body["version"]), 0)
    assert mine and all(
        m["actor"] == {"player": ana["id"], "seat": 0, "system": False} for m in mine
    )

    # Left again, the bot plays her seat to the end; the match verifies and counts for her.
    assert lobby.post(f"/v1/matches/{match_id}/leave", ana["token"]).status == 200
    end = play(lobby, match_id, {1: ben}, lambda m: m["status"] == "finished")
    assert [s["player"] for s in end["seats"]] == [ana["id"], ben["id"]]
    log = entries(lobby, ana, match_id)
    check_log(log)
    assert [e["kind"] for e in log].count(SAT_IN) == 2
    assert "match.ended" not in [e["kind"] for e in log]
    report = history.get(f"/v1/matches/{match_id}/verify").body
    assert report["ok"], report
    wait_applied(store_log, [match_id], consumer=consumer)
    for person in (ana, ben):
        rating = history.get(f"/v1/players/{person['id']}/ratings/brisca")
        assert rating.status == 200 and rating.body["matches"] == 1, rating.body
    board = history.get("/v1/leaderboards/brisca").body["players"]
    assert "bot-easy" not in {row["player"] for row in board}
    sheet = history.get(f"/v1/matches/{match_id}/scores").body
    assert [s["player"] for s in sheet["seats"]] == [ana["id"], ben["id"]]


def test_repeated_timeouts_seat_a_bot_instead_of_abandoning_the_match(
    lobby: Http, history: Http, worker: BotProcess
):
    match, (ana, ben) = two_people(lobby, turn_timeout=1.0, sit_in="random")
    # Nobody plays: each seat's third timed-out turn in a row seats a bot for it, and the
    # bots play the match to its end.
    log = follow(lobby, ana, match["id"], lambda e: e["status"] == "finished", timeout=90)
    log = entries(lobby, ana, match["id"])
    sat = [e for e in log if e["kind"] == SAT_IN]
    assert sorted(e["seat"] for e in sat) == [0, 1]
    for entry in sat:
        person = (ana, ben)[entry["seat"]]
        assert entry["reason"] == "timeouts" and entry["strategy"] == "random"
        assert entry["actor"] == {"player": person["id"], "seat": entry["seat"], "system": True}
        timed_out = [
            e for e in log
            if e["version"] < entry["version"] and e["kind"] == "action"
            and e["actor"]["seat"] == entry["seat"]
        ]  # fmt: skip
        assert len(timed_out) == 2 and all(e["actor"]["system"] for e in timed_out)
    assert "match.ended" not in [e["kind"] for e in log]
    final = lobby.view(ana, match["id"])
    assert final["status"] == "finished" and final["result"].get("reason") is None
    assert final.get("missed_turns", {}) == {}
    assert history.get(f"/v1/matches/{match['id']}/verify").body["ok"]


def test_refusals_change_nothing(lobby: Http):
    match, (ana, ben) = two_people(lobby)
    assert match["sit_in"] == "medium"  # the default
    cai = lobby.player("Cai")
    match_id = match["id"]

    def refused(player: dict[str, Any], path: str, status: int, code: str) -> None:
        before = lobby.view(ana, match_id)["version"]
        error_of(lobby.post(f"/v1/matches/{match_id}/{path}", player["token"]), status, code)
        assert lobby.view(ana, match_id)["version"] == before

    refused(ana, "return", 409, "not_sat_in")  # nobody sits in for her
    refused(cai, "leave", 409, "not_seated")  # a seat he does not hold
    refused(cai, "return", 409, "not_seated")
    assert lobby.post(f"/v1/matches/{match_id}/resign", ben["token"]).status == 200
    refused(ana, "leave", 409, "match_finished")
    refused(ana, "return", 409, "match_finished")

    off, (dan, _eva) = two_people(lobby, sit_in=None)
    assert off["sit_in"] is None
    before = off["version"]
    error_of(lobby.post(f"/v1/matches/{off['id']}/leave", dan["token"]), 409, "sit_in_off")
    assert lobby.view(dan, off["id"])["version"] == before
    for bad in ("nobody", 3, ""):
        reply = lobby.post("/v1/matches", ana["token"], json={"game": "brisca", "sit_in": bad})
        error_of(reply, 400)
    # a strategy that exists, but not in this game
    reply = lobby.post("/v1/matches", ana["token"], json={"game": "raj", "sit_in": "greedy"})
    error_of(reply, 400, "unknown_strategy")
