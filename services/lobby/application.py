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
    Forbidden,
    NotFound,
    Rejected,
    Unavailable,
    UpstreamRefused,
)
from services.settings import DEV_BOT_TOKEN_KEY, Settings
from services.store import match_log
from shared.endings import ABANDONED, RESIGNED, ended_result
from shared.eventstore import MATCH_ID, MAX_WAIT_SECONDS, MatchLog, VersionConflict, state_hash
from shared.redisconn import connect

from . import feed, listing
from . import match as rules_of
from .match import FINISHED, OPEN, RUNNING, Match
from .players import Player, Players, bot_player
from .quotas import DEFAULT_QUOTAS, OpenMatches, Quotas, check_memory
from .rules_client import RulesClient, RulesRefused, RulesUnavailable
from .tickets import Tickets

MOVES = Counter(
    "tapete_moves_applied_total", "actions appended to match logs", ["game"], registry=REGISTRY
)
ANSWERS_KEPT_AFTER_FINISH = 3600  # seconds; the stored answers are most of a match's memory
SYSTEM: Final = None  # submit_action's player when the server itself acts (a timer): seat null
COMMAND_ATTEMPTS = 5  # a seat change without an expected version re-decides on a conflict
SNAPSHOT_PATTERN = "tapete:*:match:*:snapshot"
MISSED_TURNS_LIMIT = 3  # a person's turns timed out in a row before the match is abandoned
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
        ``settings``; ``request_id`` names the request being served, for the rules calls. The
        process stops here (``MissingSecret``) without a usable bot token key or Redis password:
        the lobby, the feed and the bot workers all build their lobby here, at their start."""
        settings = settings.with_secrets("lobby")
        client = redis_client(settings.redis_url, settings.redis_cluster)
        rules = RulesClient(settings.rules_url, request_id=request_id)
        log = match_log(settings, client)
        return cls(
            client, rules, log, feed_buffer=settings.feed_buffer,
            bot_token_key=settings.bot_token_key or "", quotas=Quotas.from_settings(settings),
            listing_shards=settings.listing_shards,
        )  # fmt: skip

    def __init__(
        self,
        client: redis.Redis,
        rules: RulesClient,
        log: MatchLog | None = None,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], str] = lambda: secrets.token_hex(32),
        feed_buffer: int = 256,
        bot_token_key: str = DEV_BOT_TOKEN_KEY,
        quotas: Quotas = DEFAULT_QUOTAS,
        listing_shards: int = Settings.listing_shards,
    ) -> None:
        """``new_seed`` draws each match's secret seed at its start (tests may rig a deal);
        ``bot_token_key`` derives bot seats' tokens (the development key by default, for a lobby
        built in a test; ``from_settings`` gives the process's checked key);
        ``quotas`` bound the open matches and the store's memory (quotas.py);
        ``listing_shards`` is how many slots each match list index spreads over (listing.py)."""
        self.client = client
        self.rules = rules
        self.log = log or MatchLog(client)
        self.players = Players(client, bot_token_key)
        self.clock = clock
        self.new_seed = new_seed
        self.recent = RecentSnapshots()
        self.tickets = Tickets(client)
        self.hub = feed.Hub(self.log, feed_buffer)
        self.quotas = quotas
        self.open_matches = OpenMatches(client, quotas)
        if listing_shards < 1:
            raise ValueError("listing_shards must be at least 1")
        self.listing_shards = listing_shards

    # -- players ---------------------------------------------------------------------------
    def register(self, name: str) -> tuple[Player, str]:
        return self.players.register(name)

    def authenticate(self, token: str) -> Player:
        return self.players.authenticate(token)

    def rotate_token(self, token: str) -> tuple[Player, str]:
        return self.players.rotate(token)

    def revoke_token(self, token: str) -> None:
        self.players.revoke(token)

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

    def list_matches(
        self,
        player: Player,
        *,
        status: str | None = None,
        game: str | None = None,
        mine: bool = False,
        free_seats: bool = False,
        limit: int = 50,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        """One page of matches passing the filters, newest first, and the next page's cursor.

        Reads the top of each shard of one index (``listing.py``), then the page's match
        documents only.
        """
        if free_seats and status not in (None, OPEN):
            raise BadRequest("free_seats lists open matches only", code="bad_filter")
        scope = listing.scope_of(player.id if mine else None)
        index = (scope, game or listing.ANY, listing.FREE if free_seats else status or listing.ANY)
        shards = range(self.listing_shards)
        keys = [listing.key(*index, shard) for shard in shards]
        ids, following = listing.page_ids(self.client, keys, limit, cursor)
        pipe = self.client.pipeline(transaction=False)
        for match_id in ids:
            pipe.hget(self.log.keys(match_id).snapshot, "match")
        found = []
        for match_id, raw in zip(ids, pipe.execute(), strict=True):
            doc = json.loads(raw) if raw else None
            filed = keys[listing.shard_of(match_id, self.listing_shards)]
            if doc is None or filed not in listing.keys_of(doc, self.listing_shards):
                # the index lagged behind the log: repair it now
                listing.unfile(self.client, filed, match_id)
                if doc is not None:
                    listing.refile(self.client, None, doc, self.listing_shards)
                continue
            found.append(doc)
        return {"matches": found, "next": following}

    def events(self, player: Player, match_id: str, after: int, wait: float) -> dict[str, Any]:
        """Entries after version ``after`` as the caller may see them, waiting up to ``wait``s."""
        snap = self.load(match_id)
        finished = snap.match["status"] == FINISHED
        # a finished match has nothing more to wait for: the poll answers at once
        entries = self.log.wait(match_id, after, 0 if finished else wait)
        seat = rules_of.seat_for(snap.match, player)
        last = entries[-1] if entries else None
        return {
            "match": match_id,
            "version": last["version"] if last else snap.version,
            "status": last["status"] if last else snap.match["status"],
            "finished": (last["status"] if last else snap.match["status"]) == FINISHED,
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
        seat = rules_of.seat_for(snap.match, player)
        return feed.stream(self.hub, match_id, player.id, seat, after, heartbeat)

    def bot_token(self, match_id: str, seat: int) -> str | None:
        """The token a bot worker uses to act for a bot seat (never shown to clients), or
        None if no bot holds that seat. Derived, never stored (players.py)."""
        seats = self.load(match_id).match["seats"]
        if not 0 <= seat < len(seats) or seats[seat]["bot"] is None:
            return None
        return self.players.bot_seat_token(match_id, seat)

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
        self._check_room_for_a_match(player)
        match_id = secrets.token_hex(8)
        now = self.clock()
        match = rules_of.new_match(
            match_id, player, game, variant, count, options, autostart, iso_time(now)
        )
        match["turn_timeout"] = turn_timeout
        event = {"type": "match_created", "game": game, "variant": variant, "players": count}
        by = actor(player, None)
        entry = {"kind": "match.created", "actor": by, "events": [event], "match": match}
        created = self._append(None, match, entry, now=now)
        self.open_matches.created(player.id, match_id)
        return self._presented(created, player)

    def join(self, player: Player, match_id: str, seat: int | None = None) -> dict[str, Any]:
        """Take ``seat`` (None: the first free one); a full match may then start itself."""

        def change(snap: Snapshot) -> Snapshot:
            match = rules_of.take_seat(snap.match, player, seat)
            taken = rules_of.seat_for(match, player)
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
        """Seat the strategy's bot player; the seat's token is for the bot workers only."""
        bot = bot_player(strategy)

        def change(snap: Snapshot) -> Snapshot:
            rules_of.check_may_manage(snap.match, player)
            rules_of.check_bot_strategy(snap.match, strategy)
            rules_of.check_seat_free(snap.match, seat)  # refuse before storing a token
            self.players.seat_bot(bot, match_id, seat)
            match = rules_of.take_seat(snap.match, bot, seat, bot=strategy)
            event = {"type": "bot_added", "seat": seat, "player": bot.id, "strategy": strategy}
            by = actor(player, rules_of.seat_for(snap.match, player))
            entry = {"kind": "bot.added", "actor": by, "events": [event], "seat": seat}
            who = {"id": bot.id, "name": bot.name}
            return self._append(snap, match, {**entry, "strategy": strategy, "player": who})

        return self._presented(self._autostart(self._command(match_id, change)), player)

    def start(self, player: Player, match_id: str) -> dict[str, Any]:
        """Deal, once every seat is taken (the creator or a seated player asks)."""

        def change(snap: Snapshot) -> Snapshot:
            rules_of.check_may_manage(snap.match, player)
            rules_of.check_startable(snap.match)
            return self._start(snap, actor(player, rules_of.seat_for(snap.match, player)))

        return self._presented(self._command(match_id, change), player)

    def resign(self, player: Player, match_id: str) -> dict[str, Any]:
        """End a running match for the caller's seat: every other side wins."""

        def change(snap: Snapshot) -> Snapshot:
            rules_of.check_running(snap.match)
            seat = rules_of.seat_for(snap.match, player)
            if seat is None:
                raise Forbidden("you have no seat in this match", code="not_seated")
            return self._end(snap, RESIGNED, seat, actor(player, seat))

        return self._presented(self._command(match_id, change), player)

    def abandon(
        self, match_id: str, version: int, seat: int | None = None, by: dict | None = None
    ) -> Snapshot:
        """End a running match still at ``version`` as abandoned: by ``seat`` when a turn
        timer gave up on it, by nobody when the whole match lay idle (the idle limit).
        409 when the match has moved on or is not running."""
        snap = self.load(match_id)
        rules_of.check_running(snap.match)
        if snap.version != version:
            raise _stale(snap.version)
        try:
            return self._end(snap, ABANDONED, seat, by or actor(SYSTEM, None))
        except VersionConflict as exc:
            raise _stale(exc.current_version) from exc

    def rematch(self, player: Player, match_id: str) -> dict[str, Any]:
        """Offer the players of a finished match a new one with the same seats and options.

        The caller takes their seat, bots take theirs, and each other person's seat is kept
        for them: they see the offer in the old match (``rematch``, a ``rematch.offered``
        entry) and in their own list (``mine=true``), and accept by joining it. Asking
        again gives the same new match.
        """
        old = self.load(match_id)
        if old.match.get("rematch"):
            return self.get_match(player, old.match["rematch"])
        new_id = secrets.token_hex(8)
        match = rules_of.rematch_of(old.match, new_id, player, iso_time(self.clock()))
        self._check_room_for_a_match(player)
        event = {"type": "match_created", "game": match["game"], "variant": match["variant"],
                 "players": match["players"], "rematch_of": match_id}  # fmt: skip
        entry = {"kind": "match.created", "actor": actor(player, None), "events": [event]}
        snap = self._append(None, match, {**entry, "match": match})
        self.open_matches.created(player.id, new_id)

        def offer(before: Snapshot) -> Snapshot:
            if before.match.get("rematch"):
                raise Conflict("another rematch came first", code="rematch_exists")
            offered = {**before.match, "rematch": new_id}
            event = {"type": "rematch_offered", "match": new_id, "by": player.id}
            entry = {"kind": "rematch.offered", "actor": actor(player, None), "events": [event]}
            return self._append(before, offered, {**entry, "rematch": new_id}, before.state,
                                before.seed)  # fmt: skip

        try:
            self._command(match_id, offer)
        except Conflict:
            return self.get_match(player, self.load(match_id).match["rematch"])
        for bot in rules_of.bot_seats(old.match):
            self.add_bot(player, new_id, bot["seat"], bot["strategy"])
        return self.join(player, snap.id, rules_of.seat_of(old.match, player.id))

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
        fingerprint = action_fingerprint(action) if action_id else None
        if answer_key:
            first = self.client.hget(self.log.keys(match_id).actions, answer_key)
            if first:
                record = json.loads(first)  # type: ignore[arg-type]
                return _first_answer(record["answer"], record.get("fingerprint"), fingerprint)
        match = snap.match
        rules_of.check_running(match)
        if expected_version != snap.version:
            raise _stale(snap.version)
        seat = None if player is SYSTEM else rules_of.seat_for(match, player)
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
        if seat is not None and match.get("missed_turns"):  # a turn timer counts, a move resets
            missed = dict(match["missed_turns"])
            missed[str(seat)] = missed.get(str(seat), 0) + 1 if isinstance(player, StandIn) else 0
            changed["missed_turns"] = {k: n for k, n in missed.items() if n}
        elif isinstance(player, StandIn) and seat is not None:
            changed["missed_turns"] = {str(seat): 1}
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
            "view": {**view, "turn_deadline": _turn_deadline(changed, now)},
        }
        try:
            self._append(
                snap, changed, entry, outcome.state, snap.seed, now, answer_key, answer,
                fingerprint,
            )  # fmt: skip
        except _Duplicate as duplicate:
            return _first_answer(duplicate.answer, duplicate.fingerprint, fingerprint)
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
        snap = self.load(match_id)
        seats = snap.match["seats"]
        if not 0 <= seat < len(seats) or seats[seat]["player"] is None:
            raise BadRequest(f"no player at seat {seat} of match {match_id}", code="bad_seat")
        stand_in = StandIn(seats[seat]["player"], seats[seat]["name"] or "")
        missed = (snap.match.get("missed_turns") or {}).get(str(seat), 0)
        if missed + 1 >= MISSED_TURNS_LIMIT and seat in snap.match["to_act"]:
            ended = self.abandon(match_id, expected_version, seat, actor(stand_in, seat))
            return {"version": ended.version, "abandoned": True}
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
        fingerprint: str | None = None,
    ) -> Snapshot:
        """Append ``entry`` at ``before``'s version with the match's new snapshot and notification.

        ``entry`` holds its kind, actor, events and kind-specific fields (and the state hash
        when the rules service sent it); the rest (time, rules version, state hash, status,
        to_act, deadline) is filled in here. Raises VersionConflict when another change came
        first: then nothing was written.
        """
        now = self.clock() if now is None else now
        match = {**match, "turn_deadline": _turn_deadline(match, now)}
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
        }
        snapshot = {"state": state, "match": match, "seed": seed}
        result = self.log.append(
            match["id"], before.version if before else 0, entry, snapshot, notification,
            action_id, answer, fingerprint,
        )  # fmt: skip
        if result.duplicate:
            raise _Duplicate(result.answer or {}, result.fingerprint)
        listing.refile(self.client, before.match if before else None, match, self.listing_shards)
        if match["status"] == OPEN or (before is not None and before.match["status"] == OPEN):
            self.open_matches.keep(self._match_keys(match["id"]), match["status"] == OPEN)
        if match["status"] == FINISHED and (before is None or before.match["status"] != FINISHED):
            bots = [bot["seat"] for bot in rules_of.bot_seats(match)]
            self.players.revoke_bot_seats(match["id"], bots)  # their match is over
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
        if outcome.rules_version is not None:  # replay and verify deal under the same rules
            setup["rules_version"] = outcome.rules_version
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
        entry: dict[str, Any] = {
            "kind": "match.started",
            "actor": by,
            "events": [event, *outcome.events],
            "seed_sha256": seed_sha256,
            "setup": setup,
            "state_hash": outcome.state_hash,
        }
        if outcome.finished:  # the deal itself ended it: this entry is also the last one
            ending = {"result": outcome.result, "seed": seed}
            started.update(status=FINISHED, **ending)
            entry.update(finished=True, **ending)
        return self._append(snap, started, entry, outcome.state, seed, now)

    def _end(self, snap: Snapshot, reason: str, seat: int | None, by: dict[str, Any]) -> Snapshot:
        """The ``match.ended`` entry: a result the lobby decides (``shared.endings``) and the
        seed's reveal, as a finishing action has; the rules state does not change."""
        state = snap.state or {}
        result = ended_result(
            reason, seat, state.get("teams"), snap.match["players"], state.get("scores")
        )
        match = {
            **snap.match, "status": FINISHED, "to_act": [], "deadline": None, "result": result,
            "seed": snap.seed,
        }  # fmt: skip
        event = {
            "type": "match_ended",
            "reason": reason,
            "seat": seat,
            "winners": result["winners"],
        }
        entry = {
            "kind": "match.ended", "actor": by, "events": [event], "reason": reason,
            "finished": True, "result": result, "seed": snap.seed,
        }  # fmt: skip
        ended = self._append(snap, match, entry, snap.state, snap.seed)
        self.client.expire(self.log.keys(snap.id).actions, ANSWERS_KEPT_AFTER_FINISH)
        return ended

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

    def _check_room_for_a_match(self, player: Player) -> None:
        """A new match (created or a rematch) needs room in Redis and under the player's cap
        of open matches (quotas.py): else 503 ``store_full`` or 409 ``too_many_open_matches``."""
        check_memory(self.client, self.quotas.memory_fraction)
        self.open_matches.check_room(player.id, lambda m: self.log.keys(m).snapshot)

    def _match_keys(self, match_id: str) -> list[str]:
        """Every key of one match (not the shared feed stream)."""
        keys = self.log.keys(match_id)
        return [keys.log, keys.snapshot, keys.actions]

    def _presented(self, snap: Snapshot, player: Player) -> dict[str, Any]:
        """The match as the caller sees it: the document, its version and the caller's view."""
        view = None
        if snap.state is not None:
            seat = rules_of.seat_for(snap.match, player)
            with rules_errors():
                view = self.rules.view(snap.match["game"], snap.state, seat)
            view = {**view, "turn_deadline": snap.match.get("turn_deadline")}
        return {**snap.match, "version": snap.version, "view": view}

    # -- the list indexes (derivable from the snapshots) -------------------------------------
    def rebuild_index(self) -> int:
        """Re-file every match from its snapshot (after a crash between append and filing)."""
        return listing.rebuild(self.client, SNAPSHOT_PATTERN, self.listing_shards)

    def ready(self) -> bool:
        try:
            return bool(self.client.ping())
        except redis.RedisError:
            return False


