"""Information-set Monte Carlo tree search from one seat's view, for every game.

Each iteration deals the cards the seat cannot see at random (``shared.engine.sampling``:
a full state consistent with the view), walks the tree from the root with UCT, adds one
node, plays the rest out with a cheap policy and backs up every seat's reward. The tree
is shared by every sampled deal, so its statistics are those of the seat's information
set, not of any one deal; an action that a sampled deal does not allow is simply not
available in that iteration (availability counts in the UCT bound).

Several seats to act at once (sealed commits, reaction windows) are searched as one
simultaneous decision: each seat picks from its own statistics at the node, without
seeing what the others pick (decoupled UCT), and an action whose events only its seat
may see (a sealed card) leads to the same child whatever the card was, so nobody in the
tree learns it before the game shows it. Where the server's timer may close a window,
each seat may also wait; when every seat waits, the window times out.

The search never names a game: a game may add a cheap rollout policy with
``rollout_policy`` (see ``POLICIES``), nothing else.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from shared.engine import (
    Action,
    State,
    apply,
    get_game,
    legal_actions,
    new_match,
)
from shared.engine.sampling import game_of, sample_state

TIMEOUT: Action = {"type": "timeout"}
WAIT = "wait"  # a seat lets a window run out (no action)
DIRECTION_STEPS = 600  # the longest random match score_direction plays out

#: A rollout policy: (state, its legal (seat, action) options, generator) -> the pick.
RolloutPolicy = Callable[[State, list[tuple[int | None, Action]], random.Random], tuple]
POLICIES: dict[str, RolloutPolicy] = {}


def rollout_policy(game_id: str) -> Callable[[RolloutPolicy], RolloutPolicy]:
    """Register a game's rollout policy (used instead of uniform random play)."""

    def add(fn: RolloutPolicy) -> RolloutPolicy:
        POLICIES[game_id] = fn
        return fn

    return add


@dataclass(frozen=True)
class Budget:
    """How much one decision may cost: iterations, wall-clock milliseconds, rollout length."""

    iterations: int
    millis: float
    rollout_steps: int = 300
    exploration: float = 0.7


def _key(action: Action) -> str:
    return repr(sorted(action.items()))


