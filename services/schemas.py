"""Schemas that more than one service uses: strict request bodies, seats, the view, log entries.

Response schemas mark every field the service always sends as required, so generated
clients get non-optional types. The hot answers (views, log entries) are sent as the code
built them: ``AsIs`` documents a nested schema without dumping through it, and the tests
check the answers against the specs instead.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from services.lobby.match import STATUSES
from services.lobby_events import SITTING_IN
from services.spec import Ref
from shared.engine import all_games
from shared.engine.language import DEFAULT_LANGUAGE, LANGUAGES
from shared.entry_kinds import ENTRY_KINDS

GAME_IDS = tuple(game.id for game in all_games())
MAX_PLAYERS = max(game.players[1] for game in all_games())


class Strict(ma.Schema):
    """A request body: an unknown field is a 400, not silently ignored."""

    class Meta:
        unknown = ma.RAISE


def optional(value: Any) -> Any:
    """A request field's server-side default, given as a callable so that the spec does not
    publish it as a JSON Schema default (generated clients would then always send it)."""
    return lambda: value() if callable(value) else value


class Language(Strict):
    """The language of the answer's sentences, facts and refusals: a query parameter of every
    endpoint that answers with events or views (a value it does not speak: 400)."""

    lang = fields.String(
        load_default=optional(None),
        validate=ma.validate.OneOf(LANGUAGES),
        metadata={
            "description": f"{' or '.join(LANGUAGES)}; without it, the best of the request's "
            f"Accept-Language header, else {DEFAULT_LANGUAGE}"
        },
    )


class _AsIs(fields.Nested):
    """A nested schema that documents the value but passes it through unchanged on dump."""

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return nested_obj


def AsIs(nested: type[ma.Schema] | str, **kwargs: Any) -> fields.Field:  # noqa: N802 - a field
    """A value documented by a schema and passed through unchanged on dump: a marshmallow
    schema, or the name of a component built from declarations (``services/spec.py``)."""
    if isinstance(nested, str):
        return Ref(nested, **kwargs)
    return _AsIs(nested, **kwargs)


def status(metadata: dict | None = None, **kwargs: Any) -> fields.String:
    """A match's status (one of STATUSES)."""
    about = {"description": "open (seats being taken), running or finished", **(metadata or {})}
    return fields.String(validate=validate.OneOf(STATUSES), metadata=about, **kwargs)


def game_id(metadata: dict | None = None, **kwargs: Any) -> fields.String:
    """A game id of the rules catalog (one of GAME_IDS). Documented as an enum, checked by
    the service itself, which names an unknown game with its own code (unknown_game)."""
    return fields.String(metadata={"enum": list(GAME_IDS), **(metadata or {})}, **kwargs)


class SatIn(ma.Schema):
    """The bot sitting in for a seat's person: the seat, its player and rating stay theirs."""

    strategy = fields.String(required=True, metadata={"description": "the bot's strategy"})
    strategy_version = fields.String(
        required=True, metadata={"description": "which code of that strategy plays"}
    )
    reason = fields.String(
        required=True,
        validate=validate.OneOf(SITTING_IN),
        metadata={"description": "left: the person left the match; timeouts: they kept "
                  "missing turns"},
    )  # fmt: skip


class Seat(ma.Schema):
    seat = fields.Integer(required=True)
    player = fields.String(required=True, allow_none=True, metadata={"description": "null: free"})
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(
        required=True, allow_none=True, metadata={"description": "the bot's strategy, if a bot"}
    )
    reserved_for = fields.String(
        metadata={
            "description": "a free seat a rematch keeps for this player: only they may take it"
        }
    )
    seed = fields.String(
        metadata={"description": "the seed its player gave when joining, for the deal (public)"}
    )
    sat_in = AsIs(
        SatIn,
        metadata={
            "description": "a running match's seat a bot plays for its person (who left, or "
            "kept missing turns) until they take it back (POST .../return); absent: they play"
        },
    )


#: A window the server's timer closes: a component of ``services/spec.py`` (``Deadline``).
Deadline = "Deadline"


