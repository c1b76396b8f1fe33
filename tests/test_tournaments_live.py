"""Tournaments through real processes (services/lobby/tournaments.py): the lobby, the bot
dispatcher and an rq worker playing the bots and advancing the rounds, the history service
replaying the standings from the logs."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from shared import swiss
from shared.tournament_log import LOG_KEY, duplicate_game
from tests.bots_fixtures import BotProcess, BotProcesses
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import Http, Service, error_of, session

pytestmark = pytest.mark.cluster  # on one Redis and on a Redis Cluster


@pytest.fixture(scope="module")
def players(bot_processes: BotProcesses) -> Iterator[list[BotProcess]]:
    """The dispatcher (turns, bots, advancing) and two workers, for the whole module."""
    dispatcher = bot_processes.dispatcher()
    dispatcher.wait_for_log("dispatching")
    workers = [bot_processes.worker(f"tourney-worker-{i}") for i in range(2)]
    for worker in workers:
        worker.wait_for_log("working on")
    yield [dispatcher, *workers]


@pytest.fixture
def lobby(lobby_service: Service) -> Http:
    return Http(session(), lobby_service.url)


@pytest.fixture
def history(history_service: Service) -> Http:
    return Http(session(), history_service.url)


def create(lobby: Http, host: dict[str, Any], **body: Any) -> dict[str, Any]:
    reply = lobby.post("/v1/tournaments", host["token"], json={"game": "brisca", **body})
    assert reply.status == 201, reply.body
    return reply.body


def tournament(lobby: Http, viewer: dict[str, Any], tournament_id: str) -> dict[str, Any]:
    reply = lobby.get(f"/v1/tournaments/{tournament_id}", viewer["token"])
    assert reply.status == 200, reply.body
    return reply.body


def standings(history: Http, tournament_id: str) -> dict[str, Any]:
    reply = history.get(f"/v1/tournaments/{tournament_id}/standings")
    assert reply.status == 200, reply.body
    return reply.body


def until(history: Http, tournament_id: str, done: Any, timeout: float = 300.0) -> dict:
    """The history's standings once ``done(them)``: read from the logs only, so nothing but
    the dispatcher's advance jobs moves the tournament meanwhile. ``timeout``: a deadline
    for a stuck tournament, not a speed bound (the 16-bot one takes 20-50 s idle, over 120 s
    on a CI machine loaded with other work)."""
    deadline = time.monotonic() + timeout
    while not done(shown := standings(history, tournament_id)):
        assert time.monotonic() < deadline, shown
        time.sleep(0.3)
    return shown


def recomputed(history: Http, doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings, recomputed here from each match's own log (its result, its no-shows)."""
    results = {}
    for paired in doc["rounds_paired"]:
        for table in paired["tables"]:
            log = history.get(f"/v1/matches/{table['match']}/log").body
            if log["status"] == "finished":
                results[table["match"]] = swiss.match_outcome(log["entries"])
    entrants = [e["id"] for e in doc["entrants"]]
    lines = swiss.standings(
        entrants, doc["rounds_paired"], results, doc["withdrawn"], duplicate_game(doc)
    )
    return [
        {"entrant": s.entrant, "points": s.points, "buchholz": s.buchholz,
         "matchpoints": s.matchpoints}
        for s in lines
    ]  # fmt: skip


def redis_entries(store: RedisStore, tournament_id: str) -> list[str]:
    """The tournament's log as stored."""
    client = store.client()
    try:
        return client.lrange(LOG_KEY.format(id=tournament_id), 0, -1)
    finally:
        client.close()


def brief(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {k: line[k] for k in ("entrant", "points", "buchholz", "matchpoints")} for line in lines
    ]


