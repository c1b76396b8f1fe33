"""The parts of the OpenAPI specs built from declarations rather than marshmallow schemas.

Cards, actions, events, views and errors are unions too wide to write by hand, and each comes
from where it is declared: the ``Action`` union from every game's action table
(``shared/engine/actions.py``), the events from every game's event declarations
(``shared/engine/events.py``; the lobby's own in ``services/lobby_events.py``), the ``View``
union (one typed view per game, discriminated on ``game``, with its facts) from the games'
view and fact declarations, the ``Error`` union from ``ERROR_CODES``. A marshmallow field
names one of them with ``Ref``; ``component_ref`` (an apispec attribute function every app
registers) writes the ``$ref`` and adds the component, and the ones it points to, to that
app's spec only, so no spec carries a component it does not use.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from marshmallow import fields

from services.lobby_events import LOBBY_EVENTS
from shared.engine import Game, all_games
from shared.engine.actions import CARD_PATTERN
from shared.engine.cards import ENGLISH_RANKS, ENGLISH_SUITS, JOKER, SPANISH_SUITS
from shared.engine.core import VIEW_FIELDS
from shared.engine.events import EventType
from shared.engine.kit.ending import RESULT
from shared.engine.undo import UNDO

Schema = dict[str, Any]
COMPONENTS = "#/components/schemas/"


def ref(name: str) -> Schema:
    return {"$ref": COMPONENTS + name}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


CARD_DESCRIPTION = (
    "A card code: rank then suit. Spanish deck: ranks 1-12 (10 sota, 11 caballo, 12 rey; a "
    f"40-card deck has no 8 and 9), suits {'/'.join(SPANISH_SUITS)} (oros, copas, espadas, "
    f"bastos), e.g. 1O, 12B. English deck: ranks {'/'.join(ENGLISH_RANKS)}, suits "
    f"{'/'.join(ENGLISH_SUITS)} (spades, hearts, diamonds, clubs), e.g. AS, 10H, QD. "
    f"The joker: {JOKER}. Pattern: {CARD_PATTERN}"
)


RESULT_SCHEMA: Schema = {
    "type": "object",
    "description": "how a finished match ended",
    "properties": {
        "winners": {**array({"type": "integer"}), "description": "the winning seats (none: "
                    "a solitaire lost, or the house won: reason house_won)"},
        "scores": {**array({"type": "integer"}), "description": "final points per seat"},
        "rounds": {**array(array({"type": "integer"})), "description": "points per round"},
        "reason": {"type": "string", "description": "why it ended, where a game says (house_won: "
                   "no player beat Siete y Media's house); a match the lobby ended: resigned or "
                   "abandoned"},
        "seat": {"anyOf": [{"type": "integer"}, {"type": "null"}],
                 "description": "a match the lobby ended: the seat that resigned or abandoned"},
        "won": {"type": "boolean", "description": "solitaires: whether it came out"},
    },
    "required": ["winners", "scores"],
    "additionalProperties": False,
}  # fmt: skip


DEADLINE_SCHEMA: Schema = {
    "type": "object",
    "description": "a window the server's timer closes (a sealed commit, a reaction race, a turn)",
    "properties": {
        "kind": {"type": "string", "description": "commit, reaction, ..."},
        "seconds": {"type": "number", "description": "how long the window is"},
        "at": {"type": "string",
               "description": "when it closes (ISO 8601, UTC): the lobby's matches only"},
    },
    "required": ["kind", "seconds"],
    "additionalProperties": True,
}  # fmt: skip

ZONE_SCHEMA: Schema = {
    "type": "object",
    "description": "a zone of cards as the reader sees it",
    "properties": {
        "owner": {**nullable({"type": "integer"}), "description": "a seat; null: the table's"},
        "count": {"type": "integer"},
        "cards": {**array(ref("HiddenCard")),
                  "description": "null for a card the reader may not see"},
    },
    "required": ["owner", "count", "cards"],
    "additionalProperties": False,
}  # fmt: skip


# -- error codes -----------------------------------------------------------------------------
VERSION_DETAILS = {"version": {"type": "integer", "description": "the current version"}}
LEGAL_DETAILS = {"legal_actions": array(ref("Action"))}
FREE_SEATS = {"free_seats": array({"type": "integer"})}

#: Every error code a service answers with, what it means, and its ``details`` (None: none).
ERROR_CODES: dict[str, tuple[str, dict[str, Schema] | None]] = {
    "bad_request": ("malformed request; for an invalid body or query, `details` maps each "
                    "field to its problems", None),
    "unauthorized": ("no or unknown bearer token", None),
    "forbidden": ("the caller may not do this", None),
    "not_found": ("no such resource", None),
    "method_not_allowed": ("the path does not take this method", None),
    "conflict": ("the resource's state does not allow this", None),
    "too_large": ("the request body is too large", None),
    "unsupported_media_type": ("the request body must be JSON", None),
    "too_many_requests": ("over a rate limit; try again after Retry-After seconds",
                          {"retry_after": {"type": "integer", "description": "seconds"}}),
    "internal": ("a defect of the server; the request changed nothing it should not", None),
    "unavailable": ("a store or service does not answer; try again", None),
    "upstream_refused": ("a service behind this one refused: a defect of the server", None),
    "unknown_game": ("no such game", None),
    "unknown_variant": ("the game has no such variant", None),
    "unknown_strategy": ("the game has no such bot strategy",
                         {"strategies": array({"type": "string"})}),
    "bad_setup": ("players or options out of what the variant allows",
                  {"option": {"type": "string", "description": "the option at fault"}}),
    "bad_seat": ("no such seat in this match", None),
    "bad_version": ("no such version of the match", VERSION_DETAILS),
    "invalid_state": ("the state is malformed, forged or inconsistent", None),
    "illegal_action": ("the rules refuse this action now", LEGAL_DETAILS),
    "not_your_turn": ("your seat is not to act now", LEGAL_DETAILS),
    "not_seated": ("you have no seat in this match", None),
    "not_allowed": ("only the match's creator or a seated player may", None),
    "already_seated": ("you already sit in this match", None),
    "seat_taken": ("the seat is taken", FREE_SEATS),
    "match_full": ("every seat is taken", None),
    "seats_free": ("every seat must be taken to start", FREE_SEATS),
    "match_not_open": ("the match has started: seats no longer change", None),
    "match_not_started": ("the match has not started yet", None),
    "match_finished": ("the match is finished",
                       {"result": nullable(ref("Result")), **LEGAL_DETAILS}),
    "match_running": ("a seat's replay waits for the end of the match", None),
    "match_not_finished": ("only a finished match can be verified",
                           {"status": {"type": "string", "description": "the match's status"}}),
    "stale_version": ("expected_version is not the match's version", VERSION_DETAILS),
    "busy": ("the match kept changing under this request; try again", None),
    "setup_refused": ("the rules refused to deal this match", None),
    "log_diverges": ("the log does not replay; GET /verify says where", VERSION_DETAILS),
    "rules_refused": ("the rules service refused: a defect of the server", None),
    "rules_unavailable": ("the rules service does not answer; try again", None),
    "invalid_ticket": ("the stream ticket is unknown, used or expired", None),
    "ticket_mismatch": ("the stream ticket is for another match", None),
    "action_id_reused": ("this action_id was sent before with another action", None),
    "action_id_expired": ("this action_id was answered, but its answer is no longer kept: "
                          "only your latest action's is, until an hour after the match ends",
                          None),
    "bad_cursor": ("the cursor is not one this server gave", None),
    "bad_filter": ("the listing's filters do not go together", None),
    "bot_token": ("a bot seat's token cannot be rotated", None),
    "seat_reserved": ("the seat is kept for another player (a rematch)", FREE_SEATS),
    "rematch_exists": ("another rematch came first", None),
    "too_many_open_matches": ("you have too many open matches", None),
    "too_many_streams": ("you have the most open streams allowed; try again after "
                         "Retry-After seconds", {"retry_after": {"type": "integer",
                                                                 "description": "seconds"}}),
    "store_full": ("the match store is nearly full: no new matches for now", None),
    "unknown_rules_version": ("the match was dealt under rules this service does not know",
                              VERSION_DETAILS),
}  # fmt: skip

VALIDATION_DETAILS: Schema = {
    "description": "an invalid body or query: each field's problems (a list of messages, or "
    "an object of the same shape for a nested field); a body that is no JSON: its messages",
    "anyOf": [
        {"type": "object", "additionalProperties": True},
        {"type": "array", "items": {"type": "string"}},
    ],
}


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[_\-.]", name))


def _error_member(code: str, description: str, details: dict[str, Schema] | None) -> Schema:
    properties: dict[str, Schema] = {
        "code": {"type": "string", "enum": [code], "description": description},
        "message": {"type": "string", "description": "what is wrong, for people"},
    }
    if code == "bad_request":
        properties["details"] = VALIDATION_DETAILS
    elif details is not None:
        properties["details"] = {
            "type": "object",
            "properties": details,
            "additionalProperties": False,
        }
    return {
        "type": "object",
        "properties": properties,
        "required": ["code", "message"],
        "additionalProperties": False,
    }


def _union(members: dict[str, str], description: str, on: str) -> Schema:
    """A oneOf of components with a discriminator: value of ``on`` -> component name."""
    return {
        "description": description,
        "oneOf": [ref(name) for name in members.values()],
        "discriminator": {
            "propertyName": on,
            "mapping": {value: COMPONENTS + name for value, name in members.items()},
        },
    }


# -- actions -------------------------------------------------------------------------------
TIMEOUT_ACTION = "timeout"


HIDDEN_CARD_SCHEMA: Schema = {"anyOf": [ref("Card"), {"type": "null"}]}
KIT_RESULT_SCHEMA: Schema = RESULT.json_schema()


def _card_refs(schema: Any) -> Any:
    """A field's JSON Schema with every card code as a reference to ``Card`` (``HiddenCard``
    where it may be null) and the result of a match as ``Result``."""
    if isinstance(schema, dict):
        if schema.get("pattern") == CARD_PATTERN:
            return ref("Card")
        if schema == KIT_RESULT_SCHEMA:
            return ref("Result")
        out = {key: _card_refs(value) for key, value in schema.items()}
        if {k: v for k, v in out.items() if k != "description"} == HIDDEN_CARD_SCHEMA:
            return {
                **ref("HiddenCard"),
                **({"description": out["description"]} if "description" in out else {}),
            }
        return out
    if isinstance(schema, list):
        return [_card_refs(value) for value in schema]
    return schema


def _merge_field(schemas: list[Schema]) -> Schema:
    """One field as several games declare it: their schemas, widened to accept them all."""
    distinct = {repr(sorted(s.items())): s for s in schemas}
    if len(distinct) == 1:
        return schemas[0]
    kinds = {s.get("type") for s in schemas}
    if len(kinds) == 1 and None not in kinds and "object" not in kinds:
        merged: Schema = {"type": kinds.pop()}
        if merged["type"] == "array":  # a list: its items widened alike
            merged["items"] = _merge_field([s.get("items", {}) for s in schemas])
        if all("enum" in s for s in schemas):
            merged["enum"] = sorted({v for s in schemas for v in s["enum"]}, key=str)
        for bound, pick in (("minimum", min), ("maximum", max)):
            if all(bound in s for s in schemas):
                merged[bound] = pick(s[bound] for s in schemas)
        descriptions = sorted({s["description"] for s in schemas if "description" in s})
        if descriptions:
            merged["description"] = "; ".join(descriptions)
        return merged
    return {"anyOf": list(distinct.values())}


@functools.cache
def action_components() -> dict[str, Schema]:
    """``Action`` and one component per action type, from every game's action table.

    A type several games declare (``play``) has the union of their fields; a field is
    required where every one of those games requires it. Each game's own table, with each
    field's meaning for it, is in the rules catalog (``GET /v1/games/{game}``).
    """
    declared: dict[str, list[tuple[str, dict]]] = {}
    for game in all_games():
        for kind in game.action_table.values():
            declared.setdefault(kind.type, []).append((game.id, kind.describe()))
    components: dict[str, Schema] = {}
    members: dict[str, str] = {}
    for type_, uses in sorted(declared.items()):
        names = sorted({name for _, d in uses for name in d["fields"]})
        properties: dict[str, Schema] = {"type": {"type": "string", "enum": [type_]}}
        for name in names:
            found = [d["fields"][name] for _, d in uses if name in d["fields"]]
            properties[name] = _card_refs(_merge_field(found))
        required = set.intersection(*(set(d["required"]) for _, d in uses))
        meanings = sorted({d["description"] for _, d in uses})
        games = ", ".join(sorted(game for game, _ in uses))
        members[type_] = name = _camel(type_) + "Action"
        components[name] = {
            "type": "object",
            "description": f"{'; '.join(meanings)} (games: {games})",
            "properties": properties,
            "required": ["type", *sorted(required)],
            "additionalProperties": False,
        }
    for type_, name, description in (
        (TIMEOUT_ACTION, "TimeoutAction", "the server's own action closing an open window (a "
         "deadline); it appears in logs, a client never sends it"),
        (UNDO, "UndoAction", "a solitaire's player takes back their last move, back to the "
         "state before it, when their view's may_undo says they may; it appears in logs as "
         "any action"),
    ):  # fmt: skip
        members[type_] = name
        components[name] = {
            "type": "object",
            "description": description,
            "properties": {"type": {"type": "string", "enum": [type_]}},
            "required": ["type"],
            "additionalProperties": False,
        }
    components["Action"] = _union(
        members,
        'An action: one of the games\' action types, e.g. {"type": "play", "card": "1O"}. '
        "Send one of your view's legal_actions as it is.",
        "type",
    )
    return components


# -- events -------------------------------------------------------------------------------
def _event_schema(kind: EventType, origin: str) -> Schema:
    schema = _card_refs(kind.json_schema())
    schema["description"] = f"{origin} {kind.type} event: {kind.description}"
    return schema


@functools.cache
def event_components() -> dict[str, Schema]:
    """``Event`` (every event of every game and of the lobby, one member per type, its fields
    widened where games differ) and, per game, ``<Game>Event``: exactly that game's events,
    from its declarations (``Game.event_table``)."""
    components: dict[str, Schema] = {}
    declared: dict[str, list[Schema]] = {}
    for game in all_games():
        members: dict[str, str] = {}
        for kind in game.event_table.values():
            schema = _event_schema(kind, f"{game.id}'s")
            members[kind.type] = name = _camel(game.id) + _camel(kind.type) + "Event"
            components[name] = schema
            declared.setdefault(kind.type, []).append(schema)
        components[game_events(game)] = _union(
            members, f"An event of {game.name} ({game.id}): discriminated on `type`.", "type"
        )
    for kind in LOBBY_EVENTS:
        declared.setdefault(kind.type, []).append(_event_schema(kind, "the lobby's"))
    # One member per type: a type several games declare has the fields of all of them.
    members = {}
    for type_, schemas in sorted(declared.items()):
        members[type_] = name = _camel(type_) + "Event"
        components[name] = _merged_event(type_, schemas)
    components["Event"] = _union(
        members,
        "What happened: discriminated on `type`. An event private to some seats names them "
        "in `visible_to`; for everyone else its `card`/`cards` are null. Each game's own "
        "events, exactly, are `<Game>Event` (and in the rules catalog).",
        "type",
    )
    return components


def game_events(game: Game) -> str:
    """The name of the component of ``game``'s events (its union, discriminated on ``type``)."""
    return _camel(game.id) + "Event"


