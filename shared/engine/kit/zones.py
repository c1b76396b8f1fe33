"""Zone names through helpers, so a typo is a NameError rather than a KeyError mid-match."""

from __future__ import annotations

from collections.abc import Callable

from ..state import State, Zone

MAX_SEATS = 16  # State.from_json's bound on players


def seat_zone(kind: str, seat: int) -> str:
    """The name of ``seat``'s zone of a kind: ``seat_zone("captured", 2)`` is ``"captured:2"``."""
    return f"{kind}:{seat}"


#: ``hand(seat)`` is ``"hand:<seat>"``: a table lookup, since games ask for it on every action.
hand: Callable[[int], str] = tuple(f"hand:{s}" for s in range(MAX_SEATS)).__getitem__


def seat_zones(state: State, kind: str, visibility: str) -> list[Zone]:
    """Create one zone of ``kind`` per seat, owned by that seat."""
    return [state.zone(seat_zone(kind, s), s, visibility) for s in range(state.players)]
