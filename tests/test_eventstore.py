"""The match log's contract, run against a real Redis server (no mocks).

`MatchLogContract` holds every test; each subclass provides the stores. Redis is inspected
directly (`raw`) to check what was, and was not, written.
"""

from __future__ import annotations

import base64
import json
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from hashlib import sha256
from typing import Any, cast

import pytest
import redis
from redis.crc import key_slot

from shared.eventstore import (
    ENTRY_DICTIONARY,
    ActionIdExpired,
    AppendResult,
    BrokenLog,
    Durability,
    MatchLog,
    NotDurable,
    VersionConflict,
    decode_entry,
    encode_entry,
)
from shared.jsoncodec import state_hash
from shared.redis_server import EmbeddedRedis
from shared.redisconn import connect
from tests.redis_fixtures import RedisStore

MakeStore = Callable[..., MatchLog]
Stream = list[tuple[str, dict[str, str]]]


def entry(kind: str = "action", **fields: Any) -> dict[str, Any]:
    return {"time": "2026-01-01T00:00:00Z", "actor": "seat:0", "kind": kind, **fields}


def stream(raw: redis.Redis, key: str) -> Stream:
    """XRANGE of a whole stream, typed for the str-decoding test client."""
    return cast(Stream, raw.xrange(key))


def dump(raw: redis.Redis) -> dict[str, Any]:
    """Every key in the database with its type and content, to show nothing changed."""
    contents: dict[str, Any] = {}
    for key in sorted(cast(list[str], raw.keys("*"))):
        kind = cast(str, raw.type(key))
        readers: dict[str, Callable[[str], Any]] = {"stream": raw.xrange, "hash": raw.hgetall}
        contents[key] = (kind, readers.get(kind, raw.get)(key))
    return contents


def appended_concurrently(stores: list[MatchLog], append: Callable[[MatchLog], Any]) -> list:
    """Run `append` once per store, all threads released at the same moment."""
    start = threading.Barrier(len(stores))

    def run(store: MatchLog) -> Any:
        start.wait()
        try:
            return append(store)
        except VersionConflict as conflict:
            return conflict

    with ThreadPoolExecutor(len(stores)) as pool:
        return list(pool.map(run, stores))


