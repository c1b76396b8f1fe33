"""Exploradores: expeditions by suit for two players with a 52-card English deck
(rules/exploradores.txt).

Each turn a player places a card on their own expedition of its suit, or discards it
on that suit's discard pile, then draws from the stock or from the top of a discard
pile. Expeditions go in descending order (A, K, Q … 2); in ``basico`` figures come
first in any order, then numbers ascending. When the stock runs out, every started
expedition scores its cards' values minus 50, plus 40 with 7 cards or more.

Every decision where the text is silent or ambiguous is in docs/games/exploradores.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.engine import (
    ENGLISH_SUITS,
    HIDDEN,
    OWNER,
    PUBLIC,
    Action,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    english_deck,
    event,
    rank,
    record_round,
    register,
    suit,
)
from shared.engine.actions import CARD, ActionType, choice
from shared.engine.kit import turns
from shared.engine.kit.dealing import deal_hands
from shared.engine.kit.ending import end_match, highest
from shared.engine.kit.tables import ENGLISH_ACE_HIGH
from shared.engine.kit.zones import card_actions, hand, hand_card_action, not_in_hand, seat_zone

HAND_SIZE = 8
FIGURES = (1, 11, 12, 13)  # A, J, Q, K
FIGURE_VALUE = 30
ROW_COST = 50
LONG_ROW, LONG_BONUS = 7, 40
SOURCES = ("stock", *ENGLISH_SUITS)


def expedition(s: str, seat: int) -> str:
    """The zone of ``seat``'s expedition of suit ``s``: ``expedition-S:0``."""
    return seat_zone(f"expedition-{s}", seat)


def pile(s: str) -> str:
    """The discard pile of suit ``s``: ``discard-S``."""
    return f"discard-{s}"


def card_value(card: str, numbers: str = "ten") -> int:
    """A, J, Q, K 30; a number card 10 (``numbers = "face"``: its number)."""
    r = rank(card)
    if r in FIGURES:
        return FIGURE_VALUE
    return 10 if numbers == "ten" else r


def row_score(cards: list[str], numbers: str = "ten") -> int:
    """A started expedition: its cards' values - 50, + 40 with 7 cards or more; 0 if not started."""
    if not cards:
        return 0
    bonus = LONG_BONUS if len(cards) >= LONG_ROW else 0
    return sum(card_value(c, numbers) for c in cards) - ROW_COST + bonus


def placement_problem(row: list[str], card: str, order: str) -> str | None:
    """Why ``card`` cannot follow the expedition ``row`` (None: it can)."""
    if order == "descending":
        if row and ENGLISH_ACE_HIGH[rank(card)] >= ENGLISH_ACE_HIGH[rank(row[-1])]:
            return f"{card} is not lower than {row[-1]}: an expedition goes A, K, Q, J, 10 … 2"
        return None
    numbers = [c for c in row if rank(c) not in FIGURES]
    if rank(card) in FIGURES:
        if numbers:
            return f"{card} is a figure: figures go only at the start, before any number card"
        return None
    if numbers and rank(card) <= rank(numbers[-1]):
        return f"{card} is not higher than {numbers[-1]}: number cards go up, 2 … 10"
    return None


@dataclass
class ExploradoresData(GameData):
    dealer: int = 0
    discarded: str | None = None  # the suit discarded on this turn (its pile cannot be drawn)


