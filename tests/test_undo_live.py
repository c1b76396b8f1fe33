"""A solitaire's undo through the real lobby and history services (gunicorn, the rules
service, one Redis): in every one-player game of the catalog a move is taken back and the
view is exactly the one before it; an undo after a move that showed a card is refused; the
match then plays to its end, ``/verify`` passes, the history service's replay at the undo
shows the earlier state, and the export verifies offline. Then who may not undo: a bot, the
server, a match of two.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis

from services.errors import Rejected
from services.lobby import application as lobby_application
from services.lobby.application import SYSTEM, Lobby
from services.lobby.rules_client import RulesClient
from shared.verify import verify_export
from tests.service_fixtures import Http, Service, error_of, session

UNDO = {"type": "undo"}
# Deals tried until one has a move that may be taken back. Random play finds one in about 4%
# of Solitario Español's deals (most of its moves show a card), so 40 deals missed in about one
# run in five; 200 miss in 1 of 3,500, and a run stops at the first found (about 25 deals).
MATCHES_PER_GAME = 200


@pytest.fixture
def lobby(lobby_service: Service, redis_client: redis.Redis) -> Http:
    """The lobby over HTTP, on a Redis flushed for this test."""
    return Http(session(), lobby_service.url)


def solitaires(rules_service: Service) -> list[tuple[str, str]]:
    """Each one-player game of the catalog, with the variant that shows the most cards (the
    one whose moves are most often undoable), else its first."""
    games = session().get(f"{rules_service.url}/v1/games", timeout=10).json()["games"]
    found = []
    for game in games:
        alone = [v["id"] for v in game["variants"] if v["players"]["max"] == 1]
        if alone:
            shown = [v for v in alone if v.startswith(("revelad", "mazo-reducido"))]
            found.append((game["id"], (shown or alone)[0]))
    return found


def move(
    lobby: Http, ana: dict, match_id: str, rng: random.Random, before: dict | None = None
) -> tuple[dict, Any]:
    """One random legal move from ``before`` (the last answer; None: read the match):
    (the version and view before it, the move's answer)."""
    before = before or lobby.view(ana, match_id)
    action = rng.choice(before["view"]["legal_actions"])
    answer = lobby.act(ana, match_id, action, before["version"])
    assert answer.status == 200, answer.body
    return before, answer.body


def undoable_move(
    lobby: Http, ana: dict, game: str, variant: str, rng: random.Random
) -> tuple[str, dict, dict]:
    """A match of ``game`` at a move that may be taken back: (match, before it, its answer)."""
    for attempt in range(MATCHES_PER_GAME):
        match = lobby.match(ana, game=game, variant=variant, players=1)
        lobby.join(ana, match["id"], seat=0, seed=f"ana-{game}-{attempt}")
        answer = None
        while answer is None or not answer["view"]["finished"]:
            before, answer = move(lobby, ana, match["id"], rng, answer)
            if answer["view"]["may_undo"]:
                return match["id"], before, answer
    raise AssertionError(f"{game}/{variant}: no undoable move in {MATCHES_PER_GAME} deals")


def test_every_solitaire_takes_back_a_move_then_finishes_and_verifies(
    lobby: Http, history: Http, rules_service: Service
):
    games = solitaires(rules_service)
    assert len(games) == 5, games  # the catalog's one-player games
    ana = lobby.player("Ana")
    refusals = 0
    for game, variant in games:
        rng = random.Random(game)
        match_id, before, moved = undoable_move(lobby, ana, game, variant, rng)
        assert moved["view"]["zones"] != before["view"]["zones"]
        undone = lobby.act(ana, match_id, UNDO, moved["version"])
        assert undone.status == 200, undone.body
        assert undone.body["events"] == [] and undone.body["version"] == moved["version"] + 1
        assert undone.body["view"] == before["view"], game  # exactly the earlier view
        again = lobby.view(ana, match_id)
        assert again["view"] == before["view"] and again["version"] == undone.body["version"]

        # play on until a move shows a card or shuffles: then nothing may be taken back
        answer = undone.body
        while not answer["view"]["finished"]:
            _, answer = move(lobby, ana, match_id, rng, answer)
            if not answer["view"]["may_undo"]:
                break
        if not answer["view"]["finished"]:
            path = f"/v1/matches/{match_id}/actions?lang=es"
            body = {"action": UNDO, "expected_version": answer["version"]}
            refused = error_of(lobby.post(path, ana["token"], json=body), 422, "illegal_action")
            assert refused["message"].startswith("no hay jugada que deshacer"), refused
            english = error_of(lobby.act(ana, match_id, UNDO, answer["version"]), 422)
            assert english["message"].startswith("there is no move to take back")
            refusals += 1
        while not answer["view"]["finished"]:
            _, answer = move(lobby, ana, match_id, rng, answer)

        report = history.get(f"/v1/matches/{match_id}/verify").body
        assert report["ok"] is True and report["seed"]["matches"] is True, (
            game,
            report["divergences"],
        )
        at = f"/v1/matches/{match_id}/replay?seat=0&version={undone.body['version']}"
        replayed = history.get(at)
        assert replayed.status == 200, replayed.body
        lobby_only = ("turn_deadline", "may_undo")  # the lobby's fields of a view
        earlier = {k: v for k, v in before["view"].items() if k not in lobby_only}
        assert replayed.body["view"] == earlier, game
        exported = history.get(f"/v1/matches/{match_id}/export").body
        assert [e["version"] for e in exported["entries"] if e.get("action") == UNDO] == [
            undone.body["version"]
        ]
        assert verify_export(exported)["ok"] is True, game
    assert refusals >= 3, refusals  # a game may end on the very move it cannot take back


def test_a_bot_the_server_and_a_match_of_two_never_undo(
    lobby: Http, redis_url: str, rules_service: Service
):
    ana = lobby.player("Ana")
    match = lobby.match(ana, game="solitario-piramide", variant="revelada", players=1)
    reply = lobby.post(
        f"/v1/matches/{match['id']}/bots", ana["token"], json={"seat": 0, "strategy": "random"}
    )
    assert reply.status == 200 and reply.body["status"] == "running", reply.body
    here = Lobby(lobby_application.redis_client(redis_url), RulesClient(rules_service.url))
    bot = {"token": here.bot_token(match["id"], 0)}
    rng = random.Random("bot")
    for _ in range(40):  # the bot's own moves, until one a person could take back
        before, answer = move(lobby, bot, match["id"], rng)  # read: its may_undo too
        assert answer["view"]["may_undo"] is False  # never offered to a bot
        if here.store.load(match["id"]).undo or answer["view"]["finished"]:
            break
    assert here.store.load(match["id"]).undo, "no undoable move by the bot"
    version = answer["version"]
    refused = error_of(lobby.act(bot, match["id"], UNDO, version), 422, "illegal_action")
    assert "neither a bot nor the server" in refused["message"]
    for server in (
        lambda: here.submit_action(match["id"], SYSTEM, UNDO, version),
        lambda: here.submit_for_seat(match["id"], 0, UNDO, version),  # a turn timer
    ):
        with pytest.raises(Rejected, match="neither a bot nor the server"):
            server()
    assert here.store.load(match["id"]).version == version  # nothing written

    duel, seated = lobby.seated_match(game="brisca", players=2)
    mover = seated[duel["to_act"][0]]
    assert lobby.view(mover, duel["id"])["view"]["may_undo"] is False
    refused = error_of(lobby.act(mover, duel["id"], UNDO, duel["version"]), 422)
    assert refused["message"] == "moves can be taken back in a solitaire only"
