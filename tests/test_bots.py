"""Bot strategies choose from a seat's own view, always legally; greedy Brisca beats random play."""

from __future__ import annotations

import random

import pytest

from shared.bots import UnknownStrategy, all_strategies, choose, strategies
from shared.bots.levels import LEVELS
from shared.bots.reflexes import RANDOM_SLIP, choose_at_table, reflex_calls
from shared.engine import UnknownGame, all_games, apply, new_match, view
from tests.playouts import variant_cases
from tests.rigging import rig


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


# -- at a live table: no penalised reflex call while nothing calls for one --------------------
def test_the_reflex_calls_are_the_ones_the_reflex_games_declare_and_no_other_game_has_one():
    declared = {game.id: reflex_calls(game) for game in all_games()}
    assert {gid: calls for gid, calls in declared.items() if calls} == {
        "nervioso": {"slap"},
        "la-granja": {"noise", "grab"},
    }


def granja_waiting_for_seat_0():
    """La Granja for three, seat 0 to reveal: the others may only call, and any call now is
    penalised (there is no face-off)."""
    state, _ = new_match("la-granja", "base", 3, seed="patience")
    state.data.turn = 0
    return state


@pytest.mark.parametrize("strategy", ["easy", "medium", "hard"])
def test_a_bot_waits_instead_of_calling_an_animal_with_no_face_off(strategy):
    state = granja_waiting_for_seat_0()
    seen = view(state, 1)
    assert {a["type"] for a in seen["legal_actions"]} == {"noise"}  # legal, and penalised
    assert choose_at_table(seen, strategy, random.Random(1)) is None


def test_the_random_bot_calls_with_no_face_off_only_now_and_then():
    seen = view(granja_waiting_for_seat_0(), 2)
    rng = random.Random(7)
    calls = sum(choose_at_table(seen, "random", rng) is not None for _ in range(2000))
    assert 0 < calls < 2000 * RANDOM_SLIP * 2, calls
    assert all(choose_at_table(seen, "random", rng, slips=False) is None for _ in range(200))


def test_the_bot_in_turn_reveals_rather_than_calling():
    seen = view(granja_waiting_for_seat_0(), 0)
    rng = random.Random(3)
    assert all(
        choose_at_table(seen, "random", rng, slips=False) == {"type": "reveal"} for _ in range(50)
    )


def test_in_a_face_off_a_bot_calls():
    state = granja_waiting_for_seat_0()
    state.data.turn = 1
    layout = {"hand:0": ["2O"], "hand:1": ["7C", "5C"], "hand:2": ["8E", "6E"]}
    layout |= {"pile:0": ["1B", "5O"], "pile:1": [], "pile:2": ["9E"]}
    rig(state, layout, spill="removed")
    apply(state, 1, {"type": "reveal"})  # a 5 on a 5: the perro and the gato face off
    seen = view(state, 0)
    assert seen["deadline"]["kind"] == "reaction"
    assert choose_at_table(seen, "easy", random.Random(1))["type"] == "noise"


def test_a_nervioso_bot_does_not_slap_a_pile_with_no_match():
    state, _ = new_match("nervioso", "base", 2, seed="patience")
    apply(state, state.data.turn, {"type": "play"})
    if state.deadline:  # the first card matched the count: seat 0 plays a non-matching one
        state, _ = new_match("nervioso", "base", 2, seed="patience")
        rig(state, {"hand:0": state.cards("hand:0")[:-1] + ["2O"]}, spill="hand:1")
        state.data.turn = 0
        apply(state, 0, {"type": "play"})
    assert not state.deadline and set(state.to_act) == {0, 1}
    seen = view(state, 1 - state.data.turn)
    assert {a["type"] for a in seen["legal_actions"]} == {"slap"}  # a false slap, penalised
    assert choose_at_table(seen, "easy", random.Random(1)) is None
