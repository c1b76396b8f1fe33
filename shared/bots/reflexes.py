"""How fast a bot reacts in a reflex window (a slap, an animal's call): like a person, never
at machine speed, and now and then not at all.

A reaction's delay is log-normal around a median with a floor (the fastest a person
slaps), and a bot misses a window outright with some probability, or when its delay
would land after the window closes. The dispatcher draws one delay per notification of
an open reflex window and schedules the bot's move then (services/bots/dispatcher.py).
Settings: ``BOTS_REFLEX_MEDIAN_S``, ``BOTS_REFLEX_SPREAD``, ``BOTS_REFLEX_FASTEST_S`` and
``BOTS_REFLEX_MISS``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

#: The deadline kinds of reflex windows (``kit.reaction``); a sealed commit is no reflex.
REFLEX_WINDOWS = ("reaction",)


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
