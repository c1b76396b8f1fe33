"""Request and response bodies of the lobby (the OpenAPI spec is generated from these)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from services.schemas import (
    GAME_IDS,
    MAX_PLAYERS,
    AsIs,
    Language,
    LogEntry,
    MatchDocument,
    Seat,
    StandingLine,
    Strict,
    View,
    game_id,
    optional,
    status,
)
from services.spec import Ref
from shared.duplicate import MAX_TABLES, MIN_TABLES
from shared.engine.seeds import PLAYER_SEED_RULE
from shared.eventstore import MAX_ACTION_ID_LENGTH, MAX_WAIT_SECONDS

from .duplicates import ME
from .match import BOT_STRATEGIES, DEFAULT_SIT_IN, MAX_BOT_PACE_S
from .quick import DEFAULT_BOT_LEVEL

# A player's name: printable characters (Python's ``str.isprintable``: no control, format,
# surrogate, private-use or unassigned character, no separator but the space), not all spaces.
# The spec spells the rule as a pattern every regex dialect reads alike (ECMA-262, Python,
# Rust; no Unicode property classes): spaces, then a character that is none of the Basic
# Multilingual Plane's controls, format characters, private-use characters or separators
# (space included), any number of times, then spaces. Unassigned characters, and the few
# format and private-use ones beyond that plane, are refused too, though the pattern does
# not list them.
PRINTABLE_NAME = (
    r"^(?: *[^\u0000-\u0020\u007f-\u00a0\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891"
    r"\u08e2\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000"
    r"\ue000-\uf8ff\ufeff\ufff9-\ufffb])+ *$"
)


def _printable_and_not_blank(value: str) -> None:
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
    name = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=40), _printable_and_not_blank],
        metadata={
            "description": "1 to 40 printable characters (no control, format, private-use or "
            "unassigned character, no separator but the space), not all spaces; the pattern "
            "lists the characters refused in the Basic Multilingual Plane",
            "pattern": PRINTABLE_NAME,
        },
    )


def json_bool(default: bool, description: str) -> fields.Boolean:
    """A request's flag: JSON true or false only (not 1, "yes"), ``default`` when left out."""
    return fields.Boolean(
        load_default=optional(default),
        truthy={True},
        falsy={False},
        metadata={"description": description},
    )


class GameSetup(Strict):
    """What a new match, a quick-match request and a tournament name alike."""

    game = game_id(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "a game id of the rules catalog"},
    )
    variant = fields.String(
        load_default=optional("base"),
        validate=validate.Length(min=1, max=64),
        metadata={"description": "one of the game's variants; default: base"},
    )
    players = fields.Integer(
        strict=True,
        load_default=optional(None),
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_PLAYERS),
        metadata={"description": "seats; default: the variant's smallest player count"},
    )


class NewMatch(GameSetup):
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            "description": "overrides of the variant's options (see the rules catalog); "
            "default: none"
        },
    )
    autostart = json_bool(
        True, "deal as soon as the last seat is taken (else POST /start); default: true"
    )
    turn_timeout = JsonNumber(
        load_default=optional(None),
        allow_none=True,
        validate=validate.Range(min=1.0, max=86400.0),
        metadata={
            "description": "seconds a seat may take to act; then the server plays a random "
            "legal action for it (default: no limit)"
        },
    )
    bot_pace = JsonNumber(
        load_default=optional(None),
        allow_none=True,
        validate=validate.Range(min=0.0, max=MAX_BOT_PACE_S),
        metadata={
            "description": "seconds a bot's move waits after the entry before it, while a "
            "person sits in the match, so people can follow the bots' moves (a bot in a "
            "reaction window waits a person's reaction time instead; a match of bots only "
            "never waits); 0: at once (default: the server's BOT_PACE_S, 1 s)"
        },
    )
    sit_in = fields.String(
        load_default=optional(DEFAULT_SIT_IN),
        allow_none=True,
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={
            "description": "the strategy (one of the game's) of the bot that plays a person's "
            "seat once they leave the running match or miss their turn "
            "MISSED_TURNS_LIMIT (3) times in a row; they may take the seat back; null: no bot "
            "sits in, and such a match is abandoned (default: medium)"
        },
    )


