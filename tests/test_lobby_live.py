"""The lobby as deployed: real gunicorn processes (lobby and rules) on a real Redis.

Whole matches of every registered variant, concurrent submitters, the long-poll's
promptness, secrets kept from the wrong token, and a match surviving a lobby restart.
Every test runs on one Redis and on a Redis Cluster (tests/redis_fixtures.py).
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from redis.crc import key_slot

from services.lobby import listing
from services.lobby.application import Lobby
from services.lobby.rules_client import RulesClient
from services.settings import Settings
from shared.engine import all_games
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import Http, Reply, Service, error_of, session

pytestmark = pytest.mark.cluster  # on one Redis and on a Redis Cluster


@pytest.fixture
def http(lobby_service: Service) -> Http:
    return Http(session(), lobby_service.url)


def smallest_setups() -> list[tuple[str, str, int]]:
    """(game, variant, smallest player count) of every registered variant."""
    return [
        (game.id, variant, game.player_range(variant)[0])
        for game in all_games()
        for variant in game.variants
    ]


Played = tuple[dict[str, Any], int]  # the finished match and its number of moves


@pytest.fixture(scope="module")
def played(lobby_service: Service) -> dict[tuple[str, str, int], Played]:
    """Every variant played to its end, all at once, so the longest ones start first too.

    About 2,800 moves in all, each a view read and a move: some 20 s on 2 cores.
    """

    def play(setup: tuple[str, str, int]) -> Played:
        game, variant, players = setup
        http = Http(session(), lobby_service.url)  # a session per thread
        match, seated = http.seated_match(game=game, variant=variant, players=players)
        return http.play_to_the_end(match, seated, random.Random(f"{game}/{variant}"))

    setups = smallest_setups()
    started = time.monotonic()
    with ThreadPoolExecutor(min(len(setups), 32)) as pool:
        results = dict(zip(setups, pool.map(play, setups), strict=True))
    elapsed, moves = time.monotonic() - started, sum(m for _, m in results.values())
    print(f"\n{len(results)} matches, {moves} moves in {elapsed:.1f}s ({moves / elapsed:.0f}/s)")
    return results


@pytest.mark.one_node(  # ~2 min more on a cluster, for nothing a game changes
    "a match's keys and their slots are the same whatever its game: the other tests of this"
    " module play Brisca and Raj on the cluster"
)
@pytest.mark.parametrize("setup", smallest_setups(), ids=lambda s: f"{s[0]}/{s[1]}")
def test_every_variant_plays_to_a_result_through_the_lobby(
    played: dict[tuple[str, str, int], Played], setup: tuple[str, str, int]
):
    finished, moves = played[setup]
    assert finished["status"] == "finished" and finished["to_act"] == []
    assert finished["result"]["winners"] is not None
    assert len(finished["result"]["scores"]) == setup[2]
    assert finished["version"] == 1 + setup[2] + 1 + moves  # created, joins, started, moves
    assert hashlib.sha256(finished["seed"].encode()).hexdigest() == finished["seed_sha256"]


@pytest.mark.parametrize("game, variant, players", [("brisca", "base", 2), ("raj", "base", 3)])
def test_eight_clients_on_one_version_make_exactly_one_move(
    http: Http, game: str, variant: str, players: int
):
    match, seated = http.seated_match(game=game, variant=variant, players=players)
    views = {s: http.view(seated[s], match["id"]) for s in match["to_act"]}
    version = match["version"]
    clients = [
        (seated[seat], random.choice(views[seat]["view"]["legal_actions"]))
        for seat in [match["to_act"][i % len(match["to_act"])] for i in range(8)]
    ]
    barrier = threading.Barrier(len(clients))

    def submit(client: tuple[dict, dict]) -> Reply:
        own = Http(session(), http.base_url)
        barrier.wait()
        return own.act(client[0], match["id"], client[1], version)

    with ThreadPoolExecutor(len(clients)) as pool:
        replies = list(pool.map(submit, clients))
    assert sorted(r.status for r in replies) == [200] + [409] * 7
    for reply in replies:
        if reply.status == 409:
            assert error_of(reply, 409, "stale_version")["details"] == {"version": version + 1}
    after = http.view(seated[0], match["id"])
    assert after["version"] == version + 1
    feed = http.events(seated[0], match["id"], after=version).body["entries"]
    assert [e["version"] for e in feed] == [version + 1]


def test_a_token_cannot_act_for_another_seat_nor_see_its_hand(http: Http):
    match, (ana, beto) = http.seated_match()
    seats = {ana["id"]: 0, beto["id"]: 1}
    for _ in range(6):  # a few moves in, so draws have happened
        now = http.view(ana, match["id"])
        mover = ana if now["to_act"] == [0] else beto
        waiter = beto if mover is ana else ana
        view = http.view(mover, match["id"])
        action = view["view"]["legal_actions"][0]
        error_of(http.act(waiter, match["id"], action, view["version"]), 403, "not_your_turn")
        assert http.act(mover, match["id"], action, view["version"]).status == 200
    for me, other in ((ana, beto), (beto, ana)):
        mine, theirs = seats[me["id"]], seats[other["id"]]
        their_hand = http.view(other, match["id"])["view"]["zones"][f"hand:{theirs}"]["cards"]
        assert their_hand and None not in their_hand
        seen = http.view(me, match["id"])
        assert set(seen["view"]["zones"][f"hand:{theirs}"]["cards"]) == {None}
        feed = http.events(me, match["id"]).body
        private = [
            e for x in feed["entries"] for e in x["events"] if e.get("visible_to") == [theirs]
        ]
        assert private and all(e.get("card") is None for e in private)
        assert all(set(e.get("cards") or [None]) == {None} for e in private)
        # every card value shown to me, in my view's zones and in every event of my feed
        shown = json.dumps([seen["view"]["zones"], [x["events"] for x in feed["entries"]]])
        assert not [card for card in their_hand if f'"{card}"' in shown], "a card leaked"
        assert mine != theirs


def test_the_long_poll_returns_promptly_after_a_move(http: Http):
    match, seated = http.seated_match()
    seat = match["to_act"][0]
    view = http.view(seated[seat], match["id"])
    watcher = seated[1 - seat]
    done: dict[str, Any] = {}

    def poll() -> None:
        own = Http(session(), http.base_url)
        done["reply"] = own.events(watcher, match["id"], after=view["version"], wait=10)
        done["at"] = time.monotonic()

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.5)  # the poll is waiting now
    assert "reply" not in done
    moved = http.act(seated[seat], match["id"], view["view"]["legal_actions"][0], view["version"])
    moved_at = time.monotonic()
    poller.join(5)
    assert moved.status == 200 and done["reply"].status == 200
    latency = done["at"] - moved_at
    print(f"\nlong-poll answered {latency * 1000:.1f} ms after the move's reply")
    assert latency < 0.25
    [entry] = done["reply"].body["entries"]
    assert entry["version"] == moved.body["version"] and entry["kind"] == "action"

    started = time.monotonic()
    idle = http.events(watcher, match["id"], after=moved.body["version"], wait=1)
    assert idle.body["entries"] == [] and 0.9 <= time.monotonic() - started < 2.5


def test_a_match_survives_a_restart_of_the_lobby(http: Http, lobby_service: Service):
    match, seated = http.seated_match()
    rng = random.Random(5)
    for _ in range(5):
        now = http.view(seated[0], match["id"])
        seat = now["to_act"][0]
        view = http.view(seated[seat], match["id"])
        reply = http.act(
            seated[seat], match["id"], rng.choice(view["view"]["legal_actions"]), view["version"]
        )
        assert reply.status == 200
    before = http.view(seated[0], match["id"])

    lobby_service.restart()

    fresh = Http(session(), lobby_service.url)
    after = fresh.view(seated[0], match["id"])
    assert after == before  # same version, seats, to_act and view: nothing was lost
    finished, _ = fresh.play_to_the_end(after, seated, rng)
    assert finished["status"] == "finished" and finished["result"]


def test_a_players_matches_are_filed_across_slots_and_page_back_each_once_in_order(
    http: Http, redis_store: RedisStore, redis_client: Any, rules_service: Service
):
    """...and come back from the snapshots when the indexes are lost (``rebuild_index``)."""
    ana = http.player()
    made = [http.match(ana) for _ in range(8)]
    for match in made:
        http.join(ana, match["id"])  # now "mine"
    newest_first = sorted(made, key=lambda m: (m["created"], m["id"]), reverse=True)
    seen, cursor = [], None
    while True:
        query = "?mine=true&limit=3" + (f"&cursor={cursor}" if cursor else "")
        page = http.get(f"/v1/matches{query}", ana["token"]).body
        seen += [m["id"] for m in page["matches"]]
        if (cursor := page["next"]) is None:
            break
    assert seen == [m["id"] for m in newest_first]
    client = redis_client  # emptied first: the rebuild below scans the whole store
    shards = Settings().listing_shards
    filed = {
        m["id"]: listing.key(f"p.{ana['id']}", "*", "*", listing.shard_of(m["id"], shards))
        for m in made
    }
    assert all(client.zscore(key, match_id) is not None for match_id, key in filed.items())
    assert len({key_slot(key.encode()) for key in filed.values()}) > 1

    def mine() -> list[str]:
        return [m["id"] for m in http.get("/v1/matches?mine=true", ana["token"]).body["matches"]]

    for key in set(filed.values()):  # lost (one key at a time: they hash apart)
        client.delete(key)
    assert mine() == []
    lobby = Lobby(client, RulesClient(rules_service.url), redis_store.log(client))
    assert lobby.rebuild_index() >= len(made)  # scans every node of a cluster
    assert mine() == [m["id"] for m in newest_first]
