"""Duplicate deals: the tables of one group play the same committed deals, and their results
are compared deal by deal, so that the luck of the cards cancels out (docs/lobby.md,
"Duplicate deals").

Pure functions, no I/O and nothing but the logs' own values: the lobby seats a group with
``rotated`` and shows its comparison with ``comparison``; the offline verifier
(``shared.verify``) finds a table's group with ``group_of``.

Every table of a group is dealt from the same server seed (its SHA-256 is the group's
commitment), under seed scheme 1, so the same seed deals the same cards to the same seat
at every table; rotating the players over the seats is what makes each of them hold each
seat's cards. A match's first deal is alike at every table in every game; its later deals
are too when its rules version draws chance deal by deal (``State.by_deal``) or deals
every deal from a fresh deck (``Game.deals_alike``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.engine import get_game

MIN_TABLES = 2
MAX_TABLES = 12  # a group's tables are opened in one request
HIDDEN = "duplicate_table_hidden"  # the refusal's code, where ``hidden_from`` holds


def rotated(entrants: int, tables: int) -> list[list[int]]:
    """Who sits where: table ``t`` seats entrant ``p`` at seat ``(p + t) mod entrants``, so
    with as many tables as seats every entrant holds every seat's cards once. Each table is
    the entrant at each seat."""
    return [[(seat - table) % entrants for seat in range(entrants)] for table in range(tables)]


def group_of(created: dict[str, Any]) -> dict[str, Any] | None:
    """The duplicate group a match belongs to, as its created document says (None: none)."""
    duplicate = created.get("duplicate")
    return duplicate if isinstance(duplicate, dict) else None


def hidden_from(duplicate: dict[str, Any] | None, revealed: bool, viewer: str | None) -> bool:
    """Whether a table's play is hidden from ``viewer`` (a person's id; None: a reader the
    service does not know). ``duplicate``: the table's ``duplicate`` field (None: not a
    duplicate table), whose ``people`` are the persons of each table of its group; ``revealed``:
    whether the table has its ``seed.revealed`` entry. A person seated at another table of
    the group holds the same cards there: until the group's seed is revealed (every table
    finished), the table is hidden from them, and from any reader not known while the
    group seats a person at another table. Its own players and strangers read it as ever."""
    if duplicate is None or revealed:
        return False
    others = {
        person
        for table, people in enumerate(duplicate.get("people") or [])
        if table != duplicate.get("table")
        for person in people
    }
    return bool(others) if viewer is None else viewer in others


def deals_of(result: dict[str, Any] | None) -> list[list[int]]:
    """A finished table's points by deal, each a list by seat: the rules' score sheet
    (``result.rounds``); a game of one deal a match (no sheet), its final scores."""
    if not result:
        return []
    rounds = result.get("rounds") or []
    if rounds:
        return [list(points) for points in rounds]
    scores = result.get("scores")
    return [list(scores)] if scores else []


def every_deal_alike(game: str, table: dict[str, Any], options: dict[str, Any]) -> bool:
    """Whether every deal of a table, not only its first, was dealt as at the other tables of
    its group: from the rules version the table recorded (``rules_version``, None before it
    was dealt) and the group's options (``Game.deals_alike``)."""
    version = table.get("rules_version")
    return version is not None and get_game(game).deals_alike(version, options)


