"""Solitario Golf (rules/solitario-golf.txt): clear seven columns onto one waste pile.

A one-player patience with a 52-card English deck. Seven columns (six of 5 cards and one
of 4, 34 cards) lie on the table; 18 cards form the stock, and its top card starts the
waste. The free card of a column (its last) goes onto the waste when it is one rank above
or below the waste's top card, suits ignored, K and A being consecutive. When no column
card can go down, the next stock card is turned onto the waste. Won when every column is
empty; lost when the stock is used up and no card can go down. ``revelado`` deals every
card face up. The decisions taken where the text is silent are in docs/games/solitario-golf.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.engine import (
    HIDDEN,
    PUBLIC,
    TOP,
    Action,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    english_deck,
)
from shared.engine.actions import ActionType
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import CARD, CARDS, INT, INTS, SEAT, choice
from shared.engine.game import register
from shared.engine.kit.solitaire import (
    DRAWN,
    RESULT_VIEW,
    WASTE_TOP,
    adjacent,
    column_names,
    deal_columns,
    draw,
    end_solitaire,
    exposed,
    solitaire_finished,
)
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.language import ENGLISH_DECK, Message, Say, Words

COLUMNS = column_names(7)
SIZES = (5, 5, 5, 5, 5, 5, 4)
TABLEAU = sum(SIZES)  # 34
STOCK, WASTE = "stock", "waste"
CLEARED = "every column is cleared"
STUCK = "the stock is used up and no column card can go down"
REASON_WORDS = Words(
    {
        CLEARED: ("todas las columnas están vacías", CLEARED),
        STUCK: ("el mazo se acabó y ninguna carta de las columnas puede bajar", STUCK),
    }
)
COLUMN_WORDS = Words(
    {name: (f"la columna {i}", f"column {i}") for i, name in enumerate(COLUMNS, 1)}
)

# -- what the rules say to a player, in both languages -------------------------------------
NOT_FREE = Say(
    es="{card:cap} no es una carta libre de las columnas; libres: {free}",
    en="{card:cap} is not a free card of the columns; free: {free}",
)
NOT_ADJACENT = Say(
    es="{card:cap} no está un punto por encima ni por debajo de {top}, la carta del descarte",
    en="{card:cap} is not one rank above or below {top}, the top of the waste",
)
STOCK_USED_UP = Say(
    es="el mazo se ha acabado, y el descarte nunca se vuelve",
    en="the stock is used up, and the waste is never turned over",
)
CAN_STILL_PLAY = Say(
    es="{card:cap} aún puede bajar: solo se roba cuando ninguna carta de las columnas puede",
    en="{card:cap} can still go down: draw only when no column card can",
)


@dataclass
class GolfData(GameData):
    won: bool | None = None  # None while the match is on
    reason: str | None = None  # why it ended


class SolitarioGolf(Game):
    id = "solitario-golf"
    name = "Solitario Golf"
    rules_file = "solitario-golf.txt"
    players = (1, 1)
    data_type = GolfData
    options = {
        "face_up": Option(False, "every card of the columns is dealt face up (revelado)"),
        "wrap": Option(True, "K and A are consecutive: a K goes on an A and an A on a K"),
        "draw_any_time": Option(
            False, "the stock may be drawn even while a column card could go down"
        ),
    }
    variants = {
        "base": Variant("base", "Only the free card of each column is face up."),
        "revelado": Variant("revelado", "Every card of the columns is face up.", {"face_up": True}),
    }

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "the columns dealt (their sizes) and the stock left",
        columns=INTS.about("the cards of each column"),
        stock=INT.about("cards left in the stock, its first card turned onto the waste"),
    )
    drawn = DRAWN
    played = EventType(
        "played",
        "the free card of a column put onto the waste; the card under it is freed",
        seat=SEAT,
        card=CARD,
        column=choice(*COLUMNS, description="the column", words=COLUMN_WORDS),
        exposed=CARD.or_null("the card freed, now face up; null: the column is empty"),
    )
    match_finished = solitaire_finished(
        choice(CLEARED, STUCK, description="why the game is over", words=REASON_WORDS),
        cards_left=INT.about("cards left in the columns"),
        stock_left=INT.about("cards left in the stock"),
    )

    @new_deal.sentence
    def _deal_said(self, event: Event) -> tuple[Say, dict]:
        return Say(
            es="Se reparten {dealt} cartas en {count} columnas; quedan {stock} en el mazo",
            en="{dealt} cards are dealt in {count} columns; {stock} stay in the stock",
        ), {"dealt": sum(event["columns"]), "count": len(event["columns"])}

    @played.sentence
    def _played_said(self, event: Event) -> Say:
        if event["exposed"] is None:
            return Say(
                es="{seat} baja {card} y vacía {column}",
                en="{seat} puts {card} down and clears {column}",
            )
        return Say(
            es="{seat} baja {card} de {column}; queda libre {exposed}",
            en="{seat} puts {card} down from {column}; {exposed} is free",
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "cards_left": INT.about("cards left in the columns"),
        **RESULT_VIEW,
    }

    # -- the facts ---------------------------------------------------------------------
    stock_left = STOCK_LEFT
    waste_top = WASTE_TOP
    cleared = FactType(
        "cleared",
        "the cards the player has put down from the columns, of 34",
        INT,
        per_seat=True,
        label=Say(es="Bajadas", en="Cleared"),
        says=Say(
            es=f"{{seat}} ha bajado {{value}} de {TABLEAU} cartas",
            en=f"{{seat}} has cleared {{value}} of {TABLEAU} cards",
        ),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        facts = [self.stock_left(len(state.cards(STOCK)))]
        if state.cards(WASTE):
            facts.append(self.waste_top(state.cards(WASTE)[-1]))
        facts.append(self.cleared(TABLEAU - self._left(state), 0))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck()

    def setup(self, state: State) -> list[Event]:
        cards = self.deck(state)
        state.shuffle(cards)
        deal_columns(state, COLUMNS, SIZES, cards, PUBLIC if state.options["face_up"] else TOP)
        state.zone(STOCK, None, HIDDEN).cards = cards  # its top is the end of the list
        state.zone(WASTE, None, PUBLIC)
        first = draw(state, STOCK, WASTE)
        state.phase = "play"
        state.to_act = [0]
        return [
            self.new_deal(columns=list(SIZES), stock=len(state.cards(STOCK))),
            self.drawn(seat=0, card=first[0]),
        ]

    # -- the action table --------------------------------------------------------------
    play = ActionType(
        "play", "put the free card of a column onto the waste", phases=("play",), card=CARD
    )
    draw_card = ActionType("draw", "turn the next stock card onto the waste", phases=("play",))

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return [{"type": "play", "card": card} for _column, card in exposed(state, COLUMNS)]

    @play.enumerate
    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        """The free cards one rank from the waste's top."""
        return [{"type": "play", "card": card} for card in self._playable(state)]

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | None:
        card, free = action["card"], [c for _col, c in exposed(state, COLUMNS)]
        if card not in free:  # the same words whether or not the card lies face down
            return Message(NOT_FREE, {"card": card, "free": free}, {"card": CARD, "free": CARDS})
        top = state.cards(WASTE)[-1]
        if not adjacent(card, top, state.options["wrap"]):
            return Message(NOT_ADJACENT, {"card": card, "top": top}, {"card": CARD, "top": CARD})
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        column = next(col for col, c in exposed(state, COLUMNS) if c == card)
        state.move_top(column, WASTE)
        left = state.cards(column)
        shown = left[-1] if left else None  # the card freed is turned face up: public now
        played = self.played(seat=0, card=card, column=column, exposed=shown)
        return [played, *self._settle(state)]

    @draw_card.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        if not state.cards(STOCK):
            return STOCK_USED_UP
        if not state.options["draw_any_time"]:
            playable = self._playable(state)
            if playable:
                return CAN_STILL_PLAY(card=playable[0])
        return None

    @draw_card.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        card = draw(state, STOCK, WASTE)[0]
        return [self.drawn(seat=0, card=card), *self._settle(state)]

    # -- rules as questions ------------------------------------------------------------
    def _playable(self, state: State) -> list[str]:
        """The free cards one rank from the waste's top."""
        top, wrap = state.cards(WASTE)[-1], state.options["wrap"]
        return [c for _col, c in exposed(state, COLUMNS) if adjacent(c, top, wrap)]

    @staticmethod
    def _left(state: State) -> int:
        return sum(len(state.cards(col)) for col in COLUMNS)

    def _settle(self, state: State) -> list[Event]:
        """End the match once the columns are empty (won) or nothing is left to do (lost)."""
        if not self._left(state):
            return self._end(state, True, CLEARED)
        # Nothing left to do, asked without listing (this runs after every move): no free
        # card fits and the stock is used up (with a card that fits, it may be played).
        if not state.cards(STOCK) and not self._playable(state):
            return self._end(state, False, STUCK)
        return []

    def _end(self, state: State, won: bool, reason: str) -> list[Event]:
        data = GolfData.of(state)
        data.won, data.reason = won, reason
        left = self._left(state)
        return end_solitaire(
            state, won, TABLEAU - left, reason=reason, cards_left=left,
            stock_left=len(state.cards(STOCK)),
        )  # fmt: skip

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = GolfData.of(state)
        return {
            "cards_left": self._left(state),
            "won": data.won,
            "reason": data.reason,
        }


register(SolitarioGolf())
