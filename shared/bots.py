"""Bot strategies: each picks an action from a seat's own view, never from the hidden state.

A bot sees exactly what a human in its seat sees (the view the lobby serves it),
so it cannot cheat. ``random`` plays any game; ``greedy`` knows Brisca and its
Tute variants and falls back to ``random`` elsewhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from shared.engine import Action, rank, suit

Strategy = Callable[[dict, random.Random], Action]


def random_strategy(view: dict, rng: random.Random) -> Action:
    """Any legal action."""
    return rng.choice(view["legal_actions"])


# -- greedy Brisca: win tricks cheaply, keep trumps and points ---------------------------------
STRENGTH = {1: 10, 3: 9, 12: 8, 11: 7, 10: 6, 7: 5, 6: 4, 5: 3, 4: 2, 2: 1}
POINTS = {
    "standard": {1: 11, 3: 10, 12: 4, 11: 3, 10: 2},
    "aces-and-threes": {1: 10, 3: 10},
}


def _beats(card: str, best: str, led: str, trump: str) -> bool:
    if suit(card) == suit(best):
        return STRENGTH[rank(card)] > STRENGTH[rank(best)]
    return suit(card) == trump or (suit(card) == led and suit(best) not in (led, trump))


def _winning(trick: list[str], trump: str) -> int:
    best = 0
    for i in range(1, len(trick)):
        if _beats(trick[i], trick[best], suit(trick[0]), trump):
            best = i
    return best


def greedy_brisca(view: dict, rng: random.Random) -> Action:
    """Sing and exchange when offered; win a trick worth taking with the cheapest winner,
    otherwise throw the card that costs least (few points, not a trump)."""
    actions = view["legal_actions"]
    for kind in ("sing", "claim", "exchange"):
        offered = [a for a in actions if a["type"] == kind]
        if kind == "sing" and offered:
            trump_first = sorted(offered, key=lambda a: a["suit"] != view["trump"])
            return trump_first[0]
        if offered:
            return offered[0]
    trump = view["trump"]
    values = POINTS[view["options"]["card_points"]]
    plays = [a["card"] for a in actions if a["type"] == "play"]

    def cost(card: str) -> tuple:  # what we give away by playing it
        return (suit(card) == trump, values.get(rank(card), 0), STRENGTH[rank(card)])

    trick = view["zones"]["trick"]["cards"]
    if not trick:
        return {"type": "play", "card": min(plays, key=cost)}
    best = _winning(trick, trump)
    seat, teams = view["seat"], view.get("teams") or []
    partner_winning = any(seat in t and view["trick_seats"][best] in t for t in teams)
    at_stake = sum(values.get(rank(c), 0) for c in trick)
    winners = [c for c in plays if _beats(c, trick[best], suit(trick[0]), trump)]
    if partner_winning:
        safe = [c for c in plays if suit(c) != trump]
        return {"type": "play", "card": max(safe or plays, key=lambda c: values.get(rank(c), 0))}
    if winners and (at_stake >= 10 or any(suit(c) != trump for c in winners)):
        return {"type": "play", "card": min(winners, key=cost)}
    return {"type": "play", "card": min(plays, key=cost)}


GREEDY: dict[str, Strategy] = {"brisca": greedy_brisca}
STRATEGIES = ("random", "greedy")


def choose(view: dict, strategy: str, rng: random.Random) -> Action:
    """The bot's action for this view (which must list at least one legal action)."""
    if strategy == "greedy" and view["game"] in GREEDY:
        return GREEDY[view["game"]](view, rng)
    return random_strategy(view, rng)
