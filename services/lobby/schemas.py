"""Request and response bodies of the lobby (the OpenAPI spec is generated from these)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from services.schemas import LogEntry, Seat, Strict
from shared.eventstore import MAX_ACTION_ID_LENGTH, MAX_WAIT_SECONDS

from .match import BOT_STRATEGIES, STATUSES


def _not_blank(value: str) -> None:
    if not value.strip() or not value.isprintable():
        raise ma.ValidationError("must be printable and not blank")


class JsonNumber(fields.Float):
    """A JSON number, strictly: not a string of digits, not a boolean."""

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


MAX_VERSION = 2**53  # far beyond any match; keeps stream ids within what Redis accepts


# -- requests ----------------------------------------------------------------------------
class NewPlayer(Strict):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=40), _not_blank])


class NewMatch(Strict):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    variant = fields.String(load_default="base", validate=validate.Length(min=1, max=64))
    players = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=16),
        metadata={"description": "seats; default: the variant's smallest player count"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "overrides of the variant's options (see the rules catalog)"},
    )
    autostart = fields.Boolean(
        load_default=True,
        truthy={True},
        falsy={False},
        metadata={"description": "deal as soon as the last seat is taken (else POST /start)"},
    )
    turn_timeout = JsonNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1.0, max=86400.0),
        metadata={
            "description": "seconds a seat may take to act; then the server plays a random "
            "legal action for it (default: no limit)"
        },
    )


class Join(Strict):
    seat = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={"description": "the seat to take; default: the first free one"},
    )


class NewBot(Strict):
    seat = fields.Integer(strict=True, required=True, validate=validate.Range(min=0))
    strategy = fields.String(
        required=True,
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={
            "description": "one of the game's strategies (its rules catalog entry lists them)"
        },
    )


class NewAction(Strict):
    action = fields.Dict(
        required=True,
        metadata={
            "description": 'one of your view\'s legal_actions, e.g. {"type": "play", "card": "1O"}'
        },
    )
    expected_version = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "the match version your view is of; a stale one gets 409"},
    )
    action_id = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=MAX_ACTION_ID_LENGTH),
        metadata={"description": "your id for this action: a retry returns the first answer"},
    )


class MatchQuery(Strict):
    status = fields.String(validate=validate.OneOf(STATUSES), load_default=None)
    game = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)
    mine = fields.Boolean(
        load_default=False,
        metadata={"description": "only matches you sit in, or where a rematch keeps you a seat"},
    )
    free_seats = fields.Boolean(
        load_default=False,
        metadata={"description": "only open matches with a seat anyone may take"},
    )
    cursor = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=160),
        metadata={"description": "the `next` of the previous page"},
    )


class EventsQuery(Strict):
    after = fields.Integer(
        validate=validate.Range(min=0, max=MAX_VERSION),
        load_default=0,
        metadata={"description": "the last version you have; entries after it are returned"},
    )
    wait = fields.Float(
        validate=validate.Range(min=0, max=MAX_WAIT_SECONDS),
        load_default=0.0,
        metadata={"description": "seconds to wait for a new entry when there is none yet"},
    )


class StreamQuery(Strict):
    after = fields.Integer(
        validate=validate.Range(min=0, max=MAX_VERSION),
        load_default=0,
        metadata={"description": "the last version you have (Last-Event-ID wins when sent)"},
    )
    ticket = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=128),
        metadata={"description": "a ticket from POST /v1/matches/{id}/stream-ticket"},
    )


# -- responses ---------------------------------------------------------------------------
class PlayerCreated(ma.Schema):
    id = fields.String()
    name = fields.String()
    token = fields.String(metadata={"description": "your bearer token: shown only this once"})


class MatchSummary(ma.Schema):
    id = fields.String()
    game = fields.String()
    variant = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    autostart = fields.Boolean()
    status = fields.String(metadata={"description": "open, running or finished"})
    created = fields.String()
    created_by = fields.String()
    started = fields.String()
    seats = fields.List(fields.Nested(Seat))
    seed_sha256 = fields.String(
        allow_none=True, metadata={"description": "published at start; check the seed with it"}
    )
    seed = fields.String(metadata={"description": "revealed once the match is finished"})
    to_act = fields.List(fields.Integer())
    deadline = fields.Dict(
        allow_none=True, metadata={"description": "a window the server closes: kind, seconds, at"}
    )
    result = fields.Dict(allow_none=True)
    turn_timeout = fields.Float(
        allow_none=True, metadata={"description": "seconds a seat may take before the server plays"}
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


class MatchOut(MatchSummary):
    version = fields.Integer(metadata={"description": "send it back as expected_version"})
    view = fields.Dict(
        allow_none=True,
        metadata={"description": "what your seat (a spectator: seat null) sees; null before start"},
    )


class MatchList(ma.Schema):
    matches = fields.List(fields.Nested(MatchSummary))
    next = fields.String(
        allow_none=True,
        metadata={
            "description": "the cursor of the next page (GET again with cursor=); null: none"
        },
    )


class ActionResult(ma.Schema):
    version = fields.Integer()
    events = fields.List(fields.Dict(), metadata={"description": "redacted for your seat"})
    view = fields.Dict()


class StreamTicket(ma.Schema):
    ticket = fields.String(required=True, metadata={"description": "single use, for this match"})
    expires_in = fields.Integer(required=True, metadata={"description": "seconds it stays good"})
    stream = fields.String(required=True, metadata={"description": "the stream URL with it"})


class EventsPage(ma.Schema):
    match = fields.String()
    version = fields.Integer(metadata={"description": "poll again with after=version"})
    status = fields.String(metadata={"description": "the match's status as of `version`"})
    finished = fields.Boolean(
        metadata={"description": "the match is over: nothing will follow, stop polling"}
    )
    entries = fields.List(fields.Nested(LogEntry))


# -- players, tokens (appended: the lobby's client features) ------------------------------------
class Me(ma.Schema):
    id = fields.String()
    name = fields.String()
    is_bot = fields.Boolean(metadata={"description": "a bot player (one per strategy)"})


class NewToken(Me):
    token = fields.String(
        metadata={"description": "your new bearer token: shown only this once; the old one is "
                  "revoked"}
    )  # fmt: skip