class Join(Strict):
    seat = fields.Integer(
        strict=True,
        load_default=optional(None),
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_PLAYERS - 1),
        metadata={"description": "the seat to take; default: the first free one"},
    )
    seed = fields.String(
        load_default=optional(None),
        allow_none=True,
        metadata={
            "description": "your own seed for the deal, combined with the server's committed "
            "seed and the other seats' (docs/match-log.md, Seeds): with one, no party alone "
            f"chooses the deal; clients make a random one. {PLAYER_SEED_RULE} (else 400 "
            "bad_seed). Default: none (the seat adds nothing)"
        },
    )


class NewBot(Strict):
    seat = fields.Integer(
        strict=True, required=True, validate=validate.Range(min=0, max=MAX_PLAYERS - 1)
    )
    strategy = fields.String(
        required=True,
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={
            "description": "one of the game's strategies (its rules catalog entry lists them)"
        },
    )


class NewAction(Strict):
    action = Ref(
        "Action",
        json_object=True,
        required=True,
        metadata={"description": "one of your view's legal_actions, as it is"},
    )
    expected_version = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "the match version your view is of; a stale one gets 409"},
    )
    action_id = fields.String(
        load_default=optional(None),
        validate=validate.Length(min=1, max=MAX_ACTION_ID_LENGTH),
        metadata={
            "description": "your id for this action, unique in the match: a retry returns the "
            "first answer while it is your latest action (until an hour after the match ends); "
            "an older id gets 409 action_id_expired"
        },
    )


class MatchQuery(Strict):
    status = status(load_default=optional(None))
    game = game_id(validate=validate.OneOf(GAME_IDS), load_default=optional(None))
    limit = fields.Integer(
        validate=validate.Range(min=1, max=200),
        load_default=optional(50),
        metadata={"description": "at most this many (default 50)"},
    )
    mine = fields.Boolean(
        load_default=optional(False),
        metadata={
            "description": "only matches you sit in, or where a rematch keeps you a seat "
            "(default false)"
        },
    )
    free_seats = fields.Boolean(
        load_default=optional(False),
        metadata={"description": "only open matches with a seat anyone may take (default false)"},
    )
    cursor = fields.String(
        load_default=optional(None),
        validate=validate.Length(min=1, max=160),
        metadata={"description": "the `next` of the previous page"},
    )


class LongPoll(Strict):
    """A long-poll's query: the version the client has, and how long to wait for a newer one
    (a match's entries, a tournament's document)."""

    after = fields.Integer(
        validate=validate.Range(min=0, max=MAX_VERSION),
        load_default=optional(0),
        metadata={"description": "the last version you have (default 0): entries after it"},
    )
    wait = fields.Float(
        validate=validate.Range(min=0, max=MAX_WAIT_SECONDS),
        load_default=optional(0.0),
        metadata={"description": "seconds to wait for a new entry when there is none (default 0)"},
    )


class EventsQuery(LongPoll, Language):
    pass


class StreamQuery(Language):
    after = fields.Integer(
        validate=validate.Range(min=0, max=MAX_VERSION),
        load_default=optional(0),
        metadata={"description": "the last version you have (Last-Event-ID wins when sent)"},
    )
    ticket = fields.String(
        load_default=optional(None),
        validate=validate.Length(min=1, max=128),
        metadata={"description": "a ticket from POST /v1/matches/{id}/stream-ticket"},
    )


# -- responses ---------------------------------------------------------------------------
QUICK_STATUSES = ("waiting", "opening", "seated", "cancelled", "abandoned", "failed")


class NewQuickMatch(GameSetup):
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            "description": "overrides of the variant's options; only requests with exactly "
            "the same options sit together. Default: none"
        },
    )
    bots_after = JsonNumber(
        load_default=optional(None),
        allow_none=True,
        validate=validate.Range(min=0.0, max=3600.0),
        metadata={
            "description": "seconds after which the seats still free take bots (0: at once); "
            "null (the default): wait for people however long it takes"
        },
    )
    bot_level = fields.String(
        load_default=optional(None),
        allow_none=True,
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={"description": "the bots' strategy, one of the game's; default: medium"},
    )


