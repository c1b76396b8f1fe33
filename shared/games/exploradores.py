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
    rank,
    record_round,
    register,
    suit,
)
from shared.engine.actions import ActionType
from shared.engine.events import MAYBE_PRIVATE, EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import CARD, INT, INTS, SEAT, SUIT, choice, list_of, map_of
from shared.engine.kit import turns
from shared.engine.kit.dealing import DEALER_DRAWN, DEALT, deal_hands
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.kit.tables import ENGLISH_ACE_HIGH
from shared.engine.kit.zones import card_actions, hand, hand_card_action, not_in_hand, seat_zone
from shared.engine.language import ENGLISH_DECK, Message, Say, Words

HAND_SIZE = 8
FIGURES = (1, 11, 12, 13)  # A, J, Q, K
FIGURE_VALUE = 30
ROW_COST = 50
LONG_ROW, LONG_BONUS = 7, 40
SOURCES = ("stock", *ENGLISH_SUITS)

# -- what the rules say to a player, in both languages -------------------------------------
NOT_LOWER = Say(
    es="{card:cap} no es más baja que {last}: una expedición va A, K, Q, J, 10 … 2",
    en="{card:cap} is not lower than {last}: an expedition goes A, K, Q, J, 10 … 2",
)
FIGURE_LATE = Say(
    es="{card:cap} es una figura: las figuras van solo al principio, antes de los números",
    en="{card:cap} is a figure: figures go only at the start, before any number card",
)
NOT_HIGHER = Say(
    es="{card:cap} no es más alta que {last}: los números van hacia arriba, 2 … 10",
    en="{card:cap} is not higher than {last}: number cards go up, 2 … 10",
)
STOCK_EMPTY = Say(es="el mazo está vacío", en="the stock is empty")
PILE_EMPTY = Say(es="el descarte de {suit} está vacío", en="the discard pile of {suit} is empty")
NO_TAKE_BACK = Say(
    es="no puedes recoger la carta que acabas de descartar",
    en="you may not take back the card you have just discarded",
)
REASON_WORDS = Words({"stock_exhausted": ("se acabó el mazo", "the stock ran out")})
SCORED_EACH = Say(es="{seat} suma {points:punto|puntos}", en="{seat} scores {points:point|points}")


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


def follows(row: list[str], card: str, order: str) -> bool:
    """Whether ``card`` may follow the expedition ``row``: descending, lower than its last card
    (A high); else a figure before any number, a number above the last number."""
    if order == "descending":
        return not row or ENGLISH_ACE_HIGH[rank(card)] < ENGLISH_ACE_HIGH[rank(row[-1])]
    last = next((r for r in map(rank, reversed(row)) if r not in FIGURES), None)
    if last is None:
        return True
    r = rank(card)
    return r not in FIGURES and r > last


