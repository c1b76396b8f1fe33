"""99: the running total, card effects, busting past 99 and the trío (noventa-y-nueve.txt,
docs/games/noventa-y-nueve.md)."""

from __future__ import annotations

from collections import Counter

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
from shared.games.noventa_y_nueve import first_trio, has_trio, new_total
from tests.rigging import rig


def match(players: int = 2, seed: str = "99", **options) -> State:
    state, _ = new_match("noventa-y-nueve", "base", players, seed=seed, options=options or None)
    return state


def table(total: int, mine: list[str], stock_top: str = "4C", players: int = 2, **options) -> State:
    """Seat 0 to play at ``total`` holding ``mine``; the next card drawn is ``stock_top``."""
    state = match(players, **options)
    theirs = {f"hand:{s}": ["2D", "5S", "8C"] for s in range(1, players)}
    rig(state, {"hand:0": mine, **theirs})
    for name in ("stock", "discard"):  # put a copy of stock_top on top of the stock
        if stock_top in state.cards(name):
            state.cards(name).remove(stock_top)
            break
    state.cards("stock").append(stock_top)
    state.data.total = total
    state.phase, state.to_act = "play", [0]
    return state


def play(state: State, card: str, ten: str | None = None, seat: int = 0) -> list[dict]:
    action = {"type": "play", "card": card}
    if ten:
        action["ten"] = ten
    return apply(state, seat, action)


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# -- the text's worked examples, from a total of 15 ------------------------------------------
@pytest.mark.parametrize(
    ("card", "ten", "after"),
    [
        ("3H", None, 18),  # "si el total acumulado es 15 y lanza un 3 ... queda en 18"
        ("10S", "plus", 25),  # a 10, choosing to add
        ("JD", None, 5),  # a J takes 10
        ("QC", None, 15),  # a Q adds nothing
        ("KH", None, 99),  # a K sets 99
        ("JK", None, 0),  # a joker sets 0
    ],
)
def test_the_texts_examples_from_a_total_of_fifteen(card, ten, after):
    assert new_total(15, card, ten) == after
    state = table(15, [card, "2S", "6H"])
    events = play(state, card, ten)
    assert of_type(events, "played")[0]["total"] == after
    assert state.data.total == after and view(state, 1)["total"] == after


def test_a_ten_may_take_ten_instead():
    assert new_total(15, "10D", "minus") == 5
    state = table(15, ["10D", "2S", "6H"])
    assert {"type": "play", "card": "10D", "ten": "minus"} in legal_actions(state, 0)
    play(state, "10D", "minus")
    assert state.data.total == 5


def test_the_total_never_goes_below_zero():
    assert new_total(5, "JS") == 0  # a J at 5
    assert new_total(5, "10S", "minus") == 0
    assert new_total(0, "JS") == 0


def test_aces_to_nines_add_their_number():
    assert [new_total(0, f"{r}H") for r in ["A", "2", "5", "9"]] == [1, 2, 5, 9]


# -- the deal --------------------------------------------------------------------------------
def test_two_decks_and_four_jokers_three_cards_each_and_a_starter_not_counted():
    state = match(players=4, seed="deal")
    deck = Counter(state.all_cards())
    assert sum(deck.values()) == 108 and deck["JK"] == 4 and deck["7H"] == 2
    assert [len(state.cards(f"hand:{s}")) for s in range(4)] == [3, 3, 3, 3]
    assert len(state.cards("discard")) == 1
    assert state.data.total == 0
    check_state(state)


def test_the_starter_card_may_count_towards_the_total():
    for seed in ("s1", "s2", "s3"):
        state = match(seed=seed, count_starter=True)
        if state.finished:
            continue
        assert state.data.total == new_total(0, state.cards("discard")[0], "plus")


# -- drawing ---------------------------------------------------------------------------------
def test_after_laying_a_card_the_player_draws_the_top_of_the_stock_and_the_turn_passes():
    state = table(10, ["3H", "2S", "6H"], stock_top="9C")
    events = play(state, "3H")
    assert of_type(events, "drew") == [{"type": "drew", "seat": 0, "card": "9C", "visible_to": [0]}]
    assert redact(of_type(events, "drew")[0], 1)["card"] is None
    assert sorted(state.cards("hand:0")) == ["2S", "6H", "9C"]
    assert state.to_act == [1]


def stock_run_out():
    """Every card not in a hand is on the pile and the stock is empty; seat 0 plays a card."""
    state = table(10, ["3H", "2S", "6H"])
    everything = [*state.cards("stock"), *state.cards("discard")]
    state.zones["stock"].cards = []
    state.zones["discard"].cards = everything
    return state, len(everything), play(state, "3H")


def test_an_empty_stock_is_restocked_from_the_pile_under_its_top_card():
    state, count, events = stock_run_out()
    assert of_type(events, "restocked") == [{"type": "restocked", "count": count}]
    assert state.cards("discard") == ["3H"]
    check_state(state)


