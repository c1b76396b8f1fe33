"""The history service over HTTP: thin, public, read-only views over ``History``.

No endpoint takes a token (see application.py for why none needs one). The read
models are written only by the consumer process (``consumer.py``).
"""

from __future__ import annotations

import redis
from flask import Flask, current_app
from flask.views import MethodView

from services.http import Blueprint, ErrorSchema, create_app, error_response, request_language
from services.settings import Settings
from shared.redisconn import UNAVAILABLE

from . import schemas
from .application import History

matches = Blueprint(
    "matches",
    __name__,
    url_prefix="/v1/matches",
    description="A match's log, replays, verification and score sheet",
)
players = Blueprint(
    "players", __name__, url_prefix="/v1/players", description="Each player's matches"
)
leaderboards = Blueprint(
    "leaderboards", __name__, url_prefix="/v1/leaderboards", description="Ratings per game"
)
tournaments = Blueprint(
    "tournaments", __name__, url_prefix="/v1/tournaments",
    description="A tournament's standings, from its log and its matches' logs",
)  # fmt: skip

HIDDEN_TABLE = (
    "a table of a duplicate group whose seed is not revealed yet, while a person plays at "
    "another of its tables (duplicate_table_hidden): watch it in the lobby"
)


def history() -> History:
    return current_app.extensions["history"]


@matches.route("/<match_id>/log")
class MatchLogView(MethodView):
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.Log)
    @matches.doc(operationId="getLog")
    @matches.alt_response(400, schema=ErrorSchema, description="a language not spoken here")
    @matches.alt_response(403, schema=ErrorSchema, description=HIDDEN_TABLE)
    @matches.alt_response(404, schema=ErrorSchema, description="no such match")
    def get(self, match_id: str, lang: str | None = None):
        """Every entry; hidden cards and actions redacted until the match is finished.

        Each entry's `sentences` say its events as shown, in the answer's language (`lang`,
        else Accept-Language), the players by name."""
        return history().match_log(match_id, request_language())


@matches.route("/<match_id>/replay")
class Replay(MethodView):
    @matches.arguments(schemas.ReplayQuery(), location="query")
    @matches.response(200, schemas.Replay)
    @matches.doc(operationId="replayMatch")
    @matches.alt_response(400, schema=ErrorSchema, description="version or seat out of range")
    @matches.alt_response(
        403, schema=ErrorSchema, description=f"a seat's view of a running match; {HIDDEN_TABLE}"
    )
    @matches.alt_response(404, schema=ErrorSchema, description="no such match")
    @matches.alt_response(409, schema=ErrorSchema, description="the log does not replay")
    def get(self, query: dict, match_id: str):
        """The view at a version, as a spectator or (finished matches) as a seat.

        Its facts are said in the answer's language (`lang`, else Accept-Language), the
        players by name."""
        return history().replay(match_id, query["version"], query["seat"], request_language())


@matches.route("/<match_id>/verify")
class Verify(MethodView):
    @matches.response(200, schemas.Verification)
    @matches.doc(operationId="verifyMatch")
    @matches.alt_response(404, schema=ErrorSchema, description="no such match")
    @matches.alt_response(409, schema=ErrorSchema, description="the match is not finished")
    def get(self, match_id: str):
        """Replay the log through the engine: seed, events and state hashes, and where they differ."""
        return history().verify(match_id)


@matches.route("/<match_id>/export")
class Export(MethodView):
    @matches.response(200, schemas.Export)
    @matches.doc(operationId="exportMatch")
    @matches.alt_response(404, schema=ErrorSchema, description="no such match")
    @matches.alt_response(409, schema=ErrorSchema, description="the match is not finished")
    def get(self, match_id: str):
        """The finished match as one document: its log, seeds, rules version and game.

        Verify it offline, with the engine only: `python -m shared.verify match.json`."""
        return history().export(match_id)


@matches.route("/<match_id>/scores")
class Scores(MethodView):
    @matches.response(200, schemas.ScoreSheet)
    @matches.doc(operationId="getScores")
    @matches.alt_response(403, schema=ErrorSchema, description=f"a running {HIDDEN_TABLE[2:]}")
    @matches.alt_response(404, schema=ErrorSchema, description="no such match")
    def get(self, match_id: str):
        """The score sheet: points per seat per round, totals and winners."""
        return history().scores(match_id)


@players.route("/<player_id>/matches")
class PlayerMatches(MethodView):
    @players.arguments(schemas.PlayerMatchesQuery(), location="query")
    @players.response(200, schemas.PlayerMatches)
    @players.doc(operationId="listPlayerMatches")
    @players.alt_response(404, schema=ErrorSchema, description="not a player id")
    def get(self, query: dict, player_id: str):
        """A player's matches, newest first, with their seat and whether they won."""
        return history().player_matches(player_id, query["limit"], query["before"])


@players.route("/<player_id>/ratings/<game>")
class PlayerRatingView(MethodView):
    @players.response(200, schemas.PlayerRating)
    @players.doc(operationId="getPlayerRating")
    @players.alt_response(404, schema=ErrorSchema, description="no such game, or never rated in it")
    def get(self, player_id: str, game: str):
        """A player's rating in a game (openskill Plackett-Luce; `rating` is mu - 3 sigma, the
        leaderboard's sort key and what quick match pairs by)."""
        return history().rating(player_id, game)


@leaderboards.route("/<game>")
class LeaderboardView(MethodView):
    @leaderboards.arguments(schemas.PageQuery(), location="query")
    @leaderboards.response(200, schemas.Leaderboard)
    @leaderboards.doc(operationId="getLeaderboard")
    @leaderboards.alt_response(404, schema=ErrorSchema, description="no such game")
    def get(self, query: dict, game: str):
        """A game's players by rating (openskill Plackett-Luce; mu - 3 sigma), best first."""
        return history().leaderboard(game, query["limit"])


@tournaments.route("/<tournament_id>/standings")
class TournamentStandingsView(MethodView):
    @tournaments.response(200, schemas.TournamentStandings)
    @tournaments.doc(operationId="getTournamentStandings")
    @tournaments.alt_response(404, schema=ErrorSchema, description="no such tournament")
    def get(self, tournament_id: str):
        """The standings: points (a win or bye 1, a draw 0.5), Buchholz, games played.

        Replayed on each request from the tournament's log and its finished matches' logs,
        so they are what the logs say, whatever happened to any read model."""
        return history().tournament_standings(tournament_id)


def create_history_app(
    config: dict | None = None, service: History | None = None, settings: Settings | None = None
) -> Flask:
    """The history app; without ``service``, on the store ``settings`` names (REDIS_URL,
    FEED_PARTITIONS). ``settings`` defaults to the environment's (``Settings.from_env``)."""
    settings = settings or Settings.from_env()
    if service is None:
        service = History.from_settings(settings)
    app = create_app(
        "history",
        "Tapete history service",
        [matches, players, leaderboards, tournaments],
        ready=service.ready,
        config=config,
        settings=settings,
        port=8002,
    )
    app.extensions["history"] = service

    def _redis_down(exc: redis.RedisError):
        return error_response(503, "unavailable", "the match store does not answer; try again")

    for unavailable in UNAVAILABLE:  # a cluster's failover too
        app.register_error_handler(unavailable, _redis_down)
    return app
