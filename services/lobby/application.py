"""The lobby's use cases, put together: one ``Lobby`` on a match log in Redis and the rules
service.

No Flask here: the HTTP views call these, and so can a bot worker or a turn timer
(``submit_action`` with ``player=SYSTEM``). Each concern is a module of its own, on the
one ``MatchStore`` they share (matchstore.py: a match's snapshot, and the one append that
changes it):

    players.py    players and their tokens
    reading.py    a match and its view, the list, the long-poll, the stream and its tickets
    seats.py      creating a match, seats and bots, the deal
    actions.py    moves, by a seat or by the server (idempotency.py: the action ids)
    endings.py    resigning, abandoning, the rematch
    sitin.py      a bot sitting in for a person who left, and the person's return
    quick.py      quick match: the queue, its pairing (pairing.py) and its tables
    duplicates.py duplicate groups: tables dealt the same cards, revealed and compared
    tournaments.py  tournaments: registration, rounds (shared/swiss.py) and their matches

``Lobby`` builds them and offers their use cases as its own methods.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

import redis

from services.settings import DEV_BOT_TOKEN_KEY, Settings
from services.store import match_log
from shared.eventstore import MAX_WAIT_SECONDS, MatchLog
from shared.redisconn import connect

from . import feed, listing
from .actions import MISSED_TURNS_LIMIT, MOVES, Actions
from .duplicates import Duplicates
from .endings import Endings
from .matchstore import SYSTEM, MatchStore, Snapshot, StandIn, sealed_state_hash
from .players import Players
from .quick import QuickMatch
from .quotas import DEFAULT_QUOTAS, OpenMatches, OpenStreams, Quotas
from .ratings import NEW_PLAYER, HistoryRatings
from .reading import Reading
from .rules_client import RulesClient
from .seats import Seats
from .sitin import SitIns
from .tickets import Tickets
from .tournaments import Tournaments

__all__ = [
    "Lobby", "SYSTEM", "MISSED_TURNS_LIMIT", "MOVES", "Snapshot", "StandIn",
    "redis_client", "sealed_state_hash",
]  # fmt: skip

SNAPSHOT_PATTERN = "tapete:*:match:*:snapshot"
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
            feed_heartbeat=settings.feed_heartbeat_seconds,
            feed_send_buffer=settings.feed_send_buffer, bot_pace_s=settings.bot_pace_s,
            rating=HistoryRatings(settings.history_url),
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
        feed_heartbeat: float = Settings.feed_heartbeat_seconds,
        feed_send_buffer: int = Settings.feed_send_buffer,
        bot_pace_s: float = Settings.bot_pace_s,
        rating: Callable[[str, str], float] = lambda player, game: NEW_PLAYER,
    ) -> None:
        """``new_seed`` draws each match's secret server seed at its creation (tests may rig a
        deal);
        ``bot_token_key`` derives bot seats' tokens (the development key by default, for a lobby
        built in a test; ``from_settings`` gives the process's checked key);
        ``quotas`` bound the open matches and streams and the store's memory (quotas.py);
        ``listing_shards`` is how many slots each match list index spreads over (listing.py);
        ``feed_heartbeat`` is the streams' heartbeat interval, and the time a stream's client
        has to take each write; ``feed_send_buffer`` the bytes the kernel keeps for a
        stream's client (feed.py); ``bot_pace_s`` is a new match's bot pace when its creator
        names none; ``rating(player, game)`` a player's rating for quick match (ratings.py:
        every player is new by default)."""
        if listing_shards < 1:
            raise ValueError("listing_shards must be at least 1")
        self.client = client
        self.rules = rules
        self.log = log or MatchLog(client)
        self.players = Players(client, bot_token_key)
        self.quotas = quotas
        self.listing_shards = listing_shards
        self.tickets = Tickets(client)
        streams = OpenStreams(client, quotas.streams_per_player, retry_after=feed_heartbeat)
        self.hub = feed.Hub(self.log, feed_buffer, streams, feed_heartbeat, feed_send_buffer)
        self.store = MatchStore(
            client, rules, self.log, self.players, OpenMatches(client, quotas), clock,
            listing_shards,
        )  # fmt: skip
        self.reading = Reading(self.store, self.tickets, self.hub, feed_heartbeat)
        self.sit_ins = SitIns(self.store)
        self.seats = Seats(self.store, quotas, new_seed, bot_pace_s, self.sit_ins)
        self.endings = Endings(self.store, self.seats)
        self.actions = Actions(self.store, self.endings, self.sit_ins)
        self.quick = QuickMatch(client, self.seats, rating, clock)
        self.duplicates = Duplicates(self.seats)
        self.tournaments = Tournaments(
            client, self.seats, self.duplicates, self.endings.resign, clock
        )

        # The use cases, each its concern's own (the HTTP views, the bot workers and the
        # turn timers call them here).
        self.register = self.players.register
        self.authenticate = self.players.authenticate
        self.rotate_token = self.players.rotate
        self.revoke_token = self.players.revoke
        self.load = self.store.load
        self.get_match = self.reading.get_match
        self.list_matches = self.reading.list_matches
        self.events = self.reading.events
        self.stream_ticket = self.reading.stream_ticket
        self.open_stream = self.reading.open_stream
        self.bot_token = self.reading.bot_token
        self.create_match = self.seats.create_match
        self.join = self.seats.join
        self.leave = self.seats.leave
        self.add_bot = self.seats.add_bot
        self.start = self.seats.start
        self.deal = self.seats.deal
        self.submit_action = self.actions.submit_action
        self.seat_view = self.actions.seat_view
        self.submit_for_seat = self.actions.submit_for_seat
        self.take_seat_back = self.sit_ins.take_back
        self.resign = self.endings.resign
        self.abandon = self.endings.abandon
        self.rematch = self.endings.rematch
        self.ask_quick_match = self.quick.ask
        self.poll_quick_match = self.quick.poll
        self.cancel_quick_match = self.quick.cancel
        self.open_duplicate = self.duplicates.open_rotated
        self.open_duplicate_group = self.duplicates.open_group  # a tournament round's
        self.get_duplicate = self.duplicates.get
        self.create_tournament = self.tournaments.create
        self.register_in_tournament = self.tournaments.register
        self.withdraw_from_tournament = self.tournaments.withdraw
        self.get_tournament = self.tournaments.get
        self.poll_tournament = self.tournaments.poll
        self.list_tournaments = self.tournaments.newest

    # -- the list indexes (derivable from the snapshots) -------------------------------------
    def rebuild_index(self) -> int:
        """Re-file every match from its snapshot (after a crash between append and filing)."""
        return listing.rebuild(self.client, SNAPSHOT_PATTERN, self.listing_shards)

    def ready(self) -> bool:
        try:
            return bool(self.client.ping())
        except redis.RedisError:
            return False