def game_view(game: Game) -> str:
    """The name of the component of ``game``'s view."""
    return _camel(game.id) + "View"


def _merged_event(type_: str, schemas: list[Schema]) -> Schema:
    """One event type as several games declare it: every field of any of them, each widened
    to accept them all, required where every one of them requires it."""
    if len(schemas) == 1:
        return {**schemas[0], "description": schemas[0]["description"]}
    names = sorted({name for s in schemas for name in s["properties"]} - {"type"})
    properties: dict[str, Schema] = {"type": {"type": "string", "enum": [type_]}}
    for name in names:
        properties[name] = _merge_field(
            [s["properties"][name] for s in schemas if name in s["properties"]]
        )
    required = set.intersection(*(set(s["required"]) for s in schemas))
    return {
        "type": "object",
        "description": f"the {type_} event, as {len(schemas)} games declare it (each game's "
        "own is in its <Game>Event)",
        "properties": properties,
        "required": ["type", *sorted(required - {"type"})],
        "additionalProperties": False,
    }


# -- views ----------------------------------------------------------------------------------
FACT_SCHEMA: Schema = {
    "type": "object",
    "description": "a fact of a game not yet typed: what a player knows at a glance",
    "properties": {
        "id": {"type": "string", "description": "stable: what the fact is"},
        "seat": {**nullable({"type": "integer"}), "description": "the seat it is about; null: the table"},
        "value": {"description": "its value"},
        "label": {"type": "string", "description": "what it is, in the reader's language"},
        "text": {"type": "string", "description": "the fact as a sentence"},
    },
    "required": ["id", "seat", "value", "label", "text"],
    "additionalProperties": False,
}  # fmt: skip


