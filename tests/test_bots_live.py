"""Bots and timers as deployed: the rules, lobby and history services under gunicorn, the
bot dispatcher and rq workers as real processes, all on a real Redis.

A person plays a bot that answers every turn; bots play a match of every registered
variant to its end, and each verifies; a worker killed with SIGKILL in the middle of a
bot's turn (before its move, and after it) loses no turn and duplicates no move; a turn
timeout plays for an absent person; the rules' windows (Raj's sealed bids, Nervioso's
reaction) are closed by the timers; a poison notification is dead-lettered.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from shared.engine import all_games
from tests.bots_fixtures import BotProcess, BotProcesses
from tests.service_fixtures import Http, Service, session

Entry = dict[str, Any]


@pytest.fixture(scope="module")
def dispatcher(bot_processes: BotProcesses) -> BotProcess:
    process = bot_processes.dispatcher()
    process.wait_for_log("dispatching")
    return process


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


@pytest.fixture
def history(history_service: Service) -> Http:
    return Http(session(), history_service.url)


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
def test_a_bot_answers_every_turn_of_a_person(lobby: Http, history: Http, workers: Workers):
    workers.start(2)
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
    assert seats.count(0) == mine and seats.count(1) >= mine - 1 > 10
    assert not any(e["actor"]["system"] for e in moves)
    report = history.get(f"/v1/matches/{match['id']}/verify").body
    assert report["ok"], report


# -- bots only, every variant --------------------------------------------------------------------
# Random play stretches these over ~2,000 moves; the options bound them at a few hundred.
SHORTER = {"chinchon": {"max_restocks": 1}, "nervioso": {"max_passes": 2}}


def every_variant() -> list[tuple[str, str, int]]:
    """(game, variant, smallest player count) of every registered variant."""
    return [
        (game.id, variant, game.player_range(variant)[0])
        for game in all_games()
        for variant in game.variants
    ]


@pytest.fixture(scope="module")
def bot_matches(
    bot_processes: BotProcesses, dispatcher: BotProcess, lobby_service: Service
) -> Iterator[dict[tuple[str, str, int], list[Entry]]]:
    """A bot-only match of every variant, all at once; each one's whole log as its host sees it."""
    running = Workers(bot_processes)
    running.start(4)
    http = Http(session(), lobby_service.url)
    host = http.player("Host")
    started = time.monotonic()
    matches = {
        (game, variant, players): bot_match(
            http, host, game, variant, players, options=SHORTER.get(game, {})
        )["id"]
        for game, variant, players in every_variant()
    }

    def play(match_id: str) -> list[Entry]:
        own = Http(session(), lobby_service.url)
        return follow(own, host, match_id, finished, timeout=90)

    with ThreadPoolExecutor(len(matches)) as pool:
        logs = dict(zip(matches, pool.map(play, matches.values()), strict=True))
    elapsed = time.monotonic() - started
    moves = sum(len(actions(log)) for log in logs.values())
    print(f"\n{len(logs)} bot matches, {moves} moves in {elapsed:.1f}s ({moves / elapsed:.0f}/s)")
    yield logs
    running.stop_all()


@pytest.mark.parametrize("setup", every_variant(), ids=lambda s: f"{s[0]}/{s[1]}")
def test_bots_play_every_variant_to_a_verified_end(
    bot_matches: dict[tuple[str, str, int], list[Entry]], history: Http, setup: tuple[str, str, int]
):
    log = bot_matches[setup]
    check_log(log)
    end = log[-1]
    assert end["status"] == "finished" and len(end["result"]["scores"]) == setup[2]
    report = history.get(f"/v1/matches/{log[0]['match']['id']}/verify").body
    assert report["ok"], report
