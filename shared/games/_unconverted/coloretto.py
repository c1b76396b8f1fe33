"""TRANSITIONAL: the events of Coloretto as found, until its module declares them.

Delete this file when shared/games/coloretto.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import CARD, CARDS, INT, STR, list_of, obj
from shared.engine.kit import ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "coloretto"
DECK = ENGLISH_DECK
EVENTS = (
    found("choose_suits"),
    found("chose", seat=INT, suit=STR),
    found("dealt", cards=CARDS, dealer=INT, first=INT),
    found("drew", card=CARD, seat=INT, stock=INT),
    ending.MATCH_FINISHED.extend(scoring=list_of(obj(counts=obj(C=INT, D=INT, H=INT, S=INT), jokers=INT, points=INT, positive=STR))),
    found("placed", card=CARD, row=INT, seat=INT),
    found("round_over", round=INT, stock=INT),
    found("round_started", first=INT, round=INT),
    found("sat_out", seat=INT),  # not met in random matches
    found("took", cards=CARDS, row=INT, seat=INT),
)  # fmt: skip
