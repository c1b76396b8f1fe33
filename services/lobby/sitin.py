"""A bot sits in for a person: when they leave a running match, or keep missing their turns,
a bot of the match's ``sit_in`` level plays their seat instead of the match ending; the seat
stays theirs (its player, their rating), and they may take it back.

The sitting-in bot is played by the bot workers like any bot seat (its seat is in the
notifications' ``bots``), with a token for that match and seat stored before the entry that
names it and revoked when the person returns; ``match.seat_for`` lets that token act only
while the seat is sat in, so a job queued before the return is refused (and stale anyway:
the return is a new version).
"""

from __future__ import annotations

from typing import Any

from services.errors import Conflict
from services.lobby_events import LEFT_THE_TABLE, MISSED_TURNS
from shared.entry_kinds import RETURNED, SAT_IN
from shared.eventstore import VersionConflict

from . import match as rules_of
from .matchstore import MatchStore, Snapshot, actor, stale
from .players import Player, bot_player


class SitIns:
    """Seats a bot plays for their person, and the persons taking them back."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    def sit_in(self, snap: Snapshot, seat: int, reason: str, by: dict[str, Any]) -> Snapshot:
        """The ``seat.sat_in`` entry: from now on a bot of the match's level plays ``seat``
        (VersionConflict if the match moved on meanwhile: nothing was written)."""
        match = rules_of.sit_in(snap.match, seat, reason)
        held = match["seats"][seat]
        sitting = held["sat_in"]
        self.store.players.seat_bot(bot_player(sitting["strategy"]), snap.id, seat)
        event = {
            "type": "seat_sat_in", "seat": seat, "player": held["player"],
            "strategy": sitting["strategy"], "reason": reason,
        }  # fmt: skip
        entry = {
            "kind": SAT_IN, "actor": by, "events": [event], "seat": seat,
            "player": {"id": held["player"], "name": held["name"]}, "reason": reason,
            "strategy": sitting["strategy"], "strategy_version": sitting["strategy_version"],
        }  # fmt: skip
        return self.store.append(snap, match, entry, snap.state, snap.seed)

    def leave(self, snap: Snapshot, player: Player) -> Snapshot:
        """A person leaves a running match: a bot sits in for them (409 without ``sit_in``)."""
        rules_of.check_running(snap.match)
        seat = rules_of.seat_for(snap.match, player)
        if seat is None:
            raise Conflict("you have no seat in this match", code="not_seated")
        return self.sit_in(snap, seat, LEFT_THE_TABLE, actor(player, seat))

    def after_missed_turns(
        self, snap: Snapshot, version: int, seat: int, by: dict[str, Any]
    ) -> Snapshot:
        """The turn timer gave up on ``seat`` at ``version``: a bot sits in (409 if stale)."""
        if snap.version != version:
            raise stale(snap.version)
        try:
            return self.sit_in(snap, seat, MISSED_TURNS, by)
        except VersionConflict as exc:
            raise stale(exc.current_version) from exc

    def take_back(self, player: Player, match_id: str) -> dict[str, Any]:
        """The person takes their seat back (``seat.returned``); the bot's token is revoked."""

        def change(snap: Snapshot) -> Snapshot:
            match, seat = rules_of.take_seat_back(snap.match, player)
            event = {"type": "seat_returned", "seat": seat, "player": player.id}
            entry = {
                "kind": RETURNED, "actor": actor(player, seat), "events": [event], "seat": seat,
                "player": {"id": player.id, "name": match["seats"][seat]["name"]},
            }  # fmt: skip
            returned = self.store.append(snap, match, entry, snap.state, snap.seed)
            self.store.players.revoke_bot_seats(match_id, [seat])
            return returned

        return self.store.presented(self.store.command(match_id, change), player)