def placement_problem(row: list[str], card: str, order: str) -> Message | None:
    """Why ``card`` cannot follow the expedition ``row`` (None: it can)."""
    if follows(row, card, order):
        return None
    kinds = {"card": CARD, "last": CARD}
    if order == "descending":
        return Message(NOT_LOWER, {"card": card, "last": row[-1]}, kinds)
    if rank(card) in FIGURES:
        return FIGURE_LATE(card=card)
    last = [c for c in row if rank(c) not in FIGURES][-1]
    return Message(NOT_HIGHER, {"card": card, "last": last}, kinds)


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

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = DEALER_DRAWN
    dealt = DEALT
    placed = EventType(
        "placed",
        "a card put on its player's expedition of its suit",
        seat=SEAT,
        card=CARD,
        says=Say(
            es="{seat} pone {card} en su expedición", en="{seat} adds {card} to an expedition"
        ),
    )
    discarded = EventType(
        "discarded",
        "a card put on the discard pile of its suit",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} descarta {card}", en="{seat} discards {card}"),
    )
    drew = EventType(
        "drew",
        "a card drawn from the stock (seen by the drawer only) or from a discard pile (by all)",
        visibility=MAYBE_PRIVATE,
        seat=SEAT,
        source=choice(*SOURCES, description="stock, or the suit of the discard pile"),
        card=CARD,
    )
    expeditions_scored = EventType(
        "expeditions_scored",
        "the stock has run out: every started expedition scored",
        rows=list_of(map_of(INT), "per seat, the score of each started expedition by suit"),
        points=INTS.about("per seat, the sum of its expeditions"),
    )
    match_finished = MATCH_FINISHED.extend(
        reason=choice("stock_exhausted", description="why the match ends", words=REASON_WORDS)
    )

    @drew.sentence
    def _drew_said(self, event: Event) -> tuple[Say, dict]:
        if event["source"] == "stock":
            return Say(
                es="{seat} roba {card} del mazo", en="{seat} draws {card} from the stock"
            ), {}
        return Say(
            es="{seat} toma {card} del descarte de {suit}",
            en="{seat} takes {card} from the discard pile of {suit}",
        ), {"suit": event["source"]}

    @expeditions_scored.sentence
    def _scored_said(self, event: Event) -> tuple[Say, dict]:
        each = [SCORED_EACH(seat=s, points=p) for s, p in enumerate(event["points"])]
        return Say(
            es="Se acaba el mazo y se puntúan las expediciones: {each}",
            en="The stock has run out and the expeditions score: {each}",
        ), {"each": each}

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "dealer": SEAT,
        "discarded": SUIT.or_null("the suit discarded on this turn, whose pile cannot be drawn"),
        "expeditions": list_of(
            map_of(INT), "per seat, the score each started expedition would make now, by suit"
        ),
        "running": INTS.about("per seat, the sum of its expeditions' scores now"),
    }

    # -- the facts ---------------------------------------------------------------------
    stock_left = STOCK_LEFT
    no_take_back = FactType(
        "discarded",
        "the discard pile its player may not draw from this turn",
        SUIT,
        label=Say(es="Descarte", en="Discard"),
        says=Say(
            es="No se puede robar del descarte de {value} este turno",
            en="The discard pile of {value} cannot be drawn this turn",
        ),
    )
    running = FactType(
        "expeditions",
        "a seat's expeditions as they would score now (the final score once the match is over)",
        INT,
        per_seat=True,
        label=Say(es="Expediciones", en="Expeditions"),
        says=Say(
            es="{seat}: {value:punto|puntos} en expediciones",
            en="{seat}: {value:point|points} in expeditions",
        ),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data = ExploradoresData.of(state)
        facts = [self.stock_left(len(state.cards("stock")))]
        if data.discarded is not None and not state.options["take_back_discard"]:
            facts.append(self.no_take_back(data.discarded))
        rows = self.rows(state)
        facts.extend(self.running(sum(rows[s].values()), s) for s in range(state.players))
        return facts

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
        return [self.new_deal(dealer=data.dealer, first=first), *events]

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

    @place.enumerate
    def _legal_places(self, state: State, seat: int) -> list[Action]:
        """The hand's cards that may follow their expeditions, listed directly: filtering wrote
        out a refusal for most cards of the hand on every listing."""
        order, zones = state.options["order"], state.zones
        return [
            {"type": "place", "card": c}
            for c in dict.fromkeys(zones[hand(seat)].cards)
            if follows(zones[expedition(suit(c), seat)].cards, c, order)
        ]

    @place.refusal
    def _place_refused(self, state: State, seat: int, action: Action) -> Message | None:
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
        return [self.placed(seat=seat, card=card)]

    @discard.handler
    def _discard(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        state.move(card, hand(seat), pile(suit(card)))
        ExploradoresData.of(state).discarded = suit(card)
        state.phase = "draw"
        return [self.discarded(seat=seat, card=card)]

    @draw.candidates
    def _draws(self, state: State, seat: int) -> list[Action]:
        return [{"type": "draw", "source": x} for x in SOURCES]

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        source = action["source"]
        if source == "stock":
            return None if state.cards("stock") else STOCK_EMPTY
        if not state.cards(pile(source)):
            return PILE_EMPTY(suit=source)
        data = ExploradoresData.of(state)
        if source == data.discarded and not state.options["take_back_discard"]:
            return NO_TAKE_BACK
        return None

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        source = action["source"]
        card = state.move_top("stock" if source == "stock" else pile(source), hand(seat))
        ExploradoresData.of(state).discarded = None
        secret = {"visible_to": [seat]} if source == "stock" else {}
        events = [self.drew(seat=seat, source=source, card=card, **secret)]
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
        events = [self.expeditions_scored(rows=rows, points=points)]
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
