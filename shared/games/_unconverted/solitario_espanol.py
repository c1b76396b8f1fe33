"""TRANSITIONAL: the events of Solitario español as found, until its module declares them.

Delete this file when shared/games/solitario_espanol.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, INT, STR, list_of, obj
from shared.engine.kit import ending
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "solitario-espanol"
DECK = SPANISH_DECK
EVENTS = (
    found("flipped", card=CARD, column=INT, row=INT, tokens=INT),
    found("laid_out", columns=INT, rows=INT, tokens=INT),
    ending.MATCH_FINISHED.extend(reason=STR, won=BOOL),
    found("placed", card=CARD, chain_over=BOOL.maybe(), column=INT, row=INT, took=CARD.maybe()),
    found("revealed", card=CARD),
    found("rey_out", card=CARD, reyes=INT),
    found("stays", card=CARD, column=INT, row=INT),
    found("turned_up", cells=list_of(obj(card=CARD, column=INT, row=INT))),
)  # fmt: skip
