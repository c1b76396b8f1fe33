"""Chinchón's playouts: keep what groups, throw the dearest loose card, close when possible.

Random play almost never closes a hand (hundreds of turns without a score), so a random
playout tells the search nothing; these close a hand in a few dozen turns, and what they
score is what the position was worth.
"""

from __future__ import annotations

import random

from shared.engine import State, get_game, rank, suit
from shared.engine.kit.zones import hand
from shared.games.chinchon import Chinchon, Rules

from .search import rollout_policy

ROLLOUT_RANDOM = 0.1  # the share of playout moves made at random


STEP = {r: i for i, r in enumerate((1, 2, 3, 4, 5, 6, 7, 10, 11, 12))}  # runs follow 7 -> 10


def ties(card: str, cards: list[str]) -> int:
    """How many of ``cards`` could group with ``card``: same number, or next in its suit
    (a quick stand-in for the best grouping, which a playout cannot afford every turn)."""
    r, s = rank(card), suit(card)
    if r not in STEP:  # a joker groups with anything
        return len(cards) - 1
    return sum(
        c != card
        and (
            rank(c) == r
            or rank(c) not in STEP
            or (suit(c) == s and abs(STEP[rank(c)] - STEP[r]) <= 2)
        )
        for c in cards
    )


def discard_for(rules: Rules, cards: list[str]) -> str:
    """The card that groups least with the others, the dearest of those."""
    return min(cards, key=lambda c: (ties(c, cards), -rules.value(c)))


def takes_discard(cards: list[str], top: str) -> bool:
    """Whether the discard pile's top card groups with two cards of the hand."""
    return ties(top, cards) >= 2


@rollout_policy("chinchon")
def chinchon_rollouts(state: State, options: list[tuple], rng: random.Random) -> tuple:
    """Close if possible; draw the discard when it groups; discard the dearest loose card;
    lay off what fits. Now and then a random move."""
    if rng.random() < ROLLOUT_RANDOM:
        return rng.choice(options)
    seat = options[0][0]
    mine = [a for s, a in options if s == seat]
    kinds = {a["type"]: a for a in mine}
    for kind in ("close", "lay_off"):
        if kind in kinds:
            return seat, kinds[kind]
    game = get_game(state.game)
    assert isinstance(game, Chinchon)
    rules, cards = game.rules_of(state), state.cards(hand(seat))
    if "draw" in kinds:
        pile = state.cards("discard")
        source = "discard" if pile and takes_discard(cards, pile[-1]) else "stock"
        if any(a.get("source") == source for a in mine):
            return seat, {"type": "draw", "source": source}
    if "discard" in kinds:
        return seat, {"type": "discard", "card": discard_for(rules, cards)}
    return rng.choice(options)
