"""The match log: an append-only Redis stream per match, written by one atomic Lua script.

Entry ids are `0-<version>` (1, 2, 3, ...), so Redis itself refuses an out-of-order append,
a second guard behind the script's version check. The same script writes the snapshot, the
action-id answer and the feed notification, so readers never see one without the others.

Keys, with P = crc32(match id) % partitions:

    tapete:{p<P>}:match:<id>:log       stream, entry 0-<version>: entry (``encode_entry``), kind
    tapete:{p<P>}:match:<id>:snapshot  hash: version, state and the caller's fields (JSON)
    tapete:{p<P>}:match:<id>:actions   hash, per owner O of action ids (a player, "system"):
                                       O:id the latest action id, O:answer its first answer
                                       (JSON), O:used a tag of every id O used (",<tag>"...)
    tapete:{p<P>}:feed                 stream: match, version, kind, event (public, JSON),
                                       and the caller's ``notification_fields`` (traceparent)

Every key of a match carries the hash tag of its feed partition, `{p<P>}`: the script's keys
then live in one Redis Cluster slot, and the feed can be split into partitions there.
The log is never trimmed here; only the feed (a notification stream) is capped.

``Durability`` says when an append counts as done: by default once the primary has it in
memory (its append-only file is fsynced within a second); with ``replicas`` once that many
replicas have it too (WAIT), with ``fsync`` once it is fsynced (WAITAOF). Only then does
``append`` return: a move acknowledged to a client survives what the mode promises.
"""

from __future__ import annotations

import base64
import hashlib
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import redis

from shared import jsoncodec
from shared.redisconn import is_cluster, node_client, refresh_topology

KEY_PREFIX = "tapete"
MATCH_SEGMENT = "match"
LOG_SUFFIX = "log"
SNAPSHOT_SUFFIX = "snapshot"
ACTIONS_SUFFIX = "actions"
FEED_SUFFIX = "feed"

DEFAULT_FEED_MAXLEN = 1_000_000
MAX_WAIT_SECONDS = 30.0
MATCH_ID = re.compile(r"[A-Za-z0-9_.-]{1,128}")
MAX_ACTION_ID_LENGTH = 200
ACTION_TAG_LENGTH = 12  # hex digits (48 bits) of an action id kept to know it was used
RESERVED_FIELD = "version"  # set by the store, never by the caller

# A log entry is its JSON deflated against this dictionary (the strings entries repeat most,
# the likeliest last), in base 64 after ENTRY_CODEC: about a third of the JSON's size. The
# dictionary is part of the stored format: never change it; a new one needs a new prefix.
# "z1:" (the same, in base 85) is still read: base 85 is Python code in the standard library,
# some 40 times slower than base 64's C for a 6% smaller entry.
ENTRY_CODEC = "z2:"
BASE85_CODEC = "z1:"
ENTRY_DICTIONARY = (
    b'"result":null,"seed":null,"reason":"cards":[],"visible_to":[0]'
    b'"type":"match_created","game":"bot.added","match.created","match.started"'
    b',"points":0},{"type":"drew","seat":1,"card":null,"visible_to":[1]}'
    b',{"type":"trick_won","seat":0,"cards":["'
    b'{"time":"2026-01-01T00:00:00.000Z","action":{"type":"play","card":"'
    b'"rules_version":"tapete-0.1.0/","state_hash":"'
    b'"status":"running","to_act":[1],"deadline":null,"turn_deadline":null,"kind":"action",'
    b'"actor":{"player":"bot-random","seat":0,"system":false},'
    b'"events":[{"type":"played","seat":0,"card":"'
    b'"}],"finished":false}'
)
ENTRY_WINDOW_BITS = -15  # raw deflate, no header: the prefix says what the bytes are


def encode_entry(entry: dict[str, Any]) -> str:
    """How a log entry is stored: deflated JSON, in base 64 (readable as text everywhere)."""
    deflate = zlib.compressobj(6, zlib.DEFLATED, ENTRY_WINDOW_BITS, zdict=ENTRY_DICTIONARY)
    packed = deflate.compress(jsoncodec.dumps(entry)) + deflate.flush()
    return ENTRY_CODEC + base64.b64encode(packed).decode()


