"""TRANSITIONAL: the events of Solitario golf as found, until its module declares them.

Delete this file when shared/games/solitario_golf.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, INT, INTS, STR
from shared.engine.kit import ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "solitario-golf"
DECK = ENGLISH_DECK
EVENTS = (
    found("deal", columns=INTS, stock=INT),
    found("drawn", card=CARD, seat=INT),
    ending.MATCH_FINISHED.extend(cards_left=INT, reason=STR, stock_left=INT, won=BOOL),
    found("played", card=CARD, column=STR, exposed=CARD.or_null(), seat=INT),
)  # fmt: skip
