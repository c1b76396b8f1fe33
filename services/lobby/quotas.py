"""What one player, or all of them, may hold in the store: open matches, and room in Redis.

A match nobody starts costs memory for ever, and a full Redis refuses every write, moves
included. So each player holds at most ``open_per_player`` open matches, an open match
unchanged for ``open_idle_s`` seconds is deleted by Redis itself (its keys expire; a start
makes them permanent), and new matches are refused once Redis uses ``memory_fraction`` of
its ``maxmemory``, leaving the rest to the moves of running matches.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import redis

from services.errors import Conflict, Unavailable
from services.settings import Settings

from .match import OPEN

OPEN_KEY = "tapete:player:{player}:open"  # set: the ids of the open matches a player created


@dataclass(frozen=True)
class Quotas:
    open_per_player: int = Settings.open_matches_per_player
    open_idle_s: int = Settings.open_match_idle_s
    memory_fraction: float = Settings.new_match_memory_fraction

    @classmethod
    def from_settings(cls, settings: Settings) -> Quotas:
        return cls(
            settings.open_matches_per_player,
            settings.open_match_idle_s,
            settings.new_match_memory_fraction,
        )


DEFAULT_QUOTAS = Quotas()


class OpenMatches:
    """Each player's open matches, to cap them. A member that is no longer open (started, or
    expired) is dropped when counted, so nothing has to tell this set that a match moved on."""

    def __init__(self, client: redis.Redis, quotas: Quotas) -> None:
        self.client = client
        self.quotas = quotas

    def check_room(self, player_id: str, snapshot_key: Callable[[str], str]) -> None:
        """Refuse (409) a new match of a player who already has the most open ones allowed;
        ``snapshot_key`` names a match's snapshot, where its status is read."""
        key = OPEN_KEY.format(player=player_id)
        ids = sorted(str(m) for m in self.client.smembers(key))  # type: ignore[union-attr]
        if len(ids) < self.quotas.open_per_player:
            return
        pipe = self.client.pipeline(transaction=False)
        for match_id in ids:
            pipe.hget(snapshot_key(match_id), "match")
        gone = [m for m, doc in zip(ids, pipe.execute(), strict=True) if not _is_open(doc)]
        if gone:
            self.client.srem(key, *gone)
        if len(ids) - len(gone) >= self.quotas.open_per_player:
            raise Conflict(
                f"you have {self.quotas.open_per_player} open matches already: start one, "
                "or wait for one to expire",
                code="too_many_open_matches",
            )

    def created(self, player_id: str, match_id: str) -> None:
        key = OPEN_KEY.format(player=player_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.sadd(key, match_id)
        pipe.expire(key, self.quotas.open_idle_s)  # outlives its members' keys by no more
        pipe.execute()

    def keep(self, keys: Iterable[str], still_open: bool) -> None:
        """An open match's keys expire after the idle time, counted again from each change;
        a started match's are kept."""
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            if still_open:
                pipe.expire(key, self.quotas.open_idle_s)
            else:
                pipe.persist(key)
        pipe.execute()


def check_memory(client: redis.Redis, fraction: float) -> None:
    """Refuse (503) to create a match once Redis uses ``fraction`` of its maxmemory."""
    if fraction <= 0:
        return
    info: dict = client.info("memory")  # type: ignore[assignment]
    limit = int(info.get("maxmemory") or 0)
    if limit and int(info["used_memory"]) >= fraction * limit:
        raise Unavailable(
            "the match store is nearly full: no new matches for now; running matches go on",
            code="store_full",
        )


def _is_open(doc: str | bytes | None) -> bool:
    return doc is not None and json.loads(doc)["status"] == OPEN
