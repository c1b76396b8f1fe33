"""Shedding games' table: hands, a face-down stock and a face-up discard pile (Ciruela, 99).

The stock's top is the end of its list and nobody sees it; the discard pile shows its top
card only. When the stock runs out, the discard pile except its top card is shuffled into a
new stock, so the card to match (or the running total's last card) stays in view.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..actions import Event
from ..events import PRIVATE, EventType
from ..fields import CARD, INT, SEAT
from ..language import Say
from ..state import HIDDEN, OWNER, TOP, State
from .dealing import deal_hands
from .zones import hand

STOCK, PILE = "stock", "discard"

TURNED_UP = EventType(
    "turned_up",
    "the stock's top card turned face up onto the discard pile",
    card=CARD,
    says=Say(es="Se descubre {card} en el descarte", en="{card:cap} is turned up on the pile"),
)
RESTOCKED = EventType(
    "restocked",
    "the discard pile but its top card, shuffled, becomes the stock",
    count=INT.about("how many cards the new stock has"),
    says=Say(
        es="El descarte se baraja y vuelve al mazo: {count:carta|cartas}",
        en="The discard pile is shuffled into the stock: {count:card|cards}",
    ),
)
DREW = EventType(
    "drew",
    "a seat draws the stock's top card, seen only by that seat",
    visibility=PRIVATE,
    seat=SEAT,
    card=CARD,
    says=Say(es="{seat} roba {card}", en="{seat} draws {card}"),
)


def new_table(
    state: State,
    cards: list[str],
    hand_size: int,
    seats: Iterable[int] | None = None,
    turn_up_starter: bool = True,
) -> list[Event]:
    """Shuffle ``cards`` into the stock, deal ``hand_size`` to each seat (a seat's cards at
    once, private ``dealt`` events) and turn the starter card face up on the discard pile."""
    for s in range(state.players):
        state.zone(hand(s), s, OWNER)
    stock = state.zone(STOCK, None, HIDDEN)
    state.zone(PILE, None, TOP)
    stock.cards = list(cards)
    state.shuffle(stock.cards)
    order = list(range(state.players)) if seats is None else list(seats)
    events = deal_hands(state, order, hand_size, stock=STOCK)
    return events + (turn_up(state) if turn_up_starter else [])


def turn_up(state: State) -> list[Event]:
    """The top card of the stock goes face up onto the discard pile."""
    card = state.move_top(STOCK, PILE)
    return [TURNED_UP.emit(card=card)]


def top(state: State) -> str:
    """The discard pile's top card (there always is one once the starter is turned up)."""
    return state.cards(PILE)[-1]


def can_draw(state: State) -> bool:
    """Whether a card can be drawn: from the stock, or from a restock of the discard pile."""
    return bool(state.cards(STOCK)) or len(state.cards(PILE)) > 1


def restock(state: State) -> list[Event]:
    """The discard pile but its top card, shuffled, becomes the stock (public: how many)."""
    pile = state.zones[PILE].cards
    cards, state.zones[PILE].cards = pile[:-1], pile[-1:]
    state.shuffle(cards)
    state.zones[STOCK].cards = cards + state.zones[STOCK].cards
    return [RESTOCKED.emit(count=len(cards))]


def draw(state: State, seat: int) -> list[Event]:
    """``seat`` draws the stock's top card, restocking first if the stock is empty; the card
    is seen only by the drawer. Nothing happens if there is nothing to draw (``can_draw``)."""
    events: list[Event] = []
    if not state.cards(STOCK) and len(state.cards(PILE)) > 1:
        events += restock(state)
    if not state.cards(STOCK):
        return events
    card = state.move_top(STOCK, hand(seat))
    return events + [DREW.emit(seat=seat, card=card, visible_to=[seat])]


def discard(state: State, seat: int, card: str) -> None:
    """``seat`` lays ``card`` from its hand face up on the discard pile."""
    state.move(card, hand(seat), PILE)
