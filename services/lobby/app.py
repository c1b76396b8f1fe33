"""The lobby service over HTTP: thin views that parse, call the application layer, return.

Every view but ``POST /v1/players`` needs ``Authorization: Bearer <token>``; the
application layer (``application.py``) does the work and raises a domain error
(``services/errors.py``) for anything it will not do, which ``services/http.py`` turns
into the one error shape with its status.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

import redis
from flask import Flask, Response, current_app, g, request
from flask.views import MethodView

from services.errors import BadRequest
from services.http import (
    Blueprint,
    ErrorSchema,
    create_app,
    direct,
    error_response,
    request_id,
    request_language,
)
from services.ratelimit import RateLimits
from services.settings import Settings
from shared.redisconn import UNAVAILABLE

from . import schemas
from .application import Lobby
from .players import Player, bearer_token

POLL_AGAIN = {
    "Retry-After": {
        "description": "present when the server was too busy to wait and had nothing new: "
        "poll again after this many seconds",
        "schema": {"type": "integer"},
    }
}
BEARER_SCHEME = "bearerAuth"
HIDDEN_TABLE = (
    "a table of your duplicate group, hidden from you until every table of the group has "
    "finished (duplicate_table_hidden): it is dealt the cards you hold"
)
STREAM_403 = f"the ticket is for another match (ticket_mismatch), or {HIDDEN_TABLE}"
ERRORS = {
    400: "malformed request",
    401: "no or unknown bearer token",
    403: "you have no seat in this match, or your seat is not to act now",
    404: "no such match",
    409: "the match's state does not allow it",
    415: "a body sent without Content-Type: application/json",
    422: "illegal action: the reason and your legal actions",
    429: "over a rate limit: Retry-After says when to try again",
    503: "Redis or the rules service does not answer",
}

# The stream's body, as OpenAPI 3.1 can say it: a text/event-stream string whose content is
# a sequence of events, each a StreamEvent (an SSE parser's event name, id, retry and data,
# the data parsed as JSON), one of the events of ``schemas.STREAM_EVENTS`` by its name.
STREAM_EVENT = {
    "description": "one event of the stream, by its `event` name",
    "oneOf": [{"$ref": f"#/components/schemas/{event.__name__}"} for event in schemas.STREAM_EVENTS.values()],
    "discriminator": {
        "propertyName": "event",
        "mapping": {name: f"#/components/schemas/{event.__name__}" for name, event in schemas.STREAM_EVENTS.items()},
    },
}  # fmt: skip
STREAM_BODY = {
    "type": "string",
    "contentMediaType": "text/event-stream",
    "contentSchema": {"type": "array", "items": {"$ref": "#/components/schemas/StreamEvent"}},
}


players = Blueprint("players", __name__, url_prefix="/v1/players", description="Players and tokens")
matches = Blueprint(
    "matches", __name__, url_prefix="/v1/matches", description="Matches, seats, actions and feed"
)
streams = Blueprint(
    "streams",
    __name__,
    url_prefix="/v1/matches",
    description="The streaming feed (Server-Sent Events), opened with a bearer token or a ticket",
)

quick = Blueprint(
    "quick", __name__, url_prefix="/v1/quick",
    description="Quick match: ask to play a game now, be seated with others who asked the same",
)  # fmt: skip
tournaments = Blueprint(
    "tournaments", __name__, url_prefix="/v1/tournaments",
    description="Tournaments: register, play each round's match, follow the standings",
)  # fmt: skip

duplicates = Blueprint(
    "duplicates", __name__, url_prefix="/v1/duplicates",
    description="Duplicate deals: tables dealt the same cards, compared deal by deal",
)  # fmt: skip


def lobby() -> Lobby:
    return current_app.extensions["lobby"]


@matches.before_request
@quick.before_request
@duplicates.before_request
@tournaments.before_request
def _authenticate() -> None:
    """Every match call needs a valid token: 401 comes before any other answer."""
    g.player = lobby().authenticate(bearer_token(request.headers.get("Authorization")))


@contextlib.contextmanager
def waiting_place(wait: float) -> Iterator[bool]:
    """Whether a long-poll asking to ``wait`` may: one of the process's ``LOBBY_MAX_WAITING``
    places, held while it waits; with none free it answers at once."""
    places = current_app.extensions["lobby_waiting"]
    held = wait > 0 and places.acquire(blocking=False)
    try:
        yield held
    finally:
        if held:
            places.release()


def token() -> str:
    return bearer_token(request.headers.get("Authorization"))


def caller() -> Player:
    """The player whose bearer token came with the request."""
    return g.player


def rate_limit(name: str, client: str) -> None:
    """Count this request against limit ``name`` for ``client``; over it: 429 (ratelimit.py)."""
    current_app.extensions["rate_limits"].hit(name, client)


def refusals(
    operation_id: str, *statuses: int, blueprint: Blueprint = matches, **descriptions: str
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Document a view that needs a bearer token: its operationId, its security and the error
    answers it may give (all in the one error shape); ``descriptions`` (``e409="..."``) say
    what a status means for this view where ``ERRORS`` is too general."""

    def document(view: Callable[..., Any]) -> Callable[..., Any]:
        documented = view
        for status in (401, 503, *statuses):
            description = descriptions.get(f"e{status}", ERRORS[status])
            alt = blueprint.alt_response(status, schema=ErrorSchema, description=description)
            documented = alt(documented)
        documented = blueprint.doc(operationId=operation_id, security=[{BEARER_SCHEME: []}])(
            documented
        )
        # Only their documentation: each of these wrappers would otherwise be one more call,
        # with its look-up of the app, on every request.
        view._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return view

    return document


