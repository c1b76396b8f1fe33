"""``random``: any legal action, for every game."""

from __future__ import annotations

import random

from shared.engine import Action

from .registry import ANY_GAME, register


@register(ANY_GAME, "random")
def random_strategy(view: dict, rng: random.Random) -> Action:
    """Any legal action."""
    return rng.choice(view["legal_actions"])
