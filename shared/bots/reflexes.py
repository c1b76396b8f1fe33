"""How fast a bot reacts in a reflex window (a slap, an animal's call): like a person, never
at machine speed, and now and then not at all.

A reaction's delay is log-normal around a median with a floor (the fastest a person
slaps), and a bot misses a window outright with some probability, or when its delay
would land after the window closes. The dispatcher draws one delay per notification of
an open reflex window and schedules the bot's move then (services/bots/dispatcher.py).
Settings: ``BOTS_REFLEX_MEDIAN_S``, ``BOTS_REFLEX_SPREAD``, ``BOTS_REFLEX_FASTEST_S`` and
``BOTS_REFLEX_MISS``.

Outside a reflex window a reflex game's calls (Nervioso's slap, La Granja's animal sounds)
are legal at every moment and penalised: a person makes one only by mistake, and waits
meanwhile. ``choose_at_table`` gives a bot at a live table that patience.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from shared.engine import Action, Game
from shared.engine.sampling import game_of

from .registry import choose

#: The deadline kinds of reflex windows (``kit.reaction``); a sealed commit is no reflex.
REFLEX_WINDOWS = ("reaction",)
#: How often the random bot makes a reflex call with no window open, when it could (a
#: person's slip: now and then, never at every entry).
RANDOM_SLIP = 0.03


@dataclass(frozen=True)
class Reflexes:
    median_s: float = 0.8  # half the reactions come sooner than this
    spread: float = 0.35  # sigma of the log-normal: how much one reaction differs from another
    fastest_s: float = 0.3  # nobody reacts faster
    miss: float = 0.1  # the chance of not reacting at all

    def delay(self, rng: random.Random, window_s: float) -> float | None:
        """Seconds after the window opened when the bot acts, or None: it misses this one."""
        if rng.random() < self.miss:
            return None
        seconds = max(self.fastest_s, self.median_s * math.exp(self.spread * rng.gauss(0, 1)))
        return seconds if seconds < window_s else None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Reflexes:
        d = cls()
        return cls(
            median_s=float(env.get("BOTS_REFLEX_MEDIAN_S") or d.median_s),
            spread=float(env.get("BOTS_REFLEX_SPREAD") or d.spread),
            fastest_s=float(env.get("BOTS_REFLEX_FASTEST_S") or d.fastest_s),
            miss=float(env.get("BOTS_REFLEX_MISS") or d.miss),
        )


@functools.cache
def reflex_calls(game: Game) -> frozenset[str]:
    """The action types the game declares as reflex calls (``ActionType(reflex=True)``)."""
    return frozenset(name for name, kind in game.action_table.items() if kind.reflex)


def choose_at_table(view: dict, name: str, rng: random.Random, slips: bool = True) -> Action | None:
    """What bot strategy ``name`` plays in this view at a live table, or None: it waits for
    the next entry. With no reflex window open it leaves a reflex game's penalised calls
    out (the random bot makes one at a rate of ``RANDOM_SLIP``, unless ``slips`` is False:
    a turn timer playing for an absent person), and waits when nothing
    else is legal; otherwise its choice is the strategy's own (``choose``)."""
    calls = reflex_calls(game_of(view))
    if not calls or (view.get("deadline") or {}).get("kind") in REFLEX_WINDOWS:
        return choose(view, name, rng)
    if slips and name == "random" and rng.random() < RANDOM_SLIP:
        return choose(view, name, rng)
    calm = [action for action in view["legal_actions"] if action["type"] not in calls]
    return choose({**view, "legal_actions": calm}, name, rng) if calm else None
