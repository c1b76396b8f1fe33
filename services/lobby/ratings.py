"""A player's rating in a game, for quick match's pairing: the history service's projection.

The lobby asks the history service (``GET /v1/players/{id}/ratings/{game}``) once per
quick-match request. A rating is a preference, not a rule: when the history service does not
answer in time, or the player was never rated, the player counts as new (``NEW_PLAYER``) and
is paired as one; the request is never refused for it.
"""

from __future__ import annotations

import logging
from urllib.parse import quote

import requests

NEW_PLAYER = 0.0  # openskill's ordinal (mu - 3 sigma) before any match
TIMEOUT_S = 0.5

log = logging.getLogger("tapete.lobby")


class HistoryRatings:
    """``rating(player_id, game)`` from the history service at ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.session = requests.Session()

    def __call__(self, player_id: str, game: str) -> float:
        address = (
            f"{self.url}/v1/players/{quote(player_id, safe='')}/ratings/{quote(game, safe='')}"
        )
        try:
            answer = self.session.get(address, timeout=TIMEOUT_S)
            if answer.status_code == 404:
                return NEW_PLAYER
            answer.raise_for_status()
            return float(answer.json()["rating"])
        except (requests.RequestException, ValueError, KeyError) as exc:
            log.warning(
                "no rating from the history service", extra={"fields": {"error": repr(exc)}}
            )
            return NEW_PLAYER