def test_sixteen_bots_play_a_swiss_brisca_tournament_to_its_end(
    lobby: Http, history: Http, players: list[BotProcess]
):
    host = lobby.player("Host")
    started = time.monotonic()
    created = create(
        lobby, host, capacity=16, bots=16, bot_level="random", name="Copa", options={"deals": 1}
    )  # one deal a match, not four: a quarter of the moves
    assert created["status"] == "running" and created["rounds"] == 4  # full: round one is on
    assert len(created["rounds_paired"][0]["tables"]) == 8
    done = until(history, created["id"], lambda s: s["status"] == "finished")
    elapsed = time.monotonic() - started
    doc = tournament(lobby, host, created["id"])
    assert doc["status"] == "finished" and doc["round"] == 4
    met = [frozenset(t["seats"]) for r in doc["rounds_paired"] for t in r["tables"]]
    assert len(met) == len(set(met)) == 32, "an opponent met twice"
    for paired in doc["rounds_paired"]:
        seated = [e for t in paired["tables"] for e in t["seats"]]
        assert sorted(seated) == sorted(e["id"] for e in doc["entrants"]) and not paired["byes"]
    for paired in doc["rounds_paired"]:
        for table in paired["tables"]:
            match = lobby.view(host, table["match"])
            assert match["tournament"] == {
                "id": doc["id"], "round": paired["round"], "table": table["table"],
            }  # fmt: skip
            assert match["status"] == "finished" and match["bot_pace"] == 0
    assert done["matches"] == 32
    assert sum(line["points"] for line in done["standings"]) == 32
    assert all(line["played"] == 4 for line in done["standings"])
    assert brief(done["standings"]) == brief(doc["standings"]) == recomputed(history, doc)
    print(f"16-bot Swiss Brisca, 4 rounds: {elapsed:.1f} s")


def test_registration_withdrawal_and_a_bye_with_an_odd_count(
    lobby: Http, history: Http, players: list[BotProcess]
):
    host, ana, bea, cai, dan = (lobby.player(n) for n in ("Host", "Ana", "Bea", "Cai", "Dan"))
    doc = create(lobby, host, capacity=3, rounds=2, turn_timeout=600)
    path = f"/v1/tournaments/{doc['id']}/register"
    assert doc["status"] == "registering" and doc["registered"] == 0
    assert lobby.post(path, ana["token"]).status == 200
    error_of(lobby.post(path, ana["token"]), 409, "already_registered")
    assert lobby.post(path, bea["token"]).status == 200
    left = lobby.call("DELETE", path, bea["token"])
    assert left.status == 200 and [e["id"] for e in left.body["entrants"]] == [ana["id"]]
    error_of(lobby.call("DELETE", path, bea["token"]), 409, "not_registered")
    assert lobby.post(path, bea["token"]).status == 200
    full = lobby.post(path, cai["token"]).body  # the third: full, round one paired
    assert full["status"] == "running" and full["rounds_paired"][0]["byes"] == [cai["id"]]
    (table,) = full["rounds_paired"][0]["tables"]
    assert table["seats"] == [ana["id"], bea["id"]]
    match = lobby.view(ana, table["match"])
    assert match["status"] == "running" and match["turn_timeout"] == 600
    assert [s["player"] for s in match["seats"]] == [ana["id"], bea["id"]]
    version = full["version"]
    error_of(lobby.post(path, dan["token"]), 409, "tournament_started")
    error_of(lobby.post(path, cai["token"]), 409, "tournament_started")
    assert tournament(lobby, dan, doc["id"])["version"] == version  # refusals change nothing

    # Ana withdraws mid-round: her match is resigned, Bea wins it; round two pairs Bea, Cai.
    gone = lobby.call("DELETE", path, ana["token"])
    assert gone.status == 200 and gone.body["withdrawn"] == [ana["id"]]
    assert lobby.view(ana, table["match"])["result"]["winners"] == [1]
    shown = until(history, doc["id"], lambda s: s["round"] == 2)
    paired = tournament(lobby, dan, doc["id"])["rounds_paired"][1]
    assert paired["byes"] == [] and sorted(paired["tables"][0]["seats"]) == sorted(
        [bea["id"], cai["id"]]
    )
    by = {line["entrant"]: line for line in shown["standings"]}
    assert (by[bea["id"]]["points"], by[cai["id"]]["points"], by[ana["id"]]["points"]) == (1, 1, 0)
    assert by[ana["id"]]["withdrawn"] and by[cai["id"]]["byes"] == 1
    error_of(lobby.call("DELETE", path, ana["token"]), 409, "not_registered")


def test_a_no_show_loses_and_the_tournament_goes_on(
    lobby: Http, history: Http, players: list[BotProcess]
):
    """Eve registers and never plays: the server plays her turns, a bot of the tournament's
    level sits in for her after three, the match is played to its end, and she scores a loss
    against the bot entrant whatever the bot made of her cards."""
    host, eve = lobby.player("Host"), lobby.player("Eve")
    doc = create(lobby, host, capacity=2, bots=1, rounds=1, bot_level="random", turn_timeout=1)
    lobby.post(f"/v1/tournaments/{doc['id']}/register", eve["token"])
    done = until(history, doc["id"], lambda s: s["status"] == "finished", timeout=180)
    by = {line["entrant"]: line for line in done["standings"]}
    assert by[eve["id"]]["points"] == 0 and by["bot-entrant-1"]["points"] == 1
    (table,) = tournament(lobby, host, doc["id"])["rounds_paired"][0]["tables"]
    assert table["no_shows"] == [table["seats"].index(eve["id"])]
    log = history.get(f"/v1/matches/{table['match']}/log").body["entries"]
    (sat,) = [e for e in log if e["kind"] == "seat.sat_in"]
    assert (sat["seat"], sat["strategy"], sat["reason"]) == (
        table["no_shows"][0],
        "random",
        "timeouts",
    )


