"""TRANSITIONAL: the events of Escoba as found, until its module declares them.

Delete this file when shared/games/escoba.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, CARDS, INT, INTS, list_of
from shared.engine.kit import dealing, ending
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "escoba"
DECK = SPANISH_DECK
EVENTS = (
    found("captured", card=CARD, escoba=BOOL, seat=INT, take=CARDS),
    found("deal", round=INT, starter=INT),
    found("deal_scored", cards=INT.or_null(), escobas=INTS, oros=INT.or_null(), points=INTS, primera=INT.or_null(), primera_points=INT, primera_sums=list_of(INT.or_null()), round=INT, seven_of_oros=INT.or_null()),
    dealing.DEALT,
    found("fifteen_in_hand", cards=CARDS, seat=INT),
    found("fifteen_on_table", cards=CARDS, escobas=INT, seat=INT),
    found("fifteen_on_table_race", cards=CARDS),  # not met in random matches
    found("fifteen_on_table_unclaimed"),  # not met in random matches
    ending.MATCH_FINISHED,
    found("played", card=CARD, seat=INT),
    found("table_dealt", cards=CARDS),
    found("took_leftover", cards=CARDS, seat=INT),
)  # fmt: skip