@players.route("")
class PlayerCollection(MethodView):
    @players.arguments(schemas.NewPlayer())
    @players.response(201, schemas.PlayerCreated)
    @players.alt_response(400, schema=ErrorSchema, description=ERRORS[400])
    @players.alt_response(415, schema=ErrorSchema, description=ERRORS[415])
    @players.alt_response(429, schema=ErrorSchema, description=ERRORS[429])
    @players.alt_response(503, schema=ErrorSchema, description=ERRORS[503])
    @players.alt_response(415, schema=ErrorSchema, description=ERRORS[415])
    @players.doc(operationId="registerPlayer", security=[])
    def post(self, body: dict):
        """Register a player; the answer holds its bearer token, shown only this once.

        At most `LIMIT_REGISTER` registrations per client address (docs/operations.md)."""
        rate_limit("register", request.remote_addr or "-")
        player, token = lobby().register(body["name"].strip())
        return {"id": player.id, "name": player.name, "token": token}


def me(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "is_bot": player.bot}


@players.route("/me")
class PlayerMe(MethodView):
    @players.response(200, schemas.Me)
    @refusals("getMe", blueprint=players)
    def get(self):
        """The player whose token this is."""
        return me(lobby().authenticate(token()))


@players.route("/me/token")
class PlayerToken(MethodView):
    @players.response(201, schemas.NewToken)
    @refusals("rotateToken", 403, blueprint=players, e403="a bot seat's token")
    def post(self):
        """Rotate: a new token for you, shown only this once; the one you sent stops working."""
        player, new = lobby().rotate_token(token())
        return {**me(player), "token": new}

    @players.response(204)
    @refusals("logout", blueprint=players)
    def delete(self):
        """Log out: the token you sent stops working (401 from now on)."""
        lobby().revoke_token(token())


@matches.route("")
class MatchCollection(MethodView):
    @matches.arguments(schemas.MatchQuery(), location="query")
    @matches.response(200, schemas.MatchList)
    @refusals("listMatches", 400)
    def get(self, query: dict):
        """A page of matches, newest first: of one status or game, yours, with a free seat.

        `next` is the cursor of the following page (null on the last one).
        """
        return direct(lobby().list_matches(caller(), **query))  # 50 documents: no dump

    @matches.arguments(schemas.NewMatch())
    @matches.response(201, schemas.MatchOut)
    @refusals("createMatch", 400, 409, 415, 429,
              e400="malformed request, or a game, variant, player count or option the rules "
              "catalog does not allow",
              e409="too many open matches of yours (too_many_open_matches)")  # fmt: skip
    def post(self, body: dict):
        """Create an open match (game, variant, players and options checked by the catalog).

        Refused with 429 past `LIMIT_NEW_MATCHES` per player, 409 `too_many_open_matches`
        past `OPEN_MATCHES_PER_PLAYER` open ones, and 503 `store_full` when Redis is
        nearly full (moves still go on then). An open match unchanged for
        `OPEN_MATCH_IDLE_S` seconds is deleted."""
        rate_limit("new_matches", caller().id)
        return lobby().create_match(
            caller(), body["game"], body["variant"], body["players"], body["options"],
            body["autostart"], body["turn_timeout"], body["bot_pace"], sit_in=body["sit_in"],
        )  # fmt: skip


