"""``greedy`` for Brisca and its Tute variants: win tricks cheaply, keep trumps and points.

The rules it reasons with (strength, card points, who takes a trick) come from the game
module and the kit, so the bot and the game can never disagree.
"""

from __future__ import annotations

import random

from shared.engine import Action, rank, suit
from shared.engine.kit.tables import BRISCA_STRENGTH
from shared.engine.kit.tricks import trick_winner
from shared.games.brisca import CARD_POINTS

from .registry import register


def _winning(trick: list[str], trump: str) -> int:
    winner = trick_winner(trick, BRISCA_STRENGTH, trump)
    assert winner is not None
    return winner


def _beats(card: str, trick: list[str], trump: str) -> bool:
    """Whether ``card`` would take the trick from the card winning it now."""
    return _winning([*trick, card], trump) == len(trick)


@register("brisca", "easy")
@register("brisca", "greedy")
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
    values = CARD_POINTS[view["options"]["card_points"]]
    plays = [a["card"] for a in actions if a["type"] == "play"]

    def cost(card: str) -> tuple:  # what we give away by playing it
        return (suit(card) == trump, values.get(rank(card), 0), BRISCA_STRENGTH[rank(card)])

    trick = view["zones"]["trick"]["cards"]
    if not trick:
        return {"type": "play", "card": min(plays, key=cost)}
    best = _winning(trick, trump)
    seat, teams = view["seat"], view.get("teams") or []
    partner_winning = any(seat in t and view["trick_seats"][best] in t for t in teams)
    at_stake = sum(values.get(rank(c), 0) for c in trick)
    winners = [c for c in plays if _beats(c, trick, trump)]
    if partner_winning:
        safe = [c for c in plays if suit(c) != trump]
        return {"type": "play", "card": max(safe or plays, key=lambda c: values.get(rank(c), 0))}
    if winners and (at_stake >= 10 or any(suit(c) != trump for c in winners)):
        return {"type": "play", "card": min(winners, key=cost)}
    return {"type": "play", "card": min(plays, key=cost)}
