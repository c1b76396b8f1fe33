"""What a game module provides, and the registry that finds games by id.

A game is one module with one ``Game`` subclass: metadata as data (players,
deck, options, variants), and four functions over a ``State``: ``setup``,
``legal_actions``, ``apply`` and ``view_fields``. The core (``core.py``) does
everything that is the same for every game: validating options and actions,
turn checks, views, redaction, conservation checks and results. It never names
a game, so a new game only registers itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UnknownGame, UnknownVariant
from .state import State

RULES_DIR = Path(__file__).resolve().parent.parent / "games" / "rules"

Action = dict[str, Any]
Event = dict[str, Any]


_TYPE_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}


@dataclass(frozen=True)
class Option:
    """A named rule choice. ``choices`` lists the allowed values; otherwise any value of the default's type
    (within ``minimum``/``maximum`` for numbers)."""

    default: Any
    description: str
    choices: tuple | None = None
    minimum: float | None = None
    maximum: float | None = None

    def check(self, name: str, value: Any) -> str | None:
        """None when ``value`` is allowed, else the reason."""
        if self.choices is not None:
            return (
                None
                if value in self.choices
                else f"option {name} must be one of {list(self.choices)}"
            )
        kind = type(self.default)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not kind:
            return f"option {name} must be {_TYPE_NAMES.get(kind, kind.__name__)}"
        if self.minimum is not None and value < self.minimum:
            return f"option {name} must be at least {self.minimum}"
        if self.maximum is not None and value > self.maximum:
            return f"option {name} must be at most {self.maximum}"
        return None


@dataclass(frozen=True)
class Variant:
    """A variant is data: a description, option overrides, and optionally its own player range."""

    id: str
    description: str
    options: dict[str, Any] = field(default_factory=dict)
    players: tuple[int, int] | None = None


class Game:
    """Base class of every game. Subclasses set the metadata and implement the four functions."""

    id: str = ""
    name: str = ""
    rules_file: str = ""
    players: tuple[int, int] = (2, 2)
    options: dict[str, Option] = {}
    variants: dict[str, Variant] = {}

    # -- metadata ----------------------------------------------------------------
    def player_range(self, variant: str) -> tuple[int, int]:
        return self.variant(variant).players or self.players

    def variant(self, variant_id: str) -> Variant:
        try:
            return self.variants[variant_id]
        except KeyError:
            raise UnknownVariant(
                f"game {self.id} has no variant {variant_id!r}; variants: {sorted(self.variants)}"
            ) from None

    def rules_text(self) -> str:
        return (RULES_DIR / self.rules_file).read_text(encoding="utf-8")

    def describe(self) -> dict:
        """The catalog entry of this game."""
        return {
            "id": self.id,
            "name": self.name,
            "players": {"min": self.players[0], "max": self.players[1]},
            "variants": [
                {
                    "id": v.id,
                    "description": v.description,
                    "players": {
                        "min": self.player_range(v.id)[0],
                        "max": self.player_range(v.id)[1],
                    },
                    "options": {**{k: o.default for k, o in self.options.items()}, **v.options},
                }
                for v in self.variants.values()
            ],
            "options": {
                k: {
                    "default": o.default,
                    "description": o.description,
                    **({"choices": list(o.choices)} if o.choices is not None else {}),
                    **({"minimum": o.minimum} if o.minimum is not None else {}),
                    **({"maximum": o.maximum} if o.maximum is not None else {}),
                }
                for k, o in self.options.items()
            },
        }

    # -- the rules ---------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        """Every card of the match, as a multiset: cards are conserved across all zones."""
        raise NotImplementedError

    def setup(self, state: State) -> list[Event]:
        """Deal and set who acts first. ``state`` comes with options, players and seed."""
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, concretely (the core already checked it is to act)."""
        raise NotImplementedError

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        """Whether ``action`` is legal. Games with huge action sets override this instead of listing."""
        legal = self.legal_actions(state, seat)
        return action in legal or canonical(action) in {canonical(a) for a in legal}

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        """A reason for refusing ``action``, as precise as the game can say it."""
        return f"{describe_action(action)} is not a legal action now"

    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        """Apply a legal action in place and return its events (seat None: the server's timer)."""
        raise NotImplementedError

    def view_fields(self, state: State, seat: int | None) -> dict:
        """Game-specific public (and seat-private) fields of a view."""
        return {}

    def system_actions(self, state: State) -> list[Action]:
        """Actions the server itself may send (e.g. a timeout closing a reaction window)."""
        return [{"type": "timeout"}] if state.deadline else []


def canonical(value: Any) -> Any:
    """A hashable form of an action where lists compare as multisets."""
    if isinstance(value, dict):
        return tuple(sorted((k, canonical(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(sorted((canonical(v) for v in value), key=repr))
    return value


def describe_action(action: Action) -> str:
    parts = [f"{k}={v}" for k, v in action.items() if k != "type"]
    return f"{action.get('type')}({', '.join(parts)})"


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    if not game.id or game.id in _REGISTRY:
        raise ValueError(f"bad or duplicate game id {game.id!r}")
    if "base" not in game.variants:
        raise ValueError(f"game {game.id} has no base variant")
    _REGISTRY[game.id] = game
    return game


def get_game(game_id: str) -> Game:
    _load_games()
    try:
        return _REGISTRY[game_id]
    except KeyError:
        raise UnknownGame(f"no game {game_id!r}; games: {sorted(_REGISTRY)}") from None


def all_games() -> list[Game]:
    _load_games()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


_games_loaded = False


def _load_games() -> None:
    """Import every game module once (each registers itself); later calls cost a flag check.

    The flag is set only once the import has finished: a thread arriving meanwhile runs the
    import statement, which waits for the first thread's import to complete."""
    global _games_loaded
    if not _games_loaded:
        import shared.games  # noqa: F401

        _games_loaded = True
