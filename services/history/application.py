"""The history service's use cases: the log, replays, verification, scores, histories, ratings.

No Flask here: refusals are domain errors (``services/errors.py``). Everything a match says
is read from its log (the authority) or from the read models the consumer keeps; the pure
functions of ``replay``, ``verify`` and ``projections`` decide what is shown. Nothing needs
a token: a running match's log and replays are shown only as a spectator sees them, and a
seat's replay (its hand) only once the match is finished and everything is revealed anyway.
"""

from __future__ import annotations

import re
from typing import Any

import redis

from services.errors import BadRequest, Conflict, Forbidden, NotFound
from services.settings import Settings
from services.store import match_log
from shared import swiss, tournament_log
from shared.bots import catalog_entry
from shared.coldstore import ColdStore, DirectoryStore
from shared.duplicate import HIDDEN, group_of, hidden_from
from shared.engine import DEFAULT_LANGUAGE, get_game, view
from shared.eventstore import MATCH_ID, MatchLog
from shared.redisconn import connect
from shared.verify import (
    Diverged,
    Entry,
    export_document,
    revealed_seed,
    started_entry,
    state_at,
)

from . import projections
from .archive import Archive, cold_store
from .replay import game_of, is_finished, is_revealed, public_log, seat_names
from .store import ReadModels
from .verify import counted, verify

GAME_ID = re.compile(r"[a-z0-9-]{1,64}")


def redis_client(url: str, cluster: bool = False) -> Any:
    return connect(url, cluster, decode_responses=True, socket_timeout=10, socket_connect_timeout=2)


