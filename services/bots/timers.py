"""When timers fire, and the watchdog that redoes the work of a job that was lost.

Timers are rq delayed jobs (``Queue.enqueue_at``), moved to the queue by the scheduler
that runs inside the workers. A window closes at the moment the lobby wrote into the
notification (``deadline.at``); a seat's turn times out ``turn_timeout`` seconds after the
feed entry that put it to act, so a dispatcher running late shortens nobody's turn and
lengthens nobody's either.

The watchdog keeps a lease on every task the dispatcher enqueues: a sorted set, task ->
the time by which it should be done. The worker removes the lease when the job ends
(played, stale or dropped). A lease still there when its time comes means the job was
lost: its worker was killed mid-job, the scheduler that held a timer died, the rq Redis
lost its queue, or the job failed. If the match is still at that version the dispatcher
enqueues the task again as its next attempt (rq alone notices a dead worker's job only a
minute after the job's timeout). The leases live in the match store, beside the logs, so
they outlive the rq Redis, which keeps nothing that cannot be lost.

Both sorted sets are split by the match's feed partition, each part in that partition's
slot (``{p<P>}``, beside the match's log and snapshot), so on a Redis Cluster they spread
as the matches do; the dispatcher sweeps the partitions it reads:

    tapete:{p<P>}:bots:leases    Task.encode() -> the time by which it should be done (epoch)
    tapete:{p<P>}:bots:idle      running match id -> the time of its last entry (epoch)
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from shared.eventstore import MatchLog

from .tasks import Task

LEASES_NAME = "bots:leases"
IDLE_NAME = "bots:idle"


def window_closes_at(deadline: dict[str, Any], notified: float) -> float:
    """Epoch seconds: the lobby's ``deadline.at``, else ``seconds`` after the notification."""
    at = deadline.get("at")
    if isinstance(at, str):
        return datetime.fromisoformat(at).timestamp()
    return notified + float(deadline.get("seconds") or 0.0)


def turn_times_out_at(turn_timeout: float, notified: float, turn_deadline: str | None) -> float:
    """The lobby's ``turn_deadline`` (the time clients count down to), else ``turn_timeout``
    after the notification (an entry written before the lobby wrote turn deadlines)."""
    if turn_deadline:
        return datetime.fromisoformat(turn_deadline).timestamp()
    return notified + turn_timeout


class PartitionedSet:
    """A sorted set of match-keyed members, split by the match's feed partition."""

    def __init__(self, log: MatchLog, name: str) -> None:
        self.log = log
        self.client: Any = log.client
        self.name = name

    def key(self, partition: int) -> str:
        return self.log.partition_key(partition, self.name)

    def key_of(self, match_id: str) -> str:
        return self.key(self.log.partition(match_id))

    def partitions(self, only: Iterable[int] | None) -> list[int]:
        return list(range(self.log.partitions)) if only is None else list(only)

    def earliest(self, before: float, limit: int, only: Iterable[int] | None) -> list[str]:
        """Up to ``limit`` members scored at most ``before``, earliest first, from the
        partitions ``only`` (None: all), in one pipeline (one round trip per node)."""
        partitions = self.partitions(only)
        pipe = self.client.pipeline(transaction=False)
        for partition in partitions:
            pipe.zrangebyscore(self.key(partition), "-inf", before, 0, limit, withscores=True)
        parts = [[(score, _text(m)) for m, score in rows] for rows in pipe.execute()]
        return [member for _, member in heapq.merge(*parts)][:limit]

    def count(self) -> int:
        pipe = self.client.pipeline(transaction=False)
        for partition in self.partitions(None):
            pipe.zcard(self.key(partition))
        return sum(int(n) for n in pipe.execute())


class IdleMatches:
    """The running matches by the time of their last entry: the idle limit's sorted sets.

    The dispatcher files each running match at every notification and drops it at the end;
    a match whose time is older than the idle limit is handed to a worker to be ended as
    abandoned, and filed again at the hand-over time, so it is looked at once per limit.
    """

    def __init__(self, log: MatchLog) -> None:
        self.sets = PartitionedSet(log, IDLE_NAME)

    def seen(self, running: dict[str, float], ended: list[str]) -> None:
        filed: dict[str, dict[str, float]] = defaultdict(dict)
        for match_id, at in running.items():
            filed[self.sets.key_of(match_id)][match_id] = at
        dropped: dict[str, list[str]] = defaultdict(list)
        for match_id in ended:
            dropped[self.sets.key_of(match_id)].append(match_id)
        if not filed and not dropped:
            return
        pipe = self.sets.client.pipeline(transaction=False)
        for key, times in filed.items():
            pipe.zadd(key, times, gt=True)  # never back in time: notices come unordered
        for key, match_ids in dropped.items():
            pipe.zrem(key, *match_ids)
        pipe.execute()

    def idle_since(
        self, before: float, limit: int, partitions: Iterable[int] | None = None
    ) -> list[str]:
        return self.sets.earliest(before, limit, partitions)

    def rearm(self, match_ids: list[str], now: float) -> None:
        self.seen(dict.fromkeys(match_ids, now), [])


class Leases:
    """The watchdog's sorted sets: which tasks should be done by when."""

    def __init__(self, log: MatchLog) -> None:
        self.sets = PartitionedSet(log, LEASES_NAME)
        self.client = self.sets.client

    def key(self, task: Task) -> str:
        return self.sets.key_of(task.match)

    def take(self, task: Task, due: float) -> None:
        """Lease ``task`` until ``due``; an existing lease keeps its earlier time."""
        self.client.zadd(self.key(task), {task.encode(): due}, nx=True)

    def extend(self, task: Task, due: float) -> None:
        """Move ``task``'s lease to ``due`` (its job is still waiting in the queue)."""
        self.client.zadd(self.key(task), {task.encode(): due}, xx=True)

    def release(self, task: Task) -> None:
        self.client.zrem(self.key(task), task.encode())

    def renew(self, old: Task, new: Task, due: float) -> None:
        """Hand a lease over to the task's next attempt, in one step (one match: one slot)."""
        pipe = self.client.pipeline(transaction=True)
        pipe.zadd(self.key(new), {new.encode(): due})
        pipe.zrem(self.key(old), old.encode())
        pipe.execute()

    def overdue(
        self, now: float, limit: int, partitions: Iterable[int] | None = None
    ) -> list[Task]:
        """The earliest leases run out by ``now``, of ``partitions`` (None: every one)."""
        return [Task.decode(row) for row in self.sets.earliest(now, limit, partitions)]

    def of_match(self, match_id: str) -> list[Task]:
        rows: Any = self.client.zrange(self.sets.key_of(match_id), 0, -1)
        return [task for task in map(Task.decode, map(_text, rows)) if task.match == match_id]

    def count(self) -> int:
        return self.sets.count()


def _text(member: Any) -> str:
    return member.decode() if isinstance(member, bytes) else member
