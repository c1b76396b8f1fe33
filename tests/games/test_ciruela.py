"""Ciruela: open with number or suit, add the same suit, A changes suit and its cards are all
laid, figures end the turn (ciruela.txt, docs/games/ciruela.md)."""

from __future__ import annotations

import pytest

from shared.engine import (
    BadSetup,
    IllegalAction,
    NotYourTurn,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    redact,
    view,
)
from tests.rigging import rig

END = {"type": "end"}


def match(
    players: int = 2, seed: str = "ciruela", rules_version: int | None = None, **options
) -> State:
    state, _ = new_match(
        "ciruela", "base", players, seed=seed, options=options or None,
        rules_version=rules_version,
    )  # fmt: skip
    return state


def table(
    top: str,
    mine: list[str],
    theirs: list[str] | None = None,
    rules_version: int | None = None,
    **options,
) -> State:
    """Seat 0 to open a turn on ``top`` holding ``mine``."""
    state = match(rules_version=rules_version, **options)
    layout = {"discard": [top], "hand:0": mine}
    if theirs is not None:
        layout["hand:1"] = theirs
    rig(state, layout)
    state.data.suit, state.data.played, state.data.named = top[-1], 0, None
    state.phase, state.to_act = "open", [0]
    return state


def play(state: State, card: str, suit: str | None = None, seat: int = 0) -> list[dict]:
    action = {"type": "play", "card": card}
    if suit:
        action["suit"] = suit
    return apply(state, seat, action)


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# -- the deal ------------------------------------------------------------------------------
def test_eight_cards_each_and_one_card_face_up_on_the_discard_pile():
    state = match(players=6)
    assert [len(state.cards(f"hand:{s}")) for s in range(6)] == [8] * 6
    assert len(state.cards("discard")) == 1 and len(state.cards("stock")) == 52 - 49
    assert view(state, None)["zones"]["discard"]["cards"] == state.cards("discard")
    assert view(state, None)["suit"] == state.cards("discard")[0][-1]
    check_state(state)


def test_one_deck_serves_six_players_at_most():
    with pytest.raises(BadSetup, match="2 to 6 players, not 7"):
        new_match("ciruela", "base", 7)


# -- opening a turn ------------------------------------------------------------------------
def test_a_turn_opens_with_a_card_of_the_same_number_or_the_same_suit():
    state = table("7H", ["7C", "2H", "9S", "10D"])
    plays = {a["card"] for a in legal_actions(state, 0) if a["type"] == "play"}
    assert plays == {"7C", "2H"}
    assert {"type": "draw"} not in legal_actions(state, 0)


def test_a_card_of_another_number_and_suit_cannot_open_the_turn():
    state = table("7H", ["7C", "9S"])
    before = state.to_json()
    with pytest.raises(
        IllegalAction,
        match="The 9 of spades matches neither the number of the top card, the 7 of hearts",
    ):
        play(state, "9S")
    assert state.to_json() == before


def test_without_a_card_to_open_the_player_draws_until_one_can_be_played():
    state = table("7H", ["9S", "10D"])
    rig(state, {"stock": ["3H", "4C", "5D"]}, spill="hand:1")  # 5D on top, then 4C, then 3H
    assert legal_actions(state, 0) == [{"type": "draw"}]
    events = apply(state, 0, {"type": "draw"})
    assert events == [{"type": "drew", "seat": 0, "card": "5D", "visible_to": [0]}]
    assert redact(events[0], 1)["card"] is None
    apply(state, 0, {"type": "draw"})
    apply(state, 0, {"type": "draw"})
    assert state.cards("hand:0")[-1] == "3H" and state.to_act == [0]
    with pytest.raises(IllegalAction, match="you have a card that can be played"):
        apply(state, 0, {"type": "draw"})
    assert legal_actions(state, 0) == [{"type": "play", "card": "3H"}]


def test_drawing_from_an_empty_stock_reshuffles_the_discard_pile_under_its_top():
    state = table("7H", ["9S"])
    stock = list(state.cards("stock"))
    rig(state, {"stock": [], "discard": ["2D", "3C", "7H"]}, spill="hand:1")
    events = apply(state, 0, {"type": "draw"})
    assert of_type(events, "restocked") == [{"type": "restocked", "count": 2}]
    assert state.cards("discard") == ["7H"]
    assert sorted(state.cards("stock") + state.cards("hand:0")[-1:]) == ["2D", "3C"]
    assert stock  # the rigged stock came from a real deal


def nothing_to_draw_or_play() -> tuple[State, list[dict]]:
    """An empty stock, a one-card discard pile, and no card that opens: the player passes."""
    state = table("7H", ["9S"])
    rig(state, {"stock": []}, spill="hand:1")
    assert legal_actions(state, 0) == [{"type": "pass"}]
    return state, apply(state, 0, {"type": "pass"})