def comparison(
    game: str, tables: Sequence[dict[str, Any]], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The deal-by-deal comparison of a group's finished tables of ``game``.

    ``tables``: by table, ``{"match", "entrants" (the entrant at each seat), "seats" (the
    match's seats), "result", "rules_version"}``. For each deal every table played, each
    seat's cards: who held them at each table and the points they made; then each entrant's
    points over the deals compared, and each seat's spread (its best table's points less its
    worst's), the part of a result that was play rather than cards. ``same_cards``: whether
    the deal was alike at every table: the first deal always, a later one when every table's
    rules deal each deal alike (``every_deal_alike``, with the group's ``options``)."""
    sheets = [deals_of(table.get("result")) for table in tables]
    compared = min((len(sheet) for sheet in sheets), default=0)
    players = len(tables[0]["entrants"]) if tables else 0
    later_alike = all(every_deal_alike(game, table, options or {}) for table in tables)
    deals = []
    for deal in range(compared):
        seats = []
        for seat in range(players):
            held = [
                {
                    "table": t,
                    "match": table["match"],
                    "entrant": table["entrants"][seat],
                    "name": table["seats"][seat].get("name"),
                    "bot": table["seats"][seat].get("bot"),
                    "points": sheets[t][deal][seat],
                }
                for t, table in enumerate(tables)
            ]
            points = [cell["points"] for cell in held]
            seats.append({"seat": seat, "tables": held, "spread": max(points) - min(points)})
        deals.append({"deal": deal + 1, "same_cards": deal == 0 or later_alike, "seats": seats})
    totals = [0] * players
    for t, table in enumerate(tables):
        for deal in range(compared):
            for seat, entrant in enumerate(table["entrants"]):
                totals[entrant] += sheets[t][deal][seat]
    return {
        "compared_deals": compared,
        "deals_played": [len(sheet) for sheet in sheets],
        "deals": deals,
        "entrants": [{"entrant": e, "points": points} for e, points in enumerate(totals)],
    }


def turned(tables: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """A round's tables (each, by seat, who sits there) as a duplicate group seats them:
    table ``t`` turned by ``t`` seats (``rotated``), so that each seat's cards go to players
    of every part of the standings (two seats: alternate tables swap who holds seat 0)."""
    if not tables:
        return []
    order = rotated(len(tables[0]), len(tables))
    return [[table[i] for i in order[t]] for t, table in enumerate(tables)]


def matchpoints(game: str, tables: Sequence[dict[str, Any]]) -> tuple[dict[Any, float], float]:
    """Each entrant's matchpoints in one duplicate round, and what an average result scores.

    ``tables``: by table (seated as ``turned`` seats them), ``{"match", "seats" (the entrant
    at each seat; None: a bot filling a short table), "deals" (``deals_of`` its result),
    "no_shows" (seats), "rules_version" and "options" (its setup's)}``. For every deal the tables' cards were alike in (``comparison``'s
    ``same_cards``) and every seat, each table's points with that seat's cards are ranked
    against the other tables' with the same cards: 1 for each beaten, 0.5 for each tie. The
    entrant at that seat scores them; a no-show scores none (the cells still count for the
    others), a filler bot's go to nobody. The average: half of what beating every other
    table on every deal would give, ``(tables - 1) / 2`` a deal and seat (a bye's score)."""
    groups = [
        {
            "match": table["match"],
            "entrants": order,
            "seats": [{"name": entrant} for entrant in table["seats"]],
            "result": {"rounds": table["deals"]},
            "rules_version": table.get("rules_version"),
        }
        for table, order in zip(tables, rotated(len(tables[0]["seats"]), len(tables)), strict=True)
    ] if tables else []  # fmt: skip
    compared = comparison(game, groups, tables[0].get("options") if tables else None)
    scored = {e: 0.0 for table in tables for e in table["seats"] if e is not None}
    alike = [deal for deal in compared["deals"] if deal["same_cards"]]
    for deal in alike:
        for seat in deal["seats"]:
            cells = seat["tables"]
            for cell in cells:
                table = tables[cell["table"]]
                entrant = table["seats"][seat["seat"]]
                if entrant is None or seat["seat"] in (table.get("no_shows") or ()):
                    continue
                scored[entrant] += sum(
                    1.0 if cell["points"] > other["points"] else 0.5
                    for other in cells
                    if other is not cell and cell["points"] >= other["points"]
                )
    return scored, len(alike) * (len(tables) - 1) / 2
