"""Ciruela (rules/ciruela.txt): a Crazy-Eights-like shedding game with an English deck; the
rules as implemented and every decision where the text is silent are in
docs/games/ciruela.md.

A turn opens with a card that matches the top card's number or suit (drawing until one
can be played); then the player may add cards of the same suit. An A names a new suit,
and the player must then lay every card of it they hold ("descarta todas las cartas de
su mano que tenga de esa pinta"): the turn cannot be ended while one is left, and a
figure or another A of it comes last. A J, Q or K ends the turn. The first player to
empty their hand wins. The stock and discard pile are the kit's (``kit/shedding.py``).

Rules version 2 (``ace_discards_all``): before it, adding cards after an A was optional as
after any other card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from shared.engine import (
    ENGLISH_SUITS,
    Action,
    Event,
    Game,
    GameData,
    Option,
    RulesChange,
    State,
    Variant,
    english_deck,
    rank,
    register,
    suit,
)
from shared.engine.actions import ActionType
from shared.engine.data import absent_when_none
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import CARD, INT, SEAT, STR, SUIT, Field
from shared.engine.kit import shedding
from shared.engine.kit.dealing import DEALT
from shared.engine.kit.ending import MATCH_FINISHED, end_match
from shared.engine.kit.table_facts import CARDS_HELD, STOCK_LEFT
from shared.engine.kit.turns import DIRECTION, next_seat
from shared.engine.kit.zones import hand, not_in_hand
from shared.engine.language import ENGLISH_DECK, Message, Say

ACE = 1
FIGURES = (11, 12, 13)  # J, Q, K
HAND_SIZE = 8

# -- what the rules say to a player, in both languages -------------------------------------
NO_MATCH = Say(
    es="{card:cap} no tiene el número de la carta de arriba, {top}, ni el palo a seguir ({suit})",
    en="{card:cap} matches neither the number of the top card, {top}, nor the suit to follow"
    " ({suit})",
)
ONLY_ADD = Say(
    es="después de la primera carta solo puedes añadir {suit}",
    en="after the first card you may only add {suit}",
)
FIGURE_ENDS = Say(es="termina tu turno", en="ends your turn")
ACE_NAMES = Say(es="pide otro palo", en="names another suit")
LAY_OTHERS_FIRST = Say(
    es="un as pidió {suit}: echa antes tus otras {suit}, porque {card} {why}",
    en="an A named {suit}: lay your other {suit} first, since {card} {why}",
)
NAME_A_SUIT = Say(
    es="un as pide el palo al que se cambia: añade el campo 'suit'",
    en="an A names the suit to change to: add the field 'suit'",
)
ANOTHER_SUIT = Say(
    es="un as cambia a un palo distinto del suyo", en="an A changes to another suit than its own"
)
ONLY_ACES_NAME = Say(
    es="solo un as que cambia el palo lo pide", en="only an A that changes the suit names one"
)
PLAY_IT = Say(
    es="tienes una carta que se puede jugar: juégala",
    en="you have a card that can be played: play it",
)
NOTHING_TO_DRAW = Say(es="no queda nada por robar: pasa", en="there is nothing left to draw: pass")
DRAW_FIRST = Say(
    es="tienes que robar hasta que puedas jugar", en="you must draw until you can play"
)
LAY_ALL = Say(
    es="un as pidió {suit}: echa todas tus {suit} antes de terminar",
    en="an A named {suit}: lay all your {suit} before ending",
)


@dataclass
class CiruelaData(GameData):
    suit: str = ""  # the suit to match or add: the top card's, or the one an A named
    played: int = 0  # cards played in this turn (0: the turn is still to be opened)
    named: str | None = None  # the suit the last A named, while it stands
    #: Since version 2: the suit an A named this turn, every card of which is to be laid
    #: (absent before: the states of version 1 keep their bytes).
    to_empty: str | None = absent_when_none()


class Ciruela(Game):
    id = "ciruela"
    name = "Ciruela"
    rules_file = "ciruela.txt"
    players = (2, 6)  # 8 cards each and a starter: 6 × 8 + 1 = 49 of 52
    data_type = CiruelaData
    options = {
        "direction": DIRECTION,
        "ace_chains": Option(
            True, "an A added after the first card of a turn names a new suit again"
        ),
        "ace_discards_all": Option(
            True,
            "after an A, every card of the suit it named is laid before the turn ends",
            since=2,
        ),
    }
    rules_version = 2
    changes = (
        RulesChange(
            2,
            "after an A the player lays every card of the suit it named: no end while one is"
            " left, and a figure or another A of it comes last (before: adding was optional)",
            before={"ace_discards_all": False},
        ),
    )
    variants = {"base": Variant("base", "Ciruela: eight cards each, the first empty hand wins.")}

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    dealt = DEALT
    turned_up = shedding.TURNED_UP
    turn = EventType(
        "turn",
        "a seat's turn opens",
        seat=SEAT,
        says=Say(es="Turno de {seat}", en="{seat}'s turn"),
    )
    drew = shedding.DREW
    restocked = shedding.RESTOCKED
    played = EventType(
        "played",
        "a card laid on the discard pile; an A may name the suit to go on with",
        seat=SEAT,
        card=CARD,
        suit=SUIT.or_null("the suit an A named (null: none)"),
    )
    passed = EventType(
        "passed",
        "nothing can be played or drawn: the turn passes",
        seat=SEAT,
        says=Say(
            es="{seat} pasa: no puede jugar ni robar", en="{seat} passes: nothing to play or draw"
        ),
    )
    match_finished = MATCH_FINISHED.extend(reason=STR.about("empty hand: the winner's is empty"))

    @played.sentence
    def _played_said(self, event: Event) -> Say:
        if event["suit"] is not None:
            return Say(
                es="{seat} juega {card} y pide {suit}", en="{seat} plays {card} and names {suit}"
            )
        return Say(es="{seat} juega {card}", en="{seat} plays {card}")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "suit": SUIT.about("the suit to match or add: the top card's, or the one an A named"),
        "named_suit": SUIT.or_null("the suit the last A named, while it stands"),
        "played_this_turn": INT.about("cards played in this turn (0: still to be opened)"),
        "suit_to_empty": SUIT.or_null("the suit an A named this turn: all of it is to be laid"),
    }

    # -- the facts ---------------------------------------------------------------------
    top_card = FactType(
        "top",
        "the discard pile's top card",
        CARD,
        label=Say(es="Arriba", en="Top card"),
        says=Say(es="Arriba: {value:bare}", en="Top card: {value:bare}"),
    )
    to_follow = FactType(
        "suit",
        "the suit to match or add: the top card's, or the one an A named",
        SUIT,
        label=Say(es="Palo", en="Suit"),
        says=Say(es="Palo a seguir: {value}", en="Suit to follow: {value}"),
    )
    named = FactType(
        "named_suit",
        "the suit the last A named, while it stands",
        SUIT,
        label=Say(es="Pedido", en="Named"),
        says=Say(es="Un as pidió {value}", en="An A named {value}"),
    )
    to_empty = FactType(
        "suit_to_empty",
        "the suit an A named this turn: the player lays all of it before ending",
        SUIT,
        label=Say(es="A echar", en="To lay"),
        says=Say(es="Hay que echar todas las {value}", en="Every {value} card is to be laid"),
    )
    stock_left = STOCK_LEFT
    cards_left = CARDS_HELD

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data = CiruelaData.of(state)
        facts = []
        if state.cards(shedding.PILE):
            facts.append(self.top_card(shedding.top(state)))
        facts.append(self.to_follow(data.suit))
        if data.named:
            facts.append(self.named(data.named))
        if data.to_empty:
            facts.append(self.to_empty(data.to_empty))
        facts.append(self.stock_left(len(state.cards(shedding.STOCK))))
        facts.extend(self.cards_left(len(state.cards(hand(s))), s) for s in range(state.players))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck()

    def setup(self, state: State) -> list[Event]:
        first = state.rng().randrange(state.players)
        seats = [next_seat(state, first, i) for i in range(state.players)]
        events = shedding.new_table(state, english_deck(), HAND_SIZE, seats)
        CiruelaData.of(state).suit = suit(shedding.top(state))
        return events + self._start_turn(state, first)

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = CiruelaData.of(state)
        data.played, data.to_empty = 0, None
        state.phase = "open"
        state.to_act = [seat]
        return [self.turn(seat=seat)]

    # -- rules as questions -------------------------------------------------------------
    def _opener(self, state: State) -> Callable[[str], bool]:
        """Whether a card may open the turn: the same number as the top card, or the suit to
        match (the top card read once for a whole hand)."""
        top_rank, follow = rank(shedding.top(state)), CiruelaData.of(state).suit
        return lambda card: rank(card) == top_rank or suit(card) == follow

    def _matches(self, state: State, card: str) -> bool:
        return self._opener(state)(card)

    def _can_open(self, state: State, seat: int) -> bool:
        return any(map(self._opener(state), state.cards(hand(seat))))

    def _names_suit(self, state: State, card: str) -> bool:
        """An A names a suit when it opens the turn, and when added if ``ace_chains``."""
        if rank(card) != ACE:
            return False
        return state.phase == "open" or state.options["ace_chains"]

    def _ends_the_run(self, state: State, card: str) -> bool:
        """Added now, this card ends the turn (a figure) or names another suit (an A)."""
        return rank(card) in FIGURES or self._names_suit(state, card)

    # -- the action table --------------------------------------------------------------
    play = ActionType(
        "play",
        "lay a card on the discard pile (an A names the suit to go on with)",
        phases=("open", "dump"),
        card=CARD,
        suit=Field("str", "the suit an A changes to", choices=ENGLISH_SUITS, optional=True),
    )
    draw = ActionType("draw", "draw a card: no card in hand can open the turn", phases=("open",))
    pass_ = ActionType("pass", "nothing can be played or drawn: the turn passes", phases=("open",))
    end = ActionType("end", "stop adding cards; the turn passes", phases=("dump",))

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        actions: list[Action] = []
        for c in state.cards(hand(seat)):
            actions.append({"type": "play", "card": c})
            if rank(c) == ACE:
                actions += [{"type": "play", "card": c, "suit": s} for s in ENGLISH_SUITS]
        return actions

    @play.enumerate
    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        """The candidates the refusal accepts, in their order, listed directly: filtering wrote
        out a refusal for nearly every card and suit of the hand, on every listing."""
        data = CiruelaData.of(state)
        cards = state.cards(hand(seat))
        fits = self._opener(state) if state.phase == "open" else (lambda c: suit(c) == data.suit)
        named_suit = data.to_empty
        actions: list[Action] = []
        for c in cards:
            if not fits(c):
                continue
            if named_suit and self._ends_the_run(state, c):
                others = (o for o in cards if suit(o) == named_suit and o != c)
                if any(not self._ends_the_run(state, o) for o in others):
                    continue  # lay the other cards of the named suit first
            if self._names_suit(state, c):
                own = suit(c)
                actions += [
                    {"type": "play", "card": c, "suit": x} for x in ENGLISH_SUITS if x != own
                ]
            else:
                actions.append({"type": "play", "card": c})
        return actions

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card, named = action["card"], action.get("suit")
        data = CiruelaData.of(state)
        if missing := not_in_hand(state, seat, card):
            return missing
        if state.phase == "open" and not self._matches(state, card):
            values = {"card": card, "top": shedding.top(state), "suit": data.suit}
            return Message(NO_MATCH, values, {"top": CARD})
        if state.phase == "dump" and suit(card) != data.suit:
            return ONLY_ADD(suit=data.suit)
        if (named_suit := data.to_empty) and self._ends_the_run(state, card):
            others = [c for c in state.cards(hand(seat)) if suit(c) == named_suit and c != card]
            if any(not self._ends_the_run(state, c) for c in others):
                why = FIGURE_ENDS if rank(card) in FIGURES else ACE_NAMES
                return LAY_OTHERS_FIRST(suit=named_suit, card=card, why=why)
        if self._names_suit(state, card):
            if named is None:
                return NAME_A_SUIT
            if named == suit(card):
                return ANOTHER_SUIT
        elif named is not None:
            return ONLY_ACES_NAME
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        data = CiruelaData.of(state)
        card = action["card"]
        shedding.discard(state, seat, card)
        data.played += 1
        named = action.get("suit")
        data.suit, data.named = (named, named) if named else (suit(card), None)
        if named and self.option(state, "ace_discards_all"):
            data.to_empty = named
        events = [self.played(seat=seat, card=card, suit=named)]
        if not state.cards(hand(seat)):
            return events + end_match(state, [seat], reason="empty hand")
        if rank(card) in FIGURES:
            return events + self._next(state, seat)
        state.phase = "dump"
        if not any(suit(c) == data.suit for c in state.cards(hand(seat))):
            return events + self._next(state, seat)  # nothing to add
        return events

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> Say | None:
        if self._can_open(state, seat):
            return PLAY_IT
        if not shedding.can_draw(state):
            return NOTHING_TO_DRAW
        return None

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        return shedding.draw(state, seat)

    @pass_.refusal
    def _pass_refused(self, state: State, seat: int, action: Action) -> Say | None:
        if self._can_open(state, seat):
            return PLAY_IT
        if shedding.can_draw(state):
            return DRAW_FIRST
        return None

    @pass_.handler
    def _pass(self, state: State, seat: int, action: Action) -> list[Event]:
        return [self.passed(seat=seat)] + self._next(state, seat)

    @end.refusal
    def _end_refused(self, state: State, seat: int, action: Action) -> Message | None:
        named = CiruelaData.of(state).to_empty
        if named and any(suit(c) == named for c in state.cards(hand(seat))):
            return LAY_ALL(suit=named)
        return None

    @end.handler
    def _end(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._next(state, seat)

    def _next(self, state: State, seat: int) -> list[Event]:
        return self._start_turn(state, next_seat(state, seat))

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: CiruelaData) -> CiruelaData:
        """The view's names for the turn's plays and the named suits (see engine.sampling)."""
        data.played, data.named = view["played_this_turn"], view["named_suit"]
        data.to_empty = view["suit_to_empty"]
        return data

    def public_fields(self, state: State) -> dict:
        data = CiruelaData.of(state)
        return {
            "suit": data.suit,
            "named_suit": data.named,
            "played_this_turn": data.played,
            "suit_to_empty": data.to_empty,
        }


register(Ciruela())
