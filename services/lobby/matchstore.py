"""What every use case of the lobby shares: a match's snapshot, and the one append that
changes it.

Every change to a match is exactly one ``MatchLog.append`` (``MatchStore.append``), which
writes the log entry, the snapshot, the idempotent answer and the feed notification
atomically. The only other writes are derivable or harmless: the list index (rebuilt from
the snapshots by ``listing.rebuild``), player tokens, and the bot credentials written just
before the ``bot.added`` entry that names the bot. The log entry format is documented in
docs/match-log.md.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import redis

from services.errors import Conflict, NotFound
from shared.eventstore import MATCH_ID, ActionIdExpired, MatchLog, VersionConflict
from shared.jsoncodec import state_hash
from shared.version import TAPETE_VERSION

from . import listing
from . import match as rules_of
from .idempotency import ANSWERS_KEPT_AFTER_FINISH, OLDER, Duplicate, Idempotent, expired
from .match import FINISHED, OPEN, RUNNING, Match
from .players import Player, Players
from .quotas import OpenMatches
from .rules_client import RulesClient, rules_errors
from .undo import may_undo

SYSTEM: Final = None  # submit_action's player when the server itself acts (a timer): seat null
COMMAND_ATTEMPTS = 5  # a seat change without an expected version re-decides on a conflict
RECENT_SNAPSHOTS = 256  # matches per process whose latest snapshot is kept (~10 KB each)
LOG = logging.getLogger("tapete.lobby")
SEAL_FIELD = "sig"  # the rules service's seal (services/rules/seal.py), left out of state hashes


def rules_version(game: str) -> str:
    """Which rules produced an entry: the engine's package version and the game id."""
    return f"tapete-{TAPETE_VERSION}/{game}"


def sealed_state_hash(state: dict[str, Any] | None) -> str | None:
    """SHA-256 of the state without its seal: a replay under another key hashes the same."""
    if state is None:
        return None
    return state_hash({k: v for k, v in state.items() if k != SEAL_FIELD})