def decode_entry(stored: str) -> dict[str, Any]:
    """A stored log entry: deflated (``encode_entry``; base 85 as "z1:"), or plain JSON as
    logs held before either."""
    if stored.startswith(ENTRY_CODEC):
        packed = base64.b64decode(stored[len(ENTRY_CODEC) :])
    elif stored.startswith(BASE85_CODEC):
        packed = base64.b85decode(stored[len(BASE85_CODEC) :])
    else:
        return jsoncodec.loads(stored)
    inflate = zlib.decompressobj(ENTRY_WINDOW_BITS, zdict=ENTRY_DICTIONARY)
    return jsoncodec.loads(inflate.decompress(packed) + inflate.flush())


# KEYS: log, snapshot, actions, feed.
# ARGV: expected version, action id ('' = none), its owner, its tag, answer record, feed maxlen,
#       entry json, kind, number of snapshot fields n, n field/value pairs, then the feed's
#       field/value pairs.
# Redis does not roll a script back, so every check runs before the first write; the log's
# XADD comes first among the writes, so if Redis still refuses it nothing has been written.
APPEND_SCRIPT = """
local log, snapshot, actions, feed = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local wanted = {[log] = 'stream', [snapshot] = 'hash', [actions] = 'hash', [feed] = 'stream'}
for key, kind in pairs(wanted) do
  local found = redis.call('TYPE', key).ok
  if found ~= 'none' and found ~= kind then
    return {'broken', key .. ' is a ' .. found .. ', not a ' .. kind}
  end
end

local action_id, owner = ARGV[2], ARGV[3]
local used = ''
if action_id ~= '' then
  local kept = redis.call('HMGET', actions, owner .. ':id', owner .. ':answer', owner .. ':used')
  if kept[1] == action_id then return {'duplicate', kept[2]} end
  used = kept[3] or ''
  if string.find(used, ',' .. ARGV[4], 1, true) then return {'expired', ''} end
end

local current = tonumber(redis.call('HGET', snapshot, 'version') or '0')
if current ~= tonumber(ARGV[1]) then return {'conflict', current} end

local tail = redis.call('XREVRANGE', log, '+', '-', 'COUNT', 1)[1]
local tail_id = tail and tail[1] or '0-0'
if tail_id ~= '0-' .. current then
  return {'broken', 'log ends at ' .. tail_id .. ' but the snapshot is at version ' .. current}
end

local version = current + 1
redis.call('XADD', log, '0-' .. version, 'entry', ARGV[7], 'kind', ARGV[8])
local n = tonumber(ARGV[9])
redis.call('HSET', snapshot, 'version', version, unpack(ARGV, 10, 9 + 2 * n))
if action_id ~= '' then
  redis.call('HSET', actions, owner .. ':id', action_id, owner .. ':answer', ARGV[5],
             owner .. ':used', used .. ',' .. ARGV[4])
end
redis.call('XADD', feed, 'MAXLEN', '~', ARGV[6], '*', unpack(ARGV, 10 + 2 * n))
return {'ok', version}
"""


@dataclass(frozen=True)
class Durability:
    """When an append is acknowledged: ``replicas`` replicas have it (WAIT), and with
    ``fsync`` the primary (and those replicas) have fsynced it to their append-only file
    (WAITAOF; the servers need ``appendonly yes``). Each waits at most ``timeout_ms``."""

    replicas: int = 0
    fsync: bool = False
    timeout_ms: int = 1000

    @property
    def waits(self) -> bool:
        return self.replicas > 0 or self.fsync

    def command(self) -> list[str | int]:
        if self.fsync:
            return ["WAITAOF", 1, self.replicas, self.timeout_ms]
        return ["WAIT", self.replicas, self.timeout_ms]

    def met(self, reply: Any) -> bool:
        """Whether WAIT's count (or WAITAOF's [local, replicas]) meets the promise."""
        if self.fsync:
            local, replicas = (int(n) for n in reply)
            return local >= 1 and replicas >= self.replicas
        return int(reply) >= self.replicas


class NotDurable(redis.TimeoutError):
    """The append is written but not yet as durable as promised (a replica or the disk did not
    confirm in time): not acknowledged, so the caller retries (with its action id) or fails."""


class VersionConflict(Exception):
    """The expected version is stale: someone else appended first (HTTP 409)."""

    def __init__(self, current_version: int) -> None:
        super().__init__(f"stale expected version; the match is at version {current_version}")
        self.current_version = current_version


