"""Bot strategies choose from a seat's own view, always legally; greedy Brisca beats random play."""

from __future__ import annotations

import random

import pytest

from shared.bots import choose
from shared.engine import apply, new_match, view
from tests.playouts import variant_cases


def play_match(game, variant, players, seed, strategies):
    state, _ = new_match(game, variant, players, seed=seed)
    rng = random.Random(seed)
    while not state.finished:
        seat = rng.choice(state.to_act) if state.to_act else None
        if seat is None:
            apply(state, None, {"type": "timeout"})
            continue
        seen = view(state, seat)
        apply(state, seat, choose(seen, strategies[seat], rng))
    return state


@pytest.mark.parametrize("case", variant_cases(), ids=lambda c: f"{c[0]}/{c[1]}/{c[2]}p")
def test_bots_finish_every_game_choosing_only_legal_actions(case):
    game, variant, players = case
    state = play_match(game, variant, players, "bots", ["greedy"] * players)
    assert state.finished and state.result is not None


def test_greedy_brisca_beats_random_play():
    wins = 0
    for i in range(40):
        state = play_match("brisca", "base", 2, f"duel{i}", ["greedy", "random"])
        wins += state.result["winners"] == [0]
    assert wins >= 28, f"greedy won only {wins} of 40"


def test_greedy_tute_sings_when_it_can():
    from shared.games.brisca import BriscaData
    from tests.rigging import rig

    state, _ = new_match("brisca", "tute", 2, seed="sing")
    rig(state, {"hand:0": ["12O", "11O", "1C", "4E", "5E", "6E"], "trump": ["3B"]})
    data = BriscaData.of(state)
    data.trump = "B"
    state.to_act, data.may_sing = [0], 0
    assert choose(view(state, 0), "greedy", random.Random(1)) == {"type": "sing", "suit": "O"}
