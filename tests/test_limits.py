"""What one client may ask of the lobby, each limit at its default (services/settings.py):
registrations per address, matches created, moves and stream tickets per player, open
matches and open streams per player, idle open matches expiring, and new matches refused
before moves when Redis fills up.

In process (Flask's test client) on the session's real Redis and rules service; the live
services the other suites share run with these limits raised (services.settings.LOAD_TOOL_LIMITS).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from services.errors import TooManyRequests
from services.lobby import application as lobby_application
from services.lobby import feed, listing
from services.lobby.app import create_lobby_app
from services.lobby.application import Lobby
from services.lobby.players import bot_player
from services.lobby.quotas import STREAM_LEASE_S, STREAMS_KEY, OpenStreams, Quotas
from services.lobby.rules_client import RulesClient
from services.settings import Settings
from shared.eventstore import MatchLog
from shared.redis_server import free_port
from tests.service_fixtures import Http, Reply, Service, error_of, stop_process

DEFAULTS = Settings()


def make_lobby(redis_url: str, rules: Service, **quotas: Any) -> Lobby:
    client = lobby_application.redis_client(redis_url)
    return Lobby(client, RulesClient(rules.url), quotas=Quotas(**quotas))


@pytest.fixture
def lobby(redis_client: redis.Redis, redis_url: str, rules_service: Service) -> Lobby:
    """The lobby at the default quotas on a freshly flushed Redis (rate counters included)."""
    return make_lobby(redis_url, rules_service)


def http_for(service: Lobby, settings: Settings = DEFAULTS) -> Http:
    return Http(
        create_lobby_app({"TESTING": True}, service=service, settings=settings).test_client()
    )


@pytest.fixture
def http(lobby: Lobby) -> Http:
    return http_for(lobby)


def rate(setting: str) -> int:
    """How many requests a rate setting such as "30/minute" allows."""
    return int(setting.split("/")[0])


def too_many(reply: Reply) -> None:
    error = error_of(reply, 429, "too_many_requests")
    wait = int(reply.headers["Retry-After"])
    assert 1 <= wait <= 60 and error["details"] == {"retry_after": wait}


# -- rates --------------------------------------------------------------------------------------
def test_registrations_are_limited_per_client_address(http: Http):
    allowed = rate(DEFAULTS.limit_register)
    assert allowed == 30
    for i in range(allowed):
        http.player(f"P{i}")
    too_many(http.post("/v1/players", json={"name": "one more"}))
    elsewhere = http.post(
        "/v1/players", json={"name": "B"}, environ_base={"REMOTE_ADDR": "10.1.2.3"}
    )
    assert elsewhere.status == 201  # another address has its own count


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_clients(lobby: Lobby):
    http = http_for(lobby, Settings(limit_register="2/minute", forwarded_hops=1))
    for _ in range(2):
        assert (
            http.post(
                "/v1/players", json={"name": "A"}, headers={"X-Forwarded-For": "10.0.0.1"}
            ).status
            == 201
        )
    too_many(http.post("/v1/players", json={"name": "A"}, headers={"X-Forwarded-For": "10.0.0.1"}))
    assert (
        http.post("/v1/players", json={"name": "B"}, headers={"X-Forwarded-For": "10.0.0.2"}).status
        == 201
    )


def test_match_creation_is_limited_per_player(redis_client, redis_url: str, rules_service: Service):
    http = http_for(make_lobby(redis_url, rules_service, open_per_player=1000))  # the cap aside
    allowed = rate(DEFAULTS.limit_new_matches)
    assert allowed == 20
    ana, bea = http.player("Ana"), http.player("Bea")
    for _ in range(allowed):
        http.match(ana)
    too_many(http.post("/v1/matches", ana["token"], json={"game": "brisca"}))
    http.match(bea)  # another player's count is her own


def test_moves_are_limited_per_player_refused_ones_included(http: Http):
    allowed = rate(DEFAULTS.limit_moves)
    assert allowed == 300
    match, seated = http.seated_match()
    mover = seated[match["to_act"][0]]
    other = seated[1 - match["to_act"][0]]
    legal = http.view(mover, match["id"])["view"]["legal_actions"][0]
    for _ in range(allowed):  # stale versions: refused (409) and counted
        assert http.act(mover, match["id"], legal, 0).status == 409
    too_many(http.act(mover, match["id"], legal, match["version"]))
    assert http.view(mover, match["id"])["version"] == match["version"]  # nothing was played
    other_try = http.act(other, match["id"], legal, match["version"])
    assert other_try.status == 403  # the other player is not limited: refused for its turn


def test_stream_tickets_are_limited_per_player(http: Http):
    allowed = rate(DEFAULTS.limit_stream_tickets)
    assert allowed == 60
    match, (ana, bea) = http.seated_match()
    path = f"/v1/matches/{match['id']}/stream-ticket"
    for _ in range(allowed):
        assert http.post(path, ana["token"]).status == 200
    too_many(http.post(path, ana["token"]))
    assert http.post(path, bea["token"]).status == 200


# -- open streams -------------------------------------------------------------------------------
def test_open_streams_are_capped_per_player_and_a_dead_processs_lapse_with_their_lease(
    redis_client: redis.Redis,
):
    """Counted in Redis, so every feed process sees them; a stream that ends frees its slot
    at once, one whose process died holds it until its lease lapses (no renewal)."""
    cap = DEFAULTS.feed_streams_per_player
    assert cap == 16
    now = [1_000_000.0]
    streams = OpenStreams(redis_client, cap, retry_after=15, clock=lambda: now[0])
    held = [streams.open("ana") for _ in range(cap)]
    with pytest.raises(TooManyRequests) as refused:
        streams.open("ana")
    assert (refused.value.code, refused.value.retry_after) == ("too_many_streams", 15)
    streams.open("bea")  # each player's own cap
    streams.close("ana", held.pop())  # ended: its slot is free now
    held.append(streams.open("ana"))
    now[0] += STREAM_LEASE_S - 1
    streams.renew([("ana", held[-1])])  # only the last one's process is alive
    now[0] += 2
    for _ in range(cap - 1):  # the others lapsed
        streams.open("ana")
    with pytest.raises(TooManyRequests):
        streams.open("ana")
    assert 0 < redis_client.ttl(STREAMS_KEY.format(player="ana")) <= STREAM_LEASE_S


def test_a_renewal_extends_every_lease_it_names_of_each_player_and_no_other(
    redis_client: redis.Redis,
):
    """One renewal of several streams of one player (one ZADD for them all) keeps each of
    them; a stream it does not name lapses."""
    now = [1_000_000.0]
    streams = OpenStreams(redis_client, 16, retry_after=15, clock=lambda: now[0])
    ana = [streams.open("ana") for _ in range(3)]
    bea = streams.open("bea")
    now[0] += STREAM_LEASE_S - 1
    streams.renew([("ana", ana[0]), ("bea", bea), ("ana", ana[2])])
    now[0] += 2
    key = STREAMS_KEY.format(player="ana")
    alive = redis_client.zrangebyscore(key, now[0], "+inf")
    assert sorted(alive) == sorted((ana[0], ana[2]))
    assert redis_client.zscore(STREAMS_KEY.format(player="bea"), bea) > now[0]


def test_the_feed_renews_every_open_streams_lease_a_lot_of_players_at_a_time(
    redis_client: redis.Redis,
):
    """The hub's watch renews one lot of its players each second (a 6 s lease: two lots,
    each renewed every 2 s), so every open stream's lease is extended well before it lapses
    and a closed one's is not."""
    streams = OpenStreams(redis_client, 16, retry_after=1, lease_s=6.0)
    hub = feed.Hub(MatchLog(redis_client), streams=streams)
    assert hub.renewal_lots() == 2
    players = [f"p{n}" for n in range(8)]
    assert {feed.renewal_lot(player, 2) for player in players} == {0, 1}
    subs = [hub.subscribe("m1", player, feed.EntryReader("brisca", 0)) for player in players]
    hub.unsubscribe(subs.pop())  # its lease is gone with it
    opened = {sub.player_id: redis_client.zscore(STREAMS_KEY.format(player=sub.player_id),
                                                sub.slot) for sub in subs}  # fmt: skip
    time.sleep(3.2)
    hub.stopping = True
    for sub in subs:
        lease = redis_client.zscore(STREAMS_KEY.format(player=sub.player_id), sub.slot)
        assert lease is not None and lease > opened[sub.player_id] + 1, sub.player_id
    assert redis_client.zcard(STREAMS_KEY.format(player=players[-1])) == 0


