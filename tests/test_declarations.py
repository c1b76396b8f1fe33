"""Games emit only what they declare: with checking on (as in every test), the core refuses
loudly an undeclared event type, an undeclared or missing field, a value of the wrong kind,
an undeclared view field and an undeclared fact; with it off (production), it checks nothing.
Also the declarations themselves: kit events included, visibility, facts said for a reader."""

from __future__ import annotations

import pytest

from shared.engine import apply, checks, get_game, legal_actions, new_match, view
from shared.engine.core import check_events, sentences
from shared.engine.events import MAYBE_PRIVATE, PRIVATE, EventType
from shared.engine.fields import CARD, SEAT, STR, DeclarationError
from shared.engine.kit.dealing import DEALT
from shared.engine.kit.ending import MATCH_FINISHED
from shared.engine.language import Message, Reader, Say
from shared.games.brisca import Brisca
from tests.playouts import playout, variant_cases


def brisca():
    state, _ = new_match("brisca", players=2, seed="declared")
    return state


@pytest.mark.parametrize(
    ("event", "problem"),
    [
        ({"type": "danced", "seat": 0}, "does not declare"),
        ({"type": "played", "seat": 0}, "lacks its field 'card'"),
        ({"type": "played", "seat": 0, "card": "3C", "face": "up"}, "undeclared field 'face'"),
        ({"type": "played", "seat": 0, "card": "ZZ"}, "card='ZZ', which is not a card code"),
        ({"type": "played", "seat": 5, "card": "3C"}, "seat=5"),
        ({"type": "dealt", "seat": 0, "cards": ["3C"]}, "lacks its field 'visible_to'"),
    ],
)
def test_an_event_its_game_does_not_declare_is_refused_loudly(event, problem):
    with pytest.raises(DeclarationError, match=problem):
        check_events(get_game("brisca"), brisca(), [event])


def test_the_core_checks_every_event_a_handler_returns_when_checking_is_on(monkeypatch):
    state = brisca()
    seat = state.to_act[0]
    action = legal_actions(state, seat)[0]
    play = Brisca.action_table["play"]
    monkeypatch.setattr(play, "_handler", lambda game, st, s, a: [{"type": "played", "seat": s}])
    with pytest.raises(DeclarationError, match="lacks its field 'card'"):
        apply(state.clone(), seat, action)
    before = checks.turn(False)
    try:  # off, as in production: nothing is checked
        assert apply(state.clone(), seat, action) == [{"type": "played", "seat": seat}]
    finally:
        checks.turn(before)


def test_a_view_field_or_fact_its_game_does_not_declare_is_refused(monkeypatch):
    state = brisca()
    shown = Brisca.public_fields
    monkeypatch.setattr(Brisca, "public_fields", lambda self, st: {**shown(self, st), "extra": 1})
    with pytest.raises(DeclarationError, match="undeclared field 'extra'"):
        view(state, 0)
    monkeypatch.setattr(Brisca, "public_fields", shown)
    monkeypatch.setattr(
        Brisca, "facts", lambda self, st, seat: [{"id": "luck", "seat": None, "value": 1}]
    )
    with pytest.raises(DeclarationError, match="does not declare"):
        view(state, 0)
    monkeypatch.setattr(Brisca, "facts", lambda self, st, seat: [self.trump(3)])
    with pytest.raises(DeclarationError, match="fact trump has the value 3"):
        view(state, 0)


def test_a_game_includes_the_kits_declarations_once():
    table = get_game("brisca").event_table
    assert table["dealt"] is DEALT and table["match_finished"] is MATCH_FINISHED
    with pytest.raises(ValueError, match="declares the event played twice"):
        type("Twice", (Brisca,), {"again": EventType("played", "again", seat=SEAT)})


def test_a_private_event_carries_visible_to_and_maybe_private_may_not():
    secret = EventType("peeked", "a look", visibility=PRIVATE, seat=SEAT, card=CARD)
    assert not secret.fields["visible_to"].optional
    assert secret.problem({"type": "peeked", "seat": 0, "card": "3C"}, 2) is not None
    sometimes = EventType("drew", "a draw", visibility=MAYBE_PRIVATE, seat=SEAT, card=CARD)
    assert sometimes.problem({"type": "drew", "seat": 0, "card": "3C"}, 2) is None
    assert sometimes.json_schema()["properties"]["card"]["anyOf"][1] == {"type": "null"}


