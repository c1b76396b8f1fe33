"""The lobby's use cases: load a match's snapshot, decide, append with the expected version.

No Flask here: the HTTP views call these, and so can a bot worker or a turn timer
(``submit_action`` with ``player=SYSTEM``). Every change to a match is exactly one
``MatchLog.append``, which writes the log entry, the snapshot, the idempotent answer and
the feed notification atomically. The only other writes are derivable or harmless:
the list index (rebuilt from the snapshots by ``rebuild_index``), player tokens, and
the bot credentials written just before the ``bot.added`` entry that names the bot.

The log entry format is documented in docs/match-log.md.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from typing import Any, Final

import redis
from prometheus_client import REGISTRY, Counter

from services.errors import (
    BadRequest,
    Conflict,
    DomainError,
    NotFound,
    Rejected,
    Unavailable,
    UpstreamRefused,
)
from services.settings import Settings
from services.store import match_log
from shared.eventstore import MATCH_ID, MAX_WAIT_SECONDS, MatchLog, VersionConflict, state_hash
from shared.redisconn import connect

from . import feed
from . import match as rules_of
from .match import FINISHED, OPEN, RUNNING, STATUSES, Match
from .players import Player, Players
from .rules_client import RulesClient, RulesRefused, RulesUnavailable
from .tickets import Tickets

MOVES = Counter(
    "tapete_moves_applied_total", "actions appended to match logs", ["game"], registry=REGISTRY
)
ANSWERS_KEPT_AFTER_FINISH = 3600  # seconds; the stored answers are most of a match's memory
SYSTEM: Final = None  # submit_action's player when the server itself acts (a timer): seat null
COMMAND_ATTEMPTS = 5  # a seat change without an expected version re-decides on a conflict
BOTS_SUFFIX = "bots"  # a match's key of its bots, beside its log
INDEX_KEY = "tapete:index:matches:{status}"  # sorted set: match id, scored by creation time
SNAPSHOT_PATTERN = "tapete:*:match:*:snapshot"
INDEX_SCAN_LIMIT = 1000  # the list reads at most this many of the newest matches
RECENT_SNAPSHOTS = 256  # matches per process whose latest snapshot is kept (~10 KB each)
SEAL_FIELD = "sig"  # the rules service's seal (services/rules/seal.py), left out of state hashes


def _package_version() -> str:
    try:
        return metadata.version("tapete")
    except metadata.PackageNotFoundError:
        return "unknown"


TAPETE_VERSION = _package_version()


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


def actor(player: Player | None, seat: int | None) -> dict[str, Any]:
    if player is None:
        return {"player": None, "seat": None, "system": True}
    if isinstance(player, StandIn):  # the server played for this seat: say so in the log
        return {"player": player.id, "seat": seat, "system": True}
    return {"player": player.id, "seat": seat, "system": False}


@dataclass(frozen=True)
class StandIn(Player):
    """The server acting for a seat's absent player (a turn timer), from that player's seat."""


@dataclass(frozen=True)
class Snapshot:
    """A match as of ``version``: its public document, its sealed state and its secret seed."""

    id: str
    version: int
    match: Match
    state: dict[str, Any] | None
    seed: str | None


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


@contextmanager
def rules_errors() -> Iterator[None]:
    """The rules service's refusals as the lobby's: an illegal action (422) passes through with
    its code, any other refusal is a defect of ours, and no answer is unavailability."""
    try:
        yield
    except RulesRefused as exc:
        if exc.status == 422:
            raise Rejected(exc.message, code=exc.code, details=exc.details) from exc
        message = f"the rules service refused: {exc.message}"
        raise UpstreamRefused(message, code="rules_refused") from exc
    except RulesUnavailable as exc:
        raise Unavailable(str(exc), code="rules_unavailable") from exc


REDIS_CONNECTIONS = 100  # per process; a request past them waits for one (a feed process
REDIS_POOL_WAIT_SECONDS = 20  # opening thousands of streams at once queues here)


def redis_client(url: str, cluster: bool = False) -> Any:
    """A pooled client whose socket outlives the longest long-poll; past ``REDIS_CONNECTIONS``
    busy connections (per node) a caller waits for a free one instead of failing."""
    return connect(
        url,
        cluster,
        max_connections=REDIS_CONNECTIONS,
        timeout=REDIS_POOL_WAIT_SECONDS,
        decode_responses=True,
        socket_timeout=MAX_WAIT_SECONDS + 5,
        socket_connect_timeout=2,
        health_check_interval=30,
    )


class Lobby:
    """Players, matches and moves over a match log in Redis and the rules service."""

    @classmethod
    def from_settings(
        cls, settings: Settings, request_id: Callable[[], str] = lambda: "-"
    ) -> Lobby:
        """The lobby on the store (REDIS_URL, FEED_PARTITIONS) and rules service (RULES_URL) of
        ``settings``; ``request_id`` names the request being served, for the rules calls."""
        client = redis_client(settings.redis_url, settings.redis_cluster)
        rules = RulesClient(settings.rules_url, request_id=request_id)
        log = match_log(settings, client)
        return cls(client, rules, log, feed_buffer=settings.feed_buffer)

    def __init__(
        self,
        client: redis.Redis,
        rules: RulesClient,
        log: MatchLog | None = None,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], str] = lambda: secrets.token_hex(32),
        feed_buffer: int = 256,
    ) -> None:
        """``new_seed`` draws each match's secret seed at its start (tests may rig a deal)."""
        self.client = client
        self.rules = rules
        self.log = log or MatchLog(client)
        self.players = Players(client)
        self.clock = clock
        self.new_seed = new_seed
        self.recent = RecentSnapshots()
        self.tickets = Tickets(client)
        self.hub = feed.Hub(self.log, feed_buffer)

    # -- players ---------------------------------------------------------------------------
    def register(self, name: str) -> tuple[Player, str]:
        return self.players.register(name)

    def authenticate(self, token: str) -> Player:
        return self.players.authenticate(token)

    # -- reading ---------------------------------------------------------------------------
    def load(self, match_id: str) -> Snapshot:
        """The match's latest snapshot, or 404."""
        if not MATCH_ID.fullmatch(match_id):
            raise NotFound(f"no match {match_id!r}")
        doc = self.log.snapshot(match_id)
        if doc is None:
            raise NotFound(f"no match {match_id!r}")
        snap = Snapshot(match_id, doc["version"], doc["match"], doc["state"], doc.get("seed"))
        self.recent.remember(snap)
        return snap

    def load_at(self, match_id: str, version: int) -> Snapshot:
        """The snapshot at ``version`` if this process has it, else the latest one."""
        return self.recent.at(match_id, version) or self.load(match_id)

    def get_match(self, player: Player, match_id: str) -> dict[str, Any]:
        return self._presented(self.load(match_id), player)

    def list_matches(self, status: str | None, game: str | None, limit: int) -> list[Match]:
        """The newest matches, optionally of one status and game, newest first."""
        scored: dict[str, float] = {}
        for wanted in [status] if status else list(STATUSES):
            rows: Any = self.client.zrevrange(
                INDEX_KEY.format(status=wanted), 0, INDEX_SCAN_LIMIT - 1, withscores=True
            )
            scored.update({_text(member): score for member, score in rows})
        ids = sorted(scored, key=lambda m: scored[m], reverse=True)[:INDEX_SCAN_LIMIT]
        pipe = self.client.pipeline(transaction=False)
        for match_id in ids:
            pipe.hget(self.log.keys(match_id).snapshot, "match")
        found = []
        for raw in pipe.execute():
            if raw is None:
                continue
            doc = json.loads(raw)
            if status and doc["status"] != status:
                self._index(doc)  # the index lagged behind the log: repair it now
                continue
            if game is None or doc["game"] == game:
                found.append(doc)
            if len(found) == limit:
                break
        return found

    def events(self, player: Player, match_id: str, after: int, wait: float) -> dict[str, Any]:
        """Entries after version ``after`` as the caller may see them, waiting up to ``wait``s."""
        snap = self.load(match_id)
        entries = self.log.wait(match_id, after, wait)
        seat = rules_of.seat_of(snap.match, player.id)
        return {
            "match": match_id,
            "version": entries[-1]["version"] if entries else snap.version,
            "entries": [rules_of.public_entry(entry, seat) for entry in entries],
        }

    # -- the stream ----------------------------------------------------------------------------
    def stream_ticket(self, player: Player, match_id: str) -> dict[str, Any]:
        """A single-use ticket to open this match's stream without a token in the URL."""
        self.load(match_id)
        ticket = self.tickets.issue(player, match_id)
        return {
            "ticket": ticket,
            "expires_in": self.tickets.seconds,
            "stream": f"/v1/matches/{match_id}/stream?ticket={ticket}",
        }

    def open_stream(
        self, player: Player, match_id: str, after: int, heartbeat: float
    ) -> Iterator[bytes]:
        """The match's entries after ``after`` redacted for the caller, then live (SSE bytes)."""
        snap = self.load(match_id)
        seat = rules_of.seat_of(snap.match, player.id)
        return feed.stream(self.hub, match_id, player.id, seat, after, heartbeat)

    def bot_token(self, match_id: str, seat: int) -> str | None:
        """The token a bot worker uses to act for a bot seat (never shown to clients)."""
        snap = self.load(match_id)
        player = (
            snap.match["seats"][seat]["player"] if 0 <= seat < len(snap.match["seats"]) else None
        )
        raw = self.client.hget(self._bots_key(match_id), player) if player else None
        return json.loads(raw)["token"] if raw else None  # type: ignore[arg-type]

    # -- seats -----------------------------------------------------------------------------
    def create_match(
        self,
        player: Player,
        game: str,
        variant: str,
        players: int | None,
        options: dict[str, Any],
        autostart: bool = True,
        turn_timeout: float | None = None,
    ) -> dict[str, Any]:
        """An open match, checked against the rules catalog. Its creator is not seated.

        ``turn_timeout`` (seconds): a seat that has not acted that long after a change of
        the match is played for by the bot timers (services/bots); None waits for ever.
        """
        with rules_errors():
            catalog = self.rules.catalog()
        if game not in catalog:
            raise BadRequest(f"no game {game!r}; games: {sorted(catalog)}", code="unknown_game")
        count = rules_of.check_setup(catalog[game], variant, players, options)
        match_id = secrets.token_hex(8)
        now = self.clock()
        match = rules_of.new_match(
            match_id, player, game, variant, count, options, autostart, iso_time(now)
        )
        match["turn_timeout"] = turn_timeout
        event = {"type": "match_created", "game": game, "variant": variant, "players": count}
        by = actor(player, None)
        entry = {"kind": "match.created", "actor": by, "events": [event], "match": match}
        return self._presented(self._append(None, match, entry, now=now), player)

    def join(self, player: Player, match_id: str, seat: int | None = None) -> dict[str, Any]:
        """Take ``seat`` (None: the first free one); a full match may then start itself."""

        def change(snap: Snapshot) -> Snapshot:
            match = rules_of.take_seat(snap.match, player, seat)
            taken = rules_of.seat_of(match, player.id)
            who = {"id": player.id, "name": player.name}
            event = {"type": "seat_joined", "seat": taken, "player": player.id, "name": player.name}
            entry = {"kind": "seat.joined", "actor": actor(player, taken), "events": [event]}
            return self._append(snap, match, {**entry, "seat": taken, "player": who})

        return self._presented(self._autostart(self._command(match_id, change)), player)

    def leave(self, player: Player, match_id: str) -> dict[str, Any]:
        """Give up one's seat before the match starts."""

        def change(snap: Snapshot) -> Snapshot:
            match, seat = rules_of.leave_seat(snap.match, player)
            who = {"id": player.id, "name": player.name}
            event = {"type": "seat_left", "seat": seat, "player": player.id}
            entry = {"kind": "seat.left", "actor": actor(player, seat), "events": [event]}
            return self._append(snap, match, {**entry, "seat": seat, "player": who})

        return self._presented(self._command(match_id, change), player)

    def add_bot(self, player: Player, match_id: str, seat: int, strategy: str) -> dict[str, Any]:
        """Seat a new bot player; its token is kept for the bot workers, never returned."""
        made: list[Player] = []

        def change(snap: Snapshot) -> Snapshot:
            rules_of.check_may_manage(snap.match, player)
            rules_of.check_bot_strategy(snap.match, strategy)
            rules_of.check_seat_free(snap.match, seat)  # refuse before making a bot player
            if not made:
                made.append(self._make_bot(match_id, seat, strategy))
            bot = made[0]
            match = rules_of.take_seat(snap.match, bot, seat, bot=strategy)
            event = {"type": "bot_added", "seat": seat, "player": bot.id, "strategy": strategy}
            by = actor(player, rules_of.seat_of(snap.match, player.id))
            entry = {"kind": "bot.added", "actor": by, "events": [event], "seat": seat}
            who = {"id": bot.id, "name": bot.name}
            return self._append(snap, match, {**entry, "strategy": strategy, "player": who})

        return self._presented(self._autostart(self._command(match_id, change)), player)

    def start(self, player: Player, match_id: str) -> dict[str, Any]:
        """Deal, once every seat is taken (the creator or a seated player asks)."""

        def change(snap: Snapshot) -> Snapshot:
            rules_of.check_may_manage(snap.match, player)
            rules_of.check_startable(snap.match)
            return self._start(snap, actor(player, rules_of.seat_of(snap.match, player.id)))

        return self._presented(self._command(match_id, change), player)

    # -- actions ---------------------------------------------------------------------------
    def submit_action(
        self,
        match_id: str,
        player: Player | None,
        action: dict[str, Any],
        expected_version: int,
        action_id: str | None = None,
    ) -> dict[str, Any]:
        """Apply ``action`` for the player's seat at ``expected_version``: version, events, view.

        ``player=SYSTEM`` acts as the server (seat null), e.g. a turn timer sending
        ``{"type": "timeout"}``: the rules decide which system actions are legal. An
        ``action_id`` makes a retry return the first answer and write nothing; ids are
        per player, so another player's id never reveals someone else's answer.
        """
        snap = self.load_at(match_id, expected_version)
        answer_key = f"{player.id if player else 'system'}:{action_id}" if action_id else None
        if answer_key:
            first = self.client.hget(self.log.keys(match_id).actions, answer_key)
            if first:
                return json.loads(first)["answer"]  # type: ignore[arg-type]
        match = snap.match
        rules_of.check_running(match)
        if expected_version != snap.version:
            raise _stale(snap.version)
        seat = None if player is SYSTEM else rules_of.seat_of(match, player.id)
        if player is not SYSTEM:
            rules_of.check_may_act(match, seat)
        assert snap.state is not None  # a running match has a state
        with rules_errors():
            outcome = self.rules.apply(match["game"], snap.state, seat, action)
            # the rules send the acting seat's view along; an older rules service may not
            view = outcome.view or self.rules.view(match["game"], outcome.state, seat)
        now = self.clock()
        changed = {
            **match,
            "status": FINISHED if outcome.finished else RUNNING,
            "to_act": outcome.to_act,
            "deadline": _deadline(outcome.deadline, now),
            "result": outcome.result,
        }
        entry = {
            "kind": "action",
            "actor": actor(player, seat),
            "action": action,
            "events": outcome.events,
            "finished": outcome.finished,
            "state_hash": outcome.state_hash,
        }
        if outcome.finished:  # the seed is revealed by the very entry that ends the match
            changed["seed"] = snap.seed
            entry.update(result=outcome.result, seed=snap.seed)
        answer = {
            "version": snap.version + 1,
            "events": rules_of.redact_all(outcome.events, seat),
            "view": view,
        }
        try:
            self._append(snap, changed, entry, outcome.state, snap.seed, now, answer_key, answer)
        except _Duplicate as duplicate:
            return duplicate.answer
        except VersionConflict as exc:
            raise _stale(exc.current_version) from exc
        MOVES.labels(match["game"]).inc()
        if outcome.finished:  # retries of the last moves still get their answer, for a while
            self.client.expire(self.log.keys(match_id).actions, ANSWERS_KEPT_AFTER_FINISH)
        return answer

    def seat_view(self, match_id: str, seat: int) -> dict[str, Any]:
        """``{"version", "view"}``: what ``seat`` sees now, for a turn timer choosing its move.

        Only for the server's own use (it needs no token): the timer sees what the seat's
        player would see, no more.
        """
        snap = self.load(match_id)
        rules_of.check_running(snap.match)
        if not 0 <= seat < snap.match["players"]:
            raise BadRequest(f"no seat {seat} in match {match_id}", code="bad_seat")
        assert snap.state is not None  # a running match has a state
        with rules_errors():
            view = self.rules.view(snap.match["game"], snap.state, seat)
        return {"version": snap.version, "view": view}

    def submit_for_seat(
        self,
        match_id: str,
        seat: int,
        action: dict[str, Any],
        expected_version: int,
        action_id: str | None = None,
    ) -> dict[str, Any]:
        """``submit_action`` by the server for ``seat`` (a turn timer playing for an absent
        player): the entry's actor is ``{"player": <the seat's player>, "seat": seat,
        "system": true}``, and the same version, turn and legality checks apply."""
        seats = self.load(match_id).match["seats"]
        if not 0 <= seat < len(seats) or seats[seat]["player"] is None:
            raise BadRequest(f"no player at seat {seat} of match {match_id}", code="bad_seat")
        stand_in = StandIn(seats[seat]["player"], seats[seat]["name"] or "")
        return self.submit_action(match_id, stand_in, action, expected_version, action_id)

    # -- the one way a match changes ---------------------------------------------------------
    def _append(
        self,
        before: Snapshot | None,
        match: Match,
        entry: dict[str, Any],
        state: dict[str, Any] | None = None,
        seed: str | None = None,
        now: float | None = None,
        action_id: str | None = None,
        answer: dict[str, Any] | None = None,
    ) -> Snapshot:
        """Append ``entry`` at ``before``'s version with the match's new snapshot and notification.

        ``entry`` holds its kind, actor, events and kind-specific fields (and the state hash
        when the rules service sent it); the rest (time, rules version, state hash, status,
        to_act, deadline) is filled in here. Raises VersionConflict when another change came
        first: then nothing was written.
        """
        entry = {
            "time": iso_time(self.clock() if now is None else now),
            "action": None,
            "rules_version": rules_version(match["game"]),
            "state_hash": entry.get("state_hash") or sealed_state_hash(state),
            "status": match["status"],
            "to_act": match["to_act"],
            "deadline": match["deadline"],
            **entry,
        }
        notification = {
            "game": match["game"],
            "status": match["status"],
            "to_act": match["to_act"],
            "deadline": match["deadline"],
            "bots": rules_of.bot_seats(match),
        }
        snapshot = {"state": state, "match": match, "seed": seed}
        result = self.log.append(
            match["id"], before.version if before else 0, entry, snapshot, notification,
            action_id, answer,
        )  # fmt: skip
        if result.duplicate:
            raise _Duplicate(result.answer or {})
        if before is None or before.match["status"] != match["status"]:
            self._index(match)
        snap = Snapshot(match["id"], result.version, match, state, seed)
        self.recent.remember(snap)
        return snap

    def _command(self, match_id: str, change: Callable[[Snapshot], Snapshot]) -> Snapshot:
        """Run a change the client sent without a version: on a conflict, reload and re-decide."""
        for _ in range(COMMAND_ATTEMPTS):
            try:
                return change(self.load(match_id))
            except VersionConflict:
                continue
        raise Conflict("the match kept changing under this request; try again", code="busy")

    def _start(self, snap: Snapshot, by: dict[str, Any]) -> Snapshot:
        """Draw the seed, deal through the rules service, publish the seed's SHA-256 only."""
        match = snap.match
        seed = self.new_seed()
        seed_sha256 = hashlib.sha256(seed.encode()).hexdigest()
        setup = {k: match[k] for k in ("game", "variant", "players", "options")}
        try:
            with rules_errors():
                outcome = self.rules.setup(
                    match["game"], match["variant"], match["players"], match["options"], seed
                )
        except Unavailable:
            raise
        except DomainError as exc:
            raise Conflict(
                f"the rules refused this setup: {exc.message}", code="setup_refused"
            ) from exc
        now = self.clock()
        started = {
            **match,
            "status": RUNNING,
            "started": iso_time(now),
            "seed_sha256": seed_sha256,
            "to_act": outcome.to_act,
            "deadline": _deadline(outcome.deadline, now),
        }
        event = {"type": "match_started", "seed_sha256": seed_sha256, "to_act": outcome.to_act}
        entry = {
            "kind": "match.started",
            "actor": by,
            "events": [event, *outcome.events],
            "seed_sha256": seed_sha256,
            "setup": setup,
            "state_hash": outcome.state_hash,
        }
        return self._append(snap, started, entry, outcome.state, seed, now)

    def _autostart(self, snap: Snapshot) -> Snapshot:
        """Start a full match whose creator asked for it; a concurrent change wins instead."""
        if not (snap.match["autostart"] and snap.match["status"] == OPEN):
            return snap
        if not rules_of.is_full(snap.match):
            return snap
        try:
            return self._start(snap, actor(SYSTEM, None))
        except VersionConflict:
            return self.load(snap.id)
        except DomainError:  # the seat is taken all the same; POST /start can deal later
            return snap

    def _make_bot(self, match_id: str, seat: int, strategy: str) -> Player:
        bot, token = self.players.register(f"{strategy} bot", bot=True)
        record = {"seat": seat, "strategy": strategy, "token": token}
        self.client.hset(self._bots_key(match_id), bot.id, json.dumps(record))
        return bot

    def _bots_key(self, match_id: str) -> str:
        """Beside the match's other keys (same hash tag): bot player id -> seat, token."""
        return self.log.key(match_id, BOTS_SUFFIX)

    def _presented(self, snap: Snapshot, player: Player) -> dict[str, Any]:
        """The match as the caller sees it: the document, its version and the caller's view."""
        view = None
        if snap.state is not None:
            seat = rules_of.seat_of(snap.match, player.id)
            with rules_errors():
                view = self.rules.view(snap.match["game"], snap.state, seat)
        return {**snap.match, "version": snap.version, "view": view}

    # -- the list index (derivable from the snapshots) ----------------------------------------
    def _index(self, match: Match) -> None:
        """File the match under its status only; idempotent, so a repeat or a repair is safe."""
        score = datetime.fromisoformat(match["created"]).timestamp()
        pipe = self.client.pipeline(transaction=False)
        for status in STATUSES:
            key = INDEX_KEY.format(status=status)
            if status == match["status"]:
                pipe.zadd(key, {match["id"]: score})
            else:
                pipe.zrem(key, match["id"])
        pipe.execute()

    def rebuild_index(self) -> int:
        """Re-file every match from its snapshot (after a crash between append and index)."""
        count = 0
        for key in self.client.scan_iter(match=SNAPSHOT_PATTERN, count=500):
            raw = self.client.hget(key, "match")
            if raw:
                self._index(json.loads(raw))  # type: ignore[arg-type]
                count += 1
        return count

    def ready(self) -> bool:
        try:
            return bool(self.client.ping())
        except redis.RedisError:
            return False


class _Duplicate(Exception):
    """The action id was already answered: the first answer, nothing written."""

    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__("duplicate action id")
        self.answer = answer


def _stale(current: int) -> Conflict:
    return Conflict(
        f"expected_version is stale: the match is at version {current}",
        code="stale_version",
        details={"version": current},
    )


def _deadline(deadline: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """The rules' window with the time it closes, for timers and clients."""
    if not deadline:
        return None
    seconds = deadline.get("seconds")
    if isinstance(seconds, int | float):
        return {**deadline, "at": iso_time(now + seconds)}
    return dict(deadline)


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
