"""Quick match's pairing: which waiting requests sit at one table. Pure, no I/O.

A request asks for one game, variant, player count and options; only requests asking for
exactly the same sit together. Among those, ratings decide: each request accepts opponents
within a window around its own rating that widens the longer it waits (``window``), and a
table is formed only when every member accepts every other (both sides' windows hold).

The longest waiter is served first: it takes the nearest-rated acceptable requests, one by
one, until the table is full. A request whose owner chose a bot wait and has waited that long
is seated with the people found so far who accept bots at all (a request with a bot wait of
its own) and bots in the free seats. A player is never seated twice: a player's other requests are dropped once one of them is seated.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

# Ratings are the history service's: a player's ordinal in the game (openskill's mu - 3 sigma,
# the leaderboard's score; 0 for a new player, a strong one 25-35).
BASE_WINDOW = 5.0  # ordinal points accepted at once either side
WIDENING_PER_S = 1.0  # and this many more for each second waited (30 s: 35 points)


@dataclass(frozen=True)
class Request:
    """One player's wish to play now. ``since``: when it was made (seconds, any epoch, the
    same for every request); ``bots_after``: seconds after which free seats take bots
    (None: wait for people however long it takes)."""

    id: str
    player: str
    game: str
    variant: str
    players: int
    rating: float
    since: float
    options: dict[str, Any] = field(default_factory=dict)
    bots_after: float | None = None

    @property
    def kind(self) -> str:
        """What the request asks for: requests of one kind may share a table."""
        options = json.dumps(self.options, sort_keys=True, separators=(",", ":"))
        return f"{self.game}/{self.variant}/{self.players}/{options}"

    def window(self, now: float) -> float:
        """How far from its rating this request accepts an opponent, ``now``."""
        return BASE_WINDOW + WIDENING_PER_S * max(0.0, now - self.since)

    def accepts(self, other: Request, now: float) -> bool:
        return abs(self.rating - other.rating) <= self.window(now)

    def wants_bots(self, now: float) -> bool:
        return self.bots_after is not None and now - self.since >= self.bots_after


@dataclass(frozen=True)
class Table:
    """Requests seated together; ``bots`` seats are left for bots."""

    requests: tuple[Request, ...]
    bots: int = 0

    @property
    def kind(self) -> str:
        return self.requests[0].kind


def tables(requests: Iterable[Request], now: float) -> list[Table]:
    """The tables that can be formed ``now`` from the waiting ``requests``, longest waiter
    first. A request left out keeps waiting (its window keeps widening)."""
    waiting = sorted(requests, key=lambda r: (r.since, r.id))
    seated: set[str] = set()  # players
    formed: list[Table] = []
    for anchor in waiting:
        if anchor.player in seated:
            continue
        table = _table_for(anchor, waiting, seated, now)
        if table is not None:
            formed.append(table)
            seated.update(r.player for r in table.requests)
    return formed


def _table_for(
    anchor: Request, waiting: Sequence[Request], seated: set[str], now: float
) -> Table | None:
    """The table ``anchor`` would sit at now: the nearest-rated acceptable requests of its
    kind; bots for the rest if the anchor has waited its bot wait; None: keep waiting."""
    candidates = sorted(
        (
            r
            for r in waiting
            if r.kind == anchor.kind and r.player not in seated and r.player != anchor.player
        ),
        key=lambda r: (abs(r.rating - anchor.rating), r.since, r.id),
    )
    members = [anchor]
    players = {anchor.player}
    for candidate in candidates:
        if len(members) == anchor.players:
            break
        if candidate.player in players:
            continue
        if all(m.accepts(candidate, now) and candidate.accepts(m, now) for m in members):
            members.append(candidate)
            players.add(candidate.player)
    if len(members) == anchor.players:
        return Table(tuple(members))
    if anchor.wants_bots(now):  # only people who accept bots at all share a table with them
        people = tuple(m for m in members if m.bots_after is not None)
        return Table(people, bots=anchor.players - len(people))
    return None
