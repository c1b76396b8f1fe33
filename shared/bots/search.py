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
``rollout_policy`` (see ``POLICIES``), nothing else; the same function is the tree's prior
(its pick is tried first and wins ties at the root). What a playout's end is worth is read
with the game's ``profile``, learnt from a few matches.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
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
DIRECTION_STEPS = 600  # the longest random match a game's profile plays out
SHORT_MATCH = 40  # random matches this short (in actions) are played out to their end
RESULT = 0.8  # the share of a finished match's reward that its result makes
PRIOR = 1.0  # the bonus of the rollout policy's own pick at a node, divided by its visits + 1
ALIKE = 0.03  # root mean rewards this close are alike: the heuristic's pick is played

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


@dataclass
class Effort:
    """What one search spent: its iterations, and whether the time limit ended it first."""

    iterations: int = 0
    capped: bool = False


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


def _preferred(
    state: State, seat: int, options: list[tuple[str, Action | None]], rng: random.Random
) -> str:
    """The key of the action the game's rollout policy would play here ('' without one)."""
    policy = POLICIES.get(state.game)
    actions: list[tuple[int | None, Action]] = [(seat, a) for _k, a in options if a is not None]
    if policy is None or len(actions) < 2:
        return ""
    return _key(policy(state, actions, rng)[1])


def _pick(
    node: Node,
    seat: int,
    options: list[tuple[str, Action | None]],
    c: float,
    rng: random.Random,
    preferred: str = "",
) -> tuple[str, Action | None, bool]:
    """UCT among the options available now; an untried one first (the ``preferred`` one
    first of all), then a bonus for ``preferred`` that fades with its visits (a prior: of
    actions that look alike, the one the game's heuristic plays). (key, action, new?)"""
    stats = node.stats.setdefault(seat, {})
    untried = [o for o in options if o[0] not in stats]
    for k, _ in options:
        if k in stats:
            stats[k][2] += 1
    if untried:
        first = [o for o in untried if o[0] == preferred]
        k, a = first[0] if first else rng.choice(untried)
        stats[k] = [0.0, 0.0, 1.0]
        return k, a, True
    best, best_value = options[0], -1.0
    for option in options:
        n, w, avail = stats[option[0]]
        value = w / n + c * math.sqrt(math.log(avail) / n) if n else math.inf
        if option[0] == preferred:
            value += PRIOR / (n + 1)
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


@dataclass(frozen=True)
class Profile:
    """What a game's random matches say about reading a playout's end, learnt once per game.

    ``direction``: +1 where winners end with more points, -1 with fewer (penalty points), 0
    where points tell nothing. ``scale``: a typical round's points margin between seats
    (the 90th percentile), the one yardstick every playout's margin is measured with, so
    that a hand won by 4 counts more than one won by 1. ``whole``: matches so short that
    a playout goes on to the end (what a bid keeps for later rounds counts)."""

    direction: int = 1
    scale: float = 1.0
    whole: bool = False