def test_refusals_are_4xx_and_change_nothing(lobby: Http, players: list[BotProcess]):
    host = lobby.player("Host")
    before = lobby.get("/v1/tournaments", host["token"]).body["tournaments"]
    for body, code in (
        ({"capacity": 4, "bots": 5}, "bad_capacity"),
        ({"capacity": 4, "starts_at": "2001-01-01T00:00:00Z"}, "bad_start"),
        ({"capacity": 4, "game": "no-such-game"}, "unknown_game"),
        ({"capacity": 4, "bot_level": "no-such-level"}, None),
        ({"capacity": 1}, None),
        ({"capacity": 4, "rounds": 0}, None),
        ({"capacity": 3, "duplicate": True}, "bad_capacity"),  # not two tables of two
        ({"capacity": 26, "duplicate": True}, "bad_capacity"),  # 13 tables: not one group
        ({"capacity": 4, "duplicate": "yes"}, None),
    ):
        reply = lobby.post("/v1/tournaments", host["token"], json={"game": "brisca", **body})
        assert 400 <= reply.status < 500, (body, reply.body)
        if code:
            assert reply.body["error"]["code"] == code, reply.body
    assert lobby.get("/v1/tournaments", host["token"]).body["tournaments"] == before
    error_of(lobby.get("/v1/tournaments/0123456789abcdef", host["token"]), 404)
    error_of(lobby.get("/v1/tournaments/nope", host["token"]), 404)
    error_of(lobby.post("/v1/tournaments/nope/register", host["token"]), 404)
    assert lobby.get("/v1/tournaments?status=bogus", host["token"]).status == 400
    assert lobby.get("/v1/tournaments", None).status == 401


def test_a_start_time_and_a_full_tournament(lobby: Http, history: Http, players: list[BotProcess]):
    """Full before its start time, it takes nobody more; at that time the dispatcher starts
    it, with nobody looking: three entrants, one table and a bye."""
    host, ana, bea = lobby.player("Host"), lobby.player("Ana"), lobby.player("Bea")
    starts = datetime.now(UTC) + timedelta(seconds=2)
    doc = create(
        lobby, host, capacity=3, bots=2, rounds=1, bot_level="random",
        starts_at=starts.isoformat(), options={"deals": 1},
    )  # fmt: skip
    path = f"/v1/tournaments/{doc['id']}/register"
    assert lobby.post(path, ana["token"]).body["status"] == "registering"
    error_of(lobby.post(path, bea["token"]), 409, "tournament_full")
    assert tournament(lobby, host, doc["id"])["status"] == "registering"
    until(history, doc["id"], lambda s: s["round"] == 1, timeout=30)  # the history reads only
    started = tournament(lobby, host, doc["id"])
    assert started["rounds_paired"][0]["byes"] == [ana["id"]]
    assert time.time() >= starts.timestamp()


def test_advancing_from_many_places_at_once_pairs_each_round_once(
    lobby: Http, history: Http, players: list[BotProcess], redis_store: RedisStore
):
    """Four bots, three rounds (every pairing once), while four clients read the tournament
    all along (each read advances it) and the dispatcher's jobs advance it too."""
    host = lobby.player("Host")
    doc = create(
        lobby, host, capacity=4, bots=4, rounds=3, bot_level="random", options={"deals": 1}
    )
    done = threading.Event()

    def read() -> int:
        reads = 0
        while not done.is_set():
            assert tournament(lobby, host, doc["id"])["round"] <= 3
            reads += 1
            time.sleep(0.02)
        return reads

    with ThreadPoolExecutor(max_workers=4) as pool:
        readers = [pool.submit(read) for _ in range(4)]
        try:
            until(history, doc["id"], lambda s: s["status"] == "finished", timeout=90)
        finally:
            done.set()
        reads = sum(reader.result() for reader in readers)
    entries = [json.loads(raw) for raw in redis_entries(redis_store, doc["id"])]
    paired = [e["paired"] for e in entries if e["kind"] == "round.paired"]
    assert [p["round"] for p in paired] == [1, 2, 3], "a round paired twice"
    met = [frozenset(t["seats"]) for p in paired for t in p["tables"]]
    assert len(set(met)) == 6
    final = tournament(lobby, host, doc["id"])
    assert [r["round"] for r in final["rounds_paired"]] == [1, 2, 3] and reads > 4
    first = final["rounds_paired"][0]["tables"][0]["match"]
    assert history.get(f"/v1/matches/{first}/verify").body["ok"] is True


