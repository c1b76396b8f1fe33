"""The registry of bot strategies, keyed by (game id, strategy name)."""

from __future__ import annotations

import random
from collections.abc import Callable

from shared.engine import Action, Game, get_game
from shared.engine.sampling import game_of
from shared.version import TAPETE_VERSION

#: A strategy: the seat's own view (which lists at least one legal action) and a generator.
Strategy = Callable[[dict, random.Random], Action]
#: The game id under which a strategy that plays every game is registered.
ANY_GAME = "*"

_REGISTRY: dict[tuple[str, str], Strategy] = {}


class UnknownStrategy(ValueError):
    """A strategy name the game does not have."""


def register(game: str, name: str) -> Callable[[Strategy], Strategy]:
    """Register the decorated function as strategy ``name`` of ``game`` (``ANY_GAME``: all)."""

    def add(fn: Strategy) -> Strategy:
        if (game, name) in _REGISTRY:
            raise ValueError(f"strategy {name!r} of {game} is registered twice")
        _REGISTRY[(game, name)] = fn
        return fn

    return add


def catalog_entry(game: Game) -> dict:
    """A game's catalog entry: what the engine describes, and the bot strategies it offers
    (the bot registry sits above the engine, so the engine does not list them itself)."""
    return {**game.describe(), "strategies": strategies(game.id)}


def strategies(game_id: str) -> list[str]:
    """The strategies that play ``game_id``: those for every game first, then its own.

    Raises ``UnknownGame`` for a game that does not exist.
    """
    get_game(game_id)
    names = [n for g, n in _REGISTRY if g == ANY_GAME] + [n for g, n in _REGISTRY if g == game_id]
    return list(dict.fromkeys(names))


def all_strategies() -> list[str]:
    """Every strategy name some game has (for the list of values of an API field)."""
    ordered = sorted(_REGISTRY, key=lambda key: key[0] != ANY_GAME)  # every game's first
    return list(dict.fromkeys(n for _g, n in ordered))


def strategy(game_id: str, name: str) -> Strategy:
    """Strategy ``name`` of ``game_id``, or ``UnknownStrategy`` saying which ones it has."""
    fn = _REGISTRY.get((game_id, name)) or _REGISTRY.get((ANY_GAME, name))
    if fn is None:
        raise UnknownStrategy(
            f"game {game_id} has no bot strategy {name!r}; strategies: {strategies(game_id)}"
        )
    return fn


def strategy_version(name: str) -> str:
    """Which code a strategy's moves came from (the package's version and the strategy), for
    the log of a seat a bot sits in for: a replay tells which bot played each move."""
    return f"tapete-{TAPETE_VERSION}/bots/{name}"


def choose(view: dict, name: str, rng: random.Random) -> Action:
    """The action strategy ``name`` takes in this view (which must list a legal action)."""
    return strategy(game_of(view).id, name)(view, rng)
