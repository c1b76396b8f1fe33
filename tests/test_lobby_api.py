"""The lobby in process (Flask's test client) on a real Redis and the real rules service.

Every endpoint, every error path with its status and code, and that a refused request
writes nothing. Whole matches over real gunicorn processes are in test_lobby_live.py.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
import unicodedata
from typing import Any, cast

import jsonschema_rs
import marshmallow as ma
import pytest
import redis
import yaml
from openapi_spec_validator import validate
from redis.crc import key_slot

from services.errors import BadRequest, Rejected
from services.lobby import application as lobby_application
from services.lobby import listing
from services.lobby import schemas as lobby_schemas
from services.lobby.app import create_lobby_app
from services.lobby.application import SYSTEM, Lobby, sealed_state_hash
from services.lobby.idempotency import ANSWERS_KEPT_AFTER_FINISH
from services.lobby.rules_client import RulesClient
from services.openapi_dump import OPENAPI_DIR, generated_spec
from services.ratelimit import KEY_PREFIX as RATE_LIMIT_KEYS
from shared.engine import apply, get_game, new_match
from shared.eventstore import MatchLog
from shared.jsoncodec import state_hash
from shared.redis_server import free_port
from tests.service_fixtures import TEST_STATE_KEY, Http, Service, error_of, session


@pytest.fixture
def lobby(redis_client: redis.Redis, redis_url: str, rules_service: Service) -> Lobby:
    """The application layer on a freshly flushed Redis (redis_client flushes it)."""
    return Lobby(lobby_application.redis_client(redis_url), RulesClient(rules_service.url))


@pytest.fixture
def http(lobby: Lobby) -> Http:
    return Http(create_lobby_app({"TESTING": True}, service=lobby).test_client())


def everything(raw: redis.Redis) -> dict[str, Any]:
    """Every key with its content: to show that a refused request wrote nothing. The rate
    limits' counters are left out: a refused request counts against its sender too."""
    out: dict[str, Any] = {}
    for key in sorted(cast(list[str], raw.keys("*"))):
        if key.startswith(RATE_LIMIT_KEYS):
            continue
        kind = raw.type(key)
        readers = {
            "stream": raw.xrange,
            "hash": raw.hgetall,
            "set": raw.smembers,
            "zset": lambda k: raw.zrange(k, 0, -1, withscores=True),
        }
        out[key] = readers.get(kind, raw.get)(key)  # type: ignore[operator]
    return out


def entries(lobby: Lobby, match_id: str) -> list[dict[str, Any]]:
    return lobby.log.entries(match_id)


# -- players and tokens -----------------------------------------------------------------------
def test_register_gives_a_token_stored_only_as_its_hash(http: Http, redis_client: redis.Redis):
    ana = http.player("Ana")
    assert set(ana) == {"id", "name", "token"} and ana["name"] == "Ana"
    assert len(ana["token"]) >= 43  # 32 random bytes, url-safe base64
    stored = json.dumps(everything(redis_client))
    assert ana["token"] not in stored
    assert hashlib.sha256(ana["token"].encode()).hexdigest() in stored
    assert http.get("/v1/matches", ana["token"]).status == 200


@pytest.mark.parametrize(
    "body",
    [{}, {"name": ""}, {"name": "   "}, {"name": 5}, {"name": "x" * 41}, {"name": "a\nb"},
     {"name": "Ana", "admin": True}, [], "Ana"],
)  # fmt: skip
def test_bad_player_bodies_are_400(http: Http, body: Any):
    error_of(http.post("/v1/players", json=body), 400, "bad_request")


MATCH_CALLS = [
    ("GET", "/v1/matches"),
    ("POST", "/v1/matches"),
    ("GET", "/v1/matches/abc"),
    ("POST", "/v1/matches/abc/join"),
    ("POST", "/v1/matches/abc/leave"),
    ("POST", "/v1/matches/abc/bots"),
    ("POST", "/v1/matches/abc/start"),
    ("POST", "/v1/matches/abc/actions"),
    ("GET", "/v1/matches/abc/events"),
]


@pytest.mark.parametrize("method, path", MATCH_CALLS)
@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer ", "Bearer nope", "Basic YWxhZGRpbjpvcGVu", "Bearer " + "x" * 300],
)
def test_every_match_call_needs_a_valid_token(
    http: Http, method: str, path: str, authorization: str | None
):
    headers = {"Authorization": authorization} if authorization else {}
    reply = http.call(method, path, headers=headers, json={"surprise": 1})  # 401 before 400
    error_of(reply, 401, "unauthorized")


def test_malformed_json_is_400(http: Http):
    ana = http.player()
    reply = http.post(
        "/v1/matches", ana["token"], data="{not json", content_type="application/json"
    )
    error_of(reply, 400, "bad_request")
    deep = http.post("/v1/players", data="[" * 100_000, content_type="application/json")
    error_of(deep, 400, "bad_request")


# -- creating and listing ----------------------------------------------------------------------
def test_create_checks_the_catalog_and_seats_nobody(http: Http, lobby: Lobby):
    ana = http.player()
    match = http.match(ana, game="brisca", variant="tute", options={"deals": 2})
    assert match["status"] == "open" and match["version"] == 1 and match["view"] is None
    assert match["players"] == 2  # the variant's smallest count by default
    assert match["created_by"] == ana["id"]
    secret = lobby.load(match["id"]).seed  # committed at once, before anyone's seed is known
    assert secret and match["seed_sha256"] == hashlib.sha256(secret.encode()).hexdigest()
    assert [s["player"] for s in match["seats"]] == [None, None]
    [created] = entries(lobby, match["id"])
    assert created["kind"] == "match.created" and created["match"]["options"] == {"deals": 2}


@pytest.mark.parametrize(
    "body, code",
    [
        ({"game": "nope"}, "unknown_game"),
        ({"game": "brisca", "variant": "nope"}, "unknown_variant"),
        ({"game": "brisca", "players": 5}, "bad_setup"),
        ({"game": "brisca", "variant": "tute-parejas", "players": 2}, "bad_setup"),
        ({"game": "brisca", "options": {"colour": "red"}}, "bad_setup"),
        ({"game": "brisca", "options": {"arrastre": "strict"}}, "bad_setup"),
        ({"game": "brisca", "options": {"deals": "two"}}, "bad_setup"),
        ({"game": "brisca", "options": {"deals": True}}, "bad_setup"),
        ({"game": "brisca", "players": "2"}, "bad_request"),
        ({"game": "brisca", "players": True}, "bad_request"),
        ({"game": "brisca", "players": 0}, "bad_request"),
        ({"game": "brisca", "autostart": "yes"}, "bad_request"),
        ({"game": "brisca", "options": []}, "bad_request"),
        ({"game": "brisca", "surprise": 1}, "bad_request"),
        ({"variant": "base"}, "bad_request"),
        ({"game": ""}, "bad_request"),
    ],
)
def test_bad_match_setups_are_400_and_write_nothing(
    http: Http, redis_client: redis.Redis, body: dict, code: str
):
    ana = http.player()
    before = everything(redis_client)
    error_of(http.post("/v1/matches", ana["token"], json=body), 400, code)
    assert everything(redis_client) == before


