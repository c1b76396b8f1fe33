"""Players and their bearer tokens: random, stored only as a SHA-256, compared in constant time.

A token is ``secrets.token_urlsafe(32)`` (256 bits). Redis keeps one key per token,
named by the token's SHA-256, holding the player record; the token itself is never
stored, so a copy of the database lets nobody act as a player. Each process remembers
the players it authenticated for ``CACHE_SECONDS`` (tokens are never revoked today; a
revocation would take at most that long to reach every process), which saves a Redis
round trip on nearly every request.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass

import redis

from services.errors import Unauthorized

TOKEN_KEY = "tapete:token:{digest}"  # -> {"id", "name", "bot", "token_sha256"}
MAX_TOKEN_LENGTH = 256
BEARER = "bearer "
CACHE_SECONDS = 60.0
CACHE_SIZE = 10_000


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    bot: bool = False


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


class Players:
    """Registers players (people and bots) and finds the player behind a token."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._known: dict[str, tuple[Player, float]] = {}  # token digest -> player, expiry

    def register(self, name: str, bot: bool = False) -> tuple[Player, str]:
        """A new player and its token; the token is shown now and never again."""
        player = Player(id=secrets.token_hex(8), name=name, bot=bot)
        token = secrets.token_urlsafe(32)
        digest = token_digest(token)
        record = {"id": player.id, "name": name, "bot": bot, "token_sha256": digest}
        self.client.set(TOKEN_KEY.format(digest=digest), json.dumps(record), nx=True)
        return player, token

    def authenticate(self, token: str) -> Player:
        """The token's player, or 401. Looked up by hash, checked in constant time."""
        digest = token_digest(token)
        known = self._known.get(digest)
        if known and known[1] > time.monotonic():
            return known[0]
        raw = self.client.get(TOKEN_KEY.format(digest=digest))
        record = json.loads(raw) if raw else None  # type: ignore[arg-type]
        if not record or not hmac.compare_digest(record["token_sha256"], digest):
            raise Unauthorized("unknown or revoked token")
        player = Player(id=record["id"], name=record["name"], bot=record["bot"])
        if len(self._known) >= CACHE_SIZE:
            self._known.clear()
        self._known[digest] = (player, time.monotonic() + CACHE_SECONDS)
        return player
