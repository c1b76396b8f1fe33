"""The match document and the lobby's rules about seats, options and what a caller may see.

Pure functions, no I/O: the application layer loads a snapshot, asks these what the
change is (or why it is refused), and appends the result. The document is public:
everything in it may be shown to any player (the seed is added only once finished).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from services.errors import BadRequest, Conflict, Forbidden
from services.lobby_events import entry_sentences
from shared.bots import all_strategies, strategies, strategy_version
from shared.duplicate import HIDDEN, group_of, hidden_from
from shared.engine import DEFAULT_LANGUAGE, BadSetup, UnknownGame, get_game, redact, resolve_options

from .players import Player, bot_player

OPEN, RUNNING, FINISHED = "open", "running", "finished"
STATUSES = (OPEN, RUNNING, FINISHED)
BOT_STRATEGIES = tuple(all_strategies())  # each game has some of them: check_bot_strategy
MAX_BOT_PACE_S = 10.0  # a bot waiting longer than this after each move stalls its table
DEFAULT_SIT_IN = "medium"  # the level of the bot that sits in for a person, unless told

# What a caller sees of a log entry besides its redacted events (see public_entry).
PUBLIC_ENTRY_FIELDS = (
    "version", "time", "kind", "actor", "status", "to_act", "deadline", "turn_deadline",
    "seat", "player", "strategy", "match", "seed_sha256", "setup", "finished", "result", "seed",
    "reason", "rematch", "player_seed", "seed_scheme", "player_seeds", "strategy_version",
    "group",
)  # fmt: skip

Match = dict[str, Any]


def new_match(
    match_id: str,
    creator: Player,
    game: str,
    variant: str,
    players: int,
    options: dict[str, Any],
    autostart: bool,
    now: str,
) -> Match:
    """An open match with every seat free. Creating a match does not seat its creator."""
    return {
        "id": match_id,
        "game": game,
        "variant": variant,
        "players": players,
        "options": options,
        "autostart": autostart,
        "status": OPEN,
        "created": now,
        "created_by": creator.id,
        "seats": [
            {"seat": seat, "player": None, "name": None, "bot": None} for seat in range(players)
        ],
        "seed_sha256": None,
        "to_act": [],
        "deadline": None,
        "result": None,
    }


# -- questions ---------------------------------------------------------------------------
def seat_of(match: Match, player_id: str) -> int | None:
    """The caller's seat, or None for a spectator."""
    for seat in match["seats"]:
        if seat["player"] == player_id:
            return int(seat["seat"])
    return None


def seat_for(match: Match, player: Player) -> int | None:
    """The caller's seat: a bot seat's token acts for its own seat only, a person for theirs."""
    if player.seat is not None:
        seats = match["seats"]
        ok = player.match == match["id"] and 0 <= player.seat < len(seats)
        return player.seat if ok and bot_of(seats[player.seat]) == player.id else None
    return seat_of(match, player.id)


def bot_of(seat: dict[str, Any]) -> str | None:
    """The bot player who plays a seat: the bot seated there, or the one sitting in for the
    seat's person (None: a person plays it, or nobody)."""
    if seat["bot"] is not None:
        return str(seat["player"])
    sitting = seat.get("sat_in")
    return bot_player(sitting["strategy"]).id if sitting else None


def sitting_in(match: Match, seat: int) -> dict[str, Any]:
    """What a move's actor says of the bot sitting in at ``seat``: its strategy and version
    (nothing where no bot sits in)."""
    sitting = match["seats"][seat].get("sat_in") or {}
    return {k: sitting[k] for k in ("strategy", "strategy_version") if k in sitting}


def strategy_at(seat: dict[str, Any]) -> str | None:
    """The strategy that plays a seat: its bot's, or the one sitting in for its person."""
    return seat["bot"] or (seat.get("sat_in") or {}).get("strategy")


def people(match: Match) -> list[str]:
    """The persons seated, or for whom a seat is kept (a rematch), each once; bots left out."""
    seated = (s["player"] or s.get("reserved_for") for s in match["seats"] if not s["bot"])
    return list(dict.fromkeys(p for p in seated if p))


def open_seats(match: Match, player_id: str | None = None) -> list[int]:
    """The free seats ``player_id`` may take: the seats kept for nobody, and the one kept for
    them (None: anybody's, the seats a stranger may take)."""
    return [
        s["seat"]
        for s in match["seats"]
        if s["player"] is None and s.get("reserved_for") in (None, player_id)
    ]


