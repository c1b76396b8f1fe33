"""Ladrones de tumbas: build four tombs, each an Ace with cards alternately face up (of the
Ace's suit) and face down (any suit); at the end a tomb is open when its other suits add
up to at least its own suit. Secret missions (two figures each) score one point per
mission card whose suit's tomb is open (rules/ladrones-de-tumbas.txt). ``descubiertas``:
the missions are public.

A turn is two draws, a draw and a play, or two plays: laying a card ends the turn, but for
a second card laid on another tomb ("cuando un jugador baja cartas termina su turno"), so
after a play the player lays another card or ends the turn, and draws no more. A tomb
holding seven cards (the Ace and six) is blocked. The match ends when every tomb is
blocked or nobody can act.

Rules version 2 (``draw_after_play`` off): before it a turn was any two actions, a draw
after a play included, and could not end after one play.

Every decision where the text is silent or ambiguous is in docs/games/ladrones-de-tumbas.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.engine import (
    ENGLISH_SUITS,
    HIDDEN,
    OWNER,
    PUBLIC,
    Action,
    BadSetup,
    Event,
    Game,
    GameData,
    Option,
    RulesChange,
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
from shared.engine.fields import (
    BOOL,
    CARD,
    CARDS,
    INT,
    INTS,
    SEAT,
    SUIT,
    Field,
    choice,
    list_of,
    map_of,
    obj,
)
from shared.engine.kit import turns
from shared.engine.kit.dealing import DEALER_DRAWN, DEALT, deal_hands
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.shedding import DREW
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.kit.zones import hand, not_in_hand, seat_zone
from shared.engine.language import ENGLISH_DECK, SUIT_NAMES, Message, Say, Words

ACTIONS_PER_TURN = 2
TOMB_SIZE = 7  # the Ace and six cards: the seventh card blocks the tomb
FIGURES = (11, 12, 13)
MISSIONS_EACH = 2
NUMBER_CARDS = 36  # 2 to 10 of four suits
DRAW: Action = {"type": "draw"}
FACES = ("up", "down")
REASONS = ("all_tombs_blocked", "nobody_can_act")

# -- what the rules say to a player, in both languages -------------------------------------
NO_DRAW_AFTER_PLAY = Say(
    es="ya has bajado una carta en este turno: baja una segunda en otra tumba o termínalo",
    en="you have laid a card this turn: lay a second one on another tomb, or end it",
)
STOCK_EMPTY = Say(es="el mazo está vacío", en="the stock is empty")
TOMB_FULL = Say(
    es="la tumba de {suit} está bloqueada: tiene {size} cartas",
    en="the tomb of {suit} is blocked: it holds {size} cards",
)
SAME_TOMB = Say(
    es="ya has jugado en la tumba de {suit} en este turno: la segunda carta va a otra tumba",
    en="you have played on the tomb of {suit} this turn: a second card goes to another tomb",
)
FACE_UP_OF_SUIT = Say(
    es="la siguiente carta de la tumba de {suit} va boca arriba y debe ser de su palo, {suit}",
    en="the next card on the tomb of {suit} goes face up and must be of its suit, {suit}",
)
TWO_ACTIONS = Say(
    es="un turno son dos acciones, cada una robar o bajar una carta",
    en="a turn is two actions, each a draw or a card laid",
)
END_AFTER_PLAY = Say(
    es="solo puedes terminar el turno antes de tiempo después de bajar una carta",
    en="you may end your turn early only after laying a card",
)
FACE_WORDS = Words({"up": ("boca arriba", "face up"), "down": ("boca abajo", "face down")})
REASON_WORDS = Words(
    {
        "all_tombs_blocked": ("todas las tumbas están bloqueadas", "every tomb is blocked"),
        "nobody_can_act": ("nadie puede jugar", "nobody can act"),
    }
)
NEXT_WORDS = Words(
    {
        "up": ("la siguiente va boca arriba", "the next goes face up"),
        "down": ("la siguiente va boca abajo", "the next goes face down"),
        "blocked": ("bloqueada", "blocked"),
    }
)
MISSION_POINTS = Say(
    es="{seat} suma {points:punto|puntos}", en="{seat} scores {points:point|points}"
)
TOMB_RESULT = obj(
    "a tomb at the end: its cards, its Ace's suit total, the other suits' total, and whether"
    " it is open",
    cards=CARDS,
    suit_total=INT,
    others_total=INT,
    open=BOOL,
)


def suit_words(suits: list[str]) -> list[Say]:
    """Suit letters as their names in both languages, for a sentence's list."""
    names = SUIT_NAMES[ENGLISH_DECK]
    return [Say(es=names[x][0], en=names[x][1]) for x in suits]


