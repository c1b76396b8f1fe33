"""El 9 and 7 Parejas: scenarios from fixed deals, named after the rule they check."""

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
    spanish_deck,
    view,
)
from tests.rigging import rig

GAME = "el-9"
REVEAL = {"type": "reveal"}
DECLINE = {"type": "decline"}
CELLS = [f"cell:{r}:{c}" for r in (1, 2, 3) for c in (1, 2, 3, 4, 5)]
ROW = {1: CELLS[0:5], 2: CELLS[5:10], 3: CELLS[10:15]}
#: The 12 figures, each suit in its own column: rey on top, caballo, sota at the bottom.
PERFECT = {
    **{f"cell:1:{i}": f"12{s}" for i, s in enumerate("OCEB", 1)},
    **{f"cell:2:{i}": f"11{s}" for i, s in enumerate("OCEB", 1)},
    **{f"cell:3:{i}": f"10{s}" for i, s in enumerate("OCEB", 1)},
}


def deal(variant="base", cells=None, stock=(), options=None):
    """A match whose grid holds exactly ``cells`` (cell -> card) and whose stock is ``stock``
    (the last card on top); every other card is on the discard pile."""
    state, _ = new_match(GAME, variant, seed="fixed", options=options)
    cells = cells or {}
    used = set(cells.values()) | set(stock)
    layout = {cell: [cells[cell]] if cell in cells else [] for cell in CELLS}
    layout.update(stock=list(stock), discard=[])
    rig(state, layout, spill="discard")
    size = state.options["deck"]
    state.zones["discard"].cards = [c for c in spanish_deck(size) if c not in used]
    check_state(state)
    return state


def full_grid(**overrides):
    """15 cards on the grid: the figure rows' fifth cells hold numbers, as do two more."""
    cells = {**PERFECT, "cell:1:5": "1O", "cell:2:5": "2O", "cell:3:5": "3O"}
    cells.update(overrides)
    return cells


def of_type(state, kind):
    return [a for a in legal_actions(state, 0) if a["type"] == kind]


def places(state):
    return [a["to"] for a in of_type(state, "place")]


def pairs(state):
    return sorted(sorted(a["cards"]) for a in of_type(state, "pair"))


def refused(state, action, *words):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    for word in words:
        assert word in str(err.value), (word, str(err.value))


# -- the deal --------------------------------------------------------------------------------
def test_the_whole_deck_is_a_face_down_stock_beside_an_empty_3_by_5_grid():
    s, events = new_match(GAME, "base", seed="deal")
    assert len(s.cards("stock")) == 48 and all(not s.cards(c) for c in CELLS)
    assert events == [{"type": "deal", "stock": 48, "rows": 3, "columns": 5}]
    assert legal_actions(s, 0) == [REVEAL]
    assert view(s, 0)["zones"]["stock"]["cards"] == [None] * 48
    check_state(s)


# -- placing -----------------------------------------------------------------------------------
def test_a_number_may_go_in_any_empty_cell_even_in_a_figure_row():
    s = deal(stock=["7C", "5O"])
    events = apply(s, 0, REVEAL)
    assert events == [{"type": "revealed", "seat": 0, "card": "5O"}] and s.phase == "place"
    assert places(s) == CELLS and legal_actions(s, 0) == of_type(s, "place")
    apply(s, 0, {"type": "place", "to": "cell:1:3"})
    assert s.cards("cell:1:3") == ["5O"] and s.phase == "play"


@pytest.mark.parametrize(("figure", "row"), [("12B", 1), ("11B", 2), ("10B", 3)])
def test_a_figure_goes_only_in_its_row_reyes_on_top_caballos_middle_sotas_bottom(figure, row):
    s = deal(stock=["7C", figure])
    apply(s, 0, REVEAL)
    assert places(s) == ROW[row]
    other = ROW[1 if row != 1 else 2][0]
    refused(s, {"type": "place", "to": other}, "goes only in")


def test_a_taken_cell_is_refused():
    s = deal(cells={"cell:2:2": "4C"}, stock=["7C", "5O"])
    apply(s, 0, REVEAL)
    assert "cell:2:2" not in places(s)
    refused(s, {"type": "place", "to": "cell:2:2"}, "cell:2:2 is taken by 4C")


# -- pairs -------------------------------------------------------------------------------------
def test_pairs_summing_9_are_8_1_7_2_6_3_and_5_4():
    cells = dict(zip(CELLS, ["8O", "1C", "7E", "2B", "6O", "3C", "5E", "4B"], strict=False))
    s = deal(cells=cells, stock=["7C"])
    assert pairs(s) == [["1C", "8O"], ["2B", "7E"], ["3C", "6O"], ["4B", "5E"]]
    events = apply(s, 0, {"type": "pair", "cards": ["8O", "1C"]})
    assert events[0] == {"type": "paired", "seat": 0, "cards": ["8O", "1C"]}
    assert not s.cards("cell:1:1") and not s.cards("cell:1:2") and s.cards("discard")[-1] == "1C"


