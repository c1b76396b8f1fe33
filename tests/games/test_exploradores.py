"""Exploradores: fixed deals, each test named after the rule it checks."""

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
from shared.engine.language import ENGLISH_DECK, Reader
from shared.games.exploradores import placement_problem, row_score
from tests.rigging import rig


def deal(variant="base", layout=None, options=None, seed="fixed"):
    """A fresh match with seat 0 to play and the given cards placed."""
    state, _ = new_match("exploradores", variant, 2, seed=seed, options=options)
    state.to_act, state.phase = [0], "play"
    if layout:
        rig(state, layout)
    check_state(state)
    return state


def place(state, seat, card):
    return apply(state, seat, {"type": "place", "card": card})


def discard(state, seat, card):
    return apply(state, seat, {"type": "discard", "card": card})


def draw(state, seat, source="stock"):
    return apply(state, seat, {"type": "draw", "source": source})


def refused(state, seat, action, words):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    assert words in str(info.value)
    assert json.dumps(state.to_json(), sort_keys=True) == before


HAND = ["6S", "5S", "7S", "AS", "KH", "2H", "9D", "JC"]


def test_deal_gives_eight_cards_each_and_a_stock_of_thirty_six():
    state, events = new_match("exploradores", "base", 2, seed="deal")
    assert [len(state.cards(f"hand:{s}")) for s in (0, 1)] == [8, 8]
    assert len(state.cards("stock")) == 36 and len(state.all_cards()) == 52
    assert all(not state.cards(f"discard-{x}") for x in "SHDC")
    assert state.to_act == [1 - state.data.dealer] and state.phase == "play"
    assert [e["visible_to"] for e in events if e["type"] == "dealt"] in ([[0], [1]], [[1], [0]])


def test_two_players_only():
    for players in (1, 3):
        with pytest.raises(BadSetup):
            new_match("exploradores", "base", players)


def test_rule_text_example_after_a_six_only_lower_cards_follow():
    s = deal(layout={"hand:0": ["5S", "7S", "AS", "KH", "2H", "9D", "JC", "3C"],
                     "expedition-S:0": ["6S"]})  # fmt: skip
    refused(s, 0, {"type": "place", "card": "7S"}, "is not lower than the 6 of spades")
    refused(s, 0, {"type": "place", "card": "AS"}, "is not lower than the 6 of spades")
    place(s, 0, "5S")
    assert s.cards("expedition-S:0") == ["6S", "5S"] and s.phase == "draw"


def test_the_ace_is_the_highest_card_so_an_expedition_may_start_with_it():
    s = deal(layout={"hand:0": ["AS", "KS", "QS", "2S", "3D", "4D", "5D", "6D"]})
    place(s, 0, "AS")
    draw(s, 0)
    draw_turn_of_seat_one(s)
    place(s, 0, "KS")
    assert s.cards("expedition-S:0") == ["AS", "KS"]


def draw_turn_of_seat_one(s):
    """Seat 1 discards its first card and draws from the stock."""
    discard(s, 1, s.cards("hand:1")[0])
    draw(s, 1)


def test_a_turn_is_place_or_discard_then_draw_and_drawing_ends_it():
    s = deal(layout={"hand:0": HAND})
    assert {a["type"] for a in legal_actions(s, 0)} == {"place", "discard"}
    discard(s, 0, "KH")
    assert s.cards("discard-H") == ["KH"] and s.phase == "draw" and s.to_act == [0]
    events = draw(s, 0)
    assert events[0]["visible_to"] == [0] and len(s.cards("hand:0")) == 8
    assert s.to_act == [1] and s.phase == "play"


def test_a_player_may_not_take_back_the_card_just_discarded():
    s = deal(layout={"hand:0": HAND, "discard-H": ["4H"]})
    discard(s, 0, "KH")
    refused(s, 0, {"type": "draw", "source": "H"}, "take back the card you have just discarded")
    assert {"type": "draw", "source": "H"} not in legal_actions(s, 0)
    draw(s, 0)
    events = draw_turn_and_take(s, "H")
    assert events[0] == {"type": "drew", "seat": 1, "source": "H", "card": "KH"}  # public
    assert s.cards("discard-H") == ["4H"]


def draw_turn_and_take(s, source):
    discard(s, 1, next(c for c in s.cards("hand:1") if not c.endswith("H")))
    return draw(s, 1, source)


def test_take_back_discard_option_allows_it():
    s = deal(layout={"hand:0": HAND}, options={"take_back_discard": True})
    discard(s, 0, "KH")
    draw(s, 0, "H")
    assert "KH" in s.cards("hand:0")


def test_an_empty_discard_pile_cannot_be_drawn():
    s = deal(layout={"hand:0": HAND})
    place(s, 0, "KH")
    refused(s, 0, {"type": "draw", "source": "D"}, "discard pile of diamonds is empty")


