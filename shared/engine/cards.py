"""Cards are their codes: short immutable strings such as ``1O``, ``12B``, ``10H``, ``QS``, ``JK``.

Plain strings keep states JSON-native and fast to compare; the tables below give
rank and suit without parsing on every call.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

SPANISH_SUITS = ("O", "C", "E", "B")  # oros, copas, espadas, bastos
ENGLISH_SUITS = ("S", "H", "D", "C")  # spades, hearts, diamonds, clubs
ENGLISH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"
CABALLO, REY = 11, 12  # the figures some rules name (the sota is rank 10)

_LETTER_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def spanish_deck(
    size: int = 40, jokers: int = 0, copies: int = 1, suits: tuple[str, ...] = SPANISH_SUITS
) -> list[str]:
    """A Spanish deck of 40 (no 8 and 9) or 48 cards, per suit 1..7, (8, 9), 10..12."""
    return list(_spanish_deck(size, jokers, suits)) * copies


@functools.cache
def _spanish_deck(size: int, jokers: int, suits: tuple[str, ...]) -> tuple[str, ...]:
    """One Spanish deck, made once per shape (a match deals a new deck every round)."""
    if size not in (40, 48):
        raise ValueError("a Spanish deck has 40 or 48 cards")
    ranks = [1, 2, 3, 4, 5, 6, 7] + ([8, 9] if size == 48 else []) + [10, 11, 12]
    return tuple([f"{r}{s}" for s in suits for r in ranks] + [JOKER] * jokers)


def english_deck(
    jokers: int = 0, copies: int = 1, suits: tuple[str, ...] = ENGLISH_SUITS
) -> list[str]:
    """A 52-card English deck (per suit A..K), with jokers and copies as asked."""
    return list(_english_deck(jokers, suits)) * copies


@functools.cache
def _english_deck(jokers: int, suits: tuple[str, ...]) -> tuple[str, ...]:
    """One English deck, made once per shape."""
    return tuple([f"{r}{s}" for s in suits for r in ENGLISH_RANKS] + [JOKER] * jokers)


def _parse(card: str) -> tuple[int, str]:
    if card == JOKER:
        return 0, ""
    head, tail = card[:-1], card[-1]
    return (_LETTER_RANKS[head] if head in _LETTER_RANKS else int(head)), tail


_TABLE = {c: _parse(c) for c in spanish_deck(48) + english_deck(jokers=1)}
#: Every card code (``is_card`` is ``type(code) is str and code in CODES`` where a call costs).
CODES = frozenset(_TABLE)


#: ``rank(card)``: the rank number: Spanish 1..12 (10 sota, 11 caballo, 12 rey); English
#: A=1 .. K=13; joker 0. A table's lookup rather than a function (as ``kit.zones.hand``): every
#: game asks it of cards on every action, and a call of a Python function costs several times
#: more. An unknown code raises ``KeyError``, as the function did.
rank: Callable[[str], int] = {c: r for c, (r, _) in _TABLE.items()}.__getitem__
#: ``suit(card)``: the suit letter; the joker has none (""). A table's lookup, as ``rank``.
suit: Callable[[str], str] = {c: s for c, (_, s) in _TABLE.items()}.__getitem__


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in _TABLE


def are_cards(codes: list) -> bool:
    """Every item is a card code (one set operation: states are checked on every request)."""
    try:
        return _TABLE.keys() >= set(codes)
    except TypeError:  # an unhashable item (a list, an object) is no card
        return False
