"""Solitario Español: a one-player Clock-style patience on a face-down grid (rules/solitario-espanol.txt).

The shuffled deck lies face down in four rows, one column per rank (1 to Rey). Each row
takes the suit of its first face-up card. The player pays a token to turn any card; a
card already in its place stays, any other is carried to its place, whose face-down
card is taken up and carried in turn, for free, until a card belongs in the cell where
the chain began. Six tokens; the game is won when every card lies in its place and lost
when cards stay face down with no token left. Variants ``mazo-reducido`` (40 cards,
4×10), ``reyes-perdidos`` (no Rey column: four starter cards, and the game is lost when
the fourth Rey comes up first) and ``intercambio-revelado`` (four face-up cards in hand,
the player chooses which to place). Every decision is in docs/games/solitario-espanol.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter

from shared.engine import (
    HIDDEN,
    PUBLIC,
    SPANISH_SUITS,
    Action,
    BadSetup,
    Event,
    Game,
    GameData,
    InvalidState,
    Option,
    State,
    Variant,
    rank,
    record_round,
    register,
    spanish_deck,
    suit,
)
from shared.engine.actions import ActionType
from shared.engine.cards import REY
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARD, CARDS, INT, SUIT, Field, choice, list_of, obj
from shared.engine.kit.ending import end_match
from shared.engine.kit.solitaire import solitaire_finished
from shared.engine.kit.tables import SPANISH_SEQUENCE_40, SPANISH_SEQUENCE_48
from shared.engine.kit.zones import hand, not_in_hand
from shared.engine.language import SPANISH_DECK, Message, Say, Words
from shared.engine.state import Zone

ROWS = 4
HAND = hand(0)
STARTERS = "starters"
KINGS = "kings"
TOKENS, LOST_KINGS, OPEN_EXCHANGE = "tokens", "lost-kings", "open-exchange"
WON_ALL = "every card is in its place"
WON_REVEALED = "the cards left face down were in place"
NO_TOKENS = "no tokens left"
FOURTH_REY = "the fourth Rey came up"
FOUR_REYES = "the hand holds the four Reyes"
REASON_WORDS = Words(
    {
        WON_ALL: ("todas las cartas están en su sitio", WON_ALL),
        WON_REVEALED: ("las cartas que quedaban boca abajo estaban en su sitio", WON_REVEALED),
        NO_TOKENS: ("no quedan fichas", NO_TOKENS),
        FOURTH_REY: ("salió el cuarto rey", FOURTH_REY),
        FOUR_REYES: ("la mano tiene los cuatro reyes", FOUR_REYES),
    }
)
#: The phase a turn of each mode begins in.
_PHASE_OF = {TOKENS: "flip", LOST_KINGS: "reveal", OPEN_EXCHANGE: "place"}
ROW = Field("int", "row, from 1", minimum=1, maximum=ROWS)
COLUMN = Field("int", "column, from 1", minimum=1, maximum=12)

# -- what the rules say to a player, in both languages -------------------------------------
NO_SUCH_COLUMN = Say(
    es="la cuadrícula tiene las columnas 1 a {last}", en="the grid has columns 1 to {last}"
)
FACE_UP_ALREADY = Say(
    es="la carta de la fila {row}, columna {column} ya está boca arriba",
    en="the card in row {row}, column {column} is already face up",
)
REY_NO_COLUMN = Say(
    es="un rey no tiene columna en esta cuadrícula", en="a Rey has no column on this grid"
)
OWN_ROW = Say(
    es="las cartas de {suit} van en la fila {row}, la fila de {suit}",
    en="{suit} go in row {row}, the row of {suit}",
)
OTHER_SUIT_ROW = Say(
    es="la fila {row} es de otro palo; las cartas de {suit} pueden ir en las filas {rows}",
    en="row {row} belongs to another suit; {suit} may go in rows {rows}",
)


def cell(row: int, column: int) -> str:
    """The zone of a grid cell; rows 1..4 and columns 1..N, as the player counts them."""
    return _CELL_NAMES.get((row, column)) or f"cell:{row}:{column}"


#: Every cell's zone name, made once: the rules walk the grid on every move.
_CELL_NAMES = {(r, c): f"cell:{r}:{c}" for r in range(1, ROWS + 1) for c in range(1, 13)}
#: The grid of N columns as (row, column, zone name), row by row.
_GRIDS = {
    n: tuple((r, c, _CELL_NAMES[r, c]) for r in range(1, ROWS + 1) for c in range(1, n + 1))
    for n in (10, 11, 12)
}


def _column_table(sequence: dict[int, int], rey_column: bool) -> dict[str, int | None]:
    """Each card's column (1..N) in a grid laid by ``sequence``; None for a card without one."""
    return {
        card: (None if not rey_column and rank(card) == REY else sequence[rank(card)] + 1)
        for card in spanish_deck(48)
        if rank(card) in sequence
    }


