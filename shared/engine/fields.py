"""Field kinds: the one type system of actions, events, view fields and facts.

A ``Field`` says what a value is (a card, a seat, a list of objects…), whether it may be
absent (``optional``) or null (``nullable``), and what it means (``description``). The
same declaration checks a value (``problem``), is published as JSON Schema
(``json_schema``: the catalog and the API specs) and tells a sentence how to say the value
(``shared.engine.language``).

Kinds: ``card`` (a card code), ``cards`` (a list of card codes), ``card-groups`` (a list of
lists of card codes), ``int``, ``ints``, ``number`` (an integer or a fraction: 7.5),
``bool``, ``str``, ``seat`` (an integer seat of the match), ``seats``, ``suit`` (a suit
letter), and the composite ``list`` (of ``items``), ``object`` (of ``properties``, each
required unless optional), ``map`` (string keys, each value an ``items``) and ``either``
(any one of ``alternatives``: a count said as a number, or a figure's name).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import ENGLISH_SUITS, SPANISH_SUITS, are_cards, is_card
from .language import Message, Say, Words

#: The card-code pattern of the API (Spanish 1-12 + O C E B, English A 2-10 J Q K + S H D C, joker).
CARD_PATTERN = r"^(?:(?:[1-9]|1[0-2])[OCEB]|(?:[2-9]|10|[AJQK])[SHDC]|JK)$"
SUITS = tuple(dict.fromkeys(SPANISH_SUITS + ENGLISH_SUITS))


class DeclarationError(TypeError):
    """A game emitted an event or built a view its declarations do not allow: a defect of the
    game, raised where checking is on (the tests) so that it cannot go unseen."""


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value: Any, players: int) -> bool:
    return _int(value) and 0 <= value < players


# What each kind must be, in the words of a refusal: (English, Spanish).
KIND_WORDS = {
    "card": ("a card code", "una carta"),
    "cards": ("a list of card codes", "una lista de cartas"),
    "card-groups": ("a list of lists of card codes", "una lista de grupos de cartas"),
    "int": ("an integer", "un número entero"),
    "ints": ("a list of integers", "una lista de números enteros"),
    "number": ("a number", "un número"),
    "bool": ("true or false", "verdadero o falso"),
    "str": ("a string", "un texto"),
    "seat": ("a seat number", "un número de asiento"),
    "seats": ("a list of seat numbers", "una lista de números de asiento"),
    "suit": ("a suit letter", "la letra de un palo"),
    "list": ("a list", "una lista"),
    "object": ("an object", "un objeto"),
    "map": ("an object", "un objeto"),
    "either": ("one of several kinds", "uno de varios tipos"),
}

MUST_BE = Say(es="{name} debe ser {what}", en="{name} must be {what}")
MUST_BE_SEAT = Say(
    es="{name} debe ser un número de asiento del 0 al {last}",
    en="{name} must be a seat number from 0 to {last}",
)
ONE_OF = Say(es="{name} debe ser uno de {values}", en="{name} must be one of {values}")
AT_LEAST = Say(es="{name} debe ser al menos {bound}", en="{name} must be at least {bound}")
AT_MOST = Say(es="{name} debe ser como mucho {bound}", en="{name} must be at most {bound}")


@dataclass(frozen=True, eq=False)
class Field:
    """One field: its kind, and optionally its allowed values, bounds, words and parts."""

    kind: str
    description: str = ""
    choices: tuple | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    #: May be absent (an action's or an event's field; a view's private field is absent for
    #: spectators by being private, not optional).
    optional: bool = False
    #: May be null.
    nullable: bool = False
    #: ``list`` and ``map``: each item's field.
    items: Field | None = None
    #: ``object``: its fields by name.
    properties: Mapping[str, Field] | None = None
    #: A ``str`` (or ``int``) field's values as words in both languages, for sentences.
    words: Words | None = None
    #: ``either``: the kinds a value may have.
    alternatives: tuple[Field, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KIND_WORDS:
            raise ValueError(f"unknown field kind {self.kind!r}; kinds: {sorted(KIND_WORDS)}")
        if self.kind in ("list", "map") and self.items is None:
            raise ValueError(f"a {self.kind} field needs its items' field")
        if self.kind == "object" and self.properties is None:
            raise ValueError("an object field needs its properties")
        if self.kind == "either" and not self.alternatives:
            raise ValueError("an either field needs its alternatives")
        if self.words is not None and self.choices is not None:
            missing = [c for c in self.choices if c not in self.words]
            if missing:
                raise ValueError(f"words missing for the choices {missing}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Field) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.kind, self.description, self.choices))

    def _key(self) -> tuple:
        props = tuple(sorted(self.properties.items())) if self.properties else None
        return (self.kind, self.description, self.choices, self.minimum, self.maximum,
                self.optional, self.nullable, self.items, props, self.words, self.alternatives)  # fmt: skip

    # -- variants of a declaration -------------------------------------------------------
    def but(self, **changes: Any) -> Field:
        """This field with some attributes changed: ``SEAT.but(nullable=True)``."""
        return dataclasses.replace(self, **changes)

    def about(self, description: str) -> Field:
        """This field with its meaning where it is used: ``SEAT.about("who leads")``."""
        return dataclasses.replace(self, description=description)

    def or_null(self, description: str | None = None) -> Field:
        return dataclasses.replace(
            self,
            nullable=True,
            description=self.description if description is None else description,
        )

    def maybe(self) -> Field:
        """This field, optional: it may be absent."""
        return dataclasses.replace(self, optional=True)

    # -- checking ------------------------------------------------------------------------
    def accepts(self, value: Any, players: int) -> bool:
        """Whether ``value`` is well-formed for this field (the check, without words)."""
        if value is None:
            return self.nullable
        kind = self.kind
        if kind == "card":
            ok = is_card(value)
        elif kind == "cards":
            ok = type(value) is list and are_cards(value)
        elif kind == "seat":
            ok = _seat(value, players)
        elif kind == "int":
            ok = _int(value)
        elif kind == "str":
            ok = isinstance(value, str)
        elif kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "seats":
            ok = type(value) is list and all(_seat(v, players) for v in value)
        elif kind == "ints":
            ok = type(value) is list and all(_int(v) for v in value)
        elif kind == "number":
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        elif kind == "suit":
            ok = value in SUITS
        elif kind == "card-groups":
            ok = type(value) is list and all(type(g) is list and are_cards(g) for g in value)
        elif kind == "list":
            items = self.items
            assert items is not None
            ok = type(value) is list and all(items.accepts(v, players) for v in value)
        elif kind == "map":
            items = self.items
            assert items is not None
            ok = type(value) is dict and all(
                isinstance(k, str) and items.accepts(v, players) for k, v in value.items()
            )
        elif kind == "either":
            ok = any(f.accepts(value, players) for f in self.alternatives)
        else:  # object
            ok = (
                type(value) is dict
                and object_problem(self.properties or {}, value, players) is None
            )
        if not ok:
            return False
        if self.choices is not None:
            return value in self.choices
        if self.minimum is None and self.maximum is None:
            return True
        numbers = value if kind == "ints" else [value] if kind in ("int", "number") else []
        return all(
            (self.minimum is None or v >= self.minimum)
            and (self.maximum is None or v <= self.maximum)
            for v in numbers
        )

    def problem(self, name: str, value: Any, players: int) -> Message | None:
        """None when ``value`` is well-formed for this field, else the reason, in both languages."""
        if self.accepts(value, players):
            return None
        kind = self.kind
        if value is None or not self._kind_ok(value, players):
            if kind == "seat":
                return MUST_BE_SEAT(name=name, last=players - 1)
            english, spanish = KIND_WORDS[kind]
            return MUST_BE(name=name, what=Say(es=spanish, en=english))
        if self.choices is not None and value not in self.choices:
            return ONE_OF(name=name, values=str(list(self.choices)))
        if self.minimum is not None:
            numbers = value if kind == "ints" else [value]
            if any(v < self.minimum for v in numbers):
                return AT_LEAST(name=name, bound=self.minimum)
        return AT_MOST(name=name, bound=self.maximum)

    def _kind_ok(self, value: Any, players: int) -> bool:
        """The kind alone, without choices or bounds."""
        return dataclasses.replace(self, choices=None, minimum=None, maximum=None).accepts(
            value, players
        )

    # -- publishing ----------------------------------------------------------------------
    def json_schema(self, hidden_cards: bool = False) -> dict:
        """The field as JSON Schema, for the catalog and the API specs. ``hidden_cards``: a
        private event's ``card``/``cards``, null for a reader who may not see them."""
        card: dict[str, Any] = {"type": "string", "pattern": CARD_PATTERN}
        kind = self.kind
        schema: dict[str, Any]
        if kind == "card":
            schema = {"anyOf": [card, {"type": "null"}]} if hidden_cards else dict(card)
        elif kind == "cards":
            item = {"anyOf": [card, {"type": "null"}]} if hidden_cards else card
            schema = {"type": "array", "items": item}
        elif kind == "card-groups":
            schema = {"type": "array", "items": {"type": "array", "items": card}}
        elif kind in ("int", "seat"):
            schema = {"type": "integer"}
            if kind == "seat":
                schema["minimum"] = 0
        elif kind == "ints":
            schema = {"type": "array", "items": {"type": "integer"}}
        elif kind == "seats":
            schema = {"type": "array", "items": {"type": "integer", "minimum": 0}}
        elif kind == "number":
            schema = {"type": "number"}
        elif kind == "bool":
            schema = {"type": "boolean"}
        elif kind in ("str", "suit"):
            schema = {"type": "string"}
            if kind == "suit" and self.choices is None:
                schema["enum"] = list(SUITS)
        elif kind == "list":
            assert self.items is not None
            schema = {"type": "array", "items": self.items.json_schema()}
        elif kind == "map":
            assert self.items is not None
            schema = {"type": "object", "additionalProperties": self.items.json_schema()}
        elif kind == "either":
            schema = {"anyOf": [f.json_schema() for f in self.alternatives]}
        else:
            schema = object_schema(self.properties or {})
        if self.choices is not None:
            schema["enum"] = list(self.choices)
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        if self.nullable:
            schema = {"anyOf": [schema, {"type": "null"}]}
        if self.description:
            schema["description"] = self.description
        return schema