class QuickMatchQuery(Strict):
    wait = fields.Float(
        validate=validate.Range(min=0, max=MAX_WAIT_SECONDS),
        load_default=optional(0.0),
        metadata={
            "description": "seconds to wait while the request is still waiting (default 0). "
            "Poll at least every 90 s: a request nobody polls leaves the queue (abandoned)"
        },
    )


class QuickMatchOut(ma.Schema):
    id = fields.String(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(QUICK_STATUSES),
        metadata={
            "description": "waiting; opening (seated at a table whose match is being "
            "opened: poll again); seated (`match` is yours: its seats are taken and it deals "
            "itself); cancelled; abandoned (not polled for 90 s); failed (`reason`)"
        },
    )
    match = fields.String(required=True, allow_none=True)
    game = game_id(required=True)
    variant = fields.String(required=True)
    players = fields.Integer(required=True)
    options = fields.Dict(keys=fields.String(), required=True)
    bots_after = fields.Float(required=True, allow_none=True)
    bot_level = fields.String(required=True)
    rating = fields.Float(
        required=True, metadata={"description": "your rating in the game when you asked"}
    )
    waited_s = fields.Float(required=True, metadata={"description": "seconds in the queue"})
    reason = fields.String(required=True, allow_none=True)


class NewDuplicate(NewMatch):
    """A duplicate group: the setup of a new match (``NewMatch``) for every table."""

    class Meta(Strict.Meta):
        exclude = ("autostart",)  # every table deals itself once its seats are taken

    tables = fields.Integer(
        strict=True,
        load_default=optional(MIN_TABLES),
        validate=validate.Range(min=MIN_TABLES, max=MAX_TABLES),
        metadata={"description": f"tables dealt the same cards, {MIN_TABLES} to {MAX_TABLES}; "
                  f"default {MIN_TABLES}"},
    )  # fmt: skip
    seats = fields.List(
        fields.String(validate=validate.OneOf((ME, *BOT_STRATEGIES))),
        load_default=optional(None),
        allow_none=True,
        validate=validate.Length(min=1, max=MAX_PLAYERS),
        metadata={
            "description": "the entrants, by their seat at the first table: a bot strategy of "
            f"the game, or {ME!r} (you, at most once); table t seats entrant p at seat "
            "(p + t) mod players. You play at the first table only: at the others a bot of "
            "`bot_level` holds your cards. Default: `bot_level` bots everywhere"
        },
    )
    bot_level = fields.String(
        load_default=optional(DEFAULT_BOT_LEVEL),
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={"description": "the bots holding your cards at the other tables, and every "
                  f"entrant when `seats` is left out; default: {DEFAULT_BOT_LEVEL}"},
    )  # fmt: skip


class DuplicateCell(ma.Schema):
    table = fields.Integer(required=True)
    match = fields.String(required=True)
    entrant = fields.Integer(
        required=True, metadata={"description": "who the comparison credits (its index)"}
    )
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(
        required=True, allow_none=True, metadata={"description": "a bot's strategy"}
    )
    points = fields.Integer(required=True, metadata={"description": "its points this deal"})


class DuplicateSeat(ma.Schema):
    seat = fields.Integer(required=True, metadata={"description": "the seat whose cards these are"})
    tables = fields.List(fields.Nested(DuplicateCell), required=True)
    spread = fields.Integer(
        required=True, metadata={"description": "the best table's points less the worst's"}
    )


class DuplicateDeal(ma.Schema):
    deal = fields.Integer(required=True, metadata={"description": "from 1"})
    same_cards = fields.Boolean(
        required=True,
        metadata={"description": "this deal was alike at every table: a match's first deal, "
                  "and every deal of tables whose rules version deals each one alike "
                  "(docs/lobby.md, \"Duplicate deals\")"},
    )  # fmt: skip
    seats = fields.List(fields.Nested(DuplicateSeat), required=True)


class EntrantPoints(ma.Schema):
    entrant = fields.Integer(required=True)
    points = fields.Integer(
        required=True, metadata={"description": "over every table, the deals compared"}
    )


