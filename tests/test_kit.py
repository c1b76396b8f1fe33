"""The game kit: strict options, the action table's checks, and the shared rule helpers."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from shared.engine import (
    BadSetup,
    GameData,
    IllegalAction,
    InvalidState,
    Option,
    apply,
    get_game,
    new_match,
)
from shared.engine.data import absent_when_none
from shared.engine.kit.dealing import (
    deal_by_place,
    deal_hands,
    deal_round_robin,
    gather_and_shuffle,
)
from shared.engine.kit.ending import end_match, highest, lowest
from shared.engine.kit.tables import SPANISH_COUNT, value_of
from shared.engine.kit.turns import next_seat, seats_from
from shared.engine.kit.zones import card_actions, hand, not_in_hand
from shared.engine.state import DEALS_BY_NUMBER, HIDDEN, OWNER, State, shuffle


# -- options ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        (Option(3, "", choices=(3, 6)), 3, True),
        (Option(3, "", choices=(3, 6)), 3.0, False),  # equal, but not an integer
        (Option(3, "", choices=(3, 6)), True, False),
        (Option(1, "", choices=(1, 2)), True, False),  # true == 1 in Python, not here
        (Option(False, ""), 0, False),
        (Option(False, ""), True, True),
        (Option(2, "", minimum=0, maximum=5), 2.0, False),
        (Option(2.0, "", minimum=0, maximum=5), 2, True),  # an integer is a number
        (Option(2.0, "", minimum=0, maximum=5), True, False),
        (Option("a", "", choices=("a", "b")), "c", False),
    ],
)
def test_options_are_strict_about_types(option, value, allowed):
    assert (option.check("x", value) is None) is allowed


def test_a_float_for_an_integer_choice_is_a_bad_setup_not_a_crash():
    with pytest.raises(BadSetup, match="hand_size must be one of"):
        new_match("brisca", options={"hand_size": 3.0})


# -- the action table ------------------------------------------------------------------------
def raj():
    state, _ = new_match("raj", players=3, seed="kit")
    return state


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "sing"}, "unknown action type 'sing'; raj has actions bid, reroll, force"),
        ({"type": "reroll", "die": 0}, "reroll is not possible in phase 'bid'"),
        ({"type": "bid"}, "bid needs the field 'card'"),
        ({"type": "bid", "card": "ZZ"}, "card must be a card code"),
        ({"type": "bid", "card": ["AS"]}, "card must be a card code"),
        ({"type": "bid", "card": "AS", "extra": 1}, "bid has no field 'extra'"),
    ],
)
def test_the_core_checks_type_phase_and_fields_from_the_table(action, message):
    state = raj()
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message.replace("(", r"\(")) as refused:
        apply(state, 0, action)
    assert refused.value.legal  # the seat is told what it may do instead
    assert state.to_json() == before


def test_the_catalog_lists_each_action_type_with_its_fields():
    actions = {a["type"]: a for a in get_game("raj").describe()["actions"]}
    assert set(actions) == {"bid", "reroll", "force"}
    assert actions["bid"]["phases"] == ["bid"] and actions["bid"]["required"] == ["card"]
    assert actions["bid"]["fields"]["card"]["type"] == "string"
    assert actions["reroll"]["fields"]["die"]["enum"] == [0, 1]


# -- helpers ---------------------------------------------------------------------------------
def test_next_seat_follows_the_direction_and_skips_seats():
    state, _ = new_match("brisca", players=4, seed="kit")
    assert next_seat(state, 3) == 0
    assert next_seat(state, 0, skip={1, 2}) == 3
    assert seats_from(state, 2) == [2, 3, 0, 1]
    state.options["direction"] = "counterclockwise"
    assert next_seat(state, 0) == 3
    assert next_seat(state, 0, skip={3}) == 2
    assert seats_from(state, 2) == [2, 1, 0, 3]


def test_dealing_takes_from_the_top_and_tells_each_seat_only_its_cards():
    state, _ = new_match("brisca", players=2, seed="kit")
    for s in range(2):
        state.zones[f"hand:{s}"].cards.clear()
    stock = state.zones["stock"].cards
    top = stock[-3:][::-1]
    events = deal_hands(state, [1, 0], 3)
    assert state.cards("hand:1") == top
    assert [e["visible_to"] for e in events] == [[1], [0]]
    before = list(stock)
    events = deal_round_robin(state, [0, 1], 2)
    assert state.cards("hand:0")[-2:] == [before[-1], before[-3]]
    assert state.cards("hand:1")[-2:] == [before[-2], before[-4]]


def test_ending_a_match_announces_the_result_and_ties_share_the_win():
    state, _ = new_match("raj", players=3, seed="kit")
    state.scores = [5, 9, 9]
    [finished] = end_match(state, reason="test")
    assert finished["type"] == "match_finished" and finished["reason"] == "test"
    assert state.result is not None and state.result["winners"] == [1, 2]
    assert highest([1, 4, 4]) == [1, 2] and lowest([1, 4, 0], seats=[0, 1]) == [0]


def test_value_tables_by_name():
    assert [value_of(c, SPANISH_COUNT) for c in ("1O", "7C", "10E", "12B")] == [1, 7, 8, 10]


# -- typed game data -------------------------------------------------------------------------
@dataclass
class Sample(GameData):
    count: int = 0
    later: dict | None = absent_when_none()


def test_game_data_round_trips_and_a_later_key_stays_out_until_set():
    data = Sample(count=2)
    assert data.to_json() == {"count": 2}
    data.later = {"x": 1}
    assert Sample.from_json(data.to_json()) == data
    assert Sample.from_json({"count": 2}) == Sample(count=2)


@pytest.mark.parametrize(
    ("doc", "message"),
    [({"count": 1, "other": 2}, "unknown fields"), ({}, "missing")],
)
def test_game_data_refuses_unknown_or_missing_fields(doc, message):
    with pytest.raises(InvalidState, match=message):
        Sample.from_json(doc)


def test_a_new_deal_gathers_every_card_into_the_stock_and_shuffles_it():
    state, _ = new_match("brisca", players=2, seed="kit")
    before = sorted(state.all_cards())
    stock = gather_and_shuffle(state)
    assert sorted(stock) == before and all(
        not z.cards for n, z in state.zones.items() if n != "stock"
    )


def test_the_engine_shuffles_exactly_as_random_shuffle():
    """Every stored match's deal depends on it: the same order and the same draws after."""
    for size in (0, 1, 2, 3, 40, 48, 52, 108):
        for seed in range(50):
            ours, theirs = list(range(size)), list(range(size))
            mine, reference = random.Random(f"s{seed}:1"), random.Random(f"s{seed}:1")
            shuffle(mine, ours)
            reference.shuffle(theirs)
            assert ours == theirs and mine.random() == reference.random(), (size, seed)


