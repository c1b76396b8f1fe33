"""The lobby speaks its reader's language: the entries' sentences (the long-poll, the stream,
an action's answer) and the views' facts, in Spanish or English, the players by name.

In process (Flask's test client) on a real Redis and the real rules service, as
test_lobby_api.py; the history's log and replay are in test_history.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from services.lobby import application as lobby_application
from services.lobby.app import create_lobby_app
from services.lobby.application import Lobby
from services.lobby.rules_client import RulesClient
from services.lobby_events import entry_sentences, names_at
from shared.engine.language import SPANISH_DECK, card_phrase
from tests.service_fixtures import Http, Service, error_of


@pytest.fixture
def lobby(redis_client: redis.Redis, redis_url: str, rules_service: Service) -> Iterator[Lobby]:
    service = Lobby(lobby_application.redis_client(redis_url), RulesClient(rules_service.url))
    yield service
    service.hub.stop()  # the stream test started the feed's reader


@pytest.fixture
def http(lobby: Lobby) -> Http:
    return Http(create_lobby_app({"TESTING": True}, service=lobby).test_client())


def ana_and_beto(http: Http) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A started Brisca match of Ana (seat 0) and Beto (seat 1)."""
    ana, beto = http.player("Ana"), http.player("Beto")
    match = http.match(ana, players=2)
    http.join(ana, match["id"], seat=0)
    return http.join(beto, match["id"], seat=1), [ana, beto]


def poll(http: Http, player: dict[str, Any], match_id: str, query: str = "", **headers: str):
    reply = http.get(f"/v1/matches/{match_id}/events?after=0{query}", player["token"],
                     headers=headers)  # fmt: skip
    assert reply.status == 200, reply.body
    return reply.body["entries"]


def said(entries: list[dict[str, Any]]) -> list[str]:
    return [sentence for entry in entries for sentence in entry["sentences"]]


def first_move(http: Http, match: dict[str, Any], seated: list[dict[str, Any]]):
    seat = match["to_act"][0]
    view = http.view(seated[seat], match["id"])
    action = view["view"]["legal_actions"][0]
    reply = http.act(seated[seat], match["id"], action, view["version"])
    assert reply.status == 200, reply.body
    return seat, action


def test_the_long_poll_says_each_entry_in_spanish_or_english_naming_the_players(http: Http):
    match, seated = ana_and_beto(http)
    seat, action = first_move(http, match, seated)
    spanish = poll(http, seated[0], match["id"], "&lang=es")
    english = poll(http, seated[0], match["id"], headers={"Accept-Language": "en-GB"})
    assert [e["kind"] for e in spanish] == [
        "match.created", "seat.joined", "seat.joined", "match.started", "action",
    ]  # fmt: skip
    for entries in (spanish, english):
        assert all(len(e["sentences"]) == len(e["events"]) for e in entries)
    player = ["Ana", "Beto"][seat]
    card = card_phrase(action["card"], "es", SPANISH_DECK)
    assert {"Ana se sienta a la mesa", "Beto se sienta a la mesa", "Empieza la partida",
            f"{player} juega {card}"} <= set(said(spanish))  # fmt: skip
    card = card_phrase(action["card"], "en", SPANISH_DECK)
    assert {"Ana takes a seat", "Beto takes a seat", "The match begins",
            f"{player} plays {card}"} <= set(said(english))  # fmt: skip
    assert spanish[0]["sentences"] == ["Nueva partida de brisca (base) para 2 jugadores"]


def test_a_move_and_a_view_answer_in_the_language_asked_for_with_the_players_names(http: Http):
    match, seated = ana_and_beto(http)
    seat = match["to_act"][0]
    mine = seated[seat]
    reply = http.get(f"/v1/matches/{match['id']}?lang=es", mine["token"])
    facts = [fact["text"] for fact in reply.body["view"]["facts"]]
    assert "Ana lleva 0 puntos" in facts and "Beto lleva 0 puntos" in facts
    view = reply.body
    action = view["view"]["legal_actions"][0]
    body = {"action": action, "expected_version": view["version"]}
    moved = http.post(f"/v1/matches/{match['id']}/actions?lang=es", mine["token"], json=body)
    assert moved.status == 200, moved.body
    card = card_phrase(action["card"], "es", SPANISH_DECK)
    assert moved.body["sentences"][0] == f"{['Ana', 'Beto'][seat]} juega {card}"
    assert len(moved.body["sentences"]) == len(moved.body["events"])
    assert any(fact["text"].startswith("Triunfo") for fact in moved.body["view"]["facts"])


