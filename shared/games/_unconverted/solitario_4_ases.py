"""TRANSITIONAL: the events of Solitario de los 4 ases as found, until its module declares them.

Delete this file when shared/games/solitario_4_ases.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, CARDS, INT, STR
from shared.engine.kit import ending
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "solitario-4-ases"
DECK = SPANISH_DECK
EVENTS = (
    found("aces_placed", cards=CARDS),
    found("deal", stock=INT),
    ending.MATCH_FINISHED.extend(reason=STR, won=BOOL),
    found("played", card=CARD, seat=INT, to=STR),
    found("released", card=CARD, seat=INT),
    found("renewed", seat=INT, shuffled=BOOL, tokens=INT.or_null()),
    found("reserved", card=CARD, seat=INT),
    found("revealed", cards=CARDS, seat=INT),
)  # fmt: skip
