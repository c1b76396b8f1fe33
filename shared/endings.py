"""How a match ends without the rules ending it: a resignation, or abandonment.

The lobby writes such an end as one ``match.ended`` entry with the result made here, and
the history service checks that result against its own replay with the same function,
so both always agree on who won. Pure functions, no I/O.
"""

from __future__ import annotations

from typing import Any

RESIGNED, ABANDONED = "resigned", "abandoned"
REASONS = (RESIGNED, ABANDONED)


def ended_result(
    reason: str,
    seat: int | None,
    teams: list[list[int]] | None,
    players: int,
    scores: list[int] | None,
) -> dict[str, Any]:
    """The result of a match that ``seat`` resigned or abandoned (None: nobody in particular,
    as when the whole match lay idle): every side without that seat wins; with no seat
    to blame, nobody does. The scores are the rules' scores at that moment."""
    sides = teams or [[s] for s in range(players)]
    winners = [] if seat is None else sorted(s for side in sides if seat not in side for s in side)
    return {
        "reason": reason,
        "seat": seat,
        "winners": winners,
        "scores": list(scores) if scores else [0] * players,
    }
