"""TRANSITIONAL: the events of Ciruela as found, until its module declares them.

Delete this file when shared/games/ciruela.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import CARD, INT, STR
from shared.engine.kit import dealing, ending, shedding
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "ciruela"
DECK = ENGLISH_DECK
EVENTS = (
    dealing.DEALT,
    shedding.DREW,
    ending.MATCH_FINISHED.extend(reason=STR),
    found("passed", seat=INT),  # not met in random matches
    found("played", card=CARD, seat=INT, suit=STR.or_null()),
    shedding.RESTOCKED,
    found("turn", seat=INT),
    shedding.TURNED_UP,
)  # fmt: skip
