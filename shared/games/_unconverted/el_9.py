"""TRANSITIONAL: the events of El 9 as found, until its module declares them.

Delete this file when shared/games/el_9.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, CARDS, INT, STR
from shared.engine.kit import ending
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "el-9"
DECK = SPANISH_DECK
EVENTS = (
    found("deal", columns=INT, rows=INT, stock=INT),
    found("declined", seat=INT),  # not met in random matches
    found("discarded", card=CARD, move_granted=BOOL, seat=INT),
    ending.MATCH_FINISHED.extend(perfect=BOOL, reason=STR, won=BOOL),
    found("moved", card=CARD, **{"from": STR}, seat=INT, to=STR),
    found("paired", cards=CARDS, seat=INT),
    found("placed", card=CARD, seat=INT, to=STR),
    found("revealed", card=CARD, seat=INT),
)  # fmt: skip
