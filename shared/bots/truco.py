"""Truco's playouts: answer and make calls by the hand's strength, win a baza cheaply.

Random playouts call and accept everything (a falta envido every other hand), which makes
every call look alike to the search; these answer an envido by its points and a truco by
the cards, as people do, with some random play left in.
"""

from __future__ import annotations

import random

from shared.engine import State
from shared.engine.kit.zones import hand, seat_zone
from shared.games.truco import ENVIDO_CALLS, STRENGTH, TRUCO_CALLS, TrucoData, envido_points

from .search import rollout_policy

ROLLOUT_RANDOM = 0.2  # the share of playout moves made at random
ENVIDO_ACCEPT = 27  # envido points worth accepting (or calling with ENVIDO_CALL)
ENVIDO_CALL = 30
STRONG = STRENGTH["3E"]  # a 3 or better wins most bazas


def accepts_envido(points: int) -> bool:
    """Whether envido points are worth accepting a call with."""
    return points >= ENVIDO_ACCEPT


def accepts_truco(cards: list[str], bazas_won: int) -> bool:
    """Whether a truco is worth accepting: a baza won and a strong card, or two strong cards."""
    strong = sum(STRENGTH[c] >= STRONG for c in cards)
    return strong + bazas_won >= 2


def pick(state: State, seat: int, actions: list[dict], rng: random.Random) -> dict:
    """The heuristic's action for ``seat`` among its legal ``actions``."""
    data = TrucoData.of(state)
    by_type: dict[str, list[dict]] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)
    if "flor" in by_type:
        return by_type["flor"][0]
    cards = state.cards(hand(seat))
    dealt = cards + state.cards(seat_zone("table", seat))
    won = sum(b == seat for b in data.bazas)
    calls = {a["call"]: a for a in by_type.get("call", [])}
    if "quiero" in by_type:  # a call to answer
        good = (
            accepts_envido(envido_points(dealt)) if data.envido_open else accepts_truco(cards, won)
        )
        return by_type["quiero" if good else "no-quiero"][0]
    envido = calls.get(ENVIDO_CALLS[0])
    if envido and envido_points(dealt) >= ENVIDO_CALL:
        return envido
    truco = next((calls[c] for c in TRUCO_CALLS if c in calls), None)
    if truco and accepts_truco(cards, won) and rng.random() < 0.5:
        return truco
    plays = [a["card"] for a in by_type.get("play", [])]
    if not plays:
        return rng.choice(actions)
    n = len(data.bazas)
    theirs = state.cards(seat_zone("table", 1 - seat))
    if len(theirs) > n:  # answering a baza: the cheapest card that wins it, else the cheapest
        winners = [c for c in plays if STRENGTH[c] > STRENGTH[theirs[n]]]
        card = min(winners or plays, key=STRENGTH.__getitem__)
    else:
        card = max(plays, key=STRENGTH.__getitem__) if n else rng.choice(plays)
    return {"type": "play", "card": card}


@rollout_policy("truco")
def truco_rollouts(state: State, options: list[tuple], rng: random.Random) -> tuple:
    """Playouts mostly as the heuristic plays, now and then at random."""
    if rng.random() < ROLLOUT_RANDOM:
        return rng.choice(options)
    seat = options[0][0]
    return seat, pick(state, seat, [a for s, a in options if s == seat], rng)
