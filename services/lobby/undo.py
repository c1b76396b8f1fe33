"""A solitaire's undo in the lobby: the sealed states before the moves still undoable,
kept beside the match's snapshot.

The rules service keeps nothing and the snapshot holds only the latest sealed state, so an
undo needs the earlier state from somewhere. Replaying the log through the rules service
would cost a call per move and a new endpoint; instead the snapshot keeps, beside its state,
the sealed states before each move its player may still take back (the rules service says
of each move whether it is ``undoable``: shared/engine/undo.py), and an undo is one snapshot
read like any move, with the earlier state exactly as the rules sealed it. Bounded: the
newest ``UNDO_KEPT`` moves only (a solitaire's state is 1 to 4 KB, so at most some 40 KB
beside its snapshot); an older move cannot be taken back here though the engine would
allow it, which verification accepts (it checks that every recorded undo was allowed).
A move that showed a card or drew a chance empties the stack, as the engine's ``Undo``
does, so nothing before it is ever taken back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from services.errors import Rejected
from shared.engine.language import Reader, Say
from shared.engine.undo import NOT_A_SOLITAIRE, NOT_BY_BOTS, NOTHING_TO_UNDO

from .match import RUNNING, Match
from .players import Player
from .rules_client import Outcome

if TYPE_CHECKING:
    from .matchstore import Snapshot

UNDO_KEPT = 10  # the newest undoable moves whose earlier states a solitaire's snapshot keeps

State = dict[str, Any]


def kept_after(snap: Snapshot, outcome: Outcome) -> list[State] | None:
    """The undo stack after a move from ``snap``: None in a match of several players (no
    stack is kept), empty after a move that may not be taken back or that ended the match."""
    if snap.match["players"] != 1:
        return None
    if outcome.finished or not outcome.undoable or snap.state is None:
        return []
    return [*snap.undo, snap.state][-UNDO_KEPT:]


def may_undo(match: Match, stack: list[State], player: Player | None, seat: int | None) -> bool:
    """Whether ``player`` (at ``seat``; None: the server) may send ``{"type": "undo"}`` now:
    the view says so."""
    return not _refusal(match, stack, player, seat)


def _refusal(
    match: Match, stack: list[State], player: Player | None, seat: int | None
) -> Say | None:
    if match["players"] != 1:
        return NOT_A_SOLITAIRE
    if player is None or player.bot or seat != 0:
        return NOT_BY_BOTS  # the server (a turn timer too), a bot's token, a spectator
    if match["status"] != RUNNING or not stack:
        return NOTHING_TO_UNDO
    return None


def take_back(
    snap: Snapshot, player: Player | None, seat: int | None, view: Any, language: str
) -> tuple[Outcome, list[State]]:
    """The undo as a move's outcome (the state before the newest move still undoable, no
    event; its hash is the sealed state's) and the stack left; refused (422) with the reason in
    ``language``.

    ``view(state)``: the acting seat's view of a sealed state, from the rules service.
    """
    refusal = _refusal(snap.match, list(snap.undo), player, seat)
    if refusal is not None:
        raise Rejected(refusal.text(Reader(language)))
    *rest, earlier = snap.undo
    seen = view(earlier)
    outcome = Outcome(
        state=earlier,
        events=[],
        to_act=list(seen["to_act"]),
        finished=False,
        result=None,
        deadline=seen["deadline"],
        view=seen,
        texts=[],
    )
    return outcome, rest