@quick.route("")
class QuickMatches(MethodView):
    @quick.arguments(schemas.NewQuickMatch())
    @quick.response(202, schemas.QuickMatchOut)
    @refusals("askQuickMatch", 400, 403, 409, 415, 429, blueprint=quick,
              e400="malformed request, or a game, variant, player count, option or bot "
              "level the rules catalog does not allow",
              e403="a bot seat's token cannot queue",
              e409="you have a request waiting already (too_many_requests_waiting), or the "
              "most open matches allowed (too_many_open_matches)")  # fmt: skip
    def post(self, body: dict):
        """Ask to play now: seated with others who asked for the same game, variant, player
        count and options, nearest in rating first (the accepted gap widens with the wait).

        With `bots_after`, the seats still free after that many seconds take bots of
        `bot_level`. Poll `GET /v1/quick/{id}?wait=` (at least every 90 s) to learn the match;
        counted against `LIMIT_NEW_MATCHES` as creating a match is."""
        rate_limit("new_matches", caller().id)
        return lobby().ask_quick_match(
            caller(), body["game"], body["variant"], body["players"], body["options"],
            body["bots_after"], body["bot_level"],
        )  # fmt: skip


@quick.route("/<request_id>")
class QuickMatchDetail(MethodView):
    @quick.arguments(schemas.QuickMatchQuery(), location="query")
    @quick.response(200, schemas.QuickMatchOut, headers=POLL_AGAIN)
    @refusals("getQuickMatch", 400, 404, blueprint=quick, e404="no such request of yours")
    def get(self, query: dict, request_id: str):
        """Your request: once seated, its `match`; while it waits, up to `wait` seconds."""
        wait = query["wait"]
        with waiting_place(wait) as may_wait:
            found = lobby().poll_quick_match(caller(), request_id, wait if may_wait else 0)
        if wait > 0 and not may_wait and found["status"] in ("waiting", "opening"):
            return found, 200, {"Retry-After": "1"}
        return found

    @quick.response(200, schemas.QuickMatchOut)
    @refusals("cancelQuickMatch", 404, 409, blueprint=quick, e404="no such request of yours",
              e409="already seated (already_seated: details.match is your match)")  # fmt: skip
    def delete(self, request_id: str):
        """Leave the queue; a request already cancelled or abandoned stays as it is."""
        return lobby().cancel_quick_match(caller(), request_id)


@duplicates.route("")
class DuplicateGroups(MethodView):
    @duplicates.arguments(schemas.NewDuplicate())
    @duplicates.response(201, schemas.DuplicateOut)
    @refusals("openDuplicate", 400, 403, 409, 415, 429, blueprint=duplicates,
              e400="malformed request, a game, variant, player count, option or bot "
              "strategy the rules catalog does not allow, or a table count or seats out of "
              "range (bad_tables, bad_seats)",
              e403="a bot seat's token cannot open a group",
              e409="too many open matches of yours (too_many_open_matches)")  # fmt: skip
    def post(self, body: dict):
        """Open a duplicate group: `tables` matches of one setup, dealt the same cards from
        one seed committed now, the entrants rotated over the seats; each table deals itself.

        The seed is revealed once every table has finished; then the group compares the
        tables deal by deal. Each table counts against `LIMIT_NEW_MATCHES`."""
        for _ in range(body["tables"]):
            rate_limit("new_matches", caller().id)
        return lobby().open_duplicate(
            caller(), body["game"], body["variant"], body["players"], body["options"],
            body["tables"], body["seats"], body["bot_level"], body["turn_timeout"],
            body["bot_pace"],
        )  # fmt: skip