# -- open matches -------------------------------------------------------------------------------
def test_open_matches_are_capped_per_player(http: Http):
    cap = DEFAULTS.open_matches_per_player
    assert cap == 10
    ana, bea, cai = http.player("Ana"), http.player("Bea"), http.player("Cai")
    first = http.match(ana, players=2)
    for _ in range(cap - 1):
        http.match(ana)
    error_of(
        http.post("/v1/matches", ana["token"], json={"game": "brisca"}),
        409,
        "too_many_open_matches",
    )
    http.match(bea)  # her own count
    http.join(bea, first["id"])
    assert http.join(cai, first["id"])["status"] == "running"  # started: no longer open
    http.match(ana)


def test_an_open_match_expires_after_the_idle_time_and_a_started_one_is_kept(
    http: Http, lobby: Lobby, redis_client: redis.Redis
):
    ana, bea = http.player("Ana"), http.player("Bea")
    match = http.match(ana, players=2)
    snapshot = lobby.log.keys(match["id"]).snapshot
    assert (
        DEFAULTS.open_match_idle_s - 5 <= redis_client.ttl(snapshot) <= DEFAULTS.open_match_idle_s
    )
    http.join(ana, match["id"])
    http.join(bea, match["id"])  # autostart
    assert all(
        redis_client.ttl(key) == -1
        for key in lobby.store.match_keys(match["id"])
        if redis_client.exists(key)
    )


