"""Ladrones de tumbas: fixed deals, each test named after the rule it checks."""

from __future__ import annotations

import json

import pytest

from shared.engine import (
    BadSetup,
    IllegalAction,
    apply,
    check_state,
    legal_actions,
    new_match,
    view,
)
from shared.engine.core import redact
from shared.games.ladrones_de_tumbas import is_open, mission_points, tomb_sums
from tests.rigging import rig

GAME = "ladrones-de-tumbas"
# The text's two worked tombs, in the order played: Ace, up, down, up, down, up, down.
SPADES = ["AS", "2S", "10D", "4S", "6C", "8S", "4D"]
CLUBS = ["AC", "8C", "3D", "7C", "6H", "3C", "2C"]


END = {"type": "end"}
HAND = ["2S", "5H", "9D", "3C", "7C", "10H"]


def deal(variant="base", players=2, layout=None, seed="fixed", rules_version=None):
    """A fresh match with seat 0 to act (two actions) and the given cards placed."""
    state, _ = new_match(GAME, variant, players, seed=seed, rules_version=rules_version)
    state.to_act = [0]
    if layout:
        rig(state, layout)
    check_state(state)
    return state


def tomb_layout(x, cards):
    """Zones for a tomb of suit ``x`` holding ``cards`` in the order played."""
    up = [c for i, c in enumerate(cards) if i % 2 == 1 or i == 0]
    down = [c for i, c in enumerate(cards) if i % 2 == 0 and i > 0]
    return {f"tomb-{x}": up, f"tomb-{x}-down": down}


def play(state, seat, card, tomb):
    return apply(state, seat, {"type": "play", "card": card, "tomb": tomb})


def draw(state, seat):
    return apply(state, seat, {"type": "draw"})


def refused(state, seat, action, words):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    assert words in str(info.value)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_setup_four_ace_tombs_six_cards_each_and_two_figure_missions():
    state, events = new_match(GAME, "base", 3, seed="setup")
    for x in "SHDC":
        assert state.cards(f"tomb-{x}") == [f"A{x}"] and state.cards(f"tomb-{x}-down") == []
    assert all(len(state.cards(f"hand:{s}")) == 6 for s in range(3))
    assert all(2 <= int(c[:-1]) <= 10 for s in range(3) for c in state.cards(f"hand:{s}"))
    assert all(c[0] in "JQK" for s in range(3) for c in state.cards(f"missions:{s}"))
    assert len(state.cards("stock")) == 36 - 18 and len(state.cards("missions-left")) == 12 - 6
    dealt = [e for e in events if e["type"] == "missions_dealt"]
    assert all(e["visible_to"] == [e["seat"]] for e in dealt)


def test_two_to_six_players():
    with pytest.raises(BadSetup):
        new_match(GAME, "base", 7)
    state, _ = new_match(GAME, "base", 6, seed="six")
    assert not state.cards("stock") and not state.cards("missions-left")


# -- the text's worked examples -------------------------------------------------------------
def test_rule_text_tomb_of_spades_fifteen_against_twenty_is_open():
    assert tomb_sums("S", SPADES) == (15, 20) and is_open("S", SPADES)


def test_rule_text_tomb_of_clubs_twenty_one_against_nine_is_closed():
    assert tomb_sums("C", CLUBS) == (21, 9) and not is_open("C", CLUBS)


def test_the_ace_counts_one_and_equal_totals_leave_the_tomb_open():
    assert tomb_sums("H", ["AH", "4H", "5D"]) == (5, 5) and is_open("H", ["AH", "4H", "5D"])
    assert not is_open("H", ["AH"])  # an unfinished tomb with its Ace alone is closed


def test_rule_text_missions_score_one_per_card_whose_tomb_is_open():
    assert mission_points(["JS", "KC"], {"S"}) == 1  # spades open, clubs closed
    assert mission_points(["JS", "KC"], {"S", "C"}) == 2
    assert mission_points(["JS", "QS"], {"S"}) == 2  # two missions of one suit: two points
    assert mission_points(["JS", "QS"], {"H"}) == 0


# -- turns ------------------------------------------------------------------------------------
def test_a_turn_is_two_actions_each_a_draw_or_a_play():
    s = deal(layout={"hand:0": ["2S", "5H", "9D", "3C", "7C", "10H"]})
    draw(s, 0)
    assert s.to_act == [0] and len(s.cards("hand:0")) == 7
    play(s, 0, "2S", "S")
    assert s.to_act == [1] and s.cards("tomb-S") == ["AS", "2S"]
    assert view(s, 1)["actions_left"] == 2