@pytest.mark.parametrize(
    "options",
    [{"hand_size": 3.0}, {"deals": 2.0}, {"cantes": 1}, {"deals": 0}, {"hand_size": 4}],
)
def test_options_are_refused_by_the_engines_own_check_with_its_reason(
    http: Http, redis_client: redis.Redis, rules_service: Service, options: dict
):
    """The lobby asks the engine's option check: 3.0 is not 3, 1 is not true, and the reason
    is the very one the rules service gives for the same setup."""
    ana = http.player()
    before = everything(redis_client)
    body = {"game": "brisca", "options": options}
    error = error_of(http.post("/v1/matches", ana["token"], json=body), 400, "bad_setup")
    assert error["details"] == {"option": next(iter(options))}
    assert everything(redis_client) == before
    rules = session().post(
        f"{rules_service.url}/v1/games/brisca/setup", json={"players": 2, "options": options}
    )
    assert rules.status_code == 400
    assert rules.json()["error"] == {"code": "bad_setup", "message": error["message"]}


def test_list_filters_by_status_and_game_newest_first(http: Http):
    ana, beto = http.player("Ana"), http.player("Beto")
    open_brisca = http.match(ana)
    raj = http.match(ana, game="raj")
    running = http.match(ana)
    http.join(ana, running["id"])
    http.join(beto, running["id"])

    def listed(query: str) -> list[str]:
        reply = http.get(f"/v1/matches{query}", ana["token"])
        assert reply.status == 200, reply.body
        return [m["id"] for m in reply.body["matches"]]

    assert listed("") == [running["id"], raj["id"], open_brisca["id"]]
    assert listed("?status=open") == [raj["id"], open_brisca["id"]]
    assert listed("?status=open&game=brisca") == [open_brisca["id"]]
    assert listed("?status=running") == [running["id"]]
    assert listed("?game=raj&limit=1") == [raj["id"]]
    assert listed("?status=finished") == []
    for query in ("?status=done", "?limit=0", "?limit=201", "?limit=x"):
        error_of(http.get(f"/v1/matches{query}", ana["token"]), 400, "bad_request")