def test_tables_of_three_drawn_by_standing_take_bots_in_their_free_seats(
    lobby: Http, history: Http, players: list[BotProcess]
):
    """Five bots at tables of three: one full table and one with a bot filling its third seat;
    the filler scores nothing, the standings count the five."""
    host = lobby.player("Host")
    doc = create(
        lobby, host, players=3, capacity=5, bots=5, rounds=2, bot_level="random",
        options={"deals": 1},
    )  # fmt: skip
    first = doc["rounds_paired"][0]["tables"]
    assert [t["seats"][2] is None for t in first] == [False, True]
    filler = lobby.view(host, first[1]["match"])
    assert filler["players"] == 3 and all(s["bot"] == "random" for s in filler["seats"])
    done = until(history, doc["id"], lambda s: s["status"] == "finished", timeout=120)
    final = tournament(lobby, host, doc["id"])
    assert final["round"] == 2 and len(done["standings"]) == 5
    assert brief(done["standings"]) == brief(final["standings"]) == recomputed(history, final)
    assert all(line["played"] == 2 for line in done["standings"])


def test_a_duplicate_escoba_tournament_deals_each_round_alike_and_ranks_by_matchpoints(
    lobby: Http, history: Http, players: list[BotProcess], redis_store: RedisStore
):
    """Four bots, two rounds of two tables: each round one duplicate group, committed in its
    round.paired entry before its tables were created, its seed withheld from every table
    until the last has finished, then each table verifying; the standings by matchpoints
    equal a recomputation from the logs."""
    host = lobby.player("Host")
    created = create(
        lobby, host, game="escoba", capacity=4, bots=4, rounds=2, bot_level="random",
        duplicate=True,
    )  # fmt: skip
    assert created["duplicate"] and created["status"] == "running"
    withheld, checked = 0, set()
    deadline = time.monotonic() + 180
    while (doc := tournament(lobby, host, created["id"]))["status"] != "finished":
        assert time.monotonic() < deadline, doc
        for paired in doc["rounds_paired"]:
            for table in paired["tables"]:
                if table["status"] == "finished" and table["match"] not in checked:
                    reply = history.get(f"/v1/matches/{table['match']}/verify")
                    if reply.status == 409:  # the other table plays on: caught in time
                        assert reply.body["error"]["code"] == "seed_withheld", reply.body
                        withheld += 1
                    checked.add(table["match"])
        time.sleep(0.1)
    entries = [json.loads(raw) for raw in redis_entries(redis_store, doc["id"])]
    assert entries[0]["tournament"]["duplicate"] is True
    logged = [e for e in entries if e["kind"] == "round.paired"]
    assert [e["paired"]["round"] for e in logged] == [1, 2]
    compared = 0
    for entry, paired in zip(logged, doc["rounds_paired"], strict=True):
        group = entry["paired"]["group"]
        assert group == paired["group"] and len(group["seed_sha256"]) == 64
        shown = lobby.get(f"/v1/duplicates/{group['id']}", host["token"]).body
        assert shown["status"] == "finished" and shown["seed_sha256"] == group["seed_sha256"]
        assert [t["match"] for t in shown["tables"]] == [t["match"] for t in paired["tables"]]
        assert [t["entrants"] for t in shown["tables"]] == [[0, 1], [1, 0]]  # turned
        logs = [
            history.get(f"/v1/matches/{t['match']}/log").body["entries"] for t in paired["tables"]
        ]
        finished_at = max(e["time"] for log in logs for e in log if e["kind"] != "seed.revealed")
        for table, log in zip(paired["tables"], logs, strict=True):
            match = log[0]["match"]
            assert match["seed_sha256"] == group["seed_sha256"]  # one seed, committed
            assert match["duplicate"]["group"] == group["id"]
            assert match["tournament"] == {
                "id": doc["id"], "round": paired["round"], "table": table["table"],
            }  # fmt: skip
            assert entry["time"] <= log[0]["time"]  # in the tournament's log before the table
            assert log[-1]["kind"] == "seed.revealed" and log[-1]["time"] >= finished_at
            assert history.get(f"/v1/matches/{table['match']}/verify").body["ok"] is True
            assert [s["bot"] for s in lobby.view(host, table["match"])["seats"]] == ["random"] * 2
        assert _dealt(logs[0]) == _dealt(logs[1])  # the same cards at the same seats
        compared += shown["comparison"]["compared_deals"]
        assert all(m is not None for t in paired["tables"] for m in t["matchpoints"])
    done = standings(history, doc["id"])
    assert done["duplicate"] and done["status"] == "finished" and done["matches"] == 4
    assert sum(line["matchpoints"] for line in done["standings"]) == 2 * compared
    assert brief(done["standings"]) == brief(doc["standings"]) == recomputed(history, doc)
    ranked = [line["matchpoints"] for line in done["standings"]]
    assert ranked == sorted(ranked, reverse=True)
    print(f"duplicate Escoba, 2 rounds: {compared} deals compared, {withheld} seed_withheld seen")


