"""What every game client needs from the lobby, on a real Redis and the real rules service.

CORS and preflights, the caller's own player and its token (rotation, logout), the match
list's filters and cursor over its indexes, resigning, abandonment, the turn deadline, the
feed's end, rematches, bots as a few named players with derived, revocable seat tokens, and
the refusals a client meets (a reused action id, a body that is not JSON, a bad query).
The live parts (gunicorn, the feed, rq workers) are in test_lobby_clients_live.py.
"""

from __future__ import annotations

import json
import subprocess
import time
from datetime import datetime
from typing import Any, cast

import pytest
import redis

from services.history.projections import project, rate, teams_of
from services.history.schemas import Leaderboard
from services.history.store import ReadModels
from services.history.verify import verify
from services.lobby import application as lobby_application
from services.lobby import listing
from services.lobby.app import create_lobby_app
from services.lobby.application import MISSED_TURNS_LIMIT, Lobby
from services.lobby.players import TOKEN_KEY, token_digest
from services.lobby.rules_client import RulesClient
from services.lobby.schemas import MatchList
from services.settings import Settings
from tests.service_fixtures import ROOT, Http, Service, error_of

DEV_ORIGIN = "http://localhost:5173"


@pytest.fixture
def lobby(redis_client: redis.Redis, redis_url: str, rules_service: Service) -> Lobby:
    """The application layer on a freshly flushed Redis (redis_client flushes it)."""
    return Lobby(lobby_application.redis_client(redis_url), RulesClient(rules_service.url))


@pytest.fixture
def http(lobby: Lobby) -> Http:
    settings = Settings(cors_origins=(DEV_ORIGIN,))
    return Http(create_lobby_app({"TESTING": True}, service=lobby, settings=settings).test_client())


def dump(raw: redis.Redis) -> str:
    """Every string, hash and set member in Redis, as text: to look for a secret in it."""
    out: dict[str, Any] = {}
    for key in cast(list[str], raw.keys("*")):
        kind = raw.type(key)
        if kind == "string":
            out[key] = raw.get(key)
        elif kind == "hash":
            out[key] = raw.hgetall(key)
        elif kind == "stream":
            out[key] = raw.xrange(key)
    return json.dumps(out, default=str)


def resign(http: Http, player: dict[str, Any], match_id: str) -> dict[str, Any]:
    reply = http.post(f"/v1/matches/{match_id}/resign", player["token"])
    assert reply.status == 200, reply.body
    return reply.body


# -- CORS -------------------------------------------------------------------------------------
def test_a_preflight_needs_no_token_and_allows_only_the_configured_origins(http: Http):
    ask = {
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
    }
    allowed = http.call("OPTIONS", "/v1/matches", headers={"Origin": DEV_ORIGIN, **ask})
    assert allowed.status == 204
    assert "POST" in allowed.headers["Access-Control-Allow-Methods"]
    assert "Authorization" in allowed.headers["Access-Control-Allow-Headers"]
    assert allowed.headers["Access-Control-Allow-Origin"] == DEV_ORIGIN
    other = http.call("OPTIONS", "/v1/matches", headers={"Origin": "https://evil.example", **ask})
    assert other.status == 204 and "Access-Control-Allow-Origin" not in other.headers
    assert "Access-Control-Allow-Methods" not in other.headers
    ana = http.player()
    got = http.get("/v1/matches", ana["token"], headers={"Origin": DEV_ORIGIN})
    assert got.status == 200 and got.headers["Access-Control-Allow-Origin"] == DEV_ORIGIN
    assert "X-Request-ID" in got.headers["Access-Control-Expose-Headers"]
    refused = http.get("/v1/matches", headers={"Origin": DEV_ORIGIN})  # errors carry it too
    assert refused.status == 401 and refused.headers["Access-Control-Allow-Origin"] == DEV_ORIGIN


def test_no_origin_is_allowed_by_default(lobby: Lobby):
    client = Http(
        create_lobby_app({"TESTING": True}, service=lobby, settings=Settings()).test_client()
    )
    ana = client.player()
    got = client.get("/v1/matches", ana["token"], headers={"Origin": DEV_ORIGIN})
    assert got.status == 200 and "Access-Control-Allow-Origin" not in got.headers
    assert Settings.from_env({}).cors_origins == ()
    assert Settings.from_env({"CORS_ORIGINS": "http://a, http://b,"}).cors_origins == (
        "http://a",
        "http://b",
    )