@duplicates.route("/<group_id>")
class DuplicateDetail(MethodView):
    @duplicates.response(200, schemas.DuplicateOut)
    @refusals("getDuplicate", 404, blueprint=duplicates, e404="no such group")
    def get(self, group_id: str):
        """The group and its tables; once every table has finished, its seed and the
        deal-by-deal comparison, from the tables' logs."""
        return lobby().get_duplicate(group_id)


@tournaments.route("")
class TournamentCollection(MethodView):
    @tournaments.arguments(schemas.TournamentQuery(), location="query")
    @tournaments.response(200, schemas.TournamentList)
    @refusals("listTournaments", 400, blueprint=tournaments)
    def get(self, query: dict):
        """The newest tournaments (50), of one status if asked."""
        return lobby().list_tournaments(query["status"])

    @tournaments.arguments(schemas.NewTournament())
    @tournaments.response(201, schemas.TournamentOut)
    @refusals("createTournament", 400, 403, 415, 429, blueprint=tournaments,
              e400="malformed request; a game, variant, player count, option or bot level "
              "the rules catalog does not allow; more bots than places (bad_capacity); "
              "a start in the past (bad_start)",
              e403="a bot seat's token cannot create one")  # fmt: skip
    def post(self, body: dict):
        """Create a tournament taking registrations (you are not registered: register).

        Round one is paired at `starts_at`, or once `capacity` entrants registered; each
        round's matches are created and started by the server, the next round paired when
        they have all finished. Counted against `LIMIT_NEW_MATCHES`."""
        rate_limit("new_matches", caller().id)
        return lobby().create_tournament(caller(), body)


@tournaments.route("/<tournament_id>")
class TournamentDetail(MethodView):
    @tournaments.arguments(schemas.LongPoll(), location="query")
    @tournaments.response(200, schemas.TournamentOut, headers=POLL_AGAIN)
    @refusals("getTournament", 400, 404, blueprint=tournaments)
    def get(self, query: dict, tournament_id: str):
        """The tournament: entrants, rounds with their tables and matches, standings.

        Reading it also advances it when due (a start time passed, a round over). With
        `after` (its `version` you have) and `wait`, a long-poll: the answer comes once the
        tournament's log is past `after` (a round paired, an entrant registered or
        withdrawn, the end), else after `wait` seconds, as `GET .../events` does for a match
        (`LOBBY_MAX_WAITING` waiting polls a process; past them: at once, `Retry-After: 1`)."""
        wait, after = query["wait"], query["after"]
        with waiting_place(wait) as may_wait:
            found = lobby().poll_tournament(tournament_id, after, wait if may_wait else 0)
        if wait > 0 and not may_wait and found["version"] <= after:
            return found, 200, {"Retry-After": "1"}
        return found


@tournaments.route("/<tournament_id>/register")
class TournamentRegistration(MethodView):
    @tournaments.response(200, schemas.TournamentOut)
    @refusals("registerInTournament", 403, 404, 409, blueprint=tournaments,
              e403="a bot seat's token cannot register",
              e409="registered already (already_registered), full (tournament_full), or "
              "started (tournament_started)")  # fmt: skip
    def post(self, tournament_id: str):
        """Register: your seat at each round's table is taken for you when it is paired."""
        return lobby().register_in_tournament(caller(), tournament_id)

    @tournaments.response(200, schemas.TournamentOut)
    @refusals("withdrawFromTournament", 404, 409, blueprint=tournaments,
              e409="not registered (not_registered), or the tournament is over "
              "(tournament_finished)")  # fmt: skip
    def delete(self, tournament_id: str):
        """Withdraw: before the start you leave it; after, your match being played is
        resigned and you are paired no more (your standing stays, marked withdrawn)."""
        return lobby().withdraw_from_tournament(caller(), tournament_id)