class ActionIdExpired(Exception):
    """The action id was used before by the same owner, but its answer is no longer kept:
    only the owner's latest action's is (nothing written; HTTP 409)."""

    def __init__(self) -> None:
        super().__init__("this action id was answered before; its answer is no longer kept")


class BrokenLog(RuntimeError):
    """A match's keys are not what the store wrote (wrong type, log and snapshot disagree)."""


@dataclass(frozen=True)
class AppendResult:
    """`ok`: the action is recorded at `version`; `duplicate`: by an earlier call."""

    ok: bool
    version: int
    duplicate: bool
    answer: dict[str, Any] | None
    fingerprint: str | None = None  # what the action id was first used for (a duplicate's)


@dataclass(frozen=True)
class KeptAnswer:
    """What the match keeps of an owner's action id: ``latest`` (its answer is kept:
    ``version``, ``answer``, ``fingerprint``), ``older`` (used, answer no longer kept),
    ``unknown`` (never used), or ``gone`` (the match keeps no answers at all: expired, or
    no action id was ever sent)."""

    status: str
    version: int | None = None
    answer: dict[str, Any] | None = None
    fingerprint: str | None = None


def action_tag(action_id: str) -> str:
    """A short hash of an action id: what is kept of every id once its answer is not."""
    return hashlib.sha256(action_id.encode()).hexdigest()[:ACTION_TAG_LENGTH]


class MatchKeys(NamedTuple):
    log: str
    snapshot: str
    actions: str
    feed: str


def _text(value: str | bytes) -> str:
    """Works with clients made with or without decode_responses."""
    return value.decode() if isinstance(value, bytes) else value


def shard_of(match_id: str, shards: int) -> int:
    """Which of ``shards`` a match falls in: crc32, stable across processes (unlike ``hash``)."""
    return zlib.crc32(match_id.encode()) % shards