def test_lang_comes_first_then_accept_language_then_english(http: Http):
    match, seated = ana_and_beto(http)

    def joined(**kw: Any) -> str:
        return poll(http, seated[0], match["id"], **kw)[1]["sentences"][0]

    assert joined(query="&lang=en", **{"Accept-Language": "es"}) == "Ana takes a seat"
    assert joined(**{"Accept-Language": "fr, es-AR;q=0.8, en;q=0.5"}) == "Ana se sienta a la mesa"
    assert joined(**{"Accept-Language": "fr"}) == "Ana takes a seat"
    assert joined() == "Ana takes a seat"


def test_a_spectators_sentences_never_name_a_hidden_card(http: Http):
    match, seated = ana_and_beto(http)
    carla = http.player("Carla")  # not seated: a spectator
    mine = poll(http, seated[0], match["id"], "&lang=es")
    theirs = poll(http, carla, match["id"], "&lang=es")
    private = 0
    for own, seen in zip(mine, theirs, strict=True):
        for event, own_text, seen_text in zip(
            own["events"], own["sentences"], seen["sentences"], strict=True
        ):
            if event.get("visible_to") is None or 0 not in event["visible_to"]:
                continue
            private += 1
            for card in event.get("cards") or [event.get("card")]:
                phrase = card_phrase(card, "es", SPANISH_DECK, article=False)
                assert phrase in own_text and phrase not in seen_text, (own_text, seen_text)
    assert private  # Ana's hand was dealt to her alone


@pytest.mark.parametrize(
    "method, path",
    [("GET", ""), ("GET", "/events"), ("POST", "/actions"), ("GET", "/stream"),
     ("POST", "/leave")],
)  # fmt: skip
def test_a_language_the_server_does_not_speak_is_a_400_with_its_reason(
    http: Http, method: str, path: str
):
    match, seated = ana_and_beto(http)
    body = {"action": {"type": "play", "card": "1O"}, "expected_version": 1}
    reply = http.call(method, f"/v1/matches/{match['id']}{path}?lang=fr", seated[0]["token"],
                      json=body if method == "POST" else None)  # fmt: skip
    error = error_of(reply, 400, "bad_request")
    assert "lang" in json.dumps(error)


def test_the_stream_says_its_entries_in_the_language_of_its_url(http: Http):
    match, seated = ana_and_beto(http)
    assert http.post(f"/v1/matches/{match['id']}/resign", seated[1]["token"]).status == 200
    ticket = http.post(f"/v1/matches/{match['id']}/stream-ticket", seated[0]["token"]).body
    # the browser's EventSource sends its own Accept-Language; the URL's lang wins
    body = http.client.get(ticket["stream"] + "&lang=es", headers={"Accept-Language": "en"})
    assert body.status_code == 200
    entries = [
        json.loads(line[len("data: "):])
        for block in body.get_data(as_text=True).split("\n\n")
        if "event: entry" in block
        for line in block.splitlines()
        if line.startswith("data: ")
    ]  # fmt: skip
    assert [e["kind"] for e in entries][-1] == "match.ended"
    assert entries[-1]["sentences"] == ["Beto se rinde: fin de la partida"]
    assert "Ana se sienta a la mesa" in said(entries)


def test_a_seat_left_reads_with_the_name_of_who_left_it():
    """Names by seat follow the seat entries: a seat given up and taken by another."""
    left = {"kind": "seat.left", "seat": 0, "player": {"id": "a", "name": "Ana"},
            "events": [{"type": "seat_left", "seat": 0, "player": "a"}]}  # fmt: skip
    names = names_at(left, ["Beto", "Carla"])
    assert entry_sentences("brisca", left["events"], "es", names) == ["Ana deja la mesa"]
    bot = {"kind": "bot.added", "seat": 1, "player": {"id": "bot-random", "name": "Bruno"},
           "events": [{"type": "bot_added", "seat": 1, "player": "bot-random",
                       "strategy": "random"}]}  # fmt: skip
    assert entry_sentences("brisca", bot["events"], "en", names_at(bot, names)) == [
        "Bruno, a bot (random), takes a seat"
    ]
