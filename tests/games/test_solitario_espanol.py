"""Solitario Español: turning cards, the free chain, row suits, tokens, the end, the variants."""

from __future__ import annotations

import json
import random

import pytest

from shared.engine import (
    HIDDEN,
    PUBLIC,
    BadSetup,
    IllegalAction,
    InvalidState,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    view,
)
from shared.engine.game import get_game
from tests.rigging import rig

GAME = get_game("solitario-espanol")


def new(variant: str = "base", **options) -> State:
    state, _ = new_match("solitario-espanol", variant, 1, seed="solitario", options=options)
    return state


def lay(state: State, cells: dict[tuple[int, int], str], hand: list[str] | None = None) -> State:
    """Put named cards in named cells (face down) and, if given, the hand; the rest moves over."""
    layout = {f"cell:{r}:{c}": [card] for (r, c), card in cells.items()}
    if hand is not None:
        layout["hand:0"] = list(hand)
    rig(state, layout, spill="hand:0")
    check_state(state)
    return state


def solved_grid(state: State, columns: int, ranks: list[int]) -> dict[tuple[int, int], str]:
    suits = "OCEB"
    return {
        (r, c): f"{ranks[c - 1]}{suits[r - 1]}" for r in range(1, 5) for c in range(1, columns + 1)
    }


def show(state: State, cells: list[tuple[int, int]]) -> None:
    for r, c in cells:
        state.zones[f"cell:{r}:{c}"].visibility = PUBLIC


def flip(state: State, r: int, c: int) -> list[dict]:
    return apply(state, 0, {"type": "flip", "row": r, "column": c})


def place(state: State, card: str, r: int) -> list[dict]:
    return apply(state, 0, {"type": "place", "card": card, "row": r})


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


# -- the layout ------------------------------------------------------------------------------
def test_the_deck_lies_face_down_in_four_rows_of_twelve_and_the_player_has_six_tokens():
    state = new()
    cells = [z for z in state.zones if z.startswith("cell:")]
    assert len(cells) == 48 and all(state.zones[z].visibility == HIDDEN for z in cells)
    assert view(state, 0)["zones"]["cell:1:1"]["cards"] == [None]
    assert view(state, 0)["tokens"] == 6 and view(state, 0)["rows"] == [None] * 4
    assert len(legal_actions(state, 0)) == 48


# -- the text's examples -----------------------------------------------------------------------
def test_a_two_turned_in_column_two_stays_where_it_is():
    state = lay(new(), {(1, 2): "2O"})
    events = flip(state, 1, 2)
    assert [e["type"] for e in events] == ["flipped", "stays"]
    assert state.zones["cell:1:2"].visibility == PUBLIC and state.data.tokens == 5
    assert state.data.rows == ["O", None, None, None]


def test_a_two_turned_in_column_three_is_carried_to_column_two():
    state = lay(new(), {(1, 3): "2O", (1, 2): "3O"})
    events = flip(state, 1, 3)
    assert state.phase == "place"  # oros have no row yet: the player picks one
    assert sorted(a["row"] for a in legal_actions(state, 0)) == [1, 2, 3, 4]
    events = place(state, "2O", 1)
    assert events[0] == {"type": "placed", "card": "2O", "row": 1, "column": 2, "took": "3O"}
    assert events[1] == {"type": "placed", "card": "3O", "row": 1, "column": 3, "chain_over": True}
    assert state.cards("cell:1:2") == ["2O"] and state.cards("cell:1:3") == ["3O"]
    assert state.phase == "flip"


# -- the chain and the rows ----------------------------------------------------------------------
def test_the_chain_after_a_paid_flip_is_free():
    state = lay(new(), {(1, 1): "1O", (2, 5): "2O", (1, 2): "5C", (2, 2): "4E"})
    flip(state, 1, 1)
    flip(state, 2, 5)  # the 2 of oros goes to row 1 by itself, taking the 5 of copas up
    assert state.data.tokens == 4 and state.phase == "place"
    place(state, "5C", 2)  # row 2, column 5 is where the chain began: it ends there
    assert state.data.tokens == 4 and state.phase == "flip"


def test_a_row_takes_the_suit_of_its_first_face_up_card():
    state = lay(new(), {(3, 7): "7E"})
    flip(state, 3, 7)
    assert view(state, 0)["rows"] == [None, None, "E", None]


def test_a_card_whose_suit_has_a_row_goes_there_without_asking():
    state = lay(new(), {(1, 1): "1O", (2, 5): "2O", (1, 2): "5C"})
    flip(state, 1, 1)
    events = flip(state, 2, 5)
    assert events[1] == {"type": "placed", "card": "2O", "row": 1, "column": 2, "took": "5C"}


