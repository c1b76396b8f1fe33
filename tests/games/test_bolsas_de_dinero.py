"""Bolsas de dinero: action points, draw piles, bags and jokers, majority scoring, the end."""

from __future__ import annotations

import json

import pytest

from shared.engine import (
    IllegalAction,
    NotYourTurn,
    State,
    apply,
    check_state,
    get_game,
    legal_actions,
    new_match,
    redact,
    view,
)
from tests.rigging import rig

GAME = get_game("bolsas-de-dinero")


def match(players: int = 3, seed: str = "bolsas", **options) -> State:
    state, _ = new_match("bolsas-de-dinero", "base", players, seed=seed, options=options or None)
    return state


def table(
    hands: list[list[str]],
    bags: dict[int, list[list[str]]] | None = None,
    piles: list[list[str]] | None = None,
    to_act: int = 0,
    **options,
) -> State:
    """Seat ``s`` holds ``hands[s]``; ``bags[s]`` lists its bags' face-up cards (each with a
    face-down 10 as its cover); the draw piles hold ``piles``."""
    state = match(len(hands), **options)
    layout = {f"hand:{s}": cards for s, cards in enumerate(hands)}
    covers = ["10S", "10H", "10D", "10C"] * 2
    for s, seat_bags in (bags or {}).items():
        layout[f"cover:{s}"] = [covers.pop() for _ in seat_bags]
        for k, cards in enumerate(seat_bags):
            state.zone(f"bag:{s}:{k}", s, "public")
            layout[f"bag:{s}:{k}"] = cards
    if piles is not None:
        layout.update({f"draw:{i}": cards for i, cards in enumerate(piles)})
    rig(state, layout)
    state.to_act = [to_act]
    state.data.points, state.data.opened = 3, []
    check_state(state)
    return state


def act(state: State, seat: int, kind: str, **fields) -> list[dict]:
    return apply(state, seat, {"type": kind, **fields})


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


# -- scoring: the text's example ------------------------------------------------------------
def test_the_texts_example_majority_of_aces_and_the_only_bag_of_twos():
    """Aces: A has 2, B none, C 3 -> C +3. Twos: only C, with 4 -> C +5."""
    state = table(
        [[], [], []],
        bags={0: [["AS", "AH"]], 2: [["AD", "AC", "AS"], ["2S", "2H", "2D", "2C"]]},
    )
    points, details = GAME.score(state)
    assert details["numbers"] == {"A": [0, 0, 3], "2": [0, 0, 5]}
    assert points == [0, 0, 8]


def test_the_only_bag_of_a_number_scores_five():
    state = table([[], []], bags={1: [["9S"]]})
    assert GAME.score(state)[0] == [0, 5]


def test_the_unique_largest_bag_scores_three_and_a_tie_scores_nothing():
    state = table([[], [], []], bags={0: [["7S", "7H"]], 1: [["7D", "7C"]], 2: [["KS"]]})
    points, details = GAME.score(state)
    assert details["numbers"]["7"] == [0, 0, 0]
    assert points == [0, 0, 5]
    state = table([[], [], []], bags={0: [["7S", "7H", "7D"]], 1: [["7C", "7S"]], 2: [["7H"]]})
    assert GAME.score(state)[0] == [3, 0, 0]


def test_each_empty_bag_costs_five_and_each_card_in_hand_one():
    state = table([["KS", "QH"], ["3D"]], bags={0: [[], ["5S"]], 1: [[]]})
    points, details = GAME.score(state)
    assert details["empty_bags"] == [1, 1] and details["cards_in_hand"] == [2, 1]
    assert points == [5 - 5 - 2, -5 - 1]


def test_a_joker_counts_as_a_card_of_its_bags_number():
    state = table([[], []], bags={0: [["6S", "JK", "JK"]], 1: [["6H", "6D"]]})
    assert GAME.score(state)[0] == [3, 0]


def test_several_bags_of_one_number_count_together_and_score_per_bag_as_an_option():
    state = table(
        [[], []], bags={0: [["6S", "6H"], ["6D"]], 1: [["6C", "6S"]]}, bags_per_number="many"
    )
    assert GAME.score(state)[0] == [6, 0]  # 3 cards against 2: +3 for each of two bags