class MatchLogContract:
    """What any MatchLog must do. Subclasses define the `make_store` fixture."""

    @pytest.fixture
    def make_store(self) -> MakeStore:
        raise NotImplementedError

    @pytest.fixture
    def store(self, make_store: MakeStore) -> MatchLog:
        return make_store()

    @pytest.fixture
    def raw(self, redis_client: redis.Redis) -> redis.Redis:
        return redis_client

    def create(self, store: MatchLog, match_id: str = "m1") -> AppendResult:
        return store.create(
            match_id,
            entry("match.created", game="brisca"),
            {"state": {"turn": 0}, "match": {"game": "brisca", "status": "open"}},
            {"game": "brisca"},
        )

    def append(self, store: MatchLog, expected: int, match_id: str = "m1", **kw: Any) -> Any:
        return store.append(
            match_id, expected, entry(n=expected), {"state": {"turn": expected}}, {}, **kw
        )

    def log_ids(self, raw: redis.Redis, store: MatchLog, match_id: str = "m1") -> list[str]:
        return [entry_id for entry_id, _ in stream(raw, store.keys(match_id).log)]

    # Appending

    def test_create_then_append_increments_versions(self, store: MatchLog) -> None:
        assert self.create(store) == AppendResult(ok=True, version=1, duplicate=False, answer=None)
        assert self.append(store, 1).version == 2
        assert self.append(store, 2).version == 3

        assert [e["version"] for e in store.entries("m1")] == [1, 2, 3]
        assert store.entries("m1")[0] == {"version": 1, **entry("match.created", game="brisca")}
        assert store.snapshot("m1") == {
            "version": 3,
            "state": {"turn": 2},
            "match": {"game": "brisca", "status": "open"},  # kept: not passed again
        }

    def test_create_refuses_an_existing_match(self, store: MatchLog, raw: redis.Redis) -> None:
        self.create(store)
        before = dump(raw)

        with pytest.raises(VersionConflict) as conflict:
            self.create(store)

        assert conflict.value.current_version == 1
        assert dump(raw) == before

    @pytest.mark.parametrize("expected", [0, 1, 3, 10])
    def test_stale_expected_version_conflicts_and_writes_nothing(
        self, store: MatchLog, raw: redis.Redis, expected: int
    ) -> None:
        self.create(store)
        self.append(store, 1)
        before = dump(raw)

        with pytest.raises(VersionConflict) as conflict:
            self.append(store, expected, action_id="late")

        assert conflict.value.current_version == 2
        assert dump(raw) == before

    def test_feed_notifies_match_version_kind_and_public_payload(
        self, store: MatchLog, raw: redis.Redis
    ) -> None:
        self.create(store)
        store.append("m1", 1, entry("seat.joined"), {"state": None}, {"seat": 1, "name": "Ana"})

        feed = stream(raw, store.keys("m1").feed)
        assert [fields for _, fields in feed] == [
            {"match": "m1", "version": "1", "kind": "match.created", "event": '{"game":"brisca"}'},
            {
                "match": "m1",
                "version": "2",
                "kind": "seat.joined",
                "event": '{"seat":1,"name":"Ana"}',
            },
        ]

    def test_log_stores_the_entry_json_and_a_plain_kind(
        self, store: MatchLog, raw: redis.Redis
    ) -> None:
        self.create(store)

        [(entry_id, fields)] = stream(raw, store.keys("m1").log)
        assert entry_id == "0-1"
        assert fields["kind"] == "match.created"
        assert set(fields) == {"entry", "kind"}
        stored = entry("match.created", game="brisca")
        assert decode_entry(fields["entry"]) == stored
        assert len(fields["entry"]) < len(json.dumps(stored, separators=(",", ":")))

    def test_entries_stored_deflated_or_as_plain_json_read_the_same(
        self, store: MatchLog, raw: redis.Redis
    ) -> None:
        self.create(store)
        raw.xadd(store.keys("m1").log, {"entry": json.dumps(entry(n=2)), "kind": "action"}, "0-2")

        assert [e["version"] for e in store.entries("m1")] == [1, 2]
        assert store.entries("m1", after=1) == [{"version": 2, **entry(n=2)}]
        big = entry(events=[{"type": "played", "seat": 0, "card": "1O", "i": i} for i in range(99)])
        assert decode_entry(encode_entry(big)) == big
        base85 = zlib.compressobj(6, zlib.DEFLATED, -15, zdict=ENTRY_DICTIONARY)  # as "z1:"
        packed = base85.compress(json.dumps(big).encode()) + base85.flush()
        assert decode_entry("z1:" + base64.b85encode(packed).decode()) == big

    def test_feed_is_capped_but_the_log_never_is(self, make_store: MakeStore) -> None:
        store = make_store(feed_maxlen=10)
        self.create(store)
        for version in range(1, 300):
            self.append(store, version)

        assert store.client.xlen(store.keys("m1").log) == 300
        assert store.client.xlen(store.keys("m1").feed) < 300  # MAXLEN ~ trims whole nodes

    # Concurrency

    def test_concurrent_appends_on_one_version_have_exactly_one_winner(
        self, store: MatchLog, raw: redis.Redis, make_store: MakeStore
    ) -> None:
        self.create(store)
        stores = [make_store() for _ in range(8)]
        for version in range(1, 6):
            results = appended_concurrently(stores, partial(self.append, expected=version))

            winners = [r for r in results if isinstance(r, AppendResult)]
            conflicts = [r for r in results if isinstance(r, VersionConflict)]
            assert [w.version for w in winners] == [version + 1]
            assert [c.current_version for c in conflicts] == [version + 1] * 7
            assert self.log_ids(raw, store) == [f"0-{v}" for v in range(1, version + 2)]

    def test_appenders_retrying_on_conflict_get_contiguous_versions(
        self, store: MatchLog, raw: redis.Redis, make_store: MakeStore
    ) -> None:
        self.create(store)
        writers, appends_each = 8, 5

        def write(writer: MatchLog) -> list[int]:
            versions = []
            for n in range(appends_each):
                while True:
                    current = writer.snapshot("m1")["version"]  # type: ignore[index]
                    try:
                        done = writer.append(
                            "m1", current, entry(writer=id(writer), n=n), {"state": {}}, {}
                        )
                    except VersionConflict:
                        continue
                    versions.append(done.version)
                    break
            return versions

        results = appended_concurrently([make_store() for _ in range(writers)], write)

        last = 1 + writers * appends_each
        assert sorted(v for versions in results for v in versions) == list(range(2, last + 1))
        assert self.log_ids(raw, store) == [f"0-{v}" for v in range(1, last + 1)]
        feed = stream(raw, store.keys("m1").feed)
        assert [int(fields["version"]) for _, fields in feed] == list(range(1, last + 1))
        assert store.snapshot("m1")["version"] == last  # type: ignore[index]

    # Idempotency

    def test_retry_with_same_action_id_returns_first_answer_and_writes_nothing(
        self, store: MatchLog, raw: redis.Redis
    ) -> None:
        self.create(store)
        first = self.append(store, 1, action_id="a-1", answer={"events": ["played"]})
        before = dump(raw)

        for expected in (1, 2):  # the retry's version is stale, or current: same answer
            retry = self.append(store, expected, action_id="a-1", answer={"events": ["other"]})
            assert retry == AppendResult(
                ok=True, version=2, duplicate=True, answer={"events": ["played"]}
            )
        assert first == AppendResult(
            ok=True, version=2, duplicate=False, answer={"events": ["played"]}
        )
        assert dump(raw) == before
        assert self.append(store, 2, action_id="a-2").version == 3

    def test_concurrent_retries_of_one_action_write_it_once(
        self, store: MatchLog, raw: redis.Redis, make_store: MakeStore
    ) -> None:
        self.create(store)
        stores = [make_store() for _ in range(8)]

        results = appended_concurrently(
            stores, lambda s: self.append(s, 1, action_id="a-1", answer={"n": id(s)})
        )

        assert sorted(r.duplicate for r in results) == [False] + [True] * 7
        assert {r.version for r in results} == {2}
        assert len({str(r.answer) for r in results}) == 1
        assert self.log_ids(raw, store) == ["0-1", "0-2"]

    def test_only_an_owners_latest_answer_is_kept_an_older_id_has_expired(
        self, store: MatchLog, raw: redis.Redis
    ) -> None:
        self.create(store)
        self.append(store, 1, action_id="a-1", answer={"n": 1}, owner="ana")
        self.append(store, 2, action_id="b-1", answer={"n": 2}, owner="bea")
        self.append(store, 3, action_id="a-2", answer={"n": 3}, owner="ana")
        before = dump(raw)

        with pytest.raises(ActionIdExpired):  # at the current version: still not a new action
            self.append(store, 4, action_id="a-1", answer={"n": 4}, owner="ana")
        assert self.append(store, 4, action_id="a-2", owner="ana").answer == {"n": 3}
        assert self.append(store, 1, action_id="b-1", owner="bea").answer == {"n": 2}
        assert dump(raw) == before
        kept = store.kept_answer("m1", "ana", "a-2")
        assert (kept.status, kept.version, kept.answer) == ("latest", 4, {"n": 3})
        assert store.kept_answer("m1", "ana", "a-1").status == "older"
        assert store.kept_answer("m1", "ana", "b-1").status == "unknown"  # ids are per owner
        assert store.kept_answer("m2", "ana", "a-1").status == "gone"
        # another owner's id is theirs: a new action, and one answer per owner stays
        assert not self.append(store, 4, action_id="a-1", owner="bea").duplicate
        assert sorted(raw.hkeys(store.keys("m1").actions)) == sorted(
            f"{owner}:{field}" for owner in ("ana", "bea") for field in ("id", "answer", "used")
        )

    def test_action_ids_belong_to_one_match(self, store: MatchLog) -> None:
        self.create(store, "m1")
        self.create(store, "m2")

        assert not self.append(store, 1, "m1", action_id="a-1").duplicate
        assert not self.append(store, 1, "m2", action_id="a-1").duplicate

    # Reading

    def test_unknown_match_has_no_snapshot_and_no_entries(self, store: MatchLog) -> None:
        assert store.snapshot("nope") is None
        assert store.entries("nope") == []
        assert store.wait("nope", 0, 0) == []

    def test_entries_after_a_version_with_a_limit(self, store: MatchLog) -> None:
        self.create(store)
        for version in range(1, 6):
            self.append(store, version)

        assert [e["version"] for e in store.entries("m1", after=3)] == [4, 5, 6]
        assert [e["version"] for e in store.entries("m1", after=1, limit=2)] == [2, 3]
        assert store.entries("m1", after=6) == []
        assert store.entries("m1", after=2)[0] == {"version": 3, **entry(n=2)}

    def test_entries_of_many_matches_are_read_in_one_batch_in_the_order_asked(
        self, store: MatchLog
    ) -> None:
        matches = [f"m{n}" for n in range(8)]  # on a cluster, over every node's slots
        for n, match_id in enumerate(matches):
            self.create(store, match_id)
            for version in range(1, n % 3 + 2):
                self.append(store, version, match_id)
        wanted = [(m, v) for n, m in reversed(list(enumerate(matches))) for v in (n % 3 + 2, 1)]
        wanted += [("m0", 9), ("nope", 1)]  # past the log's end; a match that does not exist

        got = store.entries_of(wanted)

        assert got[-2:] == [None, None]
        for (match_id, version), found in zip(wanted[:-2], got[:-2], strict=True):
            assert found == store.entries(match_id, after=version - 1, limit=1)[0]
            assert found is not None and found["version"] == version
        assert store.entries_of([]) == []

    def test_wait_returns_existing_entries_at_once(self, store: MatchLog) -> None:
        self.create(store)
        self.append(store, 1)

        started = time.monotonic()
        assert [e["version"] for e in store.wait("m1", after=0, timeout_seconds=10)] == [1, 2]
        assert time.monotonic() - started < 1

    def test_wait_wakes_up_when_another_client_appends(
        self, store: MatchLog, make_store: MakeStore
    ) -> None:
        self.create(store)
        writer = make_store()
        timer = threading.Timer(0.2, lambda: self.append(writer, 1))

        started = time.monotonic()
        timer.start()
        waited = store.wait("m1", after=1, timeout_seconds=10)
        elapsed = time.monotonic() - started
        timer.join()

        assert [e["version"] for e in waited] == [2]
        assert 0.15 < elapsed < 2  # woken by the append, far before the timeout

    def test_wait_times_out_with_nothing(self, store: MatchLog) -> None:
        self.create(store)

        started = time.monotonic()
        assert store.wait("m1", after=1, timeout_seconds=0.5) == []
        assert 0.45 < time.monotonic() - started < 3

    # Nothing half-written

    @pytest.mark.parametrize("broken", ["log", "snapshot", "actions", "feed"])
    def test_a_key_of_the_wrong_type_stops_the_append_before_any_write(
        self, store: MatchLog, raw: redis.Redis, broken: str
    ) -> None:
        self.create(store)
        self.append(store, 1, action_id="a-1")
        key = getattr(store.keys("m1"), broken)
        raw.delete(key)
        raw.set(key, "not what the store wrote")
        before = dump(raw)

        with pytest.raises(BrokenLog, match="not a"):
            self.append(store, 2, action_id="a-2", answer={"n": 2})

        assert dump(raw) == before

    def test_a_log_ahead_of_its_snapshot_stops_the_append_before_any_write(
        self, store: MatchLog, raw: redis.Redis
    ) -> None:
        self.create(store)
        raw.xadd(store.keys("m1").log, {"entry": "{}", "kind": "intruder"}, id="0-5")
        before = dump(raw)

        with pytest.raises(BrokenLog, match="log ends at 0-5"):
            self.append(store, 1, action_id="a-1", answer={"n": 1})

        assert dump(raw) == before

    @pytest.mark.parametrize(
        ("match_id", "expected", "bad_entry", "snapshot", "feed", "error"),
        [
            ("m1", 1, entry(cards={"1O"}), {"state": {}}, {}, TypeError),
            ("m1", 1, entry(), {"state": {}}, {"at": object()}, TypeError),
            ("m1", 1, {"actor": "seat:0"}, {"state": {}}, {}, ValueError),
            ("m1", 1, entry(), {"match": {}}, {}, ValueError),
            ("m1", 1, entry(), {"state": {}, 7: "seven"}, {}, ValueError),
            ("m1", 1, entry(version=2), {"state": {}}, {}, ValueError),
            ("m1", 1, entry(), {"state": {}, "version": 2}, {}, ValueError),
            ("m1", -1, entry(), {"state": {}}, {}, ValueError),
            ("m1", True, entry(), {"state": {}}, {}, ValueError),
            ("m1:{p0}", 1, entry(), {"state": {}}, {}, ValueError),
            ("", 1, entry(), {"state": {}}, {}, ValueError),
        ],
    )
    def test_invalid_input_is_refused_before_any_write(
        self,
        store: MatchLog,
        raw: redis.Redis,
        match_id: str,
        expected: int,
        bad_entry: dict,
        snapshot: dict,
        feed: dict,
        error: type[Exception],
    ) -> None:
        self.create(store)
        before = dump(raw)

        with pytest.raises(error):
            store.append(match_id, expected, bad_entry, snapshot, feed, action_id="a-1")

        assert dump(raw) == before

    # Keys, partitions, hashing

    @pytest.mark.parametrize("partitions", [1, 3, 16])
    def test_keys_of_a_match_share_one_cluster_slot(
        self, make_store: MakeStore, partitions: int
    ) -> None:
        store = make_store(partitions=partitions)
        for match_id in ["m1", "m2", "0a1b2c3d-uuid", "x"]:
            keys = store.keys(match_id)
            partition = zlib.crc32(match_id.encode()) % partitions

            assert {key.split("}")[0] + "}" for key in keys} == {f"tapete:{{p{partition}}}"}
            assert len({key_slot(key.encode()) for key in keys}) == 1
            assert keys.feed == store.feed_key(partition)

    def test_partitions_put_matches_on_different_feeds(
        self, make_store: MakeStore, raw: redis.Redis
    ) -> None:
        store = make_store(partitions=4)
        match_ids = [f"m{n}" for n in range(20)]
        for match_id in match_ids:
            self.create(store, match_id)

        on_feed = {
            partition: {fields["match"] for _, fields in stream(raw, store.feed_key(partition))}
            for partition in range(store.partitions)
        }
        assert len([p for p in on_feed if on_feed[p]]) > 1
        for match_id in match_ids:
            assert [p for p in on_feed if match_id in on_feed[p]] == [store.partition(match_id)]

    def test_state_hash_is_sha256_of_canonical_json(self) -> None:
        state = {"b": [1, 2], "a": {"y": None, "x": "1O"}}

        assert state_hash(state) == sha256(b'{"a":{"x":"1O","y":null},"b":[1,2]}').hexdigest()
        assert state_hash(dict(reversed(state.items()))) == state_hash(state)
        assert state_hash({"b": [2, 1], "a": state["a"]}) != state_hash(state)


