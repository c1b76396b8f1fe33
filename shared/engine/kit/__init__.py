"""Rule helpers that more than one game needs, written once: a game imports what it uses.

Every game:
* ``zones``     — zone names (``hand(seat)``), per-seat zones, "a card of your hand" actions.
* ``turns``     — the standard direction option, the next seat, skipping seats.
* ``dealing``   — a new deal (gather and shuffle), hands dealt from the top of a stock.
* ``ending``    — ending a match and announcing its result; highest and lowest scores.
* ``tables``    — value and order tables of the Spanish and English decks, by name.

Families:
* ``tricks``    — the trick winner and the cards that may follow (Brisca, Tute, Truco).
* ``melds``     — sets and runs with wilds, the best grouping of a hand (Chinchón, Canasta).
* ``rows``      — rows built outward from a starting rank (Cinquillo, foundations).
* ``solitaire`` — covered layouts, foundations, stock passes, the end of a patience.
* ``pairs``     — cards that go out together: summing to a target or of equal rank.
* ``reaction``  — real-time reaction windows decided by arrival order (Nervioso, La Granja).
* ``sealed``    — simultaneous sealed commits revealed at once (Raj, E-Card, Gentei Janken).
* ``climbing``  — sets of equal value, "equal or beat", clearing and burning (Presidente, Palacio).
* ``shedding``  — a stock restocked from the discard pile (Ciruela, 99).
* ``majority``  — majority scoring per category (Bolsas de dinero).
"""
