"""TRANSITIONAL: the events of Cinquillo as found, until its module declares them.

Delete this file when shared/games/cinquillo.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import PRIVATE
from shared.engine.fields import BOOL, CARD, INT, INTS, STR
from shared.engine.kit import dealing, ending
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "cinquillo"
DECK = SPANISH_DECK
EVENTS = (
    dealing.DEALT,
    found("eliminated", seat=INT),  # not met in random matches
    found("extra_play", seat=INT),
    found("extra_play_lost", seat=INT),
    ending.MATCH_FINISHED,
    found("passed", extra_play=BOOL, paid=INT, pot=INT, seat=INT),
    found("played", card=CARD, row=STR, seat=INT, span=INTS),
    found("round_started", opener=INT, round=INT),
    found("round_won", cards_left=INTS, last_standing=BOOL, points=INT, pot=INT, round=INT, seat=INT),
    found("spare_card", visibility=PRIVATE, card=CARD, seat=INT),
)  # fmt: skip
