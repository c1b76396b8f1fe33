"""Facts: what a player at the table knows and needs at a glance, computed by the game.

Every view carries ``facts``, a list a client shows without knowing the game::

    {"id": "trump", "seat": null, "value": "E", "label": "Trump", "text": "Trump: swords"}
    {"id": "points", "seat": 1, "value": 23, "label": "Points", "text": "Beto has 23 points"}

``id`` is stable (a client may place a fact it knows), ``seat`` is the seat the fact is
about (null: the table), ``value`` is typed by the fact's declaration, and ``label`` and
``text`` are in the reader's language, with the players' names. A game declares each kind
of fact as a class attribute and lists the facts of a view in ``facts(state, seat)``::

    trump = FactType("trump", "the trump suit of this deal", SUIT,
                     label=Say(es="Triunfo", en="Trump"))

    def facts(self, state, seat):
        return [self.trump(BriscaData.of(state).trump)]

A fact shows only what its reader may see: the shared suite permutes every card a seat
cannot see and checks its view, facts included, does not change.
"""

from __future__ import annotations

from typing import Any

from .fields import SEAT, Field
from .language import Reader, Say, render

Fact = dict[str, Any]

#: The sentence of a fact that declares none.
LABEL_AND_VALUE = Say(es="{label}: {value}", en="{label}: {value}")
SEAT_LABEL_AND_VALUE = Say(es="{seat} — {label}: {value}", en="{seat} — {label}: {value}")


class FactType:
    """One kind of fact: its id, meaning, value, label and sentence; ``per_seat``: about a seat."""

    def __init__(
        self,
        id: str,
        description: str,
        value: Field,
        *,
        label: Say,
        says: Say | None = None,
        per_seat: bool = False,
    ) -> None:
        self.id = id
        self.description = description
        self.value = value
        self.label = label
        self.per_seat = per_seat
        self.says = says or (SEAT_LABEL_AND_VALUE if per_seat else LABEL_AND_VALUE)
        self._kinds = {"value": value, "seat": SEAT}

    def __repr__(self) -> str:
        return f"FactType({self.id!r})"

    def __call__(self, value: Any, seat: int | None = None) -> Fact:
        """The fact, not yet said: the view adds its label and text for the reader."""
        return {"id": self.id, "seat": seat, "value": value}

    def say(self, fact: Fact, reader: Reader) -> Fact:
        """``fact`` with its label and text in ``reader``'s words (in place: it is new)."""
        label = self.label.template(reader.lang)
        fact["label"] = label
        values = {"value": fact["value"], "seat": fact["seat"], "label": label}
        fact["text"] = render(self.says.template(reader.lang), values, self._kinds, reader)
        return fact

    def problem(self, fact: Fact, players: int) -> str | None:
        """Why ``fact`` does not match this declaration, for the developer, or None."""
        seat = fact.get("seat")
        if self.per_seat != (seat is not None):
            return f"fact {self.id} is {'per seat' if self.per_seat else 'about the table'}"
        if seat is not None and not SEAT.accepts(seat, players):
            return f"fact {self.id} has the seat {seat!r}"
        if set(fact) != {"id", "seat", "value"}:
            return f"fact {self.id} has the keys {sorted(fact)}"
        if not self.value.accepts(fact["value"], players):
            return f"fact {self.id} has the value {fact['value']!r}"
        return None

    def json_schema(self) -> dict:
        """One fact of this kind as JSON Schema: its id, seat, typed value, label and text."""
        # A table fact's seat is always null; typed integer-or-null all the same, which
        # generated clients keep (a null-only property is dropped by some of them).
        seat: dict[str, Any] = (
            {"type": "integer", "minimum": 0, "description": "the seat it is about"}
            if self.per_seat
            else {
                "anyOf": [{"type": "integer"}, {"type": "null"}],
                "description": "null: a fact about the table",
            }
        )
        return {
            "type": "object",
            "description": self.description,
            "properties": {
                "id": {"type": "string", "enum": [self.id]},
                "seat": seat,
                "value": self.value.json_schema(),
                "label": {"type": "string", "description": "what it is, in the reader's language"},
                "text": {"type": "string", "description": "the fact as a sentence"},
            },
            "required": ["id", "seat", "value", "label", "text"],
            "additionalProperties": False,
        }

    def describe(self) -> dict:
        """The catalog entry of this kind of fact."""
        return {
            "id": self.id,
            "description": self.description,
            "per_seat": self.per_seat,
            "value": self.value.json_schema(),
            "label": {"es": self.label.es, "en": self.label.en},
        }
