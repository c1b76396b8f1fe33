"""Climbing games (Presidente, Palacio): sets of equal value, "equal or beat", clearing and burning.

A climbing game plays sets of cards of one value onto a pile, each play meeting or beating
the one below under an order of values. Games give their own value function (a card to an
int where a bigger number is stronger); the helpers below never look at suits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..state import State

Value = Callable[[str], int]


def sets_by_value(cards: Iterable[str], value: Value) -> dict[int, list[str]]:
    """The cards grouped by value, each group in the order given (the sets a hand can make)."""
    groups: dict[int, list[str]] = {}
    for card in cards:
        groups.setdefault(value(card), []).append(card)
    return groups


def set_choices(
    cards: Iterable[str], value: Value, keep_last: Callable[[str], Any] | None = None
) -> list[list[str]]:
    """One canonical set per (value, size): for each value held, its first 1, 2, … n cards.

    Which copies make up a set rarely matters in a climbing game, so listing one set per value
    and size keeps the choice small (a hand of four equal cards makes 4 sets, not 15 subsets).
    ``keep_last`` orders the copies of a value so that the cards worth keeping are used last
    (a special card that only counts as itself, such as Presidente's 3 of clubs).
    """
    choices: list[list[str]] = []
    for group in sets_by_value(cards, value).values():
        ordered = sorted(group, key=keep_last) if keep_last else sorted(group)
        choices.extend(ordered[:size] for size in range(1, len(ordered) + 1))
    return choices


def is_set(cards: list[str], value: Value) -> bool:
    """The cards are one non-empty set of equal value."""
    return bool(cards) and len({value(c) for c in cards}) == 1


def equal_or_beat(new: int, top: int, revolution: bool = False, equal: bool = True) -> bool:
    """Whether a play of value ``new`` may go on ``top``: higher wins, or lower in a revolution
    (the order reversed); an equal value is allowed unless ``equal`` is False."""
    if new == top:
        return equal
    return (new > top) != revolution


def run_on_top(pile: list[str], value: Value) -> int:
    """How many cards of the top card's value lie in a row at the top of the pile (0 if empty)."""
    if not pile:
        return 0
    top, count = value(pile[-1]), 0
    for card in reversed(pile):
        if value(card) != top:
            break
        count += 1
    return count


def burns(pile: list[str], value: Value, run: int) -> bool:
    """The top of the pile holds ``run`` or more cards of one value in a row (a burn, a revolution)."""
    return run_on_top(pile, value) >= run


def clear_pile(state: State, pile: str, to: str) -> list[str]:
    """Move every card of the zone ``pile`` onto the zone ``to`` (in order), returning them."""
    cards = state.zones[pile].cards
    moved = list(cards)
    state.zones[to].cards.extend(moved)
    cards.clear()
    return moved
