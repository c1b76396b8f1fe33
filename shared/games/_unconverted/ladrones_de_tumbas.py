"""TRANSITIONAL: the events of Ladrones de tumbas as found, until its module declares them.

Delete this file when shared/games/ladrones_de_tumbas.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import MAYBE_PRIVATE
from shared.engine.fields import BOOL, CARD, CARDS, INT, INTS, STR, Field, map_of, obj
from shared.engine.kit import dealing, ending, shedding
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "ladrones-de-tumbas"
DECK = ENGLISH_DECK
EVENTS = (
    found("deal", dealer=INT, first=INT),
    dealing.DEALT,
    found("done", seat=INT),
    shedding.DREW,
    ending.MATCH_FINISHED,
    found("missions_dealt", visibility=MAYBE_PRIVATE, cards=CARDS, seat=INT),
    found("missions_revealed", missions=Field("card-groups"), points=INTS),
    found("passed", seat=INT),
    found("played", visibility=MAYBE_PRIVATE, card=CARD, face=STR, seat=INT, tomb=STR),
    found("tomb_blocked", tomb=STR),
    found("tombs_revealed", reason=STR, tombs=map_of(obj(cards=CARDS, open=BOOL, others_total=INT, suit_total=INT))),
)  # fmt: skip
