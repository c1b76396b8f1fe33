"""A bot-only match against the running platform (``make run``), watched as it is played.

    make demo GAME=brisca VARIANT=base PLAYERS=2
    python -m services.bots.demo --game raj --variant base --players 4 --strategy random

Registers a host, creates the match, seats a bot in every seat (the full match starts
itself), then follows the lobby's long-poll feed as a spectator, printing each move as it
is appended (cards a spectator may not see are shown as ``?``), the final scores, and the
history service's verification of the finished match. Exit status 0 when it verifies.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import requests

from services.settings import Settings
from shared.bots import strategies

WAIT_S = 10.0  # each long-poll
IDLE_LIMIT_S = 60.0  # no move for this long: the bots are not running
HIDDEN_FIELDS = ("card", "cards")  # shared.engine.redact nulls these for other seats


class Platform:
    """The lobby and the history service over HTTP, as a client sees them."""

    def __init__(self, lobby: str, history: str) -> None:
        self.lobby, self.history = lobby.rstrip("/"), history.rstrip("/")
        self.http = requests.Session()
        self.http.trust_env = False
        self.token = ""

    def call(self, method: str, url: str, **kw: Any) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        reply = self.http.request(method, url, headers=headers, timeout=WAIT_S + 10, **kw)
        if reply.status_code >= 400:
            raise SystemExit(f"{method} {url}: {reply.status_code} {reply.text[:500]}")
        time.sleep(float(reply.headers.get("Retry-After", 0)))  # a busy lobby's long-poll
        return reply.json()


def describe(event: dict[str, Any]) -> str:
    """``played seat=1 card=3C``: an event on one line, hidden cards as ``?``."""
    parts = []
    for key, value in event.items():
        if key in ("type", "visible_to"):
            continue
        if key in HIDDEN_FIELDS:  # what redaction hides: a card the spectator may not see
            value = [value] if not isinstance(value, list) else value
            shown = " ".join("?" if card is None else str(card) for card in value)
            value = shown if key == "card" else f"[{shown}]"
        parts.append(f"{key}={value}")
    return " ".join([event["type"], *parts])


def who(entry: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    actor = entry.get("actor") or {}
    if actor.get("seat") is None:
        return "server" if actor.get("system") else "host"
    seat = seats[actor["seat"]]
    return f"seat {seat['seat']} ({seat['name']})"


def main(argv: list[str] | None = None) -> int:
    settings = Settings.from_env()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="brisca")
    parser.add_argument("--variant", default="base")
    parser.add_argument("--players", type=int, default=None, help="default: the variant's least")
    parser.add_argument(
        "--strategy", default=None, help="default: greedy where the game has it, else random"
    )
    parser.add_argument("--lobby", default=settings.lobby_url)
    parser.add_argument("--history", default=settings.history_url)
    args = parser.parse_args(argv)
    if args.strategy is None:
        args.strategy = "greedy" if "greedy" in strategies(args.game) else "random"
    platform = Platform(args.lobby, args.history)
    print(f"lobby {platform.lobby}, history {platform.history}", flush=True)
    try:
        return play(platform, args)
    except requests.ConnectionError as exc:
        print(f"the platform does not answer ({exc}); start it with `make run`", file=sys.stderr)
        return 2


def play(platform: Platform, args: argparse.Namespace) -> int:
    lobby = platform.lobby
    platform.token = platform.call("POST", f"{lobby}/v1/players", json={"name": "demo"})["token"]
    body = {"game": args.game, "variant": args.variant, "players": args.players}
    match = platform.call("POST", f"{lobby}/v1/matches", json=body)
    match_id = match["id"]
    print(f"match {match_id}: {args.game}/{args.variant}, {match['players']} {args.strategy} bots")
    for seat in range(match["players"]):
        bot = {"seat": seat, "strategy": args.strategy}
        match = platform.call("POST", f"{lobby}/v1/matches/{match_id}/bots", json=bot)
    seats, version, last_move = match["seats"], 0, time.monotonic()
    while True:
        url = f"{lobby}/v1/matches/{match_id}/events?after={version}&wait={WAIT_S}"
        page = platform.call("GET", url)
        for entry in page["entries"]:
            events = "; ".join(describe(e) for e in entry["events"]) or entry["kind"]
            print(f"v{entry['version']:<4} {who(entry, seats):<24} {events}", flush=True)
            version = entry["version"]
            last_move = time.monotonic()
            if entry["status"] == "finished":
                return report(platform, match_id, entry, seats)
        if time.monotonic() - last_move > IDLE_LIMIT_S:
            print(f"no move for {IDLE_LIMIT_S:.0f} s: are the bot dispatcher and workers running?")
            return 2


def report(
    platform: Platform, match_id: str, end: dict[str, Any], seats: list[dict[str, Any]]
) -> int:
    result = end["result"]
    print("\nfinal scores:")
    for seat, score in zip(seats, result["scores"], strict=True):
        won = "  winner" if seat["seat"] in result["winners"] else ""
        print(f"  seat {seat['seat']} ({seat['name']}): {score}{won}")
    print(f"  rounds: {len(result.get('rounds') or [])}, seed revealed: {end.get('seed')}")
    verdict = platform.call("GET", f"{platform.history}/v1/matches/{match_id}/verify")
    seed = verdict["seed"]
    print(
        f"\nverify: ok={verdict['ok']}, {verdict['checked']} entries replayed, "
        f"seed matches its published SHA-256: {seed['matches']}, "
        f"rules {', '.join(verdict['rules_versions'])}"
    )
    for divergence in verdict["divergences"]:
        print(f"  divergence at v{divergence['version']}: {divergence['message']}")
    return 0 if verdict["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
