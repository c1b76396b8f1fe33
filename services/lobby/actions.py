"""Moves: a seat's action at the version its view is of, decided by the rules service; the
server's own moves (a window's timeout, a turn timer playing for an absent seat).
"""

from __future__ import annotations

from typing import Any

from prometheus_client import REGISTRY, Counter

from services.errors import BadRequest, DomainError
from services.lobby_events import entry_sentences
from shared.engine.undo import is_undo
from shared.entry_kinds import ACTION
from shared.eventstore import VersionConflict

from . import match as rules_of
from . import undo as undoing
from .endings import Endings
from .idempotency import Duplicate, Idempotent
from .match import FINISHED, RUNNING
from .matchstore import (
    SYSTEM,
    MatchStore,
    Snapshot,
    StandIn,
    actor,
    deadline_at,
    sealed_state_hash,
    stale,
    turn_deadline,
)
from .players import Player
from .rules_client import rules_errors
from .sitin import SitIns

MOVES = Counter(
    "tapete_moves_applied_total", "actions appended to match logs", ["game"], registry=REGISTRY
)
MISSED_TURNS_LIMIT = 3  # a person's turns timed out in a row before the match is abandoned


class Actions:
    """Actions on running matches, by their seats or by the server."""

    def __init__(self, store: MatchStore, endings: Endings, sit_ins: SitIns) -> None:
        self.store = store
        self.endings = endings  # a seat that kept missing its turns abandons the match,
        self.sit_ins = sit_ins  # or a bot sits in for it

    def submit_action(
        self,
        match_id: str,
        player: Player | None,
        action: dict[str, Any],
        expected_version: int,
        action_id: str | None = None,
    ) -> dict[str, Any]:
        """Apply ``action`` for the player's seat at ``expected_version``: version, events,
        their sentences and the view, in the request's language, the players by name.

        ``player=SYSTEM`` acts as the server (seat null), e.g. a turn timer sending
        ``{"type": "timeout"}``: the rules decide which system actions are legal. An
        ``action_id`` makes a retry return the first answer and write nothing; ids are
        per player, so another player's id never reveals someone else's answer. A
        solitaire's ``{"type": "undo"}`` gives back the state before its newest move still
        undoable (services/lobby/undo.py), logged as an action with no event.
        """
        store = self.store
        snap = store.load_at(match_id, expected_version)
        once = Idempotent.of(player, action_id, action)
        match = snap.match
        try:
            rules_of.check_running(match)
            if expected_version != snap.version:
                raise stale(snap.version)
            seat = None if player is SYSTEM else rules_of.seat_for(match, player)
            if player is not SYSTEM:
                rules_of.check_may_act(match, seat, person=not player.bot)
            assert snap.state is not None  # a running match has a state
            names = rules_of.seat_names(match)
            person = None if isinstance(player, StandIn) else player  # a timer is the server
            stack: list[dict[str, Any]] | None  # a solitaire's undo stack after this action
            with rules_errors():
                if is_undo(action):
                    outcome, stack = undoing.take_back(
                        snap, person, seat,
                        lambda state: store.rules.view(match["game"], state, seat, names),
                        store.rules.language(),
                    )  # fmt: skip
                else:
                    outcome = store.rules.apply(match["game"], snap.state, seat, action, names)
                    stack = undoing.kept_after(snap, outcome)
                # the rules send the acting seat's view along; an older rules service may not
                view = outcome.view or store.rules.view(match["game"], outcome.state, seat, names)
        except DomainError:
            # A retry of an answered action is refused here (its first try moved the match
            # on), so its stored answer is looked up only now, not on every move: a new
            # action's id is checked by the append itself.
            first = self._first_answer(snap, once)
            if first is None:
                raise
            return first
        now = store.clock()
        changed = {
            **match,
            "status": FINISHED if outcome.finished else RUNNING,
            "to_act": outcome.to_act,
            "deadline": deadline_at(outcome.deadline, now),
            "result": outcome.result,
        }
        if seat is not None and match.get("missed_turns"):  # a turn timer counts, a move resets
            missed = dict(match["missed_turns"])
            missed[str(seat)] = missed.get(str(seat), 0) + 1 if isinstance(player, StandIn) else 0
            changed["missed_turns"] = {k: n for k, n in missed.items() if n}
        elif isinstance(player, StandIn) and seat is not None:
            changed["missed_turns"] = {str(seat): 1}
        by = actor(player, seat)
        if person is not None and person.bot and seat is not None:  # a bot sitting in says so
            by.update(rules_of.sitting_in(match, seat))
        entry = {
            "kind": ACTION,
            "actor": by,
            "action": action,
            "events": outcome.events,
            "finished": outcome.finished,
            "state_hash": outcome.state_hash or sealed_state_hash(outcome.state),  # an undo's
        }
        if outcome.finished:  # the seed is revealed by the very entry that ends the match
            revealed = rules_of.revealed_at_finish(match, snap.seed)
            changed.update(revealed)
            entry.update(result=outcome.result, **revealed)
        events = rules_of.redact_all(outcome.events, seat)
        answer = {
            "version": snap.version + 1,
            "events": events,
            # the rules said them for the acting seat; an older rules service did not
            "sentences": outcome.texts
            if outcome.texts is not None
            else entry_sentences(match["game"], events, store.rules.language(), names),
            "view": {
                **view,
                "turn_deadline": turn_deadline(changed, now),
                "may_undo": undoing.may_undo(changed, stack or [], person, seat),
            },
        }
        try:
            store.append(
                snap, changed, entry, outcome.state, snap.seed, now,
                once.answering(answer) if once else None, stack,
            )  # fmt: skip
        except Duplicate as duplicate:
            assert once is not None  # only an action with an id can be a retry
            return once.replayed(duplicate)
        except VersionConflict as exc:
            raise stale(exc.current_version) from exc
        MOVES.labels(match["game"]).inc()
        if outcome.finished:
            store.keep_answers_a_while(match_id)
        return answer

    def _first_answer(self, snap: Snapshot, once: Idempotent | None) -> dict[str, Any] | None:
        """The answer stored for an action id already used (409 if for another action, or
        if its answer is no longer kept); None for a new id."""
        if once is None:
            return None
        kept = self.store.log.kept_answer(snap.id, once.owner, once.action_id)
        return once.recorded(kept, snap.match["status"] == FINISHED)

    def seat_view(self, match_id: str, seat: int) -> dict[str, Any]:
        """``{"version", "view"}``: what ``seat`` sees now, for a turn timer choosing its move.

        Only for the server's own use (it needs no token): the timer sees what the seat's
        player would see, no more.
        """
        snap = self.store.load(match_id)
        rules_of.check_running(snap.match)
        if not 0 <= seat < snap.match["players"]:
            raise BadRequest(f"no seat {seat} in match {match_id}", code="bad_seat")
        assert snap.state is not None  # a running match has a state
        with rules_errors():
            view = self.store.rules.view(snap.match["game"], snap.state, seat)
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
        "system": true}``, and the same version, turn and legality checks apply. The
        ``MISSED_TURNS_LIMIT``-th turn in a row it misses ends the match as abandoned, or,
        with the match's ``sit_in``, seats a bot for it (``seat.sat_in``) instead."""
        snap = self.store.load(match_id)
        seats = snap.match["seats"]
        if not 0 <= seat < len(seats) or seats[seat]["player"] is None:
            raise BadRequest(f"no player at seat {seat} of match {match_id}", code="bad_seat")
        stand_in = StandIn(seats[seat]["player"], seats[seat]["name"] or "")
        missed = (snap.match.get("missed_turns") or {}).get(str(seat), 0)
        if missed + 1 >= MISSED_TURNS_LIMIT and seat in snap.match["to_act"]:
            if snap.match.get("sit_in"):  # a bot plays the seat instead of the match ending
                by = actor(stand_in, seat)
                sat = self.sit_ins.after_missed_turns(snap, expected_version, seat, by)
                return {"version": sat.version, "sat_in": True}
            ended = self.endings.abandon(match_id, expected_version, seat, actor(stand_in, seat))
            return {"version": ended.version, "abandoned": True}
        return self.submit_action(match_id, stand_in, action, expected_version, action_id)
