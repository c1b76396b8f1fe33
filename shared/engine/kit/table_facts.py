"""Facts many games show the same way: cards left in the stock, cards a seat holds, the round
of the match, and a sealed commit (that a seat has committed, and to that seat its card).

A game includes the ones it shows as class attributes (``stock = STOCK_LEFT``) and lists them in its
``facts(state, seat)`` like its own (``self.stock(len(state.cards("stock")))``).
"""

from __future__ import annotations

from ..facts import FactType
from ..fields import BOOL, CARD, INT, obj
from ..language import Say

STOCK_LEFT = FactType(
    "stock",
    "cards left in the stock",
    INT,
    label=Say(es="Mazo", en="Stock"),
    says=Say(es="{value:carta|cartas} en el mazo", en="{value:card|cards} left in the stock"),
)
CARDS_HELD = FactType(
    "cards",
    "cards a seat holds",
    INT,
    per_seat=True,
    label=Say(es="Cartas", en="Cards"),
    says=Say(es="{seat}: {value:carta|cartas} en la mano", en="{seat}: {value:card|cards} in hand"),
)
ROUND_OF = FactType(
    "round",
    "which round of how many this is",
    obj(number=INT, of=INT),
    label=Say(es="Ronda", en="Round"),
    says=Say(es="Ronda {value.number} de {value.of}", en="Round {value.number} of {value.of}"),
)
COMMITTED = FactType(
    "committed",
    "a seat that has committed its card, face down (never which)",
    BOOL,
    per_seat=True,
    label=Say(es="Ha jugado", en="Has committed"),
    says=Say(es="{seat} ya ha puesto su carta", en="{seat} has committed"),
)
MY_CARD = FactType(
    "my_card",
    "the card you committed (only your view shows it)",
    CARD,
    per_seat=True,
    label=Say(es="Tu carta", en="Your card"),
    says=Say(es="Tu carta: {value:bare}", en="Your card: {value:bare}"),
)