def object_problem(
    fields: Mapping[str, Field], value: Mapping[str, Any], players: int
) -> str | None:
    """Why ``value`` is not an object of ``fields`` (an unknown, missing or ill-typed field),
    in English for the developer who declared it, or None."""
    for name in value:
        if name not in fields:
            return f"has the undeclared field {name!r} (declared: {sorted(fields) or 'none'})"
    for name, spec in fields.items():
        if name not in value:
            if not spec.optional:
                return f"lacks its field {name!r}"
        elif not spec.accepts(value[name], players):
            return f"has {name}={value[name]!r}, which is not {spec_words(spec)}"
    return None


def spec_words(spec: Field) -> str:
    """A field's kind in words, for a developer: "a card code or null"."""
    words = KIND_WORDS[spec.kind][0]
    if spec.choices is not None:
        words += f" of {list(spec.choices)}"
    return words + (" or null" if spec.nullable else "")


def object_schema(fields: Mapping[str, Field], hidden_cards: bool = False) -> dict:
    """An object of ``fields`` as JSON Schema: each required unless optional, nothing else."""
    return {
        "type": "object",
        "properties": {
            name: spec.json_schema(hidden_cards and name in ("card", "cards"))
            for name, spec in fields.items()
        },
        "required": [name for name, spec in fields.items() if not spec.optional],
        "additionalProperties": False,
    }


# -- the commonest declarations --------------------------------------------------------------
CARD = Field("card", "a card code")
CARDS = Field("cards", "card codes")
SEAT = Field("seat", "a seat")
SEATS = Field("seats", "seats")
INT = Field("int")
INTS = Field("ints")
NUMBER = Field("number")
BOOL = Field("bool")
STR = Field("str")
SUIT = Field("suit", "a suit letter")


def choice(*values: Any, description: str = "", words: Words | None = None) -> Field:
    """A string field with a fixed set of values (and, for sentences, their words)."""
    return Field("str", description, choices=tuple(values), words=words)


def list_of(items: Field, description: str = "") -> Field:
    return Field("list", description, items=items)


def obj(description: str = "", **properties: Field) -> Field:
    """An object with these fields (each required unless declared ``.maybe()``)."""
    return Field("object", description, properties=properties)


def map_of(items: Field, description: str = "") -> Field:
    """An object keyed by data (suits, ranks), each value an ``items``."""
    return Field("map", description, items=items)


def either(*alternatives: Field, description: str = "") -> Field:
    """A value of any one of these kinds."""
    return Field("either", description, alternatives=alternatives)
