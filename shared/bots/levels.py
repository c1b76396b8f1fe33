"""``easy``, ``medium`` and ``hard`` for every game: the same search with growing budgets.

``easy`` searches a few dozen sampled deals, hardly past its own move (a one-ply greedy
judged by short random playouts); ``medium`` and ``hard`` build a deeper tree with more
deals. Each budget caps iterations and milliseconds, whichever comes first, so ``hard``
answers in well under a second on any game. A game with a hand-written heuristic may
register its own ``easy`` (Brisca's is its ``greedy``).
"""

from __future__ import annotations

import random

from shared.engine import Action

from . import random_play  # noqa: F401  (registered first: the catalog lists it first)
from .registry import ANY_GAME, register
from .search import Budget, search

LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=40, millis=40.0, rollout_steps=60),
    "medium": Budget(iterations=400, millis=120.0),
    "hard": Budget(iterations=4000, millis=220.0),
}


def _level(name: str) -> None:
    budget = LEVELS[name]

    def play(view: dict, rng: random.Random) -> Action:
        return search(view, rng, budget)

    play.__name__ = f"{name}_search"
    play.__doc__ = f"Information-set MCTS with the {name} budget ({budget})."
    register(ANY_GAME, name)(play)


for _name in LEVELS:
    _level(_name)