class Exploradores(Game):
    id = "exploradores"
    name = "Exploradores"
    rules_file = "exploradores.txt"
    players = (2, 2)
    data_type = ExploradoresData
    options = {
        "order": Option(
            "descending",
            "the order of an expedition: descending A..2, or figures first then numbers up",
            choices=("descending", "figures-then-ascending"),
        ),
        "numbers": Option(
            "ten", "what a number card 2-10 is worth: 10, or its number", choices=("ten", "face")
        ),
        "take_back_discard": Option(
            False, "a player may draw the card they discarded in the same turn"
        ),
    }
    variants = {
        "base": Variant("base", "Expeditions in descending order, A, K, Q, J, 10 … 2."),
        "basico": Variant(
            "basico",
            "Nivel básico: A, K, Q, J in any order at the start, then numbers ascending 2 … 10.",
            {"order": "figures-then-ascending"},
        ),
    }

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck()

    def setup(self, state: State) -> list[Event]:
        data = ExploradoresData.of(state)
        stock = state.zone("stock", None, HIDDEN)
        stock.cards = self.deck(state)
        state.shuffle(stock.cards)
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            for x in ENGLISH_SUITS:
                state.zone(expedition(x, s), s, PUBLIC)
        for x in ENGLISH_SUITS:
            state.zone(pile(x), None, PUBLIC)
        data.dealer = state.rng().randrange(state.players)
        first = turns.next_seat(state, data.dealer)
        events = deal_hands(state, turns.seats_from(state, first), HAND_SIZE)
        state.phase, state.to_act = "play", [first]
        return [event("deal", dealer=data.dealer, first=first), *events]

    # -- the action table --------------------------------------------------------------
    place = ActionType(
        "place", "put a card on your expedition of its suit", phases=("play",), card=CARD
    )
    discard = hand_card_action("discard", "put a card on the discard pile of its suit", ("play",))
    draw = ActionType(
        "draw",
        "take the top card of the stock or of a suit's discard pile; the turn ends",
        phases=("draw",),
        source=choice(*SOURCES, description="stock, or the suit of a discard pile"),
    )

    @place.candidates
    def _places(self, state: State, seat: int) -> list[Action]:
        return card_actions("place", state.cards(hand(seat)))

    @place.refusal
    def _place_refused(self, state: State, seat: int, action: Action) -> str | None:
        card = action["card"]
        if missing := not_in_hand(state, seat, card):
            return missing
        row = state.cards(expedition(suit(card), seat))
        return placement_problem(row, card, state.options["order"])

    @place.handler
    def _place(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        state.move(card, hand(seat), expedition(suit(card), seat))
        state.phase = "draw"
        return [event("placed", seat=seat, card=card)]

    @discard.handler
    def _discard(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        state.move(card, hand(seat), pile(suit(card)))
        ExploradoresData.of(state).discarded = suit(card)
        state.phase = "draw"
        return [event("discarded", seat=seat, card=card)]

    @draw.candidates
    def _draws(self, state: State, seat: int) -> list[Action]:
        return [{"type": "draw", "source": x} for x in SOURCES]

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> str | None:
        source = action["source"]
        if source == "stock":
            return None if state.cards("stock") else "the stock is empty"
        if not state.cards(pile(source)):
            return f"the discard pile of {source} is empty"
        data = ExploradoresData.of(state)
        if source == data.discarded and not state.options["take_back_discard"]:
            return "you may not take back the card you have just discarded"
        return None

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        source = action["source"]
        card = state.move_top("stock" if source == "stock" else pile(source), hand(seat))
        ExploradoresData.of(state).discarded = None
        secret = {"visible_to": [seat]} if source == "stock" else {}
        events = [event("drew", seat=seat, source=source, card=card, **secret)]
        if not state.cards("stock"):
            return events + self._score(state)
        state.phase, state.to_act = "play", [turns.next_seat(state, seat)]
        return events

    # -- the end -----------------------------------------------------------------------
    def _score(self, state: State) -> list[Event]:
        """The stock has run out: every started expedition is scored and the match ends."""
        rows = self.rows(state)
        points = [sum(r.values()) for r in rows]
        record_round(state, points)
        events = [event("expeditions_scored", rows=rows, points=points)]
        return events + end_match(state, highest(state.scores), reason="stock_exhausted")

    @staticmethod
    def rows(state: State) -> list[dict[str, int]]:
        """Per seat, the score of each started expedition by suit."""
        numbers = state.options["numbers"]
        return [
            {
                x: row_score(state.cards(expedition(x, s)), numbers)
                for x in ENGLISH_SUITS
                if state.cards(expedition(x, s))
            }
            for s in range(state.players)
        ]

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = ExploradoresData.of(state)
        rows = self.rows(state)
        return {
            "dealer": data.dealer,
            "discarded": data.discarded,
            "expeditions": rows,
            "running": [sum(r.values()) for r in rows],
        }


register(Exploradores())
