"""Request and response bodies of the rules service (the OpenAPI spec is generated from these)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from services.schemas import Strict


class PassThrough(ma.Schema):
    """Dump declared fields and keep any others as they are: games add their own view fields."""

    class Meta:
        unknown = ma.INCLUDE

    @ma.post_dump(pass_original=True)
    def keep_extra(self, data: dict, original: dict, **kwargs) -> dict:
        if isinstance(original, dict):
            for key, value in original.items():
                data.setdefault(key, value)
        return data


State = fields.Dict(
    required=True,
    metadata={
        "description": "the match state exactly as setup or apply returned it (signed, opaque)"
    },
)
StateHash = fields.String(
    metadata={"description": "SHA-256 of the state's canonical JSON without its seal (the log's)"}
)
Seat = fields.Integer(
    required=True,
    allow_none=True,
    strict=True,
    metadata={"description": "a seat 0..n-1; null for a spectator (view) or the server (timeouts)"},
)
Action = fields.Dict(metadata={"description": 'an action, e.g. {"type": "play", "card": "1O"}'})


class Players(ma.Schema):
    min = fields.Integer()
    max = fields.Integer()


class VariantEntry(ma.Schema):
    id = fields.String()
    description = fields.String()
    players = fields.Nested(Players)
    options = fields.Dict(metadata={"description": "the variant's option values"})


class ActionTypeEntry(ma.Schema):
    type = fields.String(metadata={"description": "the action's type, its `type` field"})
    description = fields.String()
    phases = fields.List(
        fields.String(),
        allow_none=True,
        metadata={"description": "the phases in which it exists; null: every phase of play"},
    )
    fields_ = fields.Dict(
        attribute="fields",
        data_key="fields",
        keys=fields.String(),
        values=fields.Dict(),
        metadata={"description": "each field of the action (besides `type`) as JSON Schema"},
    )
    required = fields.List(fields.String(), metadata={"description": "the fields it must have"})


class GameEntry(ma.Schema):
    id = fields.String()
    name = fields.String()
    rules_version = fields.Integer(
        metadata={"description": "the version of the game's rules; a match records it at setup"}
    )
    players = fields.Nested(Players)
    variants = fields.List(fields.Nested(VariantEntry))
    options = fields.Dict(
        metadata={"description": "every option: default, description, choices or bounds"}
    )
    actions = fields.List(
        fields.Nested(ActionTypeEntry),
        metadata={"description": "the game's action types with their fields (its action table)"},
    )
    strategies = fields.List(
        fields.String(),
        metadata={"description": "the bot strategies that play this game (for a lobby's bots)"},
    )


class GameDetail(GameEntry):
    rules = fields.String(metadata={"description": "the rule text (Spanish), the specification"})


class Catalog(ma.Schema):
    games = fields.List(fields.Nested(GameEntry))


class SetupRequest(Strict):
    variant = fields.String(load_default="base")
    players = fields.Integer(strict=True, load_default=None, allow_none=True)
    seed = fields.String(
        load_default=None, allow_none=True, validate=ma.validate.Length(min=1, max=256)
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    rules_version = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "deal under this version of the game's rules (a recorded match's);"
            " null: the current one. A later version than this service knows is refused"
        },
    )


class SetupResponse(ma.Schema):
    state = fields.Dict()
    state_hash = StateHash
    rules_version = fields.Integer(
        metadata={"description": "the version of the game's rules the match was dealt under"}
    )
    to_act = fields.List(fields.Integer())
    events = fields.List(
        fields.Dict(), metadata={"description": "the deal; private parts for their seats only"}
    )
    deadline = fields.Dict(
        allow_none=True, metadata={"description": "a window the server's timer closes"}
    )


class StateSeatRequest(Strict):
    state = State
    seat = Seat


class ApplyRequest(StateSeatRequest):
    action = fields.Dict(
        required=True, metadata={"description": 'e.g. {"type": "play", "card": "1O"}'}
    )


class ActionsResponse(ma.Schema):
    actions = fields.List(Action)


class ApplyResponse(ma.Schema):
    state = fields.Dict()
    state_hash = StateHash
    events = fields.List(fields.Dict())
    to_act = fields.List(fields.Integer())
    finished = fields.Boolean()
    result = fields.Dict(allow_none=True)
    deadline = fields.Dict(
        allow_none=True, metadata={"description": "a window the server's timer closes"}
    )
    view = fields.Nested(
        "View",
        metadata={"description": "the acting seat's view after the action (server: a spectator's)"},
    )


class Zone(ma.Schema):
    owner = fields.Integer(allow_none=True)
    count = fields.Integer()
    cards = fields.List(
        fields.String(allow_none=True), metadata={"description": "null for a hidden card"}
    )


class View(PassThrough):
    game = fields.String()
    variant = fields.String()
    options = fields.Dict()
    players = fields.Integer()
    seat = fields.Integer(allow_none=True)
    phase = fields.String()
    to_act = fields.List(fields.Integer())
    legal_actions = fields.List(Action)
    zones = fields.Dict(keys=fields.String(), values=fields.Nested(Zone))
    scores = fields.List(fields.Integer())
    round = fields.Integer()
    rounds = fields.List(fields.List(fields.Integer()))
    teams = fields.List(fields.List(fields.Integer()))
    finished = fields.Boolean()
    result = fields.Dict(allow_none=True)
    deadline = fields.Dict(allow_none=True)
