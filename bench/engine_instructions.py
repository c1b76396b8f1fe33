"""The engine's instructions per action, for one game and variant: bench/engine.py's own
loop (list the actor's legal actions, apply one, full validation) counted by callgrind, so
that a machine busy with other work does not skew it. The same seeded matches are played
twice, ``few`` and ``many`` of them; the difference of the instructions over the difference
of the actions is the cost of an action, start-up and imports left out. The same code
counts the same (PYTHONHASHSEED is fixed): compare two versions of a game by it. Needs
valgrind.

Usage: python bench/engine_instructions.py GAME VARIANT PLAYERS [--matches 10 40]
"""

from __future__ import annotations

import argparse
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.callgrind import instructions  # noqa: E402


def play(game: str, variant: str, players: int, matches: int) -> None:
    """One warm-up match, then ``matches`` from a fixed seed; prints the actions applied."""
    from bench.engine import one_match

    one_match(game, variant, players, random.Random(0))
    rng = random.Random(1)
    print(sum(one_match(game, variant, players, rng) for _ in range(matches)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("variant")
    parser.add_argument("players", type=int)
    parser.add_argument("--matches", type=int, nargs=2, default=(10, 40))
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play is not None:
        play(args.game, args.variant, args.players, args.play)
        return 0
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    counted, actions = [], []
    for matches in args.matches:
        command = [sys.executable, __file__, args.game, args.variant, str(args.players),
                   "--play", str(matches)]  # fmt: skip
        count, printed = instructions(command, env)
        counted.append(count)
        actions.append(int(printed.split()[-1]))
    per_action = (counted[1] - counted[0]) / (actions[1] - actions[0])
    print(f"{args.game}/{args.variant} {args.players}p: {per_action:,.0f} instructions per action"
          f" ({actions[1] - actions[0]} actions)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
