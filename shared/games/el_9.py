"""El 9 (rules/el-9.txt): a patience on a 3×5 grid that keeps the figures and pairs away the rest.

One player, the 48-card Spanish deck as a face-down stock. Each card revealed is placed
in an empty cell of the grid: a number anywhere, a figure only in its row (reyes on top,
caballos in the middle, sotas at the bottom). Two number cards on the table summing 9
(1+8, 2+7, 3+6, 4+5) may be removed at any time; a 9 is discarded and grants one optional
move of a table card to an empty cell. With the grid full, the card revealed must pair
with a table card at once (the last chance). Won when the table holds exactly the 12
figures ("juego perfecto" when each suit's three figures share a column); lost when a
figure has no cell in its row or the last chance fails. ``siete-parejas``: 40 cards and
pairs of the same number. The decisions taken where the text is silent are in
docs/games/el-9.md.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from shared.engine import (
    CARD,
    CARDS,
    HIDDEN,
    PUBLIC,
    Action,
    ActionType,
    BadSetup,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    choice,
    rank,
    register,
    spanish_deck,
    suit,
)
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, INT, SEAT, STR
from shared.engine.kit.ending import MATCH_FINISHED
from shared.engine.kit.pairs import PairRule, same_rank, sums_to
from shared.engine.kit.solitaire import end_solitaire
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.language import SPANISH_DECK, Message, Say, Words

ROWS, COLUMNS = 3, 5
CELLS = tuple(f"cell:{r}:{c}" for r in range(1, ROWS + 1) for c in range(1, COLUMNS + 1))
STOCK, DRAWN, DISCARD = "stock", "drawn", "discard"
#: The row of each figure: reyes on top, caballos in the middle, sotas at the bottom.
FIGURE_ROW = {12: 1, 11: 2, 10: 3}
FIGURE_NAMES = {12: "Rey", 11: "Caballo", 10: "Sota"}
ROW_NAMES = {1: "the top row (reyes)", 2: "the middle row (caballos)", 3: "the bottom row (sotas)"}
NINE = 9
FIGURES = 12

#: The ``from`` field of the ``moved`` event (a Python keyword, so passed by name).
MOVED_FROM: dict[str, Any] = {"from": STR.about("the cell it leaves")}

# -- what the rules say to a player, in both languages -------------------------------------
#: Each figure's row, as a refusal says it.
ROW_SAID = {
    12: Say(
        es="un rey va solo en la fila de arriba (reyes)",
        en="a Rey goes only in the top row (reyes)",
    ),
    11: Say(
        es="un caballo va solo en la fila del medio (caballos)",
        en="a Caballo goes only in the middle row (caballos)",
    ),
    10: Say(
        es="una sota va solo en la fila de abajo (sotas)",
        en="a Sota goes only in the bottom row (sotas)",
    ),
}
PAIR_RULES = {
    "sum-9": Say(es="dos cartas que suman 9", en="two cards summing 9"),
    "same-number": Say(es="dos cartas del mismo número", en="two cards of the same number"),
}
PAIRING_WORDS = Words(
    {
        "sum-9": ("dos cartas de número que suman 9", "two number cards summing 9"),
        "same-number": ("dos cartas del mismo número", "two cards of the same number"),
    }
)
STOCK_USED_UP = Say(es="el mazo se ha acabado", en="the stock is used up")
TWO_DIFFERENT = Say(es="una pareja son dos cartas distintas", en="a pair is two different cards")
PLACE_FIRST = Say(
    es="coloca antes {card}: solo con la cuadrícula llena se empareja en el acto",
    en="place {code} first: only with the grid full does it pair at once",
)
DRAWN_IN_PAIR = Say(
    es="con la cuadrícula llena, {card} (la carta descubierta) debe ser de la pareja",
    en="with the grid full, {code} (the card revealed) must be one of the pair",
)
NOT_ON_TABLE = Say(es="{card:cap} no está en la mesa", en="{code} is not on the table")
NO_PAIR = Say(
    es="{cards} no forman pareja: una pareja son {rule}",
    en="{first} and {second} do not pair: a pair is {rule}",
)
CELL_TAKEN = Say(
    es="la fila {row}, columna {column} ya tiene {card}", en="{cell} is taken by {code}"
)


def row_of(cell: str) -> int:
    return int(cell.split(":")[1])


def column_of(cell: str) -> int:
    return int(cell.split(":")[2])


def is_figure(card: str) -> bool:
    return rank(card) in FIGURE_ROW


CELL_ROWS = {cell: row_of(cell) for cell in CELLS}


def fits(card: str, cell: str) -> bool:
    """Whether ``card`` may go into the empty ``cell``: a figure only in its own row."""
    row = FIGURE_ROW.get(rank(card))
    return row is None or CELL_ROWS[cell] == row


@functools.cache
def _pair_rule(deck: int, pairing: str) -> PairRule:
    """The pairing of a deck (made once per options: it is asked on every listing)."""
    top = 8 if deck == 48 else 7
    numbers = {r: r for r in range(1, top + 1)}
    return sums_to(9, numbers) if pairing == "sum-9" else same_rank(numbers)


@dataclass
class El9Data(GameData):
    won: bool | None = None  # None while the match is on
    reason: str | None = None  # why it ended
    perfect: bool | None = None  # on a win: each suit's three figures share a column


class El9(Game):
    id = "el-9"
    name = "El 9"
    rules_file = "el-9.txt"
    players = (1, 1)
    data_type = El9Data
    options = {
        "deck": Option(
            48, "cards in the Spanish deck: 48 (with 8s and 9s) or 40", choices=(48, 40)
        ),
        "pairing": Option(
            "sum-9",
            "which two number cards go out together: summing 9, or of the same number",
            choices=("sum-9", "same-number"),
        ),
        "clear_stock": Option(
            False,
            "the win also needs the stock used up (not only the 12 figures alone on the table)",
        ),
    }
    variants = {
        "base": Variant("base", "48 cards; pairs summing 9; a 9 grants one move."),
        "siete-parejas": Variant(
            "siete-parejas",
            "40 cards (no 8s or 9s); pairs of the same number.",
            {"deck": 40, "pairing": "same-number"},
        ),
    }

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "the start: the whole deck is the stock, the grid empty",
        stock=INT.about("cards in the stock"),
        rows=INT,
        columns=INT,
        says=Say(
            es="{stock:carta|cartas} en el mazo y una cuadrícula de {rows} × {columns} vacía",
            en="{stock:card|cards} in the stock and an empty {rows} × {columns} grid",
        ),
    )
    revealed = EventType(
        "revealed",
        "the top card of the stock revealed",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} descubre {card}", en="{seat} reveals {card}"),
    )
    discarded = EventType(
        "discarded",
        "a 9 revealed goes to the discard; it grants a move while there is a table card and an"
        " empty cell",
        seat=SEAT,
        card=CARD,
        move_granted=BOOL,
    )
    placed = EventType(
        "placed",
        "the card revealed put into an empty cell",
        seat=SEAT,
        card=CARD,
        to=STR.about("the cell, cell:<row>:<column>"),
    )
    paired = EventType(
        "paired",
        "two number cards that pair taken out",
        seat=SEAT,
        cards=CARDS,
        says=Say(es="{seat} empareja {cards}", en="{seat} pairs {cards}"),
    )
    moved = EventType(
        "moved",
        "the move a 9 grants: a table card to an empty cell",
        seat=SEAT,
        card=CARD,
        to=STR.about("the cell it goes to"),
        **MOVED_FROM,
    )
    declined = EventType(
        "declined",
        "the move a 9 grants given up",
        seat=SEAT,
        says=Say(es="{seat} renuncia al movimiento", en="{seat} gives up the move"),
    )
    match_finished = MATCH_FINISHED.extend(
        won=BOOL,
        reason=STR.about("why it ended, in words"),
        perfect=BOOL.about("won with each suit's three figures in one column"),
    )

    @discarded.sentence
    def _discarded_said(self, event: Event) -> Say:
        if event["move_granted"]:
            return Say(
                es="{card:cap} va al descarte: {seat} puede mover una carta",
                en="{card:cap} is discarded: {seat} may move a card",
            )
        return Say(es="{card:cap} va al descarte", en="{card:cap} is discarded")

    @placed.sentence
    def _placed_said(self, event: Event) -> tuple[Say, dict]:
        return Say(
            es="{seat} pone {card} en la fila {row}, columna {column}",
            en="{seat} puts {card} in row {row}, column {column}",
        ), {"row": row_of(event["to"]), "column": column_of(event["to"])}

    @moved.sentence
    def _moved_said(self, event: Event) -> tuple[Say, dict]:
        return Say(
            es="{seat} mueve {card} a la fila {row}, columna {column}",
            en="{seat} moves {card} to row {row}, column {column}",
        ), {"row": row_of(event["to"]), "column": column_of(event["to"])}

    @match_finished.sentence
    def _finished_said(self, event: Event) -> Say:
        if not event["won"]:
            return Say(es="Fin: el solitario no sale", en="Over: the patience is lost")
        if event["perfect"]:
            return Say(
                es="¡Sale el solitario, y es un juego perfecto!",
                en="The patience comes out, a perfect game!",
            )
        return Say(es="¡Sale el solitario!", en="The patience comes out!")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "figures": INT.about("figures on the table"),
        "last_chance": BOOL.about("the grid is full: the card revealed must pair at once"),
        "won": BOOL.or_null("null while the match is on"),
        "reason": STR.or_null("why it ended, in words"),
        "perfect": BOOL.or_null("on a win: each suit's three figures share a column"),
    }

    # -- the facts ---------------------------------------------------------------------
    stock = STOCK_LEFT
    figures = FactType(
        "figures",
        "the figures on the table, of the 12 the patience needs",
        INT,
        per_seat=True,
        label=Say(es="Figuras", en="Figures"),
        says=Say(es="Figuras en la mesa: {value} de 12", en="Figures on the table: {value} of 12"),
    )
    empty_cells = FactType(
        "empty_cells",
        "empty cells of the grid",
        INT,
        label=Say(es="Casillas libres", en="Empty cells"),
    )
    last_chance = FactType(
        "last_chance",
        "the grid is full: the card revealed must pair with a table card at once",
        BOOL,
        label=Say(es="Última oportunidad", en="Last chance"),
        says=Say(
            es="Última oportunidad: la carta descubierta debe emparejarse",
            en="Last chance: the card revealed must pair",
        ),
    )
    move_pending = FactType(
        "move",
        "a 9 granted a move: a table card to an empty cell, or give it up",
        BOOL,
        label=Say(es="Movimiento", en="Move"),
        says=Say(es="Un 9 da un movimiento", en="A 9 grants a move"),
    )
    pairs = FactType(
        "pairing",
        "which two number cards go out together",
        choice(*PAIR_RULES, words=PAIRING_WORDS),
        label=Say(es="Parejas", en="Pairs"),
        says=Say(es="Se emparejan {value}", en="Pairs: {value}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        table = self._table(state)
        facts = [
            self.stock(len(state.cards(STOCK))),
            self.empty_cells(len(self._empty(state))),
            self.pairs(state.options["pairing"]),
            self.figures(sum(1 for c in table if is_figure(c)), 0),
        ]
        if state.phase == "place" and not self._empty(state) and not state.finished:
            facts.append(self.last_chance(True))
        if state.phase == "move" and not state.finished:
            facts.append(self.move_pending(True))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(state.options["deck"])

    @staticmethod
    def _rule(state: State) -> PairRule:
        return _pair_rule(state.options["deck"], state.options["pairing"])

    def setup(self, state: State) -> list[Event]:
        if state.options["deck"] == 40 and state.options["pairing"] == "sum-9":
            raise BadSetup("pairs summing 9 need the 48-card deck: without 8s no 1 could go out")
        cards = self.deck(state)
        state.shuffle(cards)
        state.zone(STOCK, None, HIDDEN).cards = cards  # its top is the end of the list
        for cell in CELLS:
            state.zone(cell, None, PUBLIC)
        state.zone(DRAWN, None, PUBLIC)
        state.zone(DISCARD, None, PUBLIC)
        state.phase = "play"
        state.to_act = [0]
        return [self.new_deal(stock=len(cards), rows=ROWS, columns=COLUMNS)]

    # -- the action table --------------------------------------------------------------
    to_cell = choice(*CELLS, description="an empty cell, cell:<row>:<column>")
    reveal = ActionType("reveal", "reveal the top card of the stock", phases=("play",))
    place = ActionType(
        "place", "put the card revealed into an empty cell", phases=("place",), to=to_cell
    )
    pair = ActionType(
        "pair",
        "take out two number cards of the table that pair (with the grid full, the card"
        " revealed and a table card)",
        phases=("play", "move", "place"),
        cards=CARDS,
    )
    move = ActionType(
        "move",
        "the move a 9 grants: a table card to an empty cell",
        phases=("move",),
        card=CARD,
        to=to_cell,
    )
    decline = ActionType("decline", "give up the move a 9 grants", phases=("move",))

    # reveal
    @reveal.refusal
    def _reveal_refused(self, state: State, seat: int, action: Action) -> Say | None:
        return None if state.cards(STOCK) else STOCK_USED_UP

    @reveal.handler
    def _reveal(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top(STOCK, DRAWN)
        events = [self.revealed(seat=0, card=card)]
        if rank(card) == NINE:
            state.move_top(DRAWN, DISCARD)
            granted = bool(self._empty(state)) and bool(self._table(state))
            state.phase = "move" if granted else "play"
            events.append(self.discarded(seat=0, card=card, move_granted=granted))
        else:
            state.phase = "place"
        return events + self._settle(state)

    # place
    @place.candidates
    def _places(self, state: State, seat: int) -> list[Action]:
        return [{"type": "place", "to": cell} for cell in self._empty(state)]

    @place.enumerate
    def _legal_places(self, state: State, seat: int) -> list[Action]:
        """The empty cells the card fits (the refusal's rule, without wording each refusal)."""
        card = state.cards(DRAWN)[-1]
        return [{"type": "place", "to": cell} for cell in self._empty(state) if fits(card, cell)]

    @place.refusal
    def _place_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card = state.cards(DRAWN)[-1]
        return self._cell_refused(state, card, action["to"])

    @place.handler
    def _place(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top(DRAWN, action["to"])
        state.phase = "play"
        return [self.placed(seat=0, card=card, to=action["to"])] + self._settle(state)

    # pair
    @pair.candidates
    def _pairs(self, state: State, seat: int) -> list[Action]:
        rule = self._rule(state)
        table = self._table(state)
        if state.phase == "place":
            drawn = state.cards(DRAWN)[-1]
            return [{"type": "pair", "cards": [drawn, c]} for c in rule.partners(drawn, table)]
        return [{"type": "pair", "cards": [a, b]} for a, b in rule.pairs(table)]

    @pair.enumerate
    def _legal_pairs(self, state: State, seat: int) -> list[Action]:
        """The candidates are pairs of the table (or the card revealed with one): all legal,
        but in ``place`` with an empty cell left, when the card must be placed first."""
        if state.phase == "place" and self._empty(state):
            return []
        return list(self._pairs(state, seat))

    @pair.refusal
    def _pair_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        cards = action["cards"]
        if len(cards) != 2 or cards[0] == cards[1]:
            return TWO_DIFFERENT
        table = self._table(state)
        if state.phase == "place":
            drawn = state.cards(DRAWN)[-1]
            if self._empty(state):
                return PLACE_FIRST(card=drawn, code=drawn)
            if drawn not in cards:
                return DRAWN_IN_PAIR(card=drawn, code=drawn)
            other = cards[1] if cards[0] == drawn else cards[0]
            if other not in table:
                return NOT_ON_TABLE(card=other, code=other)
        else:
            for card in cards:
                if card not in table:
                    return NOT_ON_TABLE(card=card, code=card)
        if not self._rule(state).matches(cards[0], cards[1]):
            rule = PAIR_RULES[state.options["pairing"]]
            return NO_PAIR(cards=list(cards), first=cards[0], second=cards[1], rule=rule)
        return None

    @pair.handler
    def _pair(self, state: State, seat: int, action: Action) -> list[Event]:
        for card in action["cards"]:
            state.move(card, self._where(state, card), DISCARD)
        if state.phase == "place":
            state.phase = "play"
        return [self.paired(seat=0, cards=list(action["cards"]))] + self._settle(state)

    # move
    @move.candidates
    def _moves(self, state: State, seat: int) -> list[Action]:
        empty = self._empty(state)
        return [
            {"type": "move", "card": c, "to": cell} for c in self._table(state) for cell in empty
        ]

    @move.enumerate
    def _legal_moves(self, state: State, seat: int) -> list[Action]:
        empty = self._empty(state)
        return [
            {"type": "move", "card": c, "to": cell}
            for c in self._table(state)
            for cell in empty
            if fits(c, cell)
        ]

    @move.refusal
    def _move_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card = action["card"]
        if card not in self._table(state):
            return NOT_ON_TABLE(card=card, code=card)
        return self._cell_refused(state, card, action["to"])

    @move.handler
    def _move(self, state: State, seat: int, action: Action) -> list[Event]:
        card, to = action["card"], action["to"]
        source = self._where(state, card)
        state.move(card, source, to)
        state.phase = "play"
        return [self.moved(seat=0, card=card, **{"from": source}, to=to)] + self._settle(state)

    # decline
    @decline.handler
    def _decline(self, state: State, seat: int, action: Action) -> list[Event]:
        state.phase = "play"
        return [self.declined(seat=0)] + self._settle(state)

    # -- rules as questions ------------------------------------------------------------
    @staticmethod
    def _empty(state: State) -> list[str]:
        return [cell for cell in CELLS if not state.zones[cell].cards]

    @staticmethod
    def _table(state: State) -> list[str]:
        return [state.zones[cell].cards[0] for cell in CELLS if state.zones[cell].cards]

    @staticmethod
    def _where(state: State, card: str) -> str:
        for cell in CELLS:
            if card in state.zones[cell].cards:
                return cell
        return DRAWN

    @staticmethod
    def _cell_refused(state: State, card: str, cell: str) -> Message | Say | None:
        """Why ``card`` may not go into ``cell`` now, or None."""
        if taken := state.zones[cell].cards:
            return CELL_TAKEN(row=row_of(cell), column=column_of(cell), cell=cell,
                              card=taken[0], code=taken[0])  # fmt: skip
        if not fits(card, cell):
            return ROW_SAID[rank(card)]
        return None

    def _won(self, state: State) -> bool:
        table = self._table(state)
        if len(table) != FIGURES or not all(is_figure(c) for c in table):
            return False
        return not (state.options["clear_stock"] and state.cards(STOCK))

    @staticmethod
    def _perfect(state: State) -> bool:
        """Each suit's figures all in one column."""
        columns: dict[str, set[int]] = {}
        for cell in CELLS:
            for card in state.zones[cell].cards:
                columns.setdefault(suit(card), set()).add(column_of(cell))
        return all(len(cols) == 1 for cols in columns.values())

    def _settle(self, state: State) -> list[Event]:
        """End the match once the 12 figures are alone on the table, or when nothing is left."""
        if state.phase != "place" and self._won(state):
            return self._end(state, True, "the 12 figures are alone on the table")
        if not self.legal_actions(state, 0):
            return self._end(state, False, self._loss_reason(state))
        return []

    def _loss_reason(self, state: State) -> str:
        if state.phase == "place":
            card = state.cards(DRAWN)[-1]
            if is_figure(card):
                row = ROW_NAMES[FIGURE_ROW[rank(card)]]
                return f"the {FIGURE_NAMES[rank(card)]} revealed has no empty cell in {row}"
            return f"the grid is full and {card}, the last chance, pairs with no table card"
        return "the stock is used up and no pair is left on the table"

    def _end(self, state: State, won: bool, reason: str) -> list[Event]:
        data = El9Data.of(state)
        perfect = won and self._perfect(state)
        data.won, data.reason, data.perfect = won, reason, perfect
        figures = sum(1 for c in self._table(state) if is_figure(c))
        return end_solitaire(state, won, figures, reason=reason, perfect=perfect)

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = El9Data.of(state)
        return {
            "figures": sum(1 for c in self._table(state) if is_figure(c)),
            "last_chance": state.phase == "place" and not self._empty(state),
            "won": data.won,
            "reason": data.reason,
            "perfect": data.perfect,
        }


register(El9())
