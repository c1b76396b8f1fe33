"""Veneno: drawing, piles by suit, copas anywhere, taking at 13, negative copas, the variants."""

from __future__ import annotations

import json

import pytest

from shared.engine import (
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
from shared.engine.language import Reader
from shared.games.veneno import card_value, round_points
from tests.rigging import rig


def match(variant: str = "base", players: int = 2, seed: str = "veneno", **options) -> State:
    state, _ = new_match("veneno", variant, players, seed=seed, options=options or None)
    return state


def table(
    state: State,
    hands: dict[int, list[str]],
    piles: dict[int, list[str]] | None = None,
    stock: list[str] | None = None,
    taken: dict[int, list[str]] | None = None,
    to_act: int = 0,
) -> State:
    """Rig hands, piles, taken cards and the stock (drawn from the end); the rest is discarded."""
    layout = {f"hand:{s}": cards for s, cards in hands.items()}
    layout.update({f"pile:{i}": cards for i, cards in (piles or {}).items()})
    layout.update({f"taken:{s}": cards for s, cards in (taken or {}).items()})
    layout["stock"] = stock or []
    rig(state, layout, spill="discard")
    state.to_act = [to_act]
    check_state(state)
    return state


def play(state: State, seat: int, card: str, pile: int) -> list[dict]:
    return apply(state, seat, {"type": "play", "card": card, "pile": pile})


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def piles_for(state: State, card: str) -> list[int]:
    seat = state.to_act[0]
    return [a["pile"] for a in legal_actions(state, seat) if a["card"] == card]


# -- values and the deal -----------------------------------------------------------------------
def test_numbers_are_worth_their_face_and_figures_four():
    assert [card_value(c, 4) for c in ("1O", "7C", "8E", "9B", "10O", "11C", "12E")] == [
        1, 7, 8, 9, 4, 4, 4,
    ]  # fmt: skip


def test_each_player_gets_three_cards_and_the_first_player_draws_a_fourth():
    state, events = new_match("veneno", "base", 3, seed="deal")
    first = state.to_act[0]
    dealer = view(state, None)["dealer"]
    assert first == (dealer + 1) % 3
    sizes = [len(state.cards(f"hand:{s}")) for s in range(3)]
    assert sizes[first] == 4 and sorted(sizes) == [3, 3, 4]
    assert len(state.cards("stock")) == 48 - 10
    drew = of_type(events, "drew")
    assert len(drew) == 1 and drew[0]["seat"] == first and drew[0]["visible_to"] == [first]
    assert redact(drew[0], (first + 1) % 3)["card"] is None
    assert all(state.cards(f"pile:{i}") == [] for i in range(3))


def test_every_turn_starts_by_drawing_the_top_card_of_the_stock():
    state = table(match(), {0: ["2O", "3O", "4O", "5O"], 1: ["2E", "3E", "4E"]}, stock=["1B", "9C"])
    events = play(state, 0, "2O", 0)
    assert of_type(events, "drew") == [{"type": "drew", "seat": 1, "card": "9C", "visible_to": [1]}]
    assert state.to_act == [1] and "9C" in state.cards("hand:1")
    assert len(state.cards("hand:1")) == 4 and state.cards("stock") == ["1B"]


# -- where a card may go -------------------------------------------------------------------------
def test_a_card_of_a_suit_already_on_a_pile_must_go_on_that_pile():
    state = table(match(), {0: ["2O", "3E", "4B", "5C"], 1: ["2E"]}, piles={1: ["6O"]})
    assert piles_for(state, "2O") == [1]
    before = snapshot(state)
    with pytest.raises(
        IllegalAction, match="The 2 of coins must go on the second pile, which already holds coins"
    ) as info:
        play(state, 0, "2O", 0)
    assert info.value.text(Reader("es")) == (
        "El 2 de oros debe ir en el segundo montón, que ya tiene oros"
    )
    assert snapshot(state) == before


def test_a_card_of_a_suit_on_no_pile_starts_an_empty_pile():
    state = table(match(), {0: ["2O", "3E", "4B", "5C"], 1: ["2E"]}, piles={1: ["6O"]})
    assert piles_for(state, "3E") == [0, 2]
    with pytest.raises(
        IllegalAction,
        match="no pile holds swords: the 3 of swords starts an empty pile "
        "\\(empty: the first pile and the third pile\\)",
    ):
        play(state, 0, "3E", 1)


def test_a_copa_may_go_on_any_pile():
    state = table(match(), {0: ["5C", "3E"], 1: ["2E"]}, piles={0: ["6O"], 1: ["1B"]})
    assert piles_for(state, "5C") == [0, 1, 2]
    events = play(state, 0, "5C", 0)
    assert events[0] == {"type": "played", "seat": 0, "card": "5C", "pile": 0, "total": 11}


def test_while_a_pile_is_empty_a_pile_of_copas_only_takes_no_new_suit():
    state = table(match(), {0: ["3E", "1C"], 1: ["2E"]}, piles={0: ["6O"], 1: ["2C"]})
    assert piles_for(state, "3E") == [2]


def test_with_no_empty_pile_a_pile_of_copas_only_takes_the_first_card_of_a_new_suit():
    """The deadlock the text misses: espadas on no pile, no empty pile (one holds only copas)."""
    state = table(match(), {0: ["3E", "1C"], 1: ["2E"]}, piles={0: ["6O"], 1: ["2C"], 2: ["4B"]})
    assert piles_for(state, "3E") == [1]
    with pytest.raises(
        IllegalAction, match="none is empty: the 3 of swords goes on a pile of cups only"
    ):
        play(state, 0, "3E", 0)
    play(state, 0, "3E", 1)
    assert state.cards("pile:1") == ["2C", "3E"]
    assert view(state, 1)["pile_suits"] == [["O"], ["E"], ["B"]]


def test_a_pile_of_copas_only_may_always_take_a_new_suit_by_option():
    state = table(
        match(copas_pile="always"), {0: ["3E", "1C"], 1: ["2E"]}, piles={0: ["6O"], 1: ["2C"]}
    )
    assert piles_for(state, "3E") == [1, 2]


# -- taking a pile -----------------------------------------------------------------------------
def test_taking_the_pile_at_thirteen_includes_the_card_played():
    state = table(match(), {0: ["4E", "1O"], 1: ["2B"]}, piles={0: ["5E", "4C"]})
    events = play(state, 0, "4E", 0)
    assert of_type(events, "took") == [
        {"type": "took", "seat": 0, "pile": 0, "cards": ["5E", "4C", "4E"], "total": 13, "copas": 1}
    ]
    assert state.cards("taken:0") == ["5E", "4C", "4E"] and state.cards("pile:0") == []
    assert view(state, 1)["copas_taken"] == [1, 0]
    assert view(state, 1)["last_take"] == {"seat": 0, "cards": ["5E", "4C", "4E"], "total": 13}


def test_a_pile_under_thirteen_stays_on_the_table():
    state = table(match(), {0: ["3E", "1O"], 1: ["2B"]}, piles={0: ["5E", "4C"]})
    events = play(state, 0, "3E", 0)
    assert not of_type(events, "took") and events[0]["total"] == 12
    assert state.cards("pile:0") == ["5E", "4C", "3E"] and state.cards("taken:0") == []


def test_figures_add_four_to_a_pile():
    state = table(match(), {0: ["12E", "1O"], 1: ["2B"]}, piles={0: ["9E"]})
    events = play(state, 0, "12E", 0)
    assert of_type(events, "took")[0]["total"] == 13


# -- the end of a round and of the match --------------------------------------------------------
def test_the_round_ends_when_the_stock_and_every_hand_are_empty():
    state = table(
        match(players=3),
        {0: ["1O"], 1: [], 2: []},
        piles={1: ["3C", "2E"]},
        taken={0: ["1C", "2C", "5E"], 1: ["4C", "9O"], 2: ["6B"]},
    )
    dealer = state.data.dealer
    events = play(state, 0, "1O", 0)
    scored = of_type(events, "round_scored")[0]
    assert scored["points"] == [-2, -1, 0] and scored["copas"] == [2, 1, 0]
    assert state.rounds == [[-2, -1, 0]] and state.scores == [-2, -1, 0]
    assert not state.finished and state.round == 2
    assert state.data.dealer == (dealer + 1) % 3  # the deal passes to the left
    assert all(state.cards(f"pile:{i}") == [] for i in range(3))  # leftovers are gone
    assert sum(len(state.cards(f"hand:{s}")) for s in range(3)) == 10
    check_state(state)


def test_players_without_cards_are_skipped_once_the_stock_is_empty():
    state = table(match(players=3), {0: ["1O"], 1: [], 2: ["2O"]})
    play(state, 0, "1O", 0)
    assert state.to_act == [2]


def test_the_match_ends_when_a_player_reaches_twenty_negative_points():
    state = table(
        match(players=3),
        {0: ["1O"], 1: [], 2: []},
        taken={1: ["4C", "5C"], 2: ["6C"]},
    )
    state.scores, state.rounds = [-5, -18, -3], [[-5, -18, -3]]
    events = play(state, 0, "1O", 0)
    assert state.finished and state.scores == [-5, -20, -4]
    assert state.result is not None and state.result["winners"] == [2]  # the fewest negatives
    assert of_type(events, "match_finished")


def test_a_tie_for_the_fewest_negatives_is_a_shared_win():
    state = table(match(), {0: ["1O"], 1: []}, taken={0: ["4C"], 1: ["5C", "6C"]})
    state.scores = [-1, -19]
    play(state, 0, "1O", 0)
    assert state.scores == [-2, -21]
    assert state.result is not None and state.result["winners"] == [0]
    state = table(match(), {0: ["1O"], 1: []}, taken={0: ["4C"], 1: ["5C"]})
    state.scores = [-19, -19]
    play(state, 0, "1O", 0)
    assert state.result is not None and state.result["winners"] == [0, 1]


def test_a_random_match_ends_with_someone_at_twenty_negatives():
    state = match(players=4, seed="whole")
    while not state.finished:
        seat = state.to_act[0]
        apply(state, seat, legal_actions(state, seat)[0])
    assert min(state.scores) <= -20
    assert state.result is not None and state.result["winners"] == [
        s for s in range(4) if state.scores[s] == max(state.scores)
    ]


# -- variants ----------------------------------------------------------------------------------
def test_mazo_reducido_has_40_cards_figures_worth_2_and_takes_at_12():
    state = match("mazo-reducido")
    everything = state.all_cards()
    assert len(everything) == 40 and not any(c[:-1] in ("8", "9") for c in everything)
    assert view(state, None)["threshold"] == 12
    table(state, {0: ["12E", "1O"], 1: ["2B"]}, piles={0: ["7E", "3E"]})
    events = play(state, 0, "12E", 0)  # 7 + 3 + 2 = 12
    assert of_type(events, "took")[0]["total"] == 12
    table(state, {0: ["11E", "1O"], 1: ["2B"]}, piles={1: ["7E", "2E"]})
    events = play(state, 0, "11E", 1)  # 7 + 2 + 2 = 11
    assert not of_type(events, "took")


def test_copas_sin_veneno_the_texts_example_four_sevens_score_plus_two():
    """All four 7s: the 7 de copas takes nothing away and adds 2 points."""
    assert round_points(["7O", "7C", "7E", "7B"], "that-copa") == (2, [7])
    assert round_points(["7O", "7C", "7E", "7B", "3C"], "that-copa") == (1, [7])
    assert round_points(["7O", "7C", "7E", "7B", "3C"], "off") == (-2, [])
    assert round_points(["7O", "7C", "7E", "7B", "3C"], "all-copas") == (2, [7])
    assert round_points(["7O", "7C", "7E", "3C"], "that-copa") == (-2, [])
    state = table(
        match("copas-sin-veneno"),
        {0: ["1O"], 1: []},
        taken={0: ["7O", "7C", "7E", "7B", "3C"], 1: ["4C"]},
    )
    events = play(state, 0, "1O", 0)
    scored = of_type(events, "round_scored")[0]
    assert scored["points"] == [1, -1] and scored["full_numbers"] == [[7], []]


def test_without_copas_sin_veneno_four_of_a_number_change_nothing():
    state = table(match(), {0: ["1O"], 1: []}, taken={0: ["7O", "7C", "7E", "7B"], 1: []})
    events = play(state, 0, "1O", 0)
    assert of_type(events, "round_scored")[0]["points"] == [-1, 0]


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "play", "card": "9B", "pile": 0}, "card 9B is not in your hand"),
        ({"type": "play", "card": "5C", "pile": 3}, r"pile must be one of \[0, 1, 2\]"),
        ({"type": "play", "card": "5C"}, "play needs the field 'pile'"),
        ({"type": "play", "card": "5C", "pile": "0"}, "pile must be an integer"),
        ({"type": "draw"}, "unknown action type 'draw'"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(action, message):
    state = table(match(), {0: ["5C", "3E"], 1: ["2E"]}, stock=["1B"])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        apply(state, 0, action)
    assert snapshot(state) == before


def test_a_seat_out_of_turn_is_refused():
    state = table(match(), {0: ["5C", "3E"], 1: ["2E"]}, stock=["1B"])
    with pytest.raises(NotYourTurn):
        play(state, 1, "2E", 0)