#: The events random matches do not meet (a stock and a pile both spent is rare).
EVENT_SCENARIOS = {"passed": lambda: nothing_to_draw_or_play()[1]}


def test_with_nothing_to_draw_and_nothing_to_play_the_player_passes():
    state, events = nothing_to_draw_or_play()
    assert of_type(events, "passed") == [{"type": "passed", "seat": 0}]
    assert state.to_act == [1] and state.phase == "open"


# -- adding cards of the same suit -----------------------------------------------------------
def test_after_the_first_card_cards_of_the_same_suit_may_be_added():
    state = table("7H", ["7C", "2C", "9C", "5D"])
    play(state, "7C")
    assert state.phase == "dump" and state.to_act == [0]
    assert {a["card"] for a in legal_actions(state, 0) if a["type"] == "play"} == {"2C", "9C"}
    play(state, "2C")
    play(state, "9C")
    assert state.cards("hand:0") == ["5D"] and state.to_act == [1]  # nothing left to add
    assert state.cards("discard")[-3:] == ["7C", "2C", "9C"]


def test_only_cards_of_the_same_suit_may_be_added():
    state = table("7H", ["7C", "2C", "5D"])
    play(state, "7C")
    with pytest.raises(IllegalAction, match="you may only add clubs"):
        play(state, "5D")


def test_the_player_may_stop_adding_cards():
    state = table("7H", ["2H", "3H", "5D"])
    play(state, "2H")
    assert {"type": "end"} in legal_actions(state, 0)
    apply(state, 0, {"type": "end"})
    assert state.to_act == [1] and state.cards("hand:0") == ["3H", "5D"]
    assert state.data.suit == "H"


# -- the A changes the suit ---------------------------------------------------------------------
def test_an_ace_names_another_suit_whose_cards_may_be_added():
    state = table("7H", ["AH", "3S", "9S", "4H"])
    events = play(state, "AH", "S")
    assert of_type(events, "played") == [{"type": "played", "seat": 0, "card": "AH", "suit": "S"}]
    assert view(state, 1)["suit"] == "S" and view(state, 1)["named_suit"] == "S"
    assert {a["card"] for a in legal_actions(state, 0) if a["type"] == "play"} == {"3S", "9S"}
    play(state, "3S")
    play(state, "9S")
    assert state.cards("hand:0") == ["4H"]


def test_after_an_ace_every_card_of_the_named_suit_is_laid():
    state = table("7H", ["AH", "3S", "9S", "4H"])
    play(state, "AH", "S")
    assert END not in legal_actions(state, 0) and view(state, 1)["suit_to_empty"] == "S"
    before = state.to_json()
    with pytest.raises(IllegalAction, match="an A named spades: lay all your spades before"):
        apply(state, 0, END)
    assert state.to_json() == before
    play(state, "3S")
    with pytest.raises(IllegalAction, match="lay all your spades"):
        apply(state, 0, END)
    play(state, "9S")  # the last spade: the turn ends by itself
    assert state.to_act == [1] and state.cards("hand:0") == ["4H"]
    assert view(state, 1)["suit_to_empty"] is None


def test_after_an_ace_a_figure_of_the_named_suit_comes_last():
    state = table("7H", ["AH", "KS", "3S", "4H"])
    play(state, "AH", "S")
    assert {a["card"] for a in legal_actions(state, 0)} == {"3S"}
    with pytest.raises(
        IllegalAction, match="lay your other spades first, since the king of spades ends your turn"
    ):
        play(state, "KS")
    play(state, "3S")
    play(state, "KS")
    assert state.to_act == [1] and state.cards("hand:0") == ["4H"]


def test_after_an_ace_another_ace_of_the_named_suit_comes_last_and_names_a_suit_to_empty():
    state = table("7H", ["AH", "AS", "3S", "5C", "4H"])
    play(state, "AH", "S")
    with pytest.raises(IllegalAction, match="since the ace of spades names another suit"):
        play(state, "AS", "C")
    play(state, "3S")
    play(state, "AS", "C")
    with pytest.raises(IllegalAction, match="an A named clubs: lay all your clubs"):
        apply(state, 0, END)
    play(state, "5C")
    assert state.to_act == [1] and state.cards("hand:0") == ["4H"]


def test_after_an_ace_a_second_figure_of_the_named_suit_stays_in_hand():
    state = table("7H", ["AH", "KS", "QS", "4H"])
    play(state, "AH", "S")
    assert {a["card"] for a in legal_actions(state, 0)} == {"KS", "QS"}
    play(state, "QS")  # a figure ends the turn: one figure per turn
    assert state.to_act == [1] and state.cards("hand:0") == ["KS", "4H"]