def _dealt(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first deal's events, each seat's cards included (a revealed log shows them)."""
    return next(e for e in entries if e["kind"] == "match.started")["events"][1:]


def test_a_long_poll_learns_of_the_next_round_as_it_is_paired(
    lobby: Http, players: list[BotProcess], redis_store: RedisStore
):
    """Ana against a bot entrant over two rounds: a client long-polling the tournament at its
    version is answered as the dispatcher pairs round two (Ana resigns round one), soon after
    that pairing (well within 5 s on a loaded machine; ms when idle), not at the end of its
    20 s wait."""
    ana = lobby.player("Ana")
    doc = create(lobby, ana, capacity=2, bots=1, rounds=2, turn_timeout=600)
    running = lobby.post(f"/v1/tournaments/{doc['id']}/register", ana["token"]).body
    assert running["status"] == "running" and running["round"] == 1
    (table,) = running["rounds_paired"][0]["tables"]
    path = f"/v1/tournaments/{doc['id']}?after={running['version']}&wait=20"

    def poll() -> tuple[Any, float]:
        return Http(session(), lobby.base_url).get(path, ana["token"]), time.time()

    with ThreadPoolExecutor(max_workers=1) as pool:
        answer = pool.submit(poll)
        time.sleep(0.5)
        assert not answer.done(), "answered before anything changed"
        assert lobby.post(f"/v1/matches/{table['match']}/resign", ana["token"]).status == 200
        reply, answered = answer.result(timeout=25)
    assert reply.status == 200, reply.body
    assert reply.body["round"] == 2 and reply.body["version"] == running["version"] + 1
    entries = [json.loads(raw) for raw in redis_entries(redis_store, doc["id"])]
    paired = entries[running["version"]]  # the entry after the polled version
    assert paired["kind"] == "round.paired" and paired["paired"]["round"] == 2
    late = answered - datetime.fromisoformat(paired["time"].replace("Z", "+00:00")).timestamp()
    assert late < 5.0, f"answered {late:.2f} s after the round was paired"  # the wait: 20 s
    (second,) = reply.body["rounds_paired"][1]["tables"]
    lobby.post(f"/v1/matches/{second['match']}/resign", ana["token"])  # leave nothing running


def test_a_long_poll_at_the_current_version_times_out_with_the_same_document(
    lobby: Http, players: list[BotProcess]
):
    host = lobby.player("Host")
    doc = create(lobby, host, capacity=4)
    started = time.monotonic()
    reply = lobby.get(f"/v1/tournaments/{doc['id']}?after={doc['version']}&wait=1", host["token"])
    waited = time.monotonic() - started
    assert reply.status == 200 and 0.9 <= waited < 5, (reply.body, waited)
    assert reply.body == doc == tournament(lobby, host, doc["id"])
    started = time.monotonic()  # a version behind: at once
    assert lobby.get(f"/v1/tournaments/{doc['id']}?after=0&wait=20", host["token"]).body == doc
    assert time.monotonic() - started < 2
    for query in ("wait=-1", "wait=31", "after=-1", "after=next", "wait=soon"):
        error_of(lobby.get(f"/v1/tournaments/{doc['id']}?{query}", host["token"]), 400)
    error_of(lobby.get("/v1/tournaments/0123456789abcdef?after=1&wait=1", host["token"]), 404)
    assert tournament(lobby, host, doc["id"]) == doc  # refusals change nothing
