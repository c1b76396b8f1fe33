"""Players and their bearer tokens: random, stored only as a SHA-256, compared in constant time.

A person's token is ``secrets.token_urlsafe(32)`` (256 bits). Redis keeps one key per
token, named by the token's SHA-256, holding the player record; the token itself is never
stored, so a copy of the database lets nobody act as a player. Every request looks its
token up (one GET), so a rotated or revoked token gets 401 at once, in every process.

Bots are a few named players, one per strategy (``bot-<strategy>``), each marked
``bot: true``; one bot may hold several seats, even of one match. A bot seat's token is
derived from a server key (``TAPETE_BOT_TOKEN_KEY``), the match and the seat, so the bot
workers can make it without reading it anywhere, and it is stored, like a person's, only
as its hash, with the match and seat it may act for. It is revoked when the match ends.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

import redis

from services.errors import Forbidden, Unauthorized

TOKEN_KEY = "tapete:token:{digest}"  # -> {"id", "name", "bot", "token_sha256", "match", "seat"}
MAX_TOKEN_LENGTH = 256
BEARER = "bearer "
BOT_ID_PREFIX = "bot-"


@dataclass(frozen=True)
class Player:
    """A caller. A bot seat's token names the one ``match`` and ``seat`` it acts for."""

    id: str
    name: str
    bot: bool = False
    match: str | None = None
    seat: int | None = None


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header, or 401."""
    if not authorization or not authorization[: len(BEARER)].lower() == BEARER:
        raise Unauthorized("send Authorization: Bearer <token> (POST /v1/players gives one)")
    token = authorization[len(BEARER) :].strip()
    if not token or len(token) > MAX_TOKEN_LENGTH:
        raise Unauthorized("the bearer token is malformed")
    return token


def bot_player(strategy: str) -> Player:
    """The one bot player of a strategy: every seat it plays is this player."""
    return Player(id=f"{BOT_ID_PREFIX}{strategy}", name=f"{strategy} bot", bot=True)


def bot_seat_token(key: str, match_id: str, seat: int) -> str:
    """The token of a bot's seat: HMAC-SHA256 of the match and seat under the server key."""
    if not key:
        raise ValueError("a bot token key is needed (Settings.with_secrets gives one)")
    mac = hmac.new(key.encode(), f"bot-seat:{match_id}:{seat}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


class Players:
    """Registers players, finds the player behind a token, rotates and revokes tokens."""

    def __init__(self, client: redis.Redis, bot_token_key: str) -> None:
        self.client = client
        self.bot_token_key = bot_token_key

    def register(self, name: str) -> tuple[Player, str]:
        """A new person and its token; the token is shown now and never again."""
        player = Player(id=secrets.token_hex(8), name=name)
        return player, self._issue({"id": player.id, "name": name, "bot": False})

    def authenticate(self, token: str) -> Player:
        """The token's player, or 401. Looked up by hash, checked in constant time."""
        record = self._record(token)
        return Player(
            id=record["id"], name=record["name"], bot=record["bot"],
            match=record.get("match"), seat=record.get("seat"),
        )  # fmt: skip

    def rotate(self, token: str) -> tuple[Player, str]:
        """A new token for the token's person; the old one stops working now."""
        record = self._record(token)
        if record.get("match") is not None:
            raise Forbidden("a bot seat's token cannot be rotated", code="bot_token")
        new = self._issue({k: record[k] for k in ("id", "name", "bot")})
        self.client.delete(TOKEN_KEY.format(digest=token_digest(token)))
        return self.authenticate(new), new

    def revoke(self, token: str) -> None:
        """Log out: the token gets 401 from now on."""
        self._record(token)
        self.client.delete(TOKEN_KEY.format(digest=token_digest(token)))

    # -- bot seats -------------------------------------------------------------------------
    def seat_bot(self, bot: Player, match_id: str, seat: int) -> None:
        """Store the hash of the bot seat's token, scoped to that match and seat."""
        record = {"id": bot.id, "name": bot.name, "bot": True, "match": match_id, "seat": seat}
        self._store(bot_seat_token(self.bot_token_key, match_id, seat), record)

    def bot_seat_token(self, match_id: str, seat: int) -> str:
        return bot_seat_token(self.bot_token_key, match_id, seat)

    def revoke_bot_seats(self, match_id: str, seats: list[int]) -> None:
        """The bot seats' tokens stop working (their match has ended)."""
        keys = [
            TOKEN_KEY.format(digest=token_digest(self.bot_seat_token(match_id, s))) for s in seats
        ]
        for key in keys:  # one key at a time: each has a cluster slot of its own
            self.client.delete(key)

    # -- storage ---------------------------------------------------------------------------
    def _issue(self, record: dict[str, Any]) -> str:
        token = secrets.token_urlsafe(32)
        self._store(token, record)
        return token

    def _store(self, token: str, record: dict[str, Any]) -> None:
        digest = token_digest(token)
        self.client.set(
            TOKEN_KEY.format(digest=digest), json.dumps({**record, "token_sha256": digest})
        )

    def _record(self, token: str) -> dict[str, Any]:
        digest = token_digest(token)
        raw = self.client.get(TOKEN_KEY.format(digest=digest))
        record = json.loads(raw) if raw else None  # type: ignore[arg-type]
        if not record or not hmac.compare_digest(record["token_sha256"], digest):
            raise Unauthorized("unknown or revoked token")
        return record
