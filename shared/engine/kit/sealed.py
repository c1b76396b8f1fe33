"""Sealed commits revealed at once (Raj's bids, E-Card's duel, Gentei Janken's duel).

Each committing seat puts one card face down; nothing of it shows to anyone else (zone
view, event or view field) until every commitment is in, and then all of them are
revealed in one step. The outcome must depend only on what was committed, never on the
order in which the commitments arrived, so the reveal lists the cards by seat.

How it works, once for every game:

* ``open`` puts every committing seat in ``to_act`` at once and opens the server's commit
  window (``state.deadline = {"kind": "commit", ...}``).
* ``commit`` moves the card from the seat's hand into ``<kind>:<seat>``, a HIDDEN zone
  owned by the seat (no view shows its card, not even to the owner: the owner learns it
  from its own event, whose ``card`` only it sees, and from ``card_of`` in its view).
* ``complete`` tells whether every committing seat has committed; ``reveal`` then closes
  the window and moves every committed card, in seat order, to a pile.
* ``commit_defaults`` is the timeout: each seat still to act commits a default card.

A game where one seat must commit before the other (E-Card: the holder of the K) passes
``then``: the next seat is put in ``to_act`` once the first has committed, still sealed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..actions import Event
from ..cards import rank
from ..events import PRIVATE, EventType
from ..fields import BOOL, CARD, SEAT
from ..language import Say
from ..state import HIDDEN, State
from .zones import MAX_SEATS, seat_zone

COMMITTED = Say(es="{seat} pone {card} boca abajo", en="{seat} puts {card} face down")
COMMITTED_LATE = Say(
    es="Se acaba el tiempo: {seat} pone {card} boca abajo",
    en="Time is up: {seat} puts {card} face down",
)

LOWEST, RANDOM = "lowest", "random"
POLICIES = (LOWEST, RANDOM)


@dataclass(frozen=True)
class Sealed:
    """The sealed commits of one game: its zone kind, the type of its commit event, and the
    event's sentences (a commit, and one the timeout made)."""

    kind: str = "sealed"
    event: str = "committed"
    says: Say = COMMITTED
    says_late: Say = COMMITTED_LATE

    @cached_property
    def commit_event(self) -> EventType:
        """The commit event, declared once: the game includes it (``bid_committed =
        SEALED.commit_event``)."""
        declared = EventType(
            self.event,
            "a seat commits a card face down: only that seat sees which",
            visibility=PRIVATE,
            seat=SEAT,
            card=CARD,
            timeout=BOOL.about("the timeout committed it, for a seat that did not in time"),
        )
        declared.sentence(self._said)
        return declared

    def _said(self, game: Any, event: Event) -> Say:
        return self.says_late if event["timeout"] else self.says

    def zone(self, seat: int) -> str:
        """The seat's sealed zone, ``<kind>:<seat>``."""
        return self._zone_names[seat]

    @cached_property
    def _zone_names(self) -> tuple[str, ...]:
        """Every seat's zone name, made once: commits and reveals ask on every bid."""
        return tuple(seat_zone(self.kind, s) for s in range(MAX_SEATS))

    def create(self, state: State, seats: Iterable[int] | None = None) -> None:
        """One empty HIDDEN zone per seat, owned by the seat."""
        for s in range(state.players) if seats is None else seats:
            state.zone(self.zone(s), s, HIDDEN)

    def open(self, state: State, seats: Iterable[int], seconds: float) -> None:
        """Every seat in ``seats`` is to act at once, within the commit window."""
        state.to_act = list(seats)
        state.deadline = {"kind": "commit", "seconds": float(seconds)}

    def commit(
        self,
        state: State,
        seat: int,
        card: str,
        source: str,
        forced: bool = False,
        then: int | None = None,
    ) -> list[Event]:
        """Seal ``card`` from ``source``; only ``seat`` sees it in the event. ``forced``: the
        timeout chose it. ``then``: the seat that commits next, if it has not yet."""
        state.move(card, source, self.zone(seat))
        state.to_act.remove(seat)
        if then is not None and not self.committed(state, then) and then not in state.to_act:
            state.to_act.append(then)
        return [self.commit_event(seat=seat, card=card, timeout=forced, visible_to=[seat])]

    def committed(self, state: State, seat: int) -> bool:
        return bool(state.zones[self._zone_names[seat]].cards)

    def flags(self, state: State) -> list[bool]:
        """Per seat, whether it has committed: the only thing every view shows of a commit."""
        return [self.committed(state, s) for s in range(state.players)]

    def card_of(self, state: State, seat: int) -> str | None:
        """The card ``seat`` committed, for that seat's own view only."""
        cards = state.cards(self.zone(seat))
        return cards[0] if cards else None

    def complete(self, state: State, seats: Iterable[int]) -> bool:
        """Whether every seat of ``seats`` has committed."""
        return all(self.committed(state, s) for s in seats)

    def reveal(self, state: State, seats: Iterable[int], to: str) -> list[str]:
        """Close the window and move every committed card, in the order of ``seats``, onto
        ``to``; return those cards (the reveal is the caller's public event)."""
        state.deadline = None
        cards = []
        for s in seats:
            cards.append(state.cards(self.zone(s))[0])
            state.move_top(self.zone(s), to)
        return cards

    def commit_defaults(
        self, state: State, source_of: dict[int, str], policy: str, then: int | None = None
    ) -> list[Event]:
        """The window closed: each seat still to act (in seat order) commits its default card
        from its zone in ``source_of``; ``policy`` is ``lowest`` (lowest rank) or ``random``."""
        events: list[Event] = []
        for s in sorted(state.to_act):
            card = default_card(state, state.cards(source_of[s]), policy)
            events += self.commit(state, s, card, source_of[s], forced=True, then=then)
        return events


def default_card(state: State, cards: list[str], policy: str) -> str:
    """The card a seat that did not commit in time commits: its lowest or a random one."""
    if policy == RANDOM:
        return cards[state.rng().randrange(len(cards))]
    return min(cards, key=rank)
