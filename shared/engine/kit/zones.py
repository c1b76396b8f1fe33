"""Zone names through helpers, so a typo is a NameError rather than a KeyError mid-match."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..actions import CARD, ActionType
from ..language import Message, Say
from ..state import State, Zone

NOT_IN_HAND = Say(es="No tienes {card} en la mano", en="card {code} is not in your hand")

MAX_SEATS = 16  # State.from_json's bound on players


def seat_zone(kind: str, seat: int) -> str:
    """The name of ``seat``'s zone of a kind: ``seat_zone("captured", 2)`` is ``"captured:2"``."""
    return f"{kind}:{seat}"


def seat_zone_names(kind: str) -> Callable[[int], str]:
    """``seat_zone(kind, seat)`` as a table lookup, for a kind games ask for on every action."""
    return tuple(seat_zone(kind, s) for s in range(MAX_SEATS)).__getitem__


#: ``hand(seat)`` is ``"hand:<seat>"``.
hand = seat_zone_names("hand")


def not_in_hand(state: State, seat: int, card: str) -> Message | None:
    """The refusal of a card the seat does not hold, or None when it holds it."""
    if card in state.zones[hand(seat)].cards:
        return None
    return NOT_IN_HAND(card=card, code=card)


def holds(held: list[str], cards: list[str]) -> bool:
    """Whether ``held`` has every card of ``cards``, twins counted (a multiset test). Refusals
    ask it of every candidate play, so the usual cases, one card or cards of distinct codes,
    are answered without counting."""
    if len(cards) == 1:
        return cards[0] in held
    if len(set(cards)) == len(cards):
        return all(card in held for card in cards)
    return not Counter(cards) - Counter(held)


def card_actions(kind: str, cards: list[str]) -> list[dict]:
    """One action of ``kind`` per card code (a double deck's twin cards make one action): the
    candidates of "play a card of your hand"."""
    return [{"type": kind, "card": card} for card in dict.fromkeys(cards)]


def hand_card_action(
    kind: str, description: str, phases: tuple[str, ...] | None = None, twins: bool = True
) -> ActionType:
    """An action naming any one card of the acting seat's hand, declared once: every card of
    the hand is legal (listed directly) and a card not held is refused. The game adds the
    handler; a game with a stricter rule declares its own action type instead.

    ``twins=False`` declares that a hand never holds two cards of one code (no double deck,
    no repeated card): the listing then skips dropping the twins, about 1 µs a listing, which
    a game listing several seats' hands after every action (Raj's sealed bids) notices."""
    action = ActionType(kind, description, phases=phases, card=CARD)

    if twins:

        def listed(game: object, state: State, seat: int) -> list[dict]:  # card_actions, inlined
            cards = dict.fromkeys(state.zones[hand(seat)].cards)
            return [{"type": kind, "card": c} for c in cards]

    else:

        def listed(game: object, state: State, seat: int) -> list[dict]:
            return [{"type": kind, "card": c} for c in state.zones[hand(seat)].cards]

    action.candidates(listed)
    action.enumerate(listed)
    action.refusal(lambda game, state, seat, act: not_in_hand(state, seat, act["card"]))
    return action


def seat_zones(state: State, kind: str, visibility: str) -> list[Zone]:
    """Create one zone of ``kind`` per seat, owned by that seat."""
    return [state.zone(seat_zone(kind, s), s, visibility) for s in range(state.players)]