def _core_view_properties(game: Game) -> dict[str, Schema]:
    """The fields every view has from the core (``core.VIEW_FIELDS``), for ``game``."""
    return {
        "game": {"type": "string", "enum": [game.id]},
        "variant": {"type": "string", "enum": list(game.variants)},
        "options": {"type": "object", "additionalProperties": True,
                    "description": "the variant's option values (see the rules catalog)"},
        "players": {"type": "integer"},
        "seat": {**nullable({"type": "integer"}), "description": "null: a spectator"},
        "phase": {"type": "string"},
        "to_act": array({"type": "integer"}),
        "legal_actions": {**array(ref("Action")), "description": "empty unless your seat is to act"},
        "zones": {"type": "object", "additionalProperties": ref("Zone")},
        "scores": array({"type": "integer"}),
        "round": {"type": "integer"},
        "rounds": array(array({"type": "integer"})),
        "teams": {**array(array({"type": "integer"})), "description": "team games"},
        "finished": {"type": "boolean"},
        "result": nullable(ref("Result")),
        "deadline": nullable(ref("Deadline")),
        "facts": {**array(ref(_camel(game.id) + "Fact" if game.fact_table else "Fact")),
                  "description": "what a player at the table knows at a glance, in the "
                  "reader's language"},
        "turn_deadline": {**nullable({"type": "string"}), "description": "the lobby's "
                          "views: when the turn timer plays for the persons to act (UTC)"},
        "may_undo": {"type": "boolean", "description": "the lobby's views: whether your seat "
                     "may send {\"type\": \"undo\"} now (a solitaire, after a move that "
                     "showed no card and drew no chance)"},
    }  # fmt: skip