class Node:
    """One point of the tree: per seat to act there, its statistics per action key
    ([visits, total reward, times available]), and the children by joint visible move."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple, Node] = {}
        self.stats: dict[int, dict[str, list[float]]] = {}


def _options(state: State, seat: int) -> list[tuple[str, Action | None]]:
    options: list[tuple[str, Action | None]] = [(_key(a), a) for a in legal_actions(state, seat)]
    if state.deadline:
        options.append((WAIT, None))
    return options


def _pick(
    node: Node, seat: int, options: list[tuple[str, Action | None]], c: float, rng: random.Random
) -> tuple[str, Action | None, bool]:
    """UCT among the options available now; an untried one first. (key, action, new?)"""
    stats = node.stats.setdefault(seat, {})
    untried = [o for o in options if o[0] not in stats]
    for k, _ in options:
        if k in stats:
            stats[k][2] += 1
    if untried:
        k, a = rng.choice(untried)
        stats[k] = [0.0, 0.0, 1.0]
        return k, a, True
    best, best_value = options[0], -1.0
    for option in options:
        n, w, avail = stats[option[0]]
        value = w / n + c * math.sqrt(math.log(avail) / n) if n else math.inf
        if value > best_value:
            best, best_value = option, value
    return best[0], best[1], False


def _apply_visible(state: State, seat: int | None, action: Action) -> str | None:
    """Apply and return the key others see: the action, or only its type when its own event
    is private to its seat (a sealed commit). None: the action is not legal in this deal."""
    try:
        events = apply(state, seat, action)
    except Exception:  # noqa: BLE001 - refused, or a sampled deal the rules cannot play on
        return None
    # The action's own event comes first; what follows (a card drawn) says nothing of it.
    shown = events[0].get("visible_to") if events else None
    private = shown is not None and len(shown) < state.players
    return f"sealed:{action['type']}" if private else _key(action)


@lru_cache(maxsize=512)
def score_direction(game_id: str, variant: str, players: int) -> int:
    """+1 where the winners of random matches end with more points than the others, -1 where
    with fewer (penalty points), 0 where points tell nothing: learnt once per game from a
    few random matches, so that a rollout may stop at a round's end and read the points.
    A game too long for that to be cheap counts as +1, the common case."""
    votes, finished = 0, 0
    for k in range(4):
        state, _ = new_match(game_id, variant, players, seed=f"direction:{k}")
        rollout(state, random.Random(k), DIRECTION_STEPS)
        if not state.finished:
            continue
        finished += 1
        winners = (state.result or {}).get("winners") or []
        others = [s for s in range(players) if s not in winners]
        if not winners or not others:
            continue
        won = sum(state.scores[s] for s in winners) / len(winners)
        lost = sum(state.scores[s] for s in others) / len(others)
        votes += (won > lost) - (won < lost)
    if not finished:
        return 1
    return (votes > 0) - (votes < 0) if abs(votes) >= 2 else 0


def rewards(state: State, origin: list[int], direction: int) -> list[float]:
    """Each seat's reward in [0, 1]: a win (shared on a tie of everyone); in a match not yet
    over, its margin in the points scored since the search began (``origin``), as a share
    of the largest gain, and ½ for all where points tell nothing."""
    n = state.players
    if state.finished and state.result is not None:
        winners = state.result.get("winners") or []
        if n == 1:
            return [1.0 if winners else 0.0]
        everyone = len(winners) == n
        return [0.5 if everyone else 1.0 if s in winners else 0.0 for s in range(n)]
    gains = [(now - then) * direction for now, then in zip(state.scores, origin, strict=True)]
    scale = max((abs(g) for g in gains), default=0)
    if n == 1 or not scale:
        return [0.5] * n
    out = []
    for s in range(n):
        margin = gains[s] - sum(gains[o] for o in range(n) if o != s) / (n - 1)
        out.append(min(1.0, max(0.0, 0.5 + margin / (2 * scale))))
    return out


def rollout(
    state: State,
    rng: random.Random,
    steps: int,
    stop: float = math.inf,
    scored: bool = False,
) -> None:
    """Play on with the game's rollout policy (uniform random by default) for ``steps``, or
    until the ``stop`` time (``time.perf_counter``) of a search whose budget is spent; with
    ``scored``, also until a round ends with points scored since the rollout began."""
    policy = POLICIES.get(state.game)
    game = get_game(state.game)
    start_round, start_scores = state.round, list(state.scores)
    for step in range(steps):
        if state.finished or (step % 4 == 3 and time.perf_counter() > stop):
            return
        if scored and state.round != start_round and state.scores != start_scores:
            return
        options: list[tuple[int | None, Action]] = [(None, a) for a in legal_actions(state, None)]
        for seat in state.to_act:
            options.extend((seat, a) for a in legal_actions(state, seat))
        if not options:
            return
        seat, action = policy(state, options, rng) if policy else rng.choice(options)
        try:  # a listed action is legal: the game applies it without the core's checks
            game.apply(state, seat, action)
            state.moves += 1
        except Exception:  # noqa: BLE001 - a sampled deal the rules cannot play on: stop here
            return


def _iterate(
    root: Node,
    state: State,
    budget: Budget,
    rng: random.Random,
    me: int,
    allowed: set[str],
    stop: float,
) -> None:
    node, path = root, []
    origin = list(state.scores)
    direction = score_direction(state.game, state.variant, state.players)
    while not state.finished:
        actors = list(state.to_act)
        if not actors:
            if not state.deadline:
                break
            if _apply_visible(state, None, TIMEOUT) is None:
                break
            continue
        picks, grew = [], False
        for seat in actors:
            options = _options(state, seat)
            if node is root and seat == me:  # the view's own list decides at the root
                options = [o for o in options if o[0] in allowed]
            if not options:
                continue
            k, a, new = _pick(node, seat, options, budget.exploration, rng)
            picks.append((seat, k, a))
            grew = grew or new
        if not picks:
            break
        seen = []
        for seat, _k, a in picks:
            if a is None or seat not in state.to_act:
                seen.append(WAIT)
                continue
            visible = _apply_visible(state, seat, a)
            seen.append(visible or "void")
        if all(s == WAIT for s in seen) and (
            not state.deadline or _apply_visible(state, None, TIMEOUT) is None
        ):
            break
        path.append((node, picks))
        node = node.children.setdefault(tuple(seen), Node())
        if grew:
            break
    rollout(state, rng, budget.rollout_steps, stop, scored=direction != 0)
    values = rewards(state, origin, direction)
    for at, picks in path:
        for seat, k, _a in picks:
            entry = at.stats[seat][k]
            entry[0] += 1
            entry[1] += values[seat]


def search(view: dict, rng: random.Random, budget: Budget) -> Action:
    """The action with the most visits at the root after the budget's iterations or time."""
    actions = view["legal_actions"]
    if len(actions) == 1:
        return actions[0]
    seat = view["seat"]
    game_of(view)  # refuse a view of no game before searching
    root = Node()
    by_key = {_key(a): a for a in actions}
    allowed = set(by_key)
    stop = time.perf_counter() + budget.millis / 1000
    for i in range(budget.iterations):
        if i and time.perf_counter() > stop:
            break
        state = sample_state(view, rng)
        state.to_act = [seat] + [s for s in state.to_act if s != seat]
        try:
            _iterate(root, state, budget, rng, seat, allowed, stop)
        except Exception:  # noqa: BLE001, S112 - a sampled deal the rules cannot list: next deal
            continue
    stats = root.stats.get(seat, {})
    ranked = sorted(by_key, key=lambda k: (stats.get(k, [0.0, 0.0])[0], stats.get(k, [0, 0.0])[1]))
    return by_key[ranked[-1]]
