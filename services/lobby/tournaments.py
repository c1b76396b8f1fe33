"""Tournaments: a player creates one for a game, others register, the server plays its rounds.

A tournament is its log (shared/tournament_log.py), under one hash tag. Each change is one
append at the version it was decided on, so whatever runs it twice, or in two lobbies at
once, changes the tournament once:

    create     the setup, checked as a new match's (Seats.checked_setup), and its bot entrants
    register   a person, while it takes registrations and has room
    withdraw   before the start: leaves; during: forfeits the rounds still to pair (a match
               being played is resigned)
    advance    start when due (full, or ``starts_at`` passed); once every match of the
               round has finished, pair the next (shared/swiss.py) or finish

A round's match ids are drawn before its ``round.paired`` append and its tables opened after
it, each step already done skipped (as quick match's tables): a lobby that stops in
between leaves tables the next ``advance`` opens, once. Who calls ``advance``: the bot
dispatcher, when a tournament match's ``finished`` notification comes (an rq job, retried
by its watchdog until done) and when a start time has come (``start_due``, from a sorted
set of the tournaments waiting for theirs), and every read of the tournament (so a lost
job is made good as soon as anyone looks).

A duplicate tournament (``duplicate``) opens each round of two tables or more as one
duplicate group (duplicates.py, ``open_group``), its tables seated as ``pair_round`` turns
them: the group's record, with its seed, is written first, then the ``round.paired`` append
names the group and its ``seed_sha256`` (committed before a card is dealt), then its tables
are opened; a ``round.paired`` that finds the version moved on deletes the record and
opens nothing. Its standings rank by matchpoints (shared/swiss.py).

A tournament's matches are ordinary matches, created by the tournament itself (its
``created_by`` is ``tournament-<id>``) with ``tournament: {id, round, table}`` and the
tournament's ``turn_timeout``: a person who does not play has their turns played by the
server, and after ``MISSED_TURNS_LIMIT`` of them in a row the match ends, abandoned by
their seat: a loss.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from services.errors import BadRequest, Conflict, DomainError, Forbidden, NotFound
from shared import swiss
from shared.bots import names as bot_names
from shared.duplicate import MAX_TABLES, MIN_TABLES
from shared.entry_kinds import (
    REGISTERED,
    ROUND_PAIRED,
    TOURNAMENT_CREATED,
    TOURNAMENT_FINISHED,
    WITHDRAWN,
)
from shared.eventstore import VersionConflict
from shared.tournament_log import (
    FINISHED,
    REGISTERING,
    Doc,
    Stale,
    TournamentLog,
    duplicate_game,
    match_ids,
    standings_of,
)

from . import match as rules_of
from .duplicates import Duplicates, Entrant
from .matchstore import actor, iso_time
from .players import Player
from .seats import Seats

OPENING_KEY = "tapete:{{t{id}}}:tournament:opening:{match}"  # held by the lobby opening it
OUTCOMES_KEY = "tapete:{{t{id}}}:tournament:outcomes"  # hash: match -> outcome (derivable)
OPENING_FOR_S = 30
DEFAULT_TURN_TIMEOUT_S = 60.0
DEFAULT_BOT_LEVEL = "medium"
LISTED = 50  # the newest tournaments listed
ATTEMPTS = 5  # a registration or withdrawal re-decided after a concurrent append
BOT_ENTRANT = "bot-entrant-{n}"
TOO_FEW = "too_few_entrants"


def creator_of(tournament_id: str) -> Player:
    """The player a tournament's matches are created by: the tournament itself."""
    return Player(f"tournament-{tournament_id}", "Tournament")


