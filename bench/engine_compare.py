"""Engine CPU cost per action, this tree against another checkout (e.g. the code before a refactor).

Both trees play the same seeded random matches with their own ``bench/engine.py`` loop
(``one_match``: each action lists the acting seats' legal actions, then applies one). Each measurement runs in a fresh
process per tree, timed with ``time.process_time`` (CPU time, so other load on the machine
matters less than for wall time); the two trees alternate and the median of the repeats is
kept. Only the games and variants both trees know are compared.

Usage: python bench/engine_compare.py --base /path/to/old/tree [--game ID] [--repeats 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def worker(root: str, cases: list[list], matches: int) -> None:
    """In a child process: CPU seconds and actions for ``matches`` seeded matches of each case,
    played by ``root``'s own ``bench/engine.py`` loop on ``root``'s engine."""
    sys.path.insert(0, root)
    spec = importlib.util.spec_from_file_location(
        "tree_bench", os.path.join(root, "bench", "engine.py")
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for case in cases:  # warm up: imports and the games' first-use caches
        bench.one_match(*case, random.Random(0))
    out = []
    for game, variant, players in cases:
        rng = random.Random(f"{game}/{variant}/{players}")
        actions = 0
        start = time.process_time()
        for _ in range(matches):  # the same seeded matches in both trees
            actions += bench.one_match(game, variant, players, rng)
        out.append([game, variant, players, actions, time.process_time() - start])
    print(json.dumps(out))


def cases_of(root: str) -> set[tuple[str, str, int]]:
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]);"
        "from shared.engine import all_games;"
        "print(json.dumps([[g.id, v, g.player_range(v)[0]] for g in all_games() for v in g.variants]))"
    )
    listed = subprocess.run([sys.executable, "-c", code, root], capture_output=True, check=True)
    return {tuple(c) for c in json.loads(listed.stdout)}  # type: ignore[misc]


def run(root: str, cases: list, matches: int) -> dict[tuple, float]:
    """Actions per CPU second of each case, measured in a fresh process on ``root``."""
    args = [sys.executable, __file__, "--worker", root, "--cases", json.dumps(cases)]
    reply = subprocess.run([*args, "--matches", str(matches)], capture_output=True, check=True)
    return {(g, v, p): n / s for g, v, p, n, s in json.loads(reply.stdout)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the other tree (a git checkout of this project)")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--repeats", type=int, default=5, help="alternating runs per tree")
    parser.add_argument(
        "--matches",
        type=int,
        default=300,
        help="seeded matches per case and run (short games' 40 matches took ~30 ms: noise)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--cases", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, json.loads(args.cases), args.matches)
        return 0
    if not args.base:
        parser.error("--base is required")
    cases = sorted(cases_of(args.base) & cases_of(HERE))
    if args.game:
        cases = [c for c in cases if c[0] in args.game]
    samples: dict[str, dict[tuple, list[float]]] = {"base": {}, "this": {}}
    for repeat in range(args.repeats):
        order = [("base", args.base), ("this", HERE)]
        for name, root in order if repeat % 2 == 0 else order[::-1]:
            for case, aps in run(root, [list(c) for c in cases], args.matches).items():
                samples[name].setdefault(case, []).append(aps)
    print(f"{'game/variant':34} {'players':>7} {'base a/s':>10} {'this a/s':>10} {'change':>7}")
    for case in cases:
        base = statistics.median(samples["base"][case])
        this = statistics.median(samples["this"][case])
        name = f"{case[0]}/{case[1]}"
        print(f"{name:34} {case[2]:>7} {base:>10,.0f} {this:>10,.0f} {this / base - 1:>+7.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
