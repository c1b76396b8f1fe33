"""Quick match: a player asks to play a game now and is seated with others who asked the same.

A request waits in a queue of its kind (game, variant, players, options) until pairing.py
finds it a table. Every key lives under the one ``{quick}`` hash tag, so each step that
changes the queue is one Lua script on one Redis node, a cluster's too:

    enqueue  the request, if its player has none other waiting (so nobody is seated twice)
    seat     one table: every request still waiting, or nothing (so two lobby replicas
             pairing at once never seat a request twice, and a cancelled one is never seated)
    cancel   a waiting request only; a seated one answers with its match
    drop     a waiting request whose owner stopped polling (``ABANDONED_AFTER_S``)

The table's match id is drawn before its seat step and the table is kept in a hash of
tables to open until its match exists with every seat taken. One lobby at a time opens a
table (a lock that expires), each step already done is skipped, so a lobby that dies between
the two steps leaves a table the next pairing round opens, once.

Pairing runs on each request and on each poll of a waiting one (one round per kind at most
every ``ROUND_EVERY_MS``): the waiting clients' polls are the timer that widens the windows
and fills seats with bots after their wait.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from services.errors import BadRequest, Conflict, Forbidden, NotFound

from . import match as rules_of
from .pairing import Request, Table, tables
from .players import Player
from .seats import Seats

QUICK = "tapete:{{quick}}"  # a template: formatted, the hash tag {quick}
REQUEST_KEY = QUICK + ":request:{id}"  # -> what was asked (JSON, written once)
STATE_KEY = QUICK + ":state:{id}"  # hash: status, match, seen, left, reason
WAITING_KEY = QUICK + ":waiting:{kind}"  # zset: the kind's waiting request ids by time asked
MINE_KEY = QUICK + ":mine:{player}"  # set: a player's waiting request ids
TABLES_KEY = (QUICK + ":tables").format()  # hash: match id -> a table to open (JSON)
OPENING_KEY = QUICK + ":opening:{match}"  # held by the lobby opening that table
ROUND_KEY = QUICK + ":round:{kind}"  # held while a kind's pairing round is recent

WAITING, SEATED, CANCELLED, ABANDONED, FAILED = (
    "waiting", "seated", "cancelled", "abandoned", "failed",
)  # fmt: skip
OPENING = "opening"  # seated at a table whose match is still being opened (as shown only)
WAITING_PER_PLAYER = 1  # so nobody is seated twice: one request waits per player
ABANDONED_AFTER_S = 90.0  # a waiting request nobody polled for this long leaves the queue
KEPT_AFTER_S = 3600  # a request's record after it left the queue (its owner may still ask)
MAX_WAIT_S = 30  # a poll's longest wait
POLL_INTERVAL_S = 0.25
ROUND_EVERY_MS = 200  # one pairing round per kind at most this often, whoever polls
OPENING_FOR_S = 30  # a table's opener has this long before another lobby may take over
DEFAULT_BOT_LEVEL = "medium"
REQUEST_ID = re.compile(r"[0-9a-f]{16}")

# KEYS: request, state, waiting zset, player's set. ARGV: record, since, limit, id.
_ENQUEUE = """
if redis.call('SCARD', KEYS[4]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'status', 'waiting', 'seen', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[4])
redis.call('SADD', KEYS[4], ARGV[4])
return 1
"""

# One table, all or nothing. KEYS: the tables hash, the kind's waiting zset, then per request
# its record, state and player's set. ARGV: match id, table JSON, seconds kept, now, then
# the request ids in KEYS' order.
_SEAT = """
local n = (#KEYS - 2) / 3
for i = 1, n do
  if redis.call('HGET', KEYS[3 * i + 1], 'status') ~= 'waiting' then return 0 end
end
for i = 1, n do
  local id = ARGV[4 + i]
  redis.call('HSET', KEYS[3 * i + 1], 'status', 'seated', 'match', ARGV[1], 'left', ARGV[4])
  redis.call('EXPIRE', KEYS[3 * i], ARGV[3])
  redis.call('EXPIRE', KEYS[3 * i + 1], ARGV[3])
  redis.call('ZREM', KEYS[2], id)
  redis.call('SREM', KEYS[3 * i + 2], id)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""

# Leave the queue if still waiting: cancelled, or abandoned when not seen since ARGV[4]
# ('' : whenever). KEYS: request, state, waiting zset, player's set. ARGV: the new status,
# seconds kept, now, the cut-off, the id. Returns the status afterwards.
_LEAVE = """
local status = redis.call('HGET', KEYS[2], 'status')
if status ~= 'waiting' then return status end
if ARGV[4] ~= '' and tonumber(redis.call('HGET', KEYS[2], 'seen')) >= tonumber(ARGV[4]) then
  return status
end
redis.call('HSET', KEYS[2], 'status', ARGV[1], 'left', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[5])
redis.call('SREM', KEYS[4], ARGV[5])
return ARGV[1]
"""

# A poll keeps a waiting request in the queue. KEYS: state. ARGV: now.
_SEEN = """
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return 0 end
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
return 1
"""


def kind_key(request: Request) -> str:
    """The waiting queue of the request's kind (its kind's digest: options may be long)."""
    return WAITING_KEY.format(kind=hashlib.sha256(request.kind.encode()).hexdigest()[:16])


def as_request(record: dict[str, Any]) -> Request:
    return Request(
        id=record["id"], player=record["player"], game=record["game"],
        variant=record["variant"], players=record["players"], rating=record["rating"],
        since=record["since"], options=record["options"], bots_after=record["bots_after"],
    )  # fmt: skip


def public(record: dict[str, Any], now: float) -> dict[str, Any]:
    """What its owner sees of a request."""
    shown = {k: record[k] for k in ("id", "status", "game", "variant", "players", "options")}
    left = float(record["left"]) if record.get("left") else now
    shown.update(
        bots_after=record["bots_after"], bot_level=record["bot_level"], rating=record["rating"],
        match=record.get("match"), reason=record.get("reason"),
        waited_s=round(max(0.0, left - record["since"]), 3),
    )  # fmt: skip
    return shown


class QuickMatch:
    """The quick-match queue on the lobby's store, opening its tables through ``seats``."""

    def __init__(
        self,
        client: Any,
        seats: Seats,
        rating: Callable[[str, str], float],
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """``rating(player_id, game)``: the player's ordinal in the game (pairing.py)."""
        self.client = client
        self.seats = seats
        self.rating = rating
        self.clock = clock
        self.sleep = sleep
        self._enqueue = client.register_script(_ENQUEUE)
        self._seat = client.register_script(_SEAT)
        self._leave = client.register_script(_LEAVE)
        self._seen = client.register_script(_SEEN)

    # -- the use cases ---------------------------------------------------------------------
    def ask(
        self,
        player: Player,
        game: str,
        variant: str,
        players: int | None,
        options: dict[str, Any],
        bots_after: float | None,
        bot_level: str | None,
    ) -> dict[str, Any]:
        """Queue a request (checked as a new match would be) and try to pair it at once."""
        if player.bot:
            raise Forbidden("a bot seat's token cannot queue for a match")
        count = self.seats.checked_setup(game, variant, players, options)
        level = bot_level or DEFAULT_BOT_LEVEL
        rules_of.check_bot_strategy({"game": game}, level)
        self.seats.check_room_for_a_match(player)
        now, request_id = self.clock(), secrets.token_hex(8)
        record: dict[str, Any] = {
            "id": request_id, "player": player.id, "name": player.name,
            "game": game, "variant": variant, "players": count, "options": options,
            "bots_after": bots_after, "bot_level": level,
            "rating": self.rating(player.id, game), "since": now,
        }  # fmt: skip
        request = as_request(record)
        keys = [*self._keys(request_id), kind_key(request), MINE_KEY.format(player=player.id)]
        args = [json.dumps(record), now, WAITING_PER_PLAYER, request_id]
        if not self._enqueue(keys=keys, args=args):
            raise Conflict(
                "you already have a quick-match request waiting; cancel it or wait for it",
                code="too_many_requests_waiting",
            )
        self.pair(request)
        return public(self._owned(player, request_id), self.clock())

    def poll(self, player: Player, request_id: str, wait: float) -> dict[str, Any]:
        """The request, once it has left the queue or after ``wait`` seconds, pairing its kind
        meanwhile (each poll keeps it in the queue: ``ABANDONED_AFTER_S``)."""
        record = self._owned(player, request_id)
        deadline = self.clock() + min(max(wait, 0.0), MAX_WAIT_S)
        while True:
            if record["status"] == WAITING:
                self._seen(keys=[STATE_KEY.format(id=request_id)], args=[self.clock()])
                self.pair(as_request(record))
                record = self._owned(player, request_id)
            elif record["status"] == OPENING:  # its opener may have stopped: take over
                self.open_pending()
                record = self._owned(player, request_id)
            if record["status"] not in (WAITING, OPENING) or self.clock() >= deadline:
                return public(record, self.clock())
            self.sleep(POLL_INTERVAL_S)
            record = self._owned(player, request_id)

    def cancel(self, player: Player, request_id: str) -> dict[str, Any]:
        """Leave the queue. A request already seated cannot: 409 with its match."""
        record = self._owned(player, request_id)
        self._leave(keys=self._leave_keys(record), args=self._leave_args(record, CANCELLED, ""))
        record = self._owned(player, request_id)
        if record["status"] in (SEATED, OPENING):
            raise Conflict(
                "this request was already seated; play or leave its match",
                code="already_seated", details={"match": record["match"]},
            )  # fmt: skip
        return public(record, self.clock())

    # -- pairing ---------------------------------------------------------------------------
    def pair(self, request: Request) -> None:
        """One pairing round for ``request``'s kind: open the tables still to open, drop the
        abandoned requests, seat every table that can be formed now and open it."""
        self.open_pending()
        queue = kind_key(request)
        if not self.client.set(ROUND_KEY.format(kind=queue[-16:]), 1, nx=True, px=ROUND_EVERY_MS):
            return  # another poll ran this kind's round a moment ago
        now = self.clock()
        waiting = []
        for record in self._records(self.client.zrange(queue, 0, -1)):
            if record["status"] != WAITING:
                continue
            if float(record["seen"]) < now - ABANDONED_AFTER_S:
                cut_off = now - ABANDONED_AFTER_S
                self._leave(
                    keys=self._leave_keys(record), args=self._leave_args(record, ABANDONED, cut_off)
                )
                continue
            waiting.append(record)
        by_id = {record["id"]: record for record in waiting}
        for table in tables([as_request(r) for r in waiting], now):
            match_id = secrets.token_hex(8)
            doc = table_doc(table, by_id)
            keys, ids = [TABLES_KEY, queue], [r.id for r in table.requests]
            for seated in table.requests:
                keys += [*self._keys(seated.id), MINE_KEY.format(player=seated.player)]
            if self._seat(keys=keys, args=[match_id, json.dumps(doc), KEPT_AFTER_S, now, *ids]):
                self.open_table(match_id, doc)

    def open_pending(self) -> None:
        """Open every table seated but not yet opened (its lobby stopped in between)."""
        for match_id, raw in self.client.hgetall(TABLES_KEY).items():
            self.open_table(match_id, json.loads(raw))

    def open_table(self, match_id: str, table: dict[str, Any]) -> None:
        """The table's match: created, each person seated, bots in the free seats; full, it
        deals itself. Each step already done is skipped, so opening a table twice opens one
        match. A table the lobby refuses (its first player at their limit of open matches,
        say) fails its requests with the reason."""
        if not self.client.set(OPENING_KEY.format(match=match_id), 1, nx=True, ex=OPENING_FOR_S):
            return  # another lobby is opening it
        people = [Player(p["id"], p["name"]) for p in table["people"]]
        store = self.seats.store
        try:
            if not store.exists(match_id):
                self.seats.create_match(
                    people[0], table["game"], table["variant"], table["players"],
                    table["options"], match_id=match_id, sit_in=table["bot_level"],
                )  # fmt: skip
            for person in people:
                if rules_of.seat_of(store.load(match_id).match, person.id) is None:
                    self.seats.join(person, match_id)
            for seat in rules_of.open_seats(store.load(match_id).match):
                self.seats.add_bot(people[0], match_id, seat, table["bot_level"])
        except (BadRequest, Conflict, Forbidden) as refused:  # not an outage: it stays to open
            self._fail(table, refused.message)
        self.client.hdel(TABLES_KEY, match_id)

    # -- the records ---------------------------------------------------------------------------
    def _fail(self, table: dict[str, Any], reason: str) -> None:
        for request_id in table["requests"]:
            state = STATE_KEY.format(id=request_id)
            self.client.hset(state, mapping={"status": FAILED, "reason": reason, "match": ""})

    @staticmethod
    def _keys(request_id: str) -> list[str]:
        return [REQUEST_KEY.format(id=request_id), STATE_KEY.format(id=request_id)]

    def _leave_keys(self, record: dict[str, Any]) -> list[str]:
        player = MINE_KEY.format(player=record["player"])
        return [*self._keys(record["id"]), kind_key(as_request(record)), player]

    def _leave_args(self, record: dict[str, Any], status: str, cut_off: float | str) -> list[Any]:
        return [status, KEPT_AFTER_S, self.clock(), cut_off, record["id"]]

    def _records(self, request_ids: list[str]) -> list[dict[str, Any]]:
        """The requests with their state, those still stored, in order."""
        pipe = self.client.pipeline(transaction=False)
        for request_id in request_ids:
            pipe.get(REQUEST_KEY.format(id=request_id))
            pipe.hgetall(STATE_KEY.format(id=request_id))
        replies = pipe.execute() if request_ids else []
        records = []
        for raw, state in zip(replies[::2], replies[1::2], strict=True):
            if raw and state:
                records.append({**json.loads(raw), **state, "match": state.get("match") or None})
        return records

    def _owned(self, player: Player, request_id: str) -> dict[str, Any]:
        """The caller's own request; anybody else's, or an unknown one: 404."""
        valid = REQUEST_ID.fullmatch(request_id) is not None
        found = self._records([request_id]) if valid else []
        if not found or found[0]["player"] != player.id:
            raise NotFound(f"no quick-match request {request_id!r}")
        record = found[0]
        if record["status"] == SEATED and self.client.hexists(TABLES_KEY, record["match"]):
            record["status"] = OPENING  # its match does not exist yet, or lacks a seat
        return record


def table_doc(table: Table, records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What opening a table needs, kept until its match exists."""
    first = records[table.requests[0].id]
    return {
        "requests": [r.id for r in table.requests],
        "people": [{"id": r.player, "name": records[r.id]["name"]} for r in table.requests],
        "game": first["game"], "variant": first["variant"], "players": first["players"],
        "options": first["options"], "bots": table.bots, "bot_level": first["bot_level"],
    }  # fmt: skip