class Tournaments:
    """Tournaments on the lobby's store, opening their matches through ``seats``."""

    def __init__(
        self,
        client: Any,
        seats: Seats,
        duplicates: Duplicates,
        resign: Callable[[Player, str], Any],
        clock: Callable[[], float],
    ) -> None:
        """``resign(player, match)``: end a running match for a player who withdraws."""
        self.log = TournamentLog(client)
        self.client = client
        self.seats = seats
        self.duplicates = duplicates
        self.resign = resign
        self.clock = clock

    # -- the use cases ---------------------------------------------------------------------
    def create(self, player: Player, setup: dict[str, Any]) -> dict[str, Any]:
        """A new tournament taking registrations, with ``setup["bots"]`` bot entrants."""
        if player.bot:
            raise Forbidden("a bot seat's token cannot create a tournament")
        game, variant = setup["game"], setup["variant"]
        seats = self.seats.checked_setup(game, variant, setup["players"], setup["options"])
        level = setup["bot_level"] or DEFAULT_BOT_LEVEL
        rules_of.check_bot_strategy({"game": game}, level)
        capacity, bots = setup["capacity"], setup["bots"]
        if bots > capacity:
            raise BadRequest("more bot entrants than places", code="bad_capacity")
        if setup["duplicate"] and not MIN_TABLES * seats <= capacity <= MAX_TABLES * seats:
            raise BadRequest(
                f"a duplicate tournament's round is one group of {MIN_TABLES} to {MAX_TABLES} "
                f"tables of {seats}: a capacity of {MIN_TABLES * seats} to "
                f"{MAX_TABLES * seats}",
                code="bad_capacity",
            )
        now = self.clock()
        starts_at = setup["starts_at"]
        if starts_at is not None and starts_at.timestamp() <= now:
            raise BadRequest("starts_at is in the past", code="bad_start")
        tournament_id = secrets.token_hex(8)
        doc = {
            "id": tournament_id, "name": setup["name"] or f"{game} ({player.name})",
            "game": game, "variant": variant, "players": seats, "options": setup["options"],
            "rounds": setup["rounds"], "capacity": capacity, "bot_level": level,
            "starts_at": iso_time(starts_at.timestamp()) if starts_at else None,
            "turn_timeout": setup["turn_timeout"] or DEFAULT_TURN_TIMEOUT_S,
            "duplicate": setup["duplicate"], "created_by": player.id, "created": iso_time(now),
        }  # fmt: skip
        created = self._append(None, TOURNAMENT_CREATED, player, tournament=doc)
        if starts_at is not None:
            self.log.starts_at(tournament_id, starts_at.timestamp())
        for n in range(1, bots + 1):
            entrant = {
                "id": BOT_ENTRANT.format(n=n),
                "name": bot_names.seat_name(n - 1),
                "bot": level,
            }
            created = self._append(created, REGISTERED, player, entrant=entrant)
        return self.shown(self.advance(tournament_id, created))

    def register(self, player: Player, tournament_id: str) -> dict[str, Any]:
        """Enter the tournament: 409 once it has started, when full, or entered already."""
        if player.bot:
            raise Forbidden("a bot seat's token cannot register")

        def change(doc: Doc) -> Doc:
            if doc["status"] != REGISTERING:
                raise Conflict(
                    "the tournament no longer takes registrations", code="tournament_started"
                )
            if any(e["id"] == player.id for e in doc["entrants"]):
                raise Conflict("you are registered already", code="already_registered")
            if len(doc["entrants"]) >= doc["capacity"]:
                raise Conflict("the tournament is full", code="tournament_full")
            entrant = {"id": player.id, "name": player.name, "bot": None}
            return self._append(doc, REGISTERED, player, entrant=entrant)

        return self.shown(self.advance(tournament_id, self._command(tournament_id, change)))

    def withdraw(self, player: Player, tournament_id: str) -> dict[str, Any]:
        """Leave before the start, or forfeit the rounds still to come (a match of yours
        being played is resigned); 409 when not registered or finished."""

        def change(doc: Doc) -> Doc:
            if doc["status"] == FINISHED:
                raise Conflict("the tournament is over", code="tournament_finished")
            if (
                not any(e["id"] == player.id for e in doc["entrants"])
                or player.id in doc["withdrawn"]
            ):
                raise Conflict("you are not registered", code="not_registered")
            return self._append(doc, WITHDRAWN, player, entrant=player.id)

        doc = self._command(tournament_id, change)
        for paired in doc["rounds_paired"][-1:]:
            for table in paired["tables"]:
                if player.id in table["seats"]:
                    self._resign(player, table["match"])
        return self.shown(self.advance(tournament_id))

    def get(self, tournament_id: str) -> dict[str, Any]:
        """The tournament with its rounds and standings, advanced first if due."""
        return self.shown(self.advance(tournament_id))

    def poll(self, tournament_id: str, after: int, wait: float) -> dict[str, Any]:
        """The tournament once its log is past version ``after`` (a round paired, an entrant
        registered...), else after ``wait`` seconds as it is; a finished one at once."""
        doc = self.advance(tournament_id)
        if doc["version"] <= after and doc["status"] != FINISHED and wait > 0:
            doc = self.advance(tournament_id, self.log.wait(tournament_id, after, wait))
        return self.shown(doc)

    def newest(self, status: str | None) -> dict[str, Any]:
        """The newest tournaments (of ``status``), without their rounds."""
        docs = self.log.docs(self.log.newest(LISTED))
        shown = [summary(doc) for doc in docs if status is None or doc["status"] == status]
        return {"tournaments": shown}

    def start_due(self, tournament_id: str) -> str:
        """A start time has come: start the tournament (the dispatcher's job)."""
        doc = self.log.doc(tournament_id)
        if doc is None or doc["status"] != REGISTERING:
            self.log.starts_at(tournament_id, None)
            return "gone" if doc is None else doc["status"]
        return self.advance(tournament_id, doc)["status"]

    def match_finished(self, match_id: str) -> str:
        """A tournament match has finished: advance its tournament (the dispatcher's job)."""
        tournament = self.seats.store.load(match_id).match.get("tournament")
        if not tournament:
            return "not a tournament match"
        return self.advance(tournament["id"])["status"]

    # -- advancing -------------------------------------------------------------------------
    def advance(self, tournament_id: str, doc: Doc | None = None) -> Doc:
        """Start, pair the next round or finish, whichever is due; open the current round's
        tables still to open. Safe to call any time, anywhere, any number of times."""
        doc = doc or self._load(tournament_id)
        for _ in range(ATTEMPTS):
            try:
                return self._advance(doc)
            except Stale:
                doc = self._load(tournament_id)
        return doc

    def _advance(self, doc: Doc) -> Doc:
        if doc["status"] == FINISHED:
            return doc
        if doc["status"] == REGISTERING:
            if not self._due(doc):
                return doc
            if len(doc["entrants"]) < 2:
                doc = self._append(doc, TOURNAMENT_FINISHED, None, reason=TOO_FEW)
            else:
                doc = self._pair(doc, {})
            self.log.starts_at(doc["id"], None)
            return doc
        current = doc["rounds_paired"][-1]
        self._open_round(doc, current)
        results = self.results(doc)
        if any(t["match"] not in results for t in current["tables"]):
            return doc  # still being played
        active = [e for e in doc["entrants"] if e["id"] not in doc["withdrawn"]]
        ended = {m: w for m, w in results.items() if m not in doc["results"]}
        if current["round"] >= doc["rounds"] or len(active) < 2:
            return self._append(doc, TOURNAMENT_FINISHED, None, reason=None, results=ended)
        return self._pair(doc, results)

    def _due(self, doc: Doc) -> bool:
        if doc["starts_at"] is None:
            return len(doc["entrants"]) >= doc["capacity"]
        return self.clock() >= parse_time(doc["starts_at"])

    def _pair(self, doc: Doc, results: dict[str, Any]) -> Doc:
        """Append the next round, its match ids drawn now, then open its tables (a duplicate
        round: through its group, ``_pair_duplicate``)."""
        number = len(doc["rounds_paired"]) + 1
        ids = [e["id"] for e in doc["entrants"]]
        lines = swiss.standings(
            ids, doc["rounds_paired"], results, doc["withdrawn"], duplicate_game(doc)
        )
        paired = swiss.pair_round(lines, doc["players"], number, bool(doc.get("duplicate")))
        paired = {"round": number, **paired}
        rounds = doc["rounds"] or (swiss.rounds_for(len(ids)) if doc["players"] == 2 else 3)
        ended = {m: w for m, w in results.items() if m not in doc["results"]}
        if doc.get("duplicate") and len(paired["tables"]) >= MIN_TABLES:
            return self._pair_duplicate(doc, paired, rounds, ended)
        for table in paired["tables"]:
            table["match"] = secrets.token_hex(8)
        doc = self._append(doc, ROUND_PAIRED, None, paired=paired, rounds=rounds, results=ended)
        self._open_round(doc, paired)
        return doc

    def _pair_duplicate(
        self, doc: Doc, paired: dict[str, Any], rounds: int, ended: dict[str, Any]
    ) -> Doc:
        """The round as one duplicate group: its record (the seed) written, then the round
        appended with the group's commitment and match ids, then its tables opened, under
        the group's opening lock (taken before the append: a read meanwhile leaves them)."""
        appended: list[Doc] = []
        locks: list[str] = []

        def commit(group: dict[str, Any]) -> None:
            for table, match_id in zip(paired["tables"], group["matches"], strict=True):
                table["match"] = match_id
            paired["group"] = {"id": group["id"], "seed_sha256": group["seed_sha256"]}
            locks.append(OPENING_KEY.format(id=doc["id"], match=group["id"]))
            self.client.set(locks[0], 1, ex=OPENING_FOR_S)
            appended.append(
                self._append(doc, ROUND_PAIRED, None, paired=paired, rounds=rounds, results=ended)
            )

        tables = [[self._sitter(doc, e) for e in t["seats"]] for t in paired["tables"]]
        people = any(isinstance(s, Player) for table in tables for s in table)
        try:
            self.duplicates.open_group(
                creator_of(doc["id"]), doc["game"], doc["variant"], doc["players"],
                doc["options"], tables, turn_timeout=doc["turn_timeout"] if people else None,
                bot_pace=None if people else 0.0, sit_in=doc["bot_level"],
                tournament={"id": doc["id"], "round": paired["round"]}, committed=commit,
            )  # fmt: skip
        except DomainError:
            if not appended:
                raise
            # appended, a table not opened (another lobby raced it): the next advance opens it
        finally:
            if locks:
                self.client.delete(locks[0])
        return appended[0]

    @staticmethod
    def _sitter(doc: Doc, entrant_id: str | None) -> Entrant:
        """Who sits in an entrant's seat: the person, or the bot entrant's (a filler's) bot."""
        entrant = next((e for e in doc["entrants"] if e["id"] == entrant_id), None)
        if entrant is not None and entrant["bot"] is None:
            return Player(entrant["id"], entrant["name"])
        return entrant["bot"] if entrant else doc["bot_level"]

    def _open_round(self, doc: Doc, paired: dict[str, Any]) -> None:
        """Open the round's tables whose match is missing or not full yet (one read for all);
        a duplicate round's through its group, which opens what its lobby left unopened."""
        matches = self._matches([t["match"] for t in paired["tables"]])
        unopened = [
            table for table in paired["tables"]
            if (match := matches.get(table["match"])) is None or not rules_of.is_full(match)
        ]  # fmt: skip
        group = paired.get("group")
        if group and unopened:
            lock = OPENING_KEY.format(id=doc["id"], match=group["id"])
            if self.client.set(lock, 1, nx=True, ex=OPENING_FOR_S):
                try:
                    with contextlib.suppress(DomainError):  # raced: the next advance
                        self.duplicates.get(group["id"])
                finally:
                    self.client.delete(lock)
            return
        for table in unopened:
            self._open_table(doc, paired["round"], table)

    def _open_table(self, doc: Doc, number: int, table: dict[str, Any]) -> None:
        """The table's match: created, each person seated, bots in the other seats; full,
        it deals itself. Each step already done is skipped."""
        match_id, store = table["match"], self.seats.store
        lock = OPENING_KEY.format(id=doc["id"], match=match_id)
        if not self.client.set(lock, 1, nx=True, ex=OPENING_FOR_S):
            return  # another lobby is opening it
        by = creator_of(doc["id"])
        entrants = {e["id"]: e for e in doc["entrants"]}
        seated = [entrants.get(e) if e else None for e in table["seats"]]
        people = [e for e in seated if e is not None and e["bot"] is None]
        try:
            if not store.exists(match_id):
                where = {"id": doc["id"], "round": number, "table": table["table"]}
                self.seats.create_match(
                    by, doc["game"], doc["variant"], doc["players"], doc["options"],
                    turn_timeout=doc["turn_timeout"] if people else None,
                    bot_pace=None if people else 0.0, match_id=match_id, tournament=where,
                    sit_in=doc["bot_level"],  # a no-show's seat: the bot plays it, a loss
                )  # fmt: skip
            match = store.load(match_id).match
            for seat, entrant in enumerate(seated):
                if match["seats"][seat]["player"] is not None:
                    continue
                if entrant is not None and entrant["bot"] is None:
                    self.seats.join(Player(entrant["id"], entrant["name"]), match_id, seat)
                else:
                    level = entrant["bot"] if entrant else doc["bot_level"]
                    self.seats.add_bot(by, match_id, seat, level)
        except (VersionConflict, Conflict):
            pass  # another lobby changed it meanwhile: the next advance completes it
        finally:
            self.client.delete(lock)

    # -- reading ---------------------------------------------------------------------------
    def results(self, doc: Doc) -> dict[str, Any]:
        """The outcome of each finished match of the tournament (``swiss.match_outcome``):
        those of the rounds before as its log recorded them; the current round's read from
        their match logs once finished, kept in a hash of the tournament's (derivable)."""
        found = dict(doc["results"])
        pending = [m for m in match_ids(doc) if m not in found]
        if not pending:
            return found
        cache = OUTCOMES_KEY.format(id=doc["id"])
        kept = dict(zip(pending, self.client.hmget(cache, pending), strict=True))
        found.update({m: json.loads(raw) for m, raw in kept.items() if raw})
        unread = [m for m in pending if not kept[m]]
        for match_id, match in self._matches(unread).items():
            if match["status"] == rules_of.FINISHED:
                outcome = swiss.match_outcome(self.seats.store.log.entries(match_id))
                if outcome is not None:
                    found[match_id] = outcome
                    self.client.hset(cache, match_id, json.dumps(outcome))
        return found

    def _matches(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """The documents of the matches that exist among ``ids``, in one round trip."""
        keys = self.seats.store.log.keys
        pipe = self.client.pipeline(transaction=False)
        for match_id in ids:
            pipe.hget(keys(match_id).snapshot, "match")
        replies = pipe.execute() if ids else []
        return {m: json.loads(raw) for m, raw in zip(ids, replies, strict=True) if raw}

    def shown(self, doc: Doc) -> dict[str, Any]:
        """What anybody sees of a tournament: the document, each round's tables with their
        matches' status, and the standings."""
        results, game = self.results(doc), duplicate_game(doc)
        rounds = []
        for paired in doc["rounds_paired"]:
            scored = swiss.round_matchpoints(game, paired, results)
            rounds.append({**paired, "group": paired.get("group"), "tables": [
                {**t, "status": rules_of.FINISHED if t["match"] in results else rules_of.RUNNING,
                 "winners": (results.get(t["match"]) or {}).get("winners"),
                 "no_shows": (results.get(t["match"]) or {}).get("no_shows"),
                 "matchpoints": [scored.get(e) if e else None for e in t["seats"]]
                 if scored is not None else None}
                for t in paired["tables"]
            ]})  # fmt: skip
        return {**summary(doc), "entrants": doc["entrants"], "withdrawn": doc["withdrawn"],
                "rounds_paired": rounds, "standings": standings_of(doc, results)}  # fmt: skip

    def _load(self, tournament_id: str) -> Doc:
        doc = self.log.doc(tournament_id)
        if doc is None:
            raise NotFound(f"no tournament {tournament_id!r}")
        return doc

    def _append(self, doc: Doc | None, kind: str, player: Player | None, **fields: Any) -> Doc:
        tournament_id = doc["id"] if doc else fields["tournament"]["id"]
        now = self.clock()
        entry = {"kind": kind, "time": iso_time(now), "actor": actor(player, None), **fields}
        return self.log.append(doc, entry, tournament_id, now)

    def _command(self, tournament_id: str, change: Callable[[Doc], Doc]) -> Doc:
        for _ in range(ATTEMPTS):
            try:
                return change(self._load(tournament_id))
            except Stale:
                continue
        raise Conflict("the tournament kept changing under this request; try again", code="busy")

    def _resign(self, player: Player, match_id: str) -> None:
        with contextlib.suppress(DomainError):  # not running (finished, not dealt): nothing to do
            self.resign(player, match_id)


def summary(doc: Doc) -> dict[str, Any]:
    fields = (
        "id", "name", "game", "variant", "players", "options", "rounds", "capacity",
        "bot_level", "starts_at", "turn_timeout", "created_by", "created", "status", "reason",
        "version",
    )  # fmt: skip
    return {
        **{k: doc.get(k) for k in fields},
        "duplicate": bool(doc.get("duplicate")),
        "registered": len(doc["entrants"]),
        "round": len(doc["rounds_paired"]),
    }


def parse_time(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC).timestamp()
