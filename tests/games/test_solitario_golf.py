"""Solitario Golf: scenarios from fixed deals, named after the rule they check."""

from __future__ import annotations

import json

import pytest

from shared.engine import (
    IllegalAction,
    apply,
    check_state,
    english_deck,
    legal_actions,
    new_match,
    view,
)
from tests.rigging import rig

GAME = "solitario-golf"
DRAW = {"type": "draw"}
COLUMNS = [f"column:{i}" for i in range(1, 8)]


def deal(variant="base", columns=(), stock=(), waste=(), options=None):
    """A match with the given columns (last card on top), stock (last card on top) and waste
    top; every other card lies under the waste, face up, out of play."""
    state, _ = new_match(GAME, variant, seed="fixed", options=options)
    columns = list(columns) + [[]] * (7 - len(columns))
    used = {c for col in columns for c in col} | set(stock) | set(waste)
    rest = [c for c in english_deck() if c not in used]
    layout = {name: list(col) for name, col in zip(COLUMNS, columns, strict=True)}
    layout.update(stock=list(stock), waste=rest + list(waste))
    rig(state, layout)
    check_state(state)
    return state


def play(state, card):
    return apply(state, 0, {"type": "play", "card": card})


def plays(state):
    return sorted(a["card"] for a in legal_actions(state, 0) if a["type"] == "play")


def refused(state, action, *words):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    for word in words:
        assert word in str(err.value), (word, str(err.value))


# -- the deal ------------------------------------------------------------------------------------
def test_the_deal_is_six_columns_of_5_one_of_4_and_18_cards_whose_top_starts_the_waste():
    s, events = new_match(GAME, "base", seed="deal")
    assert [len(s.cards(c)) for c in COLUMNS] == [5, 5, 5, 5, 5, 5, 4]
    assert len(s.cards("stock")) == 17 and len(s.cards("waste")) == 1  # 34 + 18 = 52
    assert events[0]["columns"] == [5, 5, 5, 5, 5, 5, 4]
    assert events[1] == {"type": "drawn", "seat": 0, "card": s.cards("waste")[0]}
    check_state(s)


def test_only_the_free_card_of_each_column_is_face_up():
    s, _ = new_match(GAME, "base", seed="deal")
    zones = view(s, 0)["zones"]
    for name in COLUMNS:
        shown = zones[name]["cards"]
        assert shown[:-1] == [None] * (len(shown) - 1) and shown[-1] == s.cards(name)[-1]
    assert zones["stock"]["cards"] == [None] * 17


def test_revelado_deals_every_column_card_face_up():
    s, _ = new_match(GAME, "revelado", seed="deal")
    zones = view(s, 0)["zones"]
    assert all(zones[name]["cards"] == s.cards(name) for name in COLUMNS)
    assert zones["stock"]["cards"] == [None] * 17


# -- going down ----------------------------------------------------------------------------------
def test_a_card_one_rank_above_or_below_the_waste_goes_down():
    # the text's example: with a 3 on the waste, a 2 or a 4 goes down
    s = deal(columns=[["2S"], ["4H"], ["3C"], ["5D"]], stock=["9C"], waste=["3D"])
    assert plays(s) == ["2S", "4H"]
    refused(s, {"type": "play", "card": "5D"}, "not one rank above or below the 3 of diamonds")
    refused(s, {"type": "play", "card": "3C"}, "not one rank")  # same rank: no
    play(s, "4H")
    assert s.cards("waste")[-1] == "4H" and plays(s) == ["3C", "5D"]  # a new card to follow


def test_king_and_ace_are_consecutive_both_ways():
    # the text's example: ... J Q K A 2 ...
    s = deal(columns=[["AS"], ["2H"], ["QC"]], stock=["9C"], waste=["KD"])
    assert plays(s) == ["AS", "QC"]
    play(s, "AS")
    assert plays(s) == ["2H"]
    s = deal(columns=[["KS"], ["9H"]], stock=["9C"], waste=["AD"])
    assert plays(s) == ["KS"]


def test_without_wrap_king_and_ace_are_not_consecutive():
    s = deal(columns=[["AS"], ["QC"]], stock=["9C"], waste=["KD"], options={"wrap": False})
    assert plays(s) == ["QC"]
    refused(s, {"type": "play", "card": "AS"}, "not one rank")


def test_only_the_free_card_of_a_column_may_go_down_and_the_refusal_leaks_nothing():
    s = deal(columns=[["4S", "9H"], ["JC"]], stock=["9C"], waste=["3D"])
    refused(
        s,
        {"type": "play", "card": "4S"},
        "not a free card",
        "free: the 9 of hearts and the jack of clubs",
    )
    refused(
        s,
        {"type": "play", "card": "4C"},
        "not a free card",
        "free: the 9 of hearts and the jack of clubs",
    )  # not there


