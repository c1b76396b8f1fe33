"""The match list's indexes: small sorted sets per filter, so a page costs the same at any size.

A match is filed, by its creation time in milliseconds, under every filter it passes:
everyone's list and each seated person's ("mine"), each of them for any game and for its
own game, and for any status, its own status and, while open with a seat free, "free".

    tapete:{index}:matches:<scope>:<game>:<state>    sorted set: match id -> created (ms)

``scope`` is ``all`` or ``p.<player id>``, ``game`` is ``*`` or a game id, ``state`` is
``*``, ``open``, ``running``, ``finished`` or ``free``. Every key shares the hash tag
``{index}``, so one filing is one MULTI/EXEC in one Redis Cluster slot. A listing reads one
range of one key and one page of match documents, whatever the number of matches.

The indexes are derivable: the lobby re-files a match after each append that changes its
filters (``keys_of`` differs), a listing that meets a stale member skips it and re-files
the match, and ``rebuild`` re-files every match from the snapshots.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

import redis

from services.errors import BadRequest

from .match import OPEN, Match, open_seats, people

PREFIX = "tapete:{index}:matches"
ANY = "*"
FREE = "free"
CURSOR = re.compile(r"(\d{1,16})-([A-Za-z0-9_.-]{1,128})")


def key(scope: str, game: str, state: str) -> str:
    return f"{PREFIX}:{scope}:{game}:{state}"


def scope_of(player_id: str | None) -> str:
    return "all" if player_id is None else f"p.{player_id}"


def created_ms(match: Match) -> int:
    return int(round(datetime.fromisoformat(match["created"]).timestamp() * 1000))


def keys_of(match: Match | None) -> set[str]:
    """Every index a match belongs to (none for None: a match not yet created)."""
    if match is None:
        return set()
    states = [ANY, match["status"]]
    if match["status"] == OPEN and open_seats(match):  # a seat a stranger may take
        states.append(FREE)
    scopes = [scope_of(None), *(scope_of(p) for p in people(match))]
    return {key(s, g, st) for s in scopes for g in (ANY, match["game"]) for st in states}


def refile(client: redis.Redis, before: Match | None, after: Match) -> None:
    """Move ``after`` from the indexes ``before`` was in to its own; idempotent."""
    old, new = keys_of(before), keys_of(after)
    if old == new and before is not None:
        return
    score = created_ms(after)
    pipe = client.pipeline(transaction=True)  # one slot: {index}
    for gone in old - new:
        pipe.zrem(gone, after["id"])
    for kept in new:
        pipe.zadd(kept, {after["id"]: score})
    pipe.execute()


def unfile(client: redis.Redis, stale_keys: set[str], match_id: str) -> None:
    pipe = client.pipeline(transaction=True)
    for stale in stale_keys:
        pipe.zrem(stale, match_id)
    pipe.execute()


def parse_cursor(cursor: str | None) -> tuple[int, str] | None:
    if cursor is None:
        return None
    found = CURSOR.fullmatch(cursor)
    if not found:
        raise BadRequest("the cursor is not one this server gave", code="bad_cursor")
    return int(found.group(1)), found.group(2)


def page_ids(
    client: redis.Redis, index: str, limit: int, cursor: str | None
) -> tuple[list[str], str | None]:
    """Up to ``limit`` ids of ``index``, newest first, after ``cursor``; and the next cursor.

    Members of one score come in descending id order (as ZREVRANGEBYSCORE gives them), so
    a cursor is a (score, id) pair: the page goes on below it in that order.
    """
    after = parse_cursor(cursor)
    top, offset = (str(after[0]) if after else "+inf"), 0
    ids: list[tuple[str, int]] = []
    while len(ids) <= limit:
        want = limit + 1 - len(ids) + 8  # a few more: the members at the cursor's own score
        rows: Any = client.zrevrangebyscore(index, top, "-inf", offset, want, withscores=True)
        for member, score in rows:
            if after and int(score) == after[0] and member >= after[1]:
                continue
            ids.append((member, int(score)))
        if len(rows) < want:
            break
        offset += want
    page = ids[:limit]
    more = len(ids) > limit
    return [m for m, _ in page], (f"{page[-1][1]}-{page[-1][0]}" if more and page else None)


def rebuild(client: redis.Redis, snapshot_pattern: str) -> int:
    """Drop every index and re-file every match from its snapshot."""
    for stale in client.scan_iter(match=f"{PREFIX}:*", count=500):
        client.delete(stale)
    count = 0
    for snapshot in client.scan_iter(match=snapshot_pattern, count=500):
        raw = client.hget(snapshot, "match")
        if raw:
            refile(client, None, json.loads(raw))  # type: ignore[arg-type]
            count += 1
    return count
