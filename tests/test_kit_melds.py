"""The meld kit: sets, runs in a named sequence, group sizes, wilds, the best grouping of a hand."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from shared.engine import JOKER, rank, spanish_deck
from shared.engine.kit.melds import Melds, arrangements, split
from shared.engine.kit.tables import SPANISH_FACE

CHINCHON = Melds("spanish-sequence-40", set_sizes=(3, 4), run_sizes=(3, 4, 7))
WILD = Melds("spanish-sequence-40", (3, 4), (3, 4, 7), wilds=("1O", JOKER), max_wilds=1)
SETS_ONLY = Melds(None, set_sizes=range(3, 9), wilds=("2S", JOKER), max_wilds=2)


def face(card: str) -> int:
    return SPANISH_FACE.get(rank(card), 25)  # a joker left loose: 25


def test_a_set_is_cards_of_one_rank_in_an_allowed_size():
    assert CHINCHON.is_group(["5O", "5C", "5E"]) and CHINCHON.is_group(["5O", "5C", "5E", "5B"])
    assert not CHINCHON.is_group(["5O", "5C"])  # too small
    assert not CHINCHON.is_group(["5O", "5C", "6E"])


def test_a_run_follows_the_named_sequence_in_one_suit_and_never_wraps():
    assert CHINCHON.is_group(["6O", "7O", "10O"])  # 7 -> sota in the 40-card sequence
    assert not CHINCHON.is_group(["6O", "7C", "10O"])
    assert not CHINCHON.is_group(["11O", "12O", "1O"]) and not CHINCHON.is_group(
        ["12O", "1O", "2O"]
    )
    forty_eight = Melds("spanish-sequence-48", run_sizes=(3,))
    assert not forty_eight.is_group(["6O", "7O", "10O"]) and forty_eight.is_group(
        ["8O", "9O", "10O"]
    )


def test_only_the_allowed_sizes_group():
    run = ["1C", "2C", "3C", "4C", "5C", "6C", "7C"]
    assert CHINCHON.is_group(run) and CHINCHON.is_group(run[:4])
    assert not CHINCHON.is_group(run[:5]) and not CHINCHON.is_group(run[:6])


def test_without_a_sequence_there_are_no_runs():
    assert not SETS_ONLY.is_group(["4H", "5H", "6H"])
    assert SETS_ONLY.is_group(["4H", "4D", "4H", "4C", "4S", "4D", "4C", "4S"])  # two decks


def test_a_wild_stands_for_any_card_up_to_the_limit_per_group():
    assert WILD.is_group(["1O", "5C", "5E"]) and WILD.is_group(["7E", JOKER, "11E"])
    assert not WILD.is_group(["1O", JOKER, "5E"])
    assert SETS_ONLY.is_group(["2S", JOKER, "9H"]) and not SETS_ONLY.is_group(
        ["2S", JOKER, "2S", "9H"]
    )
    assert not CHINCHON.is_group([JOKER, "5C", "5E"])  # a joker that is not wild groups nothing


NATURAL_ONE = Melds(
    "spanish-sequence-40", (3, 4), (3, 4, 7), wilds=("1O", JOKER), max_wilds=1, natural_wilds=True
)


def test_a_natural_wild_in_its_own_place_does_not_count_towards_the_limit():
    for group in (["1O", "2O", "3O", JOKER], ["1O", "1C", "1E", JOKER], ["1O", "3O", JOKER]):
        assert NATURAL_ONE.is_group(group) and not WILD.is_group(group)
    assert not NATURAL_ONE.is_group(["1O", JOKER, "5E"])  # standing for a 5: a second wild
    assert not NATURAL_ONE.is_group(["1O", "2O", JOKER, JOKER])  # jokers are never natural
    hand = ["1O", "2O", "3O", JOKER, "5C", "5E", "5B"]
    slow = sorted(
        sum(1 << i for i in combo)
        for size in (3, 4, 7)
        for combo in combinations(range(len(hand)), size)
        if NATURAL_ONE.is_group([hand[i] for i in combo])
    )
    assert NATURAL_ONE.group_masks(hand) == slow and 0b1111 in slow
    assert NATURAL_ONE.groupable(["1O", "2O", JOKER]) == 3


def test_group_masks_lists_every_group_of_a_hand():
    hand = ["2C", "3C", "4C", "5C", "6C", "10E", "10B", "10O"]
    masks = CHINCHON.group_masks(hand)
    slow = sorted(
        sum(1 << i for i in combo)
        for size in (3, 4, 7)
        for combo in combinations(range(len(hand)), size)
        if CHINCHON.is_group([hand[i] for i in combo])
    )
    assert masks == slow and len(masks) == 6  # 3 runs of 3, 2 of 4, the three sotas


def test_best_grouping_leaves_the_fewest_points_loose():
    groups, loose = CHINCHON.best_grouping(["2C", "3C", "4C", "5C", "6C"], face)
    assert groups == [["3C", "4C", "5C", "6C"]] and loose == ["2C"]
    groups, loose = WILD.best_grouping(["12C", "12E", JOKER, "3O", "4O", "2E"], face)
    assert sorted(map(sorted, groups)) == [["12C", "12E", JOKER]] and sorted(loose) == [
        "2E",
        "3O",
        "4O",
    ]


def test_groupable_bounds_how_many_cards_can_be_grouped():
    assert CHINCHON.groupable(["1O", "5C", "7E", "10B", "11B", "12C", "3O"]) == 0
    assert CHINCHON.groupable(["4O", "5O", "6O", "10C", "10E", "10B", "2E"]) == 6


@pytest.mark.parametrize("most", [None, 2])
def test_arrangements_are_every_choice_of_disjoint_groups(most):
    a, b, c = 0b000111, 0b111000, 0b001100  # c overlaps both a and b
    assert list(arrangements([a, b, c], most)) == [(a,), (a, b), (b,), (c,)]
    assert split(["a", "b", "c", "d", "e", "f", "g"], (a, b)) == (
        [["a", "b", "c"], ["d", "e", "f"]],
        ["g"],
    )


def test_arrangements_limited_to_one_group():
    assert list(arrangements([0b0111, 0b111000], 1)) == [(0b0111,), (0b111000,)]


def test_unknown_sequence_table_is_refused():
    with pytest.raises(ValueError, match="no order table"):
        Melds("no-such-table")


def test_group_masks_gives_up_early_when_too_few_cards_could_group():
    hand = ["4O", "5O", "6O", "10C", "10E", "10B", "2E", "12C"]
    assert CHINCHON.group_masks(hand, at_least=7) == []  # six cards at most could group
    assert CHINCHON.group_masks(hand, at_least=6) == CHINCHON.group_masks(hand) != []


def test_groupable_counts_a_wild_and_the_naturals_it_could_complete():
    assert WILD.groupable(["JK", "5C", "5E", "12O", "3B"]) == 3  # the joker and the two 5s
    assert WILD.groupable(["JK", "5C", "7E", "12O"]) == 1  # no natural has a partner


@pytest.mark.parametrize("max_wilds", [1, 2, 3])
@pytest.mark.parametrize("natural", [False, True])
def test_group_masks_agrees_with_every_combination_on_random_hands(max_wilds, natural):
    """The fast paths (groups grown card by card, a run of 7 looked for only among the cards
    of smaller groups) find exactly the groups a walk of every combination finds."""
    rules = Melds("spanish-sequence-40", (3, 4), (3, 4, 7), ("1O", JOKER), max_wilds, natural)
    deck = spanish_deck(40, jokers=2)
    rng = random.Random(max_wilds * 2 + natural)
    sevens = 0
    for _ in range(300):
        suit = rng.choice("OCEB")  # half the hands from one suit and the wilds: long runs
        pool = deck if rng.random() < 0.5 else [c for c in deck if c[-1] in suit + "K"]
        hand = rng.sample(pool, rng.choice((7, 8, 9)))
        slow = sorted(
            sum(1 << i for i in combo)
            for size in (3, 4, 7)
            for combo in combinations(range(len(hand)), size)
            if rules.is_group([hand[i] for i in combo])
        )
        assert rules.group_masks(hand) == slow, hand
        sevens += any(mask.bit_count() == 7 for mask in slow)
    assert sevens >= 10  # the runs of 7 were tried