CORE_REQUIRED = sorted(VIEW_FIELDS - {"teams"})


@functools.cache
def view_components() -> dict[str, Schema]:
    """``View``, one member per game discriminated on ``game``: the core's fields, the game's
    own typed from its declarations (``public_view`` always there, ``private_view`` null for a
    spectator) and its facts (``<Game>Fact``, discriminated on ``id``). A game whose view is
    not declared yet has its own fields untyped."""
    components: dict[str, Schema] = {
        "Zone": ZONE_SCHEMA,
        "Deadline": DEADLINE_SCHEMA,
        "Fact": FACT_SCHEMA,
    }
    members: dict[str, str] = {}
    for game in all_games():
        camel = _camel(game.id)
        properties = _core_view_properties(game)
        schema: Schema = {
            "type": "object",
            "description": f"what one seat (or a spectator) sees of a {game.name} match",
            "properties": properties,
            "required": list(CORE_REQUIRED),
            "additionalProperties": game.public_view is None,
        }
        if game.public_view is not None:
            for name, spec in game.public_view.items():
                properties[name] = _card_refs(spec.json_schema())
            for name, spec in game.private_view.items():
                private = _card_refs(spec.but(nullable=True).json_schema())
                private["description"] = (
                    spec.description + "; " if spec.description else ""
                ) + "yours only: null for a spectator"
                properties[name] = private
            schema["required"] += [*game.public_view, *game.private_view]
        if game.fact_table:
            facts: dict[str, str] = {}
            for fact in game.fact_table.values():
                facts[fact.id] = name = camel + _camel(fact.id) + "Fact"
                components[name] = _card_refs(fact.json_schema())
            components[camel + "Fact"] = _union(
                facts, f"A fact of a {game.name} table: discriminated on `id`.", "id"
            )
        members[game.id] = game_view(game)
        components[game_view(game)] = schema
    components["View"] = _union(
        members,
        "What one seat (or a spectator: seat null) sees of a match, discriminated on `game`: "
        "the core's fields, the game's own (docs/games/<id>.md) and its facts.",
        "game",
    )
    return components


