"""TRANSITIONAL: the events of Nervioso as found, until its module declares them.

Delete this file when shared/games/nervioso.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.fields import BOOL, CARD, CARDS, INT, INTS, NUMBER, STR, either
from shared.engine.kit import ending
from shared.engine.language import SPANISH_DECK

from . import found

GAME = "nervioso"
DECK = SPANISH_DECK
EVENTS = (
    found("dealt", first=INT, hand_size=INT, pile=CARDS),
    ending.MATCH_FINISHED.extend(reason=STR),
    found("penalty", seat=INT, taken=INTS),
    found("played", card=CARD, count=INT, match=BOOL, said=either(INT, STR).or_null(), seat=INT),
    found("slapped", match=BOOL, order=INT.maybe(), seat=INT),
    found("threw", card=CARD, seat=INT),
    found("took_pile", reason=STR, seat=INT, taken=INT),
    found("window_closed", late=INTS),
    found("window_opened", seat=INT, seconds=NUMBER),
)  # fmt: skip
