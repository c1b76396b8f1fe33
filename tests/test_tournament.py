"""The tournament harness: paired deals, seats rotated, a Wilson interval; and a smoke run
of a small search against random play in every game, so that it keeps working."""

from __future__ import annotations

import pytest

from shared.bots.tournament import SMOKE, jobs, tournament, wilson
from shared.engine import all_games


def test_the_wilson_interval_of_known_proportions():
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(400, 400)[0] == pytest.approx(0.9905, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_each_deal_is_played_from_every_seat():
    work = jobs("raj", "base", 3, "hard", "easy", 6, "t")
    seeds = [(seed, seat) for _g, _v, _n, seed, _a, _b, seat in work]
    assert seeds == [("t:0", 0), ("t:0", 1), ("t:0", 2), ("t:1", 0), ("t:1", 1), ("t:1", 2)]


def test_an_unknown_strategy_is_refused_before_any_match():
    with pytest.raises(ValueError, match="no bot strategy 'clever'"):
        tournament("brisca", "base", "clever", "random", 2)


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_smoke_a_small_search_plays_every_game_against_random(game):
    result = tournament(game, "base", SMOKE, "random", 2, processes=2, tag="smoke")
    if result["players"] == 1:
        assert result["a_alone"]["matches"] == result["b_alone"]["matches"] == 2
        return
    assert result["matches"] == 2
    assert result["wins"] + result["draws"] + result["losses"] == 2
    low, high = result["wilson95"]
    assert 0 <= low <= result["score"] <= high <= 1
