"""How a running match ends when its rules do not end it, and what follows: a seat resigns,
a match is abandoned (a seat that kept missing its turns, or a match left idle), and the
players of a finished match are offered a rematch.
"""

from __future__ import annotations

import secrets
from typing import Any

from services.errors import Conflict, Forbidden
from shared.endings import ABANDONED, RESIGNED, ended_result
from shared.entry_kinds import CREATED, ENDED, REMATCH_OFFERED
from shared.eventstore import VersionConflict

from . import match as rules_of
from .match import FINISHED
from .matchstore import SYSTEM, MatchStore, Snapshot, actor, iso_time, stale
from .players import Player
from .seats import Seats


class Endings:
    """Resigning, abandoning, and the rematch a finished match's players may offer."""

    def __init__(self, store: MatchStore, seats: Seats) -> None:
        self.store = store
        self.seats = seats  # a rematch is a new match, seated again

    def resign(self, player: Player, match_id: str) -> dict[str, Any]:
        """End a running match for the caller's seat: every other side wins."""

        def change(snap: Snapshot) -> Snapshot:
            rules_of.check_running(snap.match)
            seat = rules_of.seat_for(snap.match, player)
            if seat is None:
                raise Forbidden("you have no seat in this match", code="not_seated")
            return self.end(snap, RESIGNED, seat, actor(player, seat))

        return self.store.presented(self.store.command(match_id, change), player)

    def abandon(
        self, match_id: str, version: int, seat: int | None = None, by: dict | None = None
    ) -> Snapshot:
        """End a running match still at ``version`` as abandoned: by ``seat`` when a turn
        timer gave up on it, by nobody when the whole match lay idle (the idle limit).
        409 when the match has moved on or is not running."""
        snap = self.store.load(match_id)
        rules_of.check_running(snap.match)
        if snap.version != version:
            raise stale(snap.version)
        try:
            return self.end(snap, ABANDONED, seat, by or actor(SYSTEM, None))
        except VersionConflict as exc:
            raise stale(exc.current_version) from exc

    def end(self, snap: Snapshot, reason: str, seat: int | None, by: dict[str, Any]) -> Snapshot:
        """The ``match.ended`` entry: a result the lobby decides (``shared.endings``) and the
        seed's reveal, as a finishing action has; the rules state does not change."""
        state = snap.state or {}
        result = ended_result(
            reason, seat, state.get("teams"), snap.match["players"], state.get("scores")
        )
        revealed = rules_of.revealed_at_finish(snap.match, snap.seed)
        match = {
            **snap.match, "status": FINISHED, "to_act": [], "deadline": None, "result": result,
            **revealed,
        }  # fmt: skip
        event = {
            "type": "match_ended",
            "reason": reason,
            "seat": seat,
            "winners": result["winners"],
        }
        entry = {
            "kind": ENDED, "actor": by, "events": [event], "reason": reason,
            "finished": True, "result": result, **revealed,
        }  # fmt: skip
        ended = self.store.append(snap, match, entry, snap.state, snap.seed)
        self.store.keep_answers_a_while(snap.id)
        return ended

    def rematch(self, player: Player, match_id: str) -> dict[str, Any]:
        """Offer the players of a finished match a new one with the same seats and options.

        The caller takes their seat, bots take theirs, and each other person's seat is kept
        for them: they see the offer in the old match (``rematch``, a ``rematch.offered``
        entry) and in their own list (``mine=true``), and accept by joining it. Asking
        again gives the same new match.
        """
        store = self.store
        old = store.load(match_id)
        if old.match.get("rematch"):
            return store.presented(store.load(old.match["rematch"]), player)
        new_id = secrets.token_hex(8)
        match = rules_of.rematch_of(old.match, new_id, player, iso_time(store.clock()))
        self.seats.check_room_for_a_match(player)
        match, seed = self.seats.committed(match)
        event = {"type": "match_created", "game": match["game"], "variant": match["variant"],
                 "players": match["players"], "rematch_of": match_id}  # fmt: skip
        entry = {"kind": CREATED, "actor": actor(player, None), "events": [event]}
        snap = store.append(None, match, {**entry, "match": match}, seed=seed)
        store.open_matches.created(player.id, new_id)

        def offer(before: Snapshot) -> Snapshot:
            if before.match.get("rematch"):
                raise Conflict("another rematch came first", code="rematch_exists")
            offered = {**before.match, "rematch": new_id}
            event = {"type": "rematch_offered", "match": new_id, "by": player.id}
            entry = {"kind": REMATCH_OFFERED, "actor": actor(player, None), "events": [event]}
            return store.append(before, offered, {**entry, "rematch": new_id}, before.state,
                                before.seed)  # fmt: skip

        try:
            store.command(match_id, offer)
        except Conflict:
            return store.presented(store.load(store.load(match_id).match["rematch"]), player)
        for bot in rules_of.bot_seats(old.match, sat_in=False):  # a person's seat stays theirs
            self.seats.add_bot(player, new_id, bot["seat"], bot["strategy"])
        return self.seats.join(player, snap.id, rules_of.seat_of(old.match, player.id))
