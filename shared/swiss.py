"""A tournament's pairings and standings. Pure functions, no I/O.

The lobby pairs each round from the standings after the rounds before it; the history
service shows the standings. Both compute them here from the same two logs (the
tournament's entries and each match's result), so the standings are a projection of the
logs: replaying them gives the same table.

    Swiss (two seats a table)  players of equal points meet, the top of a score group first;
        nobody meets an opponent twice while another pairing avoids it (a backtracking
        search over the ranked list, which crosses score groups only when it must); with an
        odd count the lowest-ranked player without a bye yet sits out and scores a win.
    Tables (more seats)        consecutive players by standing share a table; the last
        table's missing seats take bots.

Points: a win 1, a draw 0.5 (every seat or no seat won), a loss 0, a bye 1. A no-show (a
person who made no move of their own while the server played for their seat: a turn
timer's move, the abandonment after three, a bot sitting in) loses whatever the result
says, and the seats that played win if only no-shows won. Tiebreak: Buchholz, the sum of
one's opponents' points (a bye adds none).

A duplicate tournament (each round of two tables or more one duplicate group, its tables
seated by ``shared.duplicate.turned``) ranks by **matchpoints** instead
(``shared.duplicate.matchpoints``): each result with a seat's cards ranked against the
other tables' with the same cards, a round counted once all its tables have finished; a bye
scores the round's average; a round of one table (nothing to compare) adds none. Ties:
Buchholz over the opponents' matchpoints, then points, then registration. Pairing follows
the ranking, so the Swiss rounds pair by matchpoints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from shared import duplicate
from shared.entry_kinds import ACTION, BOT_ADDED, JOINED, LEFT
from shared.verify import finishing_entry, rules_version_of, started_entry

WIN, DRAW, LOSS, BYE = 1.0, 0.5, 0.0, 1.0
SEARCH_LIMIT = 20_000  # pairing steps tried before repeats are allowed (never met below 64)


@dataclass
class Standing:
    """One entrant's line: points, Buchholz, games played, and whom they met."""

    entrant: str
    order: int  # registration order: the last tiebreak, and round one's seeding
    points: float = 0.0
    buchholz: float = 0.0
    played: int = 0
    wins: int = 0
    byes: int = 0
    withdrawn: bool = False
    opponents: list[str] = field(default_factory=list)
    matchpoints: float | None = None  # a duplicate tournament's ranking score; else None

    def as_dict(self, rank: int) -> dict[str, Any]:
        return {
            "rank": rank, "entrant": self.entrant, "points": self.points,
            "buchholz": self.buchholz, "played": self.played, "wins": self.wins,
            "byes": self.byes, "withdrawn": self.withdrawn, "matchpoints": self.matchpoints,
        }  # fmt: skip

    def score(self) -> float:
        """What ranks the entrant: matchpoints in a duplicate tournament, else points."""
        return self.points if self.matchpoints is None else self.matchpoints


def seat_points(
    winners: Sequence[int] | None, seats: int, no_shows: Sequence[int] = ()
) -> list[float]:
    """Each seat's points from a finished match's result (its ``winners``); a no-show loses."""
    absent = set(no_shows)
    won = set(winners or []) - absent
    if not won and set(winners or []):  # only no-shows won: the seats that played win
        won = set(range(seats)) - absent
    if seats == 1:  # a solitaire: won or lost
        points = [WIN if won else LOSS]
    elif not won or len(won) >= seats:
        points = [DRAW] * seats
    else:
        points = [WIN if seat in won else LOSS for seat in range(seats)]
    return [LOSS if seat in absent else p for seat, p in enumerate(points)]


