"""The climbing kit: sets of equal value, equal-or-beat under an order, runs, burns, clearing."""

from __future__ import annotations

from shared.engine import new_match, rank
from shared.engine.kit import climbing


def test_sets_by_value_groups_a_hand_keeping_the_order_given():
    groups = climbing.sets_by_value(["5S", "KD", "5H", "KC", "2S"], rank)
    assert groups == {5: ["5S", "5H"], 13: ["KD", "KC"], 2: ["2S"]}


def test_set_choices_lists_one_set_per_value_and_size_not_every_subset():
    choices = climbing.set_choices(["6S", "6H", "6D", "6C", "KD"], rank)
    assert sorted(map(len, choices)) == [1, 1, 2, 3, 4]
    assert ["6C", "6D"] in choices and ["KD"] in choices


def test_set_choices_uses_the_cards_worth_keeping_last():
    choices = climbing.set_choices(["3C", "3H", "3D"], rank, keep_last=lambda c: (c == "3C", c))
    assert choices == [["3D"], ["3D", "3H"], ["3D", "3H", "3C"]]


def test_duplicate_cards_of_two_decks_make_sets():
    choices = climbing.set_choices(["7S", "7S"], rank)
    assert choices == [["7S"], ["7S", "7S"]]


def test_is_set_needs_one_value_and_at_least_one_card():
    assert climbing.is_set(["5S", "5H"], rank)
    assert not climbing.is_set(["5S", "6H"], rank)
    assert not climbing.is_set([], rank)


def test_equal_or_beat_in_the_normal_order_and_in_a_revolution():
    assert climbing.equal_or_beat(9, 5)
    assert climbing.equal_or_beat(5, 5)
    assert not climbing.equal_or_beat(4, 5)
    assert not climbing.equal_or_beat(5, 5, equal=False)
    assert climbing.equal_or_beat(4, 5, revolution=True)
    assert climbing.equal_or_beat(5, 5, revolution=True)
    assert not climbing.equal_or_beat(9, 5, revolution=True)


def test_run_on_top_counts_equal_values_in_a_row_at_the_top():
    assert climbing.run_on_top([], rank) == 0
    assert climbing.run_on_top(["5S", "7H", "7D"], rank) == 2
    assert climbing.run_on_top(["7S", "5H", "7D"], rank) == 1
    assert climbing.run_on_top(["7S", "7H", "7D", "7C"], rank) == 4


def test_burns_when_the_run_reaches_its_length():
    assert climbing.burns(["4S", "9H", "9D", "9C"], rank, 3)
    assert not climbing.burns(["9H", "4S", "9D", "9C"], rank, 3)
    assert not climbing.burns(["9D", "9C"], rank, 3)


def test_clear_pile_moves_every_card_in_order():
    state, _ = new_match("presidente", "base", 4, seed="kit")
    state.zones["pile"].cards = ["5S", "8H"]
    for s in range(4):
        for c in ("5S", "8H"):
            if c in state.cards(f"hand:{s}"):
                state.cards(f"hand:{s}").remove(c)
    moved = climbing.clear_pile(state, "pile", "discard")
    assert moved == ["5S", "8H"]
    assert state.cards("pile") == [] and state.cards("discard")[-2:] == ["5S", "8H"]