def test_a_suit_without_a_row_may_go_in_any_row_with_no_face_up_card():
    state = lay(new(), {(1, 1): "1O", (2, 5): "2O", (1, 2): "5C"})
    flip(state, 1, 1)
    flip(state, 2, 5)
    assert sorted(a["row"] for a in legal_actions(state, 0)) == [2, 3, 4]


def test_no_card_goes_in_a_row_of_another_suit():
    state = lay(new(), {(1, 1): "1O", (2, 5): "2O", (1, 2): "5C"})
    flip(state, 1, 1)
    flip(state, 2, 5)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="row 1 belongs to another suit"):
        place(state, "5C", 1)
    assert snapshot(state) == before


def test_a_card_in_its_column_but_in_the_row_of_another_suit_is_carried():
    state = lay(new(), {(1, 1): "1O", (1, 4): "4C"})
    flip(state, 1, 1)
    events = flip(state, 1, 4)
    assert [e["type"] for e in events] == ["flipped"] and state.phase == "place"
    assert state.cards("hand:0") == ["4C"]


def test_a_card_in_its_column_in_a_free_row_stays_while_its_suit_has_no_row():
    state = lay(new(), {(1, 1): "1O", (2, 4): "4C"})
    flip(state, 1, 1)
    events = flip(state, 2, 4)
    assert events[-1]["type"] == "stays" and state.data.rows == ["O", "C", None, None]


def test_a_card_in_its_column_stays_out_of_a_free_row_when_its_suit_has_one():
    state = lay(new(), {(1, 1): "1O", (2, 4): "4O", (1, 4): "9B"})
    flip(state, 1, 1)
    events = flip(state, 2, 4)
    assert events[1]["row"] == 1 and events[1]["took"] == "9B"


# -- rows and suits always match up ------------------------------------------------------------
def test_rows_and_suits_always_match_up_in_random_games():
    for variant in GAME.variants:
        for i in range(15):
            state, _ = new_match("solitario-espanol", variant, 1, seed=f"rows{i}")
            rng = random.Random(i)
            while not state.finished:
                apply(state, 0, rng.choice(legal_actions(state, 0)))
                if not state.finished:  # at the end, cards turned up may lie anywhere
                    GAME.check_rows(state)
                rows = [s for s in state.data.rows if s]
                assert len(rows) == len(set(rows))


def test_a_broken_match_of_rows_and_suits_is_refused_as_an_invalid_state():
    state = lay(new(), {(1, 1): "1B", (2, 2): "2O"})
    state.data.rows = ["O", "O", "C", "E"]  # forged: bastos have no row and none is free
    with pytest.raises(InvalidState, match="rows and suits no longer match up"):
        flip(state, 1, 1)
    state = new()
    state.data.rows = ["O", "O", None, None]
    with pytest.raises(InvalidState, match="a suit has two rows"):
        GAME.check_rows(state)


# -- the end ----------------------------------------------------------------------------------
def test_the_game_is_lost_with_cards_face_down_and_no_token_left():
    state = lay(new(tokens=1), {(1, 2): "2O"})
    events = flip(state, 1, 2)
    assert events[-1]["type"] == "match_finished" and events[-1]["reason"] == "no tokens left"
    assert state.result["winners"] == [] and state.result["scores"] == [1]
    assert legal_actions(state, 0) == []


def test_the_game_is_won_when_every_card_is_in_its_place():
    state = new()
    grid = solved_grid(state, 12, list(range(1, 13)))
    grid[(1, 1)], grid[(1, 2)] = "2O", "1O"
    lay(state, grid)
    show(state, [cell for cell in grid if cell not in ((1, 1), (1, 2))])
    state.data.rows = ["O", "C", "E", "B"]
    events = flip(state, 1, 1)
    assert events[-1]["won"] is True and state.result["winners"] == [0]
    assert state.result["scores"] == [48]


# -- variants -----------------------------------------------------------------------------------
def test_mazo_reducido_lays_forty_cards_in_four_rows_of_ten_with_the_sota_in_column_eight():
    state = new("mazo-reducido")
    assert len([z for z in state.zones if z.startswith("cell:")]) == 40
    lay(state, {(1, 8): "10C"})
    assert flip(state, 1, 8)[-1]["type"] == "stays"
    with pytest.raises(IllegalAction, match="columns 1 to 10"):
        flip(state, 1, 11)


def test_reyes_perdidos_has_no_rey_column_four_starters_and_no_tokens():
    state = new("reyes-perdidos")
    assert len([z for z in state.zones if z.startswith("cell:")]) == 44
    assert len(state.cards("starters")) == 4 and state.data.tokens == 0
    assert legal_actions(state, 0) == [{"type": "reveal"}]