def test_make_run_allows_the_dev_origin_and_make_demo_follows_the_ports():
    run = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True)
    assert f'CORS_ORIGINS="${{CORS_ORIGINS-{DEV_ORIGIN}' in run.stdout
    demo = subprocess.run(
        ["make", "-n", "demo", "LOBBY_PORT=9100", "HISTORY_PORT=9102"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert "--lobby http://127.0.0.1:9100 --history http://127.0.0.1:9102" in demo.stdout


# -- the caller and its token -----------------------------------------------------------------
def test_me_rotation_and_logout(http: Http, redis_client: redis.Redis):
    ana = http.player("Ana")
    me = http.get("/v1/players/me", ana["token"])
    assert me.status == 200 and me.body == {"id": ana["id"], "name": "Ana", "is_bot": False}
    error_of(http.get("/v1/players/me"), 401)
    rotated = http.post("/v1/players/me/token", ana["token"])
    assert rotated.status == 201 and rotated.body["id"] == ana["id"]
    new = rotated.body["token"]
    assert new != ana["token"] and new not in dump(redis_client)
    error_of(http.get("/v1/players/me", ana["token"]), 401)  # the old one, at once
    error_of(http.get("/v1/matches", ana["token"]), 401)
    assert http.get("/v1/players/me", new).body["id"] == ana["id"]
    out = http.client.delete("/v1/players/me/token", headers={"Authorization": f"Bearer {new}"})
    assert out.status_code == 204 and out.data == b""
    error_of(http.get("/v1/players/me", new), 401)
    error_of(http.call("DELETE", "/v1/players/me/token", new), 401)


# -- refusals a client meets ------------------------------------------------------------------
def test_a_body_that_is_not_json_is_415_and_a_bad_query_says_query(http: Http):
    ana = http.player()
    sent = http.post(
        "/v1/matches",
        ana["token"],
        data='{"game": "brisca"}',
        headers={"Content-Type": "text/plain"},
    )
    assert "application/json" in error_of(sent, 415, "unsupported_media_type")["message"]
    error_of(http.post("/v1/players", data="name=Ana"), 415, "unsupported_media_type")
    bad = error_of(http.get("/v1/matches?limit=0", ana["token"]), 400, "bad_request")
    assert bad["message"].startswith("the query is invalid: limit")
    bad = error_of(http.post("/v1/players", json={"name": ""}), 400, "bad_request")
    assert bad["message"].startswith("the request body is invalid: name")


# -- the match list ---------------------------------------------------------------------------
def test_the_list_filters_mine_free_seats_and_game_and_pages_with_a_cursor(http: Http):
    ana, beto = http.player("Ana"), http.player("Beto")
    briscas = [http.match(ana) for _ in range(5)]
    raj = http.match(beto, game="raj", players=3)
    http.join(ana, raj["id"])
    full, _ = http.seated_match()  # two others, running

    def listed(who: dict[str, Any], query: str) -> tuple[list[str], str | None]:
        reply = http.get(f"/v1/matches?{query}", who["token"])
        assert reply.status == 200, reply.body
        assert MatchList().validate(reply.body) == {}  # sent undumped: the schema still holds
        return [m["id"] for m in reply.body["matches"]], reply.body["next"]

    assert listed(ana, "mine=true")[0] == [raj["id"]]
    assert listed(beto, "mine=true")[0] == []
    newest_first = [raj["id"], *[m["id"] for m in reversed(briscas)]]
    assert listed(ana, "free_seats=true")[0] == newest_first
    assert listed(ana, "free_seats=true&game=raj")[0] == [raj["id"]]
    assert listed(ana, "status=running")[0] == [full["id"]]
    assert listed(ana, "mine=true&status=running")[0] == []
    error_of(http.get("/v1/matches?free_seats=true&status=running", ana["token"]), 400)
    error_of(http.get("/v1/matches?cursor=nonsense", ana["token"]), 400, "bad_cursor")
    pages, cursor = [], None
    while True:
        ids, cursor = listed(ana, "game=brisca&limit=2" + (f"&cursor={cursor}" if cursor else ""))
        pages.append(ids)
        if cursor is None:
            break
    everything = [full["id"], *[m["id"] for m in reversed(briscas)]]
    assert [i for page in pages for i in page] == everything and len(pages) == 3
    # a match leaving a filter leaves its index: the last free seat taken, the start
    http.join(beto, raj["id"])
    http.join(http.player("Carla"), raj["id"])
    assert raj["id"] not in listed(ana, "free_seats=true")[0]
    assert listed(ana, "mine=true&status=running")[0] == [raj["id"]]
    assert listed(beto, "mine=true")[0] == [raj["id"]]


def test_the_same_creation_time_pages_without_a_loss_or_a_repeat(http: Http, lobby: Lobby):
    ana = http.player()
    lobby.store.clock = lambda: 1_800_000_000.0  # every match created in the same millisecond
    made = {http.match(ana)["id"] for _ in range(7)}
    seen, cursor = [], None
    while True:
        page = http.get(
            "/v1/matches?limit=3" + (f"&cursor={cursor}" if cursor else ""), ana["token"]
        )
        seen += [m["id"] for m in page.body["matches"]]
        cursor = page.body["next"]
        if cursor is None:
            break
    assert sorted(seen) == sorted(made) and len(seen) == 7


def test_a_stale_index_member_is_skipped_and_repaired(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    ana = http.player()
    match = http.match(ana)
    ghost = "0123456789abcdef"  # a match that is not there
    free = listing.key(
        "all", listing.ANY, listing.FREE, listing.shard_of(ghost, lobby.listing_shards)
    )
    redis_client.zadd(free, {ghost: 9e12})
    seated = http.match(ana)
    shard = listing.shard_of(seated["id"], lobby.listing_shards)
    redis_client.zadd(listing.key("all", listing.ANY, "running", shard), {seated["id"]: 9e12})
    got = http.get("/v1/matches?free_seats=true", ana["token"]).body["matches"]
    assert [m["id"] for m in got] == [seated["id"], match["id"]]
    assert redis_client.zscore(free, ghost) is None
    assert [
        m["id"] for m in http.get("/v1/matches?status=running", ana["token"]).body["matches"]
    ] == []


# -- the end of a match: resign, abandon ------------------------------------------------------
def test_resigning_ends_the_match_for_the_others_and_the_history_verifies_it(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    match, seated = http.seated_match(game="brisca", players=2)
    stranger = http.player("Eve")
    error_of(http.post(f"/v1/matches/{match['id']}/resign", stranger["token"]), 403, "not_seated")
    ended = resign(http, seated[1], match["id"])
    assert ended["status"] == "finished" and ended["to_act"] == []
    assert ended["result"]["reason"] == "resigned" and ended["result"]["seat"] == 1
    assert ended["result"]["winners"] == [0]
    error_of(http.post(f"/v1/matches/{match['id']}/resign", seated[0]["token"]), 409)
    log = lobby.log.entries(match["id"])
    assert log[-1]["kind"] == "match.ended" and log[-1]["seed"] == ended["seed"]
    assert log[-1]["actor"] == {"player": seated[1]["id"], "seat": 1, "system": False}
    report = verify(log)
    assert report["ok"], report["divergences"]
    # the history scores it as it scores any finished match
    models = ReadModels(redis_client, lobby.log)
    models.catch_up(match["id"])
    assert models.summary(match["id"])["status"] == "finished"
    board = models.leaderboard("brisca", 10)
    assert [row["player"] for row in board] == [seated[0]["id"], seated[1]["id"]]
    assert [row["wins"] for row in board] == [1, 0]


def test_a_tampered_resignation_does_not_verify(http: Http, lobby: Lobby):
    match, seated = http.seated_match(game="brisca", players=2)
    resign(http, seated[1], match["id"])
    log = lobby.log.entries(match["id"])
    log[-1]["result"] = {**log[-1]["result"], "winners": [1]}
    report = verify(log)
    assert not report["ok"] and report["divergences"][0]["check"] == "result"


def test_a_seat_that_misses_its_turns_in_a_row_abandons_a_match_with_no_sit_in(
    http: Http, lobby: Lobby
):
    # (with a sit_in, a bot plays the seat instead: tests/test_sitin_live.py)
    match, seated = http.seated_match(game="brisca", players=2, turn_timeout=5, sit_in=None)
    assert match["turn_deadline"] and match["view"]["turn_deadline"] == match["turn_deadline"]
    seat = match["to_act"][0]
    for _ in range(MISSED_TURNS_LIMIT * 2):
        snap = lobby.load(match["id"])
        if snap.match["status"] == "finished":
            break
        play_turn_with_seat_absent(http, lobby, snap, seated, seat)
    final = http.view(seated[0], match["id"])
    assert final["status"] == "finished", final
    assert final["result"]["reason"] == "abandoned" and final["result"]["seat"] == seat
    assert final["result"]["winners"] == [1 - seat]
    timed_out = [e for e in lobby.log.entries(match["id"]) if (e["actor"] or {}).get("system")]
    assert len([e for e in timed_out if e["kind"] == "action"]) == MISSED_TURNS_LIMIT - 1
    assert verify(lobby.log.entries(match["id"]))["ok"]


def play_turn_with_seat_absent(
    http: Http, lobby: Lobby, snap: Any, seated: list, absent: int
) -> None:
    """One turn of ``snap``'s match: the turn timer plays for the ``absent`` seat, the seat's
    player plays its first legal action otherwise."""
    match_id, to_act = snap.id, snap.match["to_act"][0]
    if to_act == absent:
        view = lobby.seat_view(match_id, absent)["view"]
        lobby.submit_for_seat(match_id, absent, view["legal_actions"][0], snap.version)
    else:
        legal = http.view(seated[to_act], match_id)["view"]["legal_actions"]
        assert http.act(seated[to_act], match_id, legal[0], snap.version).status == 200


def test_a_seat_that_misses_its_turns_in_a_row_gets_a_bot_with_a_sit_in(http: Http, lobby: Lobby):
    match, seated = http.seated_match(game="brisca", players=2, turn_timeout=5, sit_in="hard")
    seat = match["to_act"][0]
    while not lobby.load(match["id"]).match["seats"][seat].get("sat_in"):
        snap = lobby.load(match["id"])
        play_turn_with_seat_absent(http, lobby, snap, seated, seat)
    snap = lobby.load(match["id"])
    assert snap.match["status"] == "running" and seat in snap.match["to_act"]
    assert snap.match["seats"][seat]["player"] == seated[seat]["id"]
    assert snap.match["seats"][seat]["sat_in"]["reason"] == "timeouts"
    assert not snap.match.get("missed_turns") and snap.match["turn_deadline"] is None
    sat = lobby.log.entries(match["id"])[-1]
    assert sat["kind"] == "seat.sat_in" and sat["strategy"] == "hard"
    assert sat["actor"] == {"player": seated[seat]["id"], "seat": seat, "system": True}
    assert sat["state_hash"] == lobby.log.entries(match["id"])[-2]["state_hash"]
    # the seat's own person may not play it now, the sitting-in bot's token may
    legal = http.view(seated[seat], match["id"])["view"]["legal_actions"]
    refused = http.act(seated[seat], match["id"], legal[0], snap.version)
    error_of(refused, 409, "seat_sat_in")
    token = lobby.bot_token(match["id"], seat)
    assert token is not None
    reply = http.post(
        f"/v1/matches/{match['id']}/actions", token,
        json={"action": legal[0], "expected_version": snap.version},
    )  # fmt: skip
    assert reply.status == 200, reply.body
    moved = lobby.log.entries(match["id"])[-1]["actor"]
    assert moved["player"] == "bot-hard" and moved["strategy"] == "hard"
    # taken back, the bot's token no longer acts for the seat
    assert http.post(f"/v1/matches/{match['id']}/return", seated[seat]["token"]).status == 200
    assert lobby.bot_token(match["id"], seat) is None
    assert http.get(f"/v1/matches/{match['id']}", token).status == 401
    resign(http, seated[1 - seat], match["id"])
    report = verify(lobby.log.entries(match["id"]))  # the sit-in and the return replay too
    assert report["ok"], report["divergences"]
    log = lobby.log.entries(match["id"])
    next(e for e in log if e["kind"] == "seat.sat_in")["state_hash"] = "0" * 64
    tampered = verify(log)  # a sit-in that claims another state does not verify
    assert not tampered["ok"] and tampered["divergences"][0]["check"] == "state_hash"


def test_a_move_of_its_own_resets_the_missed_turns(http: Http, lobby: Lobby):
    match, seated = http.seated_match(game="brisca", players=2, turn_timeout=5)
    seat = match["to_act"][0]
    view = lobby.seat_view(match["id"], seat)["view"]
    lobby.submit_for_seat(match["id"], seat, view["legal_actions"][0], match["version"])
    assert lobby.load(match["id"]).match["missed_turns"] == {str(seat): 1}
    while lobby.load(match["id"]).match["to_act"] != [seat]:
        snap = lobby.load(match["id"])
        other = snap.match["to_act"][0]
        legal = http.view(seated[other], match["id"])["view"]["legal_actions"]
        http.act(seated[other], match["id"], legal[0], snap.version)
    snap = lobby.load(match["id"])
    legal = http.view(seated[seat], match["id"])["view"]["legal_actions"]
    assert http.act(seated[seat], match["id"], legal[0], snap.version).status == 200
    assert not lobby.load(match["id"]).match.get("missed_turns")


def test_an_idle_match_is_ended_as_abandoned_by_nobody_and_moves_no_rating(
    http: Http, lobby: Lobby
):
    match, seated = http.seated_match(game="brisca", players=2)
    error_of_stale = pytest.raises(Exception)
    with error_of_stale:
        lobby.abandon(match["id"], match["version"] - 1)  # moved on since: refused
    lobby.abandon(match["id"], match["version"])
    ended = http.view(seated[0], match["id"])
    assert ended["result"] == {
        "reason": "abandoned", "seat": None, "winners": [], "scores": ended["result"]["scores"],
    }  # fmt: skip
    log = lobby.log.entries(match["id"])
    assert log[-1]["actor"] == {"player": None, "seat": None, "system": True}
    assert verify(log)["ok"]
    summary = project(None, log).summary
    records = rate(summary, teams_of(summary), {})
    assert {r["mu"] for r in records.values()} == {25.0} and all(
        r["matches"] == 1 for r in records.values()
    )


# -- the turn deadline and the feed's end -----------------------------------------------------
def test_the_turn_deadline_is_in_the_match_the_view_the_answer_and_the_feed(http: Http):
    match, seated = http.seated_match(game="brisca", players=2, turn_timeout=60)
    deadline = datetime.fromisoformat(match["turn_deadline"]).timestamp()
    assert 55 < deadline - time.time() <= 61
    seat = match["to_act"][0]
    legal = http.view(seated[seat], match["id"])["view"]["legal_actions"]
    moved = http.act(seated[seat], match["id"], legal[0], match["version"])
    assert moved.body["view"]["turn_deadline"] >= match["turn_deadline"]
    entries = http.events(seated[0], match["id"]).body["entries"]
    assert entries[-1]["turn_deadline"] == moved.body["view"]["turn_deadline"]
    untimed, players = http.seated_match(game="brisca", players=2)
    assert untimed["turn_deadline"] is None and untimed["view"]["turn_deadline"] is None


def test_a_long_poll_on_a_finished_match_answers_at_once_and_says_so(http: Http):
    match, seated = http.seated_match(game="brisca", players=2)
    running = http.events(seated[0], match["id"], after=match["version"]).body
    assert running["finished"] is False and running["status"] == "running"
    ended = resign(http, seated[0], match["id"])
    started = time.monotonic()
    page = http.events(seated[0], match["id"], after=ended["version"], wait=20).body
    assert time.monotonic() - started < 2
    assert page["finished"] is True and page["status"] == "finished" and page["entries"] == []
    last = http.events(seated[1], match["id"], after=match["version"]).body
    assert last["finished"] is True and last["entries"][-1]["kind"] == "match.ended"


# -- rematch ----------------------------------------------------------------------------------
def test_a_rematch_keeps_the_seats_and_options_and_each_player_accepts_by_joining(http: Http):
    ana, beto = http.player("Ana"), http.player("Beto")
    match = http.match(ana, game="raj", players=3, turn_timeout=30, options={})
    http.join(ana, match["id"], seat=0)
    http.post(
        f"/v1/matches/{match['id']}/bots", ana["token"], json={"seat": 1, "strategy": "random"}
    )
    http.join(beto, match["id"], seat=2)
    error_of(http.post(f"/v1/matches/{match['id']}/rematch", ana["token"]), 409)  # still running
    resign(http, beto, match["id"])
    eve = http.player("Eve")
    error_of(http.post(f"/v1/matches/{match['id']}/rematch", eve["token"]), 403, "not_seated")
    offered = http.post(f"/v1/matches/{match['id']}/rematch", ana["token"])
    assert offered.status == 200, offered.body
    again = offered.body
    assert again["rematch_of"] == match["id"] and again["status"] == "open"
    assert (again["game"], again["players"], again["turn_timeout"]) == ("raj", 3, 30)
    assert again["seats"][0]["player"] == ana["id"]
    assert again["seats"][1]["bot"] == "random" and again["seats"][1]["player"] == "bot-random"
    assert again["seats"][2]["player"] is None and again["seats"][2]["reserved_for"] == beto["id"]
    # Beto sees the offer in the old match and in his own list; nobody else may take his seat
    assert http.view(beto, match["id"])["rematch"] == again["id"]
    old_log = http.events(beto, match["id"]).body["entries"]
    assert old_log[-1]["kind"] == "rematch.offered" and old_log[-1]["rematch"] == again["id"]
    mine = http.get("/v1/matches?mine=true&status=open", beto["token"]).body["matches"]
    assert [m["id"] for m in mine] == [again["id"]]
    assert again["id"] not in [
        m["id"] for m in http.get("/v1/matches?free_seats=true", eve["token"]).body["matches"]
    ]
    error_of(http.post(f"/v1/matches/{again['id']}/join", eve["token"], json={}), 409, "match_full")
    error_of(
        http.post(f"/v1/matches/{again['id']}/join", eve["token"], json={"seat": 2}),
        409, "seat_reserved",
    )  # fmt: skip
    # asking again, by anyone of the match, gives the same rematch
    assert http.post(f"/v1/matches/{match['id']}/rematch", beto["token"]).body["id"] == again["id"]
    accepted = http.join(beto, again["id"])
    assert accepted["seats"][2]["player"] == beto["id"] and accepted["status"] == "running"


# -- bots -------------------------------------------------------------------------------------
def test_bots_are_one_player_per_strategy_with_hashed_seat_tokens_revoked_at_the_end(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    ana = http.player("Ana")
    match = http.match(ana, game="raj", players=3)
    http.join(ana, match["id"], seat=0)
    for seat in (1, 2):
        body = {"seat": seat, "strategy": "random"}
        assert http.post(f"/v1/matches/{match['id']}/bots", ana["token"], json=body).status == 200
    running = http.view(ana, match["id"])
    assert [s["player"] for s in running["seats"][1:]] == ["bot-random", "bot-random"]
    tokens = [lobby.bot_token(match["id"], seat) for seat in (1, 2)]
    assert tokens[0] and tokens[1] and tokens[0] != tokens[1]
    assert lobby.bot_token(match["id"], 0) is None  # a person's seat has none
    stored = dump(redis_client)
    assert not any(token in stored for token in tokens)
    assert all(token_digest(token) in stored for token in tokens)
    me = http.get("/v1/players/me", tokens[1])
    assert me.body == {"id": "bot-random", "name": "random bot", "is_bot": True}
    # each seat's token sees and acts for its own seat
    assert http.get(f"/v1/matches/{match['id']}", tokens[1]).body["view"]["seat"] == 2
    error_of(http.post("/v1/players/me/token", tokens[0]), 403, "bot_token")
    resign(http, ana, match["id"])
    for token in tokens:
        error_of(http.get(f"/v1/matches/{match['id']}", token), 401)
        assert redis_client.get(TOKEN_KEY.format(digest=token_digest(token))) is None


def test_the_leaderboard_has_a_row_per_person_and_one_per_bot(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    models = ReadModels(redis_client, lobby.log)
    for name in ("Ana", "Beto"):
        person = http.player(name)
        match = http.match(person, game="raj", players=3)
        http.join(person, match["id"], seat=0)
        for seat in (1, 2):
            body = {"seat": seat, "strategy": "random"}
            http.post(f"/v1/matches/{match['id']}/bots", person["token"], json=body)
        resign(http, person, match["id"])
        models.catch_up(match["id"])
    board = models.leaderboard("raj", 10)
    assert sorted((row["name"], row["is_bot"], row["matches"]) for row in board) == [
        ("Ana", False, 1), ("Beto", False, 1), ("random bot", True, 2),
    ]  # fmt: skip
    bot = next(row for row in board if row["is_bot"])
    assert bot["wins"] == 2 and bot["player"] == "bot-random"
    shown = Leaderboard().dump({"game": "raj", "players": board})["players"]
    assert sorted(row["is_bot"] for row in shown) == [False, False, True]  # the API says so
