"""TRANSITIONAL: the events of Exploradores as found, until its module declares them.

Delete this file when shared/games/exploradores.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import MAYBE_PRIVATE
from shared.engine.fields import CARD, INT, INTS, STR, list_of, map_of
from shared.engine.kit import dealing, ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "exploradores"
DECK = ENGLISH_DECK
EVENTS = (
    found("deal", dealer=INT, first=INT),
    dealing.DEALT,
    found("discarded", card=CARD, seat=INT),
    found("drew", visibility=MAYBE_PRIVATE, card=CARD, seat=INT, source=STR),
    found("expeditions_scored", points=INTS, rows=list_of(map_of(INT))),
    ending.MATCH_FINISHED.extend(reason=STR),
    found("placed", card=CARD, seat=INT),
)  # fmt: skip
