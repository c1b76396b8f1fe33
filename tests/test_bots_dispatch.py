"""The dispatcher's decisions and bookkeeping, in process on a real Redis (no workers).

What a notification asks for, job ids unique to (kind, match, version, seat) so that a
notification delivered twice enqueues nothing new, and the watchdog redoing a lost task
only while its match still waits at that version.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import redis
from redis.crc import key_slot
from rq import Queue
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from services.bots.dispatcher import START_GRACE_S, Dispatcher, Notice, dead_key, plan
from services.bots.jobs import LobbyError, _refused_in_process
from services.bots.tasks import BOT, IDLE, QUEUE, START, TURN, WINDOW, Task
from services.bots.timers import window_closes_at
from services.errors import Conflict, Forbidden, NotFound, Rejected, Unavailable
from services.lobby.match import bot_seats
from services.settings import DispatcherSettings, Settings
from shared.bots.reflexes import Reflexes
from shared.eventstore import MatchLog

MATCH = "9f1c0a2b3c4d5e6f"


def notice(version: int = 7, **event: object) -> Notice:
    fields = {"status": "running", "to_act": [1], "deadline": None, "bots": [], **event}
    message = {"match": MATCH, "version": str(version), "kind": "action"}
    return Notice.parse("1790000000123-0", {**message, "event": json.dumps(fields)})


BOT_AT_1 = [{"seat": 1, "strategy": "random", "player": "b1"}]
NOTIFIED = 1790000000.123  # the epoch of notice()'s feed id


def test_a_bot_seat_to_act_gets_a_job_now_and_a_person_none_without_a_turn_timeout():
    assert plan(notice(to_act=[0, 1], bots=BOT_AT_1), None) == [(Task(BOT, MATCH, 7, 1), None)]


def test_a_bot_waits_the_matchs_pace_after_the_entry_it_answers():
    """The lobby sends the match's bot_pace while a person sits in it: the bot's job is due
    that long after the entry, counted from its append (the feed id), whoever is to act."""
    paced = plan(notice(to_act=[0, 1], bots=BOT_AT_1, bot_pace=1.0), None)
    assert paced == [(Task(BOT, MATCH, 7, 1), pytest.approx(NOTIFIED + 1.0))]
    commit = {"kind": "commit", "seconds": 30.0}  # a sealed bid is paced like a turn move
    tasks = plan(notice(to_act=[1], deadline=commit, bots=BOT_AT_1, bot_pace=2.5), None)
    assert (Task(BOT, MATCH, 7, 1), pytest.approx(NOTIFIED + 2.5)) in tasks
    # a match of bots only (the lobby sends 0), or a notification without the field: at once
    assert plan(notice(to_act=[1], bots=BOT_AT_1, bot_pace=0), None) == [
        (Task(BOT, MATCH, 7, 1), None)
    ]


def test_a_paced_bot_move_is_scheduled_no_sooner_than_its_pace(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    """Dispatched at once, the bot's job waits in rq's scheduler, due at the next whole
    second after the entry's time plus the pace; a dispatch later than that queues it now."""
    at_version(redis_client, 7)
    now = time.time()
    ms = int(now * 1000)
    fresh = Notice.parse(
        f"{ms}-0",
        {"match": MATCH, "version": "7", "kind": "action",
         "event": json.dumps({"status": "running", "to_act": [1], "bots": BOT_AT_1,
                              "bot_pace": 1.0})},
    )  # fmt: skip
    assert dispatcher.dispatch(fresh, 7, None) == "dispatched"
    job_id = Task(BOT, MATCH, 7, 1).job_id
    registry = ScheduledJobRegistry(queue=dispatcher.queue)
    assert job_id in registry.get_job_ids() and dispatcher.queue.job_ids == []
    assert registry.get_scheduled_time(job_id).timestamp() >= ms / 1000 + 1.0
    late = Notice.parse(
        "1000-0",  # appended long ago: its pace is over
        {"match": MATCH, "version": "8", "kind": "action",
         "event": json.dumps({"status": "running", "to_act": [1], "bots": BOT_AT_1,
                              "bot_pace": 1.0})},
    )  # fmt: skip
    at_version(redis_client, 8)
    assert dispatcher.dispatch(late, 8, None) == "dispatched"
    assert dispatcher.queue.job_ids == [Task(BOT, MATCH, 8, 1).job_id]


