"""Turn order: the standard direction option and the next seat, skipping seats out of play."""

from __future__ import annotations

import functools
from collections.abc import Collection

from ..game import Option
from ..state import State

CLOCKWISE, COUNTERCLOCKWISE = "clockwise", "counterclockwise"

#: The option every game with a direction of play declares as ``"direction": DIRECTION``.
DIRECTION = Option(CLOCKWISE, "direction of play", choices=(CLOCKWISE, COUNTERCLOCKWISE))


def direction(state: State) -> int:
    """+1 clockwise (to the next seat number), -1 counterclockwise; games without the option: +1."""
    return -1 if state.options.get("direction") == COUNTERCLOCKWISE else 1


def next_seat(state: State, seat: int, step: int = 1, skip: Collection[int] = ()) -> int:
    """The seat ``step`` places after ``seat`` in the direction of play, not counting ``skip``.

    With ``skip``, ``step`` must be 1 or -1 and at least one seat must remain.
    """
    way = direction(state)
    if not skip:
        return (seat + step * way) % state.players
    if len(skip) >= state.players:
        raise ValueError("every seat is skipped")
    nxt = seat
    while True:
        nxt = (nxt + step * way) % state.players
        if nxt not in skip:
            return nxt


def seats_after(state: State, seat: int) -> tuple[int, ...]:
    """Every seat in the order of play after ``seat``, ``seat`` itself last (``next_seat`` of
    steps 1 to n). Turn passing asks this after every card, so the orders are made once per
    table size and direction."""
    return _orders(state.players, direction(state))[seat]


@functools.cache
def _orders(players: int, way: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the seats after it in the order of play (``seats_after``)."""
    return tuple(
        tuple((seat + step * way) % players for step in range(1, players + 1))
        for seat in range(players)
    )


def seats_from(state: State, first: int) -> list[int]:
    """Every seat once, in the order of play, starting at ``first``: ``first``, then the seats
    after it (``seats_after`` ends with ``first`` itself)."""
    return list(rounds_from(state.players, direction(state))[first])


@functools.cache
def rounds_from(players: int, way: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, every seat once in the order of play starting at it (``seats_from``): a
    game that keeps its direction (+1 or -1) reads it without ``direction``'s call."""
    return tuple((first, *after[:-1]) for first, after in enumerate(_orders(players, way)))