def test_an_idle_open_match_is_gone_from_reads_lists_and_the_cap(
    redis_client: redis.Redis, redis_url: str, rules_service: Service
):
    lobby = make_lobby(redis_url, rules_service, open_idle_s=1, open_per_player=1)
    http = http_for(lobby)
    ana = http.player("Ana")
    match = http.match(ana)
    error_of(
        http.post("/v1/matches", ana["token"], json={"game": "brisca"}),
        409,
        "too_many_open_matches",
    )
    time.sleep(2.1)
    error_of(http.get(f"/v1/matches/{match['id']}", ana["token"]), 404, "not_found")
    listed = http.get("/v1/matches?status=open", ana["token"]).body["matches"]
    assert match["id"] not in [m["id"] for m in listed]
    open_key = listing.key(
        "all", listing.ANY, "open", listing.shard_of(match["id"], lobby.listing_shards)
    )
    assert redis_client.zscore(open_key, match["id"]) is None
    http.match(ana)  # the expired match no longer counts against the cap


# -- memory -------------------------------------------------------------------------------------
@pytest.fixture
def nearly_full(redis_client: redis.Redis) -> Iterator[redis.Redis]:
    """The session's Redis with a maxmemory just above what it uses now (restored after)."""
    yield redis_client
    redis_client.config_set("maxmemory", 0)


def test_new_matches_are_refused_before_moves_when_redis_is_nearly_full(
    http: Http, nearly_full: redis.Redis
):
    match, seated = http.seated_match()
    mover = seated[match["to_act"][0]]
    legal = http.view(mover, match["id"])["view"]["legal_actions"][0]
    used = int(nearly_full.info("memory")["used_memory"])
    nearly_full.config_set("maxmemory", int(used / (DEFAULTS.new_match_memory_fraction + 0.05)))
    refused = error_of(http.post("/v1/matches", mover["token"], json={"game": "brisca"}), 503)
    assert refused["code"] == "store_full"
    assert http.act(mover, match["id"], legal, match["version"]).status == 200


def test_a_full_redis_is_a_503_not_a_500(http: Http, nearly_full: redis.Redis):
    match, seated = http.seated_match()
    mover = seated[match["to_act"][0]]
    legal = http.view(mover, match["id"])["view"]["legal_actions"][0]
    nearly_full.config_set("maxmemory", 1)
    error_of(http.act(mover, match["id"], legal, match["version"]), 503, "store_full")


def test_make_runs_redis_has_a_memory_limit_and_no_eviction():
    """The Procfile's `python -m shared.redis_server`, with REDIS_MAXMEMORY's default."""
    assert DEFAULTS.redis_maxmemory == "512mb"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_MAXMEMORY"}
    server = subprocess.Popen(
        [sys.executable, "-m", "shared.redis_server", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None and "redis ready" in server.stdout.readline()
        client = redis.Redis(port=port, decode_responses=True)
        assert client.config_get("maxmemory")["maxmemory"] == str(512 * 1024 * 1024)
        assert client.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        client.close()
    finally:
        stop_process(server)


def test_the_servers_bots_are_not_limited_in_their_moves(http: Http, lobby: Lobby):
    lobby.players.seat_bot(bot_player("random"), "0123456789abcdef", 0)
    token = lobby.players.bot_seat_token("0123456789abcdef", 0)
    for _ in range(rate(DEFAULTS.limit_moves) + 5):  # no such match: 404, never 429
        reply = http.post(
            "/v1/matches/0123456789abcdef/actions", token,
            json={"action": {"type": "pass"}, "expected_version": 1},
        )  # fmt: skip
        assert reply.status == 404


def test_a_rematch_is_a_new_match_under_the_same_cap_and_memory_check(
    redis_client: redis.Redis, redis_url: str, rules_service: Service, nearly_full: redis.Redis
):
    http = http_for(make_lobby(redis_url, rules_service, open_per_player=1))
    match, (ana, bea) = http.seated_match()
    resigned = http.post(f"/v1/matches/{match['id']}/resign", bea["token"])
    assert resigned.status == 200, resigned.body
    held = http.match(ana)  # her one open match
    rematch = f"/v1/matches/{match['id']}/rematch"
    error_of(http.post(rematch, ana["token"]), 409, "too_many_open_matches")
    http.post(f"/v1/matches/{held['id']}/join", ana["token"], json={})
    http.post(f"/v1/matches/{held['id']}/join", bea["token"], json={})  # started: room again
    used = int(nearly_full.info("memory")["used_memory"])
    nearly_full.config_set("maxmemory", int(used / (DEFAULTS.new_match_memory_fraction + 0.05)))
    error_of(http.post(rematch, ana["token"]), 503, "store_full")
    nearly_full.config_set("maxmemory", 0)
    assert http.post(rematch, ana["token"]).status == 200