def test_score_per_started_row_is_values_minus_fifty_plus_forty_for_seven_cards():
    assert row_score([]) == 0  # never started
    assert row_score(["9H"]) == 10 - 50
    assert row_score(["AS", "KS", "QS", "JS"]) == 120 - 50
    seven = ["AS", "KS", "QS", "10S", "8S", "5S", "2S"]
    assert row_score(seven) == 30 * 3 + 10 * 4 - 50 + 40 == 120
    assert row_score(["9H", "5H"], "face") == 14 - 50  # option: numbers at face value


def test_the_match_ends_when_the_last_stock_card_is_drawn():
    s = deal(
        layout={
            "hand:0": HAND,
            "expedition-S:0": ["KS", "QS", "10S", "9S", "8S", "4S"],
            "expedition-D:1": ["10D"],
            "stock": ["3S"],
        }
    )
    s.zones["discard-C"].cards.extend(s.zones["stock"].cards[:-1])
    del s.zones["stock"].cards[:-1]
    check_state(s)
    place(s, 0, "2H")
    events = draw(s, 0)
    assert s.finished and [e["type"] for e in events][-2:] == [
        "expeditions_scored",
        "match_finished",
    ]
    scored = events[-2]
    # spades: K Q 30 + 30, four numbers 40 = 100 - 50, six cards: no bonus; hearts: 10 - 50
    assert scored["rows"] == [{"S": 50, "H": -40}, {"D": -40}]
    assert s.scores == [10, -40] and s.result["winners"] == [0]
    assert legal_actions(s, 0) == [] and s.rounds == [[10, -40]]


def test_a_tie_is_a_shared_win():
    s = deal(layout={"hand:0": HAND, "stock": ["3S"]})
    s.zones["discard-C"].cards.extend(s.zones["stock"].cards[:-1])
    del s.zones["stock"].cards[:-1]
    discard(s, 0, "9D")
    draw(s, 0)
    assert s.finished and s.scores == [0, 0] and s.result["winners"] == [0, 1]


# -- basico ----------------------------------------------------------------------------------
def test_basico_figures_go_first_in_any_order():
    s = deal("basico", layout={"hand:0": ["QS", "AS", "KS", "2S", "5S", "3S", "9D", "JC"]})
    place(s, 0, "QS")
    draw(s, 0)
    draw_turn_of_seat_one(s)
    place(s, 0, "AS")  # after the Q: any order among figures
    draw(s, 0)
    draw_turn_of_seat_one(s)
    place(s, 0, "3S")
    draw(s, 0)
    draw_turn_of_seat_one(s)
    refused(s, 0, {"type": "place", "card": "KS"}, "figures go only at the start")
    refused(s, 0, {"type": "place", "card": "2S"}, "number cards go up")
    place(s, 0, "5S")
    assert s.cards("expedition-S:0") == ["QS", "AS", "3S", "5S"]


def test_basico_numbers_go_up_not_down():
    s = deal("basico", layout={"hand:0": HAND[1:] + ["3C"], "expedition-S:0": ["6S"]})
    refused(s, 0, {"type": "place", "card": "5S"}, "not higher than the 6 of spades")
    place(s, 0, "7S")


# -- views and bad input ----------------------------------------------------------------------
def test_views_hide_the_other_hand_and_the_stock_but_show_expeditions_and_piles():
    s = deal(layout={"hand:0": HAND, "expedition-D:1": ["10D", "4D"], "discard-C": ["5C"]})
    seen = view(s, 1)
    assert seen["zones"]["hand:0"]["cards"] == [None] * 8
    assert seen["zones"]["expedition-D:1"]["cards"] == ["10D", "4D"]
    assert seen["zones"]["discard-C"]["cards"] == ["5C"]
    assert set(seen["zones"]["stock"]["cards"]) == {None}
    assert seen["expeditions"] == [{}, {"D": -30}] and seen["running"] == [0, -30]


def test_bad_input_is_refused_and_changes_nothing():
    s = deal(layout={"hand:0": HAND})
    refused(s, 0, {"type": "draw", "source": "stock"}, "not possible in phase 'play'")
    refused(s, 0, {"type": "place", "card": "3H"}, "not in your hand")
    refused(s, 0, {"type": "discard", "card": "3H"}, "not in your hand")
    refused(s, 0, {"type": "place"}, "needs the field 'card'")
    discard(s, 0, "KH")
    refused(s, 0, {"type": "draw", "source": "X"}, "source must be one of")
    refused(s, 0, {"type": "place", "card": "AS"}, "not possible in phase 'draw'")


@pytest.mark.parametrize("card", ["5S", "4S", "3S", "2S"])
def test_rule_text_example_after_a_six_five_four_three_two_may_follow(card):
    assert placement_problem(["6S"], card, "descending") is None


@pytest.mark.parametrize("card", ["7S", "8S", "9S", "10S"])
def test_rule_text_example_after_a_six_seven_to_ten_may_not(card):
    problem = placement_problem(["6S"], card, "descending")
    assert problem is not None
    assert "is not lower than the 6 of spades" in problem.text(Reader(deck=ENGLISH_DECK))
    assert "no es más baja que el 6 de picas" in problem.text(Reader("es", deck=ENGLISH_DECK))
