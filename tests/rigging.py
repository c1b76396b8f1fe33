"""Fixed deals for scenario tests: put named cards where a test wants them, conserving the deck."""

from __future__ import annotations

from collections import Counter

from shared.engine import State


def rig(state: State, layout: dict[str, list[str]], spill: str = "stock") -> State:
    """Make each zone named in ``layout`` hold exactly those cards, in order (the last is the top).

    Wanted cards are taken from the other zones, in place, and replaced there by the
    cards the rigged zones held before; any surplus goes to ``spill``. The match
    still holds exactly its deck, so every invariant check keeps working.
    """
    need: Counter[str] = Counter(c for cards in layout.values() for c in cards)
    displaced: list[str] = []
    for name in layout:
        displaced.extend(state.zones[name].cards)
        state.zones[name].cards = []
    spare = []
    for card in displaced:
        if need[card] > 0:
            need[card] -= 1
        else:
            spare.append(card)
    for name, zone in state.zones.items():
        if name in layout:
            continue
        kept = []
        for card in zone.cards:
            if need[card] > 0:
                need[card] -= 1
                if spare:
                    kept.append(spare.pop())
            else:
                kept.append(card)
        zone.cards = kept
    assert not +need, f"cards not in this match: {sorted((+need).elements())}"
    for name, cards in layout.items():
        state.zones[name].cards = list(cards)
    state.zones[spill].cards.extend(spare)
    return state
