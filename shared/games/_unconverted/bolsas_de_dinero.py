"""TRANSITIONAL: the events of Bolsas de dinero as found, until its module declares them.

Delete this file when shared/games/bolsas_de_dinero.py declares its events (docs/engine.md,
"Converting a game")."""

from __future__ import annotations

from shared.engine.events import PRIVATE
from shared.engine.fields import CARD, INT, INTS, STR, map_of
from shared.engine.kit import dealing, ending
from shared.engine.language import ENGLISH_DECK

from . import found

GAME = "bolsas-de-dinero"
DECK = ENGLISH_DECK
EVENTS = (
    found("bag_filled", bag=INT, face_up=CARD, seat=INT),
    found("bag_opened", visibility=PRIVATE, bag=INT, card=CARD, seat=INT),
    dealing.DEALT,
    found("drew", face_up=CARD, pile=INT, seat=INT),
    found("game_over", cards_in_hand=INTS, empty_bags=INTS, game=INT, numbers=map_of(INTS), points=INTS, reason=STR),
    found("game_started", dealer=INT, game=INT),
    ending.MATCH_FINISHED.extend(reason=STR),
    found("pile_refilled", face_up=CARD, pile=INT),
    found("turn", points=INT, seat=INT),
)  # fmt: skip
