"""What a game module provides, and the registry that finds games by id.

A game is one module with one ``Game`` subclass: metadata as data (players,
deck, options, variants, its typed data), an action table (``actions.py``: each
action type with its fields, phases, refusal and handler), its declared events
(``events.py``) and facts (``facts.py``), ``setup``, and ``public_fields``/
``private_fields`` for views, declared field by field in ``public_view``/
``private_view``. The core (``core.py``) does
everything that is the same for every game: validating options and actions,
turn checks, views, redaction, conservation checks and results. It never names
a game, so a new game only registers itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import Action, ActionType, Event
from .data import GameData
from .errors import UnknownGame, UnknownVariant
from .events import EventType
from .facts import Fact, FactType
from .fields import Field
from .language import Message, Say
from .state import DEALS_BY_NUMBER, State

RULES_DIR = Path(__file__).resolve().parent.parent / "games" / "rules"

_TYPE_NAMES = {int: ("an integer", "un número entero"), float: ("a number", "un número"),
               bool: ("true or false", "verdadero o falso"), str: ("a string", "un texto")}  # fmt: skip

OPTION_ONE_OF = Say(
    es="la opción {name} debe ser una de {values}", en="option {name} must be one of {values}"
)
OPTION_MUST_BE = Say(es="la opción {name} debe ser {what}", en="option {name} must be {what}")
OPTION_AT_LEAST = Say(
    es="la opción {name} debe ser al menos {bound}", en="option {name} must be at least {bound}"
)
OPTION_AT_MOST = Say(
    es="la opción {name} debe ser como mucho {bound}", en="option {name} must be at most {bound}"
)
UNKNOWN_TYPE = Say(
    es="{game} no tiene la acción '{type}'; sus acciones: {types}",
    en="unknown action type '{type}'; {game} has actions {types}",
)
NO_VARIANT = Say(
    es="{game} no tiene la variante '{variant}'; variantes: {variants}",
    en="game {game} has no variant '{variant}'; variants: {variants}",
)
NO_GAME = Say(
    es="no hay ningún juego '{game}'; juegos: {games}", en="no game '{game}'; games: {games}"
)


@dataclass(frozen=True)
class Option:
    """A named rule choice. ``choices`` lists the allowed values; otherwise any value of the default's type
    (within ``minimum``/``maximum`` for numbers)."""

    default: Any
    description: str
    choices: tuple | None = None
    minimum: float | None = None
    maximum: float | None = None
    #: The rules version that added this option. A match of an earlier version does not carry
    #: it in its options (so its stored states keep their bytes and hashes): ``Game.option``
    #: then gives the value that version implied (``RulesChange.before``).
    since: int = 1

    def check(self, name: str, value: Any) -> Message | None:
        """None when ``value`` is allowed, else the reason. Strict about types: ``3.0`` is not
        ``3`` and ``true`` is not ``1`` (an integer is accepted where a number is expected)."""
        if self.choices is not None:
            allowed = any(type(value) is type(c) and value == c for c in self.choices)
            return None if allowed else OPTION_ONE_OF(name=name, values=str(list(self.choices)))
        kind = type(self.default)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not kind:
            english, spanish = _TYPE_NAMES.get(kind, (kind.__name__, kind.__name__))
            return OPTION_MUST_BE(name=name, what=Say(es=spanish, en=english))
        if self.minimum is not None and value < self.minimum:
            return OPTION_AT_LEAST(name=name, bound=str(self.minimum))
        if self.maximum is not None and value > self.maximum:
            return OPTION_AT_MOST(name=name, bound=str(self.maximum))
        return None


@dataclass(frozen=True)
class Variant:
    """A variant is data: a description, option overrides, and optionally its own player range."""

    id: str
    description: str
    options: dict[str, Any] = field(default_factory=dict)
    players: tuple[int, int] | None = None


@dataclass(frozen=True)
class RulesChange:
    """One change of a game's behaviour, shipped as rules version ``version``.

    The change is an option (a new one with ``since=version``, or a new default) and
    ``before`` holds the option values that give the behaviour of the versions before it,
    for every variant; ``variants`` holds per-variant values over those. So a match recorded
    under an earlier version is set up, replayed and verified under its own rules.
    """

    version: int
    description: str
    before: dict[str, Any] = field(default_factory=dict)
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)


def deals_by_number(since: int) -> dict[str, Option]:
    """The option (``DEALS_BY_NUMBER``) of a game that moved its chance to deal keys in rules
    version ``since`` (``State.by_deal``): every deal of a match, not only the first, is then
    dealt alike at every table of a duplicate group. Spread into the game's ``options``."""
    return {
        DEALS_BY_NUMBER: Option(
            True,
            "every deal's chance from (seed, deal number, draw within the deal): deal k is "
            "the same cards for the same seat whatever was played before it",
            since=since,
        )
    }


