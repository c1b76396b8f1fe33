"""Quick match through real lobby processes (services/lobby/quick.py), on one Redis and on a
Redis Cluster: everyone seated once in the game they asked for, cancelling, bots after the
wait, two lobby replicas pairing one burst, and the ratings the pairing reads."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from services.errors import Unavailable
from services.history.store import ratings_key
from services.lobby import quick
from services.lobby.application import Lobby
from services.lobby.ratings import NEW_PLAYER, HistoryRatings
from services.lobby.rules_client import RulesClient
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import Http, Service, error_of, session

pytestmark = pytest.mark.cluster  # on one Redis and on a Redis Cluster


@pytest.fixture
def http(lobby_service: Service) -> Http:
    return Http(session(), lobby_service.url)


@pytest.fixture(scope="module")
def second_lobby(redis_store: RedisStore, rules_service: Service, lobby_service: Service):
    """Another lobby replica on the same store."""
    env = {**redis_store.env, "RULES_URL": rules_service.url, "BOT_PACE_S": "0"}
    replica = Service("lobby-2", "services.lobby.wsgi:app", env)
    replica.start(timeout=60)  # beside the session's processes, on a loaded machine
    yield replica
    replica.stop()


def ask(http: Http, player: dict[str, Any], **body: Any) -> dict[str, Any]:
    reply = http.post("/v1/quick", player["token"], json={"game": "brisca", **body})
    assert reply.status == 202, reply.body
    return reply.body


def settled(http: Http, player: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """The request once it has left the queue (long-polls of a few seconds)."""
    deadline = time.monotonic() + 30
    while request["status"] in ("waiting", "opening"):
        assert time.monotonic() < deadline, f"still waiting: {request}"
        reply = http.get(f"/v1/quick/{request['id']}?wait=5", player["token"])
        assert reply.status == 200, reply.body
        request = reply.body
    return request


def seated_players(http: Http, viewer: dict[str, Any], match_id: str) -> list[str | None]:
    return [seat["player"] for seat in http.view(viewer, match_id)["seats"]]


def burst(https: list[Http], games: list[str]) -> list[tuple[dict, dict, dict]]:
    """One player per game in ``games``, all asking at once, spread over the lobbies; each
    (player, its settled request, the lobby it asked)."""
    players = [https[0].player(f"Q{i}") for i in range(len(games))]

    def one(i: int) -> tuple[dict, dict, dict]:
        lobby = https[i % len(https)]
        request = ask(lobby, players[i], game=games[i])
        return players[i], settled(lobby, players[i], request), lobby

    with ThreadPoolExecutor(max_workers=20) as pool:
        return list(pool.map(one, range(len(games))))


def assert_each_seated_once_in_their_game(http: Http, done: list[tuple[dict, dict, dict]]):
    matches: dict[str, list[str]] = {}
    for player, request, _ in done:
        assert request["status"] == "seated", request
        matches.setdefault(request["match"], []).append(player["id"])
    for match_id, asked in matches.items():
        owner = next(p for p, r, _ in done if r["match"] == match_id)
        match = http.view(owner, match_id)
        assert sorted(p for p in seated_players(http, owner, match_id) if p) == sorted(asked)
        games = {r["game"] for _, r, _ in done if r["match"] == match_id}
        assert games == {match["game"]} and match["status"] == "running"
    everyone = [p for asked in matches.values() for p in asked]
    assert len(everyone) == len(set(everyone)) == len(done)


def test_forty_players_asking_at_once_for_two_games_are_each_seated_once_in_their_game(
    http: Http,
):
    done = burst([http], ["brisca", "escoba"] * 20)
    assert_each_seated_once_in_their_game(http, done)
    assert len({r["match"] for _, r, _ in done}) == 20  # tables of two


def test_two_lobby_replicas_pair_one_burst_without_a_double_seat(http: Http, second_lobby: Service):
    done = burst([http, Http(session(), second_lobby.url)], ["brisca"] * 24)
    assert_each_seated_once_in_their_game(http, done)
    assert len({id(lobby) for _, _, lobby in done}) == 2  # both lobbies served the burst


def test_a_cancelled_request_is_never_seated_and_a_seated_one_cannot_be_cancelled(
    http: Http,
):
    ana, bea = http.player("Ana"), http.player("Bea")
    first = ask(http, ana, game="truco")
    cancelled = http.call("DELETE", f"/v1/quick/{first['id']}", ana["token"])
    assert cancelled.status == 200 and cancelled.body["status"] == "cancelled"
    again = http.call("DELETE", f"/v1/quick/{first['id']}", ana["token"])
    assert again.status == 200 and again.body["status"] == "cancelled"
    alone = ask(http, bea, game="truco")
    polled = http.get(f"/v1/quick/{alone['id']}?wait=1", bea["token"]).body
    assert polled["status"] == "waiting" and polled["match"] is None
    ana_again = ask(http, ana, game="truco")
    seated = settled(http, ana, ana_again)
    assert settled(http, bea, polled)["match"] == seated["match"]
    error_of(http.call("DELETE", f"/v1/quick/{seated['id']}", ana["token"]), 409, "already_seated")
    assert http.get(f"/v1/quick/{first['id']}", ana["token"]).body["status"] == "cancelled"


def test_after_the_bot_wait_the_free_seats_take_bots_of_the_level_asked(http: Http):
    ana = http.player("Ana")
    request = settled(http, ana, ask(http, ana, players=4, bots_after=0.5, bot_level="easy"))
    match = http.view(ana, request["match"])
    assert match["status"] == "running" and request["waited_s"] >= 0.5
    bots = [seat["bot"] for seat in match["seats"] if seat["player"] != ana["id"]]
    assert len(bots) == 3 and all(bot == "easy" for bot in bots), match["seats"]
    assert match["sit_in"] == "easy"  # should she leave, a bot of that level plays for her


def test_one_request_waits_per_player_and_only_its_owner_sees_it(http: Http):
    ana, bea = http.player("Ana"), http.player("Bea")
    waiting = ask(http, ana, game="cinquillo", players=4)
    error_of(http.post("/v1/quick", ana["token"], json={"game": "brisca"}), 409,
             "too_many_requests_waiting")  # fmt: skip
    error_of(http.get(f"/v1/quick/{waiting['id']}", bea["token"]), 404)
    error_of(http.call("DELETE", f"/v1/quick/{waiting['id']}", bea["token"]), 404)
    error_of(http.get("/v1/quick/not-an-id", ana["token"]), 404)
    assert http.call("DELETE", f"/v1/quick/{waiting['id']}", ana["token"]).status == 200


@pytest.mark.parametrize(
    "body, code",
    [
        ({"game": "nope"}, "unknown_game"),
        ({"game": "brisca", "players": 7}, None),
        ({"game": "brisca", "bot_level": "grandmaster"}, None),
        ({"game": "brisca", "bots_after": -1}, None),
        ({"game": "brisca", "options": {"no_such_option": 1}}, None),
    ],
)
def test_a_request_the_catalog_does_not_allow_is_refused_and_queues_nothing(
    http: Http, body: dict, code: str | None
):
    ana = http.player("Ana")
    error_of(http.post("/v1/quick", ana["token"], json=body), 400, code)
    ask(http, ana, game="chinchon", players=3)  # nothing of the refused one waits
    error_of(http.post("/v1/quick", json={"game": "brisca"}), 401)


@pytest.mark.one_node("the history service's read models; the ratings client only")
def test_the_lobby_reads_ratings_from_the_history_service(
    history_service: Service, redis_client: Any
):
    ratings = HistoryRatings(history_service.url)
    assert ratings("p-never-rated", "brisca") == NEW_PLAYER
    record = {"player": "p-rated", "name": "Ana", "bot": None, "is_bot": False,
              "mu": 30.0, "sigma": 2.0, "matches": 9, "wins": 7}  # fmt: skip
    redis_client.hset(ratings_key("brisca"), "p-rated", json.dumps(record))
    assert ratings("p-rated", "brisca") == pytest.approx(30.0 - 3 * 2.0)
    shown = session().get(f"{history_service.url}/v1/players/p-rated/ratings/brisca").json()
    assert shown["rating"] == pytest.approx(24.0) and shown["matches"] == 9
    assert HistoryRatings("http://127.0.0.1:9")("p-rated", "brisca") == NEW_PLAYER  # down


@pytest.mark.one_node("the recovery path, in process; the Lua steps run on the cluster above")
def test_a_table_whose_opener_stopped_shows_opening_and_the_next_poll_opens_it(
    redis_store: RedisStore, redis_client: Any, rules_service: Service
):
    lobby = Lobby(redis_client, RulesClient(rules_service.url), redis_store.log(redis_client))
    (ana, _), (beto, _) = lobby.register("Ana"), lobby.register("Beto")
    joins = lobby.seats.join

    def stops(*args: Any, **kwargs: Any) -> Any:  # the opener dies after creating the match
        raise Unavailable("the lobby stopped here")

    lobby.seats.join = stops  # type: ignore[method-assign]
    first = lobby.ask_quick_match(ana, "brisca", "base", 2, {}, None, None)
    with pytest.raises(Unavailable):  # seats the table, then dies opening it: at once, or
        second = lobby.ask_quick_match(beto, "brisca", "base", 2, {}, None, None)
        time.sleep(quick.ROUND_EVERY_MS / 1000 + 0.05)  # at the next pairing round
        lobby.poll_quick_match(beto, second["id"], 0)
    lobby.seats.join = joins  # type: ignore[method-assign]
    opening = lobby.poll_quick_match(ana, first["id"], 0)
    assert opening["status"] == "opening" and opening["match"]  # its opener holds the lock
    [lock] = redis_client.keys(quick.OPENING_KEY.format(match="*"))
    redis_client.delete(lock)  # the lock expires (30 s)
    seated = lobby.poll_quick_match(ana, first["id"], 0)
    assert seated["status"] == "seated" and seated["match"] == opening["match"]
    match = lobby.load(seated["match"]).match
    assert sorted(s["player"] for s in match["seats"]) == sorted([ana.id, beto.id])
    assert match["status"] == "running"