# -- losing and winning ----------------------------------------------------------------------
def test_a_card_that_takes_the_total_past_99_loses():
    state = table(95, ["5H", "QS", "6H"], players=3)
    events = play(state, "5H")
    assert of_type(events, "bust") == [{"type": "bust", "seat": 0, "total": 100}]
    assert state.finished and state.result is not None and state.result["winners"] == [1, 2]
    assert of_type(events, "match_finished")[0]["loser"] == 0


def test_ninety_nine_itself_is_safe():
    state = table(90, ["9H", "2S", "6H"])
    play(state, "9H")
    assert not state.finished and state.data.total == 99


def test_a_player_must_play_even_when_every_card_goes_past_99():
    state = table(99, ["5H", "2S", "6H"])
    assert len(legal_actions(state, 0)) == 3
    play(state, "2S")
    assert state.finished and state.result is not None and state.result["winners"] == [1]


def test_a_trio_completed_by_the_draw_wins():
    state = table(20, ["3H", "7S", "7D"], stock_top="7C")
    events = play(state, "3H")
    assert of_type(events, "trio") == [{"type": "trio", "seat": 0, "cards": ["7S", "7D", "7C"]}]
    assert state.finished and state.result is not None and state.result["winners"] == [0]


def test_three_jokers_are_a_trio():
    assert has_trio(["JK", "JK", "JK"]) and has_trio(["5H", "5H", "5S"])
    assert not has_trio(["JK", "JK", "5H"]) and not has_trio(["10H", "JH", "QH"])


def test_a_trio_dealt_wins_at_once():
    for n in range(500):
        state = match(players=10, seed=f"dealt{n}")
        if state.finished:
            break
    else:
        pytest.fail("no dealt trío in 500 deals")
    assert state.result is not None and len(state.result["winners"]) == 1
    (winner,) = state.result["winners"]
    assert has_trio(state.cards(f"hand:{winner}")) and state.moves == 0


def test_when_several_trios_are_dealt_the_first_in_turn_order_wins():
    state = match(players=3, seed="trio")
    rig(state, {"hand:0": ["4H", "4S", "4D"], "hand:1": ["8H", "8S", "8D"], "hand:2": ["2C"]})
    assert first_trio(state, [1, 2, 0]) == 1
    assert first_trio(state, [2, 0, 1]) == 0
    assert first_trio(state, [2]) is None


# -- tokens ----------------------------------------------------------------------------------
def test_with_tokens_a_bust_costs_a_token_and_a_new_deal_starts():
    state = table(95, ["5H", "QS", "6H"], players=3, tokens=2)
    state.scores = [2, 2, 2]
    events = play(state, "5H")
    assert not state.finished
    assert of_type(events, "tokens_lost") == [{"type": "tokens_lost", "seats": [0]}]
    assert state.scores == [1, 2, 2] and state.rounds == [[-1, 0, 0]]
    assert state.round == 2 and state.phase == "play"
    assert [len(state.cards(f"hand:{s}")) for s in range(3)] == [3, 3, 3]
    check_state(state)


def last_token_lost():
    """Seat 0 busts with its last token: it is out and the other player wins."""
    state = table(95, ["5H", "QS", "6H"], players=2, tokens=1)
    state.scores = [1, 1]
    return state, play(state, "5H")


EVENT_SCENARIOS = {
    "restocked": lambda: stock_run_out()[2],
    "tokens_lost": lambda: last_token_lost()[1],
    "eliminated": lambda: last_token_lost()[1],
}


def test_with_tokens_a_player_without_tokens_is_out_and_the_last_one_left_wins():
    state, events = last_token_lost()
    assert of_type(events, "eliminated") == [{"type": "eliminated", "seat": 0}]
    assert state.finished and state.result is not None and state.result["winners"] == [1]


def test_with_tokens_a_trio_costs_every_other_player_a_token():
    state = table(20, ["3H", "7S", "7D"], stock_top="7C", players=3, tokens=3)
    state.scores = [3, 3, 3]
    play(state, "3H")
    assert state.rounds == [[0, -1, -1]] and state.scores == [3, 2, 2]


# -- bad input -------------------------------------------------------------------------------
def test_a_ten_must_say_plus_or_minus_and_other_cards_must_not():
    state = table(15, ["10D", "2S", "6H"])
    before = state.to_json()
    with pytest.raises(IllegalAction, match="add the field 'ten'"):
        play(state, "10D")
    with pytest.raises(IllegalAction, match="only a 10 says plus or minus"):
        play(state, "2S", "plus")
    with pytest.raises(IllegalAction, match=r"ten must be one of \['plus', 'minus'\]"):
        apply(state, 0, {"type": "play", "card": "10D", "ten": "double"})
    with pytest.raises(IllegalAction, match="card 9H is not in your hand"):
        play(state, "9H")
    with pytest.raises(NotYourTurn):
        play(state, "2D", seat=1)
    assert state.to_json() == before


def test_play_may_go_counterclockwise():
    state = table(10, ["3H", "2S", "6H"], players=3, direction="counterclockwise")
    play(state, "3H")
    assert state.to_act == [2]
    state = table(10, ["3H", "2S", "6H"], players=3)
    play(state, "3H")
    assert state.to_act == [1]
