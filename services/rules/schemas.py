"""Request and response bodies of the rules service (the OpenAPI spec is generated from these)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from services.rules.seal import SIG
from services.schemas import (  # noqa: F401  (Language: the rules' query parameter too)
    MAX_PLAYERS,
    AsIs,
    Deadline,
    GameEntry,
    Language,
    Strict,
    View,
    optional,
)
from services.spec import Ref

MAX_NAME = 40  # a player's name, as the lobby allows it

State = fields.Dict(
    keys=fields.String(),
    required=True,
    metadata={
        "description": "the match state exactly as setup or apply returned it (opaque); "
        "sealed by this service: a state without its seal, or altered, is refused (400 "
        "invalid_state)",
        "required": [SIG],
        "properties": {
            SIG: {
                "type": "string",
                "description": "the seal: HMAC-SHA256 of the rest of the state, in hex, under "
                "the service's key (only this service can make one)",
            }
        },
    },
)
StateHash = fields.String(
    required=True,
    metadata={"description": "SHA-256 of the state's canonical JSON without its seal (the log's)"},
)
Seat = fields.Integer(
    required=True,
    allow_none=True,
    strict=True,
    metadata={"description": "a seat 0..n-1; null for a spectator (view) or the server (timeouts)"},
)


def names() -> fields.List:
    """The players' names by seat, for sentences and facts (optional)."""
    return fields.List(
        fields.String(allow_none=True, validate=ma.validate.Length(min=1, max=MAX_NAME)),
        load_default=optional(list),
        validate=ma.validate.Length(max=MAX_PLAYERS),
        metadata={
            "description": "the players' names by seat, for the sentences and facts (a missing "
            "or null name: Jugador 2 / Player 2 for seat 1); default: none"
        },
    )


class GameDetail(GameEntry):
    rules = fields.String(
        required=True, metadata={"description": "the rule text (Spanish), the specification"}
    )


class Catalog(ma.Schema):
    games = fields.List(fields.Nested(GameEntry), required=True)


class SetupRequest(Strict):
    variant = fields.String(
        load_default=optional("base"), metadata={"description": "default: base"}
    )
    players = fields.Integer(
        strict=True,
        load_default=optional(None),
        allow_none=True,
        validate=ma.validate.Range(min=1, max=MAX_PLAYERS),
        metadata={"description": "default: the variant's smallest player count"},
    )
    seed = fields.String(
        load_default=optional(None),
        allow_none=True,
        validate=ma.validate.Length(min=1, max=256),
        metadata={"description": "the same seed deals the same; default: a random one"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "overrides of the variant's options; default: none"},
    )
    rules_version = fields.Integer(
        strict=True,
        load_default=optional(None),
        allow_none=True,
        metadata={
            "description": "deal under this version of the game's rules (a recorded match's);"
            " null or absent: the current one. A later version than this service knows is refused"
        },
    )
    names = names()


class SetupResponse(ma.Schema):
    state = fields.Dict(keys=fields.String(), required=True, metadata={"description": "sealed"})
    state_hash = StateHash
    rules_version = fields.Integer(
        required=True,
        metadata={"description": "the version of the game's rules the match was dealt under"},
    )
    to_act = fields.List(fields.Integer(), required=True)
    events = fields.List(
        Ref("Event"),
        required=True,
        metadata={"description": "the deal; private parts for their seats only"},
    )
    texts = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "each event as a sentence, as a spectator reads it"},
    )
    finished = fields.Boolean(
        required=True, metadata={"description": "the deal itself ended the match (99: a trío)"}
    )
    result = Ref("Result", required=True, allow_none=True)
    deadline = AsIs(Deadline, required=True, allow_none=True)


class StateSeatRequest(Strict):
    state = State
    seat = Seat
    names = names()


class ApplyRequest(StateSeatRequest):
    action = Ref("Action", json_object=True, required=True)


class ActionsResponse(ma.Schema):
    actions = fields.List(Ref("Action"), required=True)


class ApplyResponse(ma.Schema):
    state = fields.Dict(keys=fields.String(), required=True, metadata={"description": "sealed"})
    state_hash = StateHash
    events = fields.List(Ref("Event"), required=True)
    texts = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "each event as a sentence, as the acting seat reads it (the server: "
            "a spectator): said after redaction, so no sentence names a card that seat may not "
            "see"
        },
    )
    to_act = fields.List(fields.Integer(), required=True)
    finished = fields.Boolean(required=True)
    result = Ref("Result", required=True, allow_none=True)
    deadline = AsIs(Deadline, required=True, allow_none=True)
    view = AsIs(
        View,
        required=True,
        metadata={"description": "the acting seat's view after the action (server: a spectator's)"},
    )
    undoable = fields.Boolean(
        required=True,
        metadata={
            "description": "a solitaire's move its player may take back: it showed no card not "
            "seen before and drew no chance (false in a match of more players)"
        },
    )