def revealed_at_finish(match: Match, seed: str | None) -> dict[str, Any]:
    """What the entry that finishes a match reveals: its seed, but for a duplicate table,
    whose seed another table of its group may still be playing (services/lobby/duplicates.py
    reveals it once every table has finished)."""
    return {} if match.get("duplicate") else {"seed": seed}


def free_seats(match: Match) -> list[int]:
    return [seat["seat"] for seat in match["seats"] if seat["player"] is None]


def is_full(match: Match) -> bool:
    return not free_seats(match)


def deals_itself(match: Match) -> bool:
    """An open match that starts itself now: its creator asked for it and every seat is taken.

    The lobby deals it right after the last seat's append; should that start fail or never
    run (the rules do not answer, the process dies), the bot dispatcher's start task deals
    it (services/bots), so a full match is never left open.
    """
    return match["status"] == OPEN and bool(match["autostart"]) and is_full(match)


def bot_seats(match: Match, sat_in: bool = True) -> list[dict[str, Any]]:
    """The seats a bot plays, for the bot dispatcher: seat, strategy and the bot's player id;
    with ``sat_in``, the seats a bot sits in for their person too (``sat_in``: true)."""
    return [
        {"seat": s["seat"], "strategy": s["bot"], "player": s["player"]}
        if s["bot"] is not None
        else {"seat": s["seat"], "strategy": strategy_at(s), "player": bot_of(s), "sat_in": True}
        for s in match["seats"]
        if s["bot"] is not None or (sat_in and s.get("sat_in"))
    ]


def bot_pace(match: Match) -> float:
    """How long a bot's move waits after the entry before it, for the dispatcher: the match's
    ``bot_pace`` while a person sits in it, so people can follow the bots; 0 in a match of
    bots only, where nobody watches at the table's pace."""
    people = any(s["player"] is not None and s["bot"] is None for s in match["seats"])
    return float(match.get("bot_pace") or 0.0) if people else 0.0


# -- decisions: each returns the changed copy, or raises a domain error-----------------------
def take_seat(
    match: Match, player: Player, seat: int | None, bot: str | None = None, seed: str | None = None
) -> Match:
    """``player`` sits at ``seat`` (None: the first free one), with their own ``seed`` for the
    deal if they gave one (public: only the server's seed is secret until the end)."""
    _expect_open(match, "seats can change only before the match starts")
    if bot is None and seat_of(match, player.id) is not None:  # one bot may hold many seats
        raise Conflict(
            f"you already sit at seat {seat_of(match, player.id)}", code="already_seated"
        )
    if seat is None:
        mine = [s["seat"] for s in match["seats"] if s.get("reserved_for") == player.id]
        choice = mine + open_seats(match)
        if not choice:
            raise Conflict("every seat is taken", code="match_full")
        seat = choice[0]
    check_seat_free(match, seat)
    reserved = match["seats"][seat].get("reserved_for")
    if reserved not in (None, player.id):
        raise Conflict(
            f"seat {seat} is kept for another player (a rematch)",
            code="seat_reserved",
            details={"free_seats": open_seats(match, player.id)},
        )
    if match.get("duplicate") and bot is None:
        check_duplicate_join(reserved == player.id, seed)
    changed = copy.deepcopy(match)
    changed["seats"][seat] = {"seat": seat, "player": player.id, "name": player.name, "bot": bot}
    if seed is not None:
        changed["seats"][seat]["seed"] = seed
    return changed


def duplicate_table(match: Match, group: dict[str, Any], people: Sequence[str | None]) -> Match:
    """A new match as a table of a duplicate group: the group named, each person's seat
    (``people``, by seat; None: a bot's) kept for them."""
    table = {**copy.deepcopy(match), "duplicate": group}
    for seat, person in enumerate(people):
        if person is not None:
            table["seats"][seat]["reserved_for"] = person
    return table


def check_not_hidden(match: Match, player: Player) -> None:
    """A person of a duplicate group may not watch its other tables while they play: they
    hold the same cards (``shared.duplicate.hidden_from``). 403 until the seed is revealed."""
    group = group_of(match)
    if group is not None and hidden_from(group, bool(match.get("seed")), player.id):
        raise Forbidden(
            "this table is of your duplicate group: it is dealt the cards you hold at your "
            "own table, so you may watch it once every table of the group has finished",
            code=HIDDEN,
            details={"group": group["group"], "table": group["table"]},
        )


