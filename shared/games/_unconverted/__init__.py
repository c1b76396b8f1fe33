"""TRANSITIONAL: the event declarations of the games whose modules do not declare them yet.

Each game declares its events beside its action table (``shared.engine.events``), with their
sentences in Spanish and English. The games not converted yet have theirs here, one module
per game (``canasta.py``: its ``GAME``, the ``DECK`` whose card names it uses, its
``EVENTS``), as they were found: fields and kinds as the game emits them, no sentences (a
client reads a plain "who: what" for them). ``adopt`` gives each game its declarations at
import (``shared/games/__init__.py``).

Converting a game moves its declarations into its module, with sentences, view fields and
facts (docs/engine.md, "Converting a game"), and deletes its file here; the last conversion
deletes this package and the call to ``adopt``.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from shared.engine.events import EventType
from shared.engine.game import Game

#: The meaning of an event declared as found.
UNDECLARED = "(declared as found; its game gives it a meaning and sentences when converted)"


def found(type: str, **fields: Any) -> EventType:
    """An event type as found: its fields, and ``visibility`` if it is private."""
    return EventType(type, UNDECLARED, **fields)


def _load() -> dict[str, tuple[str, tuple[EventType, ...]]]:
    entries = {}
    for module in pkgutil.iter_modules(__path__):
        entry = importlib.import_module(f"{__name__}.{module.name}")
        entries[entry.GAME] = (entry.DECK, entry.EVENTS)
    return entries


#: game id -> (its deck's names, its events), for every game not converted yet.
UNCONVERTED: dict[str, tuple[str, tuple[EventType, ...]]] = _load()


def adopt(games: dict[str, Game]) -> None:
    """Give each game listed here its declared events and deck; refuse one that declares its
    own events and still has a file here."""
    for game_id, (deck, events) in UNCONVERTED.items():
        cls = type(games[game_id])
        if cls.event_table:
            raise TypeError(f"{game_id} declares its events: delete {__name__}.{game_id}")
        cls.event_table = {e.type: e for e in events}
        cls.deck_kind = deck