# -- the turn: 3 action points --------------------------------------------------------------
def test_three_action_points_in_any_mix_then_the_next_player():
    state = table([["5S", "7H"], ["9D"], ["QC"]], piles=[["2S"], ["3H"], ["JD"]])
    act(state, 0, "draw", pile=1)
    assert state.data.points == 2 and state.to_act == [0]
    act(state, 0, "open", card="5S")
    assert view(state, 2)["points_left"] == 1
    events = act(state, 0, "draw", pile=0)
    assert state.to_act == [1] and state.data.points == 3
    assert of_type(events, "turn") == [{"type": "turn", "seat": 1, "points": 3}]


def test_draw_piles_are_refilled_at_the_start_of_the_next_turn():
    state = table([["5S", "7H"], ["9D"], ["QC"]], piles=[["2S"], ["3H"], ["JD"]])
    act(state, 0, "draw", pile=1)
    assert state.cards("draw:1") == []
    with pytest.raises(IllegalAction, match="that draw pile is empty"):
        act(state, 0, "draw", pile=1)
    act(state, 0, "draw", pile=0)
    stock_before = len(state.cards("stock"))
    events = act(state, 0, "draw", pile=2)
    refills = of_type(events, "pile_refilled")
    assert [e["pile"] for e in refills] == [0, 1, 2]
    assert all(len(state.cards(f"draw:{i}")) == 1 for i in range(3))
    assert len(state.cards("stock")) == stock_before - 3
    assert state.cards("hand:0")[-3:] == ["3H", "2S", "JD"]


# -- bags --------------------------------------------------------------------------------
def test_opening_a_bag_lays_a_card_face_down_seen_only_by_its_owner():
    state = table([["KS", "7H"], ["9D"], ["QC"]])
    events = act(state, 0, "open", card="KS")
    assert state.cards("cover:0") == ["KS"]
    assert view(state, 0)["zones"]["cover:0"]["cards"] == ["KS"]
    for seat in (1, 2, None):
        assert view(state, seat)["zones"]["cover:0"]["cards"] == [None]
        assert redact(events[0], seat)["card"] is None
    assert view(state, 1)["bags"][0] == [{"number": None, "count": 0}]


def test_a_bag_cannot_be_filled_in_the_turn_it_was_opened():
    state = table([["KS", "7H", "7D"], ["9D"], ["QC"]])
    act(state, 0, "open", card="KS")
    assert not [a for a in legal_actions(state, 0) if a["type"] == "fill"]
    with pytest.raises(IllegalAction, match="in the turn it was opened"):
        act(state, 0, "fill", card="7H", bag=0)


def test_the_first_face_up_card_sets_the_bags_number_not_the_face_down_one():
    state = table([["7H", "7D", "KD"], ["9D"], ["QC"]], bags={0: [[]]})
    fills = sorted(a["card"] for a in legal_actions(state, 0) if a["type"] == "fill")
    assert fills == ["7D", "7H", "KD"]  # the face-down 4 does not set the number
    act(state, 0, "fill", card="7H", bag=0)
    assert view(state, 1)["bags"][0] == [{"number": "7", "count": 1}]
    with pytest.raises(IllegalAction, match="bag 0 holds 7s: a K cannot go in it"):
        act(state, 0, "fill", card="KD", bag=0)
    act(state, 0, "fill", card="7D", bag=0)
    assert state.cards("bag:0:0") == ["7H", "7D"]


def test_a_joker_goes_only_into_a_bag_with_a_card():
    state = table([["JK", "5S"], ["9D"], ["QC"]], bags={0: [[], ["8S"]]})
    fills = [a for a in legal_actions(state, 0) if a["type"] == "fill" and a["card"] == "JK"]
    assert fills == [{"type": "fill", "card": "JK", "bag": 1}]
    with pytest.raises(IllegalAction, match="a joker goes only into a bag with a card"):
        act(state, 0, "fill", card="JK", bag=0)
    act(state, 0, "fill", card="JK", bag=1)
    assert view(state, 2)["bags"][0][1] == {"number": "8", "count": 2}


