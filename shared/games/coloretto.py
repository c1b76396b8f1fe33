"""Coloretto: a drafting game played with the suits of two English decks (rules/coloretto.txt).

There is one row on the table per player. In turn, a player either draws the top card
of the stock and adds it to a row (at most four cards a row), or takes a row with its
cards and sits out for the rest of the round. When everyone has taken a row a new round
begins; after the fifth round, or the round in which the stock runs out, each player
names one suit that scores positively, every other suit scoring negatively on the table
1, 3, 5, 7, 9, 15. Jokers count for the positive suit. The most points wins. Every
decision where the text is silent is in docs/games/coloretto.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.engine import (
    ENGLISH_SUITS,
    HIDDEN,
    JOKER,
    PUBLIC,
    Action,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    english_deck,
    record_round,
    register,
    suit,
)
from shared.engine.actions import ActionType, Field, choice
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARD, CARDS, INT, SEAT, SEATS, SUIT, list_of, obj
from shared.engine.kit import turns
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.table_facts import ROUND_OF, STOCK_LEFT
from shared.engine.kit.zones import seat_zone
from shared.engine.language import ENGLISH_DECK, Message, Say

#: Points for 1, 2, 3, 4, 5 and 6 or more cards of a suit (0 cards: 0).
POINTS = (0, 1, 3, 5, 7, 9, 15)
JOKER_POINTS = 4
STOCK, DRAWN = "stock", "drawn"

# -- what the rules say to a player, in both languages -------------------------------------
STOCK_EMPTY = Say(es="el mazo está vacío: llévate una fila", en="the stock is empty: take a row")
ROWS_FULL = Say(es="todas las filas están llenas: llévate una", en="every row is full: take one")
ROW_EMPTY = Say(es="la fila {row} está vacía", en="row {row} is empty")
ROW_FULL = Say(
    es="la fila {row} está llena ({size:carta|cartas})", en="row {row} is full ({size} cards)"
)
NO_ROW = Say(es="las filas van de la 0 a la {last}", en="there are rows 0 to {last}")
ROW_TAKEN = Say(
    es="alguien se llevó la fila {row} en esta ronda", en="row {row} was taken this round"
)
#: One seat's scoring: its positive suit, its cards of each suit, its jokers and its points.
SCORING = obj(
    "a seat's scoring",
    positive=SUIT.about("the suit that scores positively"),
    counts=obj(S=INT, H=INT, D=INT, C=INT),
    jokers=INT,
    points=INT,
)


def row(i: int) -> str:
    return seat_zone("row", i)


def collection(seat: int) -> str:
    return seat_zone("collection", seat)


def suit_points(count: int) -> int:
    """The table of the text: 1, 3, 5, 7, 9 points for 1 to 5 cards, 15 for six or more."""
    return POINTS[min(count, len(POINTS) - 1)]


def score(cards: list[str], positive: str, jokers: str = "wild") -> dict:
    """One player's score: the positive suit scores (with the jokers as cards of it, or +4
    each), every other suit scores negatively."""
    counts = {s: sum(1 for c in cards if c != JOKER and suit(c) == s) for s in ENGLISH_SUITS}
    joker_count = cards.count(JOKER)
    wild = jokers == "wild"
    plus = suit_points(counts[positive] + (joker_count if wild else 0))
    bonus = 0 if wild else JOKER_POINTS * joker_count
    minus = sum(suit_points(counts[s]) for s in ENGLISH_SUITS if s != positive)
    return {
        "positive": positive,
        "counts": counts,
        "jokers": joker_count,
        "points": plus + bonus - minus,
    }


@dataclass
class ColorettoData(GameData):
    turn: int | None = None  # who acts in the round (None while suits are chosen)
    taken: list[bool] = field(default_factory=list)  # per row: taken this round
    out: list[int] = field(default_factory=list)  # seats that have taken a row this round
    last_taker: int | None = None  # the last seat to take a row: it starts the next round
    chosen: list[str | None] = field(default_factory=list)  # per seat: the positive suit
    final: list[dict] | None = None  # per seat, the scoring at the end


class Coloretto(Game):
    id = "coloretto"
    name = "Coloretto"
    rules_file = "coloretto.txt"
    players = (2, 10)
    data_type = ColorettoData
    options = {
        "direction": turns.DIRECTION,
        "row_size": Option(4, "most cards a row may hold", choices=(3, 4)),
        "rounds": Option(5, "rounds before the scoring", minimum=1, maximum=20),
        "jokers": Option(
            "wild",
            "a joker counts as a card of the positive suit, or +4 points",
            choices=("wild", "plus-four"),
        ),
        "positive_suit": Option(
            "choose",
            "each player names their positive suit, or the best one is taken for them",
            choices=("choose", "best"),
        ),
    }
    variants = {"base": Variant("base", "Coloretto with the four suits of two English decks.")}

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    first_cards = EventType(
        "dealt",
        "the start: one card of the stock face up to each seat's collection, by seat",
        cards=CARDS.about("each seat's first card, in seat order"),
        dealer=SEAT,
        first=SEAT.about("who plays first"),
        says=Say(
            es="Cada jugador recibe una carta: {cards}; empieza {first}",
            en="Everyone gets one card: {cards}; {first} starts",
        ),
    )
    drew = EventType(
        "drew",
        "the top card of the stock drawn, face up, to add to a row",
        seat=SEAT,
        card=CARD,
        stock=INT.about("cards left in the stock"),
        says=Say(es="{seat} roba {card}", en="{seat} draws {card}"),
    )
    placed = EventType(
        "placed",
        "the card drawn added to a row",
        seat=SEAT,
        card=CARD,
        row=INT.about("the row, from 0"),
        says=Say(es="{seat} pone {card} en la fila {row}", en="{seat} adds {card} to row {row}"),
    )
    took = EventType(
        "took",
        "a row's cards taken into a collection: its player sits out the rest of the round",
        seat=SEAT,
        row=INT.about("the row, from 0"),
        cards=CARDS,
        says=Say(es="{seat} se lleva la fila {row}: {cards}", en="{seat} takes row {row}: {cards}"),
    )
    sat_out = EventType(
        "sat_out",
        "a seat with nothing to do (no card to draw, no row to take) sits out the round",
        seat=SEAT,
        says=Say(
            es="{seat} no puede jugar: se queda fuera de la ronda",
            en="{seat} cannot play: out of the round",
        ),
    )
    round_over = EventType(
        "round_over",
        "every seat has taken a row (or sat out)",
        round=INT,
        stock=INT.about("cards left in the stock"),
        says=Say(
            es="Termina la ronda {round}; quedan {stock:carta|cartas} en el mazo",
            en="Round {round} is over; {stock:card|cards} left in the stock",
        ),
    )
    round_started = EventType(
        "round_started",
        "a new round, begun by the last seat to take a row",
        round=INT,
        first=SEAT,
        says=Say(es="Ronda {round}: empieza {first}", en="Round {round}: {first} starts"),
    )
    choose_suits = EventType(
        "choose_suits",
        "the rounds are over: every seat names its positive suit",
        says=Say(
            es="Cada jugador elige el palo que le suma", en="Everyone names the suit that scores"
        ),
    )
    chose = EventType(
        "chose",
        "a seat's positive suit",
        seat=SEAT,
        suit=SUIT,
        says=Say(es="{seat} elige {suit}", en="{seat} names {suit}"),
    )
    match_finished = MATCH_FINISHED.extend(scoring=list_of(SCORING, "each seat's scoring"))

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "turn": SEAT.or_null("who acts in the round; null while suits are chosen"),
        "rows_taken": list_of(BOOL, "per row, whether it was taken this round"),
        "sitting_out": SEATS.about("seats out of this round, in the order they left"),
        "row_size": INT.about("most cards a row may hold"),
        "rounds_to_play": INT.about("rounds before the scoring"),
        "chosen": list_of(SUIT.or_null(), "per seat, its positive suit once named"),
        "scoring": list_of(SCORING).or_null("per seat, the final scoring"),
    }

    # -- the facts ---------------------------------------------------------------------
    round_number = ROUND_OF
    stock = STOCK_LEFT
    to_place = FactType(
        "drawn",
        "the card drawn, to be added to a row",
        CARD,
        label=Say(es="Por colocar", en="To place"),
        says=Say(es="Por colocar: {value:bare}", en="To place: {value:bare}"),
    )
    out = FactType(
        "sitting_out",
        "a seat that has taken a row (or sat out) this round",
        BOOL,
        per_seat=True,
        label=Say(es="Fuera de la ronda", en="Out of the round"),
        says=Say(es="{seat} está fuera de la ronda", en="{seat} is out of the round"),
    )
    collected = FactType(
        "cards",
        "the cards of a seat's collection",
        INT,
        per_seat=True,
        label=Say(es="Colección", en="Collection"),
        says=Say(es="{seat}: {value:carta|cartas}", en="{seat}: {value:card|cards}"),
    )
    positive = FactType(
        "positive",
        "a seat's positive suit, once named",
        SUIT,
        per_seat=True,
        label=Say(es="Palo positivo", en="Positive suit"),
        says=Say(es="{seat} suma con {value}", en="{seat} scores {value}"),
    )
    points = FactType(
        "points",
        "what a seat's collection scores now, with its best suit as the positive one (or its"
        " chosen one); the final score at the end",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = ColorettoData.of(state), state.players
        facts = [self.round_number({"number": state.round, "of": state.options["rounds"]})]
        facts.append(self.stock(len(state.cards(STOCK))))
        if state.cards(DRAWN):
            facts.append(self.to_place(state.cards(DRAWN)[0]))
        jokers = state.options["jokers"]
        for s in range(n):
            cards = state.cards(collection(s))
            facts.append(self.collected(len(cards), s))
            if s in data.out and state.phase != "choose" and not state.finished:
                facts.append(self.out(True, s))
            chosen = data.chosen[s]
            if chosen is not None:
                facts.append(self.positive(chosen, s))
            suit_ = chosen or self.best_suit(state, s)
            facts.append(self.points(score(cards, suit_, jokers)["points"], s))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck(jokers=2, copies=2)

    def setup(self, state: State) -> list[Event]:
        n, data = state.players, ColorettoData.of(state)
        stock = state.zone(STOCK, None, HIDDEN)
        stock.cards = self.deck(state)
        state.shuffle(stock.cards)
        state.zone(DRAWN, None, PUBLIC)
        for i in range(n):
            state.zone(row(i), None, PUBLIC)
        dealt = []
        for s in range(n):
            state.zone(collection(s), s, PUBLIC)
            dealt.append(state.move_top(STOCK, collection(s)))
        dealer = state.rng().randrange(n)
        first = turns.next_seat(state, dealer)
        data.chosen = [None] * n
        data.taken = [False] * n
        state.phase = "turn"
        data.turn = first
        state.to_act = [first]
        return [self.first_cards(cards=dealt, dealer=dealer, first=first)]

    # -- the action table --------------------------------------------------------------
    draw = ActionType("draw", "draw the top card of the stock, to add it to a row", ("turn",))
    take = ActionType(
        "take",
        "take a row's cards into your collection and sit out the rest of the round",
        ("turn",),
        row=Field("int", "the row, from 0", minimum=0),
    )
    place = ActionType(
        "place",
        "add the card you drew to a row",
        ("place",),
        row=Field("int", "the row, from 0", minimum=0),
    )
    choose = ActionType(
        "choose",
        "name the suit that scores positively for you",
        ("choose",),
        suit=choice(*ENGLISH_SUITS, description="S, H, D or C"),
    )

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> Say | None:
        if not state.cards(STOCK):
            return STOCK_EMPTY
        if not self._rows_with_room(state):
            return ROWS_FULL
        return None

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top(STOCK, DRAWN)
        state.phase = "place"
        return [self.drew(seat=seat, card=card, stock=len(state.cards(STOCK)))]

    @take.candidates
    def _takes(self, state: State, seat: int) -> list[Action]:
        return [{"type": "take", "row": i} for i in range(state.players)]

    @take.refusal
    def _take_refused(self, state: State, seat: int, action: Action) -> Message | None:
        return self._row_refused(state, action["row"]) or (
            ROW_EMPTY(row=action["row"]) if not state.cards(row(action["row"])) else None
        )

    @take.handler
    def _take(self, state: State, seat: int, action: Action) -> list[Event]:
        data, i = ColorettoData.of(state), action["row"]
        cards = list(state.cards(row(i)))
        state.cards(collection(seat)).extend(cards)
        state.cards(row(i)).clear()
        data.taken[i] = True
        data.out.append(seat)
        data.last_taker = seat
        return [self.took(seat=seat, row=i, cards=cards)] + self._next_turn(state, seat)

    @place.candidates
    def _places(self, state: State, seat: int) -> list[Action]:
        return [{"type": "place", "row": i} for i in range(state.players)]

    @place.refusal
    def _place_refused(self, state: State, seat: int, action: Action) -> Message | None:
        i = action["row"]
        refused = self._row_refused(state, i)
        if refused:
            return refused
        if len(state.cards(row(i))) >= state.options["row_size"]:
            return ROW_FULL(row=i, size=state.options["row_size"])
        return None

    @place.handler
    def _place(self, state: State, seat: int, action: Action) -> list[Event]:
        i = action["row"]
        card = state.move_top(DRAWN, row(i))
        state.phase = "turn"
        return [self.placed(seat=seat, card=card, row=i)] + self._next_turn(state, seat)

    @choose.candidates
    def _chooses(self, state: State, seat: int) -> list[Action]:
        return [{"type": "choose", "suit": s} for s in ENGLISH_SUITS]

    @choose.handler
    def _choose(self, state: State, seat: int, action: Action) -> list[Event]:
        ColorettoData.of(state).chosen[seat] = action["suit"]
        state.to_act.remove(seat)
        events = [self.chose(seat=seat, suit=action["suit"])]
        return events + (self._score(state) if not state.to_act else [])

    def _row_refused(self, state: State, i: int) -> Message | None:
        if i >= state.players:
            return NO_ROW(last=state.players - 1)
        if ColorettoData.of(state).taken[i]:
            return ROW_TAKEN(row=i)
        return None

    # -- turns and rounds -----------------------------------------------------------------
    def _next_turn(self, state: State, seat: int) -> list[Event]:
        """The next seat still in the round; one with nothing to do sits out at once."""
        data = ColorettoData.of(state)
        events: list[Event] = []
        while len(data.out) < state.players:
            nxt = turns.next_seat(state, seat, skip=data.out)
            if self._can_act(state):
                data.turn = nxt
                state.to_act = [nxt]
                return events
            data.out.append(nxt)  # nothing to draw and no card to take
            events.append(self.sat_out(seat=nxt))
            seat = nxt
        return events + self._end_round(state)

    def _can_act(self, state: State) -> bool:
        open_rows = [i for i in range(state.players) if not ColorettoData.of(state).taken[i]]
        can_draw = bool(state.cards(STOCK)) and bool(self._rows_with_room(state))
        return can_draw or any(state.cards(row(i)) for i in open_rows)

    def _rows_with_room(self, state: State) -> list[int]:
        data = ColorettoData.of(state)
        return [
            i
            for i in range(state.players)
            if not data.taken[i] and len(state.cards(row(i))) < state.options["row_size"]
        ]

    def _end_round(self, state: State) -> list[Event]:
        data = ColorettoData.of(state)
        events = [self.round_over(round=state.round, stock=len(state.cards(STOCK)))]
        if state.round >= state.options["rounds"] or not state.cards(STOCK):
            return events + self._open_choice(state)
        state.round += 1
        data.taken = [False] * state.players
        data.out = []
        first = data.last_taker if data.last_taker is not None else 0
        data.turn = first
        state.phase = "turn"
        state.to_act = [first]
        return events + [self.round_started(round=state.round, first=first)]

    # -- scoring ---------------------------------------------------------------------------
    def _open_choice(self, state: State) -> list[Event]:
        data = ColorettoData.of(state)
        data.turn = None
        if state.options["positive_suit"] == "best":
            data.chosen = [self.best_suit(state, s) for s in range(state.players)]
            return self._score(state)
        state.phase = "choose"
        state.to_act = list(range(state.players))
        return [self.choose_suits()]

    def best_suit(self, state: State, seat: int) -> str:
        """The suit that gives ``seat`` the most points (the first of S H D C on a tie)."""
        cards = state.cards(collection(seat))
        jokers = state.options["jokers"]
        return max(ENGLISH_SUITS, key=lambda s: score(cards, s, jokers)["points"])

    def _score(self, state: State) -> list[Event]:
        data = ColorettoData.of(state)
        jokers = state.options["jokers"]
        final = []
        for s in range(state.players):
            positive = data.chosen[s]
            assert positive is not None
            final.append(score(state.cards(collection(s)), positive, jokers))
        data.final = final
        points = [f["points"] for f in final]
        record_round(state, points)
        return end_match(state, highest(state.scores), scoring=[dict(f) for f in final])

    # -- views -------------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: ColorettoData) -> ColorettoData:
        """The view's names for the rows taken and who sits out (see engine.sampling)."""
        data.taken, data.out = list(view["rows_taken"]), list(view["sitting_out"])
        return data

    def public_fields(self, state: State) -> dict:
        data = ColorettoData.of(state)
        return {
            "turn": data.turn,
            "rows_taken": list(data.taken),
            "sitting_out": list(data.out),
            "row_size": state.options["row_size"],
            "rounds_to_play": state.options["rounds"],  # the score sheet is the view's rounds
            "chosen": list(data.chosen),
            "scoring": [dict(f) for f in data.final] if data.final else None,
        }


register(Coloretto())