def tomb(s: str) -> str:
    """The public zone of the tomb of suit ``s``: its Ace and its face-up cards."""
    return f"tomb-{s}"


def tomb_down(s: str) -> str:
    """The hidden zone of the tomb of suit ``s``: its face-down cards, in the order played."""
    return f"tomb-{s}-down"


#: Each suit's two tomb zones, (face up, face down), named once: every action asks their sizes.
_TOMB_ZONES = {x: (tomb(x), tomb_down(x)) for x in ENGLISH_SUITS}


def missions(seat: int) -> str:
    return seat_zone("missions", seat)


def tomb_sums(ace_suit: str, cards: list[str]) -> tuple[int, int]:
    """(the Ace's suit total, the other suits' total) of a tomb's cards, the Ace counting 1."""
    own = sum(rank(c) for c in cards if suit(c) == ace_suit)
    return own, sum(rank(c) for c in cards if suit(c) != ace_suit)


def is_open(ace_suit: str, cards: list[str]) -> bool:
    """Open when the other suits add up to at least the Ace's suit; otherwise closed."""
    own, others = tomb_sums(ace_suit, cards)
    return others >= own


def mission_points(cards: list[str], open_suits: set[str]) -> int:
    """One point per mission card whose suit's tomb is open."""
    return sum(1 for c in cards if suit(c) in open_suits)


@dataclass
class LadronesData(GameData):
    dealer: int = 0
    actions_left: int = ACTIONS_PER_TURN  # actions left in the current turn
    played: list[str] = field(default_factory=list)  # tombs played on in the current turn
    result_tombs: dict | None = None  # at the end: per tomb its cards, sums and whether open


