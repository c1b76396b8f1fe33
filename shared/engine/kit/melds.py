"""Melds: sets of equal rank and runs of one suit, with wild cards, and the best grouping of a hand.

Rummy games (Chinchón, Canasta…) ask the same questions: is this a legal group, which
groups can a hand form, and which arrangement leaves the fewest points loose. One
``Melds`` object holds a game's answer to the few ways they differ: the sequence runs
follow (a table of ``kit.tables`` by name, or no runs at all), the allowed sizes of sets
and runs, which cards are wild and how many wilds a group may hold.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations

from ..cards import JOKER, english_deck, rank, spanish_deck, suit
from .tables import TABLES

Groups = list[list[str]]
NO_STEP = -99  # a rank outside the sequence (a joker): never part of a run
ANSWERS_KEPT = 4096  # is_group's answers kept per Melds for the small groups of recent hands


@cache
def _keys(sequence: str | None) -> dict[str, tuple[int, str, int]]:
    """Per card code: (rank, suit, position in the sequence)."""
    order = TABLES[sequence] if sequence else {}
    cards = set(spanish_deck(48, jokers=1)) | set(english_deck())
    return {c: (rank(c), suit(c), order.get(rank(c), NO_STEP)) for c in cards}


class Melds:
    """The grouping rules of one game.

    * ``sequence``: the name of the order table runs follow (``"spanish-sequence-40"``:
      7 is followed by the sota); None when the game has no runs. Runs never wrap.
    * ``set_sizes`` / ``run_sizes``: the sizes a set / a run may have (any collection).
    * ``wilds``: the card codes that stand for any card; ``max_wilds`` the most in a group.
      A joker that is not wild is never part of a group.
    * ``natural_wilds``: a wild card that is not a joker may also stand as itself, and then
      does not count towards ``max_wilds`` (Chinchón's 1 de oros in its own place).
    """

    __slots__ = (
        "max_wilds", "natural_wilds", "run_sizes", "sequence", "set_sizes", "wilds", "_gap",
        "_answers", "_grown", "_keys", "_sizes",
    )  # fmt: skip

    def __init__(
        self,
        sequence: str | None = None,
        set_sizes: Collection[int] = (3, 4),
        run_sizes: Collection[int] = (),
        wilds: Iterable[str] = (),
        max_wilds: int = 0,
        natural_wilds: bool = False,
    ):
        if sequence is not None and sequence not in TABLES:
            raise ValueError(f"no order table {sequence!r}; tables: {sorted(TABLES)}")
        self.sequence = sequence
        self.set_sizes = set_sizes
        self.run_sizes = run_sizes if sequence else ()
        self.wilds = frozenset(wilds)
        self.max_wilds = max_wilds
        self.natural_wilds = natural_wilds and any(c != JOKER for c in self.wilds)
        self._keys = _keys(sequence)
        self._answers: dict[tuple[str, ...], bool] = {}  # is_group's answers (group_masks)
        self._sizes = sorted(set(set_sizes) | set(self.run_sizes))
        grown = self._sizes[:1]
        while grown and grown[-1] + 1 in self._sizes:
            grown.append(grown[-1] + 1)
        self._grown = grown  # the small sizes, found by growing groups one card at a time
        self._gap = grown[-1] - 1 if self.run_sizes and grown else -1  # widest step in a small run

    # -- one group -------------------------------------------------------------------------
    def is_wild(self, card: str) -> bool:
        return card in self.wilds

    def naturals(self, cards: Iterable[str]) -> list[str]:
        """The cards that are not wild."""
        return [c for c in cards if c not in self.wilds]

    def is_group(self, cards: Sequence[str]) -> bool:
        """Whether ``cards`` form one legal group, each wild standing for whatever card it must."""
        size = len(cards)
        if size not in self.set_sizes and size not in self.run_sizes:
            return False
        wilds = self.wilds
        naturals = [c for c in cards if c not in wilds]
        if JOKER in naturals:
            return False
        if size - len(naturals) <= self.max_wilds and self._holds(naturals, size):
            return True
        if not self.natural_wilds or len(naturals) == size:  # no wild to stand as itself
            return False
        # Some wild cards standing as themselves: fewer wilds, more naturals to agree.
        own = [c for c in cards if c in wilds and c != JOKER]
        for k in range(1, len(own) + 1):
            if size - len(naturals) - k <= self.max_wilds:
                for chosen in combinations(own, k):
                    if self._holds([*naturals, *chosen], size):
                        return True
        return False

    def _holds(self, naturals: list[str], size: int) -> bool:
        """Whether these natural cards, with wilds for the rest, make a group of ``size``."""
        if not naturals:
            return True
        keys = self._keys
        first = keys[naturals[0]]
        if size in self.set_sizes and all(keys[c][0] == first[0] for c in naturals):
            return True
        return size in self.run_sizes and self._is_run([keys[c] for c in naturals], size, first[1])

    @staticmethod
    def _is_run(keys: list[tuple[int, str, int]], size: int, kind: str) -> bool:
        if any(k[1] != kind or k[2] == NO_STEP for k in keys):
            return False
        steps = sorted(k[2] for k in keys)
        distinct = all(a < b for a, b in zip(steps, steps[1:], strict=False))
        return distinct and steps[-1] - steps[0] < size  # wilds fill the gaps and the ends

    def is_set(self, cards: Sequence[str]) -> bool:
        """A legal group whose natural cards all have one rank."""
        naturals = self.naturals(cards)
        return self.is_group(cards) and len({rank(c) for c in naturals}) <= 1

    # -- every group of a hand -------------------------------------------------------------
    def group_masks(self, hand: Sequence[str], at_least: int = 0) -> list[int]:
        """Every legal group among the cards of ``hand``, as bit masks of positions, sorted;
        none when fewer than ``at_least`` cards could be grouped at all (``groupable``).

        Fast path for the hot loop: the smallest sizes, up to the first gap (3 and 4), are
        found by growing groups one card at a time among cards that can share a group (one
        is wild, or the same rank, or the same suit close enough in the sequence); larger
        sizes (a run of 7) are looked for only where a smaller group exists, as every
        larger group holds one.
        """
        sizes, grown = self._sizes, self._grown
        if not sizes:
            return []
        fits, wild_mask = self._fits(hand)
        if at_least and self._groupable(fits, wild_mask) < at_least:
            return []
        n, is_group = len(hand), self.is_group
        found: set[int] = set()
        more = len(grown) - 1
        # A hand changes by a card or two a turn, so its small groups come back: is_group's
        # answers for them are kept (they depend on the cards only), a few thousand at most.
        known = self._answers
        if len(known) > ANSWERS_KEPT:
            known.clear()
        if grown[0] == 3:  # the usual case: walk the triples of cards that fit pairwise
            for i in range(n):
                fi = fits[i]
                above_i = fi & -(2 << i)
                while above_i:
                    bj = above_i & -above_i
                    above_i ^= bj
                    j = bj.bit_length() - 1
                    fij = fi & fits[j]
                    above_j = fij & -(2 << j)
                    while above_j:
                        bk = above_j & -above_j
                        above_j ^= bk
                        k = bk.bit_length() - 1
                        triple = (hand[i], hand[j], hand[k])
                        grouped = known.get(triple)
                        if grouped is None:
                            grouped = known[triple] = is_group(triple)
                        if grouped:
                            mask = 1 << i | bj | bk
                            found.add(mask)
                            if more:
                                self._grow(hand, fits, mask, fij & fits[k] & ~mask, more, found)
        else:
            for combo in combinations(range(n), grown[0]):
                common = (1 << n) - 1
                for i in combo:
                    common &= fits[i] | 1 << i
                if any(not common >> i & 1 for i in combo):
                    continue
                if not is_group([hand[i] for i in combo]):
                    continue
                mask = sum(1 << i for i in combo)
                found.add(mask)
                self._grow(hand, fits, mask, common & ~mask, more, found)
        larger = sizes[len(grown) :]
        if larger and found:
            # Each card of a run holds a place in a run of the smallest size (its window of
            # places), so a run larger still is looked for among the cards of groups found.
            covered = 0
            for mask in found:
                covered |= mask
            windowed = grown[0] in self.run_sizes
            for size in larger:
                places: Sequence[int] = range(n)
                if windowed and size not in self.set_sizes:
                    places = [i for i in places if covered >> i & 1]
                if len(places) >= size:
                    for combo in combinations(places, size):
                        if is_group([hand[i] for i in combo]):
                            found.add(sum(1 << i for i in combo))
        return sorted(found)

    def groupable(self, hand: Sequence[str]) -> int:
        """An upper bound, cheap to compute, on how many cards of ``hand`` can be in a group:
        the cards with enough others they could share a small group with. A hand that must
        group most of its cards (to close, to go out) is often ruled out by this alone."""
        if not self._sizes:
            return 0
        return self._groupable(*self._fits(hand))

    def _groupable(self, fits: list[int], wild_mask: int) -> int:
        wilds = wild_mask.bit_count()  # natural partners needed, at best:
        need = self._sizes[0] - 1 - (wilds if self.natural_wilds else min(self.max_wilds, wilds))
        if need <= 0:  # enough wilds to complete any card
            return len(fits)
        naturals = ~wild_mask
        return sum(
            1
            for i, mask in enumerate(fits)
            if wild_mask >> i & 1 or (mask & naturals).bit_count() >= need
        )

    def _fits(self, hand: Sequence[str]) -> tuple[list[int], int]:
        """Per card, the mask of the other cards that may share a small group with it; and the
        mask of the wild cards."""
        n, keys, wilds, gap = len(hand), self._keys, self.wilds, self._gap
        everyone = (1 << n) - 1
        wild_mask = 0
        by_rank: dict[int, int] = {}
        by_suit: dict[str, list[tuple[int, int]]] = {}
        card_keys = []
        for i, c in enumerate(hand):
            key = keys[c]
            card_keys.append(key)
            if c in wilds:
                wild_mask |= 1 << i
                continue
            by_rank[key[0]] = by_rank.get(key[0], 0) | 1 << i
            if key[2] != NO_STEP:
                by_suit.setdefault(key[1], []).append((i, key[2]))
        sets = bool(self.set_sizes)
        fits = []
        for i in range(n):
            if wild_mask >> i & 1:
                fits.append(everyone & ~(1 << i))
                continue
            r, s, q = card_keys[i]
            mask = wild_mask | (by_rank[r] if sets else 0)
            if gap >= 0 and q != NO_STEP:
                for j, qj in by_suit[s]:
                    if abs(q - qj) <= gap:
                        mask |= 1 << j
            fits.append(mask & ~(1 << i))
        return fits, wild_mask

    def _grow(
        self, hand: Sequence[str], fits: list[int], mask: int, common: int, more: int, found: set
    ) -> None:
        if not more:
            return
        known = self._answers  # a grown group's answer is kept as a triple's is
        for m in range(len(hand)):
            if common >> m & 1:
                bigger = mask | 1 << m
                if bigger in found:
                    continue
                cards = tuple([hand[i] for i in range(len(hand)) if bigger >> i & 1])
                grouped = known.get(cards)
                if grouped is None:
                    grouped = known[cards] = self.is_group(cards)
                if grouped:
                    found.add(bigger)
                    self._grow(hand, fits, bigger, common & fits[m] & ~bigger, more - 1, found)

    def best_grouping(
        self, hand: Sequence[str], value: Callable[[str], int]
    ) -> tuple[Groups, list[str]]:
        """The disjoint groups that leave the fewest points loose (``value`` per loose card),
        and the loose cards; among equal arrangements the first found (in mask order)."""
        best: tuple[int, Groups, list[str]] = (sum(map(value, hand)), [], list(hand))
        most = len(hand) // self._sizes[0] if self._sizes else 0
        for arrangement in arrangements(self.group_masks(hand), most):
            groups, rest = split(hand, arrangement)
            points = sum(map(value, rest))
            if points < best[0]:
                best = (points, groups, rest)
        return best[1], best[2]


def arrangements(masks: list[int], most: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every non-empty choice of pairwise disjoint groups, depth first in mask order.

    ``most``: how many groups the hand can hold at most (8 cards hold at most two groups
    of 3): with two, a flat double loop (the hot path of a 7- or 8-card hand)."""
    if most is not None and most <= 2:
        for i, first in enumerate(masks):
            yield (first,)
            if most == 2:
                for second in masks[i + 1 :]:
                    if not first & second:
                        yield (first, second)
        return
    for i, first in enumerate(masks):
        yield (first,)
        rest = [m for m in masks[i + 1 :] if not first & m]
        if rest:
            left = None if most is None else most - 1
            yield from ((first, *more) for more in arrangements(rest, left))


def split(hand: Sequence[str], arrangement: tuple[int, ...]) -> tuple[Groups, list[str]]:
    """The groups of an arrangement as cards, and the cards left out of every group."""
    groups = [[c for i, c in enumerate(hand) if mask >> i & 1] for mask in arrangement]
    used = 0
    for mask in arrangement:
        used |= mask
    return groups, [c for i, c in enumerate(hand) if not used >> i & 1]
