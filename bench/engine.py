"""Engine benchmark: random complete matches per second for every registered game and variant, one core.

Each applied action includes enumerating the acting seat's legal actions (what a
client or bot does every turn) and the engine's own validation of the action.
OpenSpiel's C++ engine, driven by the same loop through its Python bindings,
is measured in the same run as a reference line (games euchre and oh_hell). Each
figure is printed beside its target: every variant of every game 40,000 actions a second,
and Brisca's 2-player base game 0.30 times euchre's rate in the same run, from short runs of
the two taken in turn (``paired_ratio``).

Usage: python bench/engine.py [--seconds S] [--game ID] [--cpu]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from shared.engine import all_games, apply, legal_actions, new_match  # noqa: E402

TARGET = ("brisca", "base", 2, 50_000)  # actions per second required for this case
EVERY_GAME = 40_000  # actions per second every variant of every game must reach
RATIO = ("euchre", 0.30)  # Brisca's required ratio to this OpenSpiel game in the same run


def one_match(game: str, variant: str, players: int, rng: random.Random) -> int:
    state, _ = new_match(game, variant, players, seed=str(rng.random()))
    actions = 0
    while not state.finished:
        options = [(None, a) for a in legal_actions(state, None)]
        for seat in state.to_act:
            options.extend((seat, a) for a in legal_actions(state, seat))
        seat, action = rng.choice(options)
        apply(state, seat, action)
        actions += 1
    return actions


#: The clock the figures are per second of: the wall's, or with ``--cpu`` this process's CPU
#: time (on a machine shared with other work, what the engine costs, not what it was given).
clock = time.perf_counter


def measure(run, seconds: float) -> tuple[float, float]:
    """(matches per second, actions per second) over about ``seconds`` of whole matches."""
    rng = random.Random(1)
    matches = actions = 0
    start = clock()
    while True:
        actions += run(rng)
        matches += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return matches / elapsed, actions / elapsed


def paired_ratio(ours, reference, seconds: float, pairs: int = 5) -> tuple[float, float, float]:
    """(ratio, our rate, the reference's rate), each the median over ``pairs`` short runs of
    the two taken in turn. The machine's speed drifts by a third from one minute to the next
    here, so two rates measured a minute apart compare the minutes; runs side by side compare
    the engines."""
    ratios, rates, references = [], [], []
    for _ in range(pairs):
        _, mine = measure(ours, seconds / pairs)
        _, theirs = measure(reference, seconds / pairs)
        ratios.append(mine / theirs)
        rates.append(mine)
        references.append(theirs)
    return statistics.median(ratios), statistics.median(rates), statistics.median(references)


def openspiel_runner(name: str):
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(name)

    def run(rng: random.Random) -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per game and variant")
    parser.add_argument("--game", help="only this game")
    parser.add_argument(
        "--cpu", action="store_true", help="per second of this process's CPU time, not the wall's"
    )
    args = parser.parse_args()
    ids = [game.id for game in all_games()]
    if args.game and args.game not in ids:
        parser.error(f"unknown game {args.game!r}; the games: {', '.join(ids)}")
    if args.cpu:
        global clock
        clock = time.process_time
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    rows = []
    print(
        f"{'game/variant':38} {'players':>7} {'matches/s':>10} {'actions/s':>11}"
        f"  target {EVERY_GAME:,}/s"
    )
    for game in all_games():
        if args.game and game.id != args.game:
            continue
        for variant in game.variants:
            players = game.player_range(variant)[0]
            mps, aps = measure(
                lambda rng, g=game.id, v=variant, p=players: one_match(g, v, p, rng), args.seconds
            )
            rows.append((game.id, variant, players, aps))
            verdict = "meets" if aps >= EVERY_GAME else "MISSES"
            print(
                f"{game.id + '/' + variant:38} {players:>7} {mps:>10.1f} {aps:>11,.0f}  {verdict}"
            )
    runners = {}
    for name in ("euchre", "oh_hell"):
        run = openspiel_runner(name)
        if run is None:
            print(f"{'openspiel/' + name:38} {'-':>7} {'(open-spiel not installed)':>22}")
            continue
        runners[name] = run
        mps, aps = measure(run, args.seconds)
        print(f"{'openspiel/' + name + ' (C++)':38} {'-':>7} {mps:>10.1f} {aps:>11,.0f}")
    game, variant, players, target = TARGET
    ours = next((aps for g, v, p, aps in rows if (g, v, p) == (game, variant, players)), None)
    if ours is not None:
        verdict = "meets" if ours >= target else "MISSES"
        print(
            f"\n{game}/{variant} {players}p: {ours:,.0f} actions/s, {verdict} the target of {target:,}"
        )
        brisca = lambda rng: one_match(game, variant, players, rng)  # noqa: E731
        for name, run in runners.items():
            ratio, mine, theirs = paired_ratio(brisca, run, 2 * args.seconds)
            line = (
                f"ratio to openspiel/{name}: {ratio:.3f} (median of 5 runs side by side:"
                f" {mine:,.0f} against {theirs:,.0f} actions/s)"
            )
            if name == RATIO[0]:
                line += (
                    f", {'meets' if ratio >= RATIO[1] else 'MISSES'} the target of {RATIO[1]:.2f}"
                )
            print(line)
    slow = [(g, v, aps) for g, v, _p, aps in rows if aps < EVERY_GAME]
    print(
        f"every variant >= {EVERY_GAME:,} actions/s: "
        + (
            f"MISSES ({len(slow)} of {len(rows)} below)"
            if slow
            else f"meets ({len(rows)} variants)"
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
