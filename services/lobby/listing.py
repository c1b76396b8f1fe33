"""The match list's indexes: small sorted sets per filter, sharded by hash tag, so a page costs
the same at any size and no Redis Cluster slot takes every filing.

A match is filed, by its creation time in milliseconds, under every filter it passes:
everyone's list and each seated person's ("mine"), each of them for any game and for its
own game, and for any status, its own status and, while open with a seat free, "free".
Each filter's index is split into ``shards`` sorted sets; a match lives in one of them,
picked by a stable hash of its id (``shard_of``):

    tapete:{index.<k>}:matches:<scope>:<game>:<state>    sorted set: match id -> created (ms)

``k`` is ``crc32(match id) mod shards`` (``shard_of``, as the match log's partitions); ``scope`` is ``all`` or ``p.<player id>``, ``game``
is ``*`` or a game id, ``state`` is ``*``, ``open``, ``running``, ``finished`` or ``free``.
Every key of one match shares the hash tag ``{index.<k>}``, so one filing is one MULTI/EXEC
in one slot, and the filings of different matches spread over ``shards`` slots. A listing
reads the top of each shard after the cursor (``shards`` small ranges in one pipeline) and
merges them, then one page of match documents, whatever the number of matches.

The indexes are derivable: the lobby re-files a match after each append that changes its
filters (``keys_of`` differs), a listing that meets a stale member skips it and re-files
the match, and ``rebuild`` re-files every match from the snapshots (it is also how a
changed shard count takes effect).
"""

from __future__ import annotations

import heapq
import json
import re
from datetime import datetime
from typing import Any

import redis

from services.errors import BadRequest
from shared.eventstore import shard_of

from .match import OPEN, Match, open_seats, people

PATTERN = "tapete:{index*}:matches:*"  # every index key, of any shard count (and unsharded)
ANY = "*"
FREE = "free"
CURSOR = re.compile(r"(\d{1,16})-([A-Za-z0-9_.-]{1,128})")
FILED_BY = ("id", "game", "status", "seats")  # what keys_of reads of a match
AT_THE_CURSOR = 8  # a few more rows per read: the members at the cursor's own score


def key(scope: str, game: str, state: str, shard: int) -> str:
    return f"tapete:{{index.{shard}}}:matches:{scope}:{game}:{state}"


def scope_of(player_id: str | None) -> str:
    return "all" if player_id is None else f"p.{player_id}"


def created_ms(match: Match) -> int:
    return int(round(datetime.fromisoformat(match["created"]).timestamp() * 1000))


def keys_of(match: Match | None, shards: int) -> set[str]:
    """Every index key a match belongs to, all in its shard (none for None: not yet created)."""
    if match is None:
        return set()
    states = [ANY, match["status"]]
    if match["status"] == OPEN and open_seats(match):  # a seat a stranger may take
        states.append(FREE)
    scopes = [scope_of(None), *(scope_of(p) for p in people(match))]
    shard = shard_of(match["id"], shards)
    return {key(s, g, st, shard) for s in scopes for g in (ANY, match["game"]) for st in states}


def refile(client: redis.Redis, before: Match | None, after: Match, shards: int) -> None:
    """Move ``after`` from the indexes ``before`` was in to its own; idempotent."""
    if before is not None and all(before[k] == after[k] for k in FILED_BY):
        return  # a move: the same filters (most appends)
    old, new = keys_of(before, shards), keys_of(after, shards)
    if old == new and before is not None:
        return
    score = created_ms(after)
    pipe = client.pipeline(transaction=True)  # one slot: the match's {index.<k>}
    for gone in old - new:
        pipe.zrem(gone, after["id"])
    for kept in new:
        pipe.zadd(kept, {after["id"]: score})
    pipe.execute()


def unfile(client: redis.Redis, stale_key: str, match_id: str) -> None:
    client.zrem(stale_key, match_id)


def parse_cursor(cursor: str | None) -> tuple[int, str] | None:
    if cursor is None:
        return None
    found = CURSOR.fullmatch(cursor)
    if not found:
        raise BadRequest("the cursor is not one this server gave", code="bad_cursor")
    return int(found.group(1)), found.group(2)


def page_ids(
    client: redis.Redis, keys: list[str], limit: int, cursor: str | None
) -> tuple[list[str], str | None]:
    """Up to ``limit`` ids of the shards ``keys``, newest first, after ``cursor``; and the next
    cursor.

    The order is by score, then id, both descending (as ZREVRANGEBYSCORE gives one shard),
    so a cursor is a (score, id) pair and means the same whatever the shard count. The first
    ``limit + 1`` ids after it are among the first ``limit + 1`` of each shard: each shard's
    top is read (one pipeline for all), and the tops are merged.
    """
    after = parse_cursor(cursor)
    top = str(after[0]) if after else "+inf"
    want = limit + 1 + AT_THE_CURSOR
    tops: dict[str, list[tuple[int, str]]] = {k: [] for k in keys}
    offsets = dict.fromkeys(keys, 0)
    reading = list(keys)
    while reading:
        pipe = client.pipeline(transaction=False)
        for shard in reading:
            pipe.zrevrangebyscore(shard, top, "-inf", offsets[shard], want, withscores=True)
        rows_of: Any = pipe.execute()
        more = []
        for shard, rows in zip(reading, rows_of, strict=True):
            for member, score in rows:
                if after and int(score) == after[0] and member >= after[1]:
                    continue
                tops[shard].append((int(score), member))
            offsets[shard] += want
            if len(rows) == want and len(tops[shard]) <= limit:  # all skipped at the cursor
                more.append(shard)
        reading = more
    merged = heapq.merge(*tops.values(), reverse=True)  # each top is already descending
    ids = [pair for pair, _ in zip(merged, range(limit + 1), strict=False)]
    page = ids[:limit]
    following = f"{page[-1][0]}-{page[-1][1]}" if len(ids) > limit and page else None
    return [member for _, member in page], following


def rebuild(client: redis.Redis, snapshot_pattern: str, shards: int) -> int:
    """Drop every index (of any shard count) and re-file every match from its snapshot."""
    for stale in client.scan_iter(match=PATTERN, count=500):
        client.delete(stale)
    count = 0
    for snapshot in client.scan_iter(match=snapshot_pattern, count=500):
        raw = client.hget(snapshot, "match")
        if raw:
            refile(client, None, json.loads(raw), shards)  # type: ignore[arg-type]
            count += 1
    return count
