"""TRANSITIONAL: the events of La Granja as found, until its module declares them.

Delete this file when shared/games/la_granja.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, INT, INTS, NUMBER, STR, list_of
from shared.engine.kit import ending
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "la-granja"
DECK = SPANISH_DECK
EVENTS = (
    found("animals_passed", animals=list_of(STR)),
    found("called", animal=STR, how=STR, order=INT.maybe(), race=BOOL, right=BOOL.maybe(), seat=INT),
    found("dealt", animals=list_of(STR), hand_size=INT, removed=INT),
    found("face_off", own_animal=BOOL, rank=INT, seats=INTS, seconds=NUMBER),
    found("face_off_timeout", late=INTS),
    found("face_off_undecided", seats=INTS),
    found("face_off_won", cards=INT, loser=INT, seat=INT),
    ending.MATCH_FINISHED.extend(reason=STR),
    found("penalised", given=INTS, reason=STR, seat=INT),
    found("ready", seat=INT),
    found("renewed", cards=INT, seat=INT),
    found("reveal_open"),
    found("reveal_timeout", late=INTS),
    found("revealed", card=CARD, seat=INT),
)  # fmt: skip