def match_outcome(entries: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """A finished match's ``winners`` and ``no_shows`` from its log (None: not finished). A
    no-show: a person's seat with no move of their own, for which the server acted."""
    if not entries or entries[-1].get("status") != "finished":
        return None
    persons: dict[int, str] = {}
    for entry in entries:
        if entry.get("kind") == JOINED:
            persons[entry["seat"]] = entry["player"]["id"]
        elif entry.get("kind") in (LEFT, BOT_ADDED):
            persons.pop(entry["seat"], None)
    moved, stood_in = set(), set()
    for entry in entries:
        actor = entry.get("actor") or {}
        seat = actor.get("seat")
        if seat not in persons or actor.get("player") != persons[seat]:
            continue
        if actor.get("system"):
            stood_in.add(seat)
        elif entry.get("kind") == ACTION:
            moved.add(seat)
    # the finishing entry's result: a duplicate table's log ends with its seed.revealed
    result = (finishing_entry(list(entries)) or entries[-1]).get("result") or {}
    setup = (started_entry(list(entries)) or {}).get("setup") or {}
    return {
        "winners": list(result.get("winners") or []),
        "no_shows": sorted(stood_in - moved),
        "deals": duplicate.deals_of(result),  # each deal's points by seat: matchpoints'
        # which of its deals were dealt alike at every table (duplicate.every_deal_alike)
        "rules_version": rules_version_of(setup) if setup else None,
        "options": setup.get("options") or {},
    }


def standings(
    entrants: Sequence[str],
    rounds: Iterable[dict[str, Any]],
    results: dict[str, dict[str, Any]],
    withdrawn: Iterable[str] = (),
    duplicate_game: str | None = None,
) -> list[Standing]:
    """The ranked standings: ``rounds`` as the tournament log records them (``tables`` with
    their ``match`` and ``seats``, entrant ids or None for a bot filler; ``byes``; a
    duplicate round's ``group``); ``results``: each finished match's outcome, ``{"winners",
    "no_shows", "deals"}`` (a match not in it is still being played). ``duplicate_game``:
    the game of a duplicate tournament, ranked by matchpoints (None: by points)."""
    lines = {entrant: Standing(entrant, order) for order, entrant in enumerate(entrants)}
    if duplicate_game is not None:
        for line in lines.values():
            line.matchpoints = 0.0
    for entrant in withdrawn:
        if entrant in lines:
            lines[entrant].withdrawn = True
    for paired in rounds:
        matched = round_matchpoints(duplicate_game, paired, results)
        for entrant, points in (matched or {}).items():
            lines[entrant].matchpoints += points  # type: ignore[operator]
        for entrant in paired.get("byes") or []:
            line = lines[entrant]
            line.points += BYE
            line.byes += 1
            line.played += 1
            line.wins += 1
        for table in paired["tables"]:
            seats = table["seats"]
            for entrant in seats:  # met, whatever the outcome: they are not paired again
                if entrant is not None:
                    lines[entrant].opponents += [o for o in seats if o not in (None, entrant)]
            if table["match"] not in results:
                continue
            outcome = results[table["match"]]
            scored = seat_points(outcome["winners"], len(seats), outcome.get("no_shows") or ())
            for seat, points in enumerate(scored):
                entrant = seats[seat]
                if entrant is not None:
                    line = lines[entrant]
                    line.points += points
                    line.played += 1
                    line.wins += points == WIN
    for line in lines.values():
        line.buchholz = sum(lines[o].score() for o in line.opponents)
    return sorted(lines.values(), key=lambda s: (-s.score(), -s.buchholz, -s.points, s.order))


def round_matchpoints(
    game: str | None, paired: dict[str, Any], results: dict[str, dict[str, Any]]
) -> dict[str, float] | None:
    """A duplicate round's matchpoints by entrant, its byes scoring the average, once every
    table of it has finished (None: not a duplicate round, or still being played)."""
    tables = paired["tables"]
    if game is None or not paired.get("group") or any(t["match"] not in results for t in tables):
        return None
    scored, average = duplicate.matchpoints(game, [
        {"match": t["match"], "seats": t["seats"], "deals": results[t["match"]].get("deals") or [],
         "no_shows": results[t["match"]].get("no_shows") or [],
         "rules_version": results[t["match"]].get("rules_version"),
         "options": results[t["match"]].get("options") or {}}
        for t in tables
    ])  # fmt: skip
    return {**scored, **{entrant: average for entrant in paired.get("byes") or []}}


def ranked_active(lines: Sequence[Standing]) -> list[Standing]:
    return [line for line in lines if not line.withdrawn]


def swiss_pairs(lines: Sequence[Standing]) -> tuple[list[tuple[str, str]], str | None]:
    """One Swiss round from the ranked standings (withdrawn entrants left out): the pairs,
    the higher-ranked first, and who has the bye (None: an even count)."""
    active = ranked_active(lines)
    if len(active) < 2:
        return [], active[0].entrant if active else None
    if len(active) % 2 == 0:
        return _pairs(active), None
    # the bye: the lowest-ranked without one, unless the rest then cannot avoid a repeat
    candidates = sorted(reversed(active), key=lambda s: s.byes)  # stable: lowest rank first
    for sits_out in candidates:
        rest = [s for s in active if s is not sits_out]
        pairs = _search(rest, allow_repeats=False)
        if pairs is not None:
            return pairs, sits_out.entrant
    sits_out = candidates[0]
    return _pairs([s for s in active if s is not sits_out]), sits_out.entrant


def _pairs(active: list[Standing]) -> list[tuple[str, str]]:
    found = _search(active, allow_repeats=False)
    if found is None:  # every pairing repeats someone: fewest repeats, greedily by rank
        found = _search(active, allow_repeats=True)
    assert found is not None
    return found


def _search(active: list[Standing], allow_repeats: bool) -> list[tuple[str, str]] | None:
    """Pair the top unpaired entrant with the next acceptable one in rank order, backtracking
    when the rest cannot be paired; None when no pairing avoids a repeat (or the search ran
    past ``SEARCH_LIMIT`` steps)."""
    met = {s.entrant: set(s.opponents) for s in active}
    steps = [0]

    def pair(left: list[str]) -> list[tuple[str, str]] | None:
        if not left:
            return []
        steps[0] += 1
        if steps[0] > SEARCH_LIMIT and not allow_repeats:
            return None
        top, rest = left[0], left[1:]
        options = [o for o in rest if o not in met[top]]
        if allow_repeats:  # the fresh opponents first, then the others
            options += [o for o in rest if o in met[top]]
        for other in options:
            after = pair([o for o in rest if o != other])
            if after is not None:
                return [(top, other), *after]
            if allow_repeats:
                break
        return None

    return pair([s.entrant for s in active])


def consecutive_tables(lines: Sequence[Standing], seats: int) -> list[list[str | None]]:
    """Tables of ``seats`` drawn by standing: the first ``seats`` ranked entrants at table
    one, the next at table two...; the last table's free seats are None (a bot)."""
    active = [line.entrant for line in ranked_active(lines)]
    tables: list[list[str | None]] = []
    for start in range(0, len(active), seats):
        table: list[str | None] = list(active[start : start + seats])
        tables.append(table + [None] * (seats - len(table)))
    return tables


def pair_round(
    lines: Sequence[Standing], seats: int, round_number: int, duplicate_round: bool = False
) -> dict[str, Any]:
    """The next round's ``tables`` (numbered from 1, each with its ``seats``) and ``byes``.
    Two-seat tables alternate who sits first from round to round; a duplicate round's
    tables are then turned as its group seats them (``shared.duplicate.turned``)."""
    tables: list[list[str | None]]
    if seats == 2:
        pairs, bye = swiss_pairs(lines)
        tables = [[a, b] if round_number % 2 else [b, a] for a, b in pairs]
        byes = [bye] if bye else []
    else:
        tables, byes = consecutive_tables(lines, seats), []
    if duplicate_round:
        tables = duplicate.turned(tables)
    return {
        "tables": [{"table": n, "seats": list(t)} for n, t in enumerate(tables, 1)],
        "byes": byes,
    }


def rounds_for(entrants: int) -> int:
    """A Swiss tournament's usual length: enough rounds for one unbeaten player (log2)."""
    return max(1, (max(entrants, 2) - 1).bit_length())
