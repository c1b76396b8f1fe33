"""TRANSITIONAL: the events of Canasta as found, until its module declares them.

Delete this file when shared/games/canasta.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import PRIVATE
from shared.engine.fields import CARD, CARDS, INT, INTS, STR, list_of, obj
from shared.engine.kit import dealing, ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "canasta"
DECK = ENGLISH_DECK
EVENTS = (
    found("added", card=CARD, group=INT, seat=INT),
    found("black_threes_canasta", seat=INT),
    found("deal", dealer=INT, first=INT, round=INT),
    dealing.DEALT,
    found("discard_started", card=CARD),
    found("discarded", card=CARD, seat=INT),
    found("drew", visibility=PRIVATE, cards=CARDS, seat=INT),
    ending.MATCH_FINISHED.extend(reason=STR),
    found("melded", cards=CARDS, group=INT, seat=INT),
    found("red_three", red_three=CARD, seat=INT),
    found("replaced", visibility=PRIVATE, cards=CARDS, seat=INT),
    found("round_scored", round=INT, sides=list_of(obj(canastas=list_of(STR), in_hand=CARDS, points=INT, red_threes=INT, seats=INTS)), went_out=INT.or_null()),
    found("stock_exhausted"),
    found("took_pile", visibility=PRIVATE, cards=CARDS, seat=INT, shown=CARDS, top=CARD),
    found("went_out", visibility=PRIVATE, card=CARD, seat=INT),  # not met in random matches
)  # fmt: skip