def test_a_seat_a_bot_sits_in_for_is_played_like_a_bot_seat_with_no_turn_timer():
    """The lobby lists a seat a bot sits in for among the notification's bots: the dispatcher
    plays it with a bot job, and its person's turn timer stops until they take it back."""
    sitting = {"strategy": "hard", "strategy_version": "tapete-x/bots/hard", "reason": "left"}
    match = {
        "seats": [
            {"seat": 0, "player": "ana", "name": "Ana", "bot": None, "sat_in": sitting},
            {"seat": 1, "player": "ben", "name": "Ben", "bot": None},
        ]
    }
    bots = bot_seats(match)
    assert bots == [{"seat": 0, "strategy": "hard", "player": "bot-hard", "sat_in": True}]
    assert bot_seats(match, sat_in=False) == []  # a rematch seats no bot for a person
    assert plan(notice(to_act=[0], bots=bots), 30.0) == [(Task(BOT, MATCH, 7, 0), None)]
    del match["seats"][0]["sat_in"]  # taken back
    assert plan(notice(to_act=[0], bots=bot_seats(match)), 30.0) == [
        (Task(TURN, MATCH, 7, 0), pytest.approx(NOTIFIED + 30.0))
    ]


def test_a_finished_match_asks_for_nothing():
    assert plan(notice(status="finished", to_act=[], bots=BOT_AT_1), 5.0) == []


def test_every_person_to_act_gets_a_turn_timer_counted_from_the_notification():
    tasks = plan(notice(to_act=[0, 1, 2], bots=BOT_AT_1), 30.0)
    assert (Task(BOT, MATCH, 7, 1), None) in tasks
    assert (Task(TURN, MATCH, 7, 0), 1790000030.123) in tasks
    assert (Task(TURN, MATCH, 7, 2), 1790000030.123) in tasks
    assert len(tasks) == 3


def test_a_window_closes_at_the_lobbys_deadline():
    deadline = {"kind": "reaction", "seconds": 3.0, "at": "2026-09-21T16:00:03.500Z"}
    [(task, at)] = plan(notice(to_act=[0], deadline=deadline), None)
    assert task == Task(WINDOW, MATCH, 7) and at == pytest.approx(1790006403.5)
    assert window_closes_at({"kind": "reaction", "seconds": 3.0}, 100.0) == 103.0


def test_a_full_open_match_that_starts_itself_gets_a_start_task_a_moment_after_its_last_join():
    """The lobby deals it right after the join; should that fail, the task deals it."""
    joined = notice(status="open", to_act=[])
    assert plan(joined, None, to_deal=True) == [(Task(START, MATCH, 7), NOTIFIED + START_GRACE_S)]
    assert plan(joined, None) == []  # a seat still free, or a creator who starts it by hand


def test_job_and_action_ids():
    task = Task(BOT, MATCH, 12, 3)
    assert task.job_id == f"tapete-bot-{MATCH}-12-3"
    assert task.retry().job_id == f"tapete-bot-{MATCH}-12-3-r1"
    assert task.retry().action_id == task.action_id == f"tapete-bot-{MATCH}-12-3"
    assert Task(WINDOW, "a.b", 4).job_id == "tapete-window-a_2e_b-4"
    assert Task.decode(task.retry().encode()) == task.retry()


@pytest.mark.parametrize("bad", [{"match": MATCH}, {"match": "no spaces!", "version": "3"}])
def test_a_malformed_notification_is_refused(bad: dict[str, str]):
    with pytest.raises((KeyError, ValueError)):
        Notice.parse("1-0", {"event": json.dumps({"status": "running"}), **bad})


# -- with Redis ------------------------------------------------------------------------------
@pytest.fixture
def dispatcher(redis_client: redis.Redis, redis_url: str) -> Iterator[Dispatcher]:
    rq_connection = redis.Redis.from_url(redis_url)
    settings = DispatcherSettings(name="test", retry_after_s=0.0, retry_max_s=0.0)
    yield Dispatcher(MatchLog(redis_client), Queue(QUEUE, connection=rq_connection), settings)
    rq_connection.close()


def at_version(client: redis.Redis, version: int) -> None:
    """A snapshot of the match at ``version`` (all the dispatcher reads of it)."""
    key = MatchLog(client).keys(MATCH).snapshot
    client.hset(key, mapping={"version": version, "match": json.dumps({"turn_timeout": None})})


