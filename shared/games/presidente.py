"""Presidente (rules/presidente.txt): a climbing game for 4 over 5 rounds.

Players play sets of equal value onto a pile, each meeting or beating the one below;
an 8 clears the pile, the 3 of clubs clears a single 2, four equal values in a row start
a revolution that reverses the order. The first out is President, the last Esclavo.
From round 2 the Esclavo gives the President their best cards, the President gives back
their worst, and the two Ciudadanos swap cards in a sealed simultaneous exchange. The
President of the last round wins. Variant ``comodines``: two jokers above the 2.

Every decision where the text is silent, and each option, is in docs/games/presidente.md.

Rules version 2 (duplicate deals): every deal's chance is drawn from (seed, deal number,
draw within the deal) (``State.by_deal``), so deal k is the same cards for the same seat at
every table of a duplicate group whatever was played before; a new round gathers the cards
as play left them and shuffles them from one order (sorted): a fresh shuffle of the same
cards, the same deal distribution; in a later round each seat is dealt 13 first, then the
Esclavo the cards beyond.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

from shared.engine import (
    HIDDEN,
    JOKER,
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
)
from shared.engine.actions import ActionType
from shared.engine.events import PRIVATE, EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARDS, INT, SEAT, SEATS, STR, choice, list_of, obj
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit import climbing
from shared.engine.kit.dealing import DEALT, deal_hands, gather_and_shuffle
from shared.engine.kit.ending import MATCH_FINISHED, end_match
from shared.engine.kit.table_facts import CARDS_HELD, ROUND_OF
from shared.engine.kit.turns import DIRECTION, next_seat, seats_after, seats_from
from shared.engine.kit.zones import hand, holds, seat_zone
from shared.engine.language import ENGLISH_DECK, Message, Say, Words

CLUBS_THREE = "3C"
EIGHT, TWO, JOKER_VALUE = 8, 15, 16
PRESIDENT, CITIZEN, SLAVE = "presidente", "ciudadano", "esclavo"
RANK_POINTS = {PRESIDENT: 2, CITIZEN: 1, SLAVE: 0}
HAND_SIZE = 13
_HANDS = tuple(hand(s) for s in range(4))  # the zone of each seat's hand, named once
REVOLUTION_RUN = 4


def strength(card: str) -> int:
    """The strength of a card in the normal order: 3 = 3 … K = 13, A = 14, 2 = 15, joker 16."""
    if card == JOKER:
        return JOKER_VALUE
    r = rank(card)
    return {1: 14, 2: 15}.get(r, r)


#: Each card's strength, made once: listing a hand's sets asks it of every card, every turn.
_STRENGTH = {card: strength(card) for card in english_deck(jokers=1)}


def value(card: str) -> int:
    """``strength``, looked up."""
    try:
        return _STRENGTH[card]
    except KeyError:  # a card of no English deck, in a refused action
        return strength(card)


def keep_key(card: str) -> tuple[int, bool, str]:
    """Weakest first; the 3 of clubs counts above the other 3s (it is the one worth keeping)."""
    try:
        return _KEEP[card]
    except KeyError:
        return (value(card), card == CLUBS_THREE, card)


_KEEP = {card: (value(card), card == CLUBS_THREE, card) for card in english_deck(jokers=1)}


def label(v: int) -> str:
    return {11: "J", 12: "Q", 13: "K", 14: "A", 15: "2", JOKER_VALUE: "joker"}.get(v, str(v))


# -- what the rules say to a player, in both languages -------------------------------------
ROLE_WORDS = Words(
    {
        PRESIDENT: ("presidente", "President"),
        CITIZEN: ("ciudadano", "Ciudadano"),
        SLAVE: ("esclavo", "Esclavo"),
    }
)
ROLE = choice(PRESIDENT, CITIZEN, SLAVE, description="a title", words=ROLE_WORDS)
CLEARED_BY = ("eight", "three_of_clubs", "all_passed")
#: A value's name with its indefinite and definite article: ("un 4", "a 4"), ("el 4", "the 4").
_SPANISH_VALUES = {11: ("a", "jota"), 12: ("a", "reina"), 13: ("", "rey"), 14: ("", "as"),
                   JOKER_VALUE: ("", "comodín")}  # fmt: skip


def a_value(v: int) -> Say:
    """ "un 4" / "a 4", "una jota" / "a J", "un as" / "an A": a value as the refusals say it."""
    ending, word = _SPANISH_VALUES.get(v, ("", label(v)))
    name = label(v)
    return Say(es=f"un{ending} {word}", en=f"{'an' if name in ('A', '8') else 'a'} {name}")


def the_value(v: int) -> Say:
    """ "el 4" / "the 4", "la reina" / "the Q"."""
    ending, word = _SPANISH_VALUES.get(v, ("", label(v)))
    return Say(es=f"{'la' if ending else 'el'} {word}", en=f"the {label(v)}")


SWAP_EXACTLY = Say(
    es="los ciudadanos intercambian exactamente {count:carta|cartas}",
    en="the citizens swap exactly {count:card|cards}",
)
ONE_VALUE = Say(
    es="una jugada es una o más cartas del mismo valor",
    en="a play is one or more cards of the same value",
)
SAME_COUNT = Say(
    es="al montón se juegan {count:carta|cartas} cada vez",
    en="the pile is played with {count} card(s) at a time",
)
DOES_NOT_MEET = Say(
    es="{played} no alcanza {top} del montón: juega un valor igual o {order}",
    en="{played} does not meet {top} on the pile: play equal {order}",
)
HIGHER = Say(es="más alto", en="or higher")
LOWER = Say(es="más bajo (revolución)", en="or lower (revolution)")
YOU_LEAD = Say(
    es="sales tú: juega una o más cartas del mismo valor", en="you lead: play a set of cards"
)
A_SEAT = Say(es="{seat}", en="{seat}")  # a seat said by name inside another sentence
NOT_HELD = Say(es="no tienes en la mano {cards}", en="not in your hand: {codes}")


@dataclass
class PresidenteData(GameData):
    dealer: int = 0
    top: dict | None = None  # the play to meet: {"seat", "value", "count"}
    passed: list[int] = field(default_factory=list)  # out of the current pile until it clears
    finished: list[int] = field(default_factory=list)  # this round's order of going out
    blocked: list[int] = field(default_factory=list)  # a deposed president (capital fall)
    revolution: bool = False
    ranks: list[str] | None = None  # each seat's title from the last round
    presidents: list[int] = field(default_factory=list)  # the President of each round


class Presidente(Game):
    id = "presidente"
    name = "Presidente"
    rules_file = "presidente.txt"
    players = (4, 4)
    data_type = PresidenteData
    options = {
        "jokers": Option(0, "jokers in the deck (above the 2)", choices=(0, 2)),
        "rounds": Option(5, "rounds in a match", minimum=1, maximum=20),
        "eight": Option(
            "any",
            "an 8 clears the pile: played on anything (any), or only as a legal beat (beat)",
            choices=("any", "beat"),
        ),
        "joker_in_revolution": Option(
            "strongest",
            "in a revolution the joker stays the strongest card, or becomes the weakest",
            choices=("strongest", "weakest"),
        ),
        "exchange_cards": Option(
            3, "cards given in each exchange of rounds 2 on", minimum=1, maximum=6
        ),
        "swap_seconds": Option(
            60.0, "seconds the citizens have to commit their swap", minimum=1.0, maximum=3600.0
        ),
        "direction": DIRECTION,
        **deals_by_number(since=2),
    }
    rules_version = 2
    changes = (
        deals_by_number_change(
            2,
            "; in a later round 13 cards each first, then the Esclavo's cards beyond 13",
        ),
    )
    variants = {
        "base": Variant("base", "52 cards, 13 each, 5 rounds."),
        "comodines": Variant(
            "comodines", "54 cards: two jokers above the 2; the Esclavo is dealt 15 cards.",
            {"jokers": 2},
        ),
    }  # fmt: skip

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    round_started = EventType(
        "round_started",
        "a new round: its number and dealer",
        round=INT,
        dealer=SEAT,
        says=Say(es="Ronda {round}: reparte {dealer}", en="Round {round}: {dealer} deals"),
    )
    dealt = DEALT
    exchanged = EventType(
        "exchanged",
        "the forced exchange: the Esclavo gives its best cards to the President, who gives"
        " back its worst; seen by the two of them",
        visibility=PRIVATE,
        seat=SEAT.about("who gives"),
        to=SEAT.about("who takes"),
        cards=CARDS,
        says=Say(es="{seat} da {cards} a {to}", en="{seat} gives {cards} to {to}"),
    )
    swap_open = EventType(
        "swap_open",
        "the two Ciudadanos choose, sealed, the cards they give each other",
        seats=SEATS.about("the Ciudadanos"),
        count=INT.about("cards each gives"),
        says=Say(
            es="{seats} eligen {count:carta|cartas} para intercambiar",
            en="{seats} choose {count:card|cards} to swap",
        ),
    )
    swap_committed = EventType(
        "swap_committed",
        "a Ciudadano's cards set aside for the swap, seen by that seat only; timeout: its"
        " lowest, given when the time ran out",
        visibility=PRIVATE,
        seat=SEAT,
        cards=CARDS,
        timeout=BOOL,
    )
    swapped = EventType(
        "swapped",
        "a Ciudadano's cards given to the other, seen by the two of them",
        visibility=PRIVATE,
        seat=SEAT.about("who gives"),
        to=SEAT.about("who takes"),
        cards=CARDS,
        says=Say(es="{seat} da {cards} a {to}", en="{seat} gives {cards} to {to}"),
    )
    lead = EventType(
        "lead",
        "a seat leads to an empty pile",
        seat=SEAT,
        says=Say(es="Sale {seat}", en="{seat} leads"),
    )
    played = EventType(
        "played",
        "a set of cards of one value played onto the pile",
        seat=SEAT,
        cards=CARDS,
        value=STR.about("the set's value: 3 to 10, J, Q, K, A, 2 or joker"),
        says=Say(es="{seat} juega {cards}", en="{seat} plays {cards}"),
    )
    revolution = EventType(
        "revolution",
        "four equal values in a row reverse the order of the cards (on), or restore it (off)",
        on=BOOL,
    )
    passed = EventType(
        "passed",
        "a seat stays out of the pile until it clears",
        seat=SEAT,
        says=Say(es="{seat} pasa", en="{seat} passes"),
    )
    pile_cleared = EventType(
        "pile_cleared",
        "the pile goes to the discard: an 8, the 3 of clubs on a single 2, or everyone passed",
        reason=choice(*CLEARED_BY, description="what cleared it"),
        seat=SEAT.about("who played the last set on it"),
    )
    went_out = EventType(
        "went_out",
        "a seat played its last card: its place in this round",
        seat=SEAT,
        place=INT.about("1 for the first out"),
        says=Say(
            es="{seat} se queda sin cartas: puesto {place}", en="{seat} is out: place {place}"
        ),
    )
    capital_fall = EventType(
        "capital_fall",
        "someone else went out first: the President is deposed and out of the round",
        seat=SEAT.about("the deposed President"),
        says=Say(
            es="Cae la capital: {seat} pierde la presidencia y queda fuera de la ronda",
            en="Capital fall: {seat} is deposed and out of the round",
        ),
    )
    round_over = EventType(
        "round_over",
        "a round is over: the order of going out and each seat's title",
        round=INT,
        order=SEATS.about("the seats in the order they finished"),
        ranks=list_of(ROLE, "each seat's title, by seat"),
    )
    match_finished = MATCH_FINISHED.extend(president=SEAT.about("the President of the last round"))

    @swap_committed.sentence
    def _swap_committed_said(self, event: Event) -> Say:
        if event["timeout"]:
            return Say(
                es="Se acaba el tiempo: {seat} aparta {cards} para el intercambio",
                en="Time is up: {seat} sets {cards} aside to swap",
            )
        return Say(
            es="{seat} aparta {cards} para el intercambio", en="{seat} sets {cards} aside to swap"
        )

    @revolution.sentence
    def _revolution_said(self, event: Event) -> Say:
        if event["on"]:
            return Say(
                es="¡Revolución! El orden de las cartas se invierte",
                en="Revolution! The order of the cards is reversed",
            )
        return Say(
            es="Contrarrevolución: las cartas vuelven a su orden",
            en="Counter-revolution: the cards are back in their order",
        )

    @pile_cleared.sentence
    def _pile_cleared_said(self, event: Event) -> Say:
        if event["reason"] == "eight":
            return Say(es="{seat} limpia el montón con un 8", en="{seat} clears the pile with an 8")
        if event["reason"] == "three_of_clubs":
            return Say(
                es="{seat} limpia el montón con el 3 de tréboles",
                en="{seat} clears the pile with the 3 of clubs",
            )
        return Say(
            es="Todos pasan: el montón de {seat} se retira",
            en="Everyone passes on {seat}'s play: the pile is cleared",
        )

    @round_over.sentence
    def _round_over_said(self, event: Event) -> tuple[Say, dict[str, Message]]:
        order = event["order"]
        return Say(
            es="Termina la ronda {round}: {first} es presidente y {last} esclavo",
            en="Round {round} is over: {first} is President, {last} Esclavo",
        ), {"first": A_SEAT(seat=order[0]), "last": A_SEAT(seat=order[-1])}

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "dealer": SEAT,
        "top": obj(
            "the play to meet: who made it, its value and how many cards",
            seat=SEAT,
            value=STR,
            count=INT,
        ).or_null(),
        "revolution": BOOL.about("whether the order of the cards is reversed"),
        "passed": SEATS.about("seats out of the pile until it clears"),
        "went_out": SEATS.about("the seats out of this round, in order"),
        "blocked": SEATS.about("a deposed President, out of this round"),
        "ranks": list_of(ROLE, "each seat's title from the last round").or_null(),
        "presidents": SEATS.about("the President of each round played"),
        "committed": list_of(BOOL, "per seat, whether it has set its swap aside"),
    }
    private_view = {"my_swap": CARDS.about("the cards you set aside for the swap")}

    # -- the facts ---------------------------------------------------------------------
    to_meet = FactType(
        "to_meet",
        "the play on the pile to meet: its value and how many cards",
        obj(value=STR, count=INT),
        label=Say(es="En el montón", en="On the pile"),
        says=Say(
            es="En el montón: {value.count} × {value.value}",
            en="On the pile: {value.count} × {value.value}",
        ),
    )
    revolution_on = FactType(
        "revolution",
        "the order of the cards is reversed",
        BOOL,
        label=Say(es="Revolución", en="Revolution"),
        says=Say(es="Revolución: gana la carta más baja", en="Revolution: the lowest card wins"),
    )
    role = FactType(
        "role",
        "a seat's title from the last round",
        ROLE,
        per_seat=True,
        label=Say(es="Título", en="Title"),
        says=Say(es="{seat} es {value}", en="{seat} is {value}"),
    )
    cards_left = CARDS_HELD
    out = FactType(
        "place",
        "a seat out of this round, and its place",
        INT,
        per_seat=True,
        label=Say(es="Puesto", en="Place"),
        says=Say(es="{seat} ha salido en el puesto {value}", en="{seat} is out in place {value}"),
    )
    passing = FactType(
        "passed",
        "a seat that passed, out of the pile until it clears",
        BOOL,
        per_seat=True,
        label=Say(es="Pasa", en="Passed"),
        says=Say(es="{seat} ha pasado", en="{seat} has passed"),
    )
    deposed = FactType(
        "deposed",
        "a deposed President, out of this round",
        BOOL,
        per_seat=True,
        label=Say(es="Depuesto", en="Deposed"),
        says=Say(es="{seat} ha perdido la presidencia", en="{seat} has been deposed"),
    )
    score = FactType(
        "score",
        "a seat's points over the rounds played: 2 a presidency, 1 as Ciudadano",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )
    round_number = ROUND_OF

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = PresidenteData.of(state), state.players
        facts = [self.round_number({"number": state.round, "of": state.options["rounds"]})]
        if data.top is not None and not state.finished:
            facts.append(
                self.to_meet({"value": label(data.top["value"]), "count": data.top["count"]})
            )
        if data.revolution:
            facts.append(self.revolution_on(True))
        if data.ranks is not None:
            facts.extend(self.role(data.ranks[s], s) for s in range(n))
        facts.extend(self.cards_left(len(state.cards(hand(s))), s) for s in range(n))
        facts.extend(self.out(place, s) for place, s in enumerate(data.finished, 1))
        facts.extend(self.deposed(True, s) for s in data.blocked)
        facts.extend(self.passing(True, s) for s in sorted(data.passed))
        facts.extend(self.score(state.scores[s], s) for s in range(n))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck(jokers=state.options["jokers"])

    def setup(self, state: State) -> list[Event]:
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("swap", s), s, HIDDEN)
        state.zone("stock", None, HIDDEN).cards = self.deck(state)
        state.zone("pile", None, PUBLIC)
        state.zone("discard", None, PUBLIC)
        data = PresidenteData.of(state)
        data.dealer = state.rng().randrange(state.players)
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        """Shuffle every card, deal (the Esclavo takes the cards beyond 13 each), then exchange or play."""
        data = PresidenteData.of(state)
        stock = gather_and_shuffle(state)
        order = seats_from(state, next_seat(state, data.dealer))
        counts = dict.fromkeys(order, HAND_SIZE)
        extra = len(stock) - HAND_SIZE * state.players
        if data.ranks is None:  # the first round: the cards beyond 13 each go round from the left
            for s in order[:extra]:
                counts[s] += 1
        elif not state.by_deal():
            counts[data.ranks.index(SLAVE)] += extra
        events = [self.round_started(round=state.round, dealer=data.dealer)]
        for s in order:
            events += deal_hands(state, [s], counts[s])
        if data.ranks is not None and state.by_deal() and extra:
            # 13 each first, the same at every table; then the Esclavo of this table takes the rest
            events += deal_hands(state, [data.ranks.index(SLAVE)], extra)
        data.top, data.passed, data.finished, data.blocked = None, [], [], []
        data.revolution = False
        if data.ranks is None:
            return events + self._start_play(state, order[0])
        return events + self._exchange(state)

    def _exchange(self, state: State) -> list[Event]:
        """The forced exchange between Esclavo and President, then the citizens' sealed swap."""
        data = PresidenteData.of(state)
        assert data.ranks is not None
        n = state.options["exchange_cards"]
        president, slave = data.ranks.index(PRESIDENT), data.ranks.index(SLAVE)
        best = sorted(state.cards(hand(slave)), key=keep_key)[-n:]
        worst = sorted(state.cards(hand(president)), key=keep_key)[:n]
        events = []
        for giver, taker, cards in ((slave, president, best), (president, slave, worst)):
            for c in cards:
                state.move(c, hand(giver), hand(taker))
            events.append(self.exchanged(seat=giver, to=taker, cards=cards,
                                visible_to=[giver, taker]))  # fmt: skip
        state.phase = "swap"
        state.to_act = self._citizens(state)
        state.deadline = {"kind": "commit", "seconds": float(state.options["swap_seconds"])}
        return events + [self.swap_open(seats=list(state.to_act), count=n)]

    def _start_play(self, state: State, leader: int) -> list[Event]:
        state.phase = "play"
        state.to_act = [leader]
        return [self.lead(seat=leader)]

    # -- the action table --------------------------------------------------------------
    swap = ActionType(
        "swap", "give cards to the other citizen, sealed until both have chosen",
        phases=("swap",), cards=CARDS,
    )  # fmt: skip
    play = ActionType(
        "play", "play a set of cards of one value onto the pile", phases=("play",), cards=CARDS
    )
    pass_ = ActionType("pass", "stay out of the pile until it clears", phases=("play",))

    @swap.candidates
    def _swaps(self, state: State, seat: int) -> list[Action]:
        cards = sorted(state.cards(hand(seat)))
        combos = dict.fromkeys(itertools.combinations(cards, state.options["exchange_cards"]))
        return [{"type": "swap", "cards": list(c)} for c in combos]

    # Each combination of the hand's cards of the exchange's size is held and legal.
    swap.enumerate(_swaps)

    @swap.refusal
    def _swap_refused(self, state: State, seat: int, action: Action) -> Message | None:
        n = state.options["exchange_cards"]
        if len(action["cards"]) != n:
            return SWAP_EXACTLY(count=n)
        return self._not_held(state, seat, action["cards"])

    @swap.handler
    def _swap(self, state: State, seat: int, action: Action) -> list[Event]:
        events = self._commit(state, seat, action["cards"])
        return events + (self._resolve_swap(state) if not state.to_act else [])

    def _commit(
        self, state: State, seat: int, cards: list[str], forced: bool = False
    ) -> list[Event]:
        for c in cards:
            state.move(c, hand(seat), seat_zone("swap", seat))
        state.to_act.remove(seat)
        return [self.swap_committed(seat=seat, cards=list(cards), timeout=forced,
                      visible_to=[seat])]  # fmt: skip

    def on_timeout(self, state: State) -> list[Event]:
        """The swap deadline passed: a citizen who has not chosen gives their lowest cards."""
        events: list[Event] = []
        n = state.options["exchange_cards"]
        for s in sorted(state.to_act):
            events += self._commit(state, s, sorted(state.cards(hand(s)), key=keep_key)[:n], True)
        return events + self._resolve_swap(state)

    def _resolve_swap(self, state: State) -> list[Event]:
        """Both citizens have committed: each takes the other's cards, at once."""
        state.deadline = None
        a, b = self._citizens(state)
        events = []
        for giver, taker in ((a, b), (b, a)):
            cards = list(state.cards(seat_zone("swap", giver)))
            state.zones[seat_zone("swap", giver)].cards = []
            state.cards(hand(taker)).extend(cards)
            events.append(self.swapped(seat=giver, to=taker, cards=cards, visible_to=[a, b]))
        ranks = PresidenteData.of(state).ranks
        assert ranks is not None
        return events + self._start_play(state, ranks.index(PRESIDENT))

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        held = state.cards(hand(seat))
        # A hand holds cards of the deck only: their strengths and keys are looked up directly.
        sets = climbing.set_choices(held, _STRENGTH.__getitem__, keep_last=_KEEP.__getitem__)
        if CLUBS_THREE in held:
            sets.append([CLUBS_THREE])
        unique = dict.fromkeys(tuple(s) for s in sets)
        return [{"type": "play", "cards": list(s)} for s in unique]

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        cards = action["cards"]
        problem = self._not_held(state, seat, cards)
        if problem:
            return problem
        if not climbing.is_set(cards, _STRENGTH.__getitem__):  # held: the deck's cards
            return ONE_VALUE
        top = PresidenteData.of(state).top
        if top is None or self._may_follow(state, cards, top):
            return None
        if len(cards) != top["count"]:
            return SAME_COUNT(count=top["count"])
        order = LOWER if PresidenteData.of(state).revolution else HIGHER
        played = a_value(value(cards[0]))
        return DOES_NOT_MEET(played=played, top=the_value(top["value"]), order=order)

    @play.enumerate
    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        """The candidates are sets of the hand already: only the pile's top is left to meet."""
        top = PresidenteData.of(state).top
        if top is None:
            return list(self._plays(state, seat))
        # Only the sets of the top's size can follow: those of ``_plays``, in its order,
        # made without the sets of every other size. Whether a value meets the top is decided
        # once per value, as ``_may_follow`` would decide it for the set.
        count, to_meet = top["count"], top["value"]
        eight_clears = state.options["eight"] == "any"
        three_clears = count == 1 and to_meet in (TWO, JOKER_VALUE)
        revolution = PresidenteData.of(state).revolution
        joker_rules = revolution and state.options["joker_in_revolution"] == "strongest"
        held = state.cards(hand(seat))
        groups: dict[int, list[str]] = {}
        strength_of = _STRENGTH.__getitem__
        for card in held:
            groups.setdefault(strength_of(card), []).append(card)
        plays = []
        for v, group in groups.items():
            if len(group) < count:
                continue
            cards = sorted(group, key=_KEEP.__getitem__)[:count] if len(group) > 1 else group
            clears = (v == EIGHT and eight_clears) or (three_clears and cards == [CLUBS_THREE])
            if clears:
                pass
            elif joker_rules and JOKER_VALUE in (v, to_meet):
                if v != JOKER_VALUE:
                    continue
            elif v != to_meet and (v > to_meet) == revolution:
                continue
            plays.append({"type": "play", "cards": cards})
        if (
            count == 1
            and CLUBS_THREE in held
            and not any(a["cards"] == [CLUBS_THREE] for a in plays)
        ):
            lone_three = [CLUBS_THREE]
            if self._may_follow(state, lone_three, top):
                plays.append({"type": "play", "cards": lone_three})
        return plays

    def _may_follow(self, state: State, cards: list[str], top: dict) -> bool:
        """Whether a set goes on the pile's ``top``: as many cards, of a value that meets it."""
        if len(cards) != top["count"]:
            return False
        v = value(cards[0])
        if v == EIGHT and state.options["eight"] == "any":
            return True
        return self._clubs_three_clears(state, cards) or self._meets(state, v, top["value"])

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        data = PresidenteData.of(state)
        cards = action["cards"]
        clubs_three = self._clubs_three_clears(state, cards)
        for c in cards:
            state.move(c, hand(seat), "pile")
        v = value(cards[0])
        data.top = {"seat": seat, "value": v, "count": len(cards)}
        events = [self.played(seat=seat, cards=list(cards), value=label(v))]
        if self._new_run(state, len(cards)):
            data.revolution = not data.revolution
            events.append(self.revolution(on=data.revolution))
        if not state.cards(hand(seat)):
            events += self._went_out(state, seat)
        if self._round_over(state):
            return events + self._end_round(state)
        if v == EIGHT or clubs_three:
            reason = "eight" if v == EIGHT else "three_of_clubs"
            return events + self._clear(state, seat, reason)
        return events + self._next_turn(state, seat)

    @staticmethod
    def _new_run(state: State, played: int) -> bool:
        """The play just completed a run of four equal values on the pile."""
        pile = state.cards("pile")
        run = climbing.run_on_top(pile, _STRENGTH.__getitem__)  # the deck's cards only
        return run >= REVOLUTION_RUN and run - played < REVOLUTION_RUN

    @pass_.refusal
    def _pass_refused(self, state: State, seat: int, action: Action) -> Say | None:
        return YOU_LEAD if PresidenteData.of(state).top is None else None

    @pass_.handler
    def _pass(self, state: State, seat: int, action: Action) -> list[Event]:
        PresidenteData.of(state).passed.append(seat)
        return [self.passed(seat=seat)] + self._next_turn(state, seat)

    # -- turns, clearing and the end of a round ----------------------------------------
    def _active(self, state: State) -> list[int]:
        """Seats still playing this round: cards in hand and not deposed."""
        blocked = PresidenteData.of(state).blocked
        zones = state.zones
        return [s for s in range(state.players) if zones[_HANDS[s]].cards and s not in blocked]

    def _next_turn(self, state: State, seat: int) -> list[Event]:
        """The next seat that has not passed; when everyone else has passed, the pile clears."""
        data = PresidenteData.of(state)
        assert data.top is not None
        passed, leader = data.passed, data.top["seat"]
        contest = [s for s in self._active(state) if s not in passed]
        if all(s == leader for s in contest):
            return self._clear(state, data.top["seat"], "all_passed")
        # ``next_seat`` skipping every seat out of the contest: the first contestant after ``seat``
        state.to_act = [next(s for s in seats_after(state, seat) if s in contest)]
        return []

    def _clear(self, state: State, seat: int, reason: str) -> list[Event]:
        """The pile goes to the discard; ``seat`` leads, or the next seat still playing."""
        data = PresidenteData.of(state)
        climbing.clear_pile(state, "pile", "discard")
        data.top, data.passed = None, []
        active = self._active(state)
        leader = seat if seat in active else next_seat(state, seat, skip=self._out(state))
        return [self.pile_cleared(reason=reason, seat=seat)] + self._start_play(state, leader)

    def _out(self, state: State) -> list[int]:
        active = self._active(state)
        return [s for s in range(state.players) if s not in active]

    def _went_out(self, state: State, seat: int) -> list[Event]:
        data = PresidenteData.of(state)
        data.finished.append(seat)
        events = [self.went_out(seat=seat, place=len(data.finished))]
        if data.ranks is not None and len(data.finished) == 1:
            president = data.ranks.index(PRESIDENT)
            if seat != president:
                data.blocked.append(president)
                events.append(self.capital_fall(seat=president))
        return events

    def _round_over(self, state: State) -> bool:
        return len(self._active(state)) <= 1

    def _end_round(self, state: State) -> list[Event]:
        data = PresidenteData.of(state)
        order = data.finished + self._active(state) + data.blocked
        ranks = [CITIZEN] * state.players
        ranks[order[0]], ranks[order[-1]] = PRESIDENT, SLAVE
        data.ranks = ranks
        data.presidents.append(order[0])
        record_round(state, [RANK_POINTS[r] for r in ranks])
        events = [self.round_over(round=state.round, order=order, ranks=list(ranks))]
        if state.round >= state.options["rounds"]:
            return events + end_match(state, [order[0]], president=order[0])
        state.round += 1
        data.dealer = next_seat(state, data.dealer)
        return events + self._deal(state)

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _not_held(state: State, seat: int, cards: list[str]) -> Message | None:
        held = state.cards(hand(seat))
        if holds(held, cards):
            return None
        missing = sorted(Counter(cards) - Counter(held))
        return NOT_HELD(cards=missing, codes=str(missing))

    @staticmethod
    def _citizens(state: State) -> list[int]:
        ranks = PresidenteData.of(state).ranks
        assert ranks is not None
        return [s for s, r in enumerate(ranks) if r == CITIZEN]

    @staticmethod
    def _clubs_three_clears(state: State, cards: list[str]) -> bool:
        """The 3 of clubs alone on a single 2 (or a single joker) takes the pile."""
        top = PresidenteData.of(state).top
        return (
            cards == [CLUBS_THREE]
            and top is not None
            and top["count"] == 1
            and top["value"] in (TWO, JOKER_VALUE)
        )

    @staticmethod
    def _meets(state: State, new: int, top: int) -> bool:
        """Equal or beat under the current order; the joker keeps its place by option."""
        revolution = PresidenteData.of(state).revolution
        strongest = state.options["joker_in_revolution"] == "strongest"
        if revolution and strongest and JOKER_VALUE in (new, top):
            return new == JOKER_VALUE
        return climbing.equal_or_beat(new, top, revolution)

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: PresidenteData) -> PresidenteData:
        """The play to meet as a number again (the view labels it) and the seats out under the
        view's name for them (see engine.sampling)."""
        top = view["top"]
        names = {label(v): v for v in range(1, JOKER_VALUE + 1)}
        data.top = {**top, "value": names[top["value"]]} if top else None
        data.finished = list(view["went_out"])
        return data

    def public_fields(self, state: State) -> dict:
        data = PresidenteData.of(state)
        top = data.top
        return {
            "dealer": data.dealer,
            "top": {**top, "value": label(top["value"])} if top else None,
            "revolution": data.revolution,
            "passed": sorted(data.passed),
            "went_out": list(data.finished),  # the seats out of this round, in order
            "blocked": list(data.blocked),
            "ranks": list(data.ranks) if data.ranks else None,
            "presidents": list(data.presidents),
            "committed": [bool(state.cards(seat_zone("swap", s))) for s in range(state.players)],
        }

    def private_fields(self, state: State, seat: int) -> dict:
        return {"my_swap": list(state.cards(seat_zone("swap", seat)))}


register(Presidente())
