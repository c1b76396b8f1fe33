"""Solitaire building blocks: covered layouts, foundations, the stock and the end of a patience.

* ``Layout``: a tableau where each card lies in its own slot (a zone of at most one card)
  and is free once every slot covering it is empty: the pyramid (``pyramid``), the three
  peaks (``three_peaks``). Covered cards may lie face down (HIDDEN) and are turned face
  up (PUBLIC) when freed, so views never show them early.
* Columns (Golf): one zone per column whose last card is the only free one
  (``column_names``, ``deal_columns``, ``exposed``).
* Foundations built up by suit along a sequence (``foundation_names``, ``builds_on``).
* The stock turned onto a waste pile (``draw``, ``turn_over``, ``may_renew``), passes counted;
  the event of a card turned (``DRAWN``) and the fact of the waste's top card (``WASTE_TOP``).
* ``adjacent``: ranks one apart, optionally wrapping K–A (Golf).
* ``end_solitaire``: the result of a patience (a win for seat 0, or a loss with no
  winners), so that a solitaire with no move left ends instead of hanging;
  ``solitaire_finished`` declares its ``match_finished`` ("Ana gana: …", "Ana pierde: …")
  and ``RESULT_VIEW`` its view fields ``won`` and ``reason``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from typing import Any

from ..actions import Event
from ..cards import rank, suit
from ..core import record_round
from ..events import EventType
from ..facts import FactType
from ..fields import BOOL, CARD, SEAT, STR, Field
from ..language import Say
from ..state import HIDDEN, PUBLIC, State
from .ending import MATCH_FINISHED, end_match
from .rows import sequence_of

_cards_of = attrgetter("cards")


# -- covered layouts -----------------------------------------------------------------------
def slot_name(prefix: str, row: int, index: int) -> str:
    """The zone of one layout slot, 1-based: ``slot_name("pyramid", 7, 1)`` is ``pyramid:7:1``."""
    return f"{prefix}:{row}:{index}"


@dataclass(frozen=True)
class Layout:
    """Slots (zone names, in dealing order: top row first) and, per slot, the slots covering it.

    A slot holds one card or none. A card is free when every slot covering it is empty.
    """

    slots: tuple[str, ...]
    covered_by: Mapping[str, tuple[str, ...]]
    #: The slots' zones fetched at once, and per slot the indexes in ``slots`` of the slots
    #: covering it (made once: ``free`` runs for every listing and refusal).
    _zones_of: Callable[[Mapping[str, Any]], Any] = field(init=False, repr=False, compare=False)
    _covers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _cover_pairs: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    #: Per slot, the slots it lies on (those it covers), and each slot's place in ``slots``.
    _lies_on: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _index: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {slot: i for i, slot in enumerate(self.slots)}
        getter = itemgetter(*self.slots)
        zones_of = getter if len(self.slots) > 1 else (lambda zones: (getter(zones),))
        object.__setattr__(self, "_zones_of", zones_of)
        covers = tuple(tuple(index[c] for c in self.covered_by[s]) for s in self.slots)
        object.__setattr__(self, "_covers", covers)
        # Each slot's two covers, the missing ones an index past the slots (always empty):
        # ``free`` then tests two indexes per slot in one comprehension (layouts of two covers).
        none = len(self.slots)
        pairs = tuple((*c, none, none)[:2] for c in covers) if max(map(len, covers)) <= 2 else ()
        object.__setattr__(self, "_cover_pairs", pairs)
        lies_on: dict[str, list[str]] = {slot: [] for slot in self.slots}
        for slot in self.slots:
            for cover in self.covered_by[slot]:
                lies_on[cover].append(slot)
        object.__setattr__(self, "_lies_on", {s: tuple(on) for s, on in lies_on.items()})
        object.__setattr__(self, "_index", index)

    def __len__(self) -> int:
        return len(self.slots)

    def deal(self, state: State, cards: list[str], face_up: bool) -> None:
        """Create the slots' zones and deal one card to each, in order, from the front of
        ``cards`` (which loses them). Covered cards lie face down unless ``face_up``."""
        for slot in self.slots:
            zone = state.zone(slot, None, PUBLIC)
            zone.cards.append(cards.pop(0))
            if not face_up and not self.is_free(state, slot, dealing=True):
                zone.visibility = HIDDEN

    def is_free(self, state: State, slot: str, dealing: bool = False) -> bool:
        """Whether the card in ``slot`` has no card on it (while dealing, slots not yet
        created count as occupied: they will be)."""
        zones = state.zones
        for cover in self.covered_by[slot]:
            zone = zones.get(cover)
            if zone is None:
                if dealing:
                    return False
                continue
            if zone.cards:
                return False
        return True

    def free(self, state: State) -> list[tuple[str, str]]:
        """(slot, card) for every card that is free now, in slot order."""
        held = list(map(_cards_of, self._zones_of(state.zones)))  # every slot's cards, at once
        if self._cover_pairs:
            held.append(())  # the missing cover (so ``held`` is one longer than the slots)
            return [
                (slot, cards[0])
                for slot, cards, (a, b) in zip(self.slots, held, self._cover_pairs, strict=False)
                if cards and not held[a] and not held[b]
            ]
        found = []
        for slot, cards, covers in zip(self.slots, held, self._covers, strict=True):
            if cards:  # ``is_free``, inlined: this runs for every listing
                for cover in covers:
                    if held[cover]:
                        break
                else:
                    found.append((slot, cards[0]))
        return found

    def free_cards(self, state: State) -> list[str]:
        return [card for _slot, card in self.free(state)]

    def free_after(
        self, state: State, free: list[tuple[str, str]], emptied: Sequence[str]
    ) -> list[tuple[str, str]]:
        """``free`` (what ``free`` said before) once the free slots ``emptied`` lost their cards:
        the same as asking ``free`` again, but only the slots the emptied ones lay on can have
        been freed, so only those are looked at (a patience asks it after every removal)."""
        zones = state.zones
        after = [(slot, card) for slot, card in free if slot not in emptied]
        for slot in emptied:
            for under in self._lies_on[slot]:
                cards = zones[under].cards
                if (
                    cards
                    and not any(zones[c].cards for c in self.covered_by[under])
                    and (under, cards[0]) not in after
                ):
                    after.append((under, cards[0]))
        after.sort(key=lambda found: self._index[found[0]])
        return after

    def turn_up_free(self, state: State, free: list[tuple[str, str]]) -> list[str]:
        """``turn_up`` given the free cards (``free``, as ``free`` says them now): a card face
        down is turned only once free, so only the free ones are looked at."""
        zones = state.zones
        turned = []
        for slot, card in free:
            zone = zones[slot]
            if zone.visibility == HIDDEN:
                zone.visibility = PUBLIC
                turned.append(card)
        return turned

    def slot_of(self, state: State, card: str) -> str | None:
        """The slot holding ``card``, or None when it is not in the layout."""
        zones = self._zones_of(state.zones)
        for slot, cards in zip(self.slots, map(_cards_of, zones), strict=True):
            if card in cards:
                return slot
        return None

    def count(self, state: State) -> int:
        """The cards still in the layout."""
        return sum(map(len, map(_cards_of, self._zones_of(state.zones))))

    def empty(self, state: State) -> bool:
        """Whether the layout holds no card (asked after every move: stops at the first card,
        and the top of a layout goes last)."""
        zones = state.zones
        return not any(zones[slot].cards for slot in self.slots)

    def turn_up(self, state: State) -> list[str]:
        """Turn face up every face-down card that is now free; returns those cards."""
        zones = self._zones_of(state.zones)
        held = list(map(_cards_of, zones))
        turned = []
        for zone, cards, covers in zip(zones, held, self._covers, strict=True):
            if cards and zone.visibility == HIDDEN:  # ``is_free``, inlined, as in ``free``
                for cover in covers:
                    if held[cover]:
                        break
                else:
                    zone.visibility = PUBLIC
                    turned.append(cards[0])
        return turned


def layout_from_rows(
    prefix: str, rows: Sequence[int], covers: Callable[[int, int], Sequence[int]]
) -> Layout:
    """A layout of rows of ``rows[r]`` slots; ``covers(r, i)`` lists the indexes (0-based) in
    row ``r + 1`` of the cards lying on card ``i`` of row ``r`` (0-based too)."""
    slots: list[str] = []
    covered_by: dict[str, tuple[str, ...]] = {}
    for r, length in enumerate(rows):
        for i in range(length):
            name = slot_name(prefix, r + 1, i + 1)
            slots.append(name)
            below = covers(r, i) if r + 1 < len(rows) else ()
            covered_by[name] = tuple(slot_name(prefix, r + 2, j + 1) for j in below)
    return Layout(tuple(slots), covered_by)


def pyramid(rows: int = 7, prefix: str = "pyramid") -> Layout:
    """Rows of 1, 2, … ``rows`` cards; each card lies under the two cards below it."""
    return layout_from_rows(prefix, range(1, rows + 1), lambda r, i: (i, i + 1))


THREE_PEAKS_ROWS = (3, 6, 9, 10, 11)


def _three_peaks_covers(r: int, i: int) -> tuple[int, ...]:
    if r == 0:  # each peak lies under the two cards of its own second row
        return (2 * i, 2 * i + 1)
    if r == 1:  # the second row's pair of a peak lies under three cards of the third row
        peak, side = divmod(i, 2)
        return (3 * peak + side, 3 * peak + side + 1)
    return (i, i + 1)  # from the third row down the rows are joined: two cards below each


def three_peaks(prefix: str = "pyramid") -> Layout:
    """Three peaks in rows of 3, 6, 9, 10 and 11 cards (39).

    The three-peaks geometry: each peak (row 1) lies under two cards of row 2; each of
    those lies under two of the three cards of its peak in row 3 (the middle one is shared);
    from row 3 down each card lies under the two cards below it (row 3's card ``i`` under
    row 4's ``i`` and ``i + 1``, row 4's ``i`` under row 5's ``i`` and ``i + 1``).
    """
    return layout_from_rows(prefix, THREE_PEAKS_ROWS, _three_peaks_covers)


# -- columns -------------------------------------------------------------------------------
def column_names(count: int, prefix: str = "column") -> tuple[str, ...]:
    """``column:1`` … ``column:<count>``."""
    return tuple(f"{prefix}:{i}" for i in range(1, count + 1))


def deal_columns(
    state: State, names: Sequence[str], sizes: Sequence[int], cards: list[str], visibility: str
) -> None:
    """Create one zone per column and deal ``sizes[i]`` cards to column ``i`` from the front of
    ``cards`` (which loses them). The last card dealt to a column is its top, the free one."""
    for name, size in zip(names, sizes, strict=True):
        zone = state.zone(name, None, visibility)
        zone.cards.extend(cards[:size])
        del cards[:size]


def exposed(state: State, names: Sequence[str]) -> list[tuple[str, str]]:
    """(column, top card) of every column that is not empty."""
    return [(name, state.zones[name].cards[-1]) for name in names if state.zones[name].cards]


# -- building ------------------------------------------------------------------------------
def adjacent(a: str, b: str, wrap: bool, top: int = 13) -> bool:
    """Whether the ranks of ``a`` and ``b`` are one apart, suits ignored (with ``wrap`` the
    highest rank ``top`` and 1 are one apart too: … Q K A 2 …)."""
    gap = abs(rank(a) - rank(b))
    return gap == 1 or (wrap and gap == top - 1)


def foundation_names(count: int, prefix: str = "foundation") -> tuple[str, ...]:
    """``foundation1`` … ``foundation<count>``."""
    return tuple(f"{prefix}{i}" for i in range(1, count + 1))


def successors(sequence: Mapping[int, int]) -> dict[int, int]:
    """Rank -> the next rank, from an order table (rank -> position, as in ``tables``)."""
    ordered = sequence_of(sequence)
    return {a: b for a, b in zip(ordered, ordered[1:], strict=False)}


SAME_SUIT, OTHER_SUIT = "same-suit", "other-suit"


def builds_on(
    card: str, pile: Sequence[str], next_rank: Mapping[int, int], suits: str = SAME_SUIT
) -> bool:
    """Whether ``card`` may go on top of the foundation ``pile``: an empty pile takes the
    first rank of the sequence (a rank that is nobody's successor), then each next rank of
    the same suit (or, with ``suits="other-suit"``, of a different suit from the card under it)."""
    if not pile:
        return rank(card) not in next_rank.values()
    under = pile[-1]
    if next_rank.get(rank(under)) != rank(card):
        return False
    same = suit(under) == suit(card)
    return same if suits == SAME_SUIT else not same


def fits_table(
    deck: Iterable[str], next_rank: Mapping[int, int], suits: str = SAME_SUIT
) -> dict[str | None, frozenset[str]]:
    """``builds_on`` as a table for a listing asked after every action: the top card of a
    foundation (None: an empty one) -> the cards of ``deck`` that may go on it."""
    cards = list(dict.fromkeys(deck))
    return {
        under: frozenset(
            c for c in cards if builds_on(c, [under] if under else [], next_rank, suits)
        )
        for under in [None, *cards]
    }


# -- the stock and the waste ----------------------------------------------------------------
def draw(state: State, stock: str, waste: str, count: int = 1) -> list[str]:
    """Turn up to ``count`` cards from the top of ``stock`` onto ``waste``, one on another: the
    first card turned lies underneath, the last is the new top. Returns them in that order."""
    pile = state.zones[stock].cards
    cards = [pile.pop() for _ in range(min(count, len(pile)))]
    state.zones[waste].cards.extend(cards)
    return cards


def turn_over(state: State, waste: str, stock: str) -> list[str]:
    """Turn the waste over, unshuffled, as the new stock (the first card turned up in the pass
    is the new top); the waste is left empty. Returns the new stock."""
    cards = state.zones[waste].cards
    cards.reverse()
    state.zones[stock].cards, state.zones[waste].cards = cards, []
    return cards


def may_renew(state: State, stock: str, waste: str, passes: int, max_passes: int | None) -> bool:
    """Whether the waste may become the stock again: the stock is used up, the waste is not,
    and fewer than ``max_passes`` passes were made (None: no limit; 1: a single pass)."""
    if state.zones[stock].cards or not state.zones[waste].cards:
        return False
    return max_passes is None or passes < max_passes


# -- the end ---------------------------------------------------------------------------------
#: The next stock card turned onto the waste.
DRAWN = EventType(
    "drawn",
    "the next stock card turned onto the waste",
    seat=SEAT,
    card=CARD,
    says=Say(es="{seat} vuelve {card} del mazo", en="{seat} turns {card} from the stock"),
)
#: The top card of the waste, the one a move may use.
WASTE_TOP = FactType(
    "waste",
    "the top card of the waste, the one a move may use",
    CARD,
    label=Say(es="Descarte", en="Waste"),
    says=Say(es="En el descarte: {value:bare}", en="On the waste: {value:bare}"),
)

#: The view fields of a patience's outcome (``public_view = {..., **RESULT_VIEW}``).
RESULT_VIEW = {
    "won": BOOL.or_null("whether the game was won; null while it is on"),
    "reason": STR.or_null("why the game ended; null while it is on"),
}

WON_BECAUSE = Say(es="{seat} gana: {reason}", en="{seat} wins: {reason}")
LOST_BECAUSE = Say(es="{seat} pierde: {reason}", en="{seat} loses: {reason}")


def solitaire_finished(reason: Field, **fields: Field) -> EventType:
    """The ``match_finished`` of a patience: whether it was won, why (``reason``, whose
    ``Words`` say it) and the game's other fields; its sentence names the player."""
    finished = MATCH_FINISHED.extend(None, says=None, won=BOOL, reason=reason, **fields)

    @finished.sentence
    def _said(game: Any, event: Event) -> tuple[Say, dict[str, Any]]:
        return (WON_BECAUSE if event["won"] else LOST_BECAUSE), {"seat": 0}

    return finished


def end_solitaire(state: State, won: bool, score: int, **fields: Any) -> list[Event]:
    """End a one-seat match: ``score`` is its one row of the score sheet, seat 0 wins or nobody
    does. ``fields`` (the reason…) go on the ``match_finished`` event with ``won``."""
    record_round(state, [score])
    return end_match(state, [0] if won else [], won=won, **fields)
