"""The search bots: states sampled from a view are valid and agree with it, the search never
peeks, and it beats random play where it should. Budgets here are iterations, never time,
so every run makes the same choices."""

from __future__ import annotations

import math
import random

import pytest

from shared.bots.search import Budget, search
from shared.engine import State, UnknownGame, check_state, view
from shared.engine.sampling import game_of, sample_state
from tests.playouts import playout, variant_cases

CASES = variant_cases()
IDS = [f"{g}/{v}/{n}p" for g, v, n in CASES]
POSITIONS = 5  # positions per case, spread over one random match
SMALL = Budget(iterations=8, millis=math.inf, rollout_steps=30)


def positions(
    game: str, variant: str, players: int, seed: str, count: int = POSITIONS
) -> list[State]:
    """A few states spread over one random match (copies: the playout goes on in place).
    The match is played twice, to copy only the chosen states of a long one."""
    length = sum(1 for _ in playout(game, variant, players, seed))
    chosen = set(range(0, length, max(1, length // count))[:count])
    return [
        s.clone() for i, (s, *_) in enumerate(playout(game, variant, players, seed)) if i in chosen
    ]


def hidden_slots(state: State, seat: int) -> list[tuple[str, int]]:
    """Where the cards ``seat`` cannot see lie: (zone, index)."""
    return [
        (name, i)
        for name, shown in view(state, seat)["zones"].items()
        for i, card in enumerate(shown["cards"])
        if card is None
    ]


@pytest.mark.parametrize(("game", "variant", "players"), CASES, ids=IDS)
def test_a_sampled_state_is_valid_agrees_with_the_view_and_repeats(game, variant, players):
    for state in positions(game, variant, players, "sampling"):
        for seat in range(players):
            seen = view(state, seat)
            sampled = sample_state(seen, random.Random(7))
            check_state(sampled)
            assert view(sampled, seat) == seen
            assert sample_state(seen, random.Random(7)).to_json() == sampled.to_json()


def test_samples_deal_the_unseen_cards_differently():
    state = next(s for s, *_ in playout("brisca", "base", 2, "deals"))
    seen = view(state, 0)
    hands = {tuple(sample_state(seen, random.Random(i)).cards("hand:1")) for i in range(20)}
    assert len(hands) > 10
    assert all(None not in h and len(h) == seen["zones"]["hand:1"]["count"] for h in hands)


def test_a_view_names_its_game_by_the_core_field_game():
    state = next(s for s, *_ in playout("bolsas-de-dinero", "base", 2, "named"))
    seen = view(state, 0)
    assert game_of(seen).id == "bolsas-de-dinero"
    assert seen["game_number"] == 1  # the game's own number of the game in the match
    with pytest.raises(UnknownGame, match="a view's game is a game id, not 1"):
        game_of({**seen, "game": 1})


@pytest.mark.parametrize(("game", "variant", "players"), CASES, ids=IDS)
def test_the_search_never_peeks(game, variant, players):
    """Two states that differ only in cards the seat cannot see give the same choice."""
    checked = 0
    for state in positions(game, variant, players, "peek", count=3):
        for seat in state.to_act:
            slots = hidden_slots(state, seat)
            seen = view(state, seat)
            if len(seen["legal_actions"]) < 2:
                continue
            other = state.clone()
            cards = [state.zones[z].cards[i] for z, i in slots]
            random.Random(1).shuffle(cards)
            for (z, i), card in zip(slots, cards, strict=True):
                other.zones[z].cards[i] = card
            assert view(other, seat) == seen
            first = search(seen, random.Random(5), SMALL)
            assert search(view(other, seat), random.Random(5), SMALL) == first
            assert first in seen["legal_actions"]
            checked += 1
    assert checked or game.startswith("solitario") or game in ("el-9",), "no decision was checked"
