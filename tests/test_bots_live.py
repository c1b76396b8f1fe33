"""Bots and timers as deployed: the rules, lobby and history services under gunicorn, the
bot dispatcher and rq workers as real processes, all on a real Redis.

A person plays a bot that answers every turn; bots play a match of every game to its end,
and each verifies; a worker killed with SIGKILL in the middle of a
bot's turn (before its move, and after it) loses no turn and duplicates no move; a turn
timeout plays for an absent person; the rules' windows (Raj's sealed bids, Nervioso's
reaction) are closed by the timers; a poison notification is dead-lettered. Every test
runs on one Redis and on a Redis Cluster, with rq on a plain Redis of its own there
(tests/redis_fixtures.py).
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from rq.exceptions import NoSuchJobError
from rq.job import Job

from services.bots.dispatcher import GROUP, dead_key
from services.bots.jobs import PAUSE_AFTER_SUBMIT, PAUSE_BEFORE_SUBMIT
from services.bots.tasks import BOT, Task
from services.bots.timers import Leases
from services.lobby.application import Lobby
from services.lobby.rules_client import RulesClient
from shared.engine import all_games, apply, new_match
from shared.redis_server import free_port
from tests.bots_fixtures import BotProcess, BotProcesses
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import Http, Service, session, wait_until

pytestmark = pytest.mark.cluster  # on one Redis and on a Redis Cluster (rq on its own)

Entry = dict[str, Any]


@pytest.fixture(scope="module")
def dispatcher(bot_processes: BotProcesses) -> BotProcess:
    process = bot_processes.dispatcher(BOTS_DISPATCHER_METRICS_PORT=str(free_port()))
    process.wait_for_log("dispatching")
    return process


def metrics(process: BotProcess, variable: str) -> dict[str, float]:
    """The samples a bot process serves to Prometheus on the port ``variable`` names."""
    port = process.env[variable]
    text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    return {
        line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line and not line.startswith("#")
    }


class Workers:
    """rq workers started by one test and stopped at its end."""

    def __init__(self, processes: BotProcesses) -> None:
        self.processes = processes
        self.started: list[BotProcess] = []

    def start(self, count: int = 1, **env: str) -> list[BotProcess]:
        fresh = [
            self.processes.worker(f"worker-{len(self.started) + i}-{time.monotonic_ns()}", **env)
            for i in range(count)
        ]
        for worker in fresh:
            worker.wait_for_log("working on")
        self.started += fresh
        return fresh

    def stop_all(self) -> None:
        for worker in self.started:
            worker.stop()


@pytest.fixture
def workers(bot_processes: BotProcesses, dispatcher: BotProcess) -> Iterator[Workers]:
    running = Workers(bot_processes)
    yield running
    running.stop_all()


@pytest.fixture
def lobby(lobby_service: Service) -> Http:
    return Http(session(), lobby_service.url)


# -- helpers -----------------------------------------------------------------------------------
def bot_match(
    http: Http,
    host: dict[str, Any],
    game: str,
    variant: str = "base",
    players: int = 2,
    strategy: str = "random",
    **body: Any,
) -> dict[str, Any]:
    """A match with a bot in every seat, started (its host only watches)."""
    match = http.match(host, game=game, variant=variant, players=players, **body)
    for seat in range(players):
        reply = http.post(
            f"/v1/matches/{match['id']}/bots",
            host["token"],
            json={"seat": seat, "strategy": strategy},
        )
        assert reply.status == 200, reply.body
        match = reply.body
    return match


def follow(
    http: Http,
    player: dict[str, Any],
    match_id: str,
    until: Any,
    after: int = 0,
    timeout: float = 30.0,
) -> list[Entry]:
    """The feed's entries after ``after`` (as ``player`` sees them) until ``until(entry)``."""
    seen: list[Entry] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        after = seen[-1]["version"] if seen else after
        reply = http.events(player, match_id, after=after, wait=min(5.0, timeout))
        assert reply.status == 200, reply.body
        for entry in reply.body["entries"]:
            seen.append(entry)
            if until(entry):
                return seen
    raise AssertionError(f"match {match_id} not there in {timeout}s; last: {seen[-1:]}")


