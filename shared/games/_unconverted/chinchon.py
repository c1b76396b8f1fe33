"""TRANSITIONAL: the events of Chinchón as found, until its module declares them.

Delete this file when shared/games/chinchon.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import MAYBE_PRIVATE, PRIVATE
from shared.engine.fields import CARD, CARDS, INT, INTS, STR, Field, list_of, obj
from shared.engine.kit import dealing, ending, shedding
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "chinchon"
DECK = SPANISH_DECK
EVENTS = (
    found("closed", visibility=PRIVATE, card=CARD, close=STR, groups=Field("card-groups"), loose=CARDS, seat=INT),
    found("deal", dealer=INT, first=INT, round=INT),
    dealing.DEALT,
    found("discard_started", card=CARD),
    found("discarded", card=CARD, seat=INT),
    found("done", seat=INT),
    found("drew", visibility=MAYBE_PRIVATE, card=CARD, seat=INT, source=STR),
    found("eliminated", seat=INT),
    found("hand_scored", close=STR.or_null(), closer=INT.or_null(), hands=list_of(obj(groups=Field("card-groups"), loose=CARDS, seat=INT)), points=INTS, round=INT),
    found("laid_off", card=CARD, group=INT, seat=INT),
    ending.MATCH_FINISHED,
    shedding.RESTOCKED,
    found("stock_exhausted", restocks=INT),
)  # fmt: skip