def test_a_turn_may_be_two_draws():
    s = deal(layout={"hand:0": HAND})
    draw(s, 0)
    draw(s, 0)
    assert s.to_act == [1] and len(s.cards("hand:0")) == 8


def test_after_laying_a_card_the_player_cannot_draw_in_the_same_turn():
    s = deal(layout={"hand:0": HAND})
    play(s, 0, "2S", "S")
    refused(s, 0, {"type": "draw"}, "you have laid a card this turn: lay a second one")
    legal = legal_actions(s, 0)
    assert {"type": "draw"} not in legal and END in legal
    assert {a["tomb"] for a in legal if a["type"] == "play"} == {"H", "D", "C"}


def test_after_laying_a_card_the_player_may_end_the_turn():
    s = deal(layout={"hand:0": HAND})
    play(s, 0, "2S", "S")
    events = apply(s, 0, END)
    assert events == [{"type": "done", "seat": 0}]
    assert s.to_act == [1] and view(s, 1)["actions_left"] == 2
    assert s.cards("hand:0") == HAND[1:]


def test_a_turn_ends_early_only_after_a_card_was_laid():
    s = deal(layout={"hand:0": HAND})
    refused(s, 0, END, "only after laying a card")
    draw(s, 0)
    refused(s, 0, END, "only after laying a card")
    assert END not in legal_actions(s, 0)


def test_after_laying_a_card_with_no_second_card_to_lay_the_turn_ends():
    s = deal(layout={"hand:0": ["2S", "3S"]})  # the 3S could only go on the tomb of spades
    play(s, 0, "2S", "S")
    assert s.to_act == [1] and len(s.cards("stock")) > 0


def test_a_match_of_rules_version_1_still_plays_the_old_way():
    """Version 1: a turn was any two actions, a draw after a play included, and never ended
    after one play."""
    s = deal(layout={"hand:0": HAND}, rules_version=1)
    assert "draw_after_play" not in s.options
    play(s, 0, "2S", "S")
    assert {"type": "draw"} in legal_actions(s, 0) and END not in legal_actions(s, 0)
    refused(s, 0, END, "a turn is two actions")
    draw(s, 0)
    assert s.to_act == [1] and len(s.cards("hand:0")) == 6


def test_two_plays_in_a_turn_go_to_different_tombs():
    s = deal(layout={"hand:0": ["2S", "5H", "9D", "3C", "7C", "10H"]})
    play(s, 0, "2S", "S")
    refused(s, 0, {"type": "play", "card": "9D", "tomb": "S"}, "a second card goes to another tomb")
    play(s, 0, "5H", "H")
    assert s.to_act == [1]


def test_face_up_cards_are_of_the_aces_suit_and_face_down_cards_any_suit():
    s = deal(
        layout={"hand:0": ["2S", "5H", "9D", "3C", "7C", "10H"], **tomb_layout("D", ["AD", "4D"])}
    )
    refused(
        s, 0, {"type": "play", "card": "5H", "tomb": "S"}, "goes face up and must be of its suit"
    )
    play(s, 0, "7C", "D")  # the tomb of diamonds takes a face-down card now: any suit
    assert s.cards("tomb-D-down") == ["7C"]
    assert view(s, 1)["tombs"]["D"] == {"size": 3, "blocked": False, "next": "up"}


def test_a_face_down_card_is_seen_only_by_its_player():
    s = deal(
        layout={"hand:0": ["2S", "5H", "9D", "3C", "7C", "10H"], **tomb_layout("D", ["AD", "4D"])}
    )
    events = play(s, 0, "7C", "D")
    assert events[0]["visible_to"] == [0] and redact(events[0], 1)["card"] is None
    assert view(s, 1)["zones"]["tomb-D-down"]["cards"] == [None]
    assert view(s, 0)["zones"]["tomb-D-down"]["cards"] == [None]


def test_the_seventh_card_blocks_a_tomb():
    s = deal(
        layout={"hand:0": ["5S", "5H", "9D", "3C", "7C", "10H"], **tomb_layout("S", SPADES[:6])}
    )
    events = play(s, 0, "9D", "S")
    assert {"type": "tomb_blocked", "tomb": "S"} in events
    apply(s, 0, END)
    refused(s, 1, {"type": "play", "card": s.cards("hand:1")[0], "tomb": "S"}, "is blocked")


