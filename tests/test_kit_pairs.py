"""The pairs kit: cards summing to a target, a card going out alone, same-rank pairs."""

from __future__ import annotations

import pytest

from shared.engine.kit.pairs import PairRule, same_rank, sums_to
from shared.engine.kit.tables import ENGLISH_ACE_LOW

NUMBERS_1_TO_8 = {r: r for r in range(1, 9)}


def test_pyramid_pairs_sum_13_and_the_king_goes_alone():
    rule = sums_to(13, ENGLISH_ACE_LOW)
    assert rule.matches("AS", "QH") and rule.matches("2D", "JC") and rule.matches("6S", "7S")
    assert not rule.matches("5S", "5H") and not rule.matches("KS", "AS")
    assert rule.alone("KD") and not rule.alone("QD")
    assert rule.singles(["KS", "5H", "KC"]) == ["KS", "KC"]


def test_three_cards_never_make_13_only_pairs_are_listed():
    # the text's example: 5 + 5 + 3 = 13 is not valid
    rule = sums_to(13, ENGLISH_ACE_LOW)
    assert rule.pairs(["5S", "5H", "3D"]) == []
    assert rule.pairs(["5S", "8H", "3D", "10C"]) == [("5S", "8H"), ("3D", "10C")]


def test_el_9_pairs_sum_9_and_figures_never_pair():
    rule = sums_to(9, NUMBERS_1_TO_8)
    assert [rule.matches(f"{a}O", f"{9 - a}C") for a in (1, 2, 3, 4)] == [True] * 4
    assert not rule.matches("10O", "1C")  # a figure is not a number
    assert rule.value("12B") is None and not rule.alone("9O")
    assert rule.partners("3O", ["6C", "6E", "5B", "3C"]) == ["6C", "6E"]


def test_same_rank_pairs_only_among_the_ranks_that_pair():
    rule = same_rank({r: r for r in range(1, 8)})
    assert rule.matches("4O", "4B") and not rule.matches("4O", "5O")
    assert not rule.matches("12O", "12C")  # two reyes are figures, not a pair
    assert rule.pairs(["4O", "7C", "4B", "7E"]) == [("4O", "4B"), ("7C", "7E")]
    assert rule.singles(["4O", "7C"]) == []


def test_rules_describe_themselves_and_refuse_unknown_kinds():
    assert sums_to(9, NUMBERS_1_TO_8).describe() == "two cards summing 9"
    assert "same number" in same_rank(NUMBERS_1_TO_8).describe()
    with pytest.raises(ValueError, match="unknown pair rule"):
        PairRule("triple", NUMBERS_1_TO_8)
