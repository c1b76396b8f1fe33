"""Backup and restore under load (`make backup-drill`): a backup of the match store and the
archive taken while matches are played (services/backup.py), restored into fresh servers —
once from the append-only files, once from the snapshot — and every match in them checked.

The platform: Redis with its append-only file (as deployed), the rules service under
gunicorn, the lobby's application layer (its Flask app, in process) and the history
consumer's loop archiving each match as soon as it finishes (``ARCHIVE_AFTER_S=0``), so the
backup holds matches running, finished in Redis and archived. Client threads play 2-player
Brisca matches to their end, both seats, the whole time; the backup is taken in the middle.

Checked in each restored store: every match finished before the backup began is there and
verifies (the history service's verification, from Redis or from the archive); every match
in it has a contiguous log whose snapshot is at its end, and every finished one verifies.

    python bench/backup_drill.py                 # 4 clients, 60 s of load
    python bench/backup_drill.py --clients 2 --seconds 4 --finished-first 2   # the tests' form
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from services.backup import Verified, create, restore, verify_store  # noqa: E402
from services.history.consumer import build as build_consumer  # noqa: E402
from services.lobby.app import create_lobby_app  # noqa: E402
from services.lobby.application import Lobby  # noqa: E402
from services.settings import LOAD_TOOL_LIMITS, Settings  # noqa: E402
from services.store import store_client  # noqa: E402
from shared.redis_server import EmbeddedRedis  # noqa: E402
from tests.service_fixtures import Http, Service  # noqa: E402


@dataclass
class Played:
    """Matches played, each with when it finished (monotonic)."""

    finished: dict[str, float] = field(default_factory=dict)
    started: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def player(http: Http, played: Played, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    try:
        while not stop.is_set():
            match, seated = http.seated_match(options={"deals": 1})
            with played.lock:
                played.started.append(match["id"])
            http.play_to_the_end(match, seated, rng)
            with played.lock:
                played.finished[match["id"]] = time.monotonic()
    except Exception as exc:
        with played.lock:
            played.errors.append(f"player {seed}: {exc!r}")


def consume(settings: Settings, stop: threading.Event, errors: list[str]) -> None:
    """The history consumer's loop, archiving what is due at every turn."""
    try:
        consumer = build_consumer(settings)
        consumer.ensure_groups()
        while not stop.is_set():
            consumer.step()
            consumer.archive.archive_due(list(range(consumer.log.partitions)))  # type: ignore[union-attr]
    except Exception as exc:
        errors.append(f"consumer: {exc!r}")


@dataclass
class Report:
    backup_s: float
    files: int
    megabytes: float
    matches_before: int  # finished before the backup began
    restored: dict[str, Verified]  # "aof", "snapshot"
    missing: dict[str, list[str]]  # finished before the backup, absent or unfinished there
    errors: list[str]

    def ok(self) -> bool:
        return (
            not self.errors
            and all(found.ok() for found in self.restored.values())
            and not any(self.missing.values())
        )

    def lines(self) -> list[str]:
        out = [
            f"backup under load in {self.backup_s:.2f} s: {self.files} files, "
            f"{self.megabytes:.1f} MB; {self.matches_before} matches had finished before it",
        ]
        for kind, found in self.restored.items():
            out.append(
                f"restored from the {kind}: {found.matches} matches ({found.archived} archived), "
                f"{found.finished} finished, {found.verified} verified; finished before the "
                f"backup and missing: {len(self.missing[kind])}; problems: {len(found.problems)}"
            )
            out += [f"  problem: {problem}" for problem in found.problems[:10]]
        out += [f"error: {error}" for error in self.errors]
        return out


