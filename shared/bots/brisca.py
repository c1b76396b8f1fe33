"""``greedy`` for Brisca and its Tute variants: win tricks cheaply, keep trumps and points.

The rules it reasons with (strength, card points, who takes a trick) come from the game
module and the kit, so the bot and the game can never disagree.
"""

from __future__ import annotations

import random

from shared.engine import Action, State, rank, suit
from shared.engine.kit.tables import BRISCA_STRENGTH
from shared.engine.kit.tricks import trick_winner
from shared.games.brisca import CARD_POINTS, BriscaData

from .registry import register
from .search import rollout_policy

ROLLOUT_RANDOM = 0.25  # the share of playout moves made at random (greedy alone is too sure)


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
    trick = view["zones"]["trick"]["cards"]
    seat, teams = view["seat"], view.get("teams") or []
    partner_winning = bool(trick) and any(
        seat in t and view["trick_seats"][_winning(trick, trump)] in t for t in teams
    )
    return {"type": "play", "card": pick_card(plays, trick, trump, values, partner_winning)}


def pick_card(
    plays: list[str], trick: list[str], trump: str, values: dict, partner_winning: bool
) -> str:
    """Greedy's card: lead the cheapest; take a trick worth it with the cheapest winner;
    load points on a partner's trick; else throw the cheapest."""

    def cost(card: str) -> tuple:  # what we give away by playing it
        return (suit(card) == trump, values.get(rank(card), 0), BRISCA_STRENGTH[rank(card)])

    if not trick:
        return min(plays, key=cost)
    if partner_winning:
        safe = [c for c in plays if suit(c) != trump]
        return max(safe or plays, key=lambda c: values.get(rank(c), 0))
    at_stake = sum(values.get(rank(c), 0) for c in trick)
    winners = [c for c in plays if _beats(c, trick, trump)]
    if winners and (at_stake >= 10 or any(suit(c) != trump for c in winners)):
        return min(winners, key=cost)
    return min(plays, key=cost)


@rollout_policy("brisca")
def brisca_rollouts(state: State, options: list[tuple], rng: random.Random) -> tuple:
    """Playouts mostly as greedy plays (songs and exchanges first), now and then at random."""
    if rng.random() < ROLLOUT_RANDOM:
        return rng.choice(options)
    for option in options:
        if option[1]["type"] != "play":
            return option
    seat = options[0][0]
    data = BriscaData.of(state)
    trick = state.cards("trick")
    partner_winning = (
        bool(trick)
        and bool(state.teams)
        and (data.trick_seats[_winning(trick, data.trump)] in state.team_of(seat))
    )
    values = CARD_POINTS[state.options["card_points"]]
    plays = [a["card"] for s, a in options if s == seat]
    card = pick_card(plays, trick, data.trump, values, partner_winning)
    return (seat, {"type": "play", "card": card})
