"""``easy``, ``medium`` and ``hard`` for every game: the same search with growing budgets.

A level's budget is a number of iterations (sampled deals), so a level plays the same on a
loaded machine as on an idle one; its time limit is only a safety net, far above what the
iterations take on an idle core. Iterations cost from 0.1 ms (Siete y Media) to 5 ms
(Presidente), so each game's budgets are multiples of its own ``SPEED``: ``hard``
searches what one core of the reference machine searches in about 200 ms, ``medium`` a
fifth of that; ``easy`` searches 40 deals with short playouts in every game, hardly past
its own move (a one-ply greedy). A game with a hand-written heuristic may register its
own ``easy`` (Brisca's is its ``greedy``).
"""

from __future__ import annotations

import random

from shared.engine import Action
from shared.engine.sampling import game_of

from . import random_play  # noqa: F401  (registered first: the catalog lists it first)
from .registry import ANY_GAME, register
from .search import Budget, search

#: Iterations of the search one core of the reference machine (the project's 2-core CI
#: machine, idle) makes in 100 ms, per game: the median over 16 decisions of the base
#: variant's first player, measured with a time budget (``python bench/bots.py --levels
#: hard`` prints each game's iterations and milliseconds per decision, to check them).
SPEED: dict[str, int] = {
    "bolsas-de-dinero": 41, "brisca": 270, "canasta": 60, "chinchon": 120, "cinquillo": 240,
    "ciruela": 200, "coloretto": 270, "e-card": 430, "el-9": 120, "escoba": 200,
    "exploradores": 70, "gentei-janken": 220, "la-granja": 28, "ladrones-de-tumbas": 270,
    "nervioso": 41, "noventa-y-nueve": 380, "palacio": 48, "presidente": 20, "raj": 240,
    "siete-y-media": 810, "solitario-4-ases": 250, "solitario-espanol": 400,
    "solitario-golf": 250, "solitario-piramide": 430, "truco": 390, "veneno": 210,
}  # fmt: skip
EASY = Budget(iterations=40, millis=150.0, rollout_steps=60)
#: The levels above ``easy``: (iterations in units of the game's ``SPEED``, safety net in ms).
DEEPER: dict[str, tuple[float, float]] = {"medium": (0.4, 400.0), "hard": (2.0, 900.0)}
LEVELS = ("easy", *DEEPER)


def budget(level: str, game_id: str) -> Budget:
    """The budget of ``level`` in ``game_id`` (a game missing from ``SPEED`` counts as 100)."""
    if level == "easy":
        return EASY
    share, millis = DEEPER[level]
    iterations = max(EASY.iterations, round(share * SPEED.get(game_id, 100)))
    return Budget(iterations=iterations, millis=millis)


def _level(name: str) -> None:
    def play(view: dict, rng: random.Random) -> Action:
        return search(view, rng, budget(name, game_of(view).id))

    play.__name__ = f"{name}_search"
    play.__doc__ = f"Information-set MCTS with the {name} budget of the view's game."
    register(ANY_GAME, name)(play)


for _name in LEVELS:
    _level(_name)
