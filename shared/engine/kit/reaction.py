"""Reaction windows: real-time races (slap the pile, call the animal) decided by arrival order.

A trigger (a card that matches) opens a window: the game's phase changes, the seats that
may act go into ``to_act`` and ``state.deadline`` asks the server to send
``{"type": "timeout"}`` (seat None) after a few seconds. Reactions are recorded in the
order the server applies them: that order *is* the race, so a test scripts a race just
by the order of its ``apply`` calls. The window closes when the last racer has reacted,
when a game-specific reaction decides the race (the first correct call), or on the
server's timeout, where the racers that did not react count as the slowest.

The game keeps the window's record in its own data (any JSON shape, so stored states
keep their bytes); these helpers do the parts every reflex game shares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..state import State

PHASE = "reaction"
KIND = "reaction"


def open_window(state: State, seconds: float, to_act: Iterable[int], phase: str = PHASE) -> None:
    """Open a window: ``phase``, the seats that may act now, and the server's timer."""
    state.phase = phase
    state.to_act = list(to_act)
    state.deadline = {"kind": KIND, "seconds": seconds}


def is_open(state: State) -> bool:
    """Whether a reaction window is waiting for its reactions or its timeout."""
    return state.deadline is not None and state.deadline.get("kind") == KIND


def react(state: State, seat: int, arrivals: list, entry: Any = None, leave: bool = True) -> int:
    """Record ``seat``'s reaction (``entry``, by default the seat) after those already in:
    the order of the calls is the race's order. ``leave`` takes the seat out of ``to_act``
    (one reaction per seat). Returns its place in the race, from 1."""
    arrivals.append(seat if entry is None else entry)
    if leave and seat in state.to_act:
        state.to_act.remove(seat)
    return len(arrivals)


def reacted(arrivals: list, seat_of: Callable[[Any], int] | None = None) -> list[int]:
    """The seats that have reacted, in arrival order (``seat_of`` reads a recorded entry)."""
    return [seat_of(a) if seat_of else a for a in arrivals]


def late(
    racers: Iterable[int], arrivals: list, seat_of: Callable[[Any], int] | None = None
) -> list[int]:
    """The racers that have not reacted yet, in the order given (for a timeout: the slowest)."""
    done = set(reacted(arrivals, seat_of))
    return [s for s in racers if s not in done]


def everyone_reacted(
    racers: Iterable[int], arrivals: list, seat_of: Callable[[Any], int] | None = None
) -> bool:
    """Whether the last racer has reacted: the window closes without waiting for the timer."""
    return not late(racers, arrivals, seat_of)


def first(arrivals: list, accepted: Callable[[Any], bool]) -> Any:
    """The earliest recorded reaction that ``accepted`` (the race's winner), or None."""
    return next((a for a in arrivals if accepted(a)), None)


def close_window(state: State) -> None:
    """Stop the server's timer; the game sets the next phase and who acts."""
    state.deadline = None