def finished(entry: Entry) -> bool:
    return entry["status"] == "finished"


def actions(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e["kind"] == "action"]


def check_log(entries: list[Entry]) -> None:
    """Versions 1, 2, 3... and each move by a seat that was to act, or the server."""
    assert [e["version"] for e in entries] == list(range(1, len(entries) + 1))
    for before, entry in zip(entries, entries[1:], strict=False):
        if entry["kind"] == "action" and entry["actor"]["seat"] is not None:
            assert entry["actor"]["seat"] in before["to_act"], entry


# -- a person against a bot --------------------------------------------------------------------
def test_a_bot_answers_every_turn_of_a_person(
    lobby: Http, history: Http, workers: Workers, dispatcher: BotProcess
):
    [worker] = workers.start(1, BOTS_WORKER_METRICS_PORT=str(free_port()))
    ana = lobby.player("Ana")
    match = lobby.match(ana, game="brisca", players=2)
    lobby.join(ana, match["id"], seat=0)
    reply = lobby.post(
        f"/v1/matches/{match['id']}/bots", ana["token"], json={"seat": 1, "strategy": "greedy"}
    )
    assert reply.status == 200 and reply.body["status"] == "running", reply.body
    rng, mine, version = random.Random(7), 0, 0
    while True:
        entries = follow(
            lobby, ana, match["id"], lambda e: 0 in e["to_act"] or finished(e), version
        )
        if finished(entries[-1]):
            break
        now = lobby.view(ana, match["id"])
        version = now["version"]
        move = lobby.act(ana, match["id"], rng.choice(now["view"]["legal_actions"]), now["version"])
        assert move.status == 200, move.body
        mine += 1
    log = lobby.events(ana, match["id"]).body["entries"]
    check_log(log)
    moves = actions(log)
    seats = [e["actor"]["seat"] for e in moves]
    assert seats.count(0) == mine > 10
    # every turn of the bot's seat was answered by the bot (the person's extra moves, such as
    # exchanging the trump card, do not pass the turn, so the counts may differ)
    bot_turns = [i for i, e in enumerate(log[:-1]) if e["to_act"] == [1]]
    assert bot_turns and all(log[i + 1]["actor"]["seat"] == 1 for i in bot_turns)
    assert not any(e["actor"]["system"] for e in moves)
    report = history.get(f"/v1/matches/{match['id']}/verify").body
    assert report["ok"], report
    played = 'tapete_bot_jobs_total{kind="bot",outcome="played"}'
    # (the last move may be the bot's: its job counts it just after the lobby's answer)
    wait_until(lambda: metrics(worker, "BOTS_WORKER_METRICS_PORT")[played] == seats.count(1))
    enqueued = 'tapete_bot_jobs_total{kind="bot",outcome="enqueued"}'
    assert metrics(dispatcher, "BOTS_DISPATCHER_METRICS_PORT")[enqueued] >= seats.count(1)