@lru_cache(maxsize=512)
def profile(game_id: str, variant: str, players: int) -> Profile:
    """Learnt from four random matches of at most ``DIRECTION_STEPS`` actions (a game too
    long for that to be cheap keeps the common case: points are good, rounds are read)."""
    votes, finished, lengths, margins = 0, 0, [], []
    for k in range(4):
        state, _ = new_match(game_id, variant, players, seed=f"direction:{k}")
        rollout(state, random.Random(k), DIRECTION_STEPS)
        margins += [max(r) - min(r) for r in state.rounds if max(r) != min(r)]
        if not state.finished:
            continue
        finished += 1
        lengths.append(state.moves)
        winners = (state.result or {}).get("winners") or []
        others = [s for s in range(players) if s not in winners]
        if not winners or not others:
            continue
        won = sum(state.scores[s] for s in winners) / len(winners)
        lost = sum(state.scores[s] for s in others) / len(others)
        votes += (won > lost) - (won < lost)
    margins.sort()
    scale = float(margins[(9 * len(margins)) // 10]) if margins else 1.0
    if not finished:
        return Profile(1, scale, False)
    direction = (votes > 0) - (votes < 0) if abs(votes) >= 2 else 0
    whole = finished == 4 and sum(lengths) / 4 <= SHORT_MATCH
    return Profile(direction, scale, whole)


def rewards(
    state: State, origin: list[int], direction: int, scale: float | None = None
) -> list[float]:
    """Each seat's reward in [0, 1]. Its margin in the points scored since the search began
    (``origin``) over the seats' average, measured against ``scale`` (default: the largest
    gain of this playout); ½ for all where points tell nothing. A finished match counts
    mostly its result (a win, shared on a tie of everyone), the margin breaking even ones."""
    n = state.players
    gains = [(now - then) * direction for now, then in zip(state.scores, origin, strict=True)]
    yardstick = scale or max((abs(g) for g in gains), default=0)
    if n == 1 or not yardstick:
        margins = [0.5] * n
    else:
        margins = []
        for s in range(n):
            margin = gains[s] - sum(gains[o] for o in range(n) if o != s) / (n - 1)
            margins.append(min(1.0, max(0.0, 0.5 + margin / (2 * yardstick))))
    if state.finished and state.result is not None:
        winners = state.result.get("winners") or []
        if n == 1:
            return [1.0 if winners else 0.0]
        everyone = len(winners) == n
        results = [0.5 if everyone else 1.0 if s in winners else 0.0 for s in range(n)]
        return [RESULT * r + (1 - RESULT) * m for r, m in zip(results, margins, strict=True)]
    return margins


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
) -> str:
    """One iteration; returns the key the game's heuristic prefers for ``me`` at the root."""
    node, path, liked = root, [], ""
    origin = list(state.scores)
    learnt = profile(state.game, state.variant, state.players)
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
            preferred = _preferred(state, seat, options, rng)
            if node is root and seat == me:
                liked = preferred
            k, a, new = _pick(node, seat, options, budget.exploration, rng, preferred)
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
    scored = learnt.direction != 0 and not learnt.whole
    rollout(state, rng, budget.rollout_steps, stop, scored=scored)
    values = rewards(state, origin, learnt.direction, learnt.scale)
    for at, picks in path:
        for seat, k, _a in picks:
            entry = at.stats[seat][k]
            entry[0] += 1
            entry[1] += values[seat]
    return liked


def search(view: dict, rng: random.Random, budget: Budget, effort: Effort | None = None) -> Action:
    """The action with the most visits at the root after the budget's iterations or time;
    but the game's heuristic's own pick where its mean reward is as good within ``ALIKE``
    (an action a later turn could also make, such as a song, otherwise loses such ties to
    the plain moves, whose values are not diluted by the choices after them). ``effort``,
    if given, is told the iterations made."""
    effort = effort if effort is not None else Effort()
    actions = view["legal_actions"]
    if len(actions) == 1:
        return actions[0]
    seat = view["seat"]
    game_of(view)  # refuse a view of no game before searching
    root = Node()
    by_key = {_key(a): a for a in actions}
    allowed = set(by_key)
    liked: Counter[str] = Counter()
    stop = time.perf_counter() + budget.millis / 1000
    for i in range(budget.iterations):
        if i and time.perf_counter() > stop:
            effort.capped = True
            break
        effort.iterations = i + 1
        state = sample_state(view, rng)
        state.to_act = [seat] + [s for s in state.to_act if s != seat]
        try:
            liked[_iterate(root, state, budget, rng, seat, allowed, stop)] += 1
        except Exception:  # noqa: BLE001, S112 - a sampled deal the rules cannot list: next deal
            continue
    stats = root.stats.get(seat, {})
    ranked = sorted(by_key, key=lambda k: (stats.get(k, [0.0, 0.0])[0], stats.get(k, [0, 0.0])[1]))
    best = ranked[-1]
    favourite = liked.most_common(1)[0][0] if liked else ""
    if favourite in stats and best in stats and stats[favourite][0]:
        mean = lambda k: stats[k][1] / stats[k][0]  # noqa: E731
        if mean(favourite) >= mean(best) - ALIKE:
            best = favourite
    return by_key[best]
