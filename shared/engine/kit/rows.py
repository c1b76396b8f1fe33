"""Rows built outward from a starting rank: layout games (Cinquillo) and foundations (patience).

A row is a list of cards in the order they were placed. It starts with a card of the
starting rank and grows by the next rank of the deck's sequence at either end it may
grow at: down towards the lowest rank, up towards the highest, never wrapping around.
The sequence is the deck's order (in the 40-card Spanish deck the 7 is followed by the
Sota), so the same rule serves Cinquillo (start 5, both ways, by suit), a solitaire's
foundations (start 1, upwards, one suit or alternating suits) and any other layout.

Everything here is a pure function of the rows' cards: a game keeps each row as a zone
and asks which cards may be placed now; nothing is stored beside the cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..cards import english_deck, rank, spanish_deck, suit
from .tables import ENGLISH_ACE_HIGH, ENGLISH_ACE_LOW, SPANISH_SEQUENCE_40, SPANISH_SEQUENCE_48


def sequence_of(order: Mapping[int, int]) -> tuple[int, ...]:
    """The ranks of an order table (rank -> position), lowest first."""
    return tuple(sorted(order, key=order.__getitem__))


#: 1..7, Sota, Caballo, Rey: in the 40-card deck the 7 and the Sota are consecutive.
SPANISH_40 = sequence_of(SPANISH_SEQUENCE_40)
#: 1..9, Sota, Caballo, Rey.
SPANISH_48 = sequence_of(SPANISH_SEQUENCE_48)
#: A, 2..10, J, Q, K (the ace low).
ENGLISH = sequence_of(ENGLISH_ACE_LOW)
#: 2..10, J, Q, K, A (the ace high).
ENGLISH_HIGH = sequence_of(ENGLISH_ACE_HIGH)

SAME, DIFFERENT, ANY = "same", "different", "any"


@dataclass(frozen=True)
class RowRule:
    """How rows grow.

    ``sequence``: the ranks in order, lowest first. ``start``: the rank that opens an empty
    row (None: any rank). ``down`` / ``up``: the directions a row may grow in. ``suits``:
    ``same`` (a row holds one suit), ``different`` (each card differs in suit from the
    card it is placed next to) or ``any``.
    """

    sequence: tuple[int, ...]
    start: int | None
    down: bool = True
    up: bool = True
    suits: str = SAME
    #: rank -> its place in ``sequence`` (made once: rows are asked on every listing).
    _places: dict[int, int] = field(init=False, repr=False, compare=False)
    #: card -> its place, or None outside the sequence (``position`` without parsing a rank).
    _card_places: dict[str, int | None] = field(init=False, repr=False, compare=False)
    #: card -> its place, 0 outside the sequence (how ``ends`` orders a row's cards).
    _card_order: dict[str, int] = field(init=False, repr=False, compare=False)
    #: (place, suit) -> every card code of that place and suit (the Spanish and English ones).
    _codes: dict[tuple[int, str], tuple[str, ...]] = field(init=False, repr=False, compare=False)
    #: (a row's suit, *its cards) -> the cards it takes next, kept for ``playable``: a row
    #: changes by one card a turn, and Cinquillo asks every row after every action.
    _takes: dict[tuple[str, ...], frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.start is not None and self.start not in self.sequence:
            raise ValueError(f"the starting rank {self.start} is not in the sequence")
        if self.suits not in (SAME, DIFFERENT, ANY):
            raise ValueError(f"suits must be {SAME!r}, {DIFFERENT!r} or {ANY!r}")
        places = {r: i for i, r in reversed(list(enumerate(self.sequence)))}  # the first wins
        object.__setattr__(self, "_places", places)
        cards = {c: places.get(rank(c)) for c in spanish_deck(48) + english_deck(jokers=1)}
        object.__setattr__(self, "_card_places", cards)
        object.__setattr__(self, "_card_order", {c: p or 0 for c, p in cards.items()})
        codes: dict[tuple[int, str], tuple[str, ...]] = {}
        for card, place in cards.items():
            if place is not None:
                codes[place, suit(card)] = (*codes.get((place, suit(card)), ()), card)
        object.__setattr__(self, "_codes", codes)
        object.__setattr__(self, "_takes", {})

    def position(self, card: str) -> int | None:
        """The card's place in the sequence (None for a rank outside it, e.g. an 8 in a 40-card row)."""
        try:
            return self._card_places[card]
        except KeyError:  # no card of either deck: rank() says so
            return self._places.get(rank(card))

    def ends(self, row: list[str]) -> tuple[str, str] | None:
        """The row's lowest and highest cards (None while it is empty); of cards in the same
        place, the lowest is the first placed and the highest the last."""
        if not row:
            return None
        if len(row) == 1:
            return row[0], row[0]
        place = self._card_order.__getitem__
        return min(row, key=place), max(reversed(row), key=place)

    def span(self, row: list[str]) -> tuple[int, int] | None:
        """The row's lowest and highest ranks (None while it is empty)."""
        ends = self.ends(row)
        return None if ends is None else (rank(ends[0]), rank(ends[1]))

    def next_ranks(self, row: list[str]) -> list[int]:
        """The ranks that may be placed on ``row`` now (its starting rank while it is empty)."""
        ends = self.ends(row)
        if ends is None:
            return list(self.sequence) if self.start is None else [self.start]
        low, high = (self.position(c) or 0 for c in ends)
        found = []
        if self.down and low > 0:
            found.append(self.sequence[low - 1])
        if self.up and high < len(self.sequence) - 1:
            found.append(self.sequence[high + 1])
        return found

    def fits(self, card: str, row: list[str], row_suit: str | None = None) -> bool:
        """Whether ``card`` may be placed on ``row`` now.

        ``row_suit`` fixes the suit of a row that belongs to one suit even while it is
        empty (Cinquillo's row of oros takes only the 5 of oros to open).
        """
        if row_suit is not None and suit(card) != row_suit:
            return False
        return self._fits_ends(card, self.ends(row))

    def _fits_ends(self, card: str, ends: tuple[str, str] | None) -> bool:
        """``fits`` on a row with these ends, the row's suit already met."""
        position = self.position(card)
        if position is None:
            return False
        if ends is None:
            return self.start is None or rank(card) == self.start
        low, high = ends
        order = self._card_order
        if self.down and position == order[low] - 1:
            return self._suit_fits(card, low)
        if self.up and position == order[high] + 1:
            return self._suit_fits(card, high)
        return False

    def _suit_fits(self, card: str, neighbour: str) -> bool:
        if self.suits == SAME:
            return suit(card) == suit(neighbour)
        if self.suits == DIFFERENT:
            return suit(card) != suit(neighbour)
        return True

    def placements(
        self,
        cards: Iterable[str],
        rows: Mapping[str, list[str]],
        row_suits: Mapping[str, str] | None = None,
    ) -> list[tuple[str, str]]:
        """Every (card, row name) where one of ``cards`` may be placed now, in the given orders."""
        suits = row_suits or {}
        ends = [(name, suits.get(name), self.ends(row)) for name, row in rows.items()]  # once
        suited = any(row_suit is not None for _, row_suit, _ in ends)
        fits = self._fits_ends
        found = []
        for card in cards:
            card_suit = suit(card) if suited else None  # once per card, not per row
            for name, row_suit, row_ends in ends:
                if (row_suit is None or card_suit == row_suit) and fits(card, row_ends):
                    found.append((card, name))
        return found

    def playable(
        self,
        cards: Iterable[str],
        rows: Mapping[str, list[str]],
        row_suits: Mapping[str, str] | None = None,
    ) -> list[str]:
        """Which of ``cards`` may be placed on some row now (each once, in the given order)."""
        if self.suits == SAME and row_suits and row_suits.keys() >= rows.keys():
            return self._playable_on_suited_rows(cards, rows, row_suits)
        found: list[str] = []
        for card, _name in self.placements(cards, rows, row_suits):
            if card not in found:
                found.append(card)
        return found

    def _playable_on_suited_rows(
        self, cards: Iterable[str], rows: Mapping[str, list[str]], row_suits: Mapping[str, str]
    ) -> list[str]:
        """``playable`` where every row has its suit (Cinquillo, asked on every listing): the
        cards each row takes next are found once per row (and kept), and each card is looked
        up among them, instead of each card being tried on each row."""
        wanted: set[str] = set()
        takes = self._takes
        for name, row in rows.items():
            key = (row_suits[name], *row)
            taken = takes.get(key)
            if taken is None:
                taken = takes[key] = self._taken_by(row, row_suits[name])
                if len(takes) > 16_384:  # a bound, never reached by one deck's rows
                    takes.clear()
            wanted.update(taken)
        if not wanted:
            return []
        found = [card for card in cards if card in wanted]
        return list(dict.fromkeys(found)) if len(found) > 1 else found

    def _taken_by(self, row: list[str], row_suit: str) -> frozenset[str]:
        """Every card code of ``row_suit`` that ``row`` takes now (its suit is the row's)."""
        places, codes = self._places, self._codes
        return frozenset(
            code
            for next_rank in self.next_ranks(row)
            for code in codes.get((places[next_rank], row_suit), ())
        )

    def complete(self, row: list[str]) -> bool:
        """Whether the row can grow no more in any direction it may grow in."""
        return bool(row) and not self.next_ranks(row)