class Actor(ma.Schema):
    """Who made a log entry: a player from a seat, or the server (``system``)."""

    player = fields.String(required=True, allow_none=True)
    seat = fields.Integer(required=True, allow_none=True)
    system = fields.Boolean(
        required=True, metadata={"description": "the server acted (a timer, an autostart)"}
    )
    strategy = fields.String(
        metadata={"description": "an action by a bot sitting in for the seat's person: its "
                  "strategy"}
    )  # fmt: skip
    strategy_version = fields.String(
        metadata={"description": "an action by a bot sitting in: which code of its strategy"}
    )


class Players(ma.Schema):
    min = fields.Integer(required=True)
    max = fields.Integer(required=True)


#: What one seat (or a spectator) sees of a match: the ``View`` union of ``services/spec.py``,
#: one typed view per game (discriminated on ``game``) built from the games' declarations.
View = "View"


class PlayerRef(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class Setup(ma.Schema):
    game = game_id(required=True)
    variant = fields.String(required=True)
    players = fields.Integer(required=True)
    options = fields.Dict(keys=fields.String(), required=True)
    rules_version = fields.Integer(
        metadata={"description": "the version of the game's rules it was dealt under"}
    )


class DuplicateOf(ma.Schema):
    group = fields.String(required=True, metadata={"description": "the group's id"})
    table = fields.Integer(required=True, metadata={"description": "this table, from 0"})
    matches = fields.List(
        fields.String(), required=True, metadata={"description": "every table's match, in order"}
    )
    seed_sha256 = fields.String(
        required=True, metadata={"description": "the seed the group committed to, every table's"}
    )
    people = fields.List(
        fields.List(fields.String()),
        metadata={
            "description": "by table, the persons seated there (bots left out): until the "
            "group's seed is revealed, a person of one table may not watch the others "
            "(duplicate_table_hidden); absent in tables opened before it was recorded"
        },
    )


class MatchDocument(ma.Schema):
    """A lobby match as anyone may see it: its setup, seats and progress."""

    id = fields.String(required=True)
    game = game_id(required=True)
    variant = fields.String(required=True)
    players = fields.Integer(required=True, metadata={"description": "seats"})
    options = fields.Dict(keys=fields.String(), required=True)
    autostart = fields.Boolean(required=True)
    status = status(required=True)
    created = fields.String(required=True, metadata={"description": "ISO 8601, UTC"})
    created_by = fields.String(required=True, metadata={"description": "the player id"})
    started = fields.String(metadata={"description": "once started"})
    seats = fields.List(AsIs(Seat), required=True)
    seed_sha256 = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the server seed's SHA-256, published when the match is created "
            "(null for a match created before that: then at its start); check the seed with it"
        },
    )
    seed = fields.String(
        metadata={"description": "revealed once the match is finished (a duplicate table's: "
                  "once every table of its group has)"}
    )  # fmt: skip
    to_act = fields.List(fields.Integer(), required=True)
    deadline = AsIs(Deadline, required=True, allow_none=True)
    result = Ref("Result", required=True, allow_none=True)
    turn_timeout = fields.Float(
        allow_none=True, metadata={"description": "seconds a seat may take before the server plays"}
    )
    bot_pace = fields.Float(
        allow_none=True,
        metadata={
            "description": "seconds a bot's move waits after the entry before it while a person "
            "sits in the match (null in matches older than the setting: at once)"
        },
    )
    turn_deadline = fields.String(
        allow_none=True,
        metadata={
            "description": "with a turn_timeout: when the server plays for the persons to act "
            "(UTC, RFC 3339), for a countdown"
        },
    )
    rematch = fields.String(
        metadata={"description": "a finished match's rematch: the new match offered its players"}
    )
    rematch_of = fields.String(metadata={"description": "the match this one is a rematch of"})
    sit_in = fields.String(
        allow_none=True,
        metadata={
            "description": "the strategy of the bot that plays a person's seat once they leave "
            "the running match or keep missing turns (their seat's sat_in); null (or absent, "
            "in matches older than the setting): none, and such a match is abandoned"
        },
    )
    duplicate = AsIs(
        DuplicateOf,
        metadata={"description": "a table of a duplicate group: its seed is revealed once "
                  "every table of the group has finished (GET /v1/duplicates/{group})"},
    )  # fmt: skip
    tournament = fields.Nested(
        "TournamentTable",
        metadata={"description": "a tournament's match: the tournament, round and table"},
    )
    missed_turns = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "seat -> turns the timer played for it in a row (see resign)"},
    )


