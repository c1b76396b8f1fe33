"""Schemas that more than one service uses: strict request bodies, a seat, a match-log entry."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields


class Strict(ma.Schema):
    """A request body: an unknown field is a 400, not silently ignored."""

    class Meta:
        unknown = ma.RAISE


class Seat(ma.Schema):
    seat = fields.Integer()
    player = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True, metadata={"description": "the bot's strategy, if a bot"})
    reserved_for = fields.String(
        metadata={
            "description": "a free seat a rematch keeps for this player: only they may take it"
        }
    )


class LogEntry(ma.Schema):
    """One entry of a match log as a reader may see it (docs/match-log.md)."""

    version = fields.Integer()
    time = fields.String()
    kind = fields.String(metadata={"description": "match.created, seat.joined, action, ..."})
    actor = fields.Dict()
    status = fields.String()
    to_act = fields.List(fields.Integer())
    deadline = fields.Dict(allow_none=True)
    action = fields.Dict(
        allow_none=True, metadata={"description": "null where the reader may not see it"}
    )
    events = fields.List(
        fields.Dict(), metadata={"description": "cards the reader may not see are null"}
    )
    seat = fields.Integer()
    player = fields.Dict()
    strategy = fields.String()
    match = fields.Dict()
    seed_sha256 = fields.String()
    setup = fields.Dict()
    finished = fields.Boolean()
    result = fields.Dict(allow_none=True)
    seed = fields.String(metadata={"description": "revealed by the entry that finishes the match"})
    turn_deadline = fields.String(
        allow_none=True,
        metadata={"description": "when the turn timer plays for the persons to act"},
    )
    reason = fields.String(metadata={"description": "match.ended: resigned or abandoned"})
    rematch = fields.String(metadata={"description": "rematch.offered: the new match"})
