"""Redis memory per match, measured (docs/operations.md, "Scaling").

Plays N whole matches through the lobby's own code (services.lobby.application.Lobby: the
same appends, snapshots, action ids, feed notifications and index as in production) with
bots in every seat choosing random legal actions from their own view; the rules service
runs in process (its Flask app behind the lobby's RulesClient). Then the history read models
are brought up to date (ReadModels.catch_up, as the consumer does). On an embedded Redis
(valkey from PyPI), it reports INFO used_memory before and after, and MEMORY USAGE of every
key, by kind, per match.

    .venv/bin/python bench/redis_memory.py                       # 100 Brisca matches, 2 seats
    .venv/bin/python bench/redis_memory.py --game escoba --matches 100
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("LOG_LEVEL", "WARNING")  # not one log line per rules call
os.environ.setdefault("TAPETE_DEV", "1")  # a load tool on this machine: development keys

from services.lobby.application import Lobby  # noqa: E402
from services.lobby.players import Player  # noqa: E402
from services.lobby.rules_client import RulesClient, RulesRefused  # noqa: E402
from services.rules.app import create_rules_app  # noqa: E402
from shared.bots import choose  # noqa: E402
from shared.eventstore import MatchLog  # noqa: E402
from shared.redis_server import EmbeddedRedis  # noqa: E402

TARGET_BYTES = 100_000  # a finished match, every key of it and its feed share (issue 29)
MAX_ACTIONS = 5000  # per match: a guard against a game that never ends under random play

KINDS = [  # (kind, key pattern); the first that matches names a key's kind
    ("match log (stream)", r"tapete:\{p\d+\}:match:[^:]+:log"),
    ("snapshot (hash)", r"tapete:\{p\d+\}:match:[^:]+:snapshot"),
    ("action-id answers (hash)", r"tapete:\{p\d+\}:match:[^:]+:actions"),
    ("feed (capped stream)", r"tapete:\{p\d+\}:feed"),
    ("list indexes (sorted sets)", r"tapete:\{index[^}]*\}:.*"),
    ("player tokens (strings)", r"tapete:token:.*"),
    ("history summaries and score sheets", r"tapete:\{p\d+\}:history:(match|scores):.*"),
    ("history per player (sorted sets)", r"tapete:\{player\.[^}]+\}:history:matches"),
    ("history per player marks (hashes)", r"tapete:\{player\.[^}]+\}:history:marks"),
    ("history ratings and leaderboards", r"tapete:\{game\.[^}]+\}:history:.*"),
    ("history journal (capped stream)", r"tapete:\{p\d+\}:history:journal"),
]


class InProcessRules(RulesClient):
    """The lobby's rules client, answered by the rules service's app in this process."""

    def __init__(self) -> None:
        super().__init__("http://rules.in-process")
        self.app = create_rules_app().test_client()

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.app.open(path, method=method, json=body)
        reply = response.get_json()
        if response.status_code == 200:
            return reply
        error = reply["error"]
        raise RulesRefused(
            response.status_code, error["code"], error["message"], error.get("details")
        )


def play(
    lobby: Lobby, rules: InProcessRules, args: argparse.Namespace, rng: random.Random
) -> tuple[str, int]:
    """One whole match, bots in every seat; its id and final version."""
    creator, _ = lobby.register("bench")
    match = lobby.create_match(creator, args.game, args.variant, args.players, {}, True)
    for seat in range(match["players"]):
        lobby.add_bot(creator, match["id"], seat, "random")
    for _ in range(MAX_ACTIONS):
        snap = lobby.load(match["id"])
        if snap.match["status"] == "finished":
            return snap.id, snap.version
        if not snap.match["to_act"]:
            raise SystemExit(f"{args.game}: nobody to act (a timer game?): pick another game")
        seat = rng.choice(snap.match["to_act"])
        bot = snap.match["seats"][seat]
        player = Player(bot["player"], bot["name"], bot=True, match=snap.id, seat=seat)
        view = rules.view(args.game, snap.state, seat)  # type: ignore[arg-type]
        action = choose(view, "random", rng)
        action_id = uuid.uuid4().hex if args.action_ids else None
        lobby.submit_action(snap.id, player, action, snap.version, action_id)
    raise SystemExit(f"{args.game}: no end after {MAX_ACTIONS} actions")


def used_memory(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


def kind_of(key: str) -> str:
    return next((kind for kind, pattern in KINDS if re.fullmatch(pattern, key)), "other")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--game", default="brisca")
    parser.add_argument("--variant", default="base")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--action-ids",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="send an action id with every move (its answer is then kept for retries)",
    )
    args = parser.parse_args()

    rng = random.Random(args.seed)
    with EmbeddedRedis() as server:
        client = redis.Redis.from_url(server.url, decode_responses=True)
        rules = InProcessRules()
        lobby = Lobby(client, rules)
        rules.catalog()
        before = used_memory(client)
        started = time.perf_counter()
        played = [play(lobby, rules, args, rng) for _ in range(args.matches)]
        elapsed = time.perf_counter() - started
        try:
            from services.history.store import ReadModels

            models = ReadModels(client, MatchLog(client))
            for match_id, version in played:
                models.catch_up(match_id, version)
            history = "history read models included"
        except ImportError as exc:  # the history service is optional here
            history = f"history read models not measured ({exc})"
        after = used_memory(client)

        by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for key in client.scan_iter(count=1000):
            usage = client.memory_usage(key, samples=0) or 0
            by_kind[kind_of(key)][0] += 1
            by_kind[kind_of(key)][1] += usage
        entries = sum(version for _, version in played)
        feed_entries = sum(client.xlen(k) for k in client.scan_iter(match="tapete:*:feed"))
        version = (
            client.info("server").get("valkey_version") or client.info("server")["redis_version"]
        )

    n = args.matches
    ids = "an action id with every move" if args.action_ids else "no action ids"
    print(
        f"{n} matches of {args.game}/{args.variant}, {args.players} seats, bots, random play, {ids}"
    )
    print(f"server {version}; {entries / n:.1f} log entries per match on average; {history}")
    print(f"played in {elapsed:.1f} s ({entries / elapsed:.0f} appends/s, in-process rules)\n")
    print(f"{'kind':40} {'keys':>7} {'bytes':>11} {'per match':>10}")
    total = 0
    for kind, _ in [*KINDS, ("other", "")]:
        if kind in by_kind:
            count, usage = by_kind[kind]
            total += usage
            print(f"{kind:40} {count:7d} {usage:11d} {usage / n:10.0f}")
    print(f"{'all keys (MEMORY USAGE)':40} {'':7} {total:11d} {total / n:10.0f}")
    print(
        f"{'INFO used_memory, after - before':40} {'':7} {after - before:11d} {(after - before) / n:10.0f}"
    )
    feed = by_kind["feed (capped stream)"][1]
    if feed_entries:
        print(
            f"\nfeed: {feed / feed_entries:.0f} bytes per notification (capped, not kept per match)"
        )
    per_match = total / n
    verdict = "met" if per_match <= TARGET_BYTES else "MISSES"
    print(
        f"\nper finished match: {per_match / 1000:.1f} KB with its feed share, "
        f"{(total - feed) / n / 1000:.1f} KB without; target <= {TARGET_BYTES / 1000:.0f} KB "
        f"(with the feed share): {verdict}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
