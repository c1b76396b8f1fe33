"""Query and response bodies of the history service (the OpenAPI spec is generated from these)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from services.schemas import (
    MAX_PLAYERS,
    AsIs,
    GameEntry,
    Language,
    LogEntry,
    Seat,
    StandingLine,
    Strict,
    View,
    game_id,
    optional,
    status,
)
from services.spec import Ref


# -- queries -----------------------------------------------------------------------------
class ReplayQuery(Language):
    version = fields.Integer(
        validate=validate.Range(min=1),
        load_default=optional(None),
        metadata={"description": "the version to replay to; default: the latest"},
    )
    seat = fields.Integer(
        validate=validate.Range(min=0, max=MAX_PLAYERS - 1),
        load_default=optional(None),
        metadata={
            "description": "whose view; default: a spectator's. Seats: finished matches only"
        },
    )


class PageQuery(Strict):
    limit = fields.Integer(
        validate=validate.Range(min=1, max=200),
        load_default=optional(50),
        metadata={"description": "at most this many (default 50)"},
    )


class PlayerMatchesQuery(PageQuery):
    before = fields.Float(
        load_default=optional(None),
        metadata={"description": "only matches created before this epoch time (the next page)"},
    )


# -- responses ---------------------------------------------------------------------------
class Entry(LogEntry):
    rules_version = fields.String(
        required=True, metadata={"description": "the engine's version and the game"}
    )
    state_hash = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "SHA-256 of the state after this entry"},
    )


class Log(ma.Schema):
    match = fields.String(required=True)
    status = status(required=True)
    version = fields.Integer(required=True)
    revealed = fields.Boolean(
        required=True, metadata={"description": "finished: nothing is redacted"}
    )
    seed = fields.String(required=True, allow_none=True, metadata={"description": "once finished"})
    seed_sha256 = fields.String(
        required=True, allow_none=True, metadata={"description": "published at start"}
    )
    entries = fields.List(AsIs(Entry), required=True)


class Replay(ma.Schema):
    match = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    status = status(required=True, metadata={"description": "the match's status at that version"})
    view = AsIs(
        View, required=True, allow_none=True, metadata={"description": "null before the deal"}
    )


class SeedCheck(ma.Schema):
    sha256 = fields.String(
        required=True, allow_none=True, metadata={"description": "published at start"}
    )
    revealed = fields.Boolean(required=True)
    matches = fields.Boolean(
        required=True, metadata={"description": "SHA-256(seed) is the published one"}
    )


class Divergence(ma.Schema):
    version = fields.Integer(required=True)
    kind = fields.String(required=True, allow_none=True)
    check = fields.String(
        required=True,
        validate=validate.OneOf(
            (
                "sequence",
                "seed",
                "rules",
                "setup",
                "events",
                "to_act",
                "state_hash",
                "result",
                "action",
            )
        ),
    )
    message = fields.String(required=True)
    recorded = fields.Raw(
        required=True, allow_none=True, metadata={"description": "what the log holds (any JSON)"}
    )
    replayed = fields.Raw(
        required=True, allow_none=True, metadata={"description": "what the replay gave (any JSON)"}
    )


class Verification(ma.Schema):
    match = fields.String(required=True)
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    checked = fields.Integer(
        required=True, metadata={"description": "entries replayed (the deal and actions)"}
    )
    seed = fields.Nested(SeedCheck, required=True)
    rules_versions = fields.List(fields.String(), required=True)
    first_divergence = fields.Integer(required=True, allow_none=True)
    divergences = fields.List(fields.Nested(Divergence), required=True)


class ExportSeeds(ma.Schema):
    scheme = fields.Integer(
        required=True, metadata={"description": "the seed scheme (docs/match-log.md, Seeds)"}
    )
    server = fields.String(required=True, metadata={"description": "the server's revealed seed"})
    sha256 = fields.String(required=True, metadata={"description": "its commitment"})
    players = fields.List(
        fields.String(allow_none=True),
        required=True,
        allow_none=True,
        metadata={"description": "scheme 2: each seat's seed, by seat; else null"},
    )


class Export(ma.Schema):
    format = fields.String(required=True, metadata={"description": "tapete-match/1"})
    match = fields.String(required=True)
    game = AsIs(
        GameEntry,
        required=True,
        metadata={"description": "the game's catalog entry, as the rules service's GET /v1/games"},
    )
    rules_version = fields.Integer(
        required=True, metadata={"description": "the game's rules version the match was played by"}
    )
    seeds = fields.Nested(ExportSeeds, required=True)
    entries = fields.List(AsIs(Entry), required=True, metadata={"description": "the whole log"})


class SheetSeat(Seat):
    team = fields.Integer(
        required=True, allow_none=True, metadata={"description": "index in teams"}
    )


class ScoreSheet(ma.Schema):
    match = fields.String(required=True)
    game = game_id(required=True)
    variant = fields.String(required=True)
    status = status(required=True)
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SheetSeat), required=True)
    teams = fields.List(fields.List(fields.Integer()), required=True)
    round = fields.Integer(
        required=True, metadata={"description": "the round being played, or rounds played"}
    )
    rounds = fields.List(
        fields.List(fields.Integer()),
        required=True,
        metadata={"description": "per round, points per seat"},
    )
    totals = fields.List(fields.Integer(), required=True)
    winners = fields.List(fields.Integer(), required=True, allow_none=True)


class MatchSummary(ma.Schema):
    id = fields.String(required=True)
    game = game_id(required=True)
    variant = fields.String(required=True)
    players = fields.Integer(required=True)
    options = fields.Dict(keys=fields.String(), required=True)
    status = status(required=True)
    version = fields.Integer(
        required=True, metadata={"description": "the last log entry in this summary"}
    )
    created = fields.String(required=True)
    created_by = fields.String(required=True, allow_none=True)
    started = fields.String(required=True, allow_none=True)
    finished = fields.String(required=True, allow_none=True)
    seats = fields.List(fields.Nested(Seat), required=True)
    seed_sha256 = fields.String(required=True, allow_none=True)
    seed = fields.String(required=True, allow_none=True, metadata={"description": "once finished"})
    result = Ref("Result", required=True, allow_none=True)
    moves = fields.Integer(required=True)
    rules_version = fields.Integer(
        metadata={"description": "once started: the version of the game's rules it is played under"}
    )
    seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the player's seat"}
    )
    won = fields.Boolean(
        required=True, allow_none=True, metadata={"description": "null until finished"}
    )


class PlayerMatches(ma.Schema):
    player = fields.String(required=True)
    matches = fields.List(fields.Nested(MatchSummary), required=True)


class Standing(ma.Schema):
    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    is_bot = fields.Boolean(
        required=True,
        metadata={"description": "a bot: one row per strategy, however many seats it played"},
    )
    rating = fields.Float(required=True, metadata={"description": "mu - 3 sigma, the sort key"})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    matches = fields.Integer(required=True)
    wins = fields.Integer(required=True)


class PlayerRating(ma.Schema):
    player = fields.String(required=True)
    game = game_id(required=True)
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    is_bot = fields.Boolean(required=True)
    rating = fields.Float(required=True, metadata={"description": "mu - 3 sigma, as ranked"})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    matches = fields.Integer(required=True)
    wins = fields.Integer(required=True)


class Leaderboard(ma.Schema):
    game = game_id(required=True)
    players = fields.List(fields.Nested(Standing), required=True)


class TournamentStandings(ma.Schema):
    tournament = fields.String(required=True)
    name = fields.String(required=True)
    game = game_id(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(("registering", "running", "finished")),
    )
    round = fields.Integer(required=True, metadata={"description": "rounds paired so far"})
    rounds = fields.Integer(required=True, allow_none=True)
    duplicate = fields.Boolean(
        required=True, metadata={"description": "played duplicate, ranked by matchpoints"}
    )
    matches = fields.Integer(
        required=True, metadata={"description": "the tournament's matches finished so far"}
    )
    standings = fields.List(
        fields.Nested(StandingLine),
        required=True,
        metadata={
            "description": "ranked by points (a duplicate tournament: matchpoints), then "
            "Buchholz, then registration"
        },
    )