class History:
    def __init__(
        self,
        client: redis.Redis,
        log: MatchLog,
        cold: ColdStore | None = None,
        archive_after_s: float | None = None,
    ) -> None:
        """``cold``: where archived matches are (None: a directory store nobody archives to)."""
        self.client = client
        self.log = log
        self.models = ReadModels(client, log, archive_after_s)
        self.archive = Archive(self.models, cold or DirectoryStore("var/archive"), archive_after_s)
        self.tournaments = tournament_log.TournamentLog(client)

    @classmethod
    def from_settings(cls, settings: Settings) -> History:
        """The history on the store ``settings`` names (REDIS_URL, FEED_PARTITIONS, ARCHIVE_*);
        the process stops here (``MissingSecret``) without a usable Redis password."""
        settings = settings.with_secrets("history")
        client = redis_client(settings.redis_url, settings.redis_cluster)
        return cls(
            client, match_log(settings, client), cold_store(settings), settings.archive_after_s
        )

    def entries(self, match_id: str) -> list[Entry]:
        """The whole match log (from Redis, else from its archive), or 404."""
        if not MATCH_ID.fullmatch(match_id):
            raise NotFound(f"no match {match_id!r}")
        entries = self.log.entries(match_id)
        if not entries:
            entries = (self.archive.document(match_id) or {}).get("entries") or []
        if not entries:
            raise NotFound(f"no match {match_id!r}")
        return entries

    def finished_entries(self, match_id: str, done: str) -> list[Entry]:
        """The whole log of a finished match; 409 before the end, when ``done`` (verified,
        exported) would mean nothing without the seed."""
        entries = self.entries(match_id)
        if not is_finished(entries):
            raise Conflict(
                f"only a finished match can be {done}: its seed is revealed at the end",
                code="match_not_finished",
                details={"status": entries[-1].get("status")},
            )
        if not is_revealed(entries):
            raise Conflict(
                f"this duplicate table can be {done} once every table of its group has "
                "finished: its seed is revealed then",
                code="seed_withheld",
                details={"status": entries[-1].get("status")},
            )
        return entries

    def watched_entries(self, match_id: str) -> list[Entry]:
        """The whole log, unless it is a duplicate table hidden while its group plays
        (``check_shown``: 403)."""
        entries = self.entries(match_id)
        check_shown(entries[0].get("match") or {}, is_revealed(entries))
        return entries

    def match_log(self, match_id: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """Every entry: redacted while the match runs, everything (seed included) once finished;
        each entry's sentences in ``lang``."""
        entries = self.watched_entries(match_id)
        finished = is_revealed(entries)
        start = started_entry(entries)
        return {
            "match": match_id,
            "status": entries[-1].get("status"),
            "version": entries[-1]["version"],
            "revealed": finished,
            "seed": revealed_seed(entries) if finished else None,
            "seed_sha256": (start or (entries[0].get("match") or {})).get("seed_sha256"),
            "entries": public_log(entries, lang),
        }

    def replay(
        self, match_id: str, version: int | None, seat: int | None, lang: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The view at ``version`` for ``seat`` (None: a spectator); seats only once finished.
        Its facts are said in ``lang``, the players by name."""
        entries = self.watched_entries(match_id)
        last = entries[-1]["version"]
        version = last if version is None else version
        if not 1 <= version <= last:
            raise BadRequest(
                f"version must be from 1 to {last}", code="bad_version", details={"version": last}
            )
        players = int((entries[0].get("match") or {}).get("players") or 0)
        if seat is not None and not 0 <= seat < players:
            raise BadRequest(f"seat must be from 0 to {players - 1}", code="bad_seat")
        finished = is_revealed(entries)
        if seat is not None and not finished:
            raise Forbidden(
                "a seat's replay shows its hidden cards: only once the match is finished "
                "(replay without a seat for the spectator's view)",
                code="match_running",
            )
        at = entries[version - 1]
        out = {"match": match_id, "version": version, "seat": seat, "status": at.get("status")}
        start = started_entry(entries)
        if start is None or start["version"] > version:
            return {**out, "view": None}
        seed = (revealed_seed(entries) if finished else None) or self._secret_seed(match_id)
        try:
            state = state_at(entries, seed, version)
        except Diverged as exc:
            raise Conflict(
                f"the log does not replay ({exc}); GET /verify reports where",
                code="unknown_rules_version" if exc.check == "rules" else "log_diverges",
                details={"version": exc.version},
            ) from exc
        assert state is not None
        return {**out, "view": view(state, seat, lang, seat_names(entries))}

    def verify(self, match_id: str) -> dict[str, Any]:
        """The verification report of a finished match (see verify.py)."""
        entries = self.finished_entries(match_id, "verified")
        return {"match": match_id, **counted(verify(entries))}

    def export(self, match_id: str) -> dict[str, Any]:
        """A finished match as one self-contained document (shared/verify.py): whoever holds
        it can verify the match without any service (``python -m shared.verify``)."""
        entries = self.finished_entries(match_id, "exported")
        return export_document(match_id, entries, catalog_entry(get_game(game_of(entries))))

    def scores(self, match_id: str) -> dict[str, Any]:
        """The score sheet: the read model once finished, the live public totals before."""
        if MATCH_ID.fullmatch(match_id):
            sheet = self.models.sheet(match_id)
            if sheet is not None:
                return sheet
            snap = self.log.snapshot(match_id)
            if snap is not None:
                check_shown(snap["match"], bool(snap["match"].get("seed")))
                return projections.live_sheet(snap["match"], snap.get("state"), snap["version"])
            archived = self.archive.document(match_id)
            if archived is not None and archived["scores"] is not None:
                return archived["scores"]
        raise NotFound(f"no match {match_id!r}")

    def player_matches(self, player_id: str, limit: int, before: float | None) -> dict[str, Any]:
        """The player's matches, newest first, each with the player's seat and whether they won."""
        if not MATCH_ID.fullmatch(player_id):
            raise NotFound(f"no player {player_id!r}")
        matches = []
        archived = self.archive.document
        for summary in self.models.player_matches(player_id, limit, before, archived):
            seat = next((s["seat"] for s in summary["seats"] if s["player"] == player_id), None)
            winners = (summary.get("result") or {}).get("winners")
            won = None if winners is None or seat is None else seat in winners
            matches.append({**summary, "seat": seat, "won": won})
        return {"player": player_id, "matches": matches}

    def leaderboard(self, game: str, limit: int) -> dict[str, Any]:
        """A game's players by rating (404 for a game the engine does not know)."""
        if not GAME_ID.fullmatch(game):
            raise NotFound("no such game: game ids are lowercase kebab-case", code="unknown_game")
        get_game(game)
        return {"game": game, "players": self.models.leaderboard(game, limit)}

    def rating(self, player_id: str, game: str) -> dict[str, Any]:
        """A player's rating in a game (404: no such game, or never rated in it)."""
        if not GAME_ID.fullmatch(game):
            raise NotFound("no such game: game ids are lowercase kebab-case", code="unknown_game")
        get_game(game)
        record = self.models.rating(game, player_id) if len(player_id) <= 64 else None
        if record is None:
            raise NotFound(f"player {player_id!r} has no rating in {game}", code="not_rated")
        return {**record, "game": game, "rating": projections.ordinal(record)}

    def tournament_standings(self, tournament_id: str) -> dict[str, Any]:
        """A tournament's standings, replayed from its log and its matches' logs (the match
        results; a match of the tournament not finished yet counts for nothing)."""
        doc = tournament_log.replay(self.tournaments.entries(tournament_id))
        if doc is None:
            raise NotFound(f"no tournament {tournament_id!r}")
        results = {}
        for match_id in tournament_log.match_ids(doc):
            try:
                entries = self.entries(match_id)
            except NotFound:  # its round was paired, its match not created yet
                continue
            outcome = swiss.match_outcome(entries)
            if outcome is not None:
                results[match_id] = outcome
        return {
            "tournament": doc["id"], "name": doc["name"], "game": doc["game"],
            "status": doc["status"], "round": len(doc["rounds_paired"]), "rounds": doc["rounds"],
            "duplicate": bool(doc.get("duplicate")), "matches": len(results), "standings": tournament_log.standings_of(doc, results),
        }  # fmt: skip

    def ready(self) -> bool:
        try:
            return bool(self.client.ping())
        except redis.RedisError:
            return False

    def _secret_seed(self, match_id: str) -> str:
        """The seed of a running match, from the lobby's snapshot: used here, never shown."""
        snap = self.log.snapshot(match_id) or {}
        seed = snap.get("seed")
        if not isinstance(seed, str) or not seed:
            raise Conflict("the match's seed is not available", code="log_diverges")
        return seed


def check_shown(match: dict[str, Any], revealed: bool) -> None:
    """403 for a duplicate table whose group seats a person at another table and has not
    revealed its seed: this service does not know who asks, and that person holds the same
    cards (``shared.duplicate.hidden_from``)."""
    group = group_of(match)
    if group is not None and hidden_from(group, revealed, None):
        raise Forbidden(
            "a table of a duplicate group is not shown here while its group plays: a "
            "player of another table holds the same cards; watch it in the lobby, or "
            "read it here once every table of the group has finished",
            code=HIDDEN,
            details={"group": group["group"]},
        )
