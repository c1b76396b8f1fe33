"""Rows built outward from a starting rank (shared/engine/kit/rows.py)."""

from __future__ import annotations

import pytest

from shared.engine.kit.rows import (
    ANY,
    DIFFERENT,
    ENGLISH,
    ENGLISH_HIGH,
    SPANISH_40,
    SPANISH_48,
    RowRule,
)

CINQUILLO = RowRule(SPANISH_40, start=5)
FOUNDATION = RowRule(SPANISH_40, start=1, down=False)


def test_the_sequences_follow_each_decks_order():
    assert SPANISH_40 == (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
    assert SPANISH_48 == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    assert tuple(range(1, 14)) == ENGLISH
    assert (*range(2, 14), 1) == ENGLISH_HIGH


def test_an_empty_row_opens_only_with_the_starting_rank():
    assert CINQUILLO.next_ranks([]) == [5]
    assert CINQUILLO.fits("5O", [])
    assert not CINQUILLO.fits("4O", [])
    assert not CINQUILLO.fits("6C", [])


def test_a_row_of_one_suit_opens_only_with_its_own_suit():
    assert CINQUILLO.fits("5O", [], row_suit="O")
    assert not CINQUILLO.fits("5C", [], row_suit="O")


def test_a_row_grows_one_rank_down_and_one_rank_up_in_its_suit():
    row = ["5C", "6C"]
    assert CINQUILLO.next_ranks(row) == [4, 7]
    assert CINQUILLO.fits("4C", row) and CINQUILLO.fits("7C", row)
    assert not CINQUILLO.fits("7O", row)  # another suit
    assert not CINQUILLO.fits("3C", row)  # not adjacent
    assert not CINQUILLO.fits("5C", row)


def test_the_rule_texts_example_of_which_cards_may_follow():
    """5 de oros and 5+6 de copas on the table: 4 and 6 de oros, 4 and 7 de copas."""
    rows = {"O": ["5O"], "C": ["5C", "6C"], "E": [], "B": []}
    hand = ["4O", "6O", "4C", "7C", "3O", "5E", "10C", "2B"]
    playable = CINQUILLO.playable(hand, rows, {s: s for s in rows})
    assert playable == ["4O", "6O", "4C", "7C", "5E"]  # and any 5 opens its own row


def test_in_the_40_card_deck_the_sota_follows_the_7():
    row = ["5B", "6B", "7B"]
    assert CINQUILLO.next_ranks(row) == [4, 10]
    assert CINQUILLO.fits("10B", row)
    assert not CINQUILLO.fits("8B", row)  # no 8 in this sequence
    assert RowRule(SPANISH_48, start=5).next_ranks(row) == [4, 8]


def test_a_row_never_wraps_around_and_ends_at_the_1_and_the_rey():
    full = ["5E", "4E", "3E", "2E", "1E", "6E", "7E", "10E", "11E", "12E"]
    assert CINQUILLO.next_ranks(full) == []
    assert CINQUILLO.complete(full)
    assert not CINQUILLO.complete(full[:-1])
    assert not CINQUILLO.complete([])
    assert not CINQUILLO.fits("1E", ["5E", "6E", "7E", "10E", "11E", "12E"])
    assert CINQUILLO.span(full) == (1, 12)
    assert CINQUILLO.span([]) is None
    assert CINQUILLO.ends(["5E", "4E", "6E"]) == ("4E", "6E")


def test_foundations_start_with_any_1_and_grow_only_upwards():
    assert FOUNDATION.fits("1O", []) and FOUNDATION.fits("1B", [])
    assert not FOUNDATION.fits("2O", [])
    assert FOUNDATION.next_ranks(["1O"]) == [2]
    assert FOUNDATION.fits("2O", ["1O"]) and not FOUNDATION.fits("2C", ["1O"])
    assert FOUNDATION.complete(["1O", "2O", "3O", "4O", "5O", "6O", "7O", "10O", "11O", "12O"])
    rows = {"f1": ["1O"], "f2": [], "f3": ["1C", "2C"]}
    assert FOUNDATION.placements(["2O", "1E", "3C", "3O"], rows) == [
        ("2O", "f1"),
        ("1E", "f2"),
        ("3C", "f3"),
    ]


def test_alternating_suits_need_a_different_suit_from_the_card_under():
    pintados = RowRule(SPANISH_40, start=1, down=False, suits=DIFFERENT)
    assert pintados.fits("2C", ["1O"])
    assert not pintados.fits("2O", ["1O"])
    assert RowRule(SPANISH_40, start=1, down=False, suits=ANY).fits("2O", ["1O"])


def test_a_row_without_a_starting_rank_opens_with_any_card():
    free = RowRule(ENGLISH, start=None)
    assert free.next_ranks([]) == list(ENGLISH)
    assert free.fits("9H", [])
    assert free.next_ranks(["9H"]) == [8, 10]
    assert free.next_ranks(["AH"]) == [2]  # the ace is the end: no wrap to the king


def test_the_ace_high_sequence_puts_the_ace_above_the_king():
    rule = RowRule(ENGLISH_HIGH, start=7)
    assert rule.next_ranks(["7S", "8S", "9S", "10S", "JS", "QS", "KS"]) == [6, 1]
    assert rule.fits("AS", ["7S", "8S", "9S", "10S", "JS", "QS", "KS"])


def test_a_bad_rule_is_refused():
    with pytest.raises(ValueError, match="not in the sequence"):
        RowRule(SPANISH_40, start=8)
    with pytest.raises(ValueError, match="suits must be"):
        RowRule(SPANISH_40, start=5, suits="mixed")
