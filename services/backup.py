"""Back up the match store and the archive, restore them into a fresh server, verify them.

    python -m services.backup create  --out DIR [--redis-dir /data] [--archive-dir var/archive]
    python -m services.backup restore --backup DIR --redis-dir EMPTY_DIR [--archive-dir DIR]
    python -m services.backup verify  [--archive-dir DIR]          # REDIS_URL: the restored one

``create`` runs where Redis' data directory can be read (its host, a container with its
volume): it makes Redis write a snapshot (BGSAVE, waiting until LASTSAVE moves), copies it,
then copies the append-only directory (Redis 7's multi-part AOF, manifest included) with
automatic rewrites paused so no file is replaced under the copy, then the archive of
finished matches (the directory cold store). In that order on purpose: a match archived
after the snapshot is still whole in it, and every archive pointer the snapshot holds names
a document written before it, which the later copy of the archive has (documents are
written before their pointer and never change or go). ``manifest.json`` lists every file
with its size and SHA-256.

``restore`` checks the files against the manifest and lays them into an empty data
directory: the append-only files (the later state), and the archive's documents into the
archive directory; start Redis on that directory with ``appendonly yes`` and it loads them.
With ``--from-snapshot`` it lays the snapshot instead: start Redis with ``appendonly no``
(with it on and no AOF, Redis starts empty), then ``CONFIG SET appendonly yes``, which
writes the AOF from what it loaded. ``verify`` then replays every finished
match the store holds, in Redis or archived, as the history service's ``/verify`` does, and
checks that every match's log and snapshot agree; it exits 1 if any does not.

Redis commands used: BGSAVE, LASTSAVE, INFO, CONFIG GET/SET (auto-aof-rewrite-percentage,
dir, appenddirname): give the backup its own ACL user with them (the services' user has no
@admin commands). docs/operations.md, "Backups", says how, in Compose and in Kubernetes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from services.settings import Settings
from services.store import match_log, store_client

REDIS_FOLDER, ARCHIVE_FOLDER, MANIFEST = "redis", "archive", "manifest.json"
SNAPSHOT = "dump.rdb"
WAIT_S = 600.0  # a snapshot or a rewrite of a large store takes a while


def _wait(what: str, done: Any, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not done in {timeout:.0f} s")
        time.sleep(0.1)


def _copy_tree(source: Path, target: Path) -> None:
    """Every file of ``source`` under ``target`` (the archive: a temporary file being written
    is left out; a finished document is never changed, so a copy never goes stale)."""
    for path in sorted(source.rglob("*")):
        if path.is_file() and not path.name.startswith(".incoming-"):
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination)


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def create(
    client: redis.Redis, out: Path, redis_dir: Path | None, archive_dir: Path | None
) -> dict:
    """A backup of the store behind ``client`` (a single primary; on a cluster, one per
    primary) and of ``archive_dir`` into the empty folder ``out``; its manifest."""
    out.mkdir(parents=True, exist_ok=False)
    folder = redis_dir or Path(str(client.config_get("dir")["dir"]))
    aof_name = str(client.config_get("appenddirname").get("appenddirname") or "appendonlydir")
    _wait("an earlier snapshot", lambda: not client.info("persistence")["rdb_bgsave_in_progress"])
    before = client.lastsave()
    client.bgsave()
    _wait("the snapshot", lambda: client.lastsave() != before)
    info = client.info("persistence")
    if info["rdb_last_bgsave_status"] != "ok":
        raise RuntimeError(f"Redis could not write its snapshot: {info}")
    (out / REDIS_FOLDER).mkdir()
    shutil.copy2(folder / SNAPSHOT, out / REDIS_FOLDER / SNAPSHOT)
    if (folder / aof_name).is_dir():  # appendonly yes
        rewrites = str(
            client.config_get("auto-aof-rewrite-percentage")["auto-aof-rewrite-percentage"]
        )
        client.config_set("auto-aof-rewrite-percentage", 0)  # no rewrite replaces a file now
        try:
            _wait(
                "an AOF rewrite",
                lambda: not client.info("persistence")["aof_rewrite_in_progress"],
            )
            _copy_tree(folder / aof_name, out / REDIS_FOLDER / aof_name)
        finally:
            client.config_set("auto-aof-rewrite-percentage", rewrites)
    if archive_dir is not None and archive_dir.is_dir():
        _copy_tree(archive_dir, out / ARCHIVE_FOLDER)
    manifest = {
        "format": 1,
        "time": time.time(),
        "snapshot_lastsave": int(client.lastsave().timestamp()),
        "aof_folder": aof_name,
        "files": {
            str(path.relative_to(out)): {"bytes": path.stat().st_size, "sha256": _digest(path)}
            for path in sorted(out.rglob("*"))
            if path.is_file()
        },
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1))
    return manifest


def check(backup: Path) -> dict:
    """The manifest, once every file it lists is there with its size and SHA-256."""
    manifest = json.loads((backup / MANIFEST).read_text())
    for name, expected in manifest["files"].items():
        path = backup / name
        if not path.is_file() or _digest(path) != expected["sha256"]:
            raise ValueError(f"backup {backup}: {name} is missing or altered")
    return manifest


def restore(
    backup: Path, redis_dir: Path, archive_dir: Path | None, from_snapshot: bool = False
) -> None:
    """Lay a checked backup into an empty Redis data directory (the append-only files, or
    the snapshot), and its archive into ``archive_dir``."""
    manifest = check(backup)
    redis_dir.mkdir(parents=True, exist_ok=True)
    if any(redis_dir.iterdir()):
        raise ValueError(f"{redis_dir} is not empty: restore into a fresh server's directory")
    saved = backup / REDIS_FOLDER
    aof = saved / manifest["aof_folder"]
    if aof.is_dir() and not from_snapshot:
        _copy_tree(aof, redis_dir / manifest["aof_folder"])
    else:  # Redis loads the snapshot, and with appendonly yes writes its AOF from it
        shutil.copy2(saved / SNAPSHOT, redis_dir / SNAPSHOT)
    if archive_dir is not None and (backup / ARCHIVE_FOLDER).is_dir():
        _copy_tree(backup / ARCHIVE_FOLDER, archive_dir)


@dataclass
class Verified:
    matches: int = 0
    finished: int = 0
    archived: int = 0
    verified: int = 0
    problems: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return not self.problems and self.verified == self.finished


def match_ids(client: Any) -> Iterator[tuple[str, bool]]:
    """Every match the store holds: (id, archived), from its log or its archive pointer."""
    for key in client.scan_iter(match="tapete:*:match:*", count=1000):
        _, _, rest = key.partition(":match:")
        match_id, _, suffix = rest.rpartition(":")
        if suffix in ("log", "archived"):
            yield match_id, suffix == "archived"


def verify_store(settings: Settings, client: Any) -> Verified:
    """Replay every finished match (as the history service's /verify does) and check every
    running one's log and snapshot agree."""
    from services.history.application import History
    from services.history.archive import cold_store

    log = match_log(settings, client)
    history = History(client, log, cold_store(settings), settings.archive_after_s)
    found = Verified()
    for match_id, archived in sorted(set(match_ids(client))):
        found.matches += 1
        found.archived += archived
        entries = history.entries(match_id)
        versions = [entry["version"] for entry in entries]
        if versions != list(range(1, len(entries) + 1)):
            found.problems.append(f"{match_id}: versions are not 1..n")
        if not archived:
            snapshot = log.snapshot(match_id)
            if snapshot is None or snapshot["version"] != versions[-1]:
                found.problems.append(f"{match_id}: the snapshot is not at the log's end")
        if entries[-1].get("status") != "finished":
            continue
        found.finished += 1
        report = history.verify(match_id)
        if report["ok"]:
            found.verified += 1
        else:
            found.problems.append(f"{match_id}: does not verify: {report['divergences'][:1]}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.backup", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("create", help="back up REDIS_URL's store and the archive")
    made.add_argument("--out", type=Path, required=True, help="a new folder for the backup")
    made.add_argument("--redis-dir", type=Path, help="Redis' data directory (else CONFIG GET)")
    made.add_argument("--archive-dir", type=Path, help="the directory cold store (ARCHIVE_DIR)")
    back = commands.add_parser("restore", help="lay a backup into a fresh data directory")
    back.add_argument("--backup", type=Path, required=True)
    back.add_argument("--redis-dir", type=Path, required=True, help="empty: the new server's")
    back.add_argument("--archive-dir", type=Path, help="where the archive's documents go")
    back.add_argument("--from-snapshot", action="store_true", help="the RDB, not the AOF")
    verify = commands.add_parser("verify", help="verify every match of REDIS_URL's store")
    verify.add_argument("--archive-dir", type=Path, help="the restored archive (ARCHIVE_DIR)")
    args = parser.parse_args(argv)
    if args.command == "restore":
        restore(args.backup, args.redis_dir, args.archive_dir, args.from_snapshot)
        print(f"restored {args.backup} into {args.redis_dir}: start Redis on it, then verify")
        return 0
    settings = Settings.from_env()
    if getattr(args, "archive_dir", None) is not None:
        settings = _with_archive(settings, args.archive_dir)
    client = store_client(settings, socket_timeout=30)
    if args.command == "create":
        manifest = create(client, args.out, args.redis_dir, args.archive_dir)
        print(f"backup {args.out}: {len(manifest['files'])} files")
        return 0
    found = verify_store(settings, client)
    print(
        f"{found.matches} matches ({found.archived} archived), {found.finished} finished, "
        f"{found.verified} verified"
    )
    for problem in found.problems:
        print(f"problem: {problem}")
    return 0 if found.ok() else 1


def _with_archive(settings: Settings, folder: Path) -> Settings:
    from dataclasses import replace

    return replace(settings, archive_dir=str(folder), archive_s3_bucket=None)


if __name__ == "__main__":
    sys.exit(main())
