"""Before the deal: creating a match, taking and leaving seats, seating bots, starting.

A full match whose creator asked for it starts itself right after the last seat's append;
should that start fail or never run, the bot dispatcher's start task deals it (``deal``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from services.errors import BadRequest, Conflict, DomainError, Unavailable
from shared.bots import names as bot_names
from shared.engine import seeds
from shared.entry_kinds import BOT_ADDED, CREATED, JOINED, LEFT, STARTED
from shared.eventstore import VersionConflict

from . import match as rules_of
from .match import FINISHED, OPEN, RUNNING
from .matchstore import SYSTEM, MatchStore, Snapshot, actor, deadline_at, iso_time, stale
from .players import Player, bot_player
from .quotas import Quotas, check_memory
from .rules_client import rules_errors
from .sitin import SitIns


class Seats:
    """Matches being set up: their seats, their bots, and their deal."""

    def __init__(
        self,
        store: MatchStore,
        quotas: Quotas,
        new_seed: Callable[[], str],
        bot_pace_s: float,
        sit_ins: SitIns,
    ) -> None:
        """``new_seed`` draws each match's secret server seed at its creation (tests may rig a
        deal);
        ``bot_pace_s`` is a new match's bot pace when its creator names none;
        ``sit_ins`` seats a bot for a person who leaves a running match."""
        self.store = store
        self.quotas = quotas
        self.new_seed = new_seed
        self.bot_pace_s = bot_pace_s
        self.sit_ins = sit_ins

    def create_match(
        self,
        player: Player,
        game: str,
        variant: str,
        players: int | None,
        options: dict[str, Any],
        autostart: bool = True,
        turn_timeout: float | None = None,
        bot_pace: float | None = None,
        match_id: str | None = None,
        sit_in: str | None = rules_of.DEFAULT_SIT_IN,
        duplicate: dict[str, Any] | None = None,
        people: Sequence[str | None] = (),
        seed: str | None = None,
        tournament: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """An open match, checked against the rules catalog. Its creator is not seated.

        ``turn_timeout`` (seconds): a seat that has not acted that long after a change of
        the match is played for by the bot timers (services/bots); None waits for ever.
        ``bot_pace`` (seconds): how long a bot's move waits after the entry before it while a
        person sits in the match; None: the lobby's default (``BOT_PACE_S``).
        ``match_id``: the id drawn beforehand (quick match's and tournaments' tables);
        VersionConflict if a match has it already. None: a new one.
        ``duplicate``: the group of a duplicate table (duplicates.py), ``people`` the persons
        it keeps seats for (by seat) and ``seed`` the server seed its tables share (None: one
        drawn for this match alone).
        ``tournament``: a tournament's table ({id, round, table}), created by the tournament
        (``player``), whose capacity bounds its matches instead of a player's cap.
        """
        store = self.store
        count = self.checked_setup(game, variant, players, options)
        rules_of.check_sit_in({"game": game}, sit_in)
        if tournament is None:
            self.check_room_for_a_match(player)
        else:
            check_memory(store.client, self.quotas.memory_fraction)
        match_id = match_id or secrets.token_hex(8)
        now = store.clock()
        match = rules_of.new_match(
            match_id, player, game, variant, count, options, autostart, iso_time(now)
        )
        match["turn_timeout"] = turn_timeout
        match["bot_pace"] = self.bot_pace_s if bot_pace is None else bot_pace
        match["sit_in"] = sit_in
        if tournament is not None:
            match["tournament"] = tournament
        if duplicate is not None:
            match = rules_of.duplicate_table(match, duplicate, people)
        match, seed = self.committed(match, seed)
        event = {"type": "match_created", "game": game, "variant": variant, "players": count}
        by = actor(player, None)
        entry = {"kind": CREATED, "actor": by, "events": [event], "match": match}
        created = store.append(None, match, entry, seed=seed, now=now)
        if tournament is None:
            store.open_matches.created(player.id, match_id)
        return store.presented(created, player)

    def checked_setup(
        self, game: str, variant: str, players: int | None, options: dict[str, Any]
    ) -> int:
        """The player count of a setup the rules catalog allows (400 otherwise): a new match's,
        or a quick-match request's."""
        with rules_errors():
            catalog = self.store.rules.catalog()
        if game not in catalog:
            raise BadRequest(f"no game {game!r}; games: {sorted(catalog)}", code="unknown_game")
        return rules_of.check_setup(catalog[game], variant, players, options)

    def committed(
        self, match: dict[str, Any], seed: str | None = None
    ) -> tuple[dict[str, Any], str]:
        """A new match with its server seed drawn (or ``seed``, a duplicate group's) and its
        SHA-256 published at once, before any player's seed is known: (the document, the
        secret seed)."""
        seed = seed or self.new_seed()
        return {**match, "seed_sha256": seeds.commitment(seed)}, seed

    def join(
        self, player: Player, match_id: str, seat: int | None = None, seed: str | None = None
    ) -> dict[str, Any]:
        """Take ``seat`` (None: the first free one), with the player's own ``seed`` for the
        deal (None: none); a full match may then start itself."""
        if seed is not None and not seeds.is_player_seed(seed):
            raise BadRequest(f"seed must be {seeds.PLAYER_SEED_RULE}", code="bad_seed")

        def change(snap: Snapshot) -> Snapshot:
            match = rules_of.take_seat(snap.match, player, seat, seed=seed)
            taken = rules_of.seat_for(match, player)
            who = {"id": player.id, "name": player.name}
            event = {"type": "seat_joined", "seat": taken, "player": player.id, "name": player.name}
            entry: dict[str, Any] = {"kind": JOINED, "actor": actor(player, taken)}
            entry.update(events=[event], seat=taken, player=who, player_seed=seed)
            return self.store.append(snap, match, entry, seed=snap.seed)

        joined = self._autostart(self.store.command(match_id, change))
        return self.store.presented(joined, player)

    def leave(self, player: Player, match_id: str) -> dict[str, Any]:
        """Give up one's seat before the match starts; once it runs, a bot sits in for them
        (sitin.py)."""

        def change(snap: Snapshot) -> Snapshot:
            if snap.match["status"] != OPEN:
                return self.sit_ins.leave(snap, player)
            match, seat = rules_of.leave_seat(snap.match, player)
            who = {"id": player.id, "name": player.name}
            event = {"type": "seat_left", "seat": seat, "player": player.id}
            entry: dict[str, Any] = {"kind": LEFT, "actor": actor(player, seat)}
            entry.update(events=[event], seat=seat, player=who)
            return self.store.append(snap, match, entry, seed=snap.seed)

        return self.store.presented(self.store.command(match_id, change), player)

    def add_bot(self, player: Player, match_id: str, seat: int, strategy: str) -> dict[str, Any]:
        """Seat the strategy's bot player; the seat's token is for the bot workers only."""
        bot = bot_player(strategy)
        seated_bot = replace(bot, name=bot_names.seat_name(seat))  # its own name in this match

        def change(snap: Snapshot) -> Snapshot:
            rules_of.check_may_manage(snap.match, player)
            rules_of.check_bot_strategy(snap.match, strategy)
            rules_of.check_seat_free(snap.match, seat)  # refuse before storing a token
            self.store.players.seat_bot(bot, match_id, seat)
            match = rules_of.take_seat(snap.match, seated_bot, seat, bot=strategy)
            event = {"type": "bot_added", "seat": seat, "player": bot.id, "strategy": strategy}
            by = actor(player, rules_of.seat_for(snap.match, player))
            entry = {"kind": BOT_ADDED, "actor": by, "events": [event], "seat": seat}
            who = {"id": bot.id, "name": seated_bot.name}
            entry = {**entry, "strategy": strategy, "player": who}
            return self.store.append(snap, match, entry, seed=snap.seed)

        seated = self._autostart(self.store.command(match_id, change))
        return self.store.presented(seated, player)

    def start(self, player: Player, match_id: str) -> dict[str, Any]:
        """Deal, once every seat is taken (the creator or a seated player asks)."""

        def change(snap: Snapshot) -> Snapshot:
            rules_of.check_may_manage(snap.match, player)
            rules_of.check_startable(snap.match)
            return self._deal(snap, actor(player, rules_of.seat_for(snap.match, player)))

        return self.store.presented(self.store.command(match_id, change), player)

    def deal(self, match_id: str, version: int) -> Snapshot:
        """Deal a match left full and open at ``version`` although it starts itself: the
        lobby's own start after the last join failed or never ran. The bot dispatcher's start
        task calls this; the compare-and-append at ``version`` makes a second deal impossible.
        409 when the match has moved on or does not wait to be dealt; 503 while the rules do
        not answer (the task is tried again)."""
        snap = self.store.load(match_id)
        if snap.version != version:
            raise stale(snap.version)
        if not rules_of.deals_itself(snap.match):
            raise Conflict("the match does not wait to be dealt", code="match_not_open")
        try:
            return self._deal(snap, actor(SYSTEM, None))
        except VersionConflict as exc:
            raise stale(exc.current_version) from exc

    def check_room_for_a_match(self, player: Player) -> None:
        """A new match (created or a rematch) needs room in Redis and under the player's cap
        of open matches (quotas.py): else 503 ``store_full`` or 409 ``too_many_open_matches``."""
        store = self.store
        check_memory(store.client, self.quotas.memory_fraction)
        store.open_matches.check_room(player.id, lambda m: store.log.keys(m).snapshot)

    def _autostart(self, snap: Snapshot) -> Snapshot:
        """Start a full match whose creator asked for it; a concurrent change wins instead."""
        if not rules_of.deals_itself(snap.match):
            return snap
        try:
            return self._deal(snap, actor(SYSTEM, None))
        except VersionConflict:
            return self.store.load(snap.id)
        except DomainError:  # the seat is taken all the same: the dispatcher's start task
            return snap  # deals it once the rules answer again (``deal``)

    def _deal(self, snap: Snapshot, by: dict[str, Any]) -> Snapshot:
        """Deal through the rules service with the seed made from the server's committed seed
        and the seats' own (docs/match-log.md, "Seeds"); publish the server seed's SHA-256 only.

        A match created before seeds were committed at creation draws its seed now."""
        match = snap.match
        seed = snap.seed or self.new_seed()
        player_seeds = [s.get("seed") for s in match["seats"]]
        scheme = seeds.scheme_for(player_seeds) if snap.seed else seeds.SERVER_ONLY
        seed_sha256 = seeds.commitment(seed)
        setup = {k: match[k] for k in ("game", "variant", "players", "options")}
        try:
            with rules_errors():
                outcome = self.store.rules.setup(
                    match["game"], match["variant"], match["players"], match["options"],
                    seeds.deal_seed(scheme, seed, player_seeds),
                )  # fmt: skip
        except Unavailable:
            raise
        except DomainError as exc:
            raise Conflict(
                f"the rules refused this setup: {exc.message}", code="setup_refused"
            ) from exc
        if outcome.rules_version is not None:  # replay and verify deal under the same rules
            setup["rules_version"] = outcome.rules_version
        now = self.store.clock()
        started = {
            **match,
            "status": RUNNING,
            "started": iso_time(now),
            "seed_sha256": seed_sha256,
            "to_act": outcome.to_act,
            "deadline": deadline_at(outcome.deadline, now),
        }
        event = {"type": "match_started", "seed_sha256": seed_sha256, "to_act": outcome.to_act}
        entry: dict[str, Any] = {
            "kind": STARTED,
            "actor": by,
            "events": [event, *outcome.events],
            "seed_sha256": seed_sha256,
            "setup": setup,
            "state_hash": outcome.state_hash,
        }
        if scheme != seeds.SERVER_ONLY:  # which seeds made the deal: anyone can re-make it
            entry.update(seed_scheme=scheme, player_seeds=player_seeds)
        if outcome.finished:  # the deal itself ended it: this entry is also the last one
            ending = {"result": outcome.result, **rules_of.revealed_at_finish(match, seed)}
            started.update(status=FINISHED, **ending)
            entry.update(finished=True, **ending)
        return self.store.append(snap, started, entry, outcome.state, seed, now)