class MatchLog:
    """Append-only match logs with compare-and-append on the match version."""

    def __init__(
        self,
        client: Any,
        partitions: int = 1,
        feed_maxlen: int = DEFAULT_FEED_MAXLEN,
        durability: Durability = Durability(),
        notification_fields: Callable[[], Mapping[str, str]] | None = None,
    ) -> None:
        """``client``: a ``redis.Redis`` or a ``redis.cluster.RedisCluster``.
        ``notification_fields``: more fields for each feed notification, asked at each
        append (the services' trace context); readers ignore fields they do not know."""
        if partitions < 1 or feed_maxlen < 1:
            raise ValueError("partitions and feed_maxlen must be positive")
        self.client = client
        self.partitions = partitions
        self.feed_maxlen = feed_maxlen
        self.durability = durability
        self.notification_fields = notification_fields
        self._append = client.register_script(APPEND_SCRIPT)

    def partition(self, match_id: str) -> int:
        return shard_of(match_id, self.partitions)

    def feed_key(self, partition: int) -> str:
        """The notification stream consumers (history, bots) read for one partition."""
        return self.partition_key(partition, FEED_SUFFIX)

    def partition_key(self, partition: int, name: str) -> str:
        """Another key of a partition (same slot as its feed and its matches)."""
        return f"{KEY_PREFIX}:{{p{partition}}}:{name}"

    def key(self, match_id: str, suffix: str) -> str:
        """A key of the match beside its log (same hash tag): ``<match>:<suffix>``."""
        _check_match_id(match_id)
        partition = self.partition(match_id)
        return f"{KEY_PREFIX}:{{p{partition}}}:{MATCH_SEGMENT}:{match_id}:{suffix}"

    def keys(self, match_id: str) -> MatchKeys:
        return MatchKeys(
            log=self.key(match_id, LOG_SUFFIX),
            snapshot=self.key(match_id, SNAPSHOT_SUFFIX),
            actions=self.key(match_id, ACTIONS_SUFFIX),
            feed=self.feed_key(self.partition(match_id)),
        )

    def append(
        self,
        match_id: str,
        expected_version: int,
        entry: dict[str, Any],
        snapshot: dict[str, Any],
        feed: dict[str, Any],
        action_id: str | None = None,
        answer: dict[str, Any] | None = None,
        fingerprint: str | None = None,
        owner: str = "",
    ) -> AppendResult:
        """Append `entry` as version expected_version + 1, with its snapshot and notification.

        `snapshot` must hold `state`; other fields (match metadata...) are stored beside it,
        and fields left out keep their earlier value. `feed` is the public event payload.
        Action ids are per `owner` (who sent it), and only the owner's latest one keeps its
        answer: the next one replaces it. With the `action_id` of the owner's latest action,
        nothing is written and the first answer comes back (duplicate=True) with the
        `fingerprint` recorded beside it, so the caller can tell a retry from another request
        under the same id; with an older id of that owner, nothing is written and
        ActionIdExpired is raised. Raises VersionConflict when expected_version is stale.
        """
        keys = self.keys(match_id)
        if type(expected_version) is not int or expected_version < 0:
            raise ValueError("expected_version must be an int >= 0")
        if action_id is not None and not (
            isinstance(action_id, str) and 0 < len(action_id) <= MAX_ACTION_ID_LENGTH
        ):
            raise ValueError(f"action_id must be a str of 1 to {MAX_ACTION_ID_LENGTH} characters")
        kind = entry.get("kind")
        if not isinstance(kind, str) or not kind:
            raise ValueError("entry needs a kind")
        if RESERVED_FIELD in entry or RESERVED_FIELD in snapshot:
            raise ValueError("the store sets the version; entry and snapshot must not")
        if "state" not in snapshot or not all(isinstance(field, str) for field in snapshot):
            raise ValueError("snapshot needs a state, and str field names")

        # Encode everything first: a value JSON cannot hold fails here, before any write.
        version = expected_version + 1
        notification = {
            **(self.notification_fields() if self.notification_fields else {}),
            "match": match_id,
            "version": version,
            "kind": kind,
            "event": jsoncodec.dumps(feed),
        }
        args: list[str | int | bytes] = [
            expected_version,
            action_id or "",
            owner,
            action_tag(action_id) if action_id else "",
            jsoncodec.dumps({"version": version, "answer": answer, "fingerprint": fingerprint}),
            self.feed_maxlen,
            encode_entry(entry),
            kind,
            len(snapshot),
            *_pairs({field: jsoncodec.dumps(value) for field, value in snapshot.items()}),
            *_pairs(notification),
        ]
        if self.durability.waits:
            status, value = self._durable_append(keys, args)
        else:
            status, value = self._append(keys=list(keys), args=args)
        status = _text(status)
        if status == "ok":
            return AppendResult(ok=True, version=int(value), duplicate=False, answer=answer)
        if status == "duplicate":
            first = jsoncodec.loads(value)
            return AppendResult(
                ok=True,
                version=first["version"],
                duplicate=True,
                answer=first["answer"],
                fingerprint=first.get("fingerprint"),
            )
        if status == "conflict":
            raise VersionConflict(int(value))
        if status == "expired":
            raise ActionIdExpired()
        raise BrokenLog(f"match {match_id}: {_text(value)}")

    def _durable_append(self, keys: MatchKeys, args: list) -> Any:
        """The script, then WAIT/WAITAOF on the same connection of the primary of the match's
        slot (they count what that connection wrote). A MOVED reply means the script did not
        run: learn the new topology and try once more. A broken connection leaves the outcome
        unknown: it is raised (the client retries with its action id, which the script
        answers as a duplicate if the first try was kept)."""
        for attempt in range(2):
            node = node_client(self.client, keys.log)
            pipe = node.pipeline(transaction=False)
            self._append(keys=list(keys), args=args, client=pipe)
            pipe.execute_command(*self.durability.command())
            try:
                reply, confirmed = pipe.execute()
            except redis.ConnectionError:
                refresh_topology(self.client)
                raise
            except redis.ResponseError as exc:
                moved = str(exc).startswith(("MOVED", "CLUSTERDOWN", "TRYAGAIN"))
                if not (moved and is_cluster(self.client)) or attempt:
                    raise
                refresh_topology(self.client)
                continue
            if _text(reply[0]) == "ok" and not self.durability.met(confirmed):
                raise NotDurable(f"appended, but only {confirmed} confirmed it in time")
            return reply
        raise AssertionError("unreachable")

    def create(
        self,
        match_id: str,
        entry: dict[str, Any],
        snapshot: dict[str, Any],
        feed: dict[str, Any],
    ) -> AppendResult:
        """Write version 1; raises VersionConflict if the match already exists."""
        return self.append(match_id, 0, entry, snapshot, feed)

    def snapshot(self, match_id: str) -> dict[str, Any] | None:
        """The latest snapshot (`version` an int, other fields decoded), or None."""
        fields = self.client.hgetall(self.keys(match_id).snapshot)
        if not fields:
            return None
        decoded = {_text(key): _text(value) for key, value in fields.items()}
        version = int(decoded.pop(RESERVED_FIELD))
        return {RESERVED_FIELD: version} | {key: jsoncodec.loads(v) for key, v in decoded.items()}

    def kept_answer(self, match_id: str, owner: str, action_id: str) -> KeptAnswer:
        """What the match keeps of ``owner``'s ``action_id`` (see ``append``), in one read."""
        fields = [f"{owner}:id", f"{owner}:answer", f"{owner}:used"]
        keys = self.keys(match_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.hmget(keys.actions, fields)
        pipe.exists(keys.actions)
        (latest, record, used), exists = pipe.execute()
        if latest is not None and _text(latest) == action_id:
            first = jsoncodec.loads(record)
            return KeptAnswer("latest", first["version"], first["answer"], first.get("fingerprint"))
        if used is not None and f",{action_tag(action_id)}" in _text(used):
            return KeptAnswer("older")
        return KeptAnswer("unknown" if exists else "gone")

    def entries(self, match_id: str, after: int = 0, limit: int | None = None) -> list[dict]:
        """Entries with version > after, oldest first; each is the stored entry plus `version`."""
        # Any: redis-py's reply types cannot tell whether the client decodes to str.
        rows: Any = self.client.xrange(self.keys(match_id).log, f"0-{after + 1}", "+", limit)
        return [_entry(entry_id, fields) for entry_id, fields in rows]

    def entries_of(self, wanted: Sequence[tuple[str, int]]) -> list[dict | None]:
        """The entry at each (match id, version) of ``wanted``, in its order (None: no such
        entry), read in one non-transactional pipeline: one round trip on a single node,
        one per node on a cluster (the logs of different matches live in different slots).
        The feed reads every entry one batch of notifications names this way."""
        pipe = self.client.pipeline(transaction=False)
        for match_id, version in wanted:
            pipe.xrange(self.keys(match_id).log, f"0-{version}", f"0-{version}")
        replies: list[Any] = pipe.execute() if wanted else []
        return [_entry(*rows[0]) if rows else None for rows in replies]

    def wait(self, match_id: str, after: int, timeout_seconds: float) -> list[dict]:
        """Entries after `after`, blocking up to timeout_seconds (max 30) for the next one.

        For long-polling: returns at once when there already are newer entries, and [] on
        timeout. The client's socket_timeout, if set, must exceed the wait.
        """
        wait_for_entry(self.client, self.keys(match_id).log, after, timeout_seconds)
        return self.entries(match_id, after)


def wait_for_entry(client: Any, stream: str, after: int, timeout_seconds: float) -> None:
    """Block up to ``timeout_seconds`` (at most ``MAX_WAIT_SECONDS``) until the Redis stream
    ``stream``, whose entry ids are ``0-<version>``, holds one past version ``after``: at once
    if it does already. The long-polls' one wait (a match log's, a tournament log's)."""
    block_ms = int(min(max(timeout_seconds, 0.0), MAX_WAIT_SECONDS) * 1000)
    if block_ms > 0:  # BLOCK 0 would mean "forever"
        # XREAD only waits: its reply is shaped differently in RESP2 and RESP3, while
        # XRANGE's is not, and the caller reading through its own decoder keeps one.
        client.xread({stream: f"0-{after}"}, count=1, block=block_ms)


def _entry(entry_id: str | bytes, fields: dict) -> dict[str, Any]:
    decoded = {_text(key): _text(value) for key, value in fields.items()}
    version = int(_text(entry_id).split("-")[1])
    return {RESERVED_FIELD: version} | decode_entry(decoded["entry"])


def _pairs(fields: dict[str, Any]) -> list[Any]:
    """{a: 1, b: 2} -> [a, 1, b, 2], as Redis takes field/value arguments."""
    return [part for pair in fields.items() for part in pair]


def _check_match_id(match_id: str) -> None:
    if not isinstance(match_id, str) or not MATCH_ID.fullmatch(match_id):
        raise ValueError(f"match id must match {MATCH_ID.pattern}: {match_id!r}")
