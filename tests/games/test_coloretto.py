"""Coloretto: drafting rows, sitting out, rounds, the end, and the scoring table of the text."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from shared.engine import (
    IllegalAction,
    State,
    apply,
    check_state,
    english_deck,
    legal_actions,
    new_match,
    view,
)
from shared.games.coloretto import score, suit_points
from tests.rigging import rig

DRAW = {"type": "draw"}


def take(i: int) -> dict:
    return {"type": "take", "row": i}


def place(i: int) -> dict:
    return {"type": "place", "row": i}


def new(players: int = 3, **options) -> State:
    state, _ = new_match("coloretto", "base", players, seed="coloretto", options=options)
    return state


def table(
    state: State,
    stock_top: list[str] = (),
    rows: dict[int, list[str]] | None = None,
    collections: dict[int, list[str]] | None = None,
    turn: int = 0,
) -> State:
    """Rows and collections as given, ``stock_top`` on top of the stock (its last card drawn first)."""
    layout = {f"row:{i}": list(c) for i, c in (rows or {}).items()}
    layout.update({f"collection:{s}": list(c) for s, c in (collections or {}).items()})
    layout["drawn"] = list(stock_top)
    rig(state, layout, spill="stock")
    state.cards("stock").extend(state.cards("drawn"))
    state.cards("drawn").clear()
    state.data.turn, state.to_act = turn, [turn]
    check_state(state)
    return state


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


# -- the scoring table of the text ---------------------------------------------------------------
def test_the_scoring_table_is_1_3_5_7_9_and_15_for_six_or_more():
    assert [suit_points(n) for n in range(0, 9)] == [0, 1, 3, 5, 7, 9, 15, 15, 15]


def test_the_positive_suit_scores_and_every_other_suit_counts_against():
    cards = ["2S", "3S", "4H", "5H", "6H", "7D"]
    assert score(cards, "H")["points"] == 5 - 3 - 1
    assert score(cards, "S")["points"] == 3 - 5 - 1


def test_a_joker_counts_as_a_card_of_the_positive_suit():
    cards = ["4H", "5H", "6H", "JK"]
    assert score(cards, "H")["points"] == 7  # four hearts
    assert score(cards, "S")["points"] == 1 - 5  # one spade (the joker), three hearts


def test_the_plus_four_option_gives_each_joker_four_points_instead():
    cards = ["4H", "5H", "6H", "JK", "JK"]
    assert score(cards, "H", "plus-four")["points"] == 5 + 8


# -- setup --------------------------------------------------------------------------------------
def test_two_english_decks_with_jokers_make_108_cards():
    state = new()
    deck = state.all_cards()
    assert len(deck) == 108 and Counter(deck)["JK"] == 4
    assert sorted(deck) == sorted(english_deck(jokers=2, copies=2))


def test_each_player_starts_with_one_card_face_up_and_there_is_one_row_per_player():
    state = new(players=4)
    assert [len(state.cards(f"collection:{s}")) for s in range(4)] == [1, 1, 1, 1]
    assert view(state, None)["zones"]["collection:2"]["cards"] == state.cards("collection:2")
    assert len([z for z in state.zones if z.startswith("row:")]) == 4


def test_the_first_turn_may_only_draw_since_every_row_is_empty():
    state = new()
    assert legal_actions(state, state.to_act[0]) == [DRAW]


# -- a turn -------------------------------------------------------------------------------------
def test_a_drawn_card_is_shown_and_added_to_a_row_of_the_players_choice():
    state = table(new(), stock_top=["7H"])
    events = apply(state, 0, DRAW)
    assert events[0]["card"] == "7H" and view(state, 1)["zones"]["drawn"]["cards"] == ["7H"]
    assert state.phase == "place"
    apply(state, 0, place(2))
    assert state.cards("row:2") == ["7H"] and state.to_act == [1]


def test_a_row_holds_at_most_four_cards():
    state = table(new(), stock_top=["7H"], rows={0: ["2S", "3S", "4S", "5S"]})
    apply(state, 0, DRAW)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="row 0 is full"):
        apply(state, 0, place(0))
    assert snapshot(state) == before
    assert place(0) not in legal_actions(state, 0)


def test_with_row_size_three_a_row_is_full_at_three():
    state = table(new(row_size=3), stock_top=["7H"], rows={0: ["2S", "3S", "4S"]})
    apply(state, 0, DRAW)
    with pytest.raises(IllegalAction, match="row 0 is full"):
        apply(state, 0, place(0))


def test_when_every_open_row_is_full_the_player_must_take_one():
    full = {i: [f"{r}{'SHD'[i]}" for r in (2, 3, 4, 5)] for i in range(3)}
    state = table(new(), rows=full)
    with pytest.raises(IllegalAction, match="every row is full: take one"):
        apply(state, 0, DRAW)
    assert {a["type"] for a in legal_actions(state, 0)} == {"take"}


def test_taking_a_row_takes_its_cards_and_sits_out_the_rest_of_the_round():
    state = table(new(), rows={1: ["2S", "JK"]})
    start = list(state.cards("collection:0"))
    events = apply(state, 0, take(1))
    assert events[0] == {"type": "took", "seat": 0, "row": 1, "cards": ["2S", "JK"]}
    assert state.cards("collection:0") == start + ["2S", "JK"]
    assert state.to_act == [1]
    apply(state, 1, DRAW)
    apply(state, 1, place(0))
    assert state.to_act == [2]  # seat 0 is skipped
    apply(state, 2, DRAW)
    apply(state, 2, place(0))
    assert state.to_act == [1]


def test_an_empty_row_cannot_be_taken():
    state = table(new(), rows={1: ["2S"]})
    with pytest.raises(IllegalAction, match="row 0 is empty"):
        apply(state, 0, take(0))
    with pytest.raises(IllegalAction, match="there are rows 0 to 2"):
        apply(state, 0, take(3))


def test_a_taken_row_gets_no_card_until_the_round_ends():
    state = table(new(), stock_top=["9C"], rows={1: ["2S"]})
    apply(state, 0, take(1))
    apply(state, 1, DRAW)
    with pytest.raises(IllegalAction, match="row 1 was taken this round"):
        apply(state, 1, place(1))


def test_when_everyone_has_taken_a_row_a_new_round_begins_with_the_last_taker():
    state = table(new(), rows={0: ["2S"], 1: ["3H"], 2: ["4D"]})
    apply(state, 0, take(0))
    apply(state, 1, take(1))
    events = apply(state, 2, take(2))
    assert [e["type"] for e in events][-2:] == ["round_over", "round_started"]
    assert state.round == 2 and state.to_act == [2]
    assert view(state, None)["rows_taken"] == [False, False, False]


def nothing_left_to_take():
    """The stock is empty and seat 0 takes the only row with cards: the others sit out."""
    state = table(new(), rows={0: ["2S"]})
    rest = state.cards("stock")
    state.cards("collection:0").extend(rest)
    rest.clear()
    return state, apply(state, 0, take(0))


EVENT_SCENARIOS = {"sat_out": lambda: nothing_left_to_take()[1]}


def test_a_player_with_no_card_to_take_and_no_stock_sits_out():
    state, events = nothing_left_to_take()
    assert [e for e in events if e["type"] == "sat_out"] == [
        {"type": "sat_out", "seat": 1}, {"type": "sat_out", "seat": 2}
    ]  # fmt: skip
    assert state.phase == "choose"  # the stock ran out: that round was the last


# -- the end ------------------------------------------------------------------------------------
def test_after_the_fifth_round_each_player_names_a_positive_suit_and_the_most_points_win():
    state = table(
        new(players=2),
        rows={0: ["2S"], 1: ["3H"]},
        collections={0: ["2H", "3H", "4H", "JK"], 1: ["5S", "6S", "7D", "8D"]},
    )
    state.round = 5
    apply(state, 0, take(1))  # seat 0: five hearts and a joker
    apply(state, 1, take(0))  # seat 1: three spades, two diamonds
    assert state.phase == "choose" and sorted(state.to_act) == [0, 1]
    apply(state, 1, {"type": "choose", "suit": "S"})
    events = apply(state, 0, {"type": "choose", "suit": "H"})
    final = events[-1]["scoring"]
    assert [f["points"] for f in final] == [suit_points(5) - 0, 5 - 3]
    assert state.result["winners"] == [0] and state.result["scores"] == [9, 2]


def test_the_best_suit_option_chooses_for_the_players():
    state = table(
        new(players=2, positive_suit="best"),
        rows={0: ["2S"], 1: ["3H"]},
        collections={0: ["2H"], 1: ["5S", "6S"]},
    )
    state.round = 5
    apply(state, 0, take(1))
    events = apply(state, 1, take(0))
    assert events[-1]["type"] == "match_finished"
    assert [f["positive"] for f in events[-1]["scoring"]] == ["H", "S"]


def test_a_tie_is_a_shared_win():
    state = table(
        new(players=2),
        rows={0: ["2S"], 1: ["3H"]},
        collections={0: ["2H"], 1: ["5S"]},
    )
    state.round = 5
    apply(state, 0, take(1))
    apply(state, 1, take(0))
    apply(state, 0, {"type": "choose", "suit": "H"})
    apply(state, 1, {"type": "choose", "suit": "S"})
    assert state.result["winners"] == [0, 1]


def test_wrong_phase_and_bad_fields_are_refused_and_change_nothing():
    state = table(new(), rows={1: ["2S"]})
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="place is not possible in phase 'turn'"):
        apply(state, 0, place(1))
    with pytest.raises(IllegalAction, match="row must be at least 0"):
        apply(state, 0, take(-1))
    with pytest.raises(IllegalAction, match="choose is not possible"):
        apply(state, 0, {"type": "choose", "suit": "H"})
    assert snapshot(state) == before


def test_the_round_in_which_the_stock_runs_out_is_finished_and_is_the_last():
    state = table(new(), stock_top=["9C"])
    rest = state.cards("stock")[:-1]
    state.cards("collection:2").extend(rest)  # only the 9 of clubs is left in the stock
    del state.cards("stock")[:-1]
    check_state(state)
    apply(state, 0, DRAW)
    apply(state, 0, place(0))
    assert state.to_act == [1]
    with pytest.raises(IllegalAction, match="the stock is empty: take a row"):
        apply(state, 1, DRAW)
    events = apply(state, 1, take(0))
    assert [e["type"] for e in events] == [
        "took",
        "sat_out",
        "sat_out",
        "round_over",
        "choose_suits",
    ]
    assert state.round == 1 and state.phase == "choose"
