"""Ending a match: the result on the state and the ``match_finished`` event, said once."""

from __future__ import annotations

from typing import Any

from ..actions import Event
from ..core import event, finish
from ..state import State


def end_match(state: State, winners: list[int] | None = None, **fields: Any) -> list[Event]:
    """Finish the match (without winners: the highest total, ties share) and announce it.

    ``fields`` (a reason, whether a solitaire was won…) go on the event before the result.
    """
    finish(state, winners)
    return [event("match_finished", **fields, result=state.result)]


def highest(scores: list[int], seats: list[int] | None = None) -> list[int]:
    """The seats with the highest score (all of them on a tie)."""
    pool = range(len(scores)) if seats is None else seats
    best = max(scores[s] for s in pool)
    return [s for s in pool if scores[s] == best]


def lowest(scores: list[int], seats: list[int] | None = None) -> list[int]:
    """The seats with the lowest score (all of them on a tie): for games where points are bad."""
    pool = range(len(scores)) if seats is None else seats
    best = min(scores[s] for s in pool)
    return [s for s in pool if scores[s] == best]