def deals_by_number_change(version: int, also: str = "") -> RulesChange:
    """The ``RulesChange`` of the version that declared ``deals_by_number``: before it, chance
    by the match's counter of draws. ``also``: what else the game changed for it."""
    return RulesChange(
        version,
        "every deal's chance from (seed, deal number, draw within the deal), the cards gathered"
        f" for a new deal put in one order before their shuffle{also}: deal k is the same"
        " cards for the same seat at every table of a duplicate group (before: from (seed,"
        " count of the match's draws), the gathered cards shuffled in the order play left"
        " them)",
        before={DEALS_BY_NUMBER: False},
    )


class Game:
    """Base of every game. Subclasses set the metadata, declare their action table and deal."""

    id: str = ""
    name: str = ""
    rules_file: str = ""
    players: tuple[int, int] = (2, 2)
    options: dict[str, Option] = {}
    variants: dict[str, Variant] = {}
    #: The version of its rules: a change of behaviour bumps it and declares a ``RulesChange``
    #: (docs/engine.md, "Changing a rule"); every match records the version it is played under.
    rules_version: int = 1
    #: Every change of behaviour since version 1, one per version from 2 to ``rules_version``.
    changes: tuple[RulesChange, ...] = ()
    #: The first rules version under which every deal of a match is dealt alike at every
    #: table of a duplicate group without ``deals_by_number`` (each deal shuffles a fresh
    #: deck with no draw during play); None: only its first deal. See ``deals_alike``.
    fresh_deals_since: int | None = None
    #: The game's own fields of the state; None keeps a plain dict (games not yet typed).
    data_type: type[GameData] | None = None
    #: Every action type, in declaration order, collected from the class attributes.
    action_table: dict[str, ActionType] = {}
    #: Every event type it emits (``EventType`` class attributes, the kit's it includes too).
    event_table: dict[str, EventType] = {}
    #: Every kind of fact its views show (``FactType`` class attributes).
    fact_table: dict[str, FactType] = {}
    #: Its view fields every seat and spectator sees (what ``public_fields`` returns), and
    #: the ones only the seat itself sees (``private_fields``; null in a spectator's view),
    #: each declared with its kind and meaning. None: not declared yet (published untyped).
    public_view: dict[str, Field] | None = None
    private_view: dict[str, Field] = {}
    #: Whose names its cards have (``language.SPANISH_DECK`` or ``ENGLISH_DECK``).
    deck_kind: str = ""
    #: Per phase, the listing functions of the action types open in it (filled on first use).
    _listers: dict[str, list[Any]] = {}
    #: (variant, option) -> the value of an option a match's options do not carry (filled on use).
    _absent: dict[tuple[str, str], Any] = {}
    #: Attribute name -> builder of each declared event (``__init__`` puts them on the game).
    _emitters: dict[str, Any] = {}
    #: Whether its server actions are the base's, a timeout only while a window is open: the
    #: core then answers "none" without a call when no window is (asked before every action).
    timeout_only: bool = True
    #: Whether it keeps the base's ``refusal`` and ``apply`` (the action table's): the core
    #: then finds the action's type once and asks its refusal and handler itself, two calls
    #: fewer on every action.
    table_rules: bool = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table: dict[str, ActionType] = {}
        events: dict[str, EventType] = {}
        facts: dict[str, FactType] = {}
        emitters: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if isinstance(value, ActionType):
                    table[value.type] = value
                elif isinstance(value, EventType):
                    if events.get(value.type, value) is not value:
                        raise ValueError(f"{cls.__name__} declares the event {value.type} twice")
                    events[value.type] = value
                    emitters[name] = value.emit
                elif isinstance(value, FactType):
                    if facts.get(value.id, value) is not value:
                        raise ValueError(f"{cls.__name__} declares the fact {value.id} twice")
                    facts[value.id] = value
        cls.action_table = table
        cls.event_table = events
        cls._emitters = emitters
        cls.fact_table = facts
        cls._listers = {}
        cls._absent = {}
        cls.timeout_only = cls.system_actions is Game.system_actions
        cls.table_rules = cls.refusal is Game.refusal and cls.apply is Game.apply

    def __init__(self) -> None:
        # Each declared event, as an attribute of the game, is its plain-function builder
        # (``EventType.emit``): ``self.played(...)`` builds the same event, faster. The class
        # attribute (``Brisca.played``) stays the declaration.
        vars(self).update(self._emitters)

    # -- metadata ----------------------------------------------------------------
    def player_range(self, variant: str) -> tuple[int, int]:
        return self.variant(variant).players or self.players

    def variant(self, variant_id: str) -> Variant:
        try:
            return self.variants[variant_id]
        except KeyError:
            variants = ", ".join(sorted(self.variants))
            raise UnknownVariant(
                NO_VARIANT(game=self.id, variant=variant_id, variants=variants)
            ) from None

    def implied_options(self, variant: str, version: int) -> dict[str, Any]:
        """The option values that rules ``version`` implied where today's defaults differ:
        the ``before`` values of every later change, the earliest change winning."""
        implied: dict[str, Any] = {}
        for change in sorted(self.changes, key=lambda c: -c.version):
            if change.version > version:
                implied.update(change.before)
                implied.update(change.variants.get(variant, {}))
        return implied

    def option(self, state: State, name: str) -> Any:
        """An option's value in this match. A match recorded before the option existed does
        not carry it, and plays by the value of the version before the option was added."""
        options = state.options
        if name in options:
            return options[name]
        key = (state.variant, name)
        if key not in self._absent:
            earlier = self.implied_options(state.variant, self.options[name].since - 1)
            self._absent[key] = earlier[name]
        return self._absent[key]

    def deals_alike(self, version: int, options: dict[str, Any] | None = None) -> bool:
        """Whether every deal of a match played under rules ``version`` (with ``options``, as
        its setup asked) is dealt alike at every table dealt from one seed (a duplicate
        group), not only its first: from the version that declared ``deals_by_number`` unless
        the options turn it off, or from ``fresh_deals_since``."""
        declared = self.options.get(DEALS_BY_NUMBER)
        if declared is None:
            return self.fresh_deals_since is not None and version >= self.fresh_deals_since
        return version >= declared.since and (options or {}).get(DEALS_BY_NUMBER) is not False

    def check_versions(self) -> None:
        """The version table is whole: one change per version from 2 to ``rules_version``, and
        every option added later has the value the versions before it implied."""
        versions = sorted(c.version for c in self.changes)
        if versions != list(range(2, self.rules_version + 1)):
            raise ValueError(
                f"game {self.id} is at rules version {self.rules_version} but declares "
                f"changes for versions {versions}: one RulesChange per version from 2"
            )
        for name, opt in self.options.items():
            if not 1 <= opt.since <= self.rules_version:
                raise ValueError(f"game {self.id}: option {name} has since={opt.since}")
            for variant in self.variants:
                if opt.since > 1 and name not in self.implied_options(variant, opt.since - 1):
                    raise ValueError(
                        f"game {self.id}: option {name}, added in version {opt.since}, needs "
                        f"its earlier value in the RulesChange of version {opt.since}"
                    )

    def rules_text(self) -> str:
        return (RULES_DIR / self.rules_file).read_text(encoding="utf-8")

    def new_data(self) -> GameData | dict:
        return self.data_type() if self.data_type is not None else {}

    def describe(self) -> dict:
        """The catalog entry of this game."""
        return {
            "id": self.id,
            "name": self.name,
            "players": {"min": self.players[0], "max": self.players[1]},
            "rules_version": self.rules_version,
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
            "actions": [a.describe() for a in self.action_table.values()],
            "events": [e.describe() for e in self.event_table.values()],
            "view": self.describe_view(),
            "facts": [f.describe() for f in self.fact_table.values()],
            "deck": self.deck_kind,
        }

    def describe_view(self) -> dict | None:
        """The game's own view fields as JSON Schema (None: not declared yet)."""
        if self.public_view is None:
            return None
        return {
            "public": {name: spec.json_schema() for name, spec in self.public_view.items()},
            "private": {name: spec.json_schema() for name, spec in self.private_view.items()},
        }

    # -- the rules a game writes --------------------------------------------------
    def deck(self, state: State) -> list[str]:
        """Every card of the match, as a multiset: cards are conserved across all zones."""
        raise NotImplementedError

    def setup(self, state: State) -> list[Event]:
        """Deal and set who acts first. ``state`` comes with options, players, seed and data."""
        raise NotImplementedError

    def on_timeout(self, state: State) -> list[Event]:
        """The server's timer closed the open window (``state.deadline``): apply its effect."""
        raise NotImplementedError(f"{self.id} opens no window")

    def public_fields(self, state: State) -> dict:
        """Game-specific fields of a view that every seat and spectator sees."""
        return {}

    def private_fields(self, state: State, seat: int) -> dict:
        """Game-specific fields of a view that only ``seat`` sees (its own bid, its points…)."""
        return {}

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        """What ``seat`` (None: a spectator) knows at a glance: facts of the declared kinds,
        made by calling them (``self.trump(suit)``); the view says them for its reader."""
        return []

    # -- derived from the action table ---------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, concretely (the core already checked it is to act)."""
        # Called for every request and every bot move: the listing of each action type open
        # in a phase is found once (``ActionType.lister``), so this is one call per type.
        listers = self._listers.get(state.phase)
        if listers is None:
            listers = self._listers[state.phase] = [
                k.lister() for k in self.action_table.values() if k.open_in(state.phase)
            ]
        if len(listers) == 1:  # a listing is a new list (ActionType.enumerate): no copy
            listed = listers[0](self, state, seat)
            return listed if type(listed) is list else list(listed)
        actions: list[Action] = []
        for lister in listers:
            actions.extend(lister(self, state, seat))
        return actions

    def refusal(self, state: State, seat: int, action: Action) -> str | Say | None:
        """Why ``action`` is illegal now, or None: type, phase and fields first, then the game's rule."""
        kind = self.action_table.get(action["type"])
        if kind is None:
            return UNKNOWN_TYPE(game=self.id, type=action["type"], types=self._type_list())
        return kind.refused(self, state, seat, action)

    def _type_list(self) -> str:
        return ", ".join(self.action_table) or "-"

    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        """Apply a legal action in place and return its events (seat None: the server's timer)."""
        if seat is None:
            return self.on_timeout(state)
        handler = self.action_table[action["type"]]._handler
        if handler is None:  # pragma: no cover - a declaration without a handler
            raise TypeError(f"{self.id}: action {action['type']} has no handler")
        return handler(self, state, seat, action)

    def view_fields(self, state: State, seat: int | None) -> dict:
        """The game-specific fields of ``seat``'s view: the public ones, then the seat's own
        (a spectator's view has each declared private field too, null)."""
        fields = self.public_fields(state)
        if seat is not None:
            fields.update(self.private_fields(state, seat))
        elif self.private_view:
            fields.update(dict.fromkeys(self.private_view))
        return fields

    def system_actions(self, state: State) -> list[Action]:
        """Actions the server itself may send: a timeout closing the open window."""
        return [{"type": "timeout"}] if state.deadline else []


def describe_action(action: Action) -> str:
    parts = [f"{k}={v}" for k, v in action.items() if k != "type"]
    return f"{action.get('type')}({', '.join(parts)})"


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    if not game.id or game.id in _REGISTRY:
        raise ValueError(f"bad or duplicate game id {game.id!r}")
    if "base" not in game.variants:
        raise ValueError(f"game {game.id} has no base variant")
    game.check_versions()
    _REGISTRY[game.id] = game
    return game


def registered() -> dict[str, Game]:
    """The games registered so far, by id (without importing them: ``all_games`` does)."""
    return _REGISTRY


def get_game(game_id: str) -> Game:
    if not _games_loaded:  # on every action: a flag check, not a call
        _load_games()
    try:
        return _REGISTRY[game_id]
    except KeyError:
        games = ", ".join(sorted(_REGISTRY))
        raise UnknownGame(NO_GAME(game=game_id, games=games)) from None


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