class _Duplicate(Exception):
    """The action id was already answered: the first answer, nothing written."""

    def __init__(self, answer: dict[str, Any], fingerprint: str | None) -> None:
        super().__init__("duplicate action id")
        self.answer, self.fingerprint = answer, fingerprint


def action_fingerprint(action: dict[str, Any]) -> str:
    """What an action id was used for: a retry sends the same action, another request not."""
    return state_hash(action)


def _first_answer(answer: Any, first: str | None, now: str | None) -> dict[str, Any]:
    """The stored answer of a retry; 409 when the id was first used for another action
    (answers stored before fingerprints were kept have none, and count as the same)."""
    if first is not None and first != now:
        raise Conflict(
            "this action_id was already used for another action; use a new id for a new action",
            code="action_id_reused",
        )
    return answer


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


def _turn_deadline(match: Match, now: float) -> str | None:
    """When the turn timer plays for the persons to act now (a running match with a
    ``turn_timeout``): a client draws its countdown from it, the bot dispatcher sets its timer."""
    timeout = match.get("turn_timeout")
    if match["status"] != RUNNING or not timeout:
        return None
    bots = {bot["seat"] for bot in rules_of.bot_seats(match)}
    if not any(seat not in bots for seat in match["to_act"]):
        return None
    return iso_time(now + timeout)