class TournamentTable(ma.Schema):
    id = fields.String(required=True, metadata={"description": "the tournament"})
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)


class StandingLine(ma.Schema):
    """A tournament's standings line: the lobby's and the history's, from the same logs."""

    rank = fields.Integer(required=True)
    entrant = fields.String(required=True)
    name = fields.String(required=True)
    bot = fields.String(required=True, allow_none=True)
    points = fields.Float(
        required=True, metadata={"description": "a win or a bye 1, a draw 0.5, a loss 0"}
    )
    buchholz = fields.Float(
        required=True, metadata={"description": "the sum of one's opponents' points: the tiebreak"}
    )
    played = fields.Integer(required=True, metadata={"description": "games played, byes included"})
    wins = fields.Integer(required=True)
    byes = fields.Integer(required=True)
    withdrawn = fields.Boolean(required=True)
    matchpoints = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "a duplicate tournament's ranking score: each deal's result with a "
            "seat's cards against the other tables' with the same cards, 1 a table beaten, "
            "0.5 a tie; a bye scores the round's average. Null: not duplicate"
        },
    )


class LogEntry(ma.Schema):
    """One entry of a match log as a reader may see it (docs/match-log.md)."""

    version = fields.Integer(required=True)
    time = fields.String(required=True)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(ENTRY_KINDS),
    )
    actor = AsIs(Actor, required=True)
    status = status(required=True)
    to_act = fields.List(fields.Integer(), required=True)
    deadline = AsIs(Deadline, required=True, allow_none=True)
    action = Ref(
        "Action",
        allow_none=True,
        metadata={
            "description": "action entries: null (or absent) where the reader may not see it"
        },
    )
    events = fields.List(Ref("Event"), required=True)
    sentences = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "one per event, as you read it (hidden cards unnamed), in the "
            "answer's language (lang, else Accept-Language), the players by name"
        },
    )
    seat = fields.Integer(metadata={"description": "seat and bot entries: the seat"})
    player = AsIs(PlayerRef, metadata={"description": "seat and bot entries: who"})
    strategy = fields.String(metadata={"description": "bot.added, seat.sat_in: the bot's strategy"})
    strategy_version = fields.String(
        metadata={"description": "seat.sat_in: which code of that strategy sits in"}
    )
    match = AsIs(MatchDocument, metadata={"description": "match.created: the match as created"})
    seed_sha256 = fields.String(metadata={"description": "match.started: the seed's SHA-256"})
    seed_scheme = fields.Integer(
        metadata={
            "description": "match.started: how the deal seed was made (docs/match-log.md, "
            "Seeds); absent: 1, the server's seed alone"
        }
    )
    player_seeds = fields.List(
        fields.String(allow_none=True),
        metadata={"description": "match.started under seed scheme 2: each seat's seed, by seat"},
    )
    player_seed = fields.String(
        allow_none=True, metadata={"description": "seat.joined: the seed the player gave"}
    )
    setup = AsIs(Setup, metadata={"description": "match.started: what was dealt"})
    finished = fields.Boolean(metadata={"description": "action entries"})
    result = Ref("Result", allow_none=True, metadata={"description": "the finishing entry"})
    seed = fields.String(
        metadata={"description": "revealed by the entry that finishes the match (a duplicate "
                  "table's: by its seed.revealed)"}
    )  # fmt: skip
    turn_deadline = fields.String(
        allow_none=True,
        metadata={"description": "when the turn timer plays for the persons to act"},
    )
    reason = fields.String(
        metadata={
            "description": "match.ended: resigned or abandoned; seat.sat_in: left or timeouts"
        }
    )
    rematch = fields.String(metadata={"description": "rematch.offered: the new match"})
    group = fields.String(metadata={"description": "seed.revealed: the duplicate group"})


