"""The client features that depend on the real processes: gunicorn (two workers), the feed
(gevent), the bot dispatcher and rq workers, on a real Redis.

A preflight and a revoked token across both lobby workers, the stream's end, a bots-only
match played with derived seat tokens that die with it, and the idle limit ending a match
that nobody plays.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from services.lobby.players import TOKEN_KEY, bot_seat_token, token_digest
from services.settings import DEV_BOT_TOKEN_KEY
from tests.bots_fixtures import BotProcess, BotProcesses
from tests.service_fixtures import Http, Service, error_of, session
from tests.sse import Stream

IDLE_LIMIT_S = 2.0


@pytest.fixture
def http(lobby_service: Service) -> Http:
    return Http(session(), lobby_service.url)


@pytest.fixture(scope="module")
def bots(bot_processes: BotProcesses) -> Iterator[list[BotProcess]]:
    """A dispatcher with a short idle limit and one worker, for this module."""
    dispatcher = bot_processes.dispatcher(MATCH_IDLE_LIMIT_S=str(IDLE_LIMIT_S))
    worker = bot_processes.worker()
    dispatcher.wait_for_log("dispatching")
    worker.wait_for_log("working on")
    yield [dispatcher, worker]


def wait_finished(http: Http, player: dict[str, Any], match_id: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        match = http.view(player, match_id)
        if match["status"] == "finished":
            return match
        assert time.monotonic() < deadline, f"still {match['status']} at v{match['version']}"
        time.sleep(0.2)


def test_a_preflight_is_never_refused_for_lack_of_a_token(http: Http):
    ask = {"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"}
    for path in ("/v1/matches", "/v1/matches/0123456789abcdef/actions", "/v1/players/me"):
        reply = http.client.options(http.base_url + path, headers=ask, timeout=10)
        assert reply.status_code == 204, (path, reply.status_code, reply.text)


def test_a_rotated_token_is_refused_by_every_lobby_worker_at_once(http: Http):
    ana = http.player()
    for _ in range(4):  # both workers have served it, and would have cached it
        assert http.get("/v1/players/me", ana["token"]).status == 200
    rotated = http.post("/v1/players/me/token", ana["token"]).body["token"]
    for _ in range(8):  # keep-alive off: the requests spread over both workers
        error_of(http.get("/v1/players/me", ana["token"], headers={"Connection": "close"}), 401)
        assert http.get("/v1/players/me", rotated, headers={"Connection": "close"}).status == 200


def test_the_stream_says_when_the_match_is_finished_and_ends(http: Http, feed_service: Service):
    match, seated = http.seated_match(game="brisca", players=2)
    url = f"{feed_service.url}/v1/matches/{match['id']}/stream"
    live = Stream(url, seated[0]["token"], last_id=match["version"])
    assert live.status == 200
    resigned = http.post(f"/v1/matches/{match['id']}/resign", seated[1]["token"]).body
    events = [(m.event, m.data) for m in live.messages()]  # ends by itself
    assert [e for e, _ in events] == ["entry", "finished"]
    assert '"reason":"resigned"' in events[-1][1].replace(" ", "")
    assert live.retry is not None and live.retry >= 60_000  # no reason to come back soon
    again = Stream(url, seated[1]["token"], last_id=resigned["version"])  # resumed after the end
    assert [m.event for m in again.messages()] == ["finished"]


def test_bots_play_their_seats_as_one_player_and_their_tokens_die_with_the_match(
    http: Http, bots: list[BotProcess], redis_client: redis.Redis
):
    host = http.player("Host")
    match = http.match(host, game="brisca", players=2)
    for seat in (0, 1):
        body = {"seat": seat, "strategy": "random"}
        reply = http.post(f"/v1/matches/{match['id']}/bots", host["token"], json=body)
        assert reply.status == 200, reply.body
    ended = wait_finished(http, host, match["id"])
    assert [s["player"] for s in ended["seats"]] == ["bot-random", "bot-random"]
    log = http.events(host, match["id"]).body["entries"]
    moves = [e for e in log if e["kind"] == "action"]
    assert {(e["actor"]["player"], e["actor"]["system"]) for e in moves} == {("bot-random", False)}
    assert {e["actor"]["seat"] for e in moves} == {0, 1}
    for seat in (0, 1):
        token = bot_seat_token(DEV_BOT_TOKEN_KEY, match["id"], seat)
        assert redis_client.get(TOKEN_KEY.format(digest=token_digest(token))) is None
        error_of(http.get(f"/v1/matches/{match['id']}", token), 401)


def test_a_match_nobody_plays_is_ended_by_the_idle_limit(http: Http, bots: list[BotProcess]):
    match, seated = http.seated_match(game="brisca", players=2)
    started = time.monotonic()
    ended = wait_finished(http, seated[0], match["id"], timeout=30)
    assert time.monotonic() - started >= IDLE_LIMIT_S - 0.5
    assert ended["result"]["reason"] == "abandoned" and ended["result"]["seat"] is None
    last = http.events(seated[0], match["id"]).body["entries"][-1]
    assert last["kind"] == "match.ended" and last["actor"]["system"] is True