def test_a_kit_event_a_game_tells_more_about_keeps_its_name_and_sentence():
    told = MATCH_FINISHED.extend(reason=STR)
    assert told.type == "match_finished" and "reason" in told.fields
    event = {"type": "match_finished", "reason": "x", "result": {"winners": [1]}}
    assert told.text(None, event, Reader("es")) == "Fin de la partida: gana Jugador 2"
    event["result"]["winners"] = [0, 1]
    assert told.text(None, event, Reader("en")) == "The match is over: Player 1 and Player 2 win"


def test_facts_are_said_for_their_reader_in_both_languages():
    state = brisca()
    es = {f["id"]: f for f in view(state, 0, "es", ["Ana", "Beto"])["facts"] if f["seat"] is None}
    en = {f["id"]: f for f in view(state, 0, "en", ["Ana", "Beto"])["facts"] if f["seat"] is None}
    assert es["trump"]["value"] == en["trump"]["value"]
    assert es["trump"]["label"] == "Triunfo" and en["trump"]["label"] == "Trump"
    scores = [
        f["text"] for f in view(state, 1, "es", ["Ana", "Beto"])["facts"] if f["id"] == "score"
    ]
    assert scores == ["Ana: 0 en la partida", "Beto: 0 en la partida"]


def test_sentences_are_said_after_redaction_for_their_reader():
    state, events = new_match("brisca", players=2, seed="declared")
    dealt = [e for e in events if e["type"] == "dealt"]
    seat = dealt[0]["seat"]
    own, other = (sentences("brisca", dealt, s, "es", ["Ana", "Beto"])[0] for s in (seat, 1 - seat))
    assert other == f"{['Ana', 'Beto'][seat]} recibe 3 cartas"
    assert own.startswith(f"{['Ana', 'Beto'][seat]} recibe el ") or own.startswith(
        f"{['Ana', 'Beto'][seat]} recibe la "
    )


# -- refusals: every one a game says, in both languages ----------------------------------------
def probes(game, state, seat):
    """Actions worth refusing: each action type with each card of the deck held or not held,
    each choice of its fields, a field missing, and a type the game does not have."""
    deck = sorted(set(game.deck(state)))
    hand = state.cards(f"hand:{seat}") if f"hand:{seat}" in state.zones else []
    cards = [*dict.fromkeys(hand), *[c for c in deck if c not in hand][:3]]
    yield {"type": "nonsense"}
    for kind in game.action_table.values():
        actions = [{"type": kind.type}]
        for name, spec in kind.fields.items():
            values = list(spec.choices or []) or (cards if spec.kind == "card" else [0, 1])
            actions = [{**a, name: v} for a in actions for v in values]
        yield from actions
        if kind.fields:
            yield {"type": kind.type}  # a field missing


GAMES = sorted({g for g, _, _ in variant_cases()})


@pytest.mark.parametrize("game_id", GAMES)
def test_every_refusal_of_every_game_is_said_in_both_languages(game_id):
    game = get_game(game_id)
    seen = 0
    for _, variant, players in (c for c in variant_cases() if c[0] == game_id):
        for step, (state, *_rest) in enumerate(playout(game_id, variant, players, "refusals")):
            if step % 3 or state.finished:
                continue
            for seat in state.to_act:
                for action in probes(game, state, seat):
                    reason = game.refusal(state, seat, action)
                    if reason is None:
                        continue
                    assert isinstance(reason, Message | Say), (
                        f"{game_id}: {reason!r} is one language"
                    )
                    es, en = (
                        reason.text(Reader(lang, deck=game.deck_kind)) for lang in ("es", "en")
                    )
                    assert es and en and es != en, f"{game_id}: {action}: {es!r} / {en!r}"
                    seen += 1
    assert seen >= 50  # the probes reached many refusals (short games, as 99's one deal: ~80)
