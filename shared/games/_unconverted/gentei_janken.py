"""TRANSITIONAL: the events of Gentei Janken as found, until its module declares them.

Delete this file when shared/games/gentei_janken.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import PRIVATE
from shared.engine.fields import BOOL, CARD, CARDS, INT, INTS, STR
from shared.engine.kit import dealing, ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "gentei-janken"
DECK = ENGLISH_DECK
EVENTS = (
    found("card_committed", visibility=PRIVATE, card=CARD, seat=INT, timeout=BOOL),
    found("cards_given", visibility=PRIVATE, cards=CARDS, seat=INT, to=INT),  # not met in random matches
    found("cards_revealed", cards=CARDS, seats=INTS, winner=INT.or_null()),
    found("challenged", opponent=INT, seat=INT),
    found("chips_taken", chips=INT, loser=INT, seat=INT),
    dealing.DEALT,
    found("eliminated", discarded=INT, seat=INT),
    ending.MATCH_FINISHED.extend(reason=STR),
    found("turn", seat=INT),
)  # fmt: skip