def check_duplicate_join(kept_for_them: bool, seed: str | None) -> None:
    """A person takes only the seat its duplicate group kept for them, and without a seed of
    their own: every table of the group is dealt from the group's seed alone."""
    if not kept_for_them:
        raise Conflict(
            "the seats of a duplicate table are kept for its group's players",
            code="seat_reserved",
        )
    if seed is not None:
        raise BadRequest(
            "a duplicate table is dealt from its group's seed alone: join without a seed",
            code="bad_seed",
        )


def check_seat_free(match: Match, seat: int) -> None:
    _expect_open(match, "seats can change only before the match starts")
    if not 0 <= seat < match["players"]:
        raise BadRequest(
            f"seat must be from 0 to {match['players'] - 1}, not {seat}", code="bad_seat"
        )
    free = free_seats(match)
    if seat not in free:
        raise Conflict(f"seat {seat} is taken", code="seat_taken", details={"free_seats": free})


def leave_seat(match: Match, player: Player) -> tuple[Match, int]:
    """``player`` gives up their seat; the match and the seat left."""
    _expect_open(match, "a started match cannot be left")
    seat = seat_of(match, player.id)
    if seat is None:
        raise Conflict("you have no seat in this match", code="not_seated")
    changed = copy.deepcopy(match)
    changed["seats"][seat] = {"seat": seat, "player": None, "name": None, "bot": None}
    if match["seats"][seat].get("reserved_for"):  # a rematch's seat stays kept for its player
        changed["seats"][seat]["reserved_for"] = match["seats"][seat]["reserved_for"]
    return changed, seat


def check_may_manage(match: Match, player: Player) -> None:
    """Adding bots and starting are for the match's creator and its seated players."""
    if player.id != match["created_by"] and seat_of(match, player.id) is None:
        raise Forbidden(
            "only the match's creator or a seated player may do this", code="not_allowed"
        )


def check_startable(match: Match) -> None:
    _expect_open(match, "the match has already started")
    if not is_full(match):
        raise Conflict(
            "every seat must be taken to start",
            code="seats_free",
            details={"free_seats": free_seats(match)},
        )


def check_may_act(match: Match, seat: int | None, person: bool = True) -> None:
    """A player acts only from their own seat, and only while it is to act; a ``person`` not
    while a bot sits in for them (they take the seat back first)."""
    if seat is None:
        raise Forbidden("you have no seat in this match", code="not_seated")
    if person and match["seats"][seat].get("sat_in"):
        raise Conflict(
            f"a bot plays seat {seat} for you; take it back first (POST .../return)",
            code="seat_sat_in",
        )
    if seat not in match["to_act"]:
        raise Forbidden(
            f"seat {seat} is not to act now; to act: {match['to_act']}", code="not_your_turn"
        )


def rematch_of(match: Match, new_id: str, creator: Player, now: str) -> Match:
    """The open match a rematch offers: the same game, seats and options; each person's
    seat kept for them (``reserved_for``), each bot in its seat; nobody seated yet."""
    if match["status"] != FINISHED:
        raise Conflict("only a finished match can be played again", code="match_not_finished")
    if seat_of(match, creator.id) is None:
        raise Forbidden("only a player of the match may offer a rematch", code="not_seated")
    again = new_match(
        new_id, creator, match["game"], match["variant"], match["players"], match["options"],
        match["autostart"], now,
    )  # fmt: skip
    again["turn_timeout"] = match.get("turn_timeout")
    again["bot_pace"] = match.get("bot_pace")
    again["sit_in"] = match.get("sit_in")
    again["rematch_of"] = match["id"]
    for old in match["seats"]:
        if old["bot"] is None:
            again["seats"][old["seat"]]["reserved_for"] = old["player"]
    return again


def check_running(match: Match) -> None:
    if match["status"] == OPEN:
        raise Conflict("the match has not started yet", code="match_not_started")
    if match["status"] == FINISHED:
        raise Conflict(
            "the match is finished", code="match_finished", details={"result": match["result"]}
        )


def sit_in(match: Match, seat: int, reason: str) -> Match:
    """The match with a bot of its ``sit_in`` level playing ``seat`` for its person, who keeps
    the seat (``sat_in`` on it: the strategy and its version, why); the seat's missed turns
    are forgotten. Refused for a seat nobody holds, a bot's, one sat in already, and in a
    match that is not running or has no ``sit_in``."""
    check_running(match)
    strategy = match.get("sit_in")
    if not strategy:
        raise Conflict(
            "no bot sits in for a person in this match (sit_in is null): resign instead",
            code="sit_in_off",
        )
    held = match["seats"][seat]
    if held["player"] is None or held["bot"] is not None:
        raise Conflict(f"no person holds seat {seat}", code="not_seated")
    if held.get("sat_in"):
        raise Conflict(f"a bot already plays seat {seat}", code="already_sat_in")
    changed = copy.deepcopy(match)
    changed["seats"][seat]["sat_in"] = {
        "strategy": strategy, "strategy_version": strategy_version(strategy), "reason": reason,
    }  # fmt: skip
    if match.get("missed_turns"):
        changed["missed_turns"] = {k: n for k, n in match["missed_turns"].items() if k != str(seat)}
    return changed