@pytest.mark.cluster
class TestMatchLogOnRedis(MatchLogContract):
    """One partition, clients decoding replies to str (the lobby's usual client); on one
    node and on a cluster."""

    partitions = 1
    decode_responses = True
    durability = Durability()

    @pytest.fixture
    def make_store(self, redis_store: RedisStore, redis_client: Any) -> Iterator[MakeStore]:
        clients: list[Any] = []
        cluster = redis_store.settings.redis_cluster

        def make(**options: Any) -> MatchLog:
            client = connect(redis_store.url, cluster, decode_responses=self.decode_responses)
            clients.append(client)
            defaults = {"partitions": self.partitions, "durability": self.durability}
            return MatchLog(client, **(defaults | options))

        yield make
        for client in clients:
            client.close()


class TestMatchLogOnRedisPartitionedWithBytes(TestMatchLogOnRedis):
    """Several feed partitions, and clients returning bytes (as rq's connections do)."""

    partitions = 3
    decode_responses = False


class TestMatchLogAcknowledgedByAReplica(TestMatchLogOnRedis):
    """Every append waits for a replica (WAIT 1), on the cluster, whose primaries have one."""

    partitions = 3
    durability = Durability(replicas=1, timeout_ms=5000)

    @pytest.fixture(autouse=True)
    def _cluster_only(self, redis_store: RedisStore) -> None:
        if redis_store.topology != "cluster":
            pytest.skip("one node has no replica to wait for")


def test_an_append_no_replica_confirms_is_written_but_not_acknowledged(
    redis_client: redis.Redis, redis_url: str
):
    store = MatchLog(redis_client, durability=Durability(replicas=1, timeout_ms=50))
    with pytest.raises(NotDurable):
        store.create("m1", entry("match.created"), {"state": {}}, {})
    assert [e["version"] for e in store.entries("m1")] == [1]  # there, but nobody was told so


def test_fsync_acknowledgement_waits_for_the_append_only_file(tmp_path: Any):
    with EmbeddedRedis(data_dir=tmp_path, persistent=True) as server:
        client = redis.Redis.from_url(server.url, decode_responses=True)
        store = MatchLog(client, durability=Durability(fsync=True))
        assert store.create("m1", entry("match.created"), {"state": {}}, {}).version == 1
        client.close()