def test_a_notification_delivered_twice_enqueues_one_job(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    at_version(redis_client, 7)
    seen = notice(to_act=[1], bots=BOT_AT_1)
    assert dispatcher.dispatch(seen, 7, None) == "dispatched"
    assert dispatcher.dispatch(seen, 7, None) == "dispatched"
    assert dispatcher.queue.job_ids == [Task(BOT, MATCH, 7, 1).job_id]
    job = Job.fetch(Task(BOT, MATCH, 7, 1).job_id, connection=dispatcher.queue.connection)
    assert job.args == (MATCH, 7, 1, 0) and job.func_name == "services.bots.jobs.play_bot"
    assert dispatcher.leases.count() == 1


def test_a_timer_is_never_scheduled_before_its_time(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    """rq's scheduler keeps whole seconds: a window closing at x.2 s is due at x+1 s, not x."""
    at_version(redis_client, 7)
    closes = math.floor(time.time()) + 30.2
    at = datetime.fromtimestamp(closes, UTC).isoformat()
    assert dispatcher.dispatch(notice(deadline={"kind": "reaction", "at": at}), 7, None)
    registry = ScheduledJobRegistry(queue=dispatcher.queue)
    due = registry.get_scheduled_time(Task(WINDOW, MATCH, 7).job_id).timestamp()
    assert due == math.ceil(closes)


def test_a_notification_overtaken_by_a_later_version_asks_for_nothing(dispatcher: Dispatcher):
    assert dispatcher.dispatch(notice(to_act=[1], bots=BOT_AT_1), 8, None) == "stale"
    assert dispatcher.queue.job_ids == [] and dispatcher.leases.count() == 0


def test_the_watchdog_redoes_a_lost_task_for_as_long_as_its_match_waits(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    at_version(redis_client, 7)
    task = Task(BOT, MATCH, 7, 1)
    dispatcher.leases.take(task, time.time() - 1)  # its job was lost: nobody released it
    assert dispatcher.sweep() == 1
    assert dispatcher.queue.job_ids == [task.retry().job_id]
    [lease] = dispatcher.leases.overdue(time.time() + 1, 10)
    assert lease == task.retry()

    attempt = task.retry()
    for _ in range(8):  # every attempt is lost too: never given up while the match waits
        dispatcher.queue.empty()  # the rq Redis lost its queue
        dispatcher.sweep()
        attempt = attempt.retry()
        assert dispatcher.queue.job_ids == [attempt.job_id]
    assert dispatcher.leases.overdue(time.time() + 1, 10) == [attempt]

    at_version(redis_client, 8)  # then someone moved: the task is stale, its lease goes
    dispatcher.sweep()
    assert dispatcher.leases.count() == 0 and dispatcher.queue.job_ids == [attempt.job_id]


def test_a_task_whose_job_still_waits_in_the_queue_is_not_redone(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    """Workers behind on their queue are slow, not lost: a second attempt would only wait in
    the same line and make it longer (under load the line then grows faster than it is
    served), so the lease is renewed instead; once the job is gone it is redone."""
    at_version(redis_client, 7)
    task = Task(BOT, MATCH, 7, 1)
    assert dispatcher.dispatch(notice(to_act=[1], bots=BOT_AT_1), 7, None) == "dispatched"
    for _ in range(5):  # its lease runs out (retry_after_s is 0 here) while the job waits
        assert dispatcher.sweep() == 1
        assert dispatcher.queue.job_ids == [task.job_id]
        assert dispatcher.leases.overdue(time.time() + 1, 10) == [task]

    Job.fetch(task.job_id, connection=dispatcher.queue.connection).delete()  # lost after all
    dispatcher.sweep()
    assert dispatcher.queue.job_ids == [task.retry().job_id]


def test_a_queued_job_a_killed_worker_took_off_the_queue_is_redone(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    """A worker takes a job off the queue's list before rq marks it started; one killed in
    between leaves the job "queued" in no queue (seen once in the chaos drill: a bot match
    stranded). Only the list says a job still waits, so this one is redone."""
    at_version(redis_client, 7)
    task = Task(BOT, MATCH, 7, 1)
    assert dispatcher.dispatch(notice(to_act=[1], bots=BOT_AT_1), 7, None) == "dispatched"
    connection = dispatcher.queue.connection
    assert connection.lrem(dispatcher.queue.key, 0, task.job_id) == 1  # taken, never started
    assert Job.fetch(task.job_id, connection=connection).get_status() == JobStatus.QUEUED
    dispatcher.sweep()
    assert dispatcher.queue.job_ids == [task.retry().job_id]


def test_leases_and_idle_matches_spread_over_the_partitions_and_each_replica_sweeps_its_own(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    """On four partitions, each match's lease and idle time sit in its partition's slot; a
    replica reading two of the partitions redoes the lost tasks and ends the idle matches of
    those two only, and one reading all of them finds every one."""
    log = MatchLog(redis_client, partitions=4)
    by_partition: dict[int, str] = {}
    for n in range(64):
        by_partition.setdefault(log.partition(f"{n:016x}"), f"{n:016x}")
    assert sorted(by_partition) == [0, 1, 2, 3]
    settings = DispatcherSettings(name="test", retry_after_s=0.0, retry_max_s=0.0)
    spread = Dispatcher(log, dispatcher.queue, settings, idle_limit_s=60)
    for match_id in by_partition.values():
        snapshot = log.keys(match_id).snapshot
        redis_client.hset(snapshot, mapping={"version": 7, "match": json.dumps({})})
        spread.leases.take(Task(BOT, match_id, 7, 1), time.time() - 1)
    spread.idle.seen({m: time.time() - 120 for m in by_partition.values()}, [])
    keys = [spread.leases.key(Task(BOT, m, 7, 1)) for m in by_partition.values()]
    slots = {key_slot(key.encode()) for key in keys}
    assert len(slots) == 4 and spread.leases.count() == 4

    spread.owned = [log.feed_key(0), log.feed_key(2)]  # its share of the partitions
    assert spread.sweep() == 2 and spread.end_idle() == 2
    mine = [by_partition[0], by_partition[2]]
    assert set(dispatcher.queue.job_ids) == {Task(BOT, m, 7, 1).retry().job_id for m in mine} | {
        Task(IDLE, m, 7).job_id for m in mine
    }
    spread.owned = list(spread.streams)  # alone: every partition
    overdue = spread.leases.overdue(time.time() + 1, 100)
    assert {task.match for task in overdue} == set(by_partition.values())
    assert spread.end_idle() == 2  # the other two: the first two were filed again at hand-over


def test_each_attempt_waits_twice_as_long_as_the_last_up_to_the_cap(dispatcher: Dispatcher):
    settings = DispatcherSettings(name="test", retry_after_s=10.0, retry_max_s=60.0)
    slow = Dispatcher(dispatcher.log, dispatcher.queue, settings)
    assert [slow.retry_pause(n) for n in range(6)] == [10.0, 20.0, 40.0, 60.0, 60.0, 60.0]
    assert slow.retry_pause(10_000) == 60.0
    capped_below = DispatcherSettings(name="test", retry_after_s=10.0, retry_max_s=5.0)
    assert Dispatcher(dispatcher.log, dispatcher.queue, capped_below).retry_pause(3) == 10.0


def full_open_match(client: redis.Redis, version: int, autostart: bool = True) -> None:
    seats = [{"seat": n, "player": f"p{n}", "name": "P", "bot": None} for n in range(2)]
    match = {"status": "open", "autostart": autostart, "seats": seats, "turn_timeout": None}
    key = MatchLog(client).keys(MATCH).snapshot
    client.hset(key, mapping={"version": version, "match": json.dumps(match)})


def test_a_full_match_left_open_is_dealt_by_a_start_task_redone_while_it_waits(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    full_open_match(redis_client, 7)
    joined = notice(status="open", to_act=[])  # its grace is long past: the task is due now
    assert dispatcher.dispatch(joined, *dispatcher._snapshots([MATCH])[MATCH]) == "dispatched"
    task = Task(START, MATCH, 7)
    assert dispatcher.queue.job_ids == [task.job_id]
    job = Job.fetch(task.job_id, connection=dispatcher.queue.connection)
    assert job.args == (MATCH, 7, 0) and job.func_name == "services.bots.jobs.start_match"
    fields = {"match": MATCH, "version": "7", "event": json.dumps({"status": "open"})}
    assert dispatcher.still_needed(fields)  # never dead-lettered while the match waits

    job.delete()  # the attempt failed (the rules did not answer) or was lost
    dispatcher.sweep()
    assert dispatcher.queue.job_ids == [task.retry().job_id]

    full_open_match(redis_client, 8)  # dealt (by the lobby, or by an attempt): nothing left
    dispatcher.sweep()
    assert dispatcher.leases.count() == 0 and not dispatcher.still_needed(fields)


def test_a_full_match_its_creator_starts_by_hand_gets_no_start_task(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    full_open_match(redis_client, 7, autostart=False)
    joined = notice(status="open", to_act=[])
    assert dispatcher.dispatch(joined, *dispatcher._snapshots([MATCH])[MATCH]) == "idle"
    assert dispatcher.leases.count() == 0


def test_the_watchdog_forgets_a_task_whose_match_moved_on(
    dispatcher: Dispatcher, redis_client: redis.Redis
):
    at_version(redis_client, 8)
    dispatcher.leases.take(Task(BOT, MATCH, 7, 1), time.time() - 1)
    dispatcher.sweep()
    assert dispatcher.queue.job_ids == [] and dispatcher.leases.count() == 0


def test_settings_come_from_prefixed_variables_else_their_defaults():
    env = {"BOTS_BLOCK_MS": "250", "BOTS_RETRY_AFTER_S": "2.5", "BOTS_DISPATCHER_NAME": "d1"}
    settings = Settings.from_env(env).bots_dispatcher
    assert (settings.name, settings.block_ms, settings.retry_after_s) == ("d1", 250, 2.5)
    assert (settings.batch, settings.retry_max_s, settings.claim_every_s) == (100, 60.0, 1.0)
    assert Settings.from_env({}).bots_dispatcher.name.endswith(f"-{os.getpid()}")


@pytest.mark.parametrize(
    "refusal, outcome",
    [
        (Conflict("stale", code="stale_version"), "stale"),
        (Forbidden("not yours", code="not_your_turn"), "dropped"),
        (NotFound("no match"), "dropped"),
        (Rejected("illegal", code="illegal_action"), None),
        (Unavailable("rules down", code="rules_unavailable"), None),
    ],
)
def test_a_timer_tells_the_lobbys_refusals_by_their_type(refusal, outcome):
    """A timer's move is made in process: a conflict means someone moved first, a refusal
    of the seat or match means nothing is left to do, anything else fails (and is retried)."""
    if outcome is None:
        with pytest.raises(LobbyError, match=refusal.code):
            _refused_in_process(refusal)
    else:
        assert _refused_in_process(refusal) == outcome


def test_in_a_reflex_window_a_bot_acts_after_a_persons_reaction_time_or_misses():
    deadline = {"kind": "reaction", "seconds": 3.0}
    rng = random.Random(3)
    times = []
    for _ in range(400):
        tasks = plan(notice(to_act=[0, 1], deadline=deadline, bots=BOT_AT_1), None, rng=rng)
        times += [at - NOTIFIED for task, at in tasks if task.kind == BOT]
        assert (Task(WINDOW, MATCH, 7), NOTIFIED + 3.0) in tasks
    reflexes = Reflexes()
    assert all(reflexes.fastest_s <= t < 3.0 for t in times)
    assert 0.8 * 400 < len(times) < 0.97 * 400  # some windows are missed
    assert 0.6 < statistics.median(times) < 1.0


def test_a_bot_never_reacts_when_it_always_misses_and_a_sealed_commit_is_no_reflex():
    never = Reflexes(miss=1.0)
    reaction = {"kind": "reaction", "seconds": 3.0}
    tasks = plan(notice(to_act=[1], deadline=reaction, bots=BOT_AT_1), None, never)
    assert [t for t, _ in tasks] == [Task(WINDOW, MATCH, 7)]
    commit = {"kind": "commit", "seconds": 30.0}
    tasks = plan(notice(to_act=[1], deadline=commit, bots=BOT_AT_1), None, never)
    assert (Task(BOT, MATCH, 7, 1), None) in tasks
    slow = Reflexes(median_s=5.0, fastest_s=4.0, miss=0.0)
    assert slow.delay(random.Random(1), 3.0) is None


@pytest.mark.parametrize("moved_on", [False, True], ids=["current", "stale"])
def test_a_notification_delivered_too_often_is_dead_lettered_only_when_nothing_waits_for_it(
    dispatcher: Dispatcher, redis_client: redis.Redis, moved_on: bool
):
    """Dispatching it failed again and again (the store timing out under load): while its
    match waits at its version it is tried once more, never dropped; once stale it goes."""
    settings = DispatcherSettings(name="test", min_idle_ms=0, max_deliveries=1)
    group = Dispatcher(dispatcher.log, dispatcher.queue, settings)
    group.ensure_groups()
    at_version(redis_client, 8 if moved_on else 7)
    [stream] = group.streams
    event = {"status": "running", "to_act": [1], "bots": BOT_AT_1}
    fields = {"match": MATCH, "version": "7", "kind": "action", "event": json.dumps(event)}
    redis_client.xadd(stream, fields)
    redis_client.xreadgroup(group.group, "other", {stream: ">"})  # delivered, never acked
    redis_client.xautoclaim(stream, group.group, "other", 0, "0-0")  # and again
    group.reclaim()
    dead = redis_client.xlen(dead_key(0))
    assert redis_client.xpending(stream, group.group)["pending"] == 0
    if moved_on:
        assert dead == 1 and dispatcher.queue.job_ids == []
    else:
        assert dead == 0 and dispatcher.queue.job_ids == [Task(BOT, MATCH, 7, 1).job_id]