class LadronesDeTumbas(Game):
    id = "ladrones-de-tumbas"
    name = "Ladrones de tumbas"
    rules_file = "ladrones-de-tumbas.txt"
    players = (2, 6)  # two mission cards each from the 12 figures
    data_type = LadronesData
    options = {
        "public_missions": Option(False, "every player's missions are shown to all"),
        "hand_size": Option(6, "cards dealt to each player", minimum=1, maximum=18),
        "direction": turns.DIRECTION,
        "draw_after_play": Option(
            False, "a card may be drawn after one was laid in the same turn", since=2
        ),
    }
    rules_version = 2
    changes = (
        RulesChange(
            2,
            "after laying a card a player may only lay a second card, on another tomb, or end"
            " the turn (before: a draw after a play was allowed, and a turn was always two"
            " actions)",
            before={"draw_after_play": True},
        ),
    )
    variants = {
        "base": Variant("base", "Secret missions."),
        "descubiertas": Variant(
            "descubiertas",
            "Tumbas descubiertas: the missions are public.",
            {"public_missions": True},
        ),
    }

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = DEALER_DRAWN
    dealt = DEALT
    missions_dealt = EventType(
        "missions_dealt",
        "a seat's two missions (figures), seen by that seat only unless the missions are public",
        visibility=MAYBE_PRIVATE,
        seat=SEAT,
        cards=CARDS.about("the mission cards"),
        says=Say(es="{seat} recibe sus misiones: {cards}", en="{seat} is dealt missions: {cards}"),
    )
    drew = DREW
    played = EventType(
        "played",
        "a card laid on a tomb: face up (seen by all) or face down (seen by its player only)",
        visibility=MAYBE_PRIVATE,
        seat=SEAT,
        tomb=SUIT.about("the suit of the tomb's Ace"),
        face=choice(*FACES, description="how the card lies", words=FACE_WORDS),
        card=CARD,
        says=Say(
            es="{seat} pone {card} {face} en la tumba de {tomb}",
            en="{seat} lays {card} {face} on the tomb of {tomb}",
        ),
    )
    tomb_blocked = EventType(
        "tomb_blocked",
        f"a tomb holds {TOMB_SIZE} cards, its Ace included: it takes no more",
        tomb=SUIT,
        says=Say(es="La tumba de {tomb} queda bloqueada", en="The tomb of {tomb} is blocked"),
    )
    done = EventType(
        "done",
        "a seat ends its turn after laying one card",
        seat=SEAT,
        says=Say(es="{seat} termina su turno", en="{seat} ends the turn"),
    )
    passed = EventType(
        "passed",
        "a seat that can neither draw nor lay a card is skipped",
        seat=SEAT,
        says=Say(es="{seat} no puede jugar y pasa", en="{seat} cannot act and passes"),
    )
    tombs_revealed = EventType(
        "tombs_revealed",
        "the end: every tomb's face-down cards shown, its totals and whether it is open",
        reason=choice(*REASONS, description="why the match ends", words=REASON_WORDS),
        tombs=map_of(TOMB_RESULT, "per tomb (its suit letter), its cards and totals"),
    )
    missions_revealed = EventType(
        "missions_revealed",
        "every seat's missions shown, and the points they score",
        missions=Field("card-groups", "per seat, its mission cards"),
        points=INTS.about("per seat, one point per mission card whose tomb is open"),
    )
    match_finished = MATCH_FINISHED

    @tombs_revealed.sentence
    def _tombs_revealed_said(self, event: Event) -> tuple[Say, dict]:
        opened = [x for x, t in event["tombs"].items() if t["open"]]
        if not opened:
            return Say(
                es="Fin: {reason}; se descubren las tumbas y ninguna está abierta",
                en="The end: {reason}; the tombs are shown and none is open",
            ), {}
        return Say(
            es="Fin: {reason}; se descubren las tumbas: abiertas, {opened}",
            en="The end: {reason}; the tombs are shown: open, {opened}",
        ), {"opened": suit_words(opened)}

    @missions_revealed.sentence
    def _missions_revealed_said(self, event: Event) -> tuple[Say, dict]:
        each = [MISSION_POINTS(seat=s, points=p) for s, p in enumerate(event["points"])]
        return Say(es="Se descubren las misiones: {each}", en="The missions are shown: {each}"), {
            "each": each
        }

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "dealer": SEAT,
        "actions_left": INT.about("actions left in the current turn (0 once the match is over)"),
        "played_this_turn": list_of(SUIT, "the tombs already played on this turn"),
        "tombs": map_of(
            obj(
                size=INT.about("its cards, the Ace included"),
                blocked=BOOL,
                next=choice(*FACES, description="how its next card lies"),
            ),
            "per tomb (its suit letter), how far it is built",
        ),
        "result_tombs": map_of(TOMB_RESULT).or_null(
            "at the end: per tomb its cards, totals and whether it is open"
        ),
    }

    # -- the facts ---------------------------------------------------------------------
    stock_left = STOCK_LEFT
    tomb_state = FactType(
        "tomb",
        "one tomb (one fact per tomb): its suit, its cards with the Ace, how its next card lies",
        obj(
            suit=SUIT,
            cards=INT,
            next=choice("up", "down", "blocked", words=NEXT_WORDS),
        ),
        label=Say(es="Tumba", en="Tomb"),
        says=Say(
            es="Tumba de {value.suit}: {value.cards:carta|cartas}, {value.next}",
            en="Tomb of {value.suit}: {value.cards:card|cards}, {value.next}",
        ),
    )
    actions = FactType(
        "actions_left",
        "the actions left in the turn of the seat to act",
        INT,
        per_seat=True,
        label=Say(es="Acciones", en="Actions"),
        says=Say(
            es="{seat} tiene {value:acción|acciones} en este turno",
            en="{seat} has {value:action|actions} left this turn",
        ),
    )
    missions_held = FactType(
        "missions",
        "a seat's mission cards, where the reader may see them (its own; all once public)",
        CARDS,
        per_seat=True,
        label=Say(es="Misiones", en="Missions"),
        says=Say(es="Misiones de {seat}: {value:bare}", en="{seat}'s missions: {value:bare}"),
    )
    score = FactType(
        "score",
        "a seat's points: its mission cards whose tomb is open, scored at the end",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = LadronesData.of(state), state.players
        facts = [self.stock_left(len(state.cards("stock")))]
        for x in ENGLISH_SUITS:
            size = self.size(state, x)
            nxt = (
                "blocked" if size >= TOMB_SIZE else "up" if self.face_up_next(state, x) else "down"
            )
            facts.append(self.tomb_state({"suit": x, "cards": size, "next": nxt}))
        if not state.finished:
            facts.extend(self.actions(data.actions_left, s) for s in state.to_act)
        for s in range(n):
            if s == seat or state.zones[missions(s)].visibility == PUBLIC:
                facts.append(self.missions_held(list(state.cards(missions(s))), s))
        facts.extend(self.score(state.scores[s], s) for s in range(n))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck()

    def setup(self, state: State) -> list[Event]:
        n, data = state.players, LadronesData.of(state)
        if n * state.options["hand_size"] > NUMBER_CARDS:
            size = state.options["hand_size"]
            raise BadSetup(f"{n} players cannot each be dealt {size} of the {NUMBER_CARDS} cards")
        for x in ENGLISH_SUITS:
            state.zone(tomb(x), None, PUBLIC).cards = [f"A{x}"]
            state.zone(tomb_down(x), None, HIDDEN)
        stock = state.zone("stock", None, HIDDEN)
        stock.cards = [c for c in self.deck(state) if 2 <= rank(c) <= 10]
        state.shuffle(stock.cards)
        figures = state.zone("missions-left", None, HIDDEN)
        figures.cards = [c for c in self.deck(state) if rank(c) in FIGURES]
        state.shuffle(figures.cards)
        shown = PUBLIC if state.options["public_missions"] else OWNER
        for s in range(n):
            state.zone(hand(s), s, OWNER)
            state.zone(missions(s), s, shown)
        data.dealer = state.rng().randrange(n)
        first = turns.next_seat(state, data.dealer)
        order = turns.seats_from(state, first)
        events = [self.new_deal(dealer=data.dealer, first=first)]
        events += deal_hands(state, order, state.options["hand_size"])
        left = state.cards("missions-left")
        for s in order:
            taken = [left.pop() for _ in range(MISSIONS_EACH)]
            state.zones[missions(s)].cards = taken
            secret = {} if state.options["public_missions"] else {"visible_to": [s]}
            events.append(self.missions_dealt(seat=s, cards=list(taken), **secret))
        state.phase = "play"
        return events + self._start_turn(state, first)

    # -- the action table --------------------------------------------------------------
    draw = ActionType("draw", "take the top card of the stock", phases=("play",))
    play = ActionType(
        "play",
        "put a card on a tomb: face up (of the Ace's suit) or face down (any card), alternately",
        phases=("play",),
        card=CARD,
        tomb=choice(*ENGLISH_SUITS, description="the suit of the tomb's Ace"),
    )
    end = ActionType("end", "end your turn after laying one card", phases=("play",))

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> Say | None:
        if LadronesData.of(state).played and not self.option(state, "draw_after_play"):
            return NO_DRAW_AFTER_PLAY
        return None if state.cards("stock") else STOCK_EMPTY

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top("stock", hand(seat))
        return [self.drew(seat=seat, card=card, visible_to=[seat])] + self._after(state, seat)

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return [
            {"type": "play", "card": c, "tomb": x}
            for x in ENGLISH_SUITS
            for c in dict.fromkeys(state.cards(hand(seat)))
        ]

    @play.enumerate
    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        """Per tomb open to this turn, the hand's cards it takes (of its suit only when the
        next card goes face up), in the candidates' order."""
        cards = list(dict.fromkeys(state.cards(hand(seat))))
        played = LadronesData.of(state).played
        found: list[Action] = []
        for x in ENGLISH_SUITS:
            if self.size(state, x) >= TOMB_SIZE or x in played:
                continue
            suited = self.face_up_next(state, x)
            found.extend(
                {"type": "play", "card": c, "tomb": x} for c in cards if not suited or suit(c) == x
            )
        return found

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | None:
        card, x = action["card"], action["tomb"]
        if missing := not_in_hand(state, seat, card):
            return missing
        if self.size(state, x) >= TOMB_SIZE:
            return TOMB_FULL(suit=x, size=TOMB_SIZE)
        if x in LadronesData.of(state).played:
            return SAME_TOMB(suit=x)
        if self.face_up_next(state, x) and suit(card) != x:
            return FACE_UP_OF_SUIT(suit=x)
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card, x = action["card"], action["tomb"]
        up = self.face_up_next(state, x)
        state.move(card, hand(seat), tomb(x) if up else tomb_down(x))
        LadronesData.of(state).played.append(x)
        if up:
            events = [self.played(seat=seat, tomb=x, face="up", card=card)]
        else:
            events = [self.played(seat=seat, tomb=x, face="down", card=card, visible_to=[seat])]
        if self.size(state, x) >= TOMB_SIZE:
            events.append(self.tomb_blocked(tomb=x))
        return events + self._after(state, seat)

    @end.refusal
    def _end_refused(self, state: State, seat: int, action: Action) -> Say | None:
        if self.option(state, "draw_after_play"):
            return TWO_ACTIONS
        if not LadronesData.of(state).played:
            return END_AFTER_PLAY
        return None

    @end.handler
    def _end_turn(self, state: State, seat: int, action: Action) -> list[Event]:
        return [self.done(seat=seat)] + self._start_turn(state, turns.next_seat(state, seat))

    # -- turns -------------------------------------------------------------------------
    def _after(self, state: State, seat: int) -> list[Event]:
        """One action done: the turn goes on, passes to the next player who can act, or the
        match ends (every tomb blocked, or nobody can act)."""
        data = LadronesData.of(state)
        data.actions_left -= 1
        if all(self.size(state, x) >= TOMB_SIZE for x in ENGLISH_SUITS):
            return self._end(state, "all_tombs_blocked")
        if data.actions_left and self._can_act(state, seat):
            return []
        return self._start_turn(state, turns.next_seat(state, seat))

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = LadronesData.of(state)
        data.actions_left, data.played = ACTIONS_PER_TURN, []
        events: list[Event] = []
        for candidate in turns.seats_from(state, seat):
            if self._can_act(state, candidate):
                state.to_act = [candidate]
                return events
            events.append(self.passed(seat=candidate))
        return events + self._end(state, "nobody_can_act")

    def _can_act(self, state: State, seat: int) -> bool:
        """Whether ``seat`` has a draw or a play left now (ending a turn early is no action:
        a player who could only end it has it ended)."""
        if self._draw_refused(state, seat, DRAW) is None:
            return True
        # Whether a candidate play passes ``_play_refused``, without wording every refusal:
        # a tomb open to this turn takes any held card face down, or one of its suit face up.
        held = state.zones[hand(seat)].cards
        if not held:
            return False
        played = LadronesData.of(state).played
        for x in ENGLISH_SUITS:
            size = self.size(state, x)
            if size >= TOMB_SIZE or x in played:
                continue
            if size % 2 == 0 or any(suit(c) == x for c in held):
                return True
        return False

    # -- the end -----------------------------------------------------------------------
    def _end(self, state: State, reason: str) -> list[Event]:
        """Reveal the tombs, score the missions, and finish."""
        data = LadronesData.of(state)
        tombs = {}
        for x in ENGLISH_SUITS:
            state.zones[tomb_down(x)].visibility = PUBLIC
            cards = state.cards(tomb(x)) + state.cards(tomb_down(x))
            own, others = tomb_sums(x, cards)
            tombs[x] = {"cards": cards, "suit_total": own, "others_total": others,
                        "open": others >= own}  # fmt: skip
        data.result_tombs = tombs
        open_suits = {x for x, t in tombs.items() if t["open"]}
        shown = [list(state.cards(missions(s))) for s in range(state.players)]
        for s in range(state.players):
            state.zones[missions(s)].visibility = PUBLIC
        points = [mission_points(m, open_suits) for m in shown]
        record_round(state, points)
        state.to_act = []
        events = [
            self.tombs_revealed(reason=reason, tombs=tombs),
            self.missions_revealed(missions=shown, points=points),
        ]
        return events + end_match(state, highest(state.scores))

    # -- rules as questions ------------------------------------------------------------
    @staticmethod
    def size(state: State, x: str) -> int:
        """Cards at the tomb of ``x``, its Ace included."""
        up, down = _TOMB_ZONES[x]
        zones = state.zones
        return len(zones[up].cards) + len(zones[down].cards)

    @classmethod
    def face_up_next(cls, state: State, x: str) -> bool:
        """The Ace is followed by a face-up card, then face down, up, down, up, down."""
        return cls.size(state, x) % 2 == 1

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: LadronesData) -> LadronesData:
        """The view's name for the tombs played this turn (see engine.sampling)."""
        data.played = list(view["played_this_turn"])
        return data

    def public_fields(self, state: State) -> dict:
        data = LadronesData.of(state)
        return {
            "dealer": data.dealer,
            "actions_left": data.actions_left if not state.finished else 0,
            "played_this_turn": list(data.played),
            "tombs": {
                x: {
                    "size": self.size(state, x),
                    "blocked": self.size(state, x) >= TOMB_SIZE,
                    "next": "up" if self.face_up_next(state, x) else "down",
                }
                for x in ENGLISH_SUITS
            },
            "result_tombs": data.result_tombs,
        }


register(LadronesDeTumbas())