class DuplicateComparison(ma.Schema):
    compared_deals = fields.Integer(
        required=True, metadata={"description": "the deals every table played"}
    )
    deals_played = fields.List(
        fields.Integer(), required=True, metadata={"description": "by table"}
    )
    deals = fields.List(fields.Nested(DuplicateDeal), required=True)
    entrants = fields.List(fields.Nested(EntrantPoints), required=True)


class DuplicateTable(ma.Schema):
    table = fields.Integer(required=True)
    match = fields.String(required=True)
    status = status(required=True)
    seats = fields.List(AsIs(Seat), required=True)
    entrants = fields.List(
        fields.Integer(), required=True, metadata={"description": "by seat, the entrant there"}
    )
    rules_version = fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "the game's rules version the table was dealt under (its "
                  "`match.started` setup; null before it is dealt): whether its later deals "
                  "are alike too"},
    )  # fmt: skip
    result = Ref("Result", required=True, allow_none=True,
                 metadata={"description": "once every table has finished"})  # fmt: skip


class DuplicateOut(ma.Schema):
    id = fields.String(required=True)
    game = game_id(required=True)
    variant = fields.String(required=True)
    players = fields.Integer(required=True, metadata={"description": "seats at each table"})
    options = fields.Dict(keys=fields.String(), required=True)
    created = fields.String(required=True, metadata={"description": "ISO 8601, UTC"})
    created_by = fields.String(required=True)
    seed_sha256 = fields.String(
        required=True,
        metadata={"description": "the SHA-256 of the seed every table is dealt from, "
                  "committed when the group was created"},
    )  # fmt: skip
    seed = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "revealed once every table has finished"},
    )
    status = fields.String(
        required=True,
        validate=validate.OneOf(("playing", "finished")),
        metadata={"description": "finished: every table has, and the seed is revealed"},
    )
    tables = fields.List(fields.Nested(DuplicateTable), required=True)
    comparison = fields.Nested(
        DuplicateComparison,
        required=True,
        allow_none=True,
        metadata={"description": "deal by deal, once finished"},
    )


# -- tournaments ---------------------------------------------------------------------------
MAX_TOURNAMENT_ENTRANTS = 256
MAX_TOURNAMENT_ROUNDS = 20


class NewTournament(GameSetup):
    name = fields.String(
        load_default=optional(None),
        allow_none=True,
        validate=[validate.Length(min=1, max=80), _printable_and_not_blank],
        metadata={"description": "shown in the list; default: the game and your name"},
    )
    players = fields.Integer(
        strict=True,
        load_default=optional(None),
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_PLAYERS),
        metadata={
            "description": "seats per table; default: the variant's smallest player count. "
            "Two: Swiss pairings; more: tables drawn by standing"
        },
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "overrides of the variant's options for every match"},
    )
    rounds = fields.Integer(
        strict=True,
        load_default=optional(None),
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_TOURNAMENT_ROUNDS),
        metadata={
            "description": "rounds to play; default: as many as a Swiss tournament of its "
            "entrants needs for one unbeaten player (log2), 3 for tables of more seats"
        },
    )
    starts_at = fields.AwareDateTime(
        load_default=optional(None),
        allow_none=True,
        metadata={
            "description": "when round one is paired (RFC 3339); null (the default): as soon "
            "as `capacity` entrants have registered"
        },
    )
    capacity = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=2, max=MAX_TOURNAMENT_ENTRANTS),
        metadata={"description": "the most entrants, bots included"},
    )
    bots = fields.Integer(
        strict=True,
        load_default=optional(0),
        validate=validate.Range(min=0, max=MAX_TOURNAMENT_ENTRANTS),
        metadata={"description": "bot entrants of `bot_level` registered at once; default 0"},
    )
    bot_level = fields.String(
        load_default=optional(None),
        allow_none=True,
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={
            "description": "the bot entrants' strategy, and the bots that fill a short "
            "table's seats; one of the game's; default: medium"
        },
    )
    turn_timeout = JsonNumber(
        load_default=optional(None),
        allow_none=True,
        validate=validate.Range(min=1.0, max=3600.0),
        metadata={
            "description": "seconds a person's seat may take to act in its matches, then the "
            "server plays for it; three such turns in a row end the match, lost by that "
            "seat (a no-show). Default 60"
        },
    )
    duplicate = json_bool(
        False,
        "played duplicate: each round of two tables or more is one duplicate group (every "
        "table dealt the same committed cards, seats turned table by table) and the standings "
        "rank by matchpoints; the capacity must hold 2 to 12 tables (else 400 "
        "bad_capacity). Default false",
    )


