"""TRANSITIONAL: the events of Solitario pirámide as found, until its module declares them.

Delete this file when shared/games/solitario_piramide.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, CARDS, INT, STR
from shared.engine.kit import ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "solitario-piramide"
DECK = ENGLISH_DECK
EVENTS = (
    found("deal", layout=INT, stock=INT),
    found("drawn", card=CARD, seat=INT),
    ending.MATCH_FINISHED.extend(cards_left=INT, reason=STR, won=BOOL),
    found("removed", cards=CARDS, seat=INT, turned=CARDS),
)  # fmt: skip
