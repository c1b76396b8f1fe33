"""Tricks: who takes a trick, and which cards of a hand may go on it.

Written once for every trick-taking game (Brisca and Tute, Truco's bazas, and the bots
that reason about them). A strength order is a table ``rank -> strength`` (``tables.
BRISCA_STRENGTH``) or a function ``card -> strength`` (Truco ranks single cards); a
higher number is a stronger card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..cards import rank, suit
from ..events import EventType
from ..fields import CARDS, INT, SEAT
from ..language import Say

#: A trick taken: who took it, its cards, and their card points.
TRICK_WON = EventType(
    "trick_won",
    "a seat takes the trick: its cards and what they are worth",
    seat=SEAT.about("who takes it"),
    cards=CARDS.about("the trick's cards, in play order"),
    points=INT.about("their card points"),
    says=Say(
        es="{seat} se lleva la baza: {points:punto|puntos}",
        en="{seat} takes the trick: {points:point|points}",
    ),
)

Strength = Mapping[int, int] | Callable[[str], int]


def power(strength: Strength) -> Callable[[str], int]:
    """A strength order as a function of the card, whichever way it was given."""
    if callable(strength):
        return strength
    table = strength
    return lambda card: table[rank(card)]


def trick_winner(
    cards: Sequence[str],
    strength: Strength,
    trump: str | None = None,
    led: str | None = None,
    any_suit: bool = False,
    shared_best_wins: bool = True,
) -> int | None:
    """The index, in play order, of the card that takes the trick.

    The strongest trump takes it if any was played; otherwise the strongest card of the
    suit led (``led``, by default the first card's suit), and cards of other suits never
    win. ``any_suit`` lets every card compete by strength alone, whatever its suit (a
    Truco baza). On equal strength the card played first keeps the trick; with
    ``shared_best_wins=False`` a shared best strength wins nothing and the result is None
    (a Truco parda).
    """
    # One pass, no intermediate lists: this runs at the end of every trick of every match.
    by_card: Callable[[str], int] | None = strength if callable(strength) else None
    table: Mapping[int, int] = {} if callable(strength) else strength
    if by_card is None and led is None and not any_suit and shared_best_wins:
        # The commonest rule (Brisca, Tute): the first card leads, and a card takes the trick
        # from the best so far when it is of the best's suit and stronger, or a trump on
        # another suit; no tiers to keep.
        best, best_suit, top = 0, suit(cards[0]), table[rank(cards[0])]
        for i in range(1, len(cards)):
            card = cards[i]
            s = suit(card)
            if s == best_suit:
                p = table[rank(card)]
                if p > top:
                    best, top = i, p
            elif s == trump:
                best, best_suit, top = i, s, table[rank(card)]
        return best
    lead = suit(cards[0]) if led is None else led
    best, best_tier, top, tied = -1, 0, 0, False
    for i, card in enumerate(cards):
        s = suit(card)
        if s == trump:
            tier = 2  # a trump beats every other suit
        elif any_suit or s == lead:
            tier = 1
        else:
            continue  # a card of another suit never wins
        p = table[rank(card)] if by_card is None else by_card(card)
        if tier > best_tier or (tier == best_tier and p > top):
            best, best_tier, top, tied = i, tier, p, False
        elif tier == best_tier and p == top:
            tied = True
    return None if tied and not shared_best_wins else best


def playable(
    hand: Sequence[str],
    trick: Sequence[str],
    strength: Strength,
    trump: str | None = None,
    head: bool = False,
) -> list[str]:
    """The cards of ``hand`` that may go on ``trick`` when suit is obligatory (Brisca's arrastre).

    Follow the suit led if you can, else play a trump if you can, else anything. With
    ``head`` (montar) you must also beat the winning card where you can: with a card of
    the suit led while it is winning on that suit, or with a higher trump over a trump.
    On an empty trick any card may lead.
    """
    if not trick:
        return list(hand)
    for obliged in (suit(trick[0]), trump):
        same = [c for c in hand if suit(c) == obliged]
        if same:
            if head:
                winner = trick_winner(trick, strength, trump)
                assert winner is not None
                best, p = trick[winner], power(strength)
                if suit(best) == obliged:
                    return [c for c in same if p(c) > p(best)] or same
            return same
    return list(hand)
