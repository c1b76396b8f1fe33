"""Bot strategies, by game: each picks an action from a seat's own view, never from the hidden state.

A bot sees exactly what a person in its seat sees (the view the lobby serves it), so it
cannot cheat. Strategies are registered by (game, name): ``random``, ``easy``, ``medium``
and ``hard`` play every game (``levels``: an information-set search over deals
consistent with the view, ``search``); ``greedy`` plays Brisca and its Tute variants,
and is Brisca's ``easy`` too. ``strategies(game)`` lists what a game
offers; ``choose`` refuses a strategy the game does not have instead of playing another.
"""

from __future__ import annotations

from . import brisca, chinchon, levels, raj, random_play, truco  # noqa: F401  (each module registers its strategies)
from .registry import (
    ANY_GAME,
    Strategy,
    UnknownStrategy,
    all_strategies,
    catalog_entry,
    choose,
    register,
    strategies,
    strategy,
    strategy_version,
)

__all__ = [
    "ANY_GAME", "Strategy", "UnknownStrategy", "all_strategies", "catalog_entry", "choose", "register",
    "strategies", "strategy", "strategy_version",
]  # fmt: skip
