"""Taking back a solitaire's moves, never across what the player could not have known.

A one-player match may undo its moves one by one, newest first, with the action ``{"type":
"undo"}`` appended to its log like any other (the log stays append-only: the undone moves
remain in it, and replay restores the state before them). A move may be taken back only if
it showed no card its player had not seen (a hidden card turned, a card drawn from the stock)
and drew no chance (a shuffle): undoing those would let the player try the hidden future and
choose. Such a move also clears what came before it, so nothing before a reveal is undone.
Bots never undo. No game code is involved: whether a move is undoable is read off the states
before and after it.
"""

from __future__ import annotations

from collections import Counter

from .errors import IllegalAction
from .language import Say
from .state import TOP, State

UNDO = "undo"

NOTHING_TO_UNDO = Say(
    es="no hay jugada que deshacer: la última mostró una carta o barajó, o no hay ninguna",
    en="there is no move to take back: the last one showed a card or shuffled, or there is none",
)
NOT_A_SOLITAIRE = Say(
    es="solo en un solitario se pueden deshacer jugadas",
    en="moves can be taken back in a solitaire only",
)
NOT_BY_BOTS = Say(
    es="solo quien juega el solitario deshace sus jugadas: ni un bot ni el servidor",
    en="only the solitaire's player takes back moves: neither a bot nor the server",
)


def is_undo(action: object) -> bool:
    """``{"type": "undo"}`` exactly: an undo takes no field."""
    return action == {"type": UNDO}


def seen(state: State, seat: int = 0) -> Counter[str]:
    """The cards ``seat`` sees now, as its view shows them."""
    cards: Counter[str] = Counter()
    for zone in state.zones.values():
        if zone.visible_to(seat):
            cards.update(zone.cards)
        elif zone.visibility == TOP and zone.cards:
            cards[zone.cards[-1]] += 1
    return cards


def undoable(before: State, after: State) -> bool:
    """The move from ``before`` to ``after`` drew no chance and showed no card not seen."""
    return after.chance == before.chance and not seen(after) - seen(before)


class Undo:
    """The states before each move a solitaire player may still take back, newest last."""

    def __init__(self) -> None:
        self.before: list[State] = []

    def played(self, before: State, after: State) -> None:
        """Record a move: undoable, it is stacked; else nothing before it can be taken back."""
        if undoable(before, after):
            self.before.append(before)
        else:
            self.before.clear()

    def may_undo(self, state: State) -> bool:
        return state.players == 1 and not state.finished and bool(self.before)

    def take_back(self, state: State) -> State:
        """The state before the newest move still undoable; refused when there is none."""
        if state.players != 1:
            raise IllegalAction(NOT_A_SOLITAIRE)
        if not self.may_undo(state):
            raise IllegalAction(NOTHING_TO_UNDO)
        return self.before.pop()