@matches.route("/<match_id>")
class MatchDetail(MethodView):
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.MatchOut)
    @refusals("getMatch", 400, 403, 404, e403=HIDDEN_TABLE)
    def get(self, match_id: str, lang: str | None = None):
        """The match with its version, seats and your seat's view (a spectator's if unseated).

        The view's facts are said in the answer's language (`lang`, else Accept-Language),
        the players by name."""
        return lobby().get_match(caller(), match_id)


@matches.route("/<match_id>/join")
class Join(MethodView):
    @matches.arguments(schemas.Join(), required=False)
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.MatchOut)
    @refusals("joinMatch", 400, 404, 409, 415,
              e400="malformed request, or no such seat in this match",
              e409="the seat is taken (or kept for another player), every seat is, you "
              "already sit here, or the match has started")  # fmt: skip
    def post(self, body: dict, match_id: str, lang: str | None = None):
        """Take a seat (the first free one if none is named); a full match starts itself.

        The body may be left out: then any free seat, as with `{}`."""
        return lobby().join(caller(), match_id, body["seat"], body["seed"])


@matches.route("/<match_id>/leave")
class Leave(MethodView):
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.MatchOut)
    @refusals("leaveMatch", 400, 404, 409,
              e409="you have no seat here (not_seated), the match is finished, a bot already "
              "plays your seat (already_sat_in), or no bot sits in in this match (sit_in_off)")  # fmt: skip
    def post(self, match_id: str, lang: str | None = None):
        """Give up your seat: before the start, the seat is free again; in a running match, a
        bot of the match's `sit_in` strategy plays it for you (`seat.sat_in`), until you
        take it back (`POST .../return`). The seat stays yours: the match counts for you."""
        return lobby().leave(caller(), match_id)


@matches.route("/<match_id>/return")
class Return(MethodView):
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.MatchOut)
    @refusals("returnToSeat", 400, 404, 409,
              e409="no bot sits in for you (not_sat_in), you have no seat here (not_seated), "
              "or the match is not running")  # fmt: skip
    def post(self, match_id: str, lang: str | None = None):
        """Take back the seat a bot has played for you since you left (or kept missing turns):
        you play it again from the next move (`seat.returned`)."""
        return lobby().take_seat_back(caller(), match_id)


@matches.route("/<match_id>/bots")
class Bots(MethodView):
    @matches.arguments(schemas.NewBot())
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.MatchOut)
    @refusals("addBot", 400, 403, 404, 409, 415,
              e400="malformed request, no such seat, or a strategy the game does not have",
              e403="only the match's creator or a seated player may seat a bot",
              e409="the seat is taken, or the match has started")  # fmt: skip
    def post(self, body: dict, match_id: str, lang: str | None = None):
        """Seat a bot; the creator or a seated player may.

        The strategy must be one of its game's, as the rules catalog lists them; others: 400.
        """
        return lobby().add_bot(caller(), match_id, body["seat"], body["strategy"])


@matches.route("/<match_id>/start")
class Start(MethodView):
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.MatchOut)
    @refusals("startMatch", 400, 403, 404, 409,
              e403="only the match's creator or a seated player may start it",
              e409="a seat is free, or the match has already started")  # fmt: skip
    def post(self, match_id: str, lang: str | None = None):
        """Deal now that every seat is taken; the seed's SHA-256 is published."""
        return lobby().start(caller(), match_id)


@matches.route("/<match_id>/resign")
class Resign(MethodView):
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.MatchOut)
    @refusals("resignMatch", 400, 403, 404, 409, e403="you have no seat in this match",
              e409="the match is not running")  # fmt: skip
    def post(self, match_id: str, lang: str | None = None):
        """Resign your seat: the match ends now, every other side wins (result.reason)."""
        return lobby().resign(caller(), match_id)


@matches.route("/<match_id>/rematch")
class Rematch(MethodView):
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.MatchOut)
    @refusals("offerRematch", 400, 403, 404, 409, 429, e403="you did not play in this match",
              e409="the match is not finished, or you hold the most open matches allowed")  # fmt: skip
    def post(self, match_id: str, lang: str | None = None):
        """Offer the players of this finished match another: you get the new match, seated.

        Bots keep their seats; each other person's seat is kept for them (`reserved_for`)
        until they join it. Asking again, or after another player asked, gives the same one.
        A rematch is a new match: `LIMIT_NEW_MATCHES`, the open-match cap and the store's
        room apply as to `POST /v1/matches`.
        """
        rate_limit("new_matches", caller().id)
        return lobby().rematch(caller(), match_id)


