"""Finished matches leave Redis for cold storage, and are read back from it unchanged.

``ARCHIVE_AFTER_S`` after a match finishes, the history consumer writes one document — the
whole log, the summary, the score sheet and the verification report — to the cold store
(``shared/coldstore.py``), then deletes the match's keys from Redis, leaving only a pointer
(its address, ~100 bytes) beside where the log was:

    tapete:{p<P>}:match:<id>:archived    the document's address (SHA-256 hex)
    tapete:{p<P>}:archive:due            sorted set: finished match -> when to archive it

The pointer is written and the keys deleted (the log's, and the summary and score sheet the
history keeps beside it) in one MULTI on the match's slot, after the
document is safely stored, so a crash at any point leaves the match either whole in Redis
or archived, never neither; archiving again is harmless (same document, same address).
The history service reads an archived match's log, replays, verification and scores from
the document, exactly as from Redis.
"""

from __future__ import annotations

import time
from typing import Any

import redis

from services.settings import Settings
from shared import jsoncodec
from shared.coldstore import ColdStore, DirectoryStore, S3Store
from shared.eventstore import MatchLog

from .replay import is_finished, is_revealed
from .store import ReadModels
from .verify import counted, verify

POINTER_SUFFIX = "archived"
MATCH_KEY_SUFFIXES = ("log", "snapshot", "actions", "bots")  # every key of a match
FORMAT = 1


def cold_store(settings: Settings) -> ColdStore:
    """S3 where a bucket is configured, else the directory."""
    if settings.archive_s3_bucket:
        return S3Store(
            settings.archive_s3_bucket, settings.archive_s3_prefix, settings.archive_s3_endpoint
        )
    return DirectoryStore(settings.archive_dir)


class Archive:
    def __init__(self, models: ReadModels, cold: ColdStore, after_s: float | None) -> None:
        """``after_s``: how long after its finish a match is archived (None: never)."""
        self.models = models
        self.log: MatchLog = models.log
        self.client: Any = models.client
        self.cold = cold
        self.after_s = after_s

    def due_key(self, partition: int) -> str:
        """Where the history's last step files a finish (``ReadModels.commit``)."""
        return self.models.archive_due_key(partition)

    # -- writing -------------------------------------------------------------------------------
    def due(self, partition: int, now: float | None = None, limit: int = 100) -> list[str]:
        rows: Any = self.client.zrangebyscore(
            self.due_key(partition), "-inf", now or time.time(), start=0, num=limit
        )
        return list(rows)

    def archive(self, match_id: str) -> str | None:
        """Move a finished match to cold storage; its address (None: not finished, or gone)."""
        keys = self.log.keys(match_id)
        entries = self.log.entries(match_id)
        if not entries or not is_finished(entries):
            self.client.zrem(self.due_key(self.log.partition(match_id)), match_id)
            return None
        if not is_revealed(entries):  # a duplicate table's reveal is still to be appended
            return None
        document = {
            "format": FORMAT,
            "match": match_id,
            "entries": entries,
            "summary": self.models.summary(match_id),
            "scores": self.models.sheet(match_id),
            "verify": counted(verify(entries)),
        }
        address = self.cold.put(jsoncodec.canonical(document))
        with self.client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(keys.log)  # a finished log never grows; if it did, keep it
                if pipe.xlen(keys.log) != len(entries):
                    return None
                pipe.multi()
                pipe.set(self.log.key(match_id, POINTER_SUFFIX), address)
                pipe.delete(*(self.log.key(match_id, s) for s in MATCH_KEY_SUFFIXES))
                pipe.delete(self.models.summary_key(match_id), self.models.sheet_key(match_id))
                pipe.zrem(self.due_key(self.log.partition(match_id)), match_id)
                pipe.execute()
            except redis.WatchError:
                return None
        return address

    def archive_due(self, partitions: list[int], limit: int = 100) -> int:
        """Archive what is due on ``partitions``; how many were archived."""
        done = 0
        for partition in partitions:
            for match_id in self.due(partition, limit=limit):
                if self.archive(match_id) is not None:
                    done += 1
        return done

    # -- reading -------------------------------------------------------------------------------
    def address(self, match_id: str) -> str | None:
        return self.client.get(self.log.key(match_id, POINTER_SUFFIX))

    def document(self, match_id: str) -> dict[str, Any] | None:
        """The archived document of the match, or None if it is not archived."""
        address = self.address(match_id)
        if address is None:
            return None
        return jsoncodec.loads(self.cold.get(address))