def test_every_tomb_blocked_ends_the_match_and_the_open_tombs_score_the_missions():
    hearts = ["AH", "2H", "5C", "3H", "6D", "4H", "10C"]  # 10 against 21: open
    diamonds = ["AD", "9D", "9C", "7D", "3S", "5D", "7S"]  # 22 against 19: closed
    layout = {
        **tomb_layout("S", SPADES), **tomb_layout("C", CLUBS), **tomb_layout("H", hearts),
        **tomb_layout("D", diamonds[:6]),
        "hand:0": ["7S"], "missions:0": ["JS", "KC"], "missions:1": ["QH", "QS"],
    }  # fmt: skip
    s = deal(layout=layout)
    events = play(s, 0, "7S", "D")  # face down: the seventh card of the last open tomb
    kinds = [e["type"] for e in events]
    assert kinds[-3:] == ["tombs_revealed", "missions_revealed", "match_finished"]
    tombs = events[-3]["tombs"]
    assert (tombs["S"]["suit_total"], tombs["S"]["others_total"], tombs["S"]["open"]) == (
        15,
        20,
        True,
    )
    assert (tombs["C"]["suit_total"], tombs["C"]["others_total"], tombs["C"]["open"]) == (
        21,
        9,
        False,
    )
    assert tombs["H"]["open"] and not tombs["D"]["open"]
    assert s.scores == [1, 2] and s.result["winners"] == [1]
    assert view(s, 1)["zones"]["missions:0"]["cards"] == ["JS", "KC"]  # revealed at the end
    assert view(s, 1)["zones"]["tomb-S-down"]["cards"] == ["10D", "6C", "4D"]


def test_a_player_who_cannot_act_passes_and_the_match_ends_when_nobody_can():
    layout = {
        "hand:0": ["2S", "3S"],
        "hand:1": ["9C"],
        **tomb_layout("H", ["AH", "2H", "5C", "3H", "6D", "4H", "10C"]),
        **tomb_layout("D", ["AD", "9D", "2C", "10D", "3D", "5D", "7H"]),
        **tomb_layout("C", ["AC", "8C", "4D", "7C", "6H", "3C", "2D"]),
    }
    s = deal(layout=layout)
    s.zones["missions-left"].cards.extend(s.zones["stock"].cards)  # no stock left to draw
    s.zones["stock"].cards = []
    check_state(s)
    play(s, 0, "2S", "S")
    # the 3S could only go on the tomb of spades, already played this turn: the turn ends
    assert s.to_act == [1]
    play(s, 1, "9C", "S")  # face down; seat 1 has nothing left, seat 0 can play its 3S
    assert s.to_act == [0] and not s.finished
    events = play(s, 0, "3S", "S")
    kinds = [e["type"] for e in events]
    assert kinds[1:3] == ["passed", "passed"] and s.finished
    assert events[3]["reason"] == "nobody_can_act"
    assert events[3]["tombs"]["S"]["cards"] == ["AS", "2S", "3S", "9C"]  # 6 against 9: open


def test_descubiertas_shows_the_missions_to_everyone():
    state, events = new_match(GAME, "descubiertas", 2, seed="open")
    assert view(state, 1)["zones"]["missions:0"]["cards"] == state.cards("missions:0")
    assert all("visible_to" not in e for e in events if e["type"] == "missions_dealt")
    base, _ = new_match(GAME, "base", 2, seed="open")
    assert view(base, 1)["zones"]["missions:0"]["cards"] == [None, None]


def test_bad_input_is_refused_and_changes_nothing():
    s = deal(layout={"hand:0": ["2S", "5H", "9D", "3C", "7C", "10H"]})
    refused(s, 0, {"type": "play", "card": "4S", "tomb": "S"}, "not in your hand")
    refused(s, 0, {"type": "play", "card": "2S", "tomb": "X"}, "tomb must be one of")
    refused(s, 0, {"type": "play", "card": "2S"}, "needs the field 'tomb'")
    refused(s, 0, {"type": "draw", "card": "2S"}, "draw has no field 'card'")
    refused(s, 1, {"type": "draw"}, "not to act")


def test_a_tie_in_mission_points_is_a_shared_win():
    hearts = ["AH", "2H", "5C", "3H", "6D", "4H", "10C"]  # open
    diamonds = ["AD", "9D", "9C", "7D", "3S", "5D", "7S"]  # closed
    layout = {
        **tomb_layout("S", SPADES), **tomb_layout("C", CLUBS), **tomb_layout("H", hearts),
        **tomb_layout("D", diamonds[:6]),
        "hand:0": ["7S"], "missions:0": ["JS", "KD"], "missions:1": ["QH", "QC"],
    }  # fmt: skip
    s = deal(layout=layout)
    play(s, 0, "7S", "D")
    assert s.scores == [1, 1] and s.result["winners"] == [0, 1]


def test_more_cards_than_the_number_cards_is_a_bad_setup():
    with pytest.raises(BadSetup, match="cannot each be dealt"):
        new_match(GAME, "base", 3, options={"hand_size": 13})