def take_seat_back(match: Match, player: Player) -> tuple[Match, int]:
    """The person takes back the seat a bot sat in for them: the match and the seat."""
    check_running(match)
    seat = seat_of(match, player.id)
    if seat is None or player.seat is not None:
        raise Conflict("you have no seat in this match", code="not_seated")
    if not match["seats"][seat].get("sat_in"):
        raise Conflict(f"no bot sits in for you at seat {seat}", code="not_sat_in")
    changed = copy.deepcopy(match)
    del changed["seats"][seat]["sat_in"]
    return changed, seat


def check_sit_in(match: Match, strategy: str | None) -> None:
    """Refuse a ``sit_in`` level the match's game has no bot for (None: no bot sits in)."""
    if strategy is not None:
        check_bot_strategy(match, strategy)


def _expect_open(match: Match, message: str) -> None:
    if match["status"] != OPEN:
        raise Conflict(message, code="match_not_open")


def check_bot_strategy(match: Match, strategy: str) -> None:
    """Refuse a bot strategy that the match's game does not have."""
    offered = strategies(match["game"])
    if strategy not in offered:
        raise BadRequest(
            f"game {match['game']} has no bot strategy {strategy!r}; strategies: {offered}",
            code="unknown_strategy",
            details={"strategies": offered},
        )


# -- options -----------------------------------------------------------------------------
def check_setup(
    catalog_entry: dict[str, Any], variant: str, players: int | None, options: dict[str, Any]
) -> int:
    """Check variant and player count against the rules catalog, and the options through the
    engine (``check_options``); the player count."""
    variants = {v["id"]: v for v in catalog_entry["variants"]}
    if variant not in variants:
        raise BadRequest(
            f"game {catalog_entry['id']} has no variant {variant!r}; variants: {sorted(variants)}",
            code="unknown_variant",
        )
    low, high = variants[variant]["players"]["min"], variants[variant]["players"]["max"]
    players = low if players is None else players
    if not low <= players <= high:
        raise BadRequest(
            f"{catalog_entry['id']}/{variant} is for {low} to {high} players", code="bad_setup"
        )
    check_options(catalog_entry["id"], variant, options)
    return players


def check_options(game_id: str, variant: str, options: dict[str, Any]) -> None:
    """Each option through the engine's own check (``resolve_options``), so the lobby and the
    rules service refuse the same values with the same reason. One option at a time, in the
    order sent, so that the refusal names the option it is about."""
    try:
        game = get_game(game_id)
    except UnknownGame as exc:
        raise BadRequest(str(exc), code="unknown_game") from exc
    for name, value in options.items():
        try:
            resolve_options(game, variant, {name: value})
        except BadSetup as exc:
            raise BadRequest(str(exc), code="bad_setup", details={"option": name}) from exc


# -- what a caller sees ------------------------------------------------------------------
def seat_names(match: Match) -> list[str | None]:
    """The players' names by seat (a bot seat's own name; a free seat: None), for the rules'
    sentences and facts."""
    return [seat["name"] for seat in match["seats"]]


def public_entry(
    entry: dict[str, Any],
    seat: int | None,
    game: str,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str | None] = (),
) -> dict[str, Any]:
    """A log entry of a ``game`` match as ``seat`` (None: a spectator) may see it: THE
    projection of the feed.

    Events go through the engine's ``redact``; the action itself is shown only to the
    seat that took it (a sealed bid is a secret until the rules reveal it), and the
    rules version and state hash stay in the log for the history service. ``sentences``
    says each event as shown, in ``lang``, the players named by ``names`` (by seat, as the
    entry reads them: ``names_at``).
    """
    out = {field: entry[field] for field in PUBLIC_ENTRY_FIELDS if field in entry}
    out["events"] = redact_all(entry.get("events", []), seat)
    out["sentences"] = entry_sentences(game, out["events"], lang, names)
    actor_seat = (entry.get("actor") or {}).get("seat")
    if seat is not None and actor_seat == seat and "action" in entry:
        out["action"] = entry["action"]
    return out


def redact_all(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them, through the engine's one redaction function."""
    return [redact(event, seat) for event in events]
