"""TRANSITIONAL: the events of Palacio as found, until its module declares them.

Delete this file when shared/games/palacio.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import CARD, CARDS, INT, INTS, STR
from shared.engine.kit import dealing, ending, shedding
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "palacio"
DECK = ENGLISH_DECK
EVENTS = (
    found("arranged", face_up=CARDS, seat=INT),
    found("blind_failed", face_up=CARD, seat=INT),
    found("burned", reason=STR, seat=INT),
    dealing.DEALT,
    shedding.DREW,
    found("laid", face_up=CARD, seat=INT),
    ending.MATCH_FINISHED.extend(cards_left=INTS.maybe(), reason=STR, winner=INT.maybe()),
    found("must_follow", seat=INT),
    found("picked_up", count=INT, seat=INT),
    found("pile_started", face_up=CARD),
    found("played", cards=CARDS, seat=INT, source=STR),
    found("table_dealt", dealer=INT),
    found("turn", seat=INT),
)  # fmt: skip