TOURNAMENT_STATUSES = ("registering", "running", "finished")


class TournamentQuery(Strict):
    status = fields.String(
        load_default=optional(None),
        validate=validate.OneOf(TOURNAMENT_STATUSES),
        metadata={"description": "only the tournaments of this status"},
    )


class TournamentSummary(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game = game_id(required=True)
    variant = fields.String(required=True)
    players = fields.Integer(required=True, metadata={"description": "seats per table"})
    options = fields.Dict(keys=fields.String(), required=True)
    rounds = fields.Integer(
        required=True, allow_none=True, metadata={"description": "null until the start"}
    )
    capacity = fields.Integer(required=True)
    bot_level = fields.String(required=True)
    starts_at = fields.String(required=True, allow_none=True)
    turn_timeout = fields.Float(required=True)
    duplicate = fields.Boolean(
        required=True, metadata={"description": "played duplicate, ranked by matchpoints"}
    )
    created_by = fields.String(required=True)
    created = fields.String(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(TOURNAMENT_STATUSES),
        metadata={"description": "registering; running (a round is being played); finished"},
    )
    reason = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "why it finished early: too_few_entrants; else null"},
    )
    version = fields.Integer(required=True, metadata={"description": "its log's length"})
    registered = fields.Integer(required=True)
    round = fields.Integer(required=True, metadata={"description": "rounds paired so far"})


class Entrant(ma.Schema):
    id = fields.String(required=True, metadata={"description": "a player's id, or a bot entrant's"})
    name = fields.String(required=True)
    bot = fields.String(
        required=True, allow_none=True, metadata={"description": "a bot entrant's strategy"}
    )


class TournamentMatch(ma.Schema):
    table = fields.Integer(required=True)
    match = fields.String(required=True, metadata={"description": "the table's match, to spectate"})
    seats = fields.List(
        fields.String(allow_none=True),
        required=True,
        metadata={"description": "each seat's entrant; null: a bot filling a short table"},
    )
    status = fields.String(required=True, validate=validate.OneOf(("running", "finished")))
    winners = fields.List(
        fields.Integer(),
        required=True,
        allow_none=True,
        metadata={"description": "the winning seats, once finished"},
    )
    no_shows = fields.List(
        fields.Integer(),
        required=True,
        allow_none=True,
        metadata={
            "description": "once finished, the seats whose person made no move while the "
            "server played for them: each scores a loss"
        },
    )
    matchpoints = fields.List(
        fields.Float(allow_none=True),
        required=True,
        allow_none=True,
        metadata={
            "description": "a duplicate round's, by seat, once every table of the round has "
            "finished (null: a filler bot's seat); else null"
        },
    )


class TournamentGroup(ma.Schema):
    id = fields.String(
        required=True, metadata={"description": "the duplicate group: GET /v1/duplicates/{id}"}
    )
    seed_sha256 = fields.String(
        required=True,
        metadata={"description": "the commitment to the seed every table of the round is dealt"},
    )


class TournamentRound(ma.Schema):
    round = fields.Integer(required=True)
    tables = fields.List(fields.Nested(TournamentMatch), required=True)
    byes = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "who sits this round out, scoring a win (in a duplicate round, "
            "the round's average matchpoints)"
        },
    )
    group = fields.Nested(
        TournamentGroup,
        required=True,
        allow_none=True,
        metadata={
            "description": "a duplicate round's group, committed in its round.paired entry; "
            "null: a plain round (not duplicate, or one table only)"
        },
    )


class TournamentOut(TournamentSummary):
    entrants = fields.List(fields.Nested(Entrant), required=True)
    withdrawn = fields.List(fields.String(), required=True)
    rounds_paired = fields.List(fields.Nested(TournamentRound), required=True)
    standings = fields.List(
        fields.Nested(StandingLine),
        required=True,
        metadata={
            "description": "ranked by points (a duplicate tournament: matchpoints), then "
            "Buchholz, then registration"
        },
    )


