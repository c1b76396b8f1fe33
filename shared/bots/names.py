"""What bots are called: the one player behind each strategy (its rating and leaderboard
line), and a name of its own for each seat it holds, so the bots of one match are told apart.
"""

from __future__ import annotations

#: A bot seat's name, by seat: a match's bots never share one.
SEAT_NAMES = (
    "Alba",
    "Bruno",
    "Celia",
    "Darío",
    "Elena",
    "Fermín",
    "Gala",
    "Hugo",
    "Irene",
    "Julio",
)


def player_name(strategy: str) -> str:
    """The name of the one bot player of ``strategy``: "random bot"."""
    return f"{strategy} bot"


def seat_name(seat: int) -> str:
    """The name a bot plays under at ``seat``: "Alba" at seat 0, "Bruno" at seat 1, ..."""
    lap, index = divmod(seat, len(SEAT_NAMES))
    return SEAT_NAMES[index] if lap == 0 else f"{SEAT_NAMES[index]} {lap + 1}"
