"""Bot benchmark: a bot's response latency, from the append of a person's move to the append
of the bot's answer, with the random strategy.

Starts Redis (embedded unless REDIS_URL is set), the rules service and the lobby under
gunicorn with the Procfile's settings, the bot dispatcher and rq workers as processes with
their production settings. Then people play 2-player Brisca against a random bot (person
at seat 0, bot at seat 1), each person a thread: it plays a random legal move as soon as
it is to act, and waits for the bot's answer on the lobby's long-poll feed.

The latency of an answer is read from the match log afterwards: the ``time`` of the bot's
entry minus the ``time`` of the person's entry just before it (both the lobby's clock,
millisecond resolution), for every person's move that the bot had to answer. Beside it,
the same interval as the person saw it: from the reply to its move to the long-poll's
reply bringing the answer. Three runs: one match alone (nothing else on the servers);
``--matches`` at once, each person pausing ``--think`` seconds before a move (a load well
under what the machine can take); and the same with no pause at all (saturated: every
person and bot always has a request in flight, so latency is mostly queueing).

With ``--levels hard``: instead, the search bots' time per decision in process, in every
game (the budget is per move, so this is what a bot worker spends on a move).

Usage: python bench/bots.py [--seconds 10] [--matches 20] [--workers 2] [--think 0.5]
       python bench/bots.py --levels hard [--decisions 40]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import threading
import time
from datetime import datetime
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import requests  # noqa: E402

TARGET_P50_MS = 50.0


class Person:
    """One person playing Brisca matches against a random bot, one after another."""

    def __init__(self, lobby_url: str, name: str, seed: int, think: float) -> None:
        self.url, self.think = lobby_url, think
        self.http = requests.Session()
        self.http.trust_env = False
        self.rng = random.Random(seed)
        self.token = self.call("POST", "/v1/players", {"name": name})["token"]
        self.matches: list[str] = []
        self.seen_ms: list[float] = []  # as the person saw it: move's reply -> answer's arrival

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"} if hasattr(self, "token") else {}
        reply = self.http.request(method, self.url + path, json=body, headers=headers, timeout=40)
        if reply.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {reply.status_code} {reply.text[:300]}")
        time.sleep(float(reply.headers.get("Retry-After", 0)))  # a busy lobby's long-poll
        return reply.json()

    def new_match(self) -> dict[str, Any]:
        match = self.call("POST", "/v1/matches", {"game": "brisca", "players": 2})
        self.call("POST", f"/v1/matches/{match['id']}/join", {"seat": 0})
        bot = {"seat": 1, "strategy": "random"}
        match = self.call("POST", f"/v1/matches/{match['id']}/bots", bot)
        self.matches.append(match["id"])
        return match

    def play(self, until: float) -> None:
        match = self.new_match()
        version = match["version"]
        while time.monotonic() < until:
            now = self.call("GET", f"/v1/matches/{match['id']}")
            if now["status"] == "finished":
                match = self.new_match()
                version = match["version"]
                continue
            if 0 not in now["to_act"]:  # the bot leads: wait for its move
                self.wait(match["id"], now["version"])
                continue
            time.sleep(self.think)
            action = self.rng.choice(now["view"]["legal_actions"])
            body = {"action": action, "expected_version": now["version"]}
            moved = self.call("POST", f"/v1/matches/{match['id']}/actions", body)
            version = moved["version"]
            if moved["view"]["to_act"] == [1]:
                replied = time.perf_counter()
                self.wait(match["id"], version)
                self.seen_ms.append((time.perf_counter() - replied) * 1000)

    def wait(self, match_id: str, after: int) -> None:
        deadline = time.monotonic() + 100
        while time.monotonic() < deadline:
            page = self.call("GET", f"/v1/matches/{match_id}/events?after={after}&wait=10")
            if page["entries"]:
                return
        raise RuntimeError(f"the bot never answered in match {match_id} after v{after}")

    def answers_ms(self) -> list[float]:
        """From each match's log: person's move -> the bot's answer, by the lobby's clock."""
        out = []
        for match_id in self.matches:
            entries = self.call("GET", f"/v1/matches/{match_id}/events?after=0")["entries"]
            for move, answer in zip(entries, entries[1:], strict=False):
                if move["kind"] != "action" or move["actor"]["seat"] != 0:
                    continue
                if move["to_act"] == [1] and answer["actor"]["seat"] == 1:
                    out.append((clock(answer) - clock(move)) * 1000)
        return out


def clock(entry: dict[str, Any]) -> float:
    return datetime.fromisoformat(entry["time"]).timestamp()


def run(lobby_url: str, people: int, seconds: float, think: float = 0.0) -> dict[str, Any]:
    players = [Person(lobby_url, f"P{i}", i, think) for i in range(people)]
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=p.play, args=(until,)) for p in players]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    logged = sorted(ms for p in players for ms in p.answers_ms())
    seen = sorted(ms for p in players for ms in p.seen_ms)
    return {"logged": logged, "seen": seen, "per_second": len(logged) / elapsed}


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(len(values) * share))] if values else float("nan")


def start(module: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", f"services.bots.{module}"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a worker's rq scheduler is its child: stopped with it
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, 15)
        process.wait(15)


TARGET_SEARCH_P50_MS, TARGET_SEARCH_P99_MS = 300.0, 1000.0


def levels(strategy: str, decisions: int) -> int:
    """A search level's time per decision, in process, in every game: the bot at seat 0 of
    each game's base variant against random players, over its first ``decisions`` choices
    among two or more actions (a forced move is answered without searching)."""
    import lobby as lobby_bench

    from shared.bots import choose
    from shared.bots.search import profile
    from shared.engine import all_games, apply, new_match, view

    busy = lobby_bench.background_load()
    print(f"search bots: '{strategy}' per decision, in process, {os.cpu_count()} cores "
          f"({busy:.0%} busy before the run)")  # fmt: skip
    every: list[float] = []
    worst_p50 = worst_p99 = 0.0
    for game in all_games():
        low, high = game.player_range("base")
        players = 2 if low <= 2 <= high else low
        profile(game.id, "base", players)  # learnt once per game (a worker at its first move)
        times: list[float] = []
        match = 0
        while len(times) < decisions:
            state, _ = new_match(game.id, "base", players, seed=f"bench:{match}")
            rng = random.Random(match)
            match += 1
            while not state.finished and len(times) < decisions:
                if not state.to_act:
                    apply(state, None, {"type": "timeout"})
                    continue
                seat = rng.choice(state.to_act)
                seen = view(state, seat)
                if seat == 0 and len(seen["legal_actions"]) > 1:
                    started = time.perf_counter()
                    action = choose(seen, strategy, rng)
                    times.append((time.perf_counter() - started) * 1000)
                else:
                    action = rng.choice(seen["legal_actions"])
                apply(state, seat, action)
        times.sort()
        p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
        worst_p50, worst_p99 = max(worst_p50, p50), max(worst_p99, p99)
        every += times
        print(f"  {game.id:20s} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {max(times):6.1f} ms")
    every.sort()
    print(f"  every game: p50 {percentile(every, 0.5):.1f} ms, p99 {percentile(every, 0.99):.1f} ms;"
          f" worst game p50 {worst_p50:.1f} ms (target {TARGET_SEARCH_P50_MS:.0f}),"
          f" p99 {worst_p99:.1f} ms (target {TARGET_SEARCH_P99_MS:.0f})")  # fmt: skip
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--levels", metavar="STRATEGY", help="time a search level in process in every game instead"
    )
    parser.add_argument("--decisions", type=int, default=40, help="with --levels: per game")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.5, help="a person's pause before a move")
    args = parser.parse_args()
    if args.levels:
        return levels(args.levels, args.decisions)

    import lobby as lobby_bench  # bench/lobby.py: the lobby's settings, the machine's load

    busy = lobby_bench.background_load()
    print(f"bots benchmark: a random bot's answer to a person's Brisca move, {args.workers} "
          f"rq workers, {os.cpu_count()} cores ({busy:.0%} busy before the run)")  # fmt: skip
    processes: list[subprocess.Popen[bytes]] = []
    results: dict[str, dict[str, Any]] = {}
    with lobby_bench.platform() as (redis_url, rules, lobby):
        try:
            bots_env = {"REDIS_URL": redis_url, "LOBBY_URL": lobby.url, "RULES_URL": rules.url}
            processes.append(start("dispatcher", bots_env))
            processes += [start("worker", bots_env) for _ in range(args.workers)]
            run(lobby.url, 2, 3.0)  # warm-up: imports, connections, the catalog cache
            results["1 match"] = run(lobby.url, 1, args.seconds)
            n = args.matches
            results[f"{n}, think {args.think:g}s"] = run(lobby.url, n, args.seconds, args.think)
            results[f"{n}, no think"] = run(lobby.url, n, args.seconds)
        finally:
            while processes:
                stop(processes.pop())

    for name, result in results.items():
        logged, seen = result["logged"], result["seen"]
        print(f"  {name:16s} {result['per_second']:5.1f} answers/s ({len(logged)}): log "
              f"p50 {percentile(logged, 0.5):5.1f} ms  p99 {percentile(logged, 0.99):6.1f} ms; "
              f"as the person saw it p50 {percentile(seen, 0.5):5.1f} ms  "
              f"p99 {percentile(seen, 0.99):6.1f} ms")  # fmt: skip
    alone = percentile(results["1 match"]["logged"], 0.5)
    print(f"  one match alone: p50 {alone:.1f} ms (target {TARGET_P50_MS:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