#: (deck size, whether the grid has a Rey column) -> each card's column.
_COLUMNS = {
    (size, rey): _column_table(SPANISH_SEQUENCE_40 if size == 40 else SPANISH_SEQUENCE_48, rey)
    for size in (40, 48)
    for rey in (True, False)
}


#: Each card's suit, looked up without a call: the chain asks it for every card it carries.
_SUIT = {card: suit(card) for card in spanish_deck(48)}

#: Per grid of N columns: its cells' zones fetched at once (``_grid``: the listing, the
#: whole-grid check and the end test each read every cell on every action), and each
#: cell's flip, which a listing copies.
_NAMES = {n: tuple(name for _, _, name in grid) for n, grid in _GRIDS.items()}
_ZONES_OF = {n: itemgetter(*names) for n, names in _NAMES.items()}
_FLIPS = {
    n: tuple({"type": "flip", "row": r, "column": c} for r, c, _ in grid)
    for n, grid in _GRIDS.items()
}
#: A cell without a zone (a forged state) reads as an empty face-up cell: never face down.
_NO_ZONE = Zone([], None, PUBLIC)


def _row_in_place(table: dict[str, int | None], columns: int) -> dict[str | None, tuple]:
    """Per suit, the cards in their places along its row, column by column (None: a row
    without suit, where no card is in its place)."""
    card_at: dict[tuple[str | None, int], str] = {
        (_SUIT[card], c): card for card, c in table.items() if c is not None
    }
    return {
        s: tuple(card_at.get((s, c)) for c in range(1, columns + 1)) for s in (*SPANISH_SUITS, None)
    }


#: (deck size, Rey column) -> per suit, its row's cards in their places (``_row_in_place``).
_ROW_IN_PLACE = {
    key: _row_in_place(table, max(c for c in table.values() if c is not None))
    for key, table in _COLUMNS.items()
}


def _in_place(state: State, rows: list) -> tuple[str | None, ...] | None:
    """Per cell of the grid, row by row, the card whose place it is given the rows' suits;
    None when a row holds neither a suit nor None, or a suit has two rows (a forged state,
    checked cell by cell). Made once per grid and rows' suits (at most 4 × 5⁴) and kept."""
    options = state.options
    key = (options["deck_size"], options["mode"] == TOKENS, *rows)
    try:
        return _IN_PLACE[key]
    except KeyError:
        pass
    except TypeError:  # a row's suit that is no suit at all
        return None
    along = _ROW_IN_PLACE[key[:2]]
    try:
        first, second, third, fourth = (along[s] for s in rows)
    except (KeyError, ValueError):
        return None
    if _a_suit_has_two_rows(rows):
        return None
    _IN_PLACE[key] = in_place = first + second + third + fourth
    return in_place


#: (deck size, Rey column, each row's suit) -> ``_in_place``'s answer, once it was asked.
_IN_PLACE: dict[tuple, tuple[str | None, ...]] = {}


def _a_suit_has_two_rows(rows: list) -> bool:
    """Whether one suit names two rows: a forged state, which no play can make."""
    named = [s for s in rows if s is not None]
    return len(named) != len(set(named))