@matches.route("/<match_id>/actions")
class Actions(MethodView):
    @matches.arguments(schemas.NewAction())
    @matches.arguments(schemas.Language(), location="query", as_kwargs=True)
    @matches.response(200, schemas.ActionResult)
    @refusals("submitAction", 400, 403, 404, 409, 415, 422, 429,
              e409="stale expected_version (details: the current version), the match has not "
              "started or is finished, an action_id reused for another action, or one whose "
              "answer is no longer kept (action_id_expired: not your latest action, or the "
              "match ended over an hour ago)")  # fmt: skip
    def post(self, body: dict, match_id: str, lang: str | None = None):
        """Act for your seat at expected_version: the new version, your events and view.

        `sentences` say your events, and the view its facts, in the answer's language
        (`lang`, else Accept-Language), the players by name; an illegal action's reason too.

        An unknown field in the action is refused (422) with its name; at most `LIMIT_MOVES`
        actions per player (the server's bots, whose tokens no client holds, are not counted)."""
        if not caller().bot:
            rate_limit("moves", caller().id)
        return direct(
            lobby().submit_action(
                match_id, caller(), body["action"], body["expected_version"], body["action_id"]
            )
        )


@matches.route("/<match_id>/events")
class Events(MethodView):
    @matches.arguments(schemas.EventsQuery(), location="query")
    @matches.response(200, schemas.EventsPage, headers=POLL_AGAIN)
    @refusals("pollEvents", 400, 403, 404, e403=HIDDEN_TABLE)
    def get(self, query: dict, match_id: str):
        """Entries after version `after`, redacted for you; waits up to `wait` s for one.

        A waiting poll holds one of the process's threads. When too many already wait, this
        one answers at once, and with `Retry-After: 1` if it has nothing new: moves and views
        keep their threads, and the client polls again a second later.

        Each entry's `sentences` say its events as you see them, in the answer's language
        (`lang`, else Accept-Language), the players by name.
        """
        wait = query["wait"]
        with waiting_place(wait) as may_wait:
            page = lobby().events(
                caller(), match_id, query["after"], wait if may_wait else 0, request_language()
            )
        if wait > 0 and not may_wait and not page["entries"]:
            return page, 200, {"Retry-After": "1"}
        return page


@matches.route("/<match_id>/stream-ticket")
class StreamTicket(MethodView):
    @matches.response(200, schemas.StreamTicket)
    @refusals("createStreamTicket", 403, 404, 429, e403=HIDDEN_TABLE)
    def post(self, match_id: str):
        """A single-use ticket, good for 30 s, to open this match's stream from a browser.

        At most `LIMIT_STREAM_TICKETS` tickets per player (docs/operations.md)."""
        rate_limit("stream_tickets", caller().id)
        return lobby().stream_ticket(caller(), match_id)


