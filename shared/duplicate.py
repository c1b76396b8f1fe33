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


def rotated(entrants: int, tables: int) -> list[list[int]]:
    """Who sits where: table ``t`` seats entrant ``p`` at seat ``(p + t) mod entrants``, so
    with as many tables as seats every entrant holds every seat's cards once. Each table is
    the entrant at each seat."""
    return [[(seat - table) % entrants for seat in range(entrants)] for table in range(tables)]


def group_of(created: dict[str, Any]) -> dict[str, Any] | None:
    """The duplicate group a match belongs to, as its created document says (None: none)."""
    duplicate = created.get("duplicate")
    return duplicate if isinstance(duplicate, dict) else None


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