def test_a_match_of_rules_version_1_still_plays_the_old_way():
    """Version 1: after an A the player could stop adding cards, or lay a figure first."""
    state = table("7H", ["AH", "KS", "3S", "9S", "4H"], rules_version=1)
    assert "ace_discards_all" not in state.options
    play(state, "AH", "S")
    assert END in legal_actions(state, 0)
    play(state, "3S")
    apply(state, 0, END)
    assert state.to_act == [1] and state.cards("hand:0") == ["KS", "9S", "4H"]
    figure_first = table("7H", ["AH", "KS", "3S", "4H"], rules_version=1)
    play(figure_first, "AH", "S")
    play(figure_first, "KS")
    assert figure_first.to_act == [1] and figure_first.cards("hand:0") == ["3S", "4H"]


def test_an_ace_must_name_a_suit_other_than_its_own():
    state = table("7H", ["AH", "3S"])
    with pytest.raises(IllegalAction, match="an A names the suit"):
        play(state, "AH")
    with pytest.raises(IllegalAction, match="another suit than its own"):
        play(state, "AH", "H")
    other = table("3H", ["3S", "4S"])
    with pytest.raises(IllegalAction, match="only an A that changes the suit names one"):
        play(other, "3S", "D")


def test_an_ace_added_to_the_cards_changes_the_suit_again():
    state = table("7H", ["2H", "AH", "5C", "6C"])
    play(state, "2H")
    play(state, "AH", "C")
    play(state, "5C")
    play(state, "6C")
    assert state.finished


def test_without_ace_chains_an_added_ace_is_only_a_card_of_the_suit():
    state = table("7H", ["2H", "AH", "5C"], ace_chains=False)
    play(state, "2H")
    with pytest.raises(IllegalAction, match="only an A that changes the suit names one"):
        play(state, "AH", "C")
    play(state, "AH")
    assert state.data.suit == "H" and state.to_act == [1]


def test_the_suit_an_ace_named_is_the_suit_the_next_player_follows():
    state = table("7H", ["AH", "2D"], theirs=["5S", "9D", "AC"])
    play(state, "AH", "S")  # nothing of spades to add: the turn passes
    assert state.to_act == [1]
    plays = {a["card"] for a in legal_actions(state, 1) if a["type"] == "play"}
    assert plays == {"5S", "AC"}  # spades, or another A (the top's number)


# -- figures ------------------------------------------------------------------------------------
def test_a_figure_ends_the_turn_at_once():
    state = table("7H", ["QH", "2H", "3H"])
    play(state, "QH")
    assert state.to_act == [1] and state.cards("hand:0") == ["2H", "3H"]


def test_a_figure_may_be_the_last_card_added():
    state = table("7H", ["2H", "KH", "3H"])
    play(state, "2H")
    play(state, "KH")
    assert state.to_act == [1] and state.cards("hand:0") == ["3H"]


# -- the end ------------------------------------------------------------------------------------
def test_the_first_player_to_empty_their_hand_wins():
    state = table("7H", ["7C", "KC"])
    play(state, "7C")
    events = play(state, "KC")
    assert state.finished and state.result is not None and state.result["winners"] == [0]
    assert of_type(events, "match_finished")[0]["reason"] == "empty hand"


# -- bad input -------------------------------------------------------------------------------
def test_bad_input_is_refused_and_changes_nothing():
    state = table("7H", ["7C", "2C"])
    before = state.to_json()
    with pytest.raises(IllegalAction, match="card 9D is not in your hand"):
        play(state, "9D")
    with pytest.raises(IllegalAction, match="end is not possible in phase 'open'"):
        apply(state, 0, {"type": "end"})
    with pytest.raises(IllegalAction, match=r"suit must be one of \['S', 'H', 'D', 'C'\]"):
        apply(state, 0, {"type": "play", "card": "7C", "suit": "X"})
    with pytest.raises(NotYourTurn):
        apply(state, 1, {"type": "draw"})
    assert state.to_json() == before


def test_play_may_go_counterclockwise():
    state = table("7H", ["QH", "2C"], direction="counterclockwise")
    play(state, "QH")
    assert state.to_act == [1]
    three, _ = new_match(
        "ciruela", "base", 3, seed="ccw", options={"direction": "counterclockwise"}
    )
    first = three.to_act[0]
    rig(three, {"discard": ["7H"], f"hand:{first}": ["QH", "2C"]})
    three.data.suit = "H"
    apply(three, first, {"type": "play", "card": "QH"})
    assert three.to_act == [(first - 1) % 3]
