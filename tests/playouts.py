"""Random playouts over every registered game and variant, shared by the invariant suite and benches."""

from __future__ import annotations

import random
from collections.abc import Iterator

from shared.engine import Action, State, all_games, apply, legal_actions, new_match

MAX_ACTIONS = 20_000


def variant_cases(all_counts: bool = False) -> list[tuple[str, str, int]]:
    """(game, variant, players) for every registered variant: its smallest and largest player counts."""
    cases = []
    for game in all_games():
        for variant in game.variants:
            low, high = game.player_range(variant)
            counts = range(low, high + 1) if all_counts else sorted({low, high})
            cases.extend((game.id, variant, n) for n in counts)
    return cases


def every_choice(state: State) -> list[tuple[int | None, Action]]:
    """Every (seat, action) possible now: any seat that may act, or the server (a timeout)."""
    options: list[tuple[int | None, Action]] = [(None, a) for a in legal_actions(state, None)]
    for seat in state.to_act:
        options.extend((seat, a) for a in legal_actions(state, seat))
    return options


def choose(state: State, rng: random.Random) -> tuple[int | None, Action]:
    """A random (seat, action): any seat that may act, or the server's own action (a timeout)."""
    options = every_choice(state)
    if not options:
        raise AssertionError(f"nobody can act in {state.game}/{state.variant}, phase {state.phase}")
    return rng.choice(options)


def playout(
    game: str, variant: str, players: int, seed: str
) -> Iterator[tuple[State, int | None, Action, list]]:
    """Play a random match, yielding (state after, seat, action, events) at every step."""
    state, _ = new_match(game, variant, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if state.finished:
            return
        seat, action = choose(state, rng)
        events = apply(state, seat, action)
        yield state, seat, action, events
    raise AssertionError(f"{game}/{variant} did not finish in {MAX_ACTIONS} actions")
