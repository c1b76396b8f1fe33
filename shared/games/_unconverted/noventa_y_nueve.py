"""TRANSITIONAL: the events of 99 as found, until its module declares them.

Delete this file when shared/games/noventa_y_nueve.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import CARD, CARDS, INT, INTS, STR
from shared.engine.kit import dealing, ending, shedding
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "noventa-y-nueve"
DECK = ENGLISH_DECK
EVENTS = (
    found("bust", seat=INT, total=INT),
    found("deal", first=INT, round=INT),
    dealing.DEALT,
    shedding.DREW,
    found("eliminated", seat=INT),  # not met in random matches
    ending.MATCH_FINISHED.extend(loser=INT.maybe(), reason=STR),
    found("played", card=CARD, seat=INT, ten=STR.or_null(), total=INT),
    found("tokens_lost", seats=INTS),  # not met in random matches
    found("total", total=INT),
    found("trio", cards=CARDS, seat=INT),
    shedding.TURNED_UP,
    shedding.RESTOCKED,
)  # fmt: skip