def _column_table_of(state: State) -> dict[str, int | None]:
    """Each card's column in this match's grid."""
    options = state.options
    return _COLUMNS[options["deck_size"], options["mode"] == TOKENS]


@dataclass
class SolitarioData(GameData):
    rows: list[str | None] = field(default_factory=lambda: [None] * ROWS)  # each row's suit
    tokens: int = 0
    start: list[int] | None = None  # [row, column] of the empty cell where a chain began


class SolitarioEspanol(Game):
    id = "solitario-espanol"
    name = "Solitario Español"
    rules_file = "solitario-espanol.txt"
    players = (1, 1)
    data_type = SolitarioData
    options = {
        "deck_size": Option(48, "cards in the deck (40: no 8s and 9s)", choices=(48, 40)),
        "mode": Option(
            TOKENS,
            "tokens: pay to turn a card; lost-kings: starter cards and a Rey column; "
            "open-exchange: four face-up cards in hand",
            choices=(TOKENS, LOST_KINGS, OPEN_EXCHANGE),
        ),
        "tokens": Option(6, "tokens at the start (tokens mode)", minimum=1, maximum=48),
        "reveal_at_end": Option(
            False,
            "when the game is decided, the cards still face down are turned: if all lie "
            "in their places the game is won",
        ),
    }
    variants = {
        "base": Variant("base", "48 cards in a 4×12 face-down grid, 6 tokens."),
        "mazo-reducido": Variant(
            "mazo-reducido", "40 cards (no 8s and 9s) in a 4×10 grid.", {"deck_size": 40}
        ),
        "reyes-perdidos": Variant(
            "reyes-perdidos",
            "No Rey column: four face-down starter cards, no tokens; lost when the fourth "
            "Rey comes up before the grid is done.",
            {"mode": LOST_KINGS, "reveal_at_end": True},
        ),
        "intercambio-revelado": Variant(
            "intercambio-revelado",
            "No Rey column: four face-up cards in hand, the player chooses which to place; "
            "lost when the hand holds the four Reyes.",
            {"mode": OPEN_EXCHANGE, "reveal_at_end": True},
        ),
    }

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    laid_out = EventType(
        "laid_out",
        "the deck laid face down in the grid, and the tokens to turn cards (tokens mode)",
        rows=INT,
        columns=INT,
        tokens=INT.about("tokens at the start (0 outside the tokens mode)"),
    )
    flipped = EventType(
        "flipped",
        "a token paid to turn a face-down card of the grid",
        row=ROW,
        column=COLUMN,
        card=CARD,
        tokens=INT.about("tokens left"),
        says=Say(
            es="Se vuelve {card} de la fila {row}, columna {column}; fichas: {tokens}",
            en="{card:cap} is turned in row {row}, column {column}; tokens left: {tokens}",
        ),
    )
    stays = EventType(
        "stays",
        "a turned card that already lies in its place stays there; the turn is over",
        row=ROW,
        column=COLUMN,
        card=CARD,
        says=Say(es="{card:cap} ya está en su sitio", en="{card:cap} is already in its place"),
    )
    revealed = EventType(
        "revealed",
        "the next starter card turned (reyes perdidos)",
        card=CARD,
        says=Say(es="Sale la carta inicial: {card:bare}", en="Starter card: {card:bare}"),
    )
    placed = EventType(
        "placed",
        "a card laid in its place; the face-down card there (``took``) comes up and is"
        " carried on, or the cell was the empty one and the chain is over",
        card=CARD,
        row=ROW,
        column=COLUMN,
        took=CARD.about("the face-down card taken up from the cell").maybe(),
        chain_over=BOOL.about("the cell was the chain's empty one").maybe(),
    )
    rey_out = EventType(
        "rey_out",
        "a Rey came up: it has no column on this grid and is set aside",
        card=CARD,
        reyes=INT.about("the Reyes set aside so far"),
        says=Say(
            es="{card:cap} no tiene columna y sale del juego ({reyes} de 4)",
            en="{card:cap} has no column and is set aside ({reyes} of 4)",
        ),
    )
    turned_up = EventType(
        "turned_up",
        "the game is decided: the cards still face down are turned where they lie",
        cells=list_of(obj(row=ROW, column=COLUMN, card=CARD), "each cell turned and its card"),
    )
    match_finished = solitaire_finished(
        choice(*REASON_WORDS.words, description="why the game is over", words=REASON_WORDS)
    )

    @laid_out.sentence
    def _laid_out_said(self, event: Event) -> Say:
        if event["tokens"]:
            return Say(
                es="Las cartas se reparten boca abajo en {rows} filas de {columns}; "
                "hay {tokens:ficha|fichas}",
                en="The cards are laid face down in {rows} rows of {columns}; "
                "{tokens:token|tokens} to play",
            )
        return Say(
            es="Las cartas se reparten boca abajo en {rows} filas de {columns}",
            en="The cards are laid face down in {rows} rows of {columns}",
        )

    @placed.sentence
    def _placed_said(self, event: Event) -> Say:
        if "took" in event:
            return Say(
                es="{card:cap} va a la fila {row}, columna {column}, y se levanta {took}",
                en="{card:cap} goes to row {row}, column {column}, and {took} comes up",
            )
        return Say(
            es="{card:cap} va a la fila {row}, columna {column}, y la cadena termina",
            en="{card:cap} goes to row {row}, column {column}, and the chain is over",
        )

    @turned_up.sentence
    def _turned_up_said(self, event: Event) -> tuple[Say, dict]:
        return Say(
            es="Se vuelven las cartas que quedaban boca abajo: {cards}",
            en="The cards left face down are turned: {cards}",
        ), {"cards": [c["card"] for c in event["cells"]]}

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "rows": list_of(SUIT.or_null(), "per row, its suit; null until its first card lies"),
        "columns": INT.about("columns of the grid"),
        "tokens": INT.about("tokens left (tokens mode)"),
        "chain_start": list_of(
            INT, "[row, column] of the empty cell where the chain began"
        ).or_null(),
        "face_down": INT.about("cards still face down in the grid"),
    }

    # -- the facts ---------------------------------------------------------------------
    tokens_left = FactType(
        "tokens",
        "tokens left to turn a card (tokens mode)",
        INT,
        label=Say(es="Fichas", en="Tokens"),
        says=Say(es="{value:ficha|fichas} por jugar", en="{value:token|tokens} left"),
    )
    face_down = FactType(
        "face_down",
        "cards still face down in the grid",
        INT,
        label=Say(es="Boca abajo", en="Face down"),
        says=Say(es="{value:carta|cartas} boca abajo", en="{value:card|cards} still face down"),
    )
    row_suit = FactType(
        "row",
        "a row that has its suit (one fact per such row)",
        obj(row=INT, suit=SUIT),
        label=Say(es="Fila", en="Row"),
        says=Say(es="Fila {value.row}: {value.suit}", en="Row {value.row}: {value.suit}"),
    )
    chain = FactType(
        "chain_start",
        "the empty cell where the chain of cards carried began: it ends there",
        obj(row=INT, column=INT),
        label=Say(es="Cadena", en="Chain"),
        says=Say(
            es="La cadena empezó en la fila {value.row}, columna {value.column}",
            en="The chain began in row {value.row}, column {value.column}",
        ),
    )
    reyes = FactType(
        "reyes",
        "Reyes set aside: the fourth ends the game (reyes perdidos)",
        CARDS,
        label=Say(es="Reyes fuera", en="Reyes out"),
        says=Say(es="Reyes fuera: {value:bare}", en="Reyes set aside: {value:bare}"),
    )
    starters = FactType(
        "starters",
        "starter cards left to turn (reyes perdidos)",
        INT,
        label=Say(es="Cartas iniciales", en="Starter cards"),
        says=Say(
            es="{value:carta inicial|cartas iniciales} por volver",
            en="{value:starter card|starter cards} left",
        ),
    )
    in_place = FactType(
        "in_place",
        "the cards the player has laid face up in their places",
        INT,
        per_seat=True,
        label=Say(es="En su sitio", en="In place"),
        says=Say(
            es="{seat} tiene {value:carta|cartas} en su sitio",
            en="{seat} has {value:card|cards} in place",
        ),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, mode = SolitarioData.of(state), state.options["mode"]
        facts: list[Fact] = []
        if mode == TOKENS:
            facts.append(self.tokens_left(data.tokens))
        facts.append(self.face_down(len(self._face_down_cells(state))))
        facts.extend(
            self.row_suit({"row": r, "suit": x})
            for r, x in enumerate(data.rows, start=1)
            if x is not None
        )
        if data.start:
            facts.append(self.chain({"row": data.start[0], "column": data.start[1]}))
        if mode == LOST_KINGS:
            facts.append(self.reyes(list(state.cards(KINGS))))
            facts.append(self.starters(len(state.cards(STARTERS))))
        facts.append(self.in_place(self._placed(state), 0))
        return facts

    # -- the grid's shape --------------------------------------------------------------
    @staticmethod
    def _grid(state: State, n: int) -> tuple[Zone, ...]:
        """The zones of the grid's ``n`` columns, row by row (a missing one as ``_NO_ZONE``)."""
        try:
            return _ZONES_OF[n](state.zones)  # type: ignore[no-any-return]
        except KeyError:
            return tuple(map(state.zones.get, _NAMES[n], repeat(_NO_ZONE)))

    @staticmethod
    def columns(state: State) -> int:
        if state.options["mode"] != TOKENS:
            return 11
        return 12 if state.options["deck_size"] == 48 else 10

    @staticmethod
    def column_of(state: State, card: str) -> int | None:
        """The column of a card's rank (1..N); None for a Rey when the grid has no Rey column."""
        options = state.options
        return _COLUMNS[options["deck_size"], options["mode"] == TOKENS][card]

    def cells(self, state: State) -> list[tuple[int, int]]:
        return [(r, c) for r, c, _ in _GRIDS[self.columns(state)]]

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(state.options["deck_size"])

    def setup(self, state: State) -> list[Event]:
        mode, data = state.options["mode"], SolitarioData.of(state)
        if mode != TOKENS and state.options["deck_size"] != 48:
            raise BadSetup(f"the {mode} mode is played with the 48-card deck")
        cards = self.deck(state)
        state.shuffle(cards)
        # Each cell, row by row, takes the next card from the top (the end) of the deck.
        zones, names = state.zones, _NAMES[self.columns(state)]
        for name, card in zip(names, reversed(cards[-len(names) :]), strict=True):
            zones[name] = Zone([card], None, HIDDEN)
        del cards[-len(names) :]
        state.zone(HAND, 0, PUBLIC)
        if mode == LOST_KINGS:
            state.zone(STARTERS, None, HIDDEN).cards = cards
            state.zone(KINGS, None, PUBLIC)
            state.phase = "reveal"
        elif mode == OPEN_EXCHANGE:
            state.cards(HAND).extend(cards)
            state.phase = "place"
        else:
            data.tokens = state.options["tokens"]
            state.phase = "flip"
        state.to_act = [0]
        return [self.laid_out(rows=ROWS, columns=self.columns(state), tokens=data.tokens)]

    # -- the action table --------------------------------------------------------------
    flip = ActionType(
        "flip",
        "pay a token and turn a face-down card of the grid",
        phases=("flip",),
        row=ROW,
        column=COLUMN,
    )
    reveal = ActionType("reveal", "turn the next starter card", phases=("reveal",))
    place = ActionType(
        "place",
        "put a card of your hand in its column, in the row of its suit (or a free row)",
        phases=("place",),
        card=CARD,
        row=ROW,
    )

    @flip.candidates
    def _flips(self, state: State, seat: int) -> list[Action]:
        n = self.columns(state)
        return [
            flip.copy()
            for flip, zone in zip(_FLIPS[n], self._grid(state, n), strict=True)
            if zone.visibility == HIDDEN and zone.cards
        ]

    # The candidates are the face-down cells themselves: each one is legal.
    flip.enumerate(_flips)

    @flip.refusal
    def _flip_refused(self, state: State, seat: int, action: Action) -> Message | None:
        r, c = action["row"], action["column"]
        if c > self.columns(state):
            return NO_SUCH_COLUMN(last=self.columns(state))
        if not self._face_down(state, r, c):
            return FACE_UP_ALREADY(row=r, column=c)
        return None

    @flip.handler
    def _flip(self, state: State, seat: int, action: Action) -> list[Event]:
        data = SolitarioData.of(state)
        r, c = action["row"], action["column"]
        data.tokens -= 1
        card = state.cards(cell(r, c))[0]
        events = [self.flipped(row=r, column=c, card=card, tokens=data.tokens)]
        if self._fits(state, card, r, c):
            self._lay(state, card, r, c)
            return events + [self.stays(row=r, column=c, card=card)] + self._turn_over(state)
        state.move(card, cell(r, c), HAND)
        data.start = [r, c]
        return events + self._chain(state)

    @reveal.handler
    def _reveal(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top(STARTERS, HAND)
        return [self.revealed(card=card)] + self._chain(state)

    @place.candidates
    def _places(self, state: State, seat: int) -> list[Action]:
        return [
            {"type": "place", "card": card, "row": r}
            for card in dict.fromkeys(state.cards(HAND))
            if self.column_of(state, card) is not None
            for r in self.rows_for(state, card)
        ]

    # The candidates are the hand's cards with a column, in each row they may go in: legal.
    place.enumerate(_places)

    @place.refusal
    def _place_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card, r = action["card"], action["row"]
        if missing := not_in_hand(state, 0, card):
            return missing
        if self.column_of(state, card) is None:
            return REY_NO_COLUMN
        rows = self.rows_for(state, card)
        if r in rows:
            return None
        if len(rows) == 1 and SolitarioData.of(state).rows[rows[0] - 1] == suit(card):
            return OWN_ROW(suit=suit(card), row=rows[0])
        return OTHER_SUIT_ROW(row=r, suit=suit(card), rows=rows)

    @place.handler
    def _place(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._chain(state, (action["card"], action["row"]))

    # -- the chain -----------------------------------------------------------------------
    def _chain(self, state: State, chosen: tuple[str, int] | None = None) -> list[Event]:
        """Lay cards of the hand face up in their places: ``chosen`` first (the card and row
        a player placed), then, for free, each card that comes up from a place, until the
        chain ends, a choice of row is the player's, or (open exchange) the chosen card lies.

        The first card an action lays checks the whole grid (a state may come from anywhere);
        once it passed, a later lay of the same action can only break it in its own cell (a
        row's suit is only ever set on a row without face-up cards), so only that is checked:
        the suit it gives a row, and the card in the cell. That card is the one laid unless
        the cell held more than one (a forged state): laid in its column and in a row its
        suit may take (the chain's choice, or the placement's refusal), it lies in place."""
        events: list[Event] = []
        zones = state.zones
        in_hand = zones[HAND].cards
        column = _column_table_of(state)
        rows = SolitarioData.of(state).rows
        carry = chosen is None or state.options["mode"] != OPEN_EXCHANGE
        checked = False
        while in_hand:
            if chosen is not None:
                card, r = chosen
                c = column[card]
                assert c is not None  # the refusal turned away a card without a column
                chosen = None
            elif not carry:
                break
            else:
                card = in_hand[0]
                c = column[card]
                if c is None:  # a Rey, with no column on this grid
                    state.move(card, HAND, KINGS)
                    events.append(self.rey_out(card=card, reyes=len(state.cards(KINGS))))
                    break
                own = _SUIT[card]
                if rows.count(own) == 1:  # ``rows_for``'s commonest answer, inlined
                    r = rows.index(own) + 1
                else:
                    choices = self.rows_for(state, card)
                    if len(choices) > 1:
                        state.phase = "place"
                        return events
                    r = choices[0]
            # The card goes in its cell; the face-down card there comes to hand.
            zone = zones[_CELL_NAMES[r, c]]
            target = zone.cards
            took = target.pop() if target else None
            in_hand.remove(card)
            target.append(card)
            zone.visibility = PUBLIC
            if rows[r - 1] is None:
                self._give_suit(state, card, r, checked)
            if not checked:
                self.check_rows(state)
                checked = True
            elif target[0] is not card:
                self.check_rows(state, (r, c))
            # The declared ``placed`` event, built here without its builder's call (a third
            # of a card's cost); the declarations' check holds it to its type like any other.
            if took is None:
                state.data.start = None
                events.append(
                    {"type": "placed", "card": card, "row": r, "column": c, "chain_over": True}
                )
            else:
                in_hand.append(took)
                events.append({"type": "placed", "card": card, "row": r, "column": c, "took": took})
        return events + self._turn_over(state)

    def _lay(self, state: State, card: str, r: int, c: int) -> None:
        """``card``, already in its cell, lies face up in its place (the grid checked whole)."""
        state.zones[_CELL_NAMES[r, c]].visibility = PUBLIC
        if state.data.rows[r - 1] is None:
            self._give_suit(state, card, r, False)
        self.check_rows(state)

    @staticmethod
    def _give_suit(state: State, card: str, r: int, checked: bool) -> None:
        """The first card laid in row ``r`` gives it its suit (``checked``: the grid was
        checked earlier in this action, and only the rows' suits are checked again)."""
        rows = state.data.rows
        rows[r - 1] = _SUIT[card]
        if checked and rows.count(rows[r - 1]) > 1:
            raise InvalidState(f"rows and suits no longer match up: a suit has two rows ({rows})")

    # -- the end -------------------------------------------------------------------------
    def _turn_over(self, state: State) -> list[Event]:
        """After a flip, a chain or a placement: won, lost, or the next move."""
        mode = state.options["mode"]
        state.phase = _PHASE_OF[mode]
        if not self._any_face_down(state):
            return self._end(state, True, WON_ALL)
        if mode == TOKENS and SolitarioData.of(state).tokens == 0:
            return self._decide(state, NO_TOKENS)
        if mode == LOST_KINGS and (
            len(state.cards(KINGS)) == len(SPANISH_SUITS) or not state.cards(STARTERS)
        ):
            return self._decide(state, FOURTH_REY)
        if mode == OPEN_EXCHANGE and all(
            self.column_of(state, c) is None for c in state.cards(HAND)
        ):
            return self._decide(state, FOUR_REYES)
        return []

    def _decide(self, state: State, reason: str) -> list[Event]:
        """No move left: lost, unless (``reveal_at_end``) every card still face down
        turns out to lie in its place already."""
        if not state.options["reveal_at_end"]:
            return self._end(state, False, reason)
        shown = []
        for r, c in self._face_down_cells(state):
            state.zones[cell(r, c)].visibility = PUBLIC
            shown.append({"row": r, "column": c, "card": state.cards(cell(r, c))[0]})
        events = [self.turned_up(cells=shown)]
        if self._solved(state):
            return events + self._end(state, True, WON_REVEALED)
        return events + self._end(state, False, reason)

    def _end(self, state: State, won: bool, reason: str) -> list[Event]:
        record_round(state, [self._placed(state)])
        return end_match(state, [0] if won else [], won=won, reason=reason)

    # -- rules as questions ----------------------------------------------------------------
    def _placed(self, state: State) -> int:
        """Cards lying face up in the grid (the score: at the end, the cards turned too)."""
        n = self.columns(state)
        return [zone.visibility for zone in _ZONES_OF[n](state.zones)].count(PUBLIC)

    def _face_down(self, state: State, r: int, c: int) -> bool:
        zone = state.zones.get(cell(r, c))
        return zone is not None and bool(zone.cards) and zone.visibility == HIDDEN

    def _any_face_down(self, state: State) -> bool:
        for zone in self._grid(state, self.columns(state)):
            if zone.visibility == HIDDEN and zone.cards:
                return True
        return False

    def _face_down_cells(self, state: State) -> list[tuple[int, int]]:
        n = self.columns(state)
        return [
            (r, c)
            for (r, c, _), zone in zip(_GRIDS[n], self._grid(state, n), strict=True)
            if zone.visibility == HIDDEN and zone.cards
        ]

    def _fits(self, state: State, card: str, r: int, c: int) -> bool:
        """A turned card stays where it is: its column, and its row's suit (or a row
        without suit while no other row has taken the card's suit)."""
        return _column_table_of(state)[card] == c and r in self.rows_for(state, card)

    def rows_for(self, state: State, card: str) -> list[int]:
        """The rows ``card`` may go in: its suit's row, or else every row with no suit yet."""
        rows = SolitarioData.of(state).rows
        own = _SUIT[card]
        if own in rows:  # its suit's row (two only in a forged state, which the lay refuses)
            if rows.count(own) == 1:
                return [rows.index(own) + 1]
            return [i + 1 for i, s in enumerate(rows) if s == own]
        if None not in rows:
            raise InvalidState(
                f"rows and suits no longer match up: {suit(card)} has no row "
                f"and every row has a suit ({rows})"
            )
        return [i + 1 for i, s in enumerate(rows) if s is None]

    def check_rows(self, state: State, laid: tuple[int, int] | None = None) -> None:
        """Four rows, four suits: no suit has two rows and every face-up card lies in the row
        of its suit and the column of its rank (``laid``: in that cell only, the one changed
        since the grid was last checked)."""
        rows, zones = SolitarioData.of(state).rows, state.zones
        if laid is None and (in_place := _in_place(state, rows)) is not None:
            # Rows of four different suits (or none): one test per cell, its card is the one
            # in place; any other grid is walked below, to say what is wrong.
            grid = _ZONES_OF[self.columns(state)](zones)
            if len(in_place) == len(grid) and not [
                zone
                for zone, card in zip(grid, in_place, strict=True)
                if zone.visibility == PUBLIC and zone.cards and zone.cards[0] != card
            ]:
                return
        if _a_suit_has_two_rows(rows):
            raise InvalidState(f"rows and suits no longer match up: a suit has two rows ({rows})")
        column = _column_table_of(state)
        cells = _GRIDS[self.columns(state)] if laid is None else ((*laid, cell(*laid)),)
        for r, c, name in cells:
            zone = zones[name]
            if zone.visibility == PUBLIC and zone.cards:
                card = zone.cards[0]
                if rows[r - 1] != _SUIT[card] or column[card] != c:
                    raise InvalidState(
                        f"rows and suits no longer match up: {card} lies in row {r}, column {c}"
                    )

    def _solved(self, state: State) -> bool:
        """Every cell holds its column's rank and every row one suit, each row its own."""
        suits = []
        for r in range(1, ROWS + 1):
            row = [state.cards(cell(r, c))[0] for c in range(1, self.columns(state) + 1)]
            if any(self.column_of(state, card) != c for c, card in enumerate(row, start=1)):
                return False
            if len({suit(card) for card in row}) != 1:
                return False
            suits.append(suit(row[0]))
        return len(set(suits)) == ROWS

    # -- views -------------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: SolitarioData) -> SolitarioData:
        """The view's name for the chain's start (see engine.sampling)."""
        data.start = list(view["chain_start"]) if view["chain_start"] else None
        return data

    def public_fields(self, state: State) -> dict:
        data = SolitarioData.of(state)
        return {
            "rows": list(data.rows),
            "columns": self.columns(state),
            "tokens": data.tokens,
            "chain_start": list(data.start) if data.start else None,
            "face_down": len(self._face_down_cells(state)),
        }


register(SolitarioEspanol())