def test_reyes_perdidos_a_rey_goes_to_the_rey_column_and_ends_the_chain():
    state = new("reyes-perdidos")
    rig(state, {"starters": ["12O", "12C", "12E", "3O"], "cell:1:3": ["12B"]}, spill="hand:0")
    state.data.rows = ["O", None, None, None]
    events = apply(state, 0, {"type": "reveal"})
    assert events[0] == {"type": "revealed", "card": "3O"}
    assert events[2] == {"type": "rey_out", "card": "12B", "reyes": 1}
    assert state.phase == "reveal"


def test_reyes_perdidos_the_fourth_rey_before_the_grid_is_done_loses():
    state = new("reyes-perdidos")
    rig(state, {"starters": ["5O", "12C"], "kings": ["12O", "12E", "12B"]}, spill="hand:0")
    rig(state, {"hand:0": []}, spill="starters")
    state.cards("starters").sort(key=lambda c: c == "12C")  # the Rey de copas on top
    check_state(state)
    events = apply(state, 0, {"type": "reveal"})
    assert events[-1]["type"] == "match_finished" and not events[-1]["won"]
    assert "turned_up" in [e["type"] for e in events]  # the rest is shown at the end
    assert state.result["winners"] == []


def test_reyes_perdidos_cards_left_face_down_in_their_places_win_at_the_end():
    state = new("reyes-perdidos")
    grid = solved_grid(state, 11, list(range(1, 12)))
    lay(state, grid)
    rig(state, {"kings": ["12O", "12C", "12E"], "starters": ["12B"]}, spill="hand:0")
    show(state, [(1, c) for c in range(1, 12)])
    state.data.rows = ["O", None, None, None]
    events = apply(state, 0, {"type": "reveal"})
    assert events[-1]["won"] is True and events[-1]["reason"] == (
        "the cards left face down were in place"
    )


def test_intercambio_revelado_shows_four_cards_in_hand_and_the_player_picks_one():
    state = new("intercambio-revelado")
    lay(state, {(2, 5): "8C"}, hand=["5O", "12O", "7C", "1E"])
    seen = view(state, 0)["zones"]["hand:0"]["cards"]
    assert seen == ["5O", "12O", "7C", "1E"]
    cards = {a["card"] for a in legal_actions(state, 0)}
    assert cards == {"5O", "7C", "1E"}  # a Rey has no column
    place(state, "5O", 2)
    assert state.cards("cell:2:5") == ["5O"] and "8C" in state.cards("hand:0")
    assert state.phase == "place"


def test_intercambio_revelado_a_rey_cannot_be_placed():
    state = lay(new("intercambio-revelado"), {}, hand=["5O", "12O", "7C", "1E"])
    with pytest.raises(IllegalAction, match="a Rey has no column"):
        place(state, "12O", 1)


def test_intercambio_revelado_four_reyes_in_hand_lose():
    state = new("intercambio-revelado")
    lay(state, {(1, 5): "12B", (4, 4): "3E"}, hand=["5O", "12O", "12C", "12E"])
    state.data.rows = ["O", None, None, None]
    events = place(state, "5O", 1)
    assert events[-1]["type"] == "match_finished" and events[-1]["won"] is False
    assert events[-1]["reason"] == "the hand holds the four Reyes"


def test_the_lost_kings_modes_need_the_full_deck():
    with pytest.raises(BadSetup, match="48-card deck"):
        new("reyes-perdidos", deck_size=40)


# -- bad input --------------------------------------------------------------------------------
def test_bad_moves_are_refused_with_a_reason_and_change_nothing():
    state = lay(new(), {(1, 2): "2O", (1, 3): "5C"})
    flip(state, 1, 2)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="already face up"):
        flip(state, 1, 2)
    with pytest.raises(IllegalAction, match="place is not possible in phase 'flip'"):
        place(state, "2O", 1)
    with pytest.raises(IllegalAction, match="row must be at most 4"):
        flip(state, 5, 1)
    flip(state, 1, 3)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="card 7B is not in your hand"):
        place(state, "7B", 2)
    assert snapshot(state) == before


def test_a_face_up_card_out_of_its_place_is_refused_wherever_it_lies():
    """The whole-grid check compares every face-up cell with the card in place there at once;
    a card out of place, or any face-up card in a row without suit, is named cell by cell."""
    state = lay(new(), {(1, 1): "1O", (1, 2): "3O", (2, 5): "5C"})
    state.data.rows = ["O", None, None, None]
    show(state, [(1, 1)])
    GAME.check_rows(state)
    show(state, [(1, 2)])
    with pytest.raises(InvalidState, match="3O lies in row 1, column 2"):
        GAME.check_rows(state)
    state = lay(new(), {(2, 5): "5C"})
    show(state, [(2, 5)])
    with pytest.raises(InvalidState, match="5C lies in row 2, column 5"):
        GAME.check_rows(state)
