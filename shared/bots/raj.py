"""Raj's playouts: bid in proportion to the prize, so a playout spends high cards on the big
prizes and keeps them for later ones instead of throwing them away at random."""

from __future__ import annotations

import random

from shared.engine import State, rank
from shared.games.raj import round_prize

from .search import rollout_policy

TOP_PRIZE = 11  # the largest single prize of the dice (5 + 6); prize cards go to 10


def bid_for(prize: int, cards: list[str], rng: random.Random) -> str:
    """The card whose place in the hand (lowest to highest) matches the prize's place in
    0..TOP_PRIZE, give or take one; a negative prize is given the lowest cards."""
    ordered = sorted(cards, key=rank)
    share = min(1.0, max(0.0, prize / TOP_PRIZE))
    at = round(share * (len(ordered) - 1)) + rng.randint(-1, 1)
    return ordered[min(len(ordered) - 1, max(0, at))]


@rollout_policy("raj")
def raj_rollouts(state: State, options: list[tuple], rng: random.Random) -> tuple:
    """A bidder's card by the prize; anything else (which die to roll again) at random."""
    seat, action = rng.choice(options)
    if action["type"] != "bid":
        return seat, action
    cards = [a["card"] for s, a in options if s == seat and a["type"] == "bid"]
    return seat, {"type": "bid", "card": bid_for(round_prize(state), cards, rng)}