def test_a_freed_card_is_turned_face_up():
    s = deal(columns=[["4S", "QS", "2H"], ["9C"]], stock=["9D"], waste=["3D"])
    assert view(s, 0)["zones"]["column:1"]["cards"] == [None, None, "2H"]
    events = play(s, "2H")
    assert events[0] == {
        "type": "played", "seat": 0, "card": "2H", "column": "column:1", "exposed": "QS",
    }  # fmt: skip
    assert view(s, 0)["zones"]["column:1"]["cards"] == [None, "QS"]


# -- drawing ----------------------------------------------------------------------------------
def test_drawing_is_refused_while_a_column_card_can_go_down():
    s = deal(columns=[["4S"], ["9H"]], stock=["9C", "8C"], waste=["3D"])
    assert DRAW not in legal_actions(s, 0)
    refused(s, DRAW, "The 4 of spades can still go down")


def test_with_draw_any_time_the_stock_may_be_drawn_while_a_card_could_go_down():
    s = deal(columns=[["4S"], ["9H"]], stock=["9C", "8C"], waste=["3D"],
             options={"draw_any_time": True})  # fmt: skip
    assert DRAW in legal_actions(s, 0)
    assert apply(s, 0, DRAW)[0] == {"type": "drawn", "seat": 0, "card": "8C"}


def test_when_no_card_can_go_down_the_next_stock_card_starts_a_new_sequence():
    s = deal(columns=[["4S"], ["9H"]], stock=["5C", "8C"], waste=["QD"])
    assert legal_actions(s, 0) == [DRAW]
    apply(s, 0, DRAW)  # the 8 de tréboles covers the Q: the 9 follows it
    assert s.cards("waste")[-2:] == ["QD", "8C"] and plays(s) == ["9H"]


# -- the end --------------------------------------------------------------------------------------
def test_clearing_every_column_wins_even_with_the_last_stock_card():
    s = deal(columns=[["5S"], ["4H"]], stock=["3C"], waste=["KD"])
    apply(s, 0, DRAW)  # the last stock card: 3 de tréboles
    play(s, "4H")
    events = play(s, "5S")
    assert s.finished and s.result == {"winners": [0], "scores": [34], "rounds": [[34]]}
    assert events[-1]["type"] == "match_finished" and events[-1]["won"] is True
    assert events[-1]["cards_left"] == 0 and events[-1]["stock_left"] == 0
    assert view(s, 0)["won"] is True and view(s, 0)["cards_left"] == 0


def test_the_stock_used_up_with_a_card_left_on_the_table_loses_without_a_redeal():
    s = deal(columns=[["9S", "5S"], ["4H"]], stock=["8C"], waste=["KD"])
    events = apply(s, 0, DRAW)
    assert s.finished and s.result["winners"] == [] and s.result["scores"] == [31]
    assert events[-1]["won"] is False and "stock is used up" in events[-1]["reason"]
    assert legal_actions(s, 0) == []
    refused(s, DRAW, "finished")


def test_the_game_goes_on_while_cards_can_go_down_after_the_stock_is_used_up():
    s = deal(columns=[["9S", "5S"], ["JH"]], stock=["4C"], waste=["KD"])
    apply(s, 0, DRAW)
    assert not s.finished and plays(s) == ["5S"]
    play(s, "5S")
    assert s.finished and s.result["winners"] == [] and s.result["scores"] == [32]


# -- bad input ---------------------------------------------------------------------------------
def test_bad_actions_are_refused_with_a_reason_and_change_nothing():
    s = deal(columns=[["4S"], ["9H"]], stock=["9C"], waste=["3D"])
    refused(s, {"type": "fly"}, "unknown action type 'fly'", "play, draw")
    refused(s, {"type": "play"}, "needs the field 'card'")
    refused(s, {"type": "play", "card": "ZZ"}, "card must be a card code")
    refused(s, {"type": "draw", "card": "4S"}, "draw has no field 'card'")


def test_in_revelado_a_card_seen_under_another_still_cannot_go_down():
    s = deal("revelado", columns=[["4S", "9H"]], stock=["9C"], waste=["3D"])
    assert view(s, 0)["zones"]["column:1"]["cards"] == ["4S", "9H"]
    assert plays(s) == []
    refused(s, {"type": "play", "card": "4S"}, "not a free card", "free: the 9 of hearts")
