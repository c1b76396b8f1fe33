"""Bot strategies choose from a seat's own view, always legally; greedy Brisca beats random play."""

from __future__ import annotations

import random

import pytest

from shared.bots import UnknownStrategy, all_strategies, choose, strategies
from shared.bots.levels import LEVELS
from shared.engine import UnknownGame, apply, new_match, view
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


#: The hand-written strategies play whole matches here; the search levels (slower per move)
#: are played in tests/test_bots_search.py and the tournament smoke run.
CASES = [
    (case, name) for case in variant_cases() for name in strategies(case[0]) if name not in LEVELS
]


@pytest.mark.parametrize(
    ("case", "strategy"), CASES, ids=[f"{c[0]}/{c[1]}/{c[2]}p/{s}" for c, s in CASES]
)
def test_bots_finish_every_game_choosing_only_legal_actions(case, strategy):
    game, variant, players = case
    state = play_match(game, variant, players, "bots", [strategy] * players)
    assert state.finished and state.result is not None


def test_every_game_has_random_and_the_levels_and_brisca_also_greedy():
    assert strategies("brisca") == ["random", "easy", "medium", "hard", "greedy"]
    assert strategies("escoba") == ["random", "easy", "medium", "hard"]
    assert all_strategies() == ["random", "easy", "medium", "hard", "greedy"]


def test_a_strategy_the_game_does_not_have_is_refused_not_replaced():
    state, _ = new_match("escoba", "base", 2, seed="nope")
    seen = view(state, state.to_act[0])
    with pytest.raises(UnknownStrategy, match=r"game escoba has no bot strategy 'greedy'"):
        choose(seen, "greedy", random.Random(1))
    with pytest.raises(
        UnknownStrategy, match=r"strategies: \['random', 'easy', 'medium', 'hard'\]"
    ):
        choose(seen, "clever", random.Random(1))
    with pytest.raises(UnknownGame):
        strategies("no-such-game")


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
