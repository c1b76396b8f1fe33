"""Slow-client benchmark: clients that send their headers slowly, with and without the proxy.

Starts Redis (embedded unless REDIS_URL is set), the rules service and the lobby as
bench/lobby.py does, and Debian's nginx with the project's configuration in front
(deploy/nginx/tapete.conf.template; installed with apt where missing). For each case it
opens the slow connections (each sends part of a request's headers, then one more byte a
second, never the end) and meanwhile makes --rounds rounds of: the lobby's /healthz, a view
and a move of a Brisca match, each with a --timeout. It prints how many answered in time
and their latency.

1. direct: --direct connections straight to the lobby's gunicorn (more than its threads);
2. proxy: --slow connections to nginx, the requests through nginx too.

Usage: python bench/slow_clients.py [--slow 500] [--direct 200] [--rounds 10] [--timeout 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]
os.environ.setdefault("TAPETE_DEV", "1")  # a load tool on this machine: development keys

from lobby import GUNICORN_ENV, platform  # noqa: E402

from shared.redis_server import free_port  # noqa: E402
from tests.proxy_fixtures import Proxy, SlowClients, nginx_binary  # noqa: E402
from tests.service_fixtures import Http, session  # noqa: E402


def probe(base_url: str, health_url: str, rounds: int, timeout: float) -> dict[str, Any]:
    """``rounds`` of /healthz, a view and a move of a match set up before the slow clients
    came; each request's latency, or a miss."""
    match, seated = MATCHES.pop()
    version, to_act = match["version"], match["to_act"]
    latencies, missed = [], 0
    client = session()
    for _ in range(rounds):
        mover = seated[to_act[0]]
        headers = {"Authorization": f"Bearer {mover['token']}"}
        steps = [("GET", health_url, None), ("GET", f"{base_url}/v1/matches/{match['id']}", None)]
        for method, url, body in steps:
            started = time.perf_counter()
            try:
                reply = client.request(method, url, headers=headers, json=body, timeout=timeout)
                latencies.append(time.perf_counter() - started)
                if url.endswith(match["id"]):
                    view = reply.json()
                    version, to_act = view["version"], view["to_act"]
                    legal = view["view"]["legal_actions"][0]
            except requests.RequestException:
                missed += 1
                legal = None
        if legal is None:
            missed += 1  # no view: no move this round
            continue
        started = time.perf_counter()
        try:
            body = {"action": legal, "expected_version": version}
            reply = client.post(f"{base_url}/v1/matches/{match['id']}/actions",
                                headers=headers, json=body, timeout=timeout)  # fmt: skip
            latencies.append(time.perf_counter() - started)
            if reply.status_code == 200:
                version, to_act = reply.json()["version"], reply.json()["view"]["to_act"]
        except requests.RequestException:
            missed += 1
    return {"answered": len(latencies), "missed": missed, "latencies": latencies}


MATCHES: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []  # set up in advance


def show(case: str, slow: int, result: dict[str, Any]) -> None:
    ms = sorted(1000 * s for s in result["latencies"])
    median = f"{statistics.median(ms):.1f}" if ms else "-"
    worst = f"{ms[-1]:.1f}" if ms else "-"
    print(f"| {case} | {slow} | {result['answered']} | {result['missed']} | {median} | {worst} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--direct", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=2.0)
    args = parser.parse_args()
    binary = nginx_binary()
    with platform() as (_, rules, lobby):
        address = f"127.0.0.1:{lobby.port}"
        upstreams = {"LOBBY_UPSTREAM": address, "FEED_UPSTREAM": address,
                     "HISTORY_UPSTREAM": address, "RULES_UPSTREAM": f"127.0.0.1:{rules.port}",
                     "WEB_UPSTREAM": f"127.0.0.1:{free_port()}", "RESOLVER": "127.0.0.1"}  # fmt: skip
        proxy = Proxy(binary, upstreams)
        try:
            print(f"lobby: gunicorn {GUNICORN_ENV}; {os.cpu_count()} cores; "
                  f"each request times out after {args.timeout} s")  # fmt: skip
            print("| case | slow connections | answered | missed | median ms | max ms |")
            print("|---|---|---|---|---|---|")
            health, rounds, timeout = f"{lobby.url}/healthz", args.rounds, args.timeout
            MATCHES.extend(Http(session(), lobby.url).seated_match() for _ in range(4))
            show("direct, no slow clients", 0, probe(lobby.url, health, rounds, timeout))
            slow = SlowClients(lobby.port, args.direct)
            try:
                time.sleep(1.5)
                show("direct", args.direct, probe(lobby.url, health, rounds, timeout))
            finally:
                slow.close()
            time.sleep(1.0)  # the lobby's threads come back
            show("proxy, no slow clients", 0, probe(proxy.url, health, rounds, timeout))
            slow = SlowClients(proxy.port, args.slow)
            try:
                time.sleep(1.5)
                show("proxy", args.slow, probe(proxy.url, health, rounds, timeout))
                print(f"slow connections the proxy still holds: {slow.still_open()} of {args.slow}")
            finally:
                slow.close()
        finally:
            proxy.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