class TournamentList(ma.Schema):
    tournaments = fields.List(fields.Nested(TournamentSummary), required=True)


class PlayerCreated(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(
        required=True, metadata={"description": "your bearer token: shown only this once"}
    )


class MatchSummary(MatchDocument):
    """A match in a listing: its public document."""


class MatchOut(MatchDocument):
    version = fields.Integer(
        required=True, metadata={"description": "send it back as expected_version"}
    )
    view = AsIs(
        View,
        required=True,
        allow_none=True,
        metadata={"description": "what your seat (a spectator: seat null) sees; null before start"},
    )


class MatchList(ma.Schema):
    matches = fields.List(AsIs(MatchSummary), required=True)
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the cursor of the next page (GET again with cursor=); null: none"
        },
    )


class ActionResult(ma.Schema):
    version = fields.Integer(required=True)
    events = fields.List(
        Ref("Event"), required=True, metadata={"description": "redacted for your seat"}
    )
    sentences = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "one per event, as your seat reads it, in the answer's language "
            "(lang, else Accept-Language), the players by name; a retry with the same "
            "action_id gets the first answer as it was said"
        },
    )
    view = AsIs(View, required=True)


class StreamFinished(ma.Schema):
    """The data of the stream's last event, once the match is over."""

    version = fields.Integer(required=True, metadata={"description": "the match's last version"})
    status = status(required=True)
    result = Ref("Result", required=True, allow_none=True)


# One Server-Sent Event of the stream, as an SSE parser hands it over: its ``event`` name, its
# ``id`` and ``retry`` lines when sent, and its ``data`` line parsed as JSON.
class StreamEntryEvent(ma.Schema):
    event = fields.String(required=True, validate=validate.OneOf(["entry"]))
    id = fields.String(
        required=True,
        metadata={"description": "the entry's version: resume with it as Last-Event-ID"},
    )
    data = AsIs(LogEntry, required=True, metadata={"description": "the entry, redacted for you"})


class StreamFinishedEvent(ma.Schema):
    event = fields.String(required=True, validate=validate.OneOf(["finished"]))
    retry = fields.Integer(
        required=True, metadata={"description": "ms: an hour, for a client that reconnects"}
    )
    data = AsIs(
        StreamFinished,
        required=True,
        metadata={"description": "the match is over: close the stream; nothing follows"},
    )


class StreamReconnectEvent(ma.Schema):
    event = fields.String(required=True, validate=validate.OneOf(["reconnect"]))
    retry = fields.Integer(required=True, metadata={"description": "ms to wait before resuming"})
    data = fields.Dict(
        required=True,
        metadata={
            "description": "empty: the server goes away, or the stream fell behind; resume "
            "with your last id",
            "maxProperties": 0,
        },
    )


STREAM_EVENTS = {
    "entry": StreamEntryEvent,
    "finished": StreamFinishedEvent,
    "reconnect": StreamReconnectEvent,
}


class StreamTicket(ma.Schema):
    ticket = fields.String(required=True, metadata={"description": "single use, for this match"})
    expires_in = fields.Integer(required=True, metadata={"description": "seconds it stays good"})
    stream = fields.String(required=True, metadata={"description": "the stream URL with it"})


class EventsPage(ma.Schema):
    match = fields.String(required=True)
    version = fields.Integer(
        required=True, metadata={"description": "poll again with after=version"}
    )
    status = status(required=True, metadata={"description": "the match's status as of `version`"})
    finished = fields.Boolean(
        required=True,
        metadata={"description": "the match is over: nothing will follow, stop polling"},
    )
    entries = fields.List(AsIs(LogEntry), required=True)


# -- players, tokens ------------------------------------------------------------------------------
class Me(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    is_bot = fields.Boolean(
        required=True, metadata={"description": "a bot player (one per strategy)"}
    )


class NewToken(Me):
    token = fields.String(
        required=True,
        metadata={
            "description": "your new bearer token: shown only this once; the old one is revoked"
        },
    )
