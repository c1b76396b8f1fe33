"""Dealing cards from a stock whose top is the end of its list."""

from __future__ import annotations

from collections.abc import Iterable

from ..actions import Event
from ..events import PRIVATE, EventType
from ..fields import CARDS, SEAT
from ..language import Say
from ..state import State
from .zones import hand

#: A seat's cards dealt to it: only that seat sees them ("Ana recibe 3 cartas" for the others).
DEALT = EventType(
    "dealt",
    "a seat is dealt its cards, seen by that seat only",
    visibility=PRIVATE,
    seat=SEAT,
    cards=CARDS,
    says=Say(es="{seat} recibe {cards}", en="{seat} is dealt {cards}"),
)

#: A match's opening: its dealer, drawn by chance, and who plays first.
DEALER_DRAWN = EventType(
    "deal",
    "the match is dealt: the dealer, drawn by chance, and who starts",
    dealer=SEAT,
    first=SEAT.about("who plays first"),
    says=Say(es="Reparte {dealer}; empieza {first}", en="{dealer} deals; {first} starts"),
)


def gather_and_shuffle(state: State, stock: str = "stock") -> list[str]:
    """A new deal: every card of every zone back into ``stock``, shuffled (the match's chance;
    under ``State.by_deal`` the deal's, whatever order play left the cards in)."""
    state.new_deal()
    pile = state.zones[stock].cards
    for name, zone in state.zones.items():
        if name != stock:
            pile.extend(zone.cards)
            zone.cards = []
    state.shuffle(pile)
    return pile


def deal_hands(
    state: State, seats: Iterable[int], count: int, stock: str = "stock", to: str = "hand"
) -> list[Event]:
    """Deal ``count`` cards (fewer if the stock runs out) to each seat in turn, a seat's cards
    at once; one ``dealt`` event (``DEALT``) per seat, its cards seen only by that seat."""
    pile = state.zones[stock].cards
    events = []
    for s in seats:
        if not pile:
            break
        cards = [pile.pop() for _ in range(min(count, len(pile)))]
        state.zones[hand(s) if to == "hand" else f"{to}:{s}"].cards.extend(cards)
        events.append(DEALT.emit(seat=s, cards=cards, visible_to=[s]))
    return events


def deal_by_place(
    state: State, places: list[int], seats: list[int], count: int, stock: str = "stock"
) -> list[Event]:
    """Deal ``count`` cards to each of ``seats`` (in that order) from its own place in the
    stock: the i-th seat of ``places`` (every seat) takes the i-th ``count`` cards from the
    top whether or not the seats before it are dealt in, and the places of the seats left
    out go under the stock. So a seat's cards do not depend on who else play left in the
    deal (eliminated, out of chips): what ``State.by_deal`` needs of a game that deals only
    some seats. One ``dealt`` event per seat, as ``deal_hands``."""
    pile = state.zones[stock].cards
    cut = {s: [pile.pop() for _ in range(min(count, len(pile)))] for s in places}
    dealt = set(seats)
    pile[:0] = [c for s in reversed(places) if s not in dealt for c in reversed(cut[s])]
    events = []
    for s in seats:
        state.zones[hand(s)].cards.extend(cut[s])
        events.append(DEALT.emit(seat=s, cards=cut[s], visible_to=[s]))
    return events


def deal_round_robin(
    state: State, seats: list[int], count: int, stock: str = "stock"
) -> list[Event]:
    """Deal one card at a time around ``seats`` until each has ``count`` (or the stock is empty)."""
    pile = state.zones[stock].cards
    got: dict[int, list[str]] = {s: [] for s in seats}
    for _ in range(count):
        for s in seats:
            if pile:
                card = pile.pop()
                state.zones[hand(s)].cards.append(card)
                got[s].append(card)
    return [DEALT.emit(seat=s, cards=c, visible_to=[s]) for s, c in got.items() if c]