@streams.route("/<match_id>/stream")
class Stream(MethodView):
    @streams.arguments(schemas.StreamQuery(), location="query")
    @streams.doc(
        operationId="streamMatch",
        security=[{}, {BEARER_SCHEME: []}],
        responses={
            "200": {
                "description": "Server-Sent Events: one `entry` event per log entry after your "
                "last version, redacted for you, its version as the event id; comments as "
                "heartbeats; a `finished` event once the match is over, then the end; a "
                "`reconnect` event when the server goes away or the stream fell `FEED_BUFFER` entries "
                "behind. Each event is a `StreamEvent`",
                "content": {"text/event-stream": {"schema": STREAM_BODY}},
            },
            **{
                str(status): {"description": {403: STREAM_403}.get(status, ERRORS[status]),
                              "content": {"application/json": {"schema": ErrorSchema}}}
                for status in (400, 401, 403, 404, 429, 503)
            },
        },
    )  # fmt: skip
    def get(self, query: dict, match_id: str):
        """Follow a match live: every entry after `after` (or `Last-Event-ID`) once, in order.

        Authenticate with `?ticket=` (from `POST /v1/matches/{id}/stream-ticket`, for
        browsers) or `Authorization: Bearer`. Resume after a cut with the last id you got.
        Each entry's `sentences` are in `lang` (add it to the ticket's URL: `&lang=es`), else
        in the best of Accept-Language (a browser's EventSource sends its own).
        At most `FEED_STREAMS_PER_PLAYER` streams open per player (429 `too_many_streams`);
        a stream whose client takes no write for `FEED_HEARTBEAT_SECONDS` is closed, and one
        that falls `FEED_BUFFER` entries behind ends with `reconnect` (docs/operations.md).
        """
        service = lobby()
        if query["ticket"]:
            player = service.tickets.redeem(query["ticket"], match_id)
        else:
            player = service.authenticate(bearer_token(request.headers.get("Authorization")))
        after = last_event_id(request.headers.get("Last-Event-ID"), query["after"])
        sock = request.environ.get("gunicorn.socket")
        chunks = service.open_stream(player, match_id, after, sock, request_language())
        # direct_passthrough: the server iterates (and closes) the stream itself, without
        # Werkzeug's two wrappers around each chunk, and an idle stream's greenlet keeps a
        # shallower stack
        return Response(
            chunks,
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
            direct_passthrough=True,
        )


def last_event_id(header: str | None, after: int) -> int:
    """Where to resume: the browser's Last-Event-ID on a reconnect, else ``after``."""
    if header is None or header == "":
        return after
    if not header.isdigit() or len(header) > 12:
        raise BadRequest("Last-Event-ID must be a version number")
    return int(header)


def create_lobby_app(
    config: dict | None = None, service: Lobby | None = None, settings: Settings | None = None
) -> Flask:
    """The lobby app; without ``service``, on the store and rules service ``settings`` name.
    ``settings`` defaults to the environment's (``Settings.from_env``)."""
    settings = settings or Settings.from_env()
    if service is None:
        service = Lobby.from_settings(settings, request_id=request_id)
    app = create_app(
        "lobby",
        "Tapete lobby service",
        [players, matches, quick, duplicates, tournaments, streams],
        ready=service.ready,
        config=config,
        settings=settings,
        port=8000,
    )
    app.extensions["lobby"] = service
    app.extensions["rate_limits"] = RateLimits(
        service.client,
        {"register": settings.limit_register, "new_matches": settings.limit_new_matches,
         "moves": settings.limit_moves, "stream_tickets": settings.limit_stream_tickets},
    )  # fmt: skip
    # Long-polls waiting at once per process (LOBBY_MAX_WAITING): the other threads stay free
    # for moves and views whatever the clients do.
    app.extensions["lobby_waiting"] = threading.BoundedSemaphore(settings.lobby_max_waiting)
    spec = app.extensions["tapete_api"].spec
    spec.components.security_scheme(BEARER_SCHEME, {"type": "http", "scheme": "bearer"})
    for event in schemas.STREAM_EVENTS.values():
        spec.components.schema(event.__name__, schema=event)
    spec.components.schema("StreamEvent", STREAM_EVENT)

    @app.errorhandler(redis.exceptions.OutOfMemoryError)
    def _redis_full(exc: redis.RedisError):
        logging.getLogger("tapete.lobby").warning(
            "the match store is full", extra={"fields": {"error": repr(exc)}}
        )
        return error_response(503, "store_full", "the match store is full; try again later")

    @app.errorhandler(redis.ConnectionError)
    @app.errorhandler(redis.TimeoutError)
    def _redis_down(exc: redis.RedisError):
        logging.getLogger("tapete.lobby").warning(  # the service's JSON log, as its requests
            "the match store failed", extra={"fields": {"error": repr(exc)}}
        )
        return error_response(503, "unavailable", "the match store does not answer; try again")

    for unavailable in UNAVAILABLE:  # a cluster's failover too
        app.register_error_handler(unavailable, _redis_down)
    return app
