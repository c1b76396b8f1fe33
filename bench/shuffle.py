"""Is the match shuffle uniform? A chi-square test per deck size the games deal.

Each shuffle is the rules' own (``State.shuffle``: a generator from (seed, counter), one
per chance event), over the cards 0..n-1. Two tables per deck size:

* position: how often each card lands at each position, n x n cells, (n-1)^2 degrees of
  freedom (every row and column sums to the number of shuffles);
* prefix: how often each ordered pair of cards comes first and second, n(n-1) cells.

A uniform shuffle gives p-values spread evenly over (0, 1); a biased one (the classic
``randrange`` modulo mistake, or a swap with any position instead of the ones left) drives
them to 0 at this many shuffles. Run: ``python bench/shuffle.py [--shuffles N] [--jobs J]``
(deck sizes in ``J`` processes, 2 by default: a few minutes).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.engine import State, all_games, new_match  # noqa: E402


def deck_sizes() -> list[int]:
    """The number of cards each game variant deals with, at its smallest player count."""
    sizes = set()
    for game in all_games():
        for variant in game.variants:
            low, _ = game.player_range(variant)
            state, _ = new_match(game.id, variant, low, seed="deck-size")
            sizes.add(len(state.all_cards()))
    return sorted(sizes)


def chi_square(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 for c in counts) / expected


def p_value(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom (the regularised
    upper incomplete gamma Q(df/2, statistic/2): a series below its mean, else a continued
    fraction, as in Numerical Recipes' ``gammq``)."""
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # P by its series, Q = 1 - P
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300  # Q by Lentz's continued fraction
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    i = 0
    while True:
        i += 1
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            return h * math.exp(log_front)


def measure(n: int, shuffles: int) -> tuple[int, float, dict[str, tuple[float, int, float]]]:
    """The position and prefix statistics of ``shuffles`` rules shuffles of n cards:
    (n, seconds, {table: (statistic, degrees of freedom, p-value)})."""
    started = time.perf_counter()
    state = State("bench", "base", {}, 1, "uniformity")
    position = [0] * (n * n)
    prefix = [0] * (n * n)
    cards = list(range(n))
    rows = [c * n for c in cards]
    places = list(range(n))
    shuffle = state.shuffle
    for _ in range(shuffles):
        shuffle(cards)
        for p, c in zip(places, cards, strict=True):
            position[rows[c] + p] += 1
        prefix[rows[cards[0]] + cards[1]] += 1
    pairs = [prefix[a * n + b] for a in range(n) for b in range(n) if a != b]
    out = {}
    for name, counts, df, expected in (
        ("position", position, (n - 1) ** 2, shuffles / n),
        ("prefix", pairs, n * (n - 1) - 1, shuffles / (n * (n - 1))),
    ):
        statistic = chi_square(counts, expected)
        out[name] = (statistic, df, p_value(statistic, df))
    return n, time.perf_counter() - started, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shuffles", type=int, default=1_000_000, help="per deck size")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    args = parser.parse_args()
    sizes = deck_sizes()
    print(f"shuffle uniformity: {args.shuffles:,} rules shuffles per deck size {sizes}")
    print(f"{'cards':>5}  {'table':<8} {'chi-square':>12} {'df':>6} {'p-value':>8}  seconds")
    worst = 1.0
    biggest_first = [(n, args.shuffles) for n in reversed(sizes)]
    with multiprocessing.Pool(args.jobs) as pool:
        measured = sorted(pool.starmap(measure, biggest_first))
    for n, seconds, results in measured:
        for name, (statistic, df, p) in results.items():
            worst = min(worst, p)
            print(f"{n:>5}  {name:<8} {statistic:>12.1f} {df:>6} {p:>8.4f}  {seconds:.0f}")
    tests = 2 * len(sizes)
    print(
        f"smallest p-value {worst:.4f} of {tests} tests (uniform: below 0.01 about 1 time in 100)"
    )


if __name__ == "__main__":
    main()
