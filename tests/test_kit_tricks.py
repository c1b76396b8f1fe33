"""The trick kit: who takes a trick and which cards may be played on it."""

from __future__ import annotations

from shared.engine.kit.tables import BRISCA_STRENGTH
from shared.engine.kit.tricks import playable, power, trick_winner


def test_the_strongest_card_of_the_suit_led_wins_without_trumps():
    assert trick_winner(["12O", "3O", "1C"], BRISCA_STRENGTH) == 1  # 3 beats rey; 1C is off suit


def test_a_card_of_another_suit_never_wins_without_trump():
    assert trick_winner(["2O", "1E"], BRISCA_STRENGTH, trump="B") == 0


def test_the_strongest_trump_wins_over_anything_led():
    assert trick_winner(["1O", "2B", "4B", "3O"], BRISCA_STRENGTH, trump="B") == 2


def test_a_suit_led_can_be_given_explicitly():
    assert trick_winner(["2O", "1E"], BRISCA_STRENGTH, led="E") == 1


def test_with_any_suit_every_card_competes_by_strength_alone():
    ranking = {"1E": 14, "7O": 11, "4C": 1, "4B": 1}.__getitem__
    assert trick_winner(["7O", "1E"], ranking, any_suit=True) == 1
    assert trick_winner(["4C", "4B"], ranking, any_suit=True) == 0  # the first keeps a tie
    assert trick_winner(["4C", "4B"], ranking, any_suit=True, shared_best_wins=False) is None


def test_a_strength_table_and_a_card_function_give_the_same_order():
    by_card = power(BRISCA_STRENGTH)
    assert by_card("1O") == 10 and by_card("2O") == 1
    assert power(by_card) is by_card


def test_any_card_may_lead():
    assert playable(["2O", "6B"], [], BRISCA_STRENGTH, trump="B") == ["2O", "6B"]


def test_follow_the_suit_led_when_you_can():
    assert playable(["1O", "6B", "7E"], ["2O"], BRISCA_STRENGTH, trump="B") == ["1O"]


def test_trump_when_you_cannot_follow():
    assert playable(["6B", "7E", "4E"], ["2O"], BRISCA_STRENGTH, trump="B") == ["6B"]


def test_anything_when_you_can_neither_follow_nor_trump():
    assert playable(["6C", "7E"], ["2O"], BRISCA_STRENGTH, trump="B") == ["6C", "7E"]


def test_heading_demands_beating_the_winning_card_where_you_can():
    assert playable(["2O", "3O", "7E"], ["4O"], BRISCA_STRENGTH, "B", head=True) == ["3O"]
    # nothing beats the ace: any card of the suit will do
    assert playable(["2O", "3O"], ["1O"], BRISCA_STRENGTH, "B", head=True) == ["2O", "3O"]


def test_heading_over_a_trump_asks_for_a_higher_trump():
    hand = ["4B", "12B", "7E"]
    assert playable(hand, ["2O", "5B"], BRISCA_STRENGTH, "B", head=True) == ["12B"]


def test_following_need_not_beat_a_trump_already_played():
    hand = ["3O", "4B"]
    assert playable(hand, ["2O", "5B"], BRISCA_STRENGTH, "B", head=True) == ["3O"]