def run(clients: int = 4, seconds: float = 60.0, finished_first: int = 4) -> Report:
    """Play until ``finished_first`` matches have finished and ``seconds``/2 have passed,
    take the backup, play ``seconds``/2 more, then restore it twice and check."""
    folder = Path(tempfile.mkdtemp(prefix="tapete-backup-drill-"))
    server = EmbeddedRedis(data_dir=folder / "redis", persistent=True)
    server.start()
    rules = Service("rules", "services.rules.wsgi:app", {"TAPETE_DEV": "1"})
    stop = threading.Event()
    threads: list[threading.Thread] = []
    played, errors = Played(), []
    restored_servers: list[EmbeddedRedis] = []
    try:
        rules.start(120.0)
        env = {
            **LOAD_TOOL_LIMITS, "REDIS_URL": server.url, "RULES_URL": rules.url,
            "ARCHIVE_AFTER_S": "0", "ARCHIVE_DIR": str(folder / "archive"), "LOG_LEVEL": "WARNING",
        }  # fmt: skip
        settings = Settings.from_env(env)
        lobby = Lobby.from_settings(settings)
        app = create_lobby_app({"TESTING": True}, service=lobby, settings=settings)
        threads = [
            threading.Thread(target=player, args=(Http(app.test_client()), played, stop, n))
            for n in range(clients)
        ]
        threads.append(threading.Thread(target=consume, args=(settings, stop, errors)))
        for thread in threads:
            thread.start()
        stop.wait(seconds / 2)
        deadline = time.monotonic() + 120
        while len(played.finished) < finished_first and time.monotonic() < deadline:
            stop.wait(0.1)
        began = time.monotonic()
        with played.lock:
            before = [m for m, at in played.finished.items() if at < began]
        client = store_client(settings)
        manifest = create(client, folder / "backup", folder / "redis", folder / "archive")
        backup_s = time.monotonic() - began
        stop.wait(seconds / 2)  # the load goes on after it
        stop.set()
        for thread in threads:
            thread.join(60)
        found: dict[str, Verified] = {}
        missing: dict[str, list[str]] = {}
        for kind in ("aof", "snapshot"):
            where = folder / f"restored-{kind}"
            snapshot = kind == "snapshot"
            restore(folder / "backup", where / "redis", where / "archive", snapshot)
            fresh = EmbeddedRedis(data_dir=where / "redis", persistent=not snapshot)
            fresh.start()  # from the snapshot: it loads dump.rdb, with the AOF off
            restored_servers.append(fresh)
            if snapshot:  # then the AOF on, written from what it loaded (Backups, docs)
                fresh_client = store_client(Settings.from_env({"REDIS_URL": fresh.url}))
                fresh_client.config_set("appendonly", "yes")
                _wait_rewrite(fresh_client)
            there = Settings.from_env({**env, "REDIS_URL": fresh.url,
                                       "ARCHIVE_DIR": str(where / "archive")})  # fmt: skip
            restored_client = store_client(there)
            found[kind] = verify_store(there, restored_client)
            missing[kind] = [m for m in before if not _finished_in(there, restored_client, m)]
        files = manifest["files"].values()
        return Report(
            backup_s, len(files), sum(f["bytes"] for f in files) / 1e6, len(before), found,
            missing, [*played.errors, *errors],
        )  # fmt: skip
    finally:
        stop.set()
        for fresh in restored_servers:
            fresh.stop()
        rules.stop()
        server.stop()


def _wait_rewrite(client: Any) -> None:
    deadline = time.monotonic() + 60
    while (
        client.info("persistence")["aof_rewrite_in_progress"]
        or client.info("persistence")["aof_rewrite_scheduled"]
    ):
        if time.monotonic() > deadline:
            raise TimeoutError("the AOF rewrite did not end")
        time.sleep(0.1)


def _finished_in(settings: Settings, client: Any, match_id: str) -> bool:
    from services.history.application import History
    from services.history.archive import cold_store
    from services.store import match_log

    history = History(client, match_log(settings, client), cold_store(settings))
    try:
        return history.entries(match_id)[-1].get("status") == "finished"
    except Exception:
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4, help="client threads playing")
    parser.add_argument("--seconds", type=float, default=60.0, help="of load, backup halfway")
    parser.add_argument("--finished-first", type=int, default=4, help="matches before the backup")
    args = parser.parse_args()
    report = run(args.clients, args.seconds, args.finished_first)
    print("\n".join(report.lines()))
    return 0 if report.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
