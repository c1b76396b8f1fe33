"""Rule helpers that more than one game needs, written once: a game imports what it uses.

* ``zones``   — zone names (``hand(seat)``) and per-seat zones.
* ``turns``   — the standard direction option, the next seat, skipping seats.
* ``dealing`` — dealing hands from a stock, with private ``dealt`` events.
* ``ending``  — ending a match and announcing its result.
* ``tables``  — value and order tables of the Spanish and English decks, by name.

Helpers for one family (trick winners, melds, solitaire layouts, reaction windows,
sealed commits…) live beside these as their own modules.
"""
