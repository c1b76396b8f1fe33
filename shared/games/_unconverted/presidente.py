"""TRANSITIONAL: the events of Presidente as found, until its module declares them.

Delete this file when shared/games/presidente.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import PRIVATE
from shared.engine.fields import BOOL, CARDS, INT, INTS, STR, list_of
from shared.engine.kit import dealing, ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "presidente"
DECK = ENGLISH_DECK
EVENTS = (
    found("capital_fall", seat=INT),
    dealing.DEALT,
    found("exchanged", visibility=PRIVATE, cards=CARDS, seat=INT, to=INT),
    found("lead", seat=INT),
    ending.MATCH_FINISHED.extend(president=INT),
    found("passed", seat=INT),
    found("pile_cleared", reason=STR, seat=INT),
    found("played", cards=CARDS, seat=INT, value=STR),
    found("revolution", on=BOOL),
    found("round_over", order=INTS, ranks=list_of(STR), round=INT),
    found("round_started", dealer=INT, round=INT),
    found("swap_committed", visibility=PRIVATE, cards=CARDS, seat=INT, timeout=BOOL),
    found("swap_open", count=INT, seats=INTS),
    found("swapped", visibility=PRIVATE, cards=CARDS, seat=INT, to=INT),
    found("went_out", place=INT, seat=INT),
)  # fmt: skip