@functools.cache
def error_components() -> dict[str, Schema]:
    """``ErrorBody`` and one component per error code, each with its own ``details``."""
    components: dict[str, Schema] = {}
    members: dict[str, str] = {}
    for code, (description, details) in ERROR_CODES.items():
        members[code] = name = _camel(code) + "Error"
        components[name] = _error_member(code, description, details)
    components["ErrorBody"] = _union(
        members, "Why the request was refused: discriminated on `code`.", "code"
    )
    return components


def table_components() -> dict[str, Schema]:
    """Every component built here, by name."""
    return {
        "Card": {"type": "string", "pattern": CARD_PATTERN, "description": CARD_DESCRIPTION},
        "HiddenCard": {
            "anyOf": [ref("Card"), {"type": "null"}],
            "description": "a card code, or null for a card the reader may not see",
        },
        "Result": RESULT_SCHEMA,
        **action_components(),
        **event_components(),
        **view_components(),
        **error_components(),
    }


# -- wiring into apispec ------------------------------------------------------------------------
class Ref(fields.Raw):
    """A field whose documented schema is one of ``table_components`` (or a marshmallow
    schema's component): passed through as it is, documented by reference. With
    ``json_object``, a request's value must be a JSON object; the service checks the rest
    (the rules check an action)."""

    default_error_messages = {"invalid": "Not a valid object."}

    def __init__(self, component: str, json_object: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.component = component
        self.json_object = json_object

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if self.json_object and not isinstance(value, dict):
            raise self.make_error("invalid")
        return value


def _refs_in(schema: Any) -> list[str]:
    if isinstance(schema, dict):
        found = [schema["$ref"].removeprefix(COMPONENTS)] if "$ref" in schema else []
        return found + [name for value in schema.values() for name in _refs_in(value)]
    if isinstance(schema, list):
        return [name for value in schema for name in _refs_in(value)]
    return []


def add_component(spec: Any, name: str) -> None:
    """Add a table component and every table component it refers to, once."""
    tables = table_components()
    pending = [name]
    while pending:
        current = pending.pop()
        if current in spec.components.schemas or current not in tables:
            continue
        spec.components.schema(current, tables[current])
        pending.extend(_refs_in(tables[current]))


def component_ref(self: Any, field: fields.Field, **kwargs: Any) -> Schema:
    """apispec attribute function: a ``Ref`` field as a ``$ref`` (nullable: anyOf with null)."""
    if not isinstance(field, Ref):
        return {}
    add_component(self.spec, field.component)
    target = ref(field.component)
    return {"anyOf": [target, {"type": "null"}]} if field.allow_none else target