def test_one_bag_per_number():
    state = table([["8H", "5S"], ["9D"], ["QC"]], bags={0: [["8S"], []]})
    with pytest.raises(IllegalAction, match="already have a bag of 8"):
        act(state, 0, "fill", card="8H", bag=1)
    act(state, 0, "fill", card="8H", bag=0)
    state = table([["8H", "5S"], ["9D"], ["QC"]], bags={0: [["8S"], []]}, bags_per_number="many")
    act(state, 0, "fill", card="8H", bag=1)
    assert state.cards("bag:0:1") == ["8H"]


# -- the end -------------------------------------------------------------------------------
def test_a_bag_of_eight_cards_ends_the_game_at_the_end_of_the_turn():
    state = table(
        [["9H", "9D", "KS"], ["QD"], ["QC"]],
        bags={0: [["9S", "9C", "9S", "9H", "9D", "JK"]], 1: [["QS"]]},
    )
    act(state, 0, "fill", card="9H", bag=0)
    events = act(state, 0, "fill", card="9D", bag=0)
    assert not state.finished  # 8 cards, but the turn is not over
    events = act(state, 0, "open", card="KS")
    over = of_type(events, "game_over")[0]
    assert over["reason"] == "full_bag"
    # seat 0: +5 for the only 9s, -5 for the empty bag; seat 1: +3 for Qs (1 vs 0 in seat 2's hand)
    assert over["points"] == [5 - 5, 5 - 1, -1]
    assert state.finished and state.result["winners"] == [1]
    assert of_type(events, "match_finished")[0]["reason"] == "full_bag"


def test_the_game_ends_when_the_stock_cannot_refill_the_draw_piles():
    state = table([["5S", "7H"], ["9D"], ["QC"]])
    state.zones["discard"] = state.zones.pop("stock")  # keep the cards, empty the stock
    state.zone("stock", None, "hidden").cards = state.zones.pop("discard").cards[:1]
    rest = [c for c in GAME.deck(state)]
    for c in state.all_cards():
        rest.remove(c)
    state.cards("hand:2").extend(rest)  # the cards taken out of the stock go to a hand
    check_state(state)
    act(state, 0, "draw", pile=0)
    act(state, 0, "draw", pile=1)
    assert not state.finished
    events = act(state, 0, "open", card="5S")  # two piles empty, one card in the stock
    assert of_type(events, "game_over")[0]["reason"] == "stock_out"
    assert state.finished


def test_three_games_sum_their_points():
    state = match(2, seed="three", games=3)
    games = 0
    while not state.finished:
        seat = state.to_act[0]
        events = apply(state, seat, legal_actions(state, seat)[-1])
        games += len(of_type(events, "game_over"))
        check_state(state)
    assert games == 3 and len(state.rounds) == 3
    assert state.scores == [sum(r[s] for r in state.rounds) for s in range(2)]


def test_the_deal_is_four_cards_each_and_three_face_up_piles():
    state = match(4)
    assert [len(state.cards(f"hand:{s}")) for s in range(4)] == [4, 4, 4, 4]
    assert all(view(state, None)["zones"][f"draw:{i}"]["count"] == 1 for i in range(3))
    assert len(state.cards("stock")) == 108 - 16 - 3
    assert state.to_act == [(state.data.dealer + 1) % 4]


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "open", "card": "KH"}, "KH is not in your hand"),
        ({"type": "fill", "card": "5S", "bag": 3}, "bag 3 does not exist"),
        ({"type": "fill", "card": "5S", "bag": -1}, "bag must be at least 0"),
        ({"type": "draw", "pile": 3}, "pile must be one of"),
        ({"type": "draw"}, "needs the field 'pile'"),
        ({"type": "play", "card": "5S"}, "unknown action type 'play'"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(action, message):
    state = table([["5S", "7H"], ["9D"], ["QC"]], bags={0: [["7S"]]})
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        apply(state, 0, action)
    with pytest.raises(NotYourTurn):
        apply(state, 1, {"type": "draw", "pile": 0})
    assert snapshot(state) == before
