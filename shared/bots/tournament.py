"""Tournaments between two strategies, in process and parallel over the machine's cores.

``make tournament GAME=brisca VARIANT=base A=hard B=easy N=400`` plays N matches of A
against B. Deals are paired: each seed is played once per seat rotation, so A plays every
deal from every seat (two players: each deal from both sides) and luck of the deal cancels
out. Every bot chooses from its own seat's view, exactly as a bot worker does. The result
is A's score (a win 1, a draw ½) with a 95% Wilson interval. A solitaire has no opponent:
A and B each play the N deals alone, and their win rates are set side by side.

Usage: python -m shared.bots.tournament --game brisca --variant base -a hard -b easy -n 400
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import time
from dataclasses import dataclass

from shared.engine import apply, get_game, new_match, view

from .registry import choose, strategy
from .search import Budget, search

#: Strategy names a tournament accepts besides the registry's: ``smoke``, a search small
#: enough for the test suite, and ``search:N``, a search of N iterations with no time limit
#: (the same strength on a loaded machine as on an idle one).
SMOKE = "smoke"
SMOKE_BUDGET = Budget(iterations=3, millis=math.inf, rollout_steps=15)
FIXED = "search:"


def _budget(name: str) -> Budget | None:
    if name == SMOKE:
        return SMOKE_BUDGET
    if name.startswith(FIXED) and name[len(FIXED) :].isdigit():
        return Budget(iterations=int(name[len(FIXED) :]), millis=math.inf)
    return None


@dataclass(frozen=True)
class Outcome:
    """One match: the seats A held, its winners, how many moves, how long it took, and how
    long A took over each decision that had a choice (ms)."""

    seed: str
    a_seats: tuple[int, ...]
    winners: tuple[int, ...]
    players: int
    moves: int
    seconds: float
    a_ms: tuple[float, ...] = ()

    @property
    def points(self) -> float:
        """A's score: 1 for a win, ½ when both sides share it, 0 for a loss."""
        a_won = any(s in self.winners for s in self.a_seats)
        b_won = any(s not in self.a_seats for s in self.winners) and self.players > 1
        return 0.5 if a_won and b_won else 1.0 if a_won else 0.0


def _pick(state_view: dict, name: str, rng: random.Random) -> dict:
    budget = _budget(name)
    return search(state_view, rng, budget) if budget else choose(state_view, name, rng)


def play(
    game: str, variant: str, players: int, seed: str, names: list[str], a_seat: int | None = None
) -> Outcome:
    """One match, ``names[seat]`` playing each seat from its own view; ``a_seat`` is A's."""
    started = time.perf_counter()
    state, _ = new_match(game, variant, players, seed=seed)
    rng = random.Random(f"{seed}:{names}")
    a_ms: list[float] = []
    while not state.finished:
        if not state.to_act:
            apply(state, None, {"type": "timeout"})
            continue
        seat = rng.choice(state.to_act)  # who of several seats to act gets there first
        seen = view(state, seat)
        asked = time.perf_counter()
        action = _pick(seen, names[seat], rng)
        if seat == a_seat and len(seen["legal_actions"]) > 1:
            a_ms.append((time.perf_counter() - asked) * 1000)
        apply(state, seat, action)
    winners = tuple((state.result or {}).get("winners", []))
    a_seats = () if a_seat is None else (a_seat,)
    seconds = time.perf_counter() - started
    return Outcome(seed, a_seats, winners, players, state.moves, seconds, tuple(a_ms))


def _play_job(job: tuple) -> Outcome:
    game, variant, players, seed, a, b, a_seat = job
    names = [a if s == a_seat else b for s in range(players)]
    return play(game, variant, players, seed, names, a_seat)


def jobs(game: str, variant: str, players: int, a: str, b: str, n: int, tag: str) -> list[tuple]:
    """N matches: seeds in groups of one match per seat A can hold (A rotated over them)."""
    out = []
    for k in range(n):
        seed = f"{tag}:{k // players}"
        out.append((game, variant, players, seed, a, b, k % players))
    return out


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``score``/``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summary(outcomes: list[Outcome]) -> dict:
    n = len(outcomes)
    score = sum(o.points for o in outcomes)
    low, high = wilson(score, n)
    return {
        "matches": n,
        "wins": sum(o.points == 1.0 for o in outcomes),
        "draws": sum(o.points == 0.5 for o in outcomes),
        "losses": sum(o.points == 0.0 for o in outcomes),
        "score": round(score / n, 3) if n else None,
        "wilson95": [round(low, 3), round(high, 3)],
        "seconds_per_match": round(sum(o.seconds for o in outcomes) / n, 2) if n else None,
    }


def tournament(
    game: str,
    variant: str,
    a: str,
    b: str,
    n: int,
    players: int | None = None,
    processes: int | None = None,
    tag: str = "tournament",
) -> dict:
    """A against B over ``n`` matches (a solitaire: each alone over the same ``n`` deals)."""
    for name in (a, b):
        if _budget(name) is None:
            strategy(game, name)  # refuse an unknown strategy before starting anything
    low, _high = get_game(game).player_range(variant)
    players = players or (2 if low <= 2 <= _high else low)
    solo = players == 1
    work = (
        [(game, variant, 1, f"{tag}:{k}", name, name, 0) for name in (a, b) for k in range(n)]
        if solo
        else jobs(game, variant, players, a, b, n, tag)
    )
    with multiprocessing.get_context("fork").Pool(processes or os.cpu_count() or 1) as pool:
        outcomes = pool.map(_play_job, work, chunksize=1)
    head = {"game": game, "variant": variant, "players": players, "a": a, "b": b}
    if solo:
        return {**head, "a_alone": summary(outcomes[:n]), "b_alone": summary(outcomes[n:])}
    return {**head, **summary(outcomes)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="brisca")
    parser.add_argument("--variant", default="base")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("-a", default="hard")
    parser.add_argument("-b", default="random")
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--tag", default="tournament", help="names the deals: another, others")
    args = parser.parse_args()
    result = tournament(
        args.game, args.variant, args.a, args.b, args.n, args.players, args.processes, args.tag
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