def test_pairs_are_optional_and_may_wait():
    s = deal(cells={"cell:1:1": "8O", "cell:1:2": "1C"}, stock=["7C", "5O"])
    assert REVEAL in legal_actions(s, 0)
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "place", "to": "cell:3:3"})
    assert pairs(s) == [["1C", "8O"]]


def test_cards_that_do_not_sum_9_and_figures_never_pair():
    s = deal(cells={"cell:1:1": "12O", "cell:1:2": "7C", "cell:2:1": "3E"}, stock=["7B"])
    assert pairs(s) == []
    refused(s, {"type": "pair", "cards": ["7C", "3E"]}, "do not pair", "summing 9")
    refused(s, {"type": "pair", "cards": ["7C", "2B"]}, "2B is not on the table")
    refused(s, {"type": "pair", "cards": ["7C", "7C"]}, "two different cards")


def test_the_card_revealed_is_placed_before_it_may_pair():
    s = deal(cells={"cell:1:1": "1C"}, stock=["7C", "8O"])
    apply(s, 0, REVEAL)
    assert pairs(s) == []
    refused(s, {"type": "pair", "cards": ["8O", "1C"]}, "place 8O first")
    apply(s, 0, {"type": "place", "to": "cell:2:2"})
    assert pairs(s) == [["1C", "8O"]]


# -- the 9 -----------------------------------------------------------------------------------
def test_a_9_is_discarded_and_grants_one_optional_move_of_a_table_card():
    s = deal(cells={"cell:1:5": "4C"}, stock=["7C", "9O"])
    events = apply(s, 0, REVEAL)
    assert events[-1] == {"type": "discarded", "seat": 0, "card": "9O", "move_granted": True}
    assert s.cards("discard")[-1] == "9O" and s.phase == "move"
    assert DECLINE in legal_actions(s, 0) and REVEAL not in legal_actions(s, 0)
    events = apply(s, 0, {"type": "move", "card": "4C", "to": "cell:3:1"})
    assert events[0] == {
        "type": "moved", "seat": 0, "card": "4C", "from": "cell:1:5", "to": "cell:3:1",
    }  # fmt: skip
    assert s.cards("cell:3:1") == ["4C"] and s.phase == "play"


def test_the_move_a_9_grants_may_be_declined():
    s = deal(cells={"cell:1:5": "4C"}, stock=["7C", "9O"])
    apply(s, 0, REVEAL)
    apply(s, 0, DECLINE)
    assert s.phase == "play" and s.cards("cell:1:5") == ["4C"]


def test_the_move_keeps_a_figure_in_its_row():
    s = deal(cells={"cell:1:5": "12C"}, stock=["7C", "9O"])
    apply(s, 0, REVEAL)
    refused(s, {"type": "move", "card": "12C", "to": "cell:2:1"}, "Rey goes only in the top row")
    apply(s, 0, {"type": "move", "card": "12C", "to": "cell:1:2"})
    assert s.cards("cell:1:2") == ["12C"]


def test_pairs_may_still_be_removed_while_the_move_is_pending():
    s = deal(cells={"cell:1:5": "4C", "cell:2:5": "5C", "cell:3:5": "2O"}, stock=["7C", "9O"])
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "pair", "cards": ["4C", "5C"]})
    assert s.phase == "move"
    apply(s, 0, {"type": "move", "card": "2O", "to": "cell:1:5"})
    assert s.phase == "play"


def test_a_9_is_never_placed_and_with_the_grid_full_grants_nothing():
    s = deal(cells=full_grid(), stock=["7C", "9E"])
    events = apply(s, 0, REVEAL)
    assert events[-1]["move_granted"] is False and s.phase == "play"
    assert legal_actions(s, 0) == [REVEAL]  # the grid is still full: another last chance


def test_the_siete_parejas_deck_has_no_9():
    s, _ = new_match(GAME, "siete-parejas", seed="deal")
    assert len(s.cards("stock")) == 40 and not {c for c in s.cards("stock") if c[0] in "89"}


# -- the last chance ----------------------------------------------------------------------------
def test_with_the_grid_full_the_card_revealed_pairs_with_a_table_card():
    s = deal(cells=full_grid(), stock=["7C", "6B"])
    assert legal_actions(s, 0) == [REVEAL]
    apply(s, 0, REVEAL)
    assert view(s, 0)["last_chance"] is True and places(s) == []
    assert legal_actions(s, 0) == [{"type": "pair", "cards": ["6B", "3O"]}]
    refused(s, {"type": "pair", "cards": ["1O", "2O"]}, "6B (the card revealed) must be one")
    apply(s, 0, {"type": "pair", "cards": ["3O", "6B"]})
    assert not s.cards("cell:3:5") and s.phase == "play" and not s.finished


def test_a_failed_last_chance_loses():
    s = deal(cells=full_grid(), stock=["7C", "4B"])
    events = apply(s, 0, REVEAL)
    assert s.finished and s.result == {"winners": [], "scores": [12], "rounds": [[12]]}
    assert events[-1]["type"] == "match_finished" and events[-1]["won"] is False
    assert "grid is full" in events[-1]["reason"] and events[-1]["perfect"] is False


