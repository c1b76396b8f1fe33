"""The majority kit: per category, alone +5, unique maximum +3, a tie for the maximum 0."""

from __future__ import annotations

from shared.engine.kit.majority import category_points, majority_points


def test_the_only_seat_with_cards_in_a_category_scores_alone():
    assert category_points([0, 0, 4]) == [0, 0, 5]


def test_the_unique_maximum_scores_the_majority():
    assert category_points([2, 0, 3]) == [0, 0, 3]


def test_a_tie_for_the_maximum_scores_the_tie_for_each_tied_seat():
    assert category_points([3, 3, 1]) == [0, 0, 0]
    assert category_points([3, 3, 1], tie=1) == [1, 1, 0]


def test_an_empty_category_scores_nothing():
    assert category_points([0, 0, 0]) == [0, 0, 0]


def test_majority_points_sums_the_categories():
    # aces: A 2, C 3 -> C +3; twos: only C with 4 -> C +5
    assert majority_points([[2, 0, 3], [0, 0, 4]], 3) == [0, 0, 8]
    assert majority_points([], 2) == [0, 0]
    assert majority_points([[1, 0]], 2, alone=7) == [7, 0]
