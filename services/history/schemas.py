"""Query and response bodies of the history service (the OpenAPI spec is generated from these)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from services.schemas import LogEntry, Seat, Strict


# -- queries -----------------------------------------------------------------------------
class ReplayQuery(Strict):
    version = fields.Integer(
        validate=validate.Range(min=1),
        load_default=None,
        metadata={"description": "the version to replay to; default: the latest"},
    )
    seat = fields.Integer(
        validate=validate.Range(min=0),
        load_default=None,
        metadata={
            "description": "whose view; default: a spectator's. Seats: finished matches only"
        },
    )


class PageQuery(Strict):
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)


class PlayerMatchesQuery(PageQuery):
    before = fields.Float(
        load_default=None,
        metadata={"description": "only matches created before this epoch time (the next page)"},
    )


# -- responses ---------------------------------------------------------------------------
class Entry(LogEntry):
    rules_version = fields.String()
    state_hash = fields.String(
        allow_none=True, metadata={"description": "SHA-256 of the state after this entry"}
    )


class Log(ma.Schema):
    match = fields.String()
    status = fields.String()
    version = fields.Integer()
    revealed = fields.Boolean(metadata={"description": "finished: nothing is redacted"})
    seed = fields.String(allow_none=True, metadata={"description": "once finished"})
    seed_sha256 = fields.String(allow_none=True, metadata={"description": "published at start"})
    entries = fields.List(fields.Nested(Entry))


class Replay(ma.Schema):
    match = fields.String()
    version = fields.Integer()
    seat = fields.Integer(allow_none=True)
    status = fields.String(metadata={"description": "the match's status at that version"})
    view = fields.Dict(allow_none=True, metadata={"description": "null before the deal"})


class SeedCheck(ma.Schema):
    sha256 = fields.String(allow_none=True, metadata={"description": "published at start"})
    revealed = fields.Boolean()
    matches = fields.Boolean(metadata={"description": "SHA-256(seed) is the published one"})


class Divergence(ma.Schema):
    version = fields.Integer()
    kind = fields.String(allow_none=True)
    check = fields.String(
        metadata={
            "description": "sequence, seed, rules (a rules version this service does not know), setup, events,"
            " to_act, state_hash, result or action"
        }
    )
    message = fields.String()
    recorded = fields.Raw(allow_none=True)
    replayed = fields.Raw(allow_none=True)


class Verification(ma.Schema):
    match = fields.String()
    ok = fields.Boolean()
    version = fields.Integer()
    checked = fields.Integer(metadata={"description": "entries replayed (the deal and actions)"})
    seed = fields.Nested(SeedCheck)
    rules_versions = fields.List(fields.String())
    first_divergence = fields.Integer(allow_none=True)
    divergences = fields.List(fields.Nested(Divergence))


class SheetSeat(Seat):
    team = fields.Integer(allow_none=True, metadata={"description": "index in teams"})


class ScoreSheet(ma.Schema):
    match = fields.String()
    game = fields.String()
    variant = fields.String()
    status = fields.String()
    version = fields.Integer()
    seats = fields.List(fields.Nested(SheetSeat))
    teams = fields.List(fields.List(fields.Integer()))
    round = fields.Integer(metadata={"description": "the round being played, or rounds played"})
    rounds = fields.List(
        fields.List(fields.Integer()), metadata={"description": "per round, points per seat"}
    )
    totals = fields.List(fields.Integer())
    winners = fields.List(fields.Integer(), allow_none=True)


class MatchSummary(ma.Schema):
    id = fields.String()
    game = fields.String()
    variant = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    status = fields.String(metadata={"description": "open, running or finished"})
    version = fields.Integer(metadata={"description": "the last log entry in this summary"})
    created = fields.String()
    created_by = fields.String(allow_none=True)
    started = fields.String(allow_none=True)
    finished = fields.String(allow_none=True)
    seats = fields.List(fields.Nested(Seat))
    seed_sha256 = fields.String(allow_none=True)
    seed = fields.String(allow_none=True, metadata={"description": "once finished"})
    result = fields.Dict(allow_none=True)
    moves = fields.Integer()
    seat = fields.Integer(allow_none=True, metadata={"description": "the player's seat"})
    won = fields.Boolean(allow_none=True, metadata={"description": "null until finished"})


class PlayerMatches(ma.Schema):
    player = fields.String()
    matches = fields.List(fields.Nested(MatchSummary))


class Standing(ma.Schema):
    rank = fields.Integer()
    player = fields.String()
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True)
    rating = fields.Float(metadata={"description": "mu - 3 sigma, the sort key"})
    mu = fields.Float()
    sigma = fields.Float()
    matches = fields.Integer()
    wins = fields.Integer()


class Leaderboard(ma.Schema):
    game = fields.String()
    players = fields.List(fields.Nested(Standing))