# -- a game's catalog entry: the rules service's catalog, and a match's export ------------
class VariantEntry(ma.Schema):
    id = fields.String(required=True)
    description = fields.String(required=True)
    players = fields.Nested(Players, required=True)
    options = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={"description": "the variant's option values"},
    )


class OptionEntry(ma.Schema):
    default = fields.Raw(required=True, metadata={"description": "a boolean, number or string"})
    description = fields.String(required=True)
    choices = fields.List(fields.Raw(), metadata={"description": "the allowed values, if listed"})
    minimum = fields.Float()
    maximum = fields.Float()


def json_schemas(description: str, name: str | None = None) -> fields.Dict:
    """A catalog entry's fields by name, each as JSON Schema (``name``: its key, where the
    attribute cannot be called so)."""
    return fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String()),
        required=True,
        metadata={"description": description},
        attribute=name,
        data_key=name,
    )


class EventTypeEntry(ma.Schema):
    type = fields.String(required=True, metadata={"description": "the event's `type` field"})
    description = fields.String(required=True)
    visibility = fields.String(
        required=True,
        validate=validate.OneOf(("public", "private", "maybe-private")),
        metadata={
            "description": "public: seen whole by everyone; private: carries `visible_to`, and "
            "its `card`/`cards` are null for everyone else; maybe-private: private when it "
            "carries `visible_to`"
        },
    )
    fields_ = json_schemas("each field of the event (besides `type`) as JSON Schema", "fields")
    required = fields.List(
        fields.String(), required=True, metadata={"description": "the fields it always has"}
    )


class ViewFieldsEntry(ma.Schema):
    public = json_schemas("the game's view fields every reader sees, as JSON Schema")
    private = json_schemas("the ones only the seat itself sees (null for a spectator)")


class FactTypeEntry(ma.Schema):
    id = fields.String(required=True, metadata={"description": "the fact's stable `id`"})
    description = fields.String(required=True)
    per_seat = fields.Boolean(
        required=True, metadata={"description": "about a seat (else about the table: seat null)"}
    )
    value = fields.Dict(
        keys=fields.String(), required=True, metadata={"description": "its value, as JSON Schema"}
    )
    label = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "its label in each language"},
    )


class ActionTypeEntry(ma.Schema):
    type = fields.String(
        required=True, metadata={"description": "the action's type, its `type` field"}
    )
    description = fields.String(required=True)
    phases = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": "the phases in which it exists; null: every phase of play"},
    )
    fields_ = json_schemas("each field of the action (besides `type`) as JSON Schema", "fields")
    required = fields.List(
        fields.String(), required=True, metadata={"description": "the fields it must have"}
    )


class GameEntry(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    rules_version = fields.Integer(
        required=True,
        metadata={"description": "the version of the game's rules; a match records it at setup"},
    )
    players = fields.Nested(Players, required=True)
    variants = fields.List(fields.Nested(VariantEntry), required=True)
    options = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(OptionEntry),
        required=True,
        metadata={"description": "every option: default, description, choices or bounds"},
    )
    actions = fields.List(
        fields.Nested(ActionTypeEntry),
        required=True,
        metadata={"description": "the game's action types with their fields (its action table)"},
    )
    events = fields.List(
        fields.Nested(EventTypeEntry),
        required=True,
        metadata={"description": "every event type the game emits, with its fields"},
    )
    view = fields.Nested(
        ViewFieldsEntry,
        required=True,
        allow_none=True,
        metadata={"description": "the game's own view fields (null: not typed yet)"},
    )
    facts = fields.List(
        fields.Nested(FactTypeEntry),
        required=True,
        metadata={"description": "the kinds of fact its views show"},
    )
    deck = fields.String(
        required=True,
        metadata={"description": "whose names its cards have: spanish or english"},
    )
    strategies = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "the bot strategies that play this game (for a lobby's bots)"},
    )
