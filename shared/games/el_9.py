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

from dataclasses import dataclass

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
    event,
    rank,
    register,
    spanish_deck,
    suit,
)
from shared.engine.kit.pairs import PairRule, same_rank, sums_to
from shared.engine.kit.solitaire import end_solitaire

ROWS, COLUMNS = 3, 5
CELLS = tuple(f"cell:{r}:{c}" for r in range(1, ROWS + 1) for c in range(1, COLUMNS + 1))
STOCK, DRAWN, DISCARD = "stock", "drawn", "discard"
#: The row of each figure: reyes on top, caballos in the middle, sotas at the bottom.
FIGURE_ROW = {12: 1, 11: 2, 10: 3}
FIGURE_NAMES = {12: "Rey", 11: "Caballo", 10: "Sota"}
ROW_NAMES = {1: "the top row (reyes)", 2: "the middle row (caballos)", 3: "the bottom row (sotas)"}
NINE = 9
FIGURES = 12


def row_of(cell: str) -> int:
    return int(cell.split(":")[1])


def column_of(cell: str) -> int:
    return int(cell.split(":")[2])


def is_figure(card: str) -> bool:
    return rank(card) in FIGURE_ROW


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

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(state.options["deck"])

    @staticmethod
    def _rule(state: State) -> PairRule:
        top = 8 if state.options["deck"] == 48 else 7
        numbers = {r: r for r in range(1, top + 1)}
        return sums_to(9, numbers) if state.options["pairing"] == "sum-9" else same_rank(numbers)

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
        return [event("deal", stock=len(cards), rows=ROWS, columns=COLUMNS)]

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
    def _reveal_refused(self, state: State, seat: int, action: Action) -> str | None:
        return None if state.cards(STOCK) else "the stock is used up"

    @reveal.handler
    def _reveal(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top(STOCK, DRAWN)
        events = [event("revealed", seat=0, card=card)]
        if rank(card) == NINE:
            state.move_top(DRAWN, DISCARD)
            granted = bool(self._empty(state)) and bool(self._table(state))
            state.phase = "move" if granted else "play"
            events.append(event("discarded", seat=0, card=card, move_granted=granted))
        else:
            state.phase = "place"
        return events + self._settle(state)

    # place
    @place.candidates
    def _places(self, state: State, seat: int) -> list[Action]:
        return [{"type": "place", "to": cell} for cell in self._empty(state)]

    @place.refusal
    def _place_refused(self, state: State, seat: int, action: Action) -> str | None:
        card = state.cards(DRAWN)[-1]
        return self._cell_refused(state, card, action["to"])

    @place.handler
    def _place(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top(DRAWN, action["to"])
        state.phase = "play"
        return [event("placed", seat=0, card=card, to=action["to"])] + self._settle(state)

    # pair
    @pair.candidates
    def _pairs(self, state: State, seat: int) -> list[Action]:
        rule = self._rule(state)
        table = self._table(state)
        if state.phase == "place":
            drawn = state.cards(DRAWN)[-1]
            return [{"type": "pair", "cards": [drawn, c]} for c in rule.partners(drawn, table)]
        return [{"type": "pair", "cards": [a, b]} for a, b in rule.pairs(table)]

    @pair.refusal
    def _pair_refused(self, state: State, seat: int, action: Action) -> str | None:
        cards = action["cards"]
        if len(cards) != 2 or cards[0] == cards[1]:
            return "a pair is two different cards"
        table = self._table(state)
        if state.phase == "place":
            drawn = state.cards(DRAWN)[-1]
            if self._empty(state):
                return f"place {drawn} first: only with the grid full does it pair at once"
            if drawn not in cards:
                return f"with the grid full, {drawn} (the card revealed) must be one of the pair"
            other = cards[1] if cards[0] == drawn else cards[0]
            if other not in table:
                return f"{other} is not on the table"
        else:
            for card in cards:
                if card not in table:
                    return f"{card} is not on the table"
        rule = self._rule(state)
        if not rule.matches(cards[0], cards[1]):
            return f"{cards[0]} and {cards[1]} do not pair: a pair is {rule.describe()}"
        return None

    @pair.handler
    def _pair(self, state: State, seat: int, action: Action) -> list[Event]:
        for card in action["cards"]:
            state.move(card, self._where(state, card), DISCARD)
        if state.phase == "place":
            state.phase = "play"
        return [event("paired", seat=0, cards=list(action["cards"]))] + self._settle(state)

    # move
    @move.candidates
    def _moves(self, state: State, seat: int) -> list[Action]:
        empty = self._empty(state)
        return [
            {"type": "move", "card": c, "to": cell} for c in self._table(state) for cell in empty
        ]

    @move.refusal
    def _move_refused(self, state: State, seat: int, action: Action) -> str | None:
        card = action["card"]
        if card not in self._table(state):
            return f"{card} is not on the table"
        return self._cell_refused(state, card, action["to"])

    @move.handler
    def _move(self, state: State, seat: int, action: Action) -> list[Event]:
        card, to = action["card"], action["to"]
        source = self._where(state, card)
        state.move(card, source, to)
        state.phase = "play"
        return [event("moved", seat=0, card=card, **{"from": source}, to=to)] + self._settle(state)

    # decline
    @decline.handler
    def _decline(self, state: State, seat: int, action: Action) -> list[Event]:
        state.phase = "play"
        return [event("declined", seat=0)] + self._settle(state)

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
    def _cell_refused(state: State, card: str, cell: str) -> str | None:
        """Why ``card`` may not go into ``cell`` now, or None."""
        if state.zones[cell].cards:
            return f"{cell} is taken by {state.zones[cell].cards[0]}"
        if is_figure(card) and row_of(cell) != FIGURE_ROW[rank(card)]:
            name = FIGURE_NAMES[rank(card)]
            return f"a {name} goes only in {ROW_NAMES[FIGURE_ROW[rank(card)]]}"
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