def person_against_bot(http: Http, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A started 2-player Brisca: a new person at seat 0, a random bot at seat 1."""
    person = http.player("Ana")
    match = http.match(person, game="brisca", players=2, **body)
    http.join(person, match["id"], seat=0)
    reply = http.post(
        f"/v1/matches/{match['id']}/bots", person["token"], json={"seat": 1, "strategy": "random"}
    )
    assert reply.status == 200 and reply.body["status"] == "running", reply.body
    return reply.body, person


def play_once(http: Http, person: dict[str, Any], match_id: str, rng: random.Random) -> int:
    """Wait for the person's turn, then play a random legal move; the version it made."""
    follow(http, person, match_id, lambda e: 0 in e["to_act"])
    now = http.view(person, match_id)
    if 0 not in now["to_act"]:  # the feed's first entries were from before the bot's move
        follow(http, person, match_id, lambda e: 0 in e["to_act"], after=now["version"])
        now = http.view(person, match_id)
    move = http.act(person, match_id, rng.choice(now["view"]["legal_actions"]), now["version"])
    assert move.status == 200, move.body
    return int(move.body["version"])


def test_a_bot_answers_a_person_no_sooner_than_the_matchs_pace(lobby: Http, workers: Workers):
    """With bot_pace 1 s every bot move comes at least a second after the entry before it
    (rq's scheduler keeps whole seconds: at most about two seconds more)."""
    workers.start(1)
    match, person = person_against_bot(lobby, bot_pace=1.0)
    rng = random.Random(3)
    for _ in range(3):
        last = play_once(lobby, person, match["id"], rng)
    # Leave no bot job behind (a later test's worker would take it first): until the person
    # is to act again.
    follow(lobby, person, match["id"], lambda e: 0 in e["to_act"], after=last - 1)
    log = lobby.events(person, match["id"]).body["entries"]
    gaps = [
        seconds_between(before, entry)
        for before, entry in zip(log, log[1:], strict=False)
        if entry["kind"] == "action" and entry["actor"]["seat"] == 1
    ]
    assert len(gaps) >= 2, log
    assert all(1.0 <= gap < 4.0 for gap in gaps), gaps


# -- a worker killed in the middle of a bot's turn ----------------------------------------------
@pytest.fixture
def rq_connection(redis_store: RedisStore) -> Iterator[redis.Redis]:
    """rq's Redis (on one node, the match store's own)."""
    connection = redis.Redis.from_url(redis_store.rq_url)
    yield connection
    connection.close()


def job_result(connection: redis.Redis, job_id: str, timeout: float = 10.0) -> Any:
    """The return value of a job, once it has run."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            job = Job.fetch(job_id, connection=connection)
        except NoSuchJobError:
            job = None
        if job is not None and job.is_finished:
            return job.return_value()
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish in {timeout}s")


@pytest.mark.parametrize(
    "pause", [PAUSE_BEFORE_SUBMIT, PAUSE_AFTER_SUBMIT], ids=["before-its-move", "after-its-move"]
)
def test_a_worker_killed_mid_turn_loses_no_turn_and_doubles_no_move(
    lobby: Http, workers: Workers, rq_connection: redis.Redis, leases: Leases, pause: str
):
    """The killed job's lease runs out (1 s here), the dispatcher's watchdog enqueues its
    next attempt, and a new worker plays the turn, or finds it played and drops it."""
    [stuck] = workers.start(1, **{pause: "60"})
    match, ana = person_against_bot(lobby)
    rng = random.Random(3)
    if 0 in match["to_act"]:
        play_once(lobby, ana, match["id"], rng)
    stuck.wait_for_log("pausing")  # the bot's job is in hand, before (or after) its move
    turn = lobby.view(ana, match["id"])["version"] - (pause == PAUSE_AFTER_SUBMIT)
    stuck.kill()

    workers.start(1)
    for _ in range(3):  # the bot answers this turn and the next ones
        last = play_once(lobby, ana, match["id"], rng)
    # Leave no bot job behind: until Ana is to act again (at once if she won the trick).
    follow(lobby, ana, match["id"], lambda e: 0 in e["to_act"], after=last - 1)
    log = lobby.events(ana, match["id"]).body["entries"]
    check_log(log)
    assert log[turn]["kind"] == "action" and log[turn]["actor"]["seat"] == 1  # version turn + 1
    assert log[turn - 1]["to_act"] == [1]
    task = Task(BOT, match["id"], turn, 1)
    if pause == PAUSE_BEFORE_SUBMIT:  # the watchdog's second attempt played the turn
        assert job_result(rq_connection, task.retry().job_id) == "played"
    else:  # the watchdog found the turn played, and let the lost job go
        wait_until(lambda: task not in leases.of_match(task.match))
        assert not Job.exists(task.retry().job_id, connection=rq_connection)


# Longer than five attempts of BOTS_RETRY_AFTER_S (1 s in tests) and their sweeps: past the
# point where a watchdog with a bounded number of attempts gives a task up.
STALL_S = 7.5


@pytest.fixture
def leases(redis_store: RedisStore) -> Iterator[Leases]:
    """The watchdog's leases in the match store, as the dispatcher and workers see them."""
    client = redis_store.client()
    yield Leases(redis_store.log(client))
    client.close()


def test_a_stalled_worker_pool_slows_a_bot_match_down_but_never_strands_it(
    lobby: Http, history: Http, workers: Workers, leases: Leases
):
    """Workers that get no bot move done (they cannot reach the lobby, as when they are
    starved under heavy load) for longer than five of the watchdog's attempts: the task is
    still redone, with growing pauses, so once workers that can play are back the bots'
    match goes on to a verified end instead of waiting for a move that never comes."""
    [stalled] = workers.start(1, LOBBY_URL=f"http://127.0.0.1:{free_port()}")
    host = lobby.player("Host")
    match = bot_match(lobby, host, "brisca")
    wait_until(lambda: leases.of_match(match["id"]) != [], what="the first bot task")
    time.sleep(STALL_S)
    redone = [t.attempt for t in leases.of_match(match["id"])]
    assert redone and max(redone) >= 3, f"the bot's task was given up: {redone}"
    stalled.stop()
    workers.start(1)
    entries = follow(lobby, host, match["id"], finished, timeout=60)
    check_log(lobby.events(host, match["id"]).body["entries"])
    assert entries[-1]["status"] == "finished"
    assert history.get(f"/v1/matches/{match['id']}/verify").body["ok"]
    wait_until(lambda: leases.of_match(match["id"]) == [], what="the match's leases released")


def test_a_worker_finishes_the_job_in_hand_on_sigterm(lobby: Http, workers: Workers):
    [worker] = workers.start(1, **{PAUSE_BEFORE_SUBMIT: "1.5"})
    match, ana = person_against_bot(lobby)
    version = match["version"]  # the bot's turn: at once, or after the person's move
    if 0 in match["to_act"]:
        version = play_once(lobby, ana, match["id"], random.Random(4))
    worker.wait_for_log("pausing")  # the bot's job in hand, 1.5 s before its move
    assert worker.terminate() == 0
    after = lobby.events(ana, match["id"], after=version).body["entries"]
    assert [(e["version"], e["actor"]["seat"]) for e in after] == [(version + 1, 1)]


def test_a_worker_whose_scheduler_is_stuck_still_stops_and_hands_the_scheduler_on(
    workers: Workers,
):
    [worker] = workers.start(1)
    [scheduler] = worker.children()  # rq's scheduler, holding the queue's scheduler lock
    os.kill(scheduler, signal.SIGSTOP)  # deaf to SIGTERM and SIGABRT alike, until killed
    assert worker.terminate() == 0
    assert "has not stopped: SIGKILL" in worker.log_text()
    assert not Path(f"/proc/{scheduler}").exists()
    # Its lock was released for it: the next worker's scheduler starts now, not a minute on.
    [successor] = workers.start(1)
    successor.children(timeout=3.0)


# -- timers ------------------------------------------------------------------------------------
def seconds_between(earlier: Entry, later: Entry) -> float:
    return (parse_time(later["time"]) - parse_time(earlier["time"])).total_seconds()


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_a_turn_timeout_plays_for_an_absent_person(lobby: Http, workers: Workers):
    workers.start(1)
    match, seated = lobby.seated_match(game="brisca", players=2, turn_timeout=1.0)
    assert match["turn_timeout"] == 1.0
    # Nobody plays: a second later the server plays for whoever is to act, twice.
    log = follow(lobby, seated[0], match["id"], lambda e: e["version"] == match["version"] + 2)
    for before, entry in zip(log[-3:], log[-2:], strict=False):
        [seat] = before["to_act"]
        player = match["seats"][seat]["player"]
        assert entry["actor"] == {"player": player, "seat": seat, "system": True}
        assert 0.9 <= seconds_between(before, entry) < 10
    check_log(lobby.events(seated[0], match["id"]).body["entries"])


def test_moves_in_time_leave_the_turn_timers_nothing_to_do(lobby: Http, workers: Workers):
    workers.start(1)
    match, seated = lobby.seated_match(game="brisca", players=2, turn_timeout=5.0)
    for _ in range(4):
        now = lobby.view(seated[0], match["id"])
        mover = seated[now["to_act"][0]]
        view = lobby.view(mover, match["id"])
        reply = lobby.act(mover, match["id"], view["view"]["legal_actions"][0], view["version"])
        assert reply.status == 200, reply.body
    played = lobby.events(seated[0], match["id"], after=match["version"]).body["entries"]
    assert [e["actor"]["system"] for e in played] == [False] * 4


def test_a_turn_timeout_out_of_range_is_refused(lobby: Http):
    ana = lobby.player("Ana")
    for bad in (0.5, 100_000, "10", True):
        reply = lobby.post(
            "/v1/matches", ana["token"], json={"game": "brisca", "turn_timeout": bad}
        )
        assert reply.status == 400, (bad, reply.body)


def test_the_timer_closes_rajs_sealed_bids(lobby: Http, workers: Workers):
    workers.start(1)
    match, seated = lobby.seated_match(game="raj", players=3, options={"bid_seconds": 1.0})
    assert match["deadline"]["kind"] == "commit"
    log = follow(lobby, seated[0], match["id"], lambda e: e["kind"] == "action")
    closed = log[-1]
    assert closed["actor"] == {"player": None, "seat": None, "system": True}
    kinds = [e["type"] for e in closed["events"]]
    assert kinds.count("bid_committed") == 3 and "bids_revealed" in kinds
    assert all(e["timeout"] for e in closed["events"] if e["type"] == "bid_committed")
    # not before the 1 s deadline; after it, a timer rather than a stall (a CI machine under
    # both test sets has taken 15 s on the cluster)
    assert 0.9 <= seconds_between(log[-2], closed) < 30


NERVIOSO_OPTIONS = {"reaction_seconds": 0.5}


def seed_opening_a_window_at_once() -> str:
    """A seed whose deal makes the very first card played match the count and open a
    reaction window (about one deal in ten does), found with the engine itself."""
    for attempt in range(1000):
        seed = f"nervioso-window-{attempt}"
        state, _ = new_match("nervioso", "base", 2, seed, NERVIOSO_OPTIONS)
        events = apply(state, state.to_act[0], {"type": "play"})
        if any(e["type"] == "window_opened" for e in events):
            return seed
    raise AssertionError("no seed opens a window on the first card")


def test_the_timer_closes_a_nervioso_reaction_window(
    lobby: Http, workers: Workers, redis_store: RedisStore, rules_service: Service
):
    workers.start(1)
    players = [lobby.player(f"P{i}") for i in range(2)]
    # The deal is rigged: this match is created (its server seed drawn) and started through
    # the lobby's application layer (on the same Redis and rules service as the live lobby)
    # with a seed that opens a window; nobody gives a seed of their own, so it deals alone.
    seed = seed_opening_a_window_at_once()
    client = redis_store.client()
    rules = RulesClient(rules_service.url)
    rigged = Lobby(client, rules, redis_store.log(client), new_seed=lambda: seed)
    creator = rigged.authenticate(players[0]["token"])
    match = rigged.create_match(creator, "nervioso", "base", 2, NERVIOSO_OPTIONS, autostart=False)
    for seat, player in enumerate(players):
        lobby.join(player, match["id"], seat=seat)
    started = rigged.start(creator, match["id"])
    [seat] = started["to_act"]
    reply = lobby.act(players[seat], match["id"], {"type": "play"}, started["version"])
    assert reply.status == 200, reply.body
    assert [e["type"] for e in reply.body["events"]] == ["played", "window_opened"]
    opened = reply.body["version"]
    # Nobody slaps: the timer closes the window and the last to react takes the pile.
    log = follow(lobby, players[0], match["id"], lambda e: e["version"] > opened, after=opened - 1)
    window, closed = log[0], log[-1]
    assert closed["actor"] == {"player": None, "seat": None, "system": True}
    assert [e["type"] for e in closed["events"]][:2] == ["window_closed", "took_pile"]
    assert 0.4 <= seconds_between(window, closed) < 10


# -- the feed ----------------------------------------------------------------------------------
def test_a_poison_notification_is_dead_lettered(redis_store: RedisStore, dispatcher: BotProcess):
    client = redis_store.client()
    feed = redis_store.log(client).feed_key(0)
    poison = client.xadd(feed, {"match": "no such match!", "version": "x"})
    deadline = time.monotonic() + 15

    def letters() -> list[dict[str, str]]:  # other tests' dead letters may be there too
        return [r[1] for r in client.xrange(dead_key(0), "-", "+") if r[1]["id"] == poison]

    while not letters():
        assert time.monotonic() < deadline, dispatcher.log_tail()
        time.sleep(0.1)
    [record] = letters()
    assert record["match"] == "no such match!" and int(record["deliveries"]) > 3
    assert record["error"] == "KeyError('event')"  # the notification has no event
    assert client.xpending(feed, GROUP)["pending"] == 0


def test_the_dispatcher_stops_on_sigterm(bot_processes: BotProcesses):
    second = bot_processes.dispatcher("dispatcher-2")
    second.wait_for_log("dispatching")
    started = time.monotonic()
    assert second.terminate() == 0
    assert time.monotonic() - started < 3


# -- bots only, every game ------------------------------------------------------------------------
# One match a game, in its first variant: what the dispatcher, the workers and the timers do
# depends on the game's kind of turn (in turn, simultaneous, a reaction window, a sealed bid, a
# server's move), never on a variant's rules; every variant's rules are played through the
# lobby by test_lobby_live.py and by the engine's shared suite. (All 61 variants cost 344 s of a
# CI run for ~7,000 bot moves, measured; the 26 games are ~40% of those moves.)
# Random play stretches these over thousands of moves; the options bound them at a few
# hundred. The reflex games' windows wait their whole time whenever no bot slaps: they stay
# open the shortest time the games allow.
SHORTER: dict[str, dict[str, Any]] = {
    "chinchon": {"max_restocks": 1},
    "nervioso": {"max_passes": 2, "reaction_seconds": 0.5},
    "la-granja": {"max_steps": 300, "reaction_seconds": 0.5},
    "escoba": {"race_seconds": 0.5},
    "canasta": {"max_rounds": 1},
    "presidente": {"rounds": 2},
}


def every_game() -> list[tuple[str, str, int]]:
    """(game, first variant, smallest player count) of every registered game."""
    return [
        (game.id, variant, game.player_range(variant)[0])
        for game in all_games()
        for variant in list(game.variants)[:1]
    ]


@pytest.fixture(scope="module")
def bot_matches(
    bot_processes: BotProcesses, dispatcher: BotProcess, lobby_service: Service
) -> dict[tuple[str, str, int], list[Entry]]:
    """A bot-only match of every game, all at once; each one's whole log as its host sees it."""
    running = Workers(bot_processes)
    running.start(4)
    http = Http(session(), lobby_service.url)
    host = http.player("Host")
    started = time.monotonic()
    matches = {
        (game, variant, players): bot_match(
            http, host, game, variant, players, options=SHORTER.get(game, {})
        )["id"]
        for game, variant, players in every_game()
    }

    def play(match_id: str) -> list[Entry]:
        own = Http(session(), lobby_service.url)
        # all at once share the workers and two cores: bot moves are CPU-bound, ~20 a second
        # in all on an idle 2-core machine (the reflex games also wait a reaction per window)
        return follow(own, host, match_id, finished, timeout=480)

    try:
        with ThreadPoolExecutor(len(matches)) as pool:
            logs = dict(zip(matches, pool.map(play, matches.values()), strict=True))
    finally:
        running.stop_all()  # the other tests start the workers they need
    elapsed = time.monotonic() - started
    moves = sum(len(actions(log)) for log in logs.values())
    print(f"\n{len(logs)} bot matches, {moves} moves in {elapsed:.1f}s ({moves / elapsed:.0f}/s)")
    return logs


@pytest.mark.one_node(  # measured: ~5 min a topology on 2 busy cores, past the CI budget
    "the dispatcher, workers and timers on a cluster are the other tests' of this module"
)
@pytest.mark.parametrize("setup", every_game(), ids=lambda s: f"{s[0]}/{s[1]}")
def test_bots_play_every_game_to_a_verified_end(
    bot_matches: dict[tuple[str, str, int], list[Entry]], history: Http, setup: tuple[str, str, int]
):
    log = bot_matches[setup]
    check_log(log)
    end = log[-1]
    assert end["status"] == "finished" and len(end["result"]["scores"]) == setup[2]
    report = history.get(f"/v1/matches/{log[0]['match']['id']}/verify").body
    assert report["ok"], report
