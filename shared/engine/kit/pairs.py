"""Pairs of cards that go out together: two cards summing to a target, or two of the same rank.

Solitaires such as El 9 (1+8, 2+7…), Pirámide (pairs summing 13, the K alone) and
7 Parejas (two cards of the same number) remove cards by such a rule. A ``PairRule``
says which cards match, once, so that listing the legal removals and refusing a bad
one can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations

from ..cards import english_deck, rank, spanish_deck

#: Every card code a deck of the platform has (the jokers' too).
_CODES = tuple(dict.fromkeys(spanish_deck(48) + english_deck(jokers=1)))

SUM, SAME_RANK = "sum", "same-rank"


@dataclass(frozen=True)
class PairRule:
    """Which cards go out together.

    ``values`` maps a rank number to its value; a rank missing from it never pairs (the
    figures of El 9). ``kind`` is ``"sum"`` (two values adding up to ``target``; a card
    worth ``target`` by itself goes out alone) or ``"same-rank"`` (two cards of one rank).
    """

    kind: str
    values: Mapping[int, int]
    target: int = 0
    #: card code -> its value (None: it never pairs), made once: listings pair every two cards.
    _card_values: dict[str, int | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in (SUM, SAME_RANK):
            raise ValueError(f"unknown pair rule {self.kind!r}")
        table = {card: self.values.get(rank(card)) for card in _CODES}
        object.__setattr__(self, "_card_values", table)

    def value(self, card: str) -> int | None:
        """The card's value under this rule, None when it never pairs."""
        return self._card_values[card]

    def matches(self, a: str, b: str) -> bool:
        """Whether the two cards go out together."""
        values = self._card_values
        va, vb = values[a], values[b]
        if va is None or vb is None:
            return False
        if self.kind == SUM:
            return va + vb == self.target
        return rank(a) == rank(b)

    def alone(self, card: str) -> bool:
        """Whether the card goes out by itself (worth the whole target, as the K in Pirámide)."""
        return self.kind == SUM and self.value(card) == self.target

    def pairs(self, cards: Iterable[str]) -> list[tuple[str, str]]:
        """Every unordered pair among ``cards`` that goes out together, in the cards' order."""
        values = self._card_values
        valued = [(c, values[c]) for c in cards]
        if self.kind == SUM:
            target = self.target
            return [
                (a, b)
                for (a, va), (b, vb) in combinations(valued, 2)
                if va is not None and vb is not None and va + vb == target
            ]
        return [
            (a, b)
            for (a, va), (b, vb) in combinations(valued, 2)
            if va is not None and vb is not None and rank(a) == rank(b)
        ]

    def partners(self, card: str, cards: Iterable[str]) -> list[str]:
        """The cards among ``cards`` that go out together with ``card``."""
        return [c for c in cards if c != card and self.matches(card, c)]

    def singles(self, cards: Iterable[str]) -> list[str]:
        """The cards among ``cards`` that go out alone."""
        if self.kind != SUM:
            return []
        values, target = self._card_values, self.target
        return [c for c in cards if values[c] == target]

    def describe(self) -> str:
        """The rule in words, for refusals."""
        if self.kind == SUM:
            return f"two cards summing {self.target}"
        return "two cards of the same number"


def sums_to(target: int, values: Mapping[int, int]) -> PairRule:
    """Two cards whose values add up to ``target`` (and any card worth ``target`` alone)."""
    return PairRule(SUM, values, target)


def same_rank(values: Mapping[int, int]) -> PairRule:
    """Two cards of the same rank; only the ranks in ``values`` pair at all."""
    return PairRule(SAME_RANK, values)
