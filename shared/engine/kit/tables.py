"""Value and order tables of the two decks, by the name players know them by.

Keys are rank numbers (``cards.rank``): Spanish 1..12 (10 sota, 11 caballo, 12 rey),
English A=1 .. K=13.
"""

from __future__ import annotations

from ..cards import rank

#: Escoba, Nervioso: 1..7 at face, sota 8, caballo 9, rey 10 (a 40-card deck counts 1..10).
SPANISH_COUNT = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 8, 11: 9, 12: 10}
#: Chinchón, Siete y Media-style face values: figures are worth 10 (Siete y Media: a half).
SPANISH_FACE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 10, 12: 10}
#: Brisca and Tute: the order of strength, 1 > 3 > rey > caballo > sota > 7 > ... > 2.
BRISCA_STRENGTH = {1: 10, 3: 9, 12: 8, 11: 7, 10: 6, 7: 5, 6: 4, 5: 3, 4: 2, 2: 1}
#: Brisca and Tute: points of the cards taken (120 in the deck).
BRISCA_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
#: The 40-card Spanish sequence: 7 is followed by the sota (Chinchón runs, solitaires).
SPANISH_SEQUENCE_40 = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 10: 7, 11: 8, 12: 9}
#: The 48-card Spanish sequence 1..12.
SPANISH_SEQUENCE_48 = {r: r - 1 for r in range(1, 13)}
#: English ranks with the ace low: A=1 .. K=13 (rank numbers as they are).
ENGLISH_ACE_LOW = {r: r for r in range(1, 14)}
#: English ranks with the ace high: 2 .. K, A=14.
ENGLISH_ACE_HIGH = {**{r: r for r in range(2, 14)}, 1: 14}

TABLES = {
    "spanish-count": SPANISH_COUNT,
    "spanish-face": SPANISH_FACE,
    "brisca-strength": BRISCA_STRENGTH,
    "brisca-points": BRISCA_POINTS,
    "spanish-sequence-40": SPANISH_SEQUENCE_40,
    "spanish-sequence-48": SPANISH_SEQUENCE_48,
    "english-ace-low": ENGLISH_ACE_LOW,
    "english-ace-high": ENGLISH_ACE_HIGH,
}


def value_of(card: str, table: dict[int, int], default: int = 0) -> int:
    """A card's value in ``table`` (``default`` for a rank the table leaves out, e.g. the joker)."""
    return table.get(rank(card), default)
