"""The short form of `make backup-drill` (bench/backup_drill.py): a backup of the match store
(snapshot and append-only files) and of the archive, taken while matches are played and
archived, restored into fresh servers from the append-only files and from the snapshot;
every match finished before the backup is in each, and every match there verifies."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bench.backup_drill import run
from services.backup import check


def test_a_backup_taken_under_load_restores_and_every_finished_match_verifies():
    report = run(clients=2, seconds=4, finished_first=2)
    print("\n" + "\n".join(report.lines()))
    assert report.errors == []
    assert report.matches_before >= 2
    for kind in ("aof", "snapshot"):
        found = report.restored[kind]
        assert found.problems == [] and report.missing[kind] == [], kind
        assert found.finished >= report.matches_before and found.verified == found.finished
        assert found.archived > 0, "archived matches come back from the archive's copy"
    assert report.ok()


def test_a_restore_refuses_an_altered_backup(tmp_path: Path):
    backup = tmp_path / "backup"
    (backup / "redis").mkdir(parents=True)
    (backup / "redis" / "dump.rdb").write_bytes(b"REDIS0011 rest of it")
    digest = hashlib.sha256(b"REDIS0011 rest of it").hexdigest()
    manifest = {"files": {"redis/dump.rdb": {"bytes": 20, "sha256": digest}}, "aof_folder": "x"}
    (backup / "manifest.json").write_text(json.dumps(manifest))
    assert check(backup)["files"]
    (backup / "redis" / "dump.rdb").write_bytes(b"REDIS0011 rest of iT")
    with pytest.raises(ValueError, match="missing or altered"):
        check(backup)
