"""TRANSITIONAL: the events of E-Card as found, until its module declares them.

Delete this file when shared/games/e_card.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import PRIVATE
from shared.engine.fields import BOOL, CARD, CARDS, INT
from shared.engine.kit import dealing, ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "e-card"
DECK = ENGLISH_DECK
EVENTS = (
    found("automatic_loss", round=INT, seat=INT),
    found("card_committed", visibility=PRIVATE, card=CARD, seat=INT, timeout=BOOL),
    found("cards_revealed", cards=CARDS, round=INT, winner=INT.or_null()),
    dealing.DEALT,
    found("duel_open", first=INT, round=INT),
    ending.MATCH_FINISHED,
    found("pile_chosen", pile=INT, seat=INT),
    found("piles_formed", chooser=INT, round=INT),
    found("round_won", round=INT, seat=INT),
    found("sides_dealt", emperor=INT, round=INT, slave=INT),  # not met in random matches
)  # fmt: skip
