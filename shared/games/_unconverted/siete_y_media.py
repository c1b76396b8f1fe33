"""TRANSITIONAL: the events of Siete y media as found, until its module declares them.

Delete this file when shared/games/siete_y_media.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, CARDS, INT, INTS, NUMBER, STR, list_of
from shared.engine.kit import dealing, ending
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "siete-y-media"
DECK = SPANISH_DECK
EVENTS = (
    found("antes", stakes=INTS),
    found("busted", seat=INT),
    dealing.DEALT,
    found("discarded", card=CARD, face_down_card=BOOL, seat=INT),
    found("hand_shown", cards=CARDS, seat=INT, total=NUMBER),
    found("hit", card=CARD, seat=INT),
    found("house_busted", total=NUMBER),
    found("house_card", card=CARD, total=NUMBER),
    found("house_card_face_down"),  # not met in random matches
    found("house_revealed", card=CARD, total=NUMBER),  # not met in random matches
    found("house_stood", total=NUMBER),
    found("kept", phase=STR, seat=INT),
    ending.MATCH_FINISHED.extend(reason=STR.maybe()),
    found("phase_started", phase=STR),
    found("raised", chips=INT, seat=INT, stake=INT),
    found("round_scored", house=NUMBER, outcomes=list_of(STR.or_null()), points=INTS, round=INT),
    found("round_started", first=INT, round=INT),
    found("stood", seat=INT),
)  # fmt: skip
