"""The declared events: every event type a game emits, declared once, beside its action table.

A game declares each event type as a class attribute, with its fields, its visibility and
its sentence, and emits it by calling the declaration::

    class Brisca(Game):
        played = EventType(
            "played", "a card played to the trick", seat=SEAT, card=CARD,
            says=Say(es="{seat} juega {card}", en="{seat} plays {card}"),
        )

        def _play(self, state, seat, action):
            return [self.played(seat=seat, card=action["card"])]

Calling it builds the plain event, ``{"type": "played", "seat": 0, "card": "3C"}``: events
stay JSON objects in the match log. Where checking is on (``shared.engine.checks``: the
tests), the core refuses loudly (``DeclarationError``) an event its game does not declare, a
field it does not declare, a missing required field or a value of the wrong kind.

**Visibility.** A ``PUBLIC`` event is seen whole by everyone. A ``PRIVATE`` one carries
``visible_to`` (the seats that see it) and keeps its secret in ``card``/``cards``, which
``core.redact`` (the one place that hides) nulls for everyone else; ``MAYBE_PRIVATE``
carries ``visible_to`` only when its card is secret (a card drawn from the stock, but not the
face-up trump). **Sentences** are said after redaction, for one reader: a hidden card is
"una carta" / "a card". Where the sentence depends on the event, ``@x.sentence`` chooses it::

    @baza.sentence
    def _baza_said(self, event):
        if event["parda"]:
            return Say(es="La baza {number} es parda", en="Trick {number} is tied")
        return Say(es="{seat} gana la baza {number}", en="{seat} takes trick {number}")

The kit declares the events its helpers emit (``kit.dealing.DEALT``…); a game that uses a
helper includes its declaration as a class attribute (``dealt = dealing.DEALT``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from .fields import Field, object_problem, object_schema
from .language import Reader, Say, card_phrase, cards_phrase, render

Event = dict[str, Any]

PUBLIC, PRIVATE, MAYBE_PRIVATE = "public", "private", "maybe-private"
VISIBILITIES = (PUBLIC, PRIVATE, MAYBE_PRIVATE)
VISIBLE_TO = Field("seats", "the seats that see its card or cards; null for everyone else")

#: A sentence chosen for an event: a ``Say`` filled from its fields, or one with more values.
Said = Say | tuple[Say, Mapping[str, Any]]
Sentence = Callable[[Any, Event], Said]


class EventType(functools.partial[Event]):
    """One event type: its name, meaning, fields, visibility and sentence.

    Calling it builds the plain event, ``{"type": ..., **values}``: it is a ``partial`` of
    ``dict`` with the type first, so that emitting an event (several on every action of
    every game) costs no call of a Python function."""

    def __new__(cls, type: str, *args: Any, **kwargs: Any) -> EventType:
        return super().__new__(cls, dict, type=type)

    def __init__(
        self,
        type: str,
        description: str,
        *,
        says: Say | None = None,
        visibility: str = PUBLIC,
        **fields: Field,
    ) -> None:
        if visibility not in VISIBILITIES:
            raise ValueError(f"event {type}: visibility must be one of {VISIBILITIES}")
        if "visible_to" in fields:
            raise ValueError(f"event {type}: declare visibility=, not a visible_to field")
        self.type = type
        self.description = description
        self.says = says
        self.visibility = visibility
        self.fields: dict[str, Field] = dict(fields)
        if visibility != PUBLIC:
            self.fields["visible_to"] = VISIBLE_TO.but(optional=visibility == MAYBE_PRIVATE)
        self._sentence: Sentence | None = None
        #: The same event built by a plain function: a ``partial`` subclass is called through
        #: ``tp_call`` (three dicts made), a function by vectorcall. A game's own declarations
        #: are emitted through it (``Game.__init__``: ``self.played(...)`` finds it first).
        self.emit: Callable[..., Event] = _emitter(type)

    def __repr__(self) -> str:
        return f"EventType({self.type!r})"

    def sentence(self, fn: Sentence) -> Sentence:
        """Choose the sentence of an event (a ``Say`` filled from its fields, or ``(say,
        values)`` with more values) where one template does not fit every event of the type."""
        self._sentence = fn
        return fn

    def extend(
        self, description: str | None = None, *, says: Say | None = None, **fields: Field
    ) -> EventType:
        """This type with more fields (a kit event a game tells more about): same name,
        visibility and, unless given, meaning and sentence."""
        own = {k: v for k, v in self.fields.items() if k != "visible_to"}
        extended = EventType(
            self.type,
            self.description if description is None else description,
            says=self.says if says is None else says,
            visibility=self.visibility,
            **own,
            **fields,
        )
        if says is None:
            extended._sentence = self._sentence
        return extended

    # -- checking ------------------------------------------------------------------------
    def problem(self, event: Event, players: int) -> str | None:
        """Why ``event`` does not match this declaration, for the developer, or None."""
        body = {k: v for k, v in event.items() if k != "type"}
        problem = object_problem(self.fields, body, players)
        return None if problem is None else f"event {self.type} {problem}"

    # -- saying --------------------------------------------------------------------------
    def text(self, game: Any, event: Event, reader: Reader) -> str:
        """The sentence of ``event`` (already redacted for the reader) in the reader's words."""
        said: Said | None = self.says
        if self._sentence is not None:
            said = self._sentence(game, event)
        if said is None:
            return fallback_text(event, reader)
        if isinstance(said, tuple):
            say, more = said
            return render(say.template(reader.lang), {**event, **more}, self.fields, reader)
        return render(said.template(reader.lang), event, self.fields, reader)

    # -- publishing ----------------------------------------------------------------------
    def json_schema(self) -> dict:
        """The event as a JSON Schema object (``type`` first); a private event's
        ``card``/``cards`` may be null (redacted)."""
        schema = object_schema(self.fields, hidden_cards=self.visibility != PUBLIC)
        schema["properties"] = {
            "type": {"type": "string", "enum": [self.type]},
            **schema["properties"],
        }
        schema["required"] = ["type", *schema["required"]]
        return {"description": self.description, **schema}

    def describe(self) -> dict:
        """The catalog entry of this event type."""
        schema = object_schema(self.fields, hidden_cards=self.visibility != PUBLIC)
        return {
            "type": self.type,
            "description": self.description,
            "visibility": self.visibility,
            "fields": schema["properties"],
            "required": schema["required"],
        }


def _emitter(type: str) -> Callable[..., Event]:
    def emit(**values: Any) -> Event:
        return {"type": type, **values}

    return emit


def fallback_text(event: Event, reader: Reader) -> str:
    """The sentence of an event declared without one (a game not yet given its sentences):
    who, what, and the cards it shows. Every game's declarations give sentences in the end."""
    what = event.get("type", "?").replace("_", " ")
    seat = event.get("seat")
    head = f"{reader.name(seat)}: {what}" if isinstance(seat, int) else what
    if "card" in event:
        return f"{head} ({card_phrase(event['card'], reader.lang, reader.deck)})"
    if isinstance(event.get("cards"), list):
        return f"{head} ({cards_phrase(event['cards'], reader.lang, reader.deck)})"
    return head