def iso_time(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")[:-6] + "Z"


@dataclass(frozen=True)
class StandIn(Player):
    """The server acting for a seat's absent player (a turn timer), from that player's seat."""


def actor(player: Player | None, seat: int | None) -> dict[str, Any]:
    if player is None:
        return {"player": None, "seat": None, "system": True}
    if isinstance(player, StandIn):  # the server played for this seat: say so in the log
        return {"player": player.id, "seat": seat, "system": True}
    return {"player": player.id, "seat": seat, "system": False}


def stale(current: int) -> Conflict:
    return Conflict(
        f"expected_version is stale: the match is at version {current}",
        code="stale_version",
        details={"version": current},
    )


def deadline_at(deadline: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """The rules' window with the time it closes, for timers and clients."""
    if not deadline:
        return None
    seconds = deadline.get("seconds")
    if isinstance(seconds, int | float):
        return {**deadline, "at": iso_time(now + seconds)}
    return dict(deadline)


def turn_deadline(match: Match, now: float) -> str | None:
    """When the turn timer plays for the persons to act now (a running match with a
    ``turn_timeout``): a client draws its countdown from it, the bot dispatcher sets its timer."""
    timeout = match.get("turn_timeout")
    if match["status"] != RUNNING or not timeout:
        return None
    bots = {bot["seat"] for bot in rules_of.bot_seats(match)}
    if not any(seat not in bots for seat in match["to_act"]):
        return None
    return iso_time(now + timeout)


@dataclass(frozen=True)
class Snapshot:
    """A match as of ``version``: its public document, its sealed state and its secret seed;
    a solitaire's, the sealed states before the moves still undoable (services/lobby/undo.py)."""

    id: str
    version: int
    match: Match
    state: dict[str, Any] | None
    seed: str | None
    undo: list[dict[str, Any]] = field(default_factory=list)


class RecentSnapshots:
    """The newest snapshot this process wrote or read of each recent match, by version.

    A match at a given version never changes (every change is an append, which makes a new
    version), so a move sent with ``expected_version`` equal to a remembered version can skip
    the Redis read. If the match moved on meanwhile in another process, the append's
    compare-and-append refuses it as stale, exactly as a fresh read would have. Holders must
    not mutate the remembered documents.
    """

    def __init__(self, size: int = RECENT_SNAPSHOTS) -> None:
        self.size = size
        self._by_match: dict[str, Snapshot] = {}
        self._lock = threading.Lock()

    def remember(self, snap: Snapshot) -> None:
        with self._lock:
            known = self._by_match.pop(snap.id, None)
            if known is not None and known.version > snap.version:
                snap = known  # a slower reader must not replace a newer snapshot
            elif known is None and len(self._by_match) >= self.size:
                del self._by_match[next(iter(self._by_match))]  # the least recently used
            self._by_match[snap.id] = snap

    def at(self, match_id: str, version: int) -> Snapshot | None:
        snap = self._by_match.get(match_id)
        return snap if snap is not None and snap.version == version else None


class MatchStore:
    """The matches in Redis as the use cases see them: loaded as snapshots, changed only by
    ``append``, shown to a caller by ``presented``. One per lobby, shared by its concerns."""

    def __init__(
        self,
        client: redis.Redis,
        rules: RulesClient,
        log: MatchLog,
        players: Players,
        open_matches: OpenMatches,
        clock: Callable[[], float],
        listing_shards: int,
    ) -> None:
        self.client = client
        self.rules = rules
        self.log = log
        self.players = players
        self.open_matches = open_matches
        self.clock = clock
        self.listing_shards = listing_shards
        self.recent = RecentSnapshots()
        # Called with a match's snapshot once an append has finished it (a duplicate group's
        # reveal): a failure is logged, the append stands, and the next call tries again.
        self.when_finished: list[Callable[[Snapshot], None]] = []

    # -- reading -----------------------------------------------------------------------------
    def load(self, match_id: str) -> Snapshot:
        """The match's latest snapshot, or 404."""
        if not MATCH_ID.fullmatch(match_id):
            raise NotFound(f"no match {match_id!r}")
        doc = self.log.snapshot(match_id)
        if doc is None:
            raise NotFound(f"no match {match_id!r}")
        snap = Snapshot(
            match_id, doc["version"], doc["match"], doc["state"], doc.get("seed"),
            doc.get("undo") or [],
        )  # fmt: skip
        self.recent.remember(snap)
        return snap

    def exists(self, match_id: str) -> bool:
        return bool(self.client.exists(self.log.keys(match_id).snapshot))

    def load_at(self, match_id: str, version: int) -> Snapshot:
        """The snapshot at ``version`` if this process has it, else the latest one."""
        return self.recent.at(match_id, version) or self.load(match_id)

    def presented(self, snap: Snapshot, player: Player) -> dict[str, Any]:
        """The match as the caller sees it: the document, its version and the caller's view
        (its facts naming the players, in the request's language)."""
        view = None
        if snap.state is not None:
            seat = rules_of.seat_for(snap.match, player)
            names = rules_of.seat_names(snap.match)
            with rules_errors():
                view = self.rules.view(snap.match["game"], snap.state, seat, names)
            view = {
                **view,
                "turn_deadline": snap.match.get("turn_deadline"),
                "may_undo": may_undo(snap.match, snap.undo, player, seat),
            }
        return {**snap.match, "version": snap.version, "view": view}

    def match_keys(self, match_id: str) -> list[str]:
        """Every key of one match (not the shared feed stream)."""
        keys = self.log.keys(match_id)
        return [keys.log, keys.snapshot, keys.actions]

    # -- the one way a match changes ---------------------------------------------------------
    def append(
        self,
        before: Snapshot | None,
        match: Match,
        entry: dict[str, Any],
        state: dict[str, Any] | None = None,
        seed: str | None = None,
        now: float | None = None,
        once: Idempotent | None = None,
        undo: list[dict[str, Any]] | None = None,
    ) -> Snapshot:
        """Append ``entry`` at ``before``'s version with the match's new snapshot and notification.

        ``entry`` holds its kind, actor, events and kind-specific fields (and the state hash
        when the rules service sent it); the rest (time, rules version, state hash, status,
        to_act, deadline) is filled in here. ``once``: the action id and answer of an
        idempotent action (``Duplicate`` when that id is the player's latest, answered
        before; 409 ``action_id_expired`` for an older id of theirs: either way nothing was
        written). ``undo``: a solitaire's new undo stack (None: as it was). Raises
        VersionConflict when another change came first: then nothing was written.
        """
        now = self.clock() if now is None else now
        match = {**match, "turn_deadline": turn_deadline(match, now)}
        entry = {
            "time": iso_time(now),
            "action": None,
            "rules_version": rules_version(match["game"]),
            "state_hash": entry.get("state_hash") or sealed_state_hash(state),
            "status": match["status"],
            "to_act": match["to_act"],
            "deadline": match["deadline"],
            "turn_deadline": match["turn_deadline"],
            **entry,
        }
        notification = {
            "game": match["game"],
            "status": match["status"],
            "to_act": match["to_act"],
            "deadline": match["deadline"],
            "turn_deadline": match["turn_deadline"],
            "bots": rules_of.bot_seats(match),
            "bot_pace": rules_of.bot_pace(match),
        }
        if match.get("tournament"):  # its end advances the tournament (services/bots)
            notification["tournament"] = match["tournament"]["id"]
        snapshot: dict[str, Any] = {"state": state, "match": match, "seed": seed}
        if undo is not None:  # left out, the snapshot's field keeps its value
            snapshot["undo"] = undo
        try:
            result = self.log.append(
                match["id"], before.version if before else 0, entry, snapshot, notification,
                once.action_id if once else None, once.answer if once else None,
                once.fingerprint if once else None, once.owner if once else "",
            )  # fmt: skip
        except ActionIdExpired as exc:
            raise expired(OLDER) from exc
        if result.duplicate:
            raise Duplicate(result.answer or {}, result.fingerprint)
        listing.refile(self.client, before.match if before else None, match, self.listing_shards)
        if match["status"] == OPEN or (before is not None and before.match["status"] == OPEN):
            self.open_matches.keep(self.match_keys(match["id"]), match["status"] == OPEN)
        if match["status"] == FINISHED and (before is None or before.match["status"] != FINISHED):
            bots = [bot["seat"] for bot in rules_of.bot_seats(match)]
            self.players.revoke_bot_seats(match["id"], bots)  # their match is over
        kept = undo if undo is not None else before.undo if before else []
        snap = Snapshot(match["id"], result.version, match, state, seed, kept)
        self.recent.remember(snap)
        if match["status"] == FINISHED and (before is None or before.match["status"] != FINISHED):
            self._finished(snap)
        return snap

    def _finished(self, snap: Snapshot) -> None:
        for hook in self.when_finished:
            try:
                hook(snap)
            except Exception as exc:  # the append stands; GET /v1/duplicates/{id} retries
                LOG.warning(
                    "after a match finished",
                    extra={"fields": {"match": snap.id, "error": repr(exc)}},
                )

    def command(self, match_id: str, change: Callable[[Snapshot], Snapshot]) -> Snapshot:
        """Run a change the client sent without a version: on a conflict, reload and re-decide."""
        for _ in range(COMMAND_ATTEMPTS):
            try:
                return change(self.load(match_id))
            except VersionConflict:
                continue
        raise Conflict("the match kept changing under this request; try again", code="busy")

    def keep_answers_a_while(self, match_id: str) -> None:
        """A finished match's stored answers expire: retries of each player's last move still
        get their answer, for ``ANSWERS_KEPT_AFTER_FINISH`` seconds."""
        self.client.expire(self.log.keys(match_id).actions, ANSWERS_KEPT_AFTER_FINISH)
