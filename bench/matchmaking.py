"""Quick-match benchmark: 1,000 requests queued at once, the time each waits to be seated.

Starts Redis (embedded unless REDIS_URL is set), the rules service, the history service and
the lobby under gunicorn (bench/lobby.py's settings), gives every player a rating in the
history service's read model (ordinals drawn around 10, spread 8: some pair at once, some
wait for their window to widen), then sends the requests for 2-player Brisca as fast as
the client threads allow and polls them, as clients do, until every one is seated.

It prints the time from request to seated as the lobby measured it (each request's
``waited_s``), its median, p99 and maximum, the wall time until all were seated, the
latency of the request itself (it runs a pairing round) and the tables' rating gaps.

Usage: python bench/matchmaking.py [--requests 1000] [--threads 50] [--bots-after S]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import redis  # noqa: E402

from bench.lobby import GUNICORN_ENV  # noqa: E402
from services.history.store import ratings_key  # noqa: E402
from shared.redis_server import EmbeddedRedis  # noqa: E402
from tests.service_fixtures import Service, session  # noqa: E402

SIGMA = 2.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=50)
    parser.add_argument("--bots-after", type=float, default=None)
    args = parser.parse_args()
    rng = random.Random(7)

    redis_url = os.environ.get("REDIS_URL")
    embedded = None if redis_url else EmbeddedRedis()
    if embedded:
        embedded.start()
        redis_url = embedded.url
    assert redis_url is not None
    services: list[Service] = []
    try:
        rules = Service("rules", "services.rules.wsgi:app", {"GUNICORN_THREADS": "4"})
        history = Service("history", "services.history.wsgi:app", {"REDIS_URL": redis_url})
        for service in (rules, history):
            services.append(service)
            service.start()
        env = {**GUNICORN_ENV, "REDIS_URL": redis_url, "RULES_URL": rules.url,
               "HISTORY_URL": history.url}  # fmt: skip
        lobby = Service("lobby", "services.lobby.wsgi:app", env)
        services.append(lobby)
        lobby.start()
        return run(lobby.url, redis.Redis.from_url(redis_url), args, rng)
    finally:
        while services:
            services.pop().stop()
        if embedded:
            embedded.stop()


def run(url: str, store: Any, args: argparse.Namespace, rng: random.Random) -> int:
    http = session()

    def register(i: int) -> dict[str, Any]:
        return http.post(f"{url}/v1/players", json={"name": f"Q{i}"}, timeout=30).json()

    with ThreadPoolExecutor(args.threads) as pool:
        players = list(pool.map(register, range(args.requests)))
    ratings = {p["id"]: rng.gauss(10.0, 8.0) for p in players}
    for player in players:  # the history service's read model, as its consumer writes it
        record = {"player": player["id"], "name": player["name"], "bot": None, "is_bot": False,
                  "mu": ratings[player["id"]] + 3 * SIGMA, "sigma": SIGMA, "matches": 5, "wins": 2}  # fmt: skip
        store.hset(ratings_key("brisca"), player["id"], json.dumps(record))

    body = {"game": "brisca", "bots_after": args.bots_after}
    asked: list[float] = []

    def ask(player: dict[str, Any]) -> dict[str, Any]:
        start = time.perf_counter()
        reply = http.post(f"{url}/v1/quick", json=body, timeout=30,
                          headers={"Authorization": f"Bearer {player['token']}"})  # fmt: skip
        asked.append(time.perf_counter() - start)
        assert reply.status_code == 202, reply.text
        return reply.json()

    def settle(pair: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
        player, request = pair
        headers = {"Authorization": f"Bearer {player['token']}"}
        while request["status"] in ("waiting", "opening"):
            reply = http.get(f"{url}/v1/quick/{request['id']}?wait=5", headers=headers, timeout=30)
            request = reply.json()
        return request

    began = time.perf_counter()
    with ThreadPoolExecutor(args.threads) as pool:
        requests = list(pool.map(ask, players))
    sent = time.perf_counter() - began
    with ThreadPoolExecutor(args.requests) as pool:  # one poller per request, as clients
        done = list(pool.map(settle, zip(players, requests, strict=True)))
    wall = time.perf_counter() - began

    statuses = {r["status"] for r in done}
    waited = [r["waited_s"] for r in done]
    tables: dict[str, list[float]] = {}
    for request in done:
        tables.setdefault(request["match"], []).append(request["rating"])
    gaps = [max(t) - min(t) for t in tables.values() if len(t) > 1]
    seated_once = sum(len(t) for t in tables.values()) == len(done)
    print(f"quick match: {len(done)} requests for 2-player Brisca, ratings ~N(10, 8), "
          f"{args.threads} client threads; statuses {sorted(statuses)}; "
          f"{len(tables)} tables; each request seated once: {seated_once}")  # fmt: skip
    print(f"  request -> seated (the lobby's waited_s): p50 {statistics.median(waited):.2f} s, "
          f"p99 {percentile(waited, 0.99):.2f} s, max {max(waited):.2f} s")  # fmt: skip
    print(f"  all {len(done)} sent in {sent:.2f} s, all seated {wall:.2f} s after the first; "
          f"POST /v1/quick p50 {statistics.median(asked) * 1000:.1f} ms, "
          f"p99 {percentile(asked, 0.99) * 1000:.1f} ms")  # fmt: skip
    if gaps:
        print(f"  rating gap at a table: median {statistics.median(gaps):.2f}, "
              f"max {max(gaps):.2f} (window 5 + 1/s waited)")  # fmt: skip
    print(f"  load average {os.getloadavg()[0]:.2f}")
    return 0 if statuses == {"seated"} and seated_once else 1


if __name__ == "__main__":
    sys.exit(main())
