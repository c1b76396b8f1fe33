"""The lobby's instructions per move, in process: a count that a busy machine does not skew.

Starts Redis (embedded) and the rules service outside the count, then runs this file with
``--play N`` twice under valgrind's callgrind: the lobby app in one process, driven through
Flask's test client (no gunicorn), every limit raised out of the way but still counted,
playing 2-player Brisca moves the way bench/lobby.py's clients do. The difference of the two
runs' instructions over the difference of their moves is the lobby's own work per move:
authentication, the rate limit, the checks, the rules call's client side, the append and
the answer (the match set-ups in between included, as in bench/lobby.py). Repeatable to
about ±5% (each run draws other ids and tokens). Needs valgrind; takes minutes.

Usage: python bench/lobby_instructions.py [--moves 50 200]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("TAPETE_DEV", "1")  # a load tool on this machine: development keys

from bench.callgrind import instructions  # noqa: E402
from services.settings import LOAD_TOOL_LIMITS  # noqa: E402


def play(moves: int) -> None:
    """``moves`` accepted Brisca moves through the lobby app (its REDIS_URL and RULES_URL)."""
    from services.lobby.app import create_lobby_app

    client = create_lobby_app().test_client()
    rng = random.Random(0)

    def call(method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        reply = client.open(path, method=method, json=body, headers=headers)
        return reply.status_code, reply.get_json()

    def new_match() -> dict[str, Any]:
        tokens = [call("POST", "/v1/players", body={"name": n})[1]["token"] for n in "AB"]
        match = call("POST", "/v1/matches", tokens[0], {"game": "brisca"})[1]
        for token in tokens:
            match = call("POST", f"/v1/matches/{match['id']}/join", token, {})[1]
        return {"id": match["id"], "tokens": tokens, "version": match["version"],
                "to_act": match["to_act"], "options": {}}  # fmt: skip

    def move(m: dict[str, Any]) -> bool:
        seat = rng.choice(m["to_act"])
        path, token = f"/v1/matches/{m['id']}", m["tokens"][seat]
        if not m["options"].get(seat):
            m["options"][seat] = call("GET", path, token)[1]["view"]["legal_actions"]
        body = {"action": rng.choice(m["options"][seat]), "expected_version": m["version"]}
        status, reply = call("POST", f"{path}/actions", token, body)
        if status == 422:  # a stale hand: the refusal lists what is legal
            m["options"][seat] = reply["error"]["details"]["legal_actions"]
            return False
        assert status == 200, reply
        m["version"], m["to_act"] = reply["version"], reply["view"]["to_act"]
        m["options"][seat] = reply["view"]["legal_actions"]
        return True

    match, done = new_match(), 0
    move(match)  # warm: the first request of each kind pays for imports and caches
    match = new_match()
    while done < moves:
        done += move(match)
        if not match["to_act"]:
            match = new_match()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, nargs=2, default=(50, 200))
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play is not None:
        play(args.play)
        return 0
    from shared.redis_server import EmbeddedRedis
    from tests.service_fixtures import Service

    redis_server = EmbeddedRedis()
    redis_server.start()
    rules = Service("rules", "services.rules.wsgi:app", {"GUNICORN_THREADS": "4"})
    try:
        rules.start()
        env = {**os.environ, **LOAD_TOOL_LIMITS, "LOG_LEVEL": "WARNING",
               "REDIS_URL": redis_server.url, "RULES_URL": rules.url, "PYTHONHASHSEED": "0"}  # fmt: skip
        few, many = args.moves
        counts = [
            instructions([sys.executable, __file__, "--play", str(n)], env) for n in args.moves
        ]
        per_move = (counts[1] - counts[0]) / (many - few)
        print(f"lobby instructions per move, in process (no gunicorn): {per_move:,.0f}"
              f" ({many} - {few} moves)")  # fmt: skip
    finally:
        rules.stop()
        redis_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
