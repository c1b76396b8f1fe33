"""Finished matches archived to cold storage: their keys leave Redis, and the history service
still serves their log, replays, verification and scores exactly as before.

Both cold stores: the directory, and S3 against a real S3-compatible server on loopback
(moto's server mode, from PyPI), through boto3 as in production.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
import redis
import requests

from services.history.app import create_history_app
from services.history.application import History
from services.lobby.application import Lobby
from shared.coldstore import ColdStore, CorruptDocument, DirectoryStore, S3Store
from shared.eventstore import MatchLog
from shared.redis_server import free_port
from tests.service_fixtures import Http
from tests.test_history import consume, lobby, play, seat_players  # noqa: F401 (a fixture)

BUCKET = "tapete-archive"


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    """moto's S3-compatible server on a free port, with the archive's bucket."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            requests.get(url, timeout=1)
            break
        except requests.RequestException:
            assert time.monotonic() < deadline and process.poll() is None, "no S3 server"
            time.sleep(0.1)
    s3(url).create_bucket(Bucket=BUCKET)
    yield url
    process.terminate()
    process.wait(10)


def s3(endpoint: str) -> Any:
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )


@pytest.fixture(params=["directory", "s3"])
def cold(request: pytest.FixtureRequest, tmp_path: Path) -> ColdStore:
    if request.param == "directory":
        return DirectoryStore(tmp_path / "archive")
    endpoint = request.getfixturevalue("s3_endpoint")
    return S3Store(BUCKET, f"test-{time.monotonic_ns()}/", client=s3(endpoint))


def match_keys(client: redis.Redis, match_id: str) -> list[str]:
    return sorted(k for k in client.keys("*") if f":{match_id}:" in k)  # type: ignore[union-attr]


def test_an_archived_match_reads_and_verifies_as_before_and_its_keys_leave_redis(
    lobby: Lobby,  # noqa: F811 (the fixture)
    redis_client: redis.Redis,
    cold: ColdStore,
):
    history = History(redis_client, MatchLog(redis_client), cold, archive_after_s=0)
    http = Http(create_history_app({"TESTING": True}, service=history).test_client())
    players = seat_players(lobby, 2)
    match_id = play(lobby, players, "brisca")
    running = play(lobby, players, "brisca", seed="still running", moves=5)
    consume(history)  # the read models, and the finish scheduled for archiving
    paths = ["log", "replay", "replay?seat=1&version=9", "verify", "scores"]
    before = {p: http.get(f"/v1/matches/{match_id}/{p}") for p in paths}
    listed = http.get(f"/v1/players/{players[0].id}/matches").body
    assert before["verify"].body["ok"] is True
    assert len(match_keys(redis_client, match_id)) >= 2  # its log and snapshot at least

    assert history.archive.archive_due([0]) == 1  # the finished one only, due at once
    assert match_keys(redis_client, match_id) == [f"tapete:{{p0}}:match:{match_id}:archived"]
    assert history.models.summary(match_id) is None
    assert history.models.sheet(match_id) is None
    assert history.log.entries(running) != []  # a running match stays

    after = {p: http.get(f"/v1/matches/{match_id}/{p}") for p in paths}
    assert {p: (r.status, r.body) for p, r in after.items()} == {
        p: (r.status, r.body) for p, r in before.items()
    }
    assert after["verify"].body["ok"] is True
    assert http.get(f"/v1/players/{players[0].id}/matches").body == listed
    assert history.archive.archive(match_id) is None  # again: nothing left to move


def test_a_cold_document_altered_at_rest_is_refused(tmp_path: Path):
    store = DirectoryStore(tmp_path)
    address = store.put(b'{"match":"m1"}')
    assert store.put(b'{"match":"m1"}') == address  # content-addressed: stored once
    assert store.get(address) == b'{"match":"m1"}'
    import gzip

    store.path(address).write_bytes(gzip.compress(b'{"match":"m2"}'))
    with pytest.raises(CorruptDocument):
        store.get(address)
    with pytest.raises(KeyError):
        store.get("0" * 64)
