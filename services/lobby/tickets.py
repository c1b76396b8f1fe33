"""Stream tickets: short-lived, single-use, bound to one player and one match.

Browsers' EventSource cannot send an Authorization header, and a bearer token in a URL
ends up in access logs. A client trades its token for a ticket (``POST
/v1/matches/{id}/stream-ticket``) and puts the ticket in the stream URL: it is good for
one connection, to that match, within ``TICKET_SECONDS``, and only its hash is stored.
"""

from __future__ import annotations

import hashlib
import json
import secrets

import redis

from services.errors import Forbidden, Unauthorized

from .players import Player

TICKET_KEY = "tapete:ticket:{digest}"  # -> {"player", "name", "bot", "match"}, expiring
TICKET_SECONDS = 30
MAX_TICKET_LENGTH = 128


def _key(ticket: str) -> str:
    return TICKET_KEY.format(digest=hashlib.sha256(ticket.encode()).hexdigest())


class Tickets:
    def __init__(self, client: redis.Redis, seconds: int = TICKET_SECONDS) -> None:
        self.client = client
        self.seconds = seconds

    def issue(self, player: Player, match_id: str) -> str:
        ticket = secrets.token_urlsafe(24)
        record = {"player": player.id, "name": player.name, "bot": player.bot, "match": match_id}
        self.client.set(_key(ticket), json.dumps(record), ex=self.seconds)
        return ticket

    def redeem(self, ticket: str, match_id: str) -> Player:
        """The ticket's player, once: 401 when unknown, expired or used; 403 for another match."""
        if not ticket or len(ticket) > MAX_TICKET_LENGTH:
            raise Unauthorized("the stream ticket is malformed", code="invalid_ticket")
        raw = self.client.getdel(_key(ticket))
        if not raw:
            raise Unauthorized(
                "the stream ticket is unknown, expired or used", code="invalid_ticket"
            )
        record = json.loads(raw)  # type: ignore[arg-type]
        if record["match"] != match_id:
            raise Forbidden("the stream ticket is for another match", code="ticket_mismatch")
        return Player(id=record["player"], name=record["name"], bot=record["bot"])
