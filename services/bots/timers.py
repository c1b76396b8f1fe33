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
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import redis

from .tasks import Task

LEASES_KEY = "tapete:{bots}:leases"  # sorted set in the match store: Task.encode() -> due (epoch)
IDLE_KEY = "tapete:{bots}:idle"  # sorted set: running match id -> its last entry's time (epoch)


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


class IdleMatches:
    """The running matches by the time of their last entry: the idle limit's sorted set.

    The dispatcher files each running match at every notification and drops it at the end;
    a match whose time is older than the idle limit is handed to a worker to be ended as
    abandoned, and filed again at the hand-over time, so it is looked at once per limit.
    """

    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def seen(self, running: dict[str, float], ended: list[str]) -> None:
        pipe = self.client.pipeline(transaction=False)
        if running:
            pipe.zadd(IDLE_KEY, running, gt=True)  # never back in time: notices come unordered
        if ended:
            pipe.zrem(IDLE_KEY, *ended)
        pipe.execute()

    def idle_since(self, before: float, limit: int) -> list[str]:
        rows: Any = self.client.zrangebyscore(IDLE_KEY, "-inf", before, start=0, num=limit)
        return [row.decode() if isinstance(row, bytes) else row for row in rows]

    def rearm(self, match_ids: list[str], now: float) -> None:
        self.client.zadd(IDLE_KEY, dict.fromkeys(match_ids, now), gt=True)


class Leases:
    """The watchdog's sorted set: which tasks should be done by when."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def take(self, task: Task, due: float) -> None:
        """Lease ``task`` until ``due``; an existing lease keeps its earlier time."""
        self.client.zadd(LEASES_KEY, {task.encode(): due}, nx=True)

    def release(self, task: Task) -> None:
        self.client.zrem(LEASES_KEY, task.encode())

    def renew(self, old: Task, new: Task, due: float) -> None:
        """Hand a lease over to the task's next attempt, in one step."""
        pipe = self.client.pipeline(transaction=True)
        pipe.zadd(LEASES_KEY, {new.encode(): due})
        pipe.zrem(LEASES_KEY, old.encode())
        pipe.execute()

    def overdue(self, now: float, limit: int) -> list[Task]:
        rows: Any = self.client.zrangebyscore(LEASES_KEY, "-inf", now, start=0, num=limit)
        return [Task.decode(row) for row in rows]

    def count(self) -> int:
        return int(self.client.zcard(LEASES_KEY))  # type: ignore[arg-type]
