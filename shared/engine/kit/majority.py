"""Majority scoring per category (Bolsas de dinero): alone, unique maximum, or a tie.

Each category (a number, a colour…) is scored on its own from every seat's count in it:
a seat that is the only one with any count scores ``alone``; otherwise the seat with the
unique highest count scores ``majority``; a tie for the highest scores ``tie`` for each
tied seat. Every other seat scores 0 in that category.
"""

from __future__ import annotations

from collections.abc import Iterable


def category_points(
    counts: list[int], alone: int = 5, majority: int = 3, tie: int = 0
) -> list[int]:
    """The points of one category, per seat, from each seat's count (0: nothing in it)."""
    points = [0] * len(counts)
    holders = [s for s, n in enumerate(counts) if n > 0]
    if not holders:
        return points
    if len(holders) == 1:
        points[holders[0]] = alone
        return points
    best = max(counts)
    leaders = [s for s in holders if counts[s] == best]
    for s in leaders:
        points[s] = majority if len(leaders) == 1 else tie
    return points


def majority_points(
    table: Iterable[list[int]], seats: int, alone: int = 5, majority: int = 3, tie: int = 0
) -> list[int]:
    """The sum over categories of ``category_points``; ``table`` lists each category's counts."""
    total = [0] * seats
    for counts in table:
        points = category_points(counts, alone, majority, tie)
        total = [a + b for a, b in zip(total, points, strict=True)]
    return total
