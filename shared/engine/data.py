"""Typed game data: a game's own fields of the state, in one dataclass per game.

The core knows zones, turns and scores; everything else a game keeps (the trump, the
running count, whose dice…) is one ``GameData`` subclass, documented in one place and
checked by mypy. It serialises to the state's JSON ``data`` object field by field, so a
stored state's bytes, seals and hashes do not depend on whether a game is typed.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .errors import InvalidState

if TYPE_CHECKING:
    from .state import State

D = TypeVar("D", bound="GameData")
_ABSENT_WHEN_NONE = "absent_when_none"


def absent_when_none() -> Any:
    """A field that stays out of the JSON while it is None (a key a game adds only later, kept
    so that stored states from before the game was typed hash the same)."""
    return field(default=None, metadata={_ABSENT_WHEN_NONE: True})


@dataclass
class GameData:
    """Base of every game's data; subclasses are dataclasses whose fields all have defaults."""

    _names: ClassVar[tuple[str, ...]] = ()
    _optional: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._names = ()  # filled on first use: the dataclass decorator runs after this hook

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        if not cls._names:
            cls._optional = frozenset(
                f.name for f in fields(cls) if f.metadata.get(_ABSENT_WHEN_NONE)
            )
            cls._names = tuple(f.name for f in fields(cls))
        return cls._names

    @classmethod
    def of(cls: type[D], state: State) -> D:
        """The state's data as this game's type (for mypy; the state holds exactly this type)."""
        return state.data  # type: ignore[no-any-return]

    def to_json(self, copy_values: bool = True) -> dict[str, Any]:
        doc = {name: getattr(self, name) for name in self.field_names()}
        for name in self._optional:
            if doc[name] is None:
                del doc[name]
        return copy.deepcopy(doc) if copy_values else doc

    @classmethod
    def from_json(cls: type[D], doc: dict[str, Any], copy_values: bool = True) -> D:
        names = cls.field_names()
        unknown = sorted(set(doc) - set(names))
        if unknown:
            raise InvalidState(f"state.data has unknown fields {unknown}")
        missing = sorted(set(names) - set(doc) - cls._optional)
        if missing:
            raise InvalidState(f"state.data is missing {missing}")
        return cls(**(copy.deepcopy(doc) if copy_values else doc))
