"""TRANSITIONAL: the events of Veneno as found, until its module declares them.

Delete this file when shared/games/veneno.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import CARD, CARDS, INT, INTS, list_of
from shared.engine.kit import dealing, ending, shedding
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "veneno"
DECK = SPANISH_DECK
EVENTS = (
    dealing.DEALT,
    shedding.DREW,
    ending.MATCH_FINISHED,
    found("played", card=CARD, pile=INT, seat=INT, total=INT),
    found("round_scored", copas=INTS, full_numbers=list_of(INTS), points=INTS, round=INT, scores=INTS),
    found("round_started", dealer=INT, first=INT, round=INT),
    found("took", cards=CARDS, copas=INT, pile=INT, seat=INT, total=INT),
)  # fmt: skip