def test_the_list_index_is_rebuilt_from_the_snapshots(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    ana = http.player()
    ids = [http.match(ana)["id"] for _ in range(3)]
    redis_client.delete(*redis_client.keys(listing.PATTERN))
    assert http.get("/v1/matches", ana["token"]).body["matches"] == []
    assert lobby.rebuild_index() == 3
    listed = [m["id"] for m in http.get("/v1/matches", ana["token"]).body["matches"]]
    assert listed == ids[::-1]


def test_each_match_is_filed_in_one_slot_and_the_matches_spread_over_the_shards():
    ids = [f"{n:016x}" for n in range(64)]
    shards = {listing.shard_of(match_id, 16) for match_id in ids}
    assert len(shards) > 8  # the hash spreads them
    for match_id in ids[:8]:
        match = {"id": match_id, "game": "brisca", "status": "open", "created": "2026-01-01"}
        match |= {
            "seats": [
                {"seat": 0, "player": "p1", "bot": False},
                {"seat": 1, "player": None, "bot": False},
            ]
        }
        keys = listing.keys_of(match, 16)
        assert len(keys) == 12  # (all, p.p1) x (any, brisca) x (any, open, free)
        shard = listing.shard_of(match_id, 16)
        assert {key_slot(k.encode()) for k in keys} == {key_slot(f"{{index.{shard}}}".encode())}
    slots = {key_slot(listing.key("all", "*", "*", shard).encode()) for shard in range(16)}
    assert len(slots) == 16  # no slot takes every filing
    assert listing.keys_of(None, 16) == set()


@pytest.mark.parametrize("shards", [1, 3])
def test_paging_merges_the_shards_each_match_once_newest_then_highest_id_first(
    redis_client: redis.Redis, redis_url: str, rules_service: Service, shards: int
):
    """Half the matches are made at one instant (one score), so pages break inside ties too."""
    instants = iter([1_700_000_000.0] * 6 + [1_700_000_001.0 + n for n in range(5)])
    lobby = Lobby(
        lobby_application.redis_client(redis_url), RulesClient(rules_service.url),
        clock=lambda: next(instants, 1_700_000_100.0), listing_shards=shards,
    )  # fmt: skip
    http = Http(create_lobby_app({"TESTING": True}, service=lobby).test_client())
    made = [http.match(http.player(f"P{n}")) for n in range(11)]
    viewer = http.player("Viewer")
    spread = {listing.shard_of(m["id"], shards) for m in made}
    assert len(spread) == 1 if shards == 1 else len(spread) > 1
    expected = [m["id"] for m in sorted(made, key=lambda m: (m["created"], m["id"]), reverse=True)]
    for limit in (1, 2, 4, 11):
        seen, cursor = [], None
        while True:
            query = f"?limit={limit}" + (f"&cursor={cursor}" if cursor else "")
            page = http.get(f"/v1/matches{query}", viewer["token"]).body
            assert len(page["matches"]) <= limit
            seen += [m["id"] for m in page["matches"]]
            cursor = page["next"]
            if cursor is None:
                break
        assert seen == expected, limit


BODIES = {
    "join": {},
    "bots": {"seat": 0, "strategy": "random"},
    "actions": {"action": {"type": "play"}, "expected_version": 1},
}


@pytest.mark.parametrize("match_id", ["nope", "x" * 200, "a b", "%00", "a:b"])
def test_unknown_match_is_404_everywhere(http: Http, match_id: str):
    ana = http.player()
    for method, path in MATCH_CALLS[2:]:
        body = BODIES.get(path.rsplit("/", 1)[-1])
        reply = http.call(method, path.replace("abc", match_id), ana["token"], json=body)
        error_of(reply, 404)


# -- seats -----------------------------------------------------------------------------------------
def test_join_takes_the_first_free_seat_or_the_one_named(http: Http, lobby: Lobby):
    ana, beto = http.player("Ana"), http.player("Beto")
    match = http.match(ana, players=3, game="brisca")
    assert http.join(beto, match["id"], seat=2)["seats"][2]["name"] == "Beto"
    joined = http.join(ana, match["id"])
    assert [s["name"] for s in joined["seats"]] == ["Ana", None, "Beto"]
    assert joined["version"] == 3 and joined["status"] == "open"
    kinds = [(e["kind"], e.get("seat"), e["actor"]) for e in entries(lobby, match["id"])]
    assert kinds[1:] == [
        ("seat.joined", 2, {"player": beto["id"], "seat": 2, "system": False}),
        ("seat.joined", 0, {"player": ana["id"], "seat": 0, "system": False}),
    ]


def test_join_refusals_write_nothing(http: Http, redis_client: redis.Redis):
    ana, beto, cris = http.player("Ana"), http.player("Beto"), http.player("Cris")
    match = http.match(ana, autostart=False)
    path = f"/v1/matches/{match['id']}/join"
    http.join(ana, match["id"], seat=0)
    before = everything(redis_client)
    error_of(http.post(path, ana["token"], json={}), 409, "already_seated")
    error_of(http.post(path, beto["token"], json={"seat": 0}), 409, "seat_taken")
    error_of(http.post(path, beto["token"], json={"seat": 2}), 400, "bad_seat")
    for bad in ({"seat": -1}, {"seat": "1"}, {"seat": 1.5}, {"seat": True}, {"chair": 1}, []):
        error_of(http.post(path, beto["token"], json=bad), 400, "bad_request")
    assert everything(redis_client) == before
    http.join(beto, match["id"])
    error_of(http.post(path, cris["token"], json={}), 409, "match_full")
    http.post(f"/v1/matches/{match['id']}/start", ana["token"])
    error_of(http.post(path, cris["token"], json={}), 409, "match_not_open")


def test_leave_frees_the_seat_before_the_start_and_seats_a_bot_for_the_person_after(
    http: Http, lobby: Lobby
):
    ana, beto = http.player("Ana"), http.player("Beto")
    match = http.match(ana, sit_in=None)
    http.join(ana, match["id"])
    leave = f"/v1/matches/{match['id']}/leave"
    error_of(http.post(leave, beto["token"]), 409, "not_seated")
    left = http.post(leave, ana["token"])
    assert left.status == 200 and left.body["seats"][0]["player"] is None
    assert entries(lobby, match["id"])[-1]["kind"] == "seat.left"
    http.join(ana, match["id"])
    http.join(beto, match["id"])  # full: starts itself
    error_of(http.post(leave, ana["token"]), 409, "sit_in_off")  # no bot to sit in for her
    # with a sit_in (medium by default), a bot plays the seat, which stays hers
    other = http.match(ana)
    http.join(ana, other["id"])
    http.join(beto, other["id"])
    left = http.post(f"/v1/matches/{other['id']}/leave", ana["token"])
    assert left.status == 200, left.body
    seat = left.body["seats"][0]
    assert seat["player"] == ana["id"] and seat["sat_in"]["strategy"] == "medium"
    assert entries(lobby, other["id"])[-1]["kind"] == "seat.sat_in"
    assert lobby.bot_token(other["id"], 0) is not None  # the bot workers play it


def test_a_bot_gets_a_seat_and_a_token_no_client_ever_sees(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    ana, eve = http.player("Ana"), http.player("Eve")
    match = http.match(ana, players=3, autostart=False)
    bots = f"/v1/matches/{match['id']}/bots"
    error_of(http.post(bots, eve["token"], json={"seat": 1, "strategy": "random"}), 403)
    reply = http.post(bots, ana["token"], json={"seat": 1, "strategy": "greedy"})
    assert reply.status == 200, reply.body
    seat = reply.body["seats"][1]
    assert seat["bot"] == "greedy" and seat["player"] and seat["player"] != ana["id"]
    token = lobby.bot_token(match["id"], 1)
    assert token and lobby.authenticate(token).id == seat["player"]
    assert lobby.authenticate(token).bot
    assert token not in json.dumps(reply.body)
    assert token not in json.dumps(http.events(ana, match["id"]).body)
    assert token not in json.dumps([e for e in entries(lobby, match["id"])])
    entry = entries(lobby, match["id"])[-1]
    assert (entry["kind"], entry["seat"], entry["strategy"]) == ("bot.added", 1, "greedy")
    before = everything(redis_client)
    for body, status in [
        ({"seat": 1, "strategy": "random"}, 409),
        ({"seat": 3, "strategy": "random"}, 400),
        ({"seat": 2, "strategy": "clever"}, 400),
        ({"seat": 2}, 400),
        ({"strategy": "random"}, 400),
    ]:
        error_of(http.post(bots, ana["token"], json=body), status)
    assert everything(redis_client) == before


def test_a_bot_strategy_the_game_does_not_have_is_refused(http: Http, redis_client: redis.Redis):
    ana = http.player("Ana")
    match = http.match(ana, game="escoba", players=2, autostart=False)
    bots = f"/v1/matches/{match['id']}/bots"
    before = everything(redis_client)
    error = error_of(
        http.post(bots, ana["token"], json={"seat": 1, "strategy": "greedy"}),
        400,
        "unknown_strategy",
    )
    assert "game escoba has no bot strategy 'greedy'" in error["message"]
    assert error["details"] == {"strategies": ["random", "easy", "medium", "hard"]}
    assert everything(redis_client) == before
    reply = http.post(bots, ana["token"], json={"seat": 1, "strategy": "random"})
    assert reply.status == 200 and reply.body["seats"][1]["bot"] == "random"


def test_bots_fill_a_match_that_then_starts_itself(http: Http):
    ana = http.player()
    match = http.match(ana, game="brisca", players=3)
    http.join(ana, match["id"])
    for seat in (1, 2):
        reply = http.post(
            f"/v1/matches/{match['id']}/bots",
            ana["token"],
            json={"seat": seat, "strategy": "random"},
        )
    assert reply.body["status"] == "running" and reply.body["view"]["seat"] == 0


# -- starting ------------------------------------------------------------------------------------
def test_start_needs_every_seat_and_a_seated_player_or_the_creator(http: Http, lobby: Lobby):
    ana, beto, eve = http.player("Ana"), http.player("Beto"), http.player("Eve")
    match = http.match(ana, autostart=False)
    start = f"/v1/matches/{match['id']}/start"
    http.join(beto, match["id"])
    error_of(http.post(start, beto["token"]), 409, "seats_free")
    http.join(eve, match["id"])
    assert http.view(eve, match["id"])["status"] == "open"  # autostart off
    error_of(http.post(start, http.player("Zoe")["token"]), 403, "not_allowed")
    reply = http.post(start, eve["token"])
    assert reply.status == 200, reply.body
    started = reply.body
    assert started["status"] == "running" and started["view"]["seat"] == 1
    assert len(started["seed_sha256"]) == 64 and "seed" not in started
    error_of(http.post(start, ana["token"]), 409, "match_not_open")
    entry = entries(lobby, match["id"])[-1]
    assert entry["kind"] == "match.started" and entry["seed_sha256"] == started["seed_sha256"]
    version = get_game("brisca").rules_version
    setup = {
        "game": "brisca",
        "variant": "base",
        "players": 2,
        "options": {},
        "rules_version": version,
    }
    assert entry["setup"] == setup  # the rules version it was dealt under, for replays
    assert entry["actor"] == {"player": eve["id"], "seat": 1, "system": False}
    assert entry["state_hash"] == sealed_state_hash(lobby.load(match["id"]).state)
    assert "seed" not in entry


def test_a_full_match_starts_itself_by_the_system(http: Http, lobby: Lobby):
    match, seated = http.seated_match()
    assert match["status"] == "running" and match["version"] == 4
    started = entries(lobby, match["id"])[-1]
    assert started["actor"] == {"player": None, "seat": None, "system": True}
    assert started["to_act"] == match["to_act"]


# -- actions -------------------------------------------------------------------------------------
def test_a_move_answers_version_events_and_view(http: Http, lobby: Lobby):
    match, seated = http.seated_match()
    seat = match["to_act"][0]
    view = http.view(seated[seat], match["id"])
    action = view["view"]["legal_actions"][0]
    reply = http.act(seated[seat], match["id"], action, view["version"])
    assert reply.status == 200, reply.body
    assert reply.body["version"] == view["version"] + 1
    assert reply.body["events"][0] == {"type": "played", "seat": seat, "card": action["card"]}
    assert reply.body["view"]["seat"] == seat
    entry = entries(lobby, match["id"])[-1]
    assert entry["kind"] == "action" and entry["action"] == action and entry["finished"] is False
    assert entry["actor"] == {"player": seated[seat]["id"], "seat": seat, "system": False}
    assert entry["rules_version"].endswith("/brisca")
    assert entry["state_hash"] == sealed_state_hash(lobby.load(match["id"]).state)
    assert lobby_schemas.ActionResult().load(reply.body) == reply.body  # the documented shape


def test_action_refusals_write_nothing(http: Http, redis_client: redis.Redis):
    match, seated = http.seated_match()
    seat = match["to_act"][0]
    me, other, eve = seated[seat], seated[1 - seat], http.player("Eve")
    view = http.view(me, match["id"])
    action, version = view["view"]["legal_actions"][0], view["version"]
    path = f"/v1/matches/{match['id']}/actions"
    before = everything(redis_client)

    error_of(http.act(other, match["id"], action, version), 403, "not_your_turn")
    error_of(http.act(eve, match["id"], action, version), 403, "not_seated")
    stale = error_of(http.act(me, match["id"], action, version - 1), 409, "stale_version")
    assert stale["details"] == {"version": version}
    error_of(http.act(me, match["id"], action, version + 5), 409, "stale_version")
    illegal = error_of(
        http.act(me, match["id"], {"type": "play", "card": "5X"}, version), 422, "illegal_action"
    )
    assert illegal["details"]["legal_actions"] == view["view"]["legal_actions"]
    assert "card must be a card code" in illegal["message"]
    error_of(http.act(me, match["id"], {"type": "dance"}, version), 422)
    error_of(http.act(me, match["id"], {}, version), 422)
    for body in [
        {"action": action},
        {"expected_version": version},
        {"action": "play", "expected_version": version},
        {"action": action, "expected_version": "4"},
        {"action": action, "expected_version": -1},
        {"action": action, "expected_version": 4.5},
        {"action": action, "expected_version": 2**60},
        {"action": action, "expected_version": version, "action_id": ""},
        {"action": action, "expected_version": version, "action_id": "x" * 201},
        {"action": action, "expected_version": version, "seat": 1 - seat},
    ]:
        error_of(http.post(path, me["token"], json=body), 400, "bad_request")
    assert everything(redis_client) == before


def test_a_snapshot_another_process_moved_past_is_refused_as_stale(
    http: Http, lobby: Lobby, redis_url: str, rules_service: Service, redis_client: redis.Redis
):
    """Each lobby process remembers the snapshots it wrote; another process's move must make
    that memory stale, never playable."""
    other = Lobby(lobby_application.redis_client(redis_url), RulesClient(rules_service.url))
    match, seated = http.seated_match()  # through `lobby`, which now remembers the snapshot
    seat = match["to_act"][0]
    view = http.view(seated[seat], match["id"])
    action, version = view["view"]["legal_actions"][0], view["version"]
    player = lobby.authenticate(seated[seat]["token"])
    assert lobby.store.recent.at(match["id"], version) is not None

    moved = other.submit_action(match["id"], player, action, version)  # another process
    before = everything(redis_client)
    replay = http.act(seated[seat], match["id"], action, version)  # `lobby` remembers `version`
    assert error_of(replay, 409, "stale_version")["details"] == {"version": moved["version"]}
    assert everything(redis_client) == before

    mover = seated[moved["view"]["to_act"][0]]
    follow = http.view(mover, match["id"])["view"]["legal_actions"][0]
    reply = http.act(mover, match["id"], follow, moved["version"])  # read afresh: plays on
    assert reply.status == 200 and reply.body["version"] == moved["version"] + 1


def test_actions_before_the_start_and_after_the_end_are_409(http: Http):
    ana = http.player()
    match = http.match(ana)
    http.join(ana, match["id"])
    error_of(http.act(ana, match["id"], {"type": "play"}, 2), 409, "match_not_started")
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    finished, _ = http.play_to_the_end(match, seated, random.Random(3))
    error_of(
        http.act(seated[0], match["id"], {"type": "bid"}, finished["version"]),
        409,
        "match_finished",
    )


def test_an_action_id_makes_a_retry_return_the_first_answer(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    match, seated = http.seated_match()
    seat = match["to_act"][0]
    me = seated[seat]
    view = http.view(me, match["id"])
    action, version = view["view"]["legal_actions"][0], view["version"]
    first = http.act(me, match["id"], action, version, action_id="move-1")
    assert first.status == 200
    before = everything(redis_client)
    again = http.act(me, match["id"], action, version, action_id="move-1")
    assert (again.status, again.body) == (200, first.body)
    # the same id with another action is not a retry: 409, saying so, and nothing written
    other = http.act(me, match["id"], {"type": "play", "card": "5X"}, 0, action_id="move-1")
    assert "another action" in error_of(other, 409, "action_id_reused")["message"]
    other = http.act(me, match["id"], {"type": "play", "card": "5X"}, version, action_id="move-1")
    error_of(other, 409, "action_id_reused")
    assert everything(redis_client) == before
    # ids are per player: the same id from the other seat is a new action
    theirs = http.act(
        seated[1 - seat],
        match["id"],
        {"type": "play", "card": "5X"},
        version + 1,
        action_id="move-1",
    )
    error_of(theirs, 422)


def test_a_retry_of_the_move_that_ended_the_match_gets_its_first_answer(
    http: Http, redis_client: redis.Redis
):
    """The last move's retry meets a finished match: it is answered as the first try was,
    not refused as a move on a finished match, and writes nothing."""
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    to_act = match["to_act"]
    while to_act:
        seat = to_act[0]
        view = http.view(seated[seat], match["id"])
        last = (seat, view["view"]["legal_actions"][0], view["version"])
        first = http.act(seated[seat], match["id"], last[1], last[2], action_id=f"m{last[2]}")
        assert first.status == 200, first.body
        to_act = first.body["view"]["to_act"]
    before = everything(redis_client)
    again = http.act(seated[last[0]], match["id"], last[1], last[2], action_id=f"m{last[2]}")
    assert (again.status, again.body) == (200, first.body)
    assert everything(redis_client) == before


def test_only_a_players_latest_action_id_is_answered_an_older_one_has_expired(
    http: Http, redis_client: redis.Redis
):
    """Each player's latest answer is kept until their next action; their older ids get
    409 action_id_expired (whatever version or action they come with) and write nothing."""
    match, seated = http.seated_match()
    # per seat, what it sent: (action id, action, version, answer)
    sent: dict[int, list[tuple[str, dict, int, dict]]] = {0: [], 1: []}
    to_act, n = match["to_act"], 0
    while len(sent[0]) < 2 or len(sent[1]) < 2:
        seat = to_act[0]
        view = http.view(seated[seat], match["id"])
        action, version = view["view"]["legal_actions"][0], view["version"]
        reply = http.act(seated[seat], match["id"], action, version, action_id=f"m{n}")
        assert reply.status == 200, reply.body
        sent[seat].append((f"m{n}", action, version, reply.body))
        to_act, n = reply.body["view"]["to_act"], n + 1
    current = reply.body["version"]
    before = everything(redis_client)
    for seat, moves in sent.items():
        # the latest id: its first answer, as it was
        latest_id, action, version, answer = moves[-1]
        again = http.act(seated[seat], match["id"], action, version, action_id=latest_id)
        assert (again.status, again.body) == (200, answer)
        # an older one: expired, as a stale retry or at the current version with another action
        older_id, action, version, _ = moves[0]
        for at, what in ((version, action), (current, {"type": "play", "card": "1O"})):
            refused = http.act(seated[seat], match["id"], what, at, action_id=older_id)
            assert "latest action" in error_of(refused, 409, "action_id_expired")["message"]
    assert everything(redis_client) == before


def test_a_finished_matchs_answers_expire_then_a_retry_gets_action_id_expired(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    """A finished match keeps each player's last answer for an hour (the actions hash's
    expiry); after that a retry is refused with 409 action_id_expired, writing nothing."""
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    to_act = match["to_act"]
    while to_act:
        seat = to_act[0]
        view = http.view(seated[seat], match["id"])
        last = (seat, view["view"]["legal_actions"][0], view["version"])
        first = http.act(seated[seat], match["id"], last[1], last[2], action_id=f"m{last[2]}")
        assert first.status == 200, first.body
        to_act = first.body["view"]["to_act"]
    answers = lobby.store.log.keys(match["id"]).actions
    assert 3500 < redis_client.ttl(answers) <= ANSWERS_KEPT_AFTER_FINISH
    redis_client.delete(answers)  # what the expiry does, an hour later
    before = everything(redis_client)
    again = http.act(seated[last[0]], match["id"], last[1], last[2], action_id=f"m{last[2]}")
    assert "finished" in error_of(again, 409, "action_id_expired")["message"]
    assert everything(redis_client) == before
    # without an action id it is refused as any move on a finished match
    error_of(http.act(seated[last[0]], match["id"], last[1], last[2]), 409, "match_finished")


def test_the_system_actor_acts_with_seat_null(http: Http, lobby: Lobby):
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    assert match["deadline"]["kind"] == "commit" and match["deadline"]["at"].endswith("Z")
    answer = lobby.submit_action(match["id"], SYSTEM, {"type": "timeout"}, match["version"])
    assert answer["version"] == match["version"] + 1 and answer["view"]["seat"] is None
    committed = [e for e in answer["events"] if e["type"] == "bid_committed"]
    assert committed and all(e["card"] is None and e["timeout"] for e in committed)
    entry = entries(lobby, match["id"])[-1]
    assert entry["actor"] == {"player": None, "seat": None, "system": True}
    assert entry["action"] == {"type": "timeout"}
    brisca, _ = http.seated_match()
    with pytest.raises(Rejected) as refused:  # the HTTP layer answers it with 422
        lobby.submit_action(brisca["id"], SYSTEM, {"type": "timeout"}, brisca["version"])
    assert (refused.value.code, refused.value.details) == ("illegal_action", {"legal_actions": []})


# -- the end: result and the seed revealed --------------------------------------------------------
def test_the_finishing_entry_reveals_result_and_seed_at_once(http: Http, lobby: Lobby):
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    finished, moves = http.play_to_the_end(match, seated, random.Random(1))
    assert finished["status"] == "finished" and finished["result"]["winners"]
    assert hashlib.sha256(finished["seed"].encode()).hexdigest() == finished["seed_sha256"]
    log = entries(lobby, match["id"])
    assert [e for e in log if "seed" in e] == [log[-1]]
    last = log[-1]
    assert last["finished"] is True and last["result"] == finished["result"]
    assert last["seed"] == finished["seed"] and last["status"] == "finished"
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    assert len(log) == 4 + moves


def test_stored_answers_expire_an_hour_after_the_match_ends(http: Http, lobby: Lobby):
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    mine = [http.view(p, match["id"]) for p in seated]
    first = mine[0]["view"]["legal_actions"][0]
    assert http.act(seated[0], match["id"], first, mine[0]["version"], action_id="a1").status == 200
    actions_key = lobby.log.keys(match["id"]).actions
    assert lobby.client.ttl(actions_key) == -1  # kept while the match runs
    finished, _moves = http.play_to_the_end(
        http.view(seated[0], match["id"]), seated, random.Random(2)
    )
    assert finished["status"] == "finished"
    assert 0 < lobby.client.ttl(actions_key) <= 3600


# -- views and the feed --------------------------------------------------------------------------
def hand(view: dict[str, Any], seat: int) -> list[str | None]:
    return view["zones"][f"hand:{seat}"]["cards"]


def test_each_caller_sees_only_its_own_hand_in_views_and_feed(http: Http):
    match, seated = http.seated_match()
    spectator = http.player("Eve")
    views = [http.view(p, match["id"])["view"] for p in seated]
    for seat, view in enumerate(views):
        assert view["seat"] == seat and None not in hand(view, seat)
        assert set(hand(view, 1 - seat)) == {None}
    eve = http.view(spectator, match["id"])["view"]
    assert eve["seat"] is None and eve["legal_actions"] == []
    assert set(hand(eve, 0)) == set(hand(eve, 1)) == {None}

    for seat, player in enumerate(seated + [spectator]):
        feed = http.events(player, match["id"]).body
        dealt = {
            e["seat"]: e["cards"]
            for x in feed["entries"]
            for e in x["events"]
            if e["type"] == "dealt"
        }
        for dealt_seat, cards in dealt.items():
            if dealt_seat == seat:
                assert cards == hand(views[seat], seat)
            else:
                assert set(cards) == {None}
        secret = [c for s, v in enumerate(views) if s != seat for c in hand(v, s)]
        shown = json.dumps([x["events"] for x in feed["entries"]])
        assert not [card for card in secret if f'"{card}"' in shown]


def test_the_feed_shows_an_action_only_to_the_seat_that_took_it(http: Http):
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    first = match["to_act"][0]
    bidder = seated[first]
    view = http.view(bidder, match["id"])
    bid = view["view"]["legal_actions"][0]
    assert http.act(bidder, match["id"], bid, view["version"]).status == 200
    mine = http.events(bidder, match["id"], after=view["version"]).body["entries"]
    theirs = http.events(seated[1 - first], match["id"], after=view["version"]).body["entries"]
    assert mine[0]["action"] == bid and mine[0]["events"][0]["card"] == bid["card"]
    assert "action" not in theirs[0] and theirs[0]["events"][0]["card"] is None
    assert bid["card"] not in json.dumps(theirs)


def test_events_after_a_version_and_bad_queries(http: Http):
    match, seated = http.seated_match()
    page = http.events(seated[0], match["id"], after=2).body
    assert page["match"] == match["id"] and page["version"] == 4
    assert [e["version"] for e in page["entries"]] == [3, 4]
    assert [e["kind"] for e in page["entries"]] == ["seat.joined", "match.started"]
    assert http.events(seated[0], match["id"], after=4).body == {
        "match": match["id"],
        "version": 4,
        "status": "running",
        "finished": False,
        "entries": [],
    }
    path = f"/v1/matches/{match['id']}/events"
    for query in ("?after=-1", "?wait=31", "?wait=-1", "?after=x", "?wait=soon", "?wait=nan",
                  "?after=" + "9" * 40):  # fmt: skip
        error_of(http.get(path + query, seated[0]["token"]), 400, "bad_request")


def until_every_waiting_place_is_taken(app: Any) -> None:
    """Wait (5 s at most) until the long-polls started hold all of LOBBY_MAX_WAITING's places."""
    waiting = app.extensions["lobby_waiting"]
    deadline = time.monotonic() + 5
    while waiting._value and time.monotonic() < deadline:
        time.sleep(0.01)


def test_when_too_many_polls_wait_the_next_answers_at_once_and_says_when_to_poll_again(
    lobby: Lobby, monkeypatch: pytest.MonkeyPatch
):
    """A waiting poll holds a thread: past the limit, polls answer at once so that moves keep
    theirs (here a limit of one)."""
    monkeypatch.setenv("LOBBY_MAX_WAITING", "1")
    app = create_lobby_app({"TESTING": True}, service=lobby)
    http = Http(app.test_client())
    match, seated = http.seated_match()
    version = http.view(seated[0], match["id"])["version"]
    first: list[Any] = []
    poll = threading.Thread(
        target=lambda: first.append(http.events(seated[0], match["id"], version, wait=10))
    )
    poll.start()
    until_every_waiting_place_is_taken(app)

    started = time.monotonic()
    second = http.events(seated[1], match["id"], version, wait=10)
    assert time.monotonic() - started < 1
    assert second.status == 200 and second.body["entries"] == []
    assert second.headers["Retry-After"] == "1"

    seat = match["to_act"][0]
    action = http.view(seated[seat], match["id"])["view"]["legal_actions"][0]
    assert http.act(seated[seat], match["id"], action, version).status == 200
    poll.join(5)
    assert [e["version"] for e in first[0].body["entries"]] == [version + 1]
    assert "Retry-After" not in first[0].headers

    started = time.monotonic()  # the waiting place is free again: this poll waits
    again = http.events(seated[1], match["id"], version + 1, wait=0.3)
    assert time.monotonic() - started >= 0.25 and "Retry-After" not in again.headers


# -- the log and the feed notification, as documented in docs/match-log.md -----------------------
ENTRY_FIELDS = {"version", "time", "actor", "kind", "action", "events", "rules_version",
                "state_hash", "status", "to_act", "deadline"}  # fmt: skip


def test_every_entry_has_the_documented_fields(http: Http, lobby: Lobby):
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    http.play_to_the_end(match, seated, random.Random(2))
    log = entries(lobby, match["id"])
    kinds = [e["kind"] for e in log]
    assert kinds[:4] == ["match.created", "seat.joined", "seat.joined", "match.started"]
    assert set(kinds[4:]) == {"action"}
    for entry in log:
        assert set(entry) >= ENTRY_FIELDS, entry
        assert set(entry["actor"]) == {"player", "seat", "system"}
        assert entry["time"].endswith("Z")
    assert all(e["state_hash"] is None for e in log[:3])
    assert all(len(e["state_hash"]) == 64 for e in log[3:])
    private = [ev for e in log for ev in e["events"] if "visible_to" in ev]
    assert private and all(ev["card"] is not None for ev in private if "card" in ev)


def test_the_feed_notification_carries_what_a_bot_dispatcher_needs(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    ana = http.player()
    match = http.match(ana, players=2)
    http.join(ana, match["id"])
    http.post(
        f"/v1/matches/{match['id']}/bots", ana["token"], json={"seat": 1, "strategy": "random"}
    )
    feed = cast(list, redis_client.xrange(MatchLog(redis_client).keys(match["id"]).feed))
    notes = [fields for _, fields in feed if fields["match"] == match["id"]]
    assert [(n["version"], n["kind"]) for n in notes] == [
        ("1", "match.created"),
        ("2", "seat.joined"),
        ("3", "bot.added"),
        ("4", "match.started"),
    ]
    started = json.loads(notes[-1]["event"])
    bot = lobby.load(match["id"]).match["seats"][1]["player"]
    assert started == {
        "game": "brisca",
        "status": "running",
        "to_act": started["to_act"],
        "deadline": None,
        "turn_deadline": None,
        "bots": [{"seat": 1, "strategy": "random", "player": bot}],
        "bot_pace": 1.0,  # a person sits in it: the lobby's default pace
    }
    assert started["to_act"] in ([0], [1])
    secrets = [lobby.load(match["id"]).seed, lobby.bot_token(match["id"], 1)]
    assert not any(s in json.dumps(feed) for s in secrets if s)


def test_a_match_has_a_bot_pace_the_dispatcher_applies_only_while_a_person_sits_in_it(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    ana = http.player()
    default = http.match(ana, players=2)
    assert default["bot_pace"] == 1.0  # Lobby's default, BOT_PACE_S
    paced = http.match(ana, players=2, bot_pace=2.5)
    assert (
        paced["bot_pace"] == 2.5
        and http.get(f"/v1/matches/{paced['id']}", ana["token"]).body["bot_pace"] == 2.5
    )
    instant = http.match(ana, players=2, bot_pace=0)
    assert instant["bot_pace"] == 0
    bots_only = http.match(ana, players=2, bot_pace=2.5)
    for match, people in ((paced, True), (bots_only, False)):
        if people:
            http.join(ana, match["id"])
        for seat in range(1 if people else 0, 2):
            http.post(
                f"/v1/matches/{match['id']}/bots",
                ana["token"],
                json={"seat": seat, "strategy": "random"},
            )
        feed = cast(list, redis_client.xrange(MatchLog(redis_client).keys(match["id"]).feed))
        started = json.loads([f for _, f in feed if f["match"] == match["id"]][-1]["event"])
        assert started["status"] == "running"
        assert started["bot_pace"] == (2.5 if people else 0.0)  # nobody to follow bots alone


@pytest.mark.parametrize("bad", [-0.5, 10.5, "1", True, [1]])
def test_a_bot_pace_out_of_range_or_not_a_number_is_refused(
    http: Http, redis_client: redis.Redis, bad: Any
):
    ana = http.player()
    before = everything(redis_client)
    reply = http.post("/v1/matches", ana["token"], json={"game": "brisca", "bot_pace": bad})
    assert "bot_pace" in json.dumps(error_of(reply, 400))
    assert everything(redis_client) == before


def test_a_rematch_keeps_the_bot_pace_and_each_bot_seat_has_a_name_of_its_own(
    http: Http, lobby: Lobby
):
    ana = http.player()
    match = http.match(ana, game="presidente", players=4, bot_pace=0.5, autostart=False)
    http.join(ana, match["id"], seat=0)
    for seat in (1, 2, 3):
        reply = http.post(
            f"/v1/matches/{match['id']}/bots",
            ana["token"],
            json={"seat": seat, "strategy": "random"},
        )
    seats = reply.body["seats"]
    names = [s["name"] for s in seats]
    assert len(set(names)) == 4 and all(s["player"] == "bot-random" for s in seats[1:]), names
    entry = entries(lobby, match["id"])[-1]
    assert entry["kind"] == "bot.added" and entry["player"]["name"] == names[3]
    http.post(f"/v1/matches/{match['id']}/start", ana["token"])
    assert http.post(f"/v1/matches/{match['id']}/resign", ana["token"]).status == 200
    again = http.post(f"/v1/matches/{match['id']}/rematch", ana["token"])
    assert again.status == 200, again.body
    assert again.body["bot_pace"] == 0.5
    assert [s["name"] for s in again.body["seats"]] == names  # the bots keep their names


# -- dependencies down ----------------------------------------------------------------------------
def test_rules_service_down_is_503_and_writes_nothing(redis_client: redis.Redis, redis_url: str):
    down = Lobby(
        lobby_application.redis_client(redis_url), RulesClient(f"http://127.0.0.1:{free_port()}")
    )
    http = Http(create_lobby_app({"TESTING": True}, service=down).test_client())
    ana = http.player()
    before = everything(redis_client)
    error_of(
        http.post("/v1/matches", ana["token"], json={"game": "brisca"}), 503, "rules_unavailable"
    )
    assert everything(redis_client) == before


def test_moves_go_on_across_a_restart_of_the_rules_service(
    redis_client: redis.Redis, redis_url: str
):
    """A rolling deploy of the rules service closes the lobby's kept-alive connections: the
    next call reconnects instead of failing the move."""
    rules = Service("rules", "services.rules.wsgi:app", {"TAPETE_STATE_KEY": TEST_STATE_KEY})
    rules.start()
    try:
        lobby = Lobby(lobby_application.redis_client(redis_url), RulesClient(rules.url))
        http = Http(create_lobby_app({"TESTING": True}, service=lobby).test_client())
        match, seated = http.seated_match()
        for restart in (False, True):
            if restart:
                rules.restart()  # same port, new processes: the old connection is dead
            view = http.view(seated[match["to_act"][0]], match["id"])
            seat = view["to_act"][0]
            action = http.view(seated[seat], match["id"])["view"]["legal_actions"][0]
            reply = http.act(seated[seat], match["id"], action, view["version"])
            assert reply.status == 200, reply.body
            match = {**match, "to_act": reply.body["view"]["to_act"]}
    finally:
        rules.stop()


def test_redis_down_is_503_and_not_ready(rules_service: Service):
    down = Lobby(
        lobby_application.redis_client(f"redis://127.0.0.1:{free_port()}/0"),
        RulesClient(rules_service.url),
    )
    http = Http(create_lobby_app({"TESTING": True}, service=down).test_client())
    error_of(http.post("/v1/players", json={"name": "Ana"}), 503, "unavailable")
    error_of(http.get("/v1/matches", "some-token"), 503, "unavailable")
    error_of(http.get("/readyz"), 503, "unavailable")


def test_probes(http: Http):
    assert http.get("/healthz").body == {"status": "ok"}
    assert http.get("/readyz").body == {"status": "ready"}


def test_committed_openapi_spec_matches_the_code_and_validates():
    committed = (OPENAPI_DIR / "lobby.yaml").read_text(encoding="utf-8")
    assert committed == generated_spec("lobby"), "run `make openapi` and commit openapi/lobby.yaml"
    validate(yaml.safe_load(committed))


def test_the_log_alone_replays_the_match_exactly(http: Http, lobby: Lobby):
    """What the history service's verify does: setup with the revealed seed, then every action."""
    match, seated = http.seated_match(game="raj", players=2, variant="dos-jugadores")
    http.play_to_the_end(match, seated, random.Random(4))
    log = entries(lobby, match["id"])
    started, actions, last = log[3], log[4:], log[-1]
    setup = started["setup"]
    assert hashlib.sha256(last["seed"].encode()).hexdigest() == started["seed_sha256"]
    state, events = new_match(
        setup["game"], setup["variant"], setup["players"], last["seed"], setup["options"]
    )
    assert started["events"][1:] == events
    assert started["state_hash"] == state_hash(state.to_json())
    for entry in actions:
        assert apply(state, entry["actor"]["seat"], entry["action"]) == entry["events"]
        assert entry["state_hash"] == state_hash(state.to_json())
    assert state.finished and state.result == last["result"]


def test_metrics_count_the_moves_applied(http: Http) -> None:
    import prometheus_client

    from services.lobby.application import MOVES

    before = MOVES.labels("brisca")._value.get()
    match, seated = http.seated_match()
    seat = match["view"]["to_act"][0]
    mine = http.view(seated[seat], match["id"])
    action, version = mine["view"]["legal_actions"][0], mine["version"]
    for _ in range(2):  # the retry with the same action id is not a second move
        assert http.act(seated[seat], match["id"], action, version, action_id="m1").status == 200
    assert MOVES.labels("brisca")._value.get() == before + 1
    assert "tapete_moves_applied_total" in http.client.get("/metrics").get_data(as_text=True)
    # the registry every process serves, a bot worker's metrics port included
    assert b"tapete_moves_applied_total" in prometheus_client.generate_latest()


def test_the_lobby_writes_as_many_feed_partitions_as_its_readers(monkeypatch, redis_url: str):
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("FEED_PARTITIONS", "3")
    assert create_lobby_app({"TESTING": True}).extensions["lobby"].log.partitions == 3


# -- the stream, in process -------------------------------------------------------------------
class FlakyLog(MatchLog):
    """The match log with the hub's next ``failing`` reads (``entries_of``: the batched read
    of the entries a read of notifications names) made to fail, on purpose (a store that
    times out under load)."""

    failing = 0

    def entries_of(self, *args: Any, **kwargs: Any) -> list[dict[str, Any] | None]:
        if self.failing:
            self.failing -= 1
            raise redis.TimeoutError("a read failed on purpose")
        return super().entries_of(*args, **kwargs)


def test_a_stream_ends_after_its_finished_event_though_the_feed_could_not_read_the_last_entry(
    redis_client: redis.Redis, redis_url: str, rules_service: Service
):
    """The hub reads each new entry once for all its streams; when that read fails, each
    stream reads the entry from the log itself, rather than wait for a next entry to show
    the gap: the finishing entry has none, and the stream would stay open for ever."""
    client = lobby_application.redis_client(redis_url)
    log = FlakyLog(client)
    lobby = Lobby(client, RulesClient(rules_service.url), log)
    (ana, _), (beto, _) = lobby.register("Ana"), lobby.register("Beto")
    match = lobby.create_match(ana, "brisca", "base", 2, {})
    lobby.join(ana, match["id"], 0)
    running = lobby.join(beto, match["id"], 1)
    chunks: list[bytes] = []
    reader = threading.Thread(
        target=lambda: chunks.extend(lobby.open_stream(ana, match["id"], running["version"])),
        daemon=True,
    )
    reader.start()
    time.sleep(0.5)  # the hub's reader follows the feed
    log.failing = 1  # the hub's read of the next entry
    ended = lobby.resign(beto, match["id"])
    reader.join(5)
    assert not reader.is_alive(), "the stream of the finished match stayed open"
    written = b"".join(chunks)  # a stream writes what it has in one write: split anywhere
    last_entry = written.index(b"id: %d\nevent: entry" % ended["version"])
    assert written.index(b"event: finished") > last_entry and log.failing == 0


# -- the spec says what is accepted ------------------------------------------------------------
def lobby_spec() -> dict[str, Any]:
    return yaml.safe_load((OPENAPI_DIR / "lobby.yaml").read_text(encoding="utf-8"))


def test_a_join_without_a_body_takes_any_free_seat_and_the_spec_says_the_body_is_optional(
    http: Http,
):
    join = lobby_spec()["paths"]["/v1/matches/{match_id}/join"]["post"]
    assert join["requestBody"]["required"] is False
    ana = http.player("Ana")
    match = http.match(ana)
    joined = http.post(f"/v1/matches/{match['id']}/join", ana["token"])  # no body at all
    assert joined.status == 200 and joined.body["seats"][0]["player"] == ana["id"]


def test_an_integer_sent_as_a_number_with_a_fraction_is_refused_with_the_field_named(
    http: Http, redis_client: redis.Redis
):
    """JSON Schema counts 557.0 as an integer; the lobby takes only integers written as
    such (its types are strict, as the engine's are), and says which field is wrong."""
    match, (ana, _) = http.seated_match()
    opened = http.match(ana, autostart=False)
    refusals = [
        (f"/v1/matches/{match['id']}/actions", {"action": {"type": "play", "card": "1O"},
         "expected_version": float(match["version"])}, "expected_version"),
        (f"/v1/matches/{opened['id']}/join", {"seat": 1.0}, "seat"),
        (f"/v1/matches/{opened['id']}/bots", {"seat": 1.0, "strategy": "random"}, "seat"),
        ("/v1/matches", {"game": "brisca", "players": 2.0}, "players"),
    ]  # fmt: skip
    before = everything(redis_client)
    for path, body, field in refusals:
        error = error_of(http.post(path, ana["token"], json=body), 400, "bad_request")
        assert error["details"] == {field: ["Not a valid integer."]}, path
        assert field in error["message"]
    assert everything(redis_client) == before


def test_the_specs_name_pattern_accepts_exactly_the_names_the_lobby_accepts():
    """The printable-name rule is in the spec as a pattern (checked with the validator
    schemathesis uses): on blank, spaced, overlong and foreign names the spec and the lobby
    agree, and on every character this Python's Unicode database knows, the pattern and
    ``str.isprintable`` (the lobby's rule) do, but for the format and private-use
    characters beyond the Basic Multilingual Plane, which the pattern does not list (the
    spec says so): there the lobby is the stricter, so whatever the spec refuses, it does."""
    name = lobby_spec()["components"]["schemas"]["NewPlayer"]["properties"]["name"]
    spec_accepts = jsonschema_rs.validator_for(name).is_valid
    field = lobby_schemas.NewPlayer().fields["name"]

    def lobby_accepts(value: str) -> bool:
        try:
            field.deserialize(value)
        except ma.ValidationError:
            return False
        return True

    names = ["Ana", " Ana ", "Zoë", "李", "🂡", " ", "   ", "", "x" * 40, "x" * 41]
    names += ["A\tB", "A\u202eB", "\u200b", "A\ue000", "A\u2028B", "A\u00a0B", "A\x7f"]
    for value in names:
        assert spec_accepts(value) == lobby_accepts(value), repr(value)
    differ = {
        point
        for point in range(0x110000)
        if unicodedata.category(chr(point)) not in ("Cn", "Cs")  # unassigned here, surrogates
        and spec_accepts(f"A{chr(point)}") != f"A{chr(point)}".isprintable()
    }
    beyond = {p for p in differ if p > 0xFFFF and unicodedata.category(chr(p)) in ("Cf", "Co")}
    assert differ == beyond and all(spec_accepts(f"A{chr(p)}") for p in beyond)


def test_a_join_with_a_malformed_seed_is_refused_with_its_reason(http: Http):
    ana = http.player()
    match = http.match(ana)
    reply = http.post(f"/v1/matches/{match['id']}/join", ana["token"], json={"seed": "a b"})
    assert "1 to 128 characters" in error_of(reply, 400, "bad_seed")["message"]
    joined = http.join(ana, match["id"], seed="ana-own-seed")
    assert joined["seats"][0]["seed"] == "ana-own-seed" and joined["version"] == 2


# -- duplicate groups (services/lobby/duplicates.py) ----------------------------------------
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"tables": 1}, "bad_request"),
        ({"tables": 13}, "bad_request"),
        ({"game": "nope"}, "unknown_game"),
        ({"seats": ["me"]}, "bad_seats"),
        ({"seats": ["me", "me"]}, "bad_seats"),
        ({"seats": ["me", "greedy"]}, "unknown_strategy"),  # another game's strategy
        ({"options": {"no_such_option": 1}}, None),
    ],
)
def test_a_refused_duplicate_group_writes_nothing(
    http: Http, redis_client: redis.Redis, body: dict[str, Any], code: str | None
):
    ana = http.player("Ana")
    before = everything(redis_client)
    reply = http.post("/v1/duplicates", ana["token"], json={"game": "escoba", **body})
    error_of(reply, 400, code)
    assert everything(redis_client) == before


def test_a_group_keeps_each_persons_seat_for_them_at_one_table_only(http: Http, lobby: Lobby):
    tokens = {name: http.player(name)["token"] for name in ("Ana", "Beto", "Cris")}
    ana, beto = lobby.authenticate(tokens["Ana"]), lobby.authenticate(tokens["Beto"])
    with pytest.raises(BadRequest) as twice:
        lobby.open_duplicate_group(ana, "escoba", "base", 2, {}, [[ana, "random"], ["easy", ana]])
    assert twice.value.code == "seated_twice"
    group = lobby.open_duplicate_group(
        ana, "escoba", "base", 2, {}, [[ana, "random"], ["random", beto]]
    )
    seats = [[s["player"] for s in t["seats"]] for t in group["tables"]]
    assert seats[0][0] == ana.id and seats[1][1] == beto.id
    assert all(t["status"] == "running" for t in group["tables"])
    assert len({lobby.load(t["match"]).match["seed_sha256"] for t in group["tables"]}) == 1
    # a table still being seated: its seats are the group's, dealt from the group's seed alone
    kept = lobby.seats.create_match(
        ana, "escoba", "base", 2, {}, duplicate={"group": "g", "table": 0, "matches": [],
        "seed_sha256": "0" * 64}, people=[beto.id, None],
    )  # fmt: skip
    path = f"/v1/matches/{kept['id']}/join"
    error_of(http.post(path, tokens["Cris"], json={"seat": 0}), 409, "seat_reserved")
    error_of(http.post(path, tokens["Cris"], json={"seat": 1}), 409, "seat_reserved")
    error_of(http.post(path, tokens["Beto"], json={"seed": "mine"}), 400, "bad_seed")
    assert http.join({"token": tokens["Beto"]}, kept["id"])["seats"][0]["player"] == beto.id


def test_a_group_whose_lobby_stopped_while_opening_its_tables_is_opened_by_the_next_read(
    http: Http, lobby: Lobby, monkeypatch: pytest.MonkeyPatch
):
    ana = lobby.authenticate(http.player("Ana")["token"])
    opened: list[str] = []
    real = lobby.duplicates._open_table

    def stops_after_the_first_table(group: dict[str, Any], table: int) -> None:
        opened.append(group["id"])
        if table == 1:
            raise KeyboardInterrupt  # the lobby stops here
        real(group, table)

    monkeypatch.setattr(lobby.duplicates, "_open_table", stops_after_the_first_table)
    with pytest.raises(KeyboardInterrupt):
        lobby.open_duplicate_group(
            ana, "escoba", "base", 2, {}, [[ana, "random"], ["random", "easy"]]
        )
    monkeypatch.undo()
    group = lobby.get_duplicate(opened[0])
    first, second = (lobby.load(t["match"]).match for t in group["tables"])
    assert [s["player"] for s in first["seats"]][0] == ana.id
    assert [s["bot"] for s in second["seats"]] == ["random", "easy"]
    assert first["status"] == second["status"] == "running"
    assert first["seed_sha256"] == second["seed_sha256"] == group["seed_sha256"]
    assert first["duplicate"]["matches"] == second["duplicate"]["matches"]
    assert lobby.get_duplicate(opened[0])["tables"] == group["tables"]  # opened once
    record = json.loads(lobby.client.get(f"tapete:duplicate:{opened[0]}"))
    assert record["opened"] is True  # a table gone later (archived) is not opened again
    secret = record["seed"]
    assert group["seed"] is None and secret not in json.dumps(group)  # until the reveal


def test_a_person_of_a_duplicate_group_is_refused_its_other_table_and_nothing_is_written(
    http: Http, redis_client: redis.Redis
):
    """Ana plays table 0 of a group; table 1 (its bots idle here) is hidden from her on every
    read of its play, each refusal writing nothing; Eva, a stranger, reads it."""
    ana, eva = http.player("Ana"), http.player("Eva")
    body = {"game": "escoba", "tables": 2, "seats": ["me", "random"], "bot_level": "easy"}
    group = http.post("/v1/duplicates", ana["token"], json=body).body
    mine, other = (table["match"] for table in group["tables"])
    before = everything(redis_client)
    for reply in (
        http.get(f"/v1/matches/{other}", ana["token"]),
        http.events(ana, other, after=0, wait=5),
        http.post(f"/v1/matches/{other}/stream-ticket", ana["token"]),
        http.get(f"/v1/matches/{other}/stream", ana["token"]),
    ):
        error = error_of(reply, 403, "duplicate_table_hidden")
        assert error["details"] == {"group": group["id"], "table": 1}
    assert everything(redis_client) == before
    assert http.view(eva, other)["view"]["seat"] is None
    assert http.view(ana, mine)["view"]["seat"] == 0


def test_a_tournament_poll_past_the_waiting_places_answers_at_once_and_says_when_to_poll_again(
    lobby: Lobby, monkeypatch: pytest.MonkeyPatch
):
    """The tournament's long-poll shares the match long-poll's places (here one)."""
    monkeypatch.setenv("LOBBY_MAX_WAITING", "1")
    app = create_lobby_app({"TESTING": True}, service=lobby)
    http = Http(app.test_client())
    host = http.player("Host")
    doc = http.post("/v1/tournaments", host["token"], json={"game": "brisca", "capacity": 4}).body
    path = f"/v1/tournaments/{doc['id']}?after={doc['version']}"
    first: list[Any] = []
    poll = threading.Thread(target=lambda: first.append(http.get(f"{path}&wait=10", host["token"])))
    poll.start()
    until_every_waiting_place_is_taken(app)
    started = time.monotonic()
    second = http.get(f"{path}&wait=10", host["token"])
    assert time.monotonic() - started < 1
    assert second.status == 200 and second.body == doc and second.headers["Retry-After"] == "1"
    ana = http.player("Ana")  # an entry: the waiting poll answers
    assert http.post(f"/v1/tournaments/{doc['id']}/register", ana["token"]).status == 200
    poll.join(5)
    assert first[0].body["version"] == doc["version"] + 1 and "Retry-After" not in first[0].headers