def test_a_figure_without_an_empty_cell_in_its_row_loses():
    cells = {**{c: f"{i}O" for i, c in zip((1, 2, 3, 4, 5), ROW[1], strict=True)}}
    s = deal(cells=cells, stock=["7C", "12E"])
    events = apply(s, 0, REVEAL)
    assert s.finished and s.result["winners"] == [] and s.result["scores"] == [0]
    assert "Rey revealed has no empty cell in the top row" in events[-1]["reason"]
    assert view(s, 0)["won"] is False


def test_the_stock_used_up_with_numbers_left_and_no_pair_loses():
    s = deal(cells={"cell:1:1": "1O", "cell:1:2": "2O"}, stock=["4C"])
    apply(s, 0, REVEAL)
    events = apply(s, 0, {"type": "place", "to": "cell:2:2"})
    assert s.finished and s.result["winners"] == [] and legal_actions(s, 0) == []
    assert events[-1]["reason"] == "the stock is used up and no pair is left on the table"


# -- the end --------------------------------------------------------------------------------------
def test_the_game_is_won_when_exactly_the_12_figures_are_left():
    cells = {**PERFECT, "cell:1:1": "8O", "cell:1:5": "12O"}  # the rey de oros in column 5
    s = deal(cells=cells, stock=["7C", "1E"])
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "place", "to": "cell:2:5"})
    events = apply(s, 0, {"type": "pair", "cards": ["8O", "1E"]})
    assert s.finished and s.result == {"winners": [0], "scores": [12], "rounds": [[12]]}
    assert events[-1]["won"] is True and events[-1]["perfect"] is False
    assert len(s.cards("stock")) == 1  # numbers left in the stock are not needed


def test_juego_perfecto_when_each_suit_figures_share_a_column():
    # the text: rey, caballo y sota de bastos in the same column (and so for every suit)
    cells = {**PERFECT, "cell:2:5": "8O", "cell:3:5": "1B"}
    s = deal(cells=cells, stock=["7C"])
    events = apply(s, 0, {"type": "pair", "cards": ["8O", "1B"]})
    assert s.finished and events[-1]["won"] is True and events[-1]["perfect"] is True
    assert view(s, 0)["perfect"] is True and s.result["winners"] == [0]
    assert set(s.result) == {"winners", "scores", "rounds"}


def test_with_clear_stock_the_figures_alone_do_not_win_while_cards_are_left():
    cells = {**PERFECT, "cell:2:5": "8O", "cell:3:5": "1B"}
    s = deal(cells=cells, stock=["4O", "5O"], options={"clear_stock": True})
    apply(s, 0, {"type": "pair", "cards": ["8O", "1B"]})
    assert not s.finished
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "place", "to": "cell:1:5"})
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "place", "to": "cell:2:5"})
    apply(s, 0, {"type": "pair", "cards": ["4O", "5O"]})
    assert s.finished and s.result["winners"] == [0]


# -- siete parejas ---------------------------------------------------------------------------------
def test_siete_parejas_pairs_two_cards_of_the_same_number():
    cells = {"cell:1:1": "4O", "cell:1:2": "4B", "cell:1:3": "5C", "cell:1:4": "12O",
             "cell:2:1": "12C"}  # fmt: skip
    s = deal("siete-parejas", cells=cells, stock=["7C"])
    assert pairs(s) == [["4B", "4O"]]  # two reyes are figures, not a pair
    refused(s, {"type": "pair", "cards": ["4O", "5C"]}, "same number")


def test_pairs_summing_9_need_the_48_card_deck():
    with pytest.raises(BadSetup, match="48-card deck"):
        new_match(GAME, "siete-parejas", options={"pairing": "sum-9"})


# -- bad input -------------------------------------------------------------------------------------
def test_bad_actions_are_refused_with_a_reason_and_change_nothing():
    s = deal(cells={"cell:1:1": "4O"}, stock=["7C", "5O"])
    refused(s, {"type": "place", "to": "cell:1:2"}, "not possible in phase 'play'")
    refused(s, {"type": "move", "card": "4O", "to": "cell:1:2"}, "not possible in phase")
    refused(s, DECLINE, "not possible in phase")
    refused(s, {"type": "pair", "cards": ["4O"]}, "two different cards")
    apply(s, 0, REVEAL)
    refused(s, REVEAL, "not possible in phase 'place'", "possible now: place, pair")
    refused(s, {"type": "place", "to": "cell:9:9"}, "to must be one of")


def test_the_move_a_9_grants_needs_a_table_card_and_an_empty_cell():
    s = deal(cells={"cell:1:5": "4C", "cell:1:4": "5B"}, stock=["7C", "9O"])
    apply(s, 0, REVEAL)
    refused(s, {"type": "move", "card": "4O", "to": "cell:2:1"}, "4O is not on the table")
    refused(s, {"type": "move", "card": "4C", "to": "cell:1:4"}, "cell:1:4 is taken by 5B")
    s = deal(stock=["7C", "9O"])  # an empty table: nothing to move, nothing granted
    events = apply(s, 0, REVEAL)
    assert events[-1]["move_granted"] is False and s.phase == "play"