def test_a_card_not_held_is_refused_in_one_wording():
    state, _ = new_match("raj", players=3, seed="kit")
    held = state.cards(hand(0))[0]
    assert not_in_hand(state, 0, held) is None
    assert not_in_hand(state, 1, held) == f"card {held} is not in your hand"
    assert card_actions("bid", ["AS"]) == [{"type": "bid", "card": "AS"}]


def by_deal(dealt_by_number: bool = True) -> State:
    return State("truco", "base", {DEALS_BY_NUMBER: dealt_by_number}, 3, "kit:by-deal")


def test_chance_by_deal_is_keyed_by_the_deal_and_the_draws_within_it_only():
    """Under ``deals_by_number`` a deal's draws do not move with the draws made before it."""
    one, other = by_deal(), by_deal()
    assert one.rng().random() == other.rng().random()  # the first deal: setup draws count on
    other.rng()  # a draw during play of deal 1 at one table only
    for state in (one, other):
        state.rounds.append([0, 0, 0])
        state.new_deal()
    assert [one.rng().random() for _ in range(3)] == [other.rng().random() for _ in range(3)]
    old, old_again = by_deal(False), by_deal(False)
    old_again.rng()
    for state in (old, old_again):
        state.rounds.append([0, 0, 0])
        state.new_deal()  # nothing without the option: the counter goes on
    assert old.chance == 0 and old_again.chance == 1
    assert old.rng().random() != old_again.rng().random()


def test_a_shuffle_by_deal_depends_on_which_cards_not_the_order_play_left_them_in():
    cards = [f"{r}O" for r in range(1, 8)]
    one, other = by_deal(), by_deal()
    mixed = cards[::-1]
    one.shuffle(cards)
    other.shuffle(mixed)
    assert cards == mixed
    plain, plain_again = by_deal(False), by_deal(False)
    first, second = [f"{r}O" for r in range(1, 8)], [f"{r}O" for r in range(7, 0, -1)]
    plain.shuffle(first)
    plain_again.shuffle(second)
    assert first != second  # by counter: the same draw on other orders


def test_deal_by_place_keeps_each_seats_cards_whoever_else_is_dealt_in():
    def deal(seats: list[int]) -> State:
        state = by_deal()
        for s in range(3):
            state.zone(hand(s), s, OWNER)
        state.zone("stock", None, HIDDEN).cards = [f"{r}C" for r in range(1, 10)]
        deal_by_place(state, [1, 2, 0], seats, 2)
        return state

    every, without_two = deal([1, 2, 0]), deal([1, 0])
    assert every.cards(hand(1)) == without_two.cards(hand(1)) == ["9C", "8C"]
    assert every.cards(hand(0)) == without_two.cards(hand(0)) == ["5C", "4C"]
    assert without_two.cards(hand(2)) == []
    assert without_two.cards("stock") == ["6C", "7C", "1C", "2C", "3C"]  # seat 2's place under
    assert every.cards("stock")[-1] == without_two.cards("stock")[-1] == "3C"  # the same top
