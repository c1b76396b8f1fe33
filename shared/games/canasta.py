"""Canasta: a rummy game of sets with two English decks and four jokers (rules/canasta.txt).

Draw two cards, or take the discard pile by showing two natural cards equal to its top
card; lay groups of one number (2s and jokers are wild) and add to them; discard one
card. Seven cards of a number make a canasta: limpia (no wilds) 500, sucia 300, oculta
(laid complete in one turn) 1000, of wilds 2000; four black 3s with three wilds win the
match. A player with a canasta limpia and a canasta sucia may go out. A round scores the
canastas, the red 3s and going out, minus the cards left in hand; 5000 wins (``parejas``:
two teams sharing their points, 8000). The groups are checked with
``shared.engine.kit.melds``.

The turn is split into small steps (lay one or two groups, add one card, discard), and
every decision where the text is silent or ambiguous, in docs/games/canasta.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from shared.engine import (
    HIDDEN,
    JOKER,
    OWNER,
    PUBLIC,
    TOP,
    Action,
    BadSetup,
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
from shared.engine.actions import CARD, ActionType, Field
from shared.engine.events import PRIVATE, EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARDS, INT, INTS, SEAT, SEATS, choice, list_of, obj
from shared.engine.kit import turns
from shared.engine.kit.dealing import DEALT
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.melds import Melds
from shared.engine.kit.table_facts import CARDS_HELD, STOCK_LEFT
from shared.engine.kit.zones import hand, hand_card_action, not_in_hand, seat_zone
from shared.engine.language import ENGLISH_DECK, Message, Say, Words

TWOS = ("2S", "2H", "2D", "2C")
WILDS = frozenset((*TWOS, JOKER))
RED_THREES = frozenset(("3H", "3D"))
BLACK_THREES = frozenset(("3S", "3C"))
CANASTA = 7  # cards of a complete canasta; it takes no more
GROUPS = Melds(None, set_sizes=range(3, CANASTA + 1), wilds=WILDS, max_wilds=CANASTA)
BONUS = {"comodin": 2000, "oculta": 1000, "limpia": 500, "sucia": 300, "tres-negros": 5000}
GOING_OUT = 100
RED_THREE, ALL_RED_THREES = 100, 800
KIND_WORDS = Words(
    {
        "comodin": ("canasta de comodines", "canasta of wilds"),
        "oculta": ("canasta oculta", "canasta oculta"),
        "limpia": ("canasta limpia", "canasta limpia"),
        "sucia": ("canasta sucia", "canasta sucia"),
        "tres-negros": ("canasta de tres negros", "canasta of black 3s"),
    }
)
KIND = choice(*BONUS, description="a complete canasta's kind", words=KIND_WORDS)
ENDINGS = ("black_threes_canasta", "goal", "round_limit")

# -- what the rules say to a player, in both languages -------------------------------------
GROUP_SIZE = Say(
    es="un grupo tiene de 3 a {most} cartas, no {count}",
    en="a group has 3 to {most} cards, not {count}",
)
RED_THREE_ALONE = Say(
    es="un 3 rojo nunca forma parte de un grupo: se baja solo",
    en="a red 3 is never part of a group: it is laid down by itself",
)
ONE_NUMBER = Say(
    es="{cards} no son cartas de un mismo número (los 2 y los comodines son comodines)",
    en="{codes} are not cards of one number (2s and jokers are wild)",
)
BLACK_THREES_WILDS = Say(
    es="los 3 negros solo se bajan con dos comodines o más",
    en="black 3s are laid down only with two wilds or more",
)
TWO_NATURALS = Say(
    es="un grupo necesita al menos dos cartas naturales",
    en="a group needs at least two natural cards",
)
WILDS_AT_MOST_NATURALS = Say(
    es="un grupo no puede tener más comodines que cartas naturales",
    en="a group may not have more wilds than natural cards",
)
TAKE_WITHOUT_GROUPS = Say(
    es="ya has bajado: toma el descarte sin grupos",
    en="you have made your first meld: take the pile without groups",
)
PILE_AND_ONE_MORE = Say(
    es="la primera bajada es uno o dos grupos: el del descarte y como mucho otro",
    en="the first meld is one or two groups: the pile's group and at most one more",
)
KEEP_ONE = Say(es="guarda una carta para descartar", en="keep a card to discard")
ONE_OR_TWO = Say(es="baja uno o dos grupos cada vez", en="lay one or two groups at a time")
MELD_FIRST = Say(
    es="haz tu primera bajada antes de añadir cartas a los grupos",
    en="make your first meld before adding cards to groups",
)
NO_GROUP = Say(
    es="no hay grupo {index}; grupos: del 0 al {last}",
    en="there is no group {index}; groups: 0 to {last}",
)
OWN_GROUPS = Say(
    es="solo puedes añadir cartas a tus grupos", en="you may add cards only to your own groups"
)
OWN_OR_PARTNERS = Say(
    es="solo puedes añadir cartas a tus grupos o a los de tu pareja",
    en="you may add cards only to your own groups or your partner's",
)
COMPLETE = Say(
    es="ese grupo es una canasta completa: no admite más cartas",
    en="that group is a complete canasta: it takes no more cards",
)
LAST_CARD = Say(
    es="se cierra con la última carta: baja antes las demás",
    en="you go out with your last card: meld the others first",
)
TWO_CANASTAS = Say(
    es="para cerrar necesitas una canasta limpia y una canasta sucia en tu mesa",
    en="to go out you need a canasta limpia and a canasta sucia on your table",
)
# Why the pile cannot be taken (``Canasta._pile_block``), each said by ``_pile_problem``.
EMPTY, WILD_TOP, BLACK_THREE, BLOCKED, NO_PAIR = "empty", "wild", "black-3", "blocked", "no-pair"
PILE_EMPTY = Say(es="el descarte está vacío", en="the discard pile is empty")
TOP_WILD = Say(
    es="{card:cap} es comodín: el descarte no se puede tomar",
    en="the top card {code} is wild: the pile cannot be taken",
)
BLACK_THREE_TOP = Say(
    es="un 3 negro encima bloquea el descarte", en="a black 3 on top blocks the pile"
)
PILE_BLOCKED = Say(
    es="el descarte está bloqueado: hay una canasta de {number} en la mesa",
    en="the pile is blocked: a canasta of {number} is on the table",
)
SHOW_TWO = Say(
    es="para tomar el descarte, enseña dos cartas naturales de {number} de tu mano",
    en="to take the pile, show two natural cards of {number} from your hand",
)
FROM_HAND = Say(
    es="los grupos deben usar cartas de tu mano, cada una una vez",
    en="the groups must use cards of your hand, each once",
)
FIRST_MELD_WORTH = Say(
    es="tu primera bajada debe valer al menos {need} puntos; esta vale {worth}",
    en="your first meld must be worth at least {need} points; these are worth {worth}",
)


def _card_value(card: str) -> int:
    if card == JOKER:
        return 50
    r = rank(card)
    if r in (1, 2):  # an Ace, or a 2 (wild)
        return 20
    if r == 3:
        return 100
    return 5 if r <= 7 else 10


#: Per card code: its points, and its number (None for a wild), looked up in the hot loops
#: rather than worked out from the code on every call.
VALUES = {c: _card_value(c) for c in english_deck(jokers=1)}
NUMBERS = {c: None if c in WILDS else rank(c) for c in english_deck(jokers=1)}


def card_value(card: str) -> int:
    """Points of a card (the first meld's value, and what a card left in hand costs)."""
    value = VALUES.get(card)
    return _card_value(card) if value is None else value


def is_wild(card: str) -> bool:
    return card in WILDS


def group_problem(cards: list[str]) -> Message | None:
    """Why ``cards`` are not one legal group (None: they are), in words (``group_fault``)."""
    fault = group_fault(cards)
    if fault is None:
        return None
    if fault == SIZE:
        return GROUP_SIZE(most=CANASTA, count=len(cards))
    if fault == RED_THREE_IN:
        return RED_THREE_ALONE()
    if fault == NUMBERS_MIXED:
        return ONE_NUMBER(cards=cards, codes=str(cards))
    if fault == BLACK_THREES_FEW_WILDS:
        return BLACK_THREES_WILDS()
    if fault == ONE_NATURAL:
        return TWO_NATURALS()
    return WILDS_AT_MOST_NATURALS()


# What is wrong with a group (``group_fault``), each said by ``group_problem``.
SIZE, RED_THREE_IN, NUMBERS_MIXED = "size", "red-3", "numbers"
BLACK_THREES_FEW_WILDS, ONE_NATURAL, TOO_MANY_WILDS = "black-3s", "one-natural", "wilds"


def group_fault(cards: list[str]) -> str | None:
    """What makes ``cards`` no legal group, named (None: they are one): the rule, asked of
    every card a group might take (``fitting``) without the words only a refusal needs.

    Cards of one number with wilds (at least two naturals, no more wilds than naturals);
    black 3s with at least two wilds; or wilds only. Three to seven cards; red 3s never.
    """
    if not 3 <= len(cards) <= CANASTA:
        return SIZE
    naturals = [c for c in cards if c not in WILDS]
    wilds = len(cards) - len(naturals)
    if not RED_THREES.isdisjoint(naturals):
        return RED_THREE_IN
    # GROUPS.is_set, without its general walk: the naturals (never a joker) share a number.
    if len(set(map(rank, naturals))) > 1:
        return NUMBERS_MIXED
    if not naturals:
        return None  # a group of wilds, the way to a canasta comodín
    if naturals[0] in BLACK_THREES:
        return None if wilds >= 2 else BLACK_THREES_FEW_WILDS
    if len(naturals) < 2:
        return ONE_NATURAL
    if wilds > len(naturals):
        return TOO_MANY_WILDS
    return None


@lru_cache(maxsize=8192)
def fitting(group: tuple[str, ...]) -> frozenset[str]:
    """The cards that may be added to ``group``, a legal group, found once per group: a
    listing asks it of every group on the table, turn after turn. What a legal group takes
    depends only on its number and how many naturals and wilds it holds (``_FIT_BY_SHAPE``),
    so a group met for the first time is mostly answered without asking the rule."""
    wilds = sum(1 for c in group if c in WILDS)
    shape = (group_rank(group), len(group) - wilds, wilds)
    fit = _FIT_BY_SHAPE.get(shape)
    if fit is None:
        fit = _FIT_BY_SHAPE[shape] = _fitting(group)
    return fit


_FIT_BY_SHAPE: dict[tuple[int | None, int, int], frozenset[str]] = {}  # a few hundred at most


def _fitting(group: tuple[str, ...]) -> frozenset[str]:
    """``fitting``, asked of the rule: only a wild, a natural of the group's number, or a
    black 3 on a group of wilds can fit; the group's rule decides."""
    number = group_rank(group)
    if number is None:
        tried = WILDS | BLACK_THREES
    else:
        tried = WILDS | {c for c, n in NUMBERS.items() if n == number}
    return frozenset(c for c in tried if group_fault([*group, c]) is None)


def group_rank(cards: Sequence[str]) -> int | None:
    """The number of a group (None for a group of wilds only)."""
    for c in cards:
        if c not in WILDS:
            return rank(c)
    return None


def canasta_kind(group: dict) -> str | None:
    """The kind of a complete canasta (None while a group has fewer than 7 cards)."""
    cards = group["cards"]
    if len(cards) < CANASTA:
        return None
    naturals = GROUPS.naturals(cards)
    if not naturals:
        return "comodin"
    if naturals[0] in BLACK_THREES:
        return "tres-negros" if len(naturals) == 4 else "sucia"
    if group.get("oculta"):
        return "oculta"
    return "limpia" if len(naturals) == len(cards) else "sucia"


def round_points(
    kinds: list[str | None], in_hand: list[str], red_threes: int, went_out: bool
) -> int:
    """A side's round: its canastas (incomplete groups 0), red 3s, going out, minus its hand.

    The melded cards' own values are not counted, only the canastas' bonuses."""
    canastas = sum(BONUS[k] for k in kinds if k)
    threes = ALL_RED_THREES if red_threes == 4 else RED_THREE * red_threes
    return canastas + threes + (GOING_OUT if went_out else 0) - sum(map(card_value, in_hand))


def _by_number(cards: list[str]) -> tuple[dict[int, list[str]], list[str]]:
    """The naturals of ``cards`` per number (numbers and cards in the order met), and their
    wilds, cheapest first."""
    by_rank: dict[int, list[str]] = {}
    wilds = []
    for c in cards:
        number = NUMBERS[c]
        if number is None:
            wilds.append(c)
        elif number in by_rank:
            by_rank[number].append(c)
        else:
            by_rank[number] = [c]
    if len(wilds) > 1:
        wilds.sort(key=VALUES.__getitem__)
    return by_rank, wilds


def _order(group: list[str]) -> int:
    """Groups of different numbers in one order (wilds only last), to list a pair once."""
    number = group_rank(group)
    return 99 if number is None else number


def threshold(score: int) -> int:
    """Points the first meld must be worth, by the side's total so far."""
    if score < 1500:
        return 50
    return 90 if score < 3000 else 120


@dataclass
class CanastaData(GameData):
    dealer: int = 0
    turn: int = 0  # turns begun in this round
    opened: list[bool] = field(default_factory=list)  # per seat: first meld made this round
    # every group on the table: {"seat": whose table, "cards", "turn": the turn it was begun,
    # "hand": begun from the hand (not with the pile), "oculta": laid complete in one turn}
    groups: list[dict] = field(default_factory=list)
    last_round: dict | None = None  # how the last round ended and each side's points


class Canasta(Game):
    id = "canasta"
    name = "Canasta"
    rules_file = "canasta.txt"
    players = (2, 6)
    data_type = CanastaData
    options = {
        "hand_size": Option(11, "cards dealt to each player", minimum=7, maximum=15),
        "goal": Option(5000, "points that win the match", minimum=100, maximum=100000),
        "partnerships": Option(False, "two teams of two, partners share their points"),
        "max_rounds": Option(
            50,
            "rounds after which the match ends even if nobody reached the goal (0: no limit)",
            minimum=0,
            maximum=1000,
        ),
        "direction": turns.DIRECTION,
    }
    fresh_deals_since = 1  # every deal shuffles a fresh deck, no draw during play
    variants = {
        "base": Variant("base", "Canasta: each player for themselves, 5000 points win."),
        "parejas": Variant(
            "parejas",
            "Canasta en parejas: 4 players in two teams sharing their points, 8000 win.",
            {"partnerships": True, "goal": 8000},
            players=(4, 4),
        ),
    }

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "a new round: its number, its dealer and who plays first",
        round=INT,
        dealer=SEAT,
        first=SEAT.about("who plays first"),
        says=Say(
            es="Ronda {round}: reparte {dealer}, empieza {first}",
            en="Round {round}: {dealer} deals, {first} starts",
        ),
    )
    dealt = DEALT
    discard_started = EventType(
        "discard_started",
        "a card of the stock turned up to start the discard pile (again after a red 3)",
        card=CARD,
        says=Say(es="Se descubre {card} en el descarte", en="{card:cap} starts the discard pile"),
    )
    red_three = EventType(
        "red_three",
        "a red 3 laid face up beside its player's table at once",
        seat=SEAT,
        red_three=CARD.about("the red 3"),
        says=Say(es="{seat} baja {red_three}", en="{seat} lays down {red_three}"),
    )
    replaced = EventType(
        "replaced",
        "the cards drawn to replace red 3s laid down, seen by their player only",
        visibility=PRIVATE,
        seat=SEAT,
        cards=CARDS,
        says=Say(es="{seat} repone {cards} del mazo", en="{seat} replaces them with {cards}"),
    )
    stock_exhausted = EventType(
        "stock_exhausted",
        "a turn begins with the stock empty: the round ends",
        says=Say(es="Se acaba el mazo: termina la ronda", en="The stock is gone: the round ends"),
    )
    drew = EventType(
        "drew",
        "two cards drawn from the stock, seen by their player only",
        visibility=PRIVATE,
        seat=SEAT,
        cards=CARDS,
        says=Say(es="{seat} roba {cards}", en="{seat} draws {cards}"),
    )
    took_pile = EventType(
        "took_pile",
        "the discard pile taken: its top card with two naturals shown from the hand make a"
        " group; the rest of the pile goes to the hand, seen by its player only",
        visibility=PRIVATE,
        seat=SEAT,
        top=CARD.about("the pile's top card"),
        shown=CARDS.about("the two natural cards shown from the hand"),
        cards=CARDS.about("the rest of the pile"),
        says=Say(
            es="{seat} se lleva el descarte con {top}, enseñando {shown}",
            en="{seat} takes the pile with {top}, showing {shown}",
        ),
    )
    melded = EventType(
        "melded",
        "a new group laid on its player's table",
        seat=SEAT,
        cards=CARDS,
        group=INT.about("its index in the view's groups"),
        says=Say(es="{seat} baja {cards}", en="{seat} melds {cards}"),
    )
    added = EventType(
        "added",
        "a card added to a group of its player's side",
        seat=SEAT,
        card=CARD,
        group=INT.about("the group's index in the view's groups"),
        says=Say(es="{seat} añade {card} a un grupo", en="{seat} adds {card} to a group"),
    )
    discarded = EventType(
        "discarded",
        "a card discarded: the turn ends",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} descarta {card}", en="{seat} discards {card}"),
    )
    went_out = EventType(
        "went_out",
        "a player goes out, its last card face down on the pile (seen by it only)",
        visibility=PRIVATE,
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} cierra", en="{seat} goes out"),
    )
    black_threes_canasta = EventType(
        "black_threes_canasta",
        "a canasta of the four black 3s and three wilds: its side wins the match",
        seat=SEAT.about("whose table it is on"),
        says=Say(
            es="{seat} completa la canasta de tres negros",
            en="{seat} completes the canasta of black 3s",
        ),
    )
    round_scored = EventType(
        "round_scored",
        "a round is over: each side's canastas, red 3s, cards left in hand and points",
        round=INT,
        went_out=SEAT.or_null("who went out; null: the stock ran out or black 3s"),
        sides=list_of(
            obj(
                seats=SEATS,
                canastas=list_of(KIND),
                red_threes=INT,
                in_hand=CARDS.about("the cards its players still held"),
                points=INT.about("the side's points this round"),
            )
        ),
    )
    match_finished = MATCH_FINISHED.extend(
        reason=choice(*ENDINGS, description="black 3s, the goal reached or the round limit")
    )

    @round_scored.sentence
    def _round_scored_said(self, event: Event) -> tuple[Say, dict]:
        points = [side["points"] for side in event["sides"]]
        if event["went_out"] is None:
            return Say(
                es="Termina la ronda {round}; puntos: {points}",
                en="Round {round} is over; points: {points}",
            ), {"points": points}
        return Say(
            es="Termina la ronda {round}, cierra {went_out}; puntos: {points}",
            en="Round {round} is over, {went_out} went out; points: {points}",
        ), {"points": points}

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "dealer": SEAT,
        "opened": list_of(BOOL, "per seat, whether it has made its first meld this round"),
        "minimum": INTS.about("per seat, the points its first meld must be worth"),
        "groups": list_of(
            obj(seat=SEAT, cards=CARDS, canasta=KIND.or_null("null: not complete yet")),
            "every group on the table, by index; seat: whose table",
        ),
        "pile_top": CARD.or_null("the discard pile's top card"),
        "last_round": obj(
            "how the last round ended and each side's points",
            went_out=SEAT.or_null(),
            sides=round_scored.fields["sides"],
        ).or_null(),
    }

    # -- the facts ---------------------------------------------------------------------
    pile = FactType(
        "pile",
        "the discard pile: its top card and how many cards it holds",
        obj(top=CARD, count=INT),
        label=Say(es="Descarte", en="Discard pile"),
        says=Say(
            es="Descarte: {value.top:bare}, {value.count:carta|cartas}",
            en="Discard pile: {value.top:bare}, {value.count:card|cards}",
        ),
    )
    stock = STOCK_LEFT
    goal = FactType(
        "goal",
        "the points that win the match",
        INT,
        label=Say(es="Meta", en="Goal"),
        says=Say(es="Se juega a {value} puntos", en="Playing to {value} points"),
    )
    in_hand = CARDS_HELD
    minimum = FactType(
        "minimum",
        "a seat that has not made its first meld this round: what it must be worth",
        INT,
        per_seat=True,
        label=Say(es="Primera bajada", en="First meld"),
        says=Say(es="{seat} necesita {value} para bajar", en="{seat} needs {value} to meld"),
    )
    canastas = FactType(
        "canastas",
        "the complete canastas of a seat's side",
        list_of(KIND),
        per_seat=True,
        label=Say(es="Canastas", en="Canastas"),
    )
    taken = FactType(
        "points",
        "the points a seat's side has on the table this round: canastas and red 3s (going out"
        " and the cards left in hand count at the end)",
        INT,
        per_seat=True,
        label=Say(es="Puntos en la mesa", en="Points on the table"),
        says=Say(
            es="{seat} lleva {value:punto|puntos} en la mesa",
            en="{seat} has {value:point|points} on the table",
        ),
    )
    score = FactType(
        "score",
        "a seat's total over the rounds played (partners share theirs)",
        INT,
        per_seat=True,
        label=Say(es="Partida", en="Match"),
        says=Say(es="{seat}: {value} en la partida", en="{seat}: {value} in the match"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = CanastaData.of(state), state.players
        pile = state.cards("discard")
        facts: list[Fact] = []
        if pile:
            facts.append(self.pile({"top": pile[-1], "count": len(pile)}))
        facts.append(self.stock(len(state.cards("stock"))))
        facts.append(self.goal(state.options["goal"]))
        for s in range(n):
            facts.append(self.in_hand(len(state.cards(hand(s))), s))
            if not data.opened[s] and not state.finished:
                facts.append(self.minimum(threshold(state.scores[s]), s))
            kinds = self.side_canastas(state, s)
            if kinds:
                facts.append(self.canastas(kinds, s))
            side = state.team_of(s)
            reds = sum(len(state.cards(seat_zone("red-threes", m))) for m in side)
            complete: list[str | None] = list(kinds)
            facts.append(self.taken(round_points(complete, [], reds, False), s))
        facts.extend(self.score(state.scores[s], s) for s in range(n))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck(jokers=2, copies=2)

    def setup(self, state: State) -> list[Event]:
        n, data = state.players, CanastaData.of(state)
        if state.options["partnerships"]:
            if n != 4:
                raise BadSetup("partnerships are for 4 players")
            state.teams = [[0, 2], [1, 3]]
        if n * state.options["hand_size"] + 10 > len(self.deck(state)):
            raise BadSetup(f"{n} players cannot each be dealt {state.options['hand_size']} cards")
        data.dealer = state.rng().randrange(n)
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        data, n = CanastaData.of(state), state.players
        stock = state.zone("stock", None, HIDDEN)
        stock.cards = self.deck(state)
        state.shuffle(stock.cards)
        for s in range(n):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("table", s), s, PUBLIC)
            state.zone(seat_zone("red-threes", s), s, PUBLIC)
        state.zone("discard", None, TOP)
        state.zone("closing", None, HIDDEN)
        data.turn, data.opened, data.groups = 0, [False] * n, []
        first = turns.next_seat(state, data.dealer)
        order = turns.seats_from(state, first)
        events = [self.new_deal(round=state.round, dealer=data.dealer, first=first)]
        size = state.options["hand_size"]
        for s in order:
            cards = [stock.cards.pop() for _ in range(size)]
            state.zones[hand(s)].cards = cards
            events.append(self.dealt(seat=s, cards=list(cards), visible_to=[s]))
        for s in order:
            events += self._lay_red_threes(state, s)
        while True:  # the first card of the pile is never a red 3
            card = state.move_top("stock", "discard")
            events.append(self.discard_started(card=card))
            if card not in RED_THREES:
                break
        return events + self._start_turn(state, first)

    def _lay_red_threes(self, state: State, seat: int) -> list[Event]:
        """Red 3s in hand go face up beside the table at once, each replaced from the stock."""
        events: list[Event] = []
        cards = state.zones[hand(seat)].cards
        while True:
            if RED_THREES.isdisjoint(cards):  # the usual hand: nothing to lay
                return events
            threes = [c for c in cards if c in RED_THREES]
            for c in threes:
                state.move(c, hand(seat), seat_zone("red-threes", seat))
                events.append(self.red_three(seat=seat, red_three=c))
            new = [state.move_top("stock", hand(seat)) for _ in threes if state.cards("stock")]
            if new:
                events.append(self.replaced(seat=seat, cards=new, visible_to=[seat]))

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        if not state.cards("stock"):
            return [self.stock_exhausted()] + self._end_round(state, None)
        CanastaData.of(state).turn += 1
        state.phase, state.to_act = "draw", [seat]
        return []

    # -- the action table --------------------------------------------------------------
    draw = ActionType("draw", "take two cards from the stock", phases=("draw",))
    take = ActionType(
        "take",
        "take the discard pile: two natural cards of your hand equal to its top card make a "
        "group with it; before your first meld, add one more group to reach the minimum",
        phases=("draw",),
        groups=Field(
            "card-groups", "another group from your hand (first meld only)", optional=True
        ),
    )
    meld = ActionType(
        "meld",
        "lay one or two new groups from your hand (your first meld must reach the minimum)",
        phases=("meld",),
        groups=Field("card-groups", "one or two groups"),
    )
    add = ActionType(
        "add",
        "add a card of your hand to a group of your table (or your partner's)",
        phases=("meld",),
        card=CARD,
        group=Field("int", "the index of the group in the view's groups", minimum=0),
    )
    discard = hand_card_action("discard", "discard a card; the turn ends", ("meld",))
    go_out = ActionType(
        "go_out",
        "put your last card face down on the pile, ending the round (needs a canasta "
        "limpia and a canasta sucia)",
        phases=("meld",),
        card=CARD,
    )

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        got = [state.move_top("stock", hand(seat)) for _ in range(2) if state.cards("stock")]
        state.phase = "meld"
        events = [self.drew(seat=seat, cards=got, visible_to=[seat])]
        return events + self._lay_red_threes(state, seat)

    @take.candidates
    def _takes(self, state: State, seat: int) -> list[Action]:
        if self._pile_block(state, seat):
            return []
        if CanastaData.of(state).opened[seat]:
            return [{"type": "take"}]
        pair, cards = self._pile_pair(state, seat), list(state.cards(hand(seat)))
        for c in pair:
            cards.remove(c)
        return [{"type": "take"}] + [
            {"type": "take", "groups": [g]} for g in self._single_groups(cards)
        ]

    @take.enumerate
    def _legal_takes(self, state: State, seat: int) -> list[Action]:
        """The candidates' groups are built from the hand: only the minimum and the card kept
        to discard are left to check (faster than the refusal's full check of each)."""
        if self._pile_block(state, seat):
            return []
        held, pile = state.cards(hand(seat)), state.cards("discard")
        kept = len(held) - 2 + len(pile) - 1  # in hand after taking, before any other group
        if CanastaData.of(state).opened[seat]:
            return [{"type": "take"}] if kept else []
        pair, cards = self._pile_pair(state, seat), list(held)
        for c in pair:
            cards.remove(c)
        need = threshold(self.side_score(state, seat))
        worth = sum(map(card_value, [pile[-1], *pair]))
        found: list[Action] = [{"type": "take"}] if kept and worth >= need else []
        for g in self._single_groups(cards):
            if kept > len(g) and worth + sum(map(card_value, g)) >= need and group_fault(g) is None:
                found.append({"type": "take", "groups": [g]})
        return found

    @take.refusal
    def _take_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        problem = self._pile_problem(state, seat)
        if problem:
            return problem
        extra = action.get("groups") or []
        pair, pile = self._pile_pair(state, seat), state.cards("discard")
        if CanastaData.of(state).opened[seat] and extra:
            return TAKE_WITHOUT_GROUPS
        if len(extra) > 1:
            return PILE_AND_ONE_MORE
        rest = Counter(state.cards(hand(seat))) - Counter(pair)
        problem = self._groups_problem(state, seat, extra, rest, pile_group=[pile[-1], *pair])
        left = sum(rest.values()) - sum(map(len, extra)) + len(pile) - 1
        return problem or (None if left else KEEP_ONE)

    @take.handler
    def _take(self, state: State, seat: int, action: Action) -> list[Event]:
        data = CanastaData.of(state)
        pair = self._pile_pair(state, seat)
        pile = state.zones["discard"].cards
        top = pile.pop()
        for c in pair:
            state.move(c, hand(seat), seat_zone("table", seat))
        state.zones[seat_zone("table", seat)].cards.append(top)
        rest = list(pile)
        pile.clear()
        state.zones[hand(seat)].cards.extend(rest)
        data.groups.append(
            {"seat": seat, "cards": [top, *pair], "turn": data.turn, "hand": False, "oculta": False}
        )
        events = [self.took_pile(seat=seat, top=top, shown=pair, cards=rest, visible_to=[seat])]
        extra = action.get("groups") or []
        state.phase = "meld"
        events += self._lay_groups(state, seat, extra)
        data.opened[seat] = True
        events += self._lay_red_threes(state, seat)
        return events + self._after_group_change(state, seat)

    @meld.candidates
    def _melds(self, state: State, seat: int) -> list[Action]:
        """Bounded: the single groups of ``_single_groups``; before the first meld, also two
        groups that reach the minimum together when neither does alone."""
        cards = state.cards(hand(seat))
        singles = self._single_groups(cards)
        found = [{"type": "meld", "groups": [g]} for g in singles]
        if CanastaData.of(state).opened[seat]:
            return found
        need = threshold(self.side_score(state, seat))
        worths = [sum(map(VALUES.__getitem__, g)) for g in singles]
        pairs = self._pairs_reaching(cards, singles, worths, need)
        return found + [{"type": "meld", "groups": [a, b]} for a, b in pairs]

    @meld.enumerate
    def _legal_melds(self, state: State, seat: int) -> list[Action]:
        """The candidates are built from the hand as legal groups: only the minimum and the
        card kept to discard are left to check (faster than the refusal's full check)."""
        cards = state.cards(hand(seat))
        size, singles = len(cards), self._single_groups(cards)
        if CanastaData.of(state).opened[seat]:
            return [{"type": "meld", "groups": [g]} for g in singles if len(g) < size]
        need = threshold(self.side_score(state, seat))
        worths = [sum(map(VALUES.__getitem__, g)) for g in singles]
        found: list[Action] = [
            {"type": "meld", "groups": [g]}
            for g, worth in zip(singles, worths, strict=True)
            if len(g) < size and worth >= need
        ]
        for a, b in self._pairs_reaching(cards, singles, worths, need):
            if len(a) + len(b) < size:
                found.append({"type": "meld", "groups": [a, b]})
        return found

    @staticmethod
    def _pairs_reaching(
        cards: list[str], singles: list[list[str]], worths: list[int], need: int
    ) -> list[tuple[list[str], list[str]]]:
        """Two single groups of the hand, of different numbers in ``_order``, that reach
        ``need`` together when neither does alone (``worths``: the singles' points)."""
        found: list[tuple[list[str], list[str]]] = []
        if sum(map(VALUES.__getitem__, cards)) < need:
            return found  # the whole hand does not reach it
        # The second group comes from the rest of the hand (in Counter order: each code's
        # copies together), and only from a later number than the first's: each number's
        # groups depend on its naturals and the wilds left, so only those are worked out.
        ranks, wilds = _by_number(list(Counter(cards).elements()))
        # Only a number with two naturals or more (or the black 3s) makes a group of its own.
        ranks = {r: naturals for r, naturals in ranks.items() if len(naturals) >= 2 or r == 3}
        for a, worth_a in zip(singles, worths, strict=True):
            order_a = _order(a)
            if worth_a >= need or order_a == 99:  # alone enough, or no later number
                continue
            left = list(wilds)
            for c in a:
                if c in WILDS:
                    left.remove(c)
            later = {r: naturals for r, naturals in ranks.items() if r > order_a}
            for b in Canasta._groups_from(later, left):
                worth_b = sum(map(VALUES.__getitem__, b))
                if worth_b < need <= worth_a + worth_b:
                    found.append((a, b))
        return found

    @meld.refusal
    def _meld_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        groups = action["groups"]
        if not 1 <= len(groups) <= 2:
            return ONE_OR_TWO
        return self._groups_problem(state, seat, groups, Counter(state.cards(hand(seat))))

    @meld.handler
    def _meld(self, state: State, seat: int, action: Action) -> list[Event]:
        events = self._lay_groups(state, seat, action["groups"])
        CanastaData.of(state).opened[seat] = True
        return events + self._after_group_change(state, seat)

    @add.candidates
    def _adds(self, state: State, seat: int) -> list[Action]:
        data = CanastaData.of(state)
        if not data.opened[seat]:
            return []
        side = state.team_of(seat)
        cards = list(dict.fromkeys(state.cards(hand(seat))))
        return [
            {"type": "add", "card": c, "group": i}
            for i, g in enumerate(data.groups)
            if g["seat"] in side and len(g["cards"]) < CANASTA
            for c in cards
        ]

    @add.enumerate
    def _legal_adds(self, state: State, seat: int) -> list[Action]:
        """Faster than checking every card against every group: the cards that fit a group
        are found once for that group (``fitting``)."""
        data = CanastaData.of(state)
        held = state.cards(hand(seat))
        if not data.opened[seat] or len(held) < 2:
            return []
        side = state.team_of(seat)
        cards = list(dict.fromkeys(held))
        found: list[Action] = []
        for i, g in enumerate(data.groups):
            group = g["cards"]
            if g["seat"] not in side or len(group) >= CANASTA:
                continue
            fit = fitting(tuple(group))
            if not fit.isdisjoint(cards):  # most groups take no card of the hand
                found += [{"type": "add", "card": c, "group": i} for c in cards if c in fit]
        return found

    @add.refusal
    def _add_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        data, card, index = CanastaData.of(state), action["card"], action["group"]
        held = state.cards(hand(seat))
        if card not in held:
            return not_in_hand(state, seat, card)
        if not data.opened[seat]:
            return MELD_FIRST
        if index >= len(data.groups):
            return NO_GROUP(index=index, last=len(data.groups) - 1)
        group = data.groups[index]
        if group["seat"] not in state.team_of(seat):
            return OWN_OR_PARTNERS if state.teams else OWN_GROUPS
        if len(group["cards"]) >= CANASTA:
            return COMPLETE
        if len(held) == 1:
            return KEEP_ONE
        return group_problem(group["cards"] + [card])

    @add.handler
    def _add(self, state: State, seat: int, action: Action) -> list[Event]:
        data, card, index = CanastaData.of(state), action["card"], action["group"]
        group = data.groups[index]
        state.move(card, hand(seat), seat_zone("table", group["seat"]))
        group["cards"].append(card)
        if len(group["cards"]) == CANASTA:  # laid complete from the hand within one turn
            group["oculta"] = group["hand"] and group["turn"] == data.turn
        events = [self.added(seat=seat, card=card, group=index)]
        return events + self._after_group_change(state, seat)

    @discard.handler
    def _discard(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move(action["card"], hand(seat), "discard")
        events = [self.discarded(seat=seat, card=action["card"])]
        return events + self._start_turn(state, turns.next_seat(state, seat))

    @go_out.candidates
    def _go_outs(self, state: State, seat: int) -> list[Action]:
        return [{"type": "go_out", "card": c} for c in state.cards(hand(seat))[:1]]

    @go_out.enumerate
    def _legal_go_outs(self, state: State, seat: int) -> list[Action]:
        """The candidate only with one card left (``_go_out_refused``'s first questions)."""
        held = state.cards(hand(seat))
        if len(held) != 1 or self._go_out_refused(state, seat, {"card": held[0]}):
            return []
        return [{"type": "go_out", "card": held[0]}]

    @go_out.refusal
    def _go_out_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        held = state.cards(hand(seat))
        if action["card"] not in held:
            return not_in_hand(state, seat, action["card"])
        if len(held) != 1:
            return LAST_CARD
        kinds = self.side_canastas(state, seat)
        if not any(k in ("limpia", "oculta") for k in kinds) or not any(
            k in ("sucia", "comodin") for k in kinds
        ):
            return TWO_CANASTAS
        return None

    @go_out.handler
    def _go_out(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move(action["card"], hand(seat), "closing")
        events = [self.went_out(seat=seat, card=action["card"], visible_to=[seat])]
        return events + self._end_round(state, seat)

    # -- groups --------------------------------------------------------------------------
    def _pile_problem(self, state: State, seat: int) -> Message | Say | None:
        """Why ``seat`` cannot take the pile now (None: it can), in words."""
        block = self._pile_block(state, seat)
        if block is None:
            return None
        if block == EMPTY:
            return PILE_EMPTY
        top = state.cards("discard")[-1]
        if block == WILD_TOP:
            return TOP_WILD(card=top, code=top)
        if block == BLACK_THREE:
            return BLACK_THREE_TOP
        if block == BLOCKED:
            return PILE_BLOCKED(number=top[:-1])
        return SHOW_TWO(number=top[:-1])

    def _pile_block(self, state: State, seat: int) -> str | None:
        """Why ``seat`` cannot take the pile now, named (None: it can): the rule, which the
        listings ask on every turn, without the words only a refusal needs."""
        pile = state.cards("discard")
        if not pile:
            return EMPTY
        top = pile[-1]
        if is_wild(top):
            return WILD_TOP
        if top in BLACK_THREES:
            return BLACK_THREE
        number = rank(top)
        for g in CanastaData.of(state).groups:
            if len(g["cards"]) >= CANASTA and group_rank(g["cards"]) == number:
                return BLOCKED
        if len(self._pile_pair(state, seat)) < 2:
            return NO_PAIR
        return None

    @staticmethod
    def _pile_pair(state: State, seat: int) -> list[str]:
        """Two natural cards of the hand equal in number to the top of the pile (or fewer)."""
        top = rank(state.cards("discard")[-1])
        return [c for c in state.cards(hand(seat)) if NUMBERS[c] == top][:2]  # no wild

    def _groups_problem(
        self,
        state: State,
        seat: int,
        groups: list[list[str]],
        have: Counter,
        pile_group: list[str] | None = None,
    ) -> Message | Say | None:
        """Why laying ``groups`` from the cards ``have`` is refused (None: it is legal);
        ``pile_group``: the group made with the pile's top card, when taking it."""
        used = Counter(c for g in groups for c in g)
        if any(have[c] < count for c, count in used.items()):  # ``used - have``, uncounted
            return FROM_HAND
        if pile_group is None and used.total() >= have.total():  # nothing left to discard
            return KEEP_ONE
        for g in groups:
            problem = group_problem(g)
            if problem:
                return problem
        if not CanastaData.of(state).opened[seat]:
            worth = sum(card_value(c) for g in groups for c in g)
            worth += sum(card_value(c) for c in pile_group or [])
            need = threshold(self.side_score(state, seat))
            if worth < need:
                return FIRST_MELD_WORTH(need=need, worth=worth)
        return None

    def _lay_groups(self, state: State, seat: int, groups: list[list[str]]) -> list[Event]:
        data = CanastaData.of(state)
        events = []
        for g in groups:
            for c in g:
                state.move(c, hand(seat), seat_zone("table", seat))
            data.groups.append(
                {"seat": seat, "cards": list(g), "turn": data.turn, "hand": True,
                 "oculta": len(g) >= CANASTA}
            )  # fmt: skip
            events.append(self.melded(seat=seat, cards=list(g), group=len(data.groups) - 1))
        return events

    @staticmethod
    def _single_groups(cards: list[str]) -> list[list[str]]:
        """Bounded candidates for a new group: per number, all its naturals (at most 7) with
        0 to as many wilds as allowed, cheapest wilds first; black 3s with two wilds or more;
        every wild together."""
        return Canasta._groups_from(*_by_number(cards))

    @staticmethod
    def _groups_from(by_rank: dict[int, list[str]], wilds: list[str]) -> list[list[str]]:
        """``_single_groups`` of cards already sorted out by ``_by_number``."""
        found = []
        spare = len(wilds)
        for r, naturals in by_rank.items():
            n = len(naturals)
            if n < 2 and r != 3:  # most numbers of a hand: a card alone makes no group
                continue
            if n > CANASTA:
                naturals, n = naturals[:CANASTA], CANASTA
            if r == 3:
                for w in range(2, min(spare, CANASTA - n) + 1):
                    found.append(naturals + wilds[:w])
                continue
            for w in range(0 if n >= 3 else 1, min(n, spare, CANASTA - n) + 1):
                found.append(naturals + wilds[:w])
        if spare >= 3:
            found.append(wilds[:CANASTA])
        return found

    def _after_group_change(self, state: State, seat: int) -> list[Event]:
        """A canasta of four black 3s wins the match at once; otherwise play goes on."""
        for g in CanastaData.of(state).groups:
            if len(g["cards"]) >= CANASTA and canasta_kind(g) == "tres-negros":
                return [self.black_threes_canasta(seat=g["seat"])] + self._end_round(state, None)
        return []

    # -- the end of a round --------------------------------------------------------------
    def _end_round(self, state: State, went_out: int | None) -> list[Event]:
        data, n = CanastaData.of(state), state.players
        sides = state.teams or [[s] for s in range(n)]
        points = [0] * n
        detail = []
        black_win = None
        for side in sides:
            kinds = [canasta_kind(g) for g in data.groups if g["seat"] in side]
            if "tres-negros" in kinds:
                black_win = side
            in_hand = [c for s in side for c in state.cards(hand(s))]
            reds = sum(len(state.cards(seat_zone("red-threes", s))) for s in side)
            got = round_points(kinds, in_hand, reds, went_out in side)
            for s in side:
                points[s] = got
            detail.append({"seats": list(side), "canastas": [k for k in kinds if k],
                           "red_threes": reds, "in_hand": in_hand, "points": got})  # fmt: skip
        record_round(state, points)
        data.last_round = {"went_out": went_out, "sides": detail}
        events = [self.round_scored(round=state.round, went_out=went_out, sides=detail)]
        if black_win is not None:
            return events + end_match(state, black_win, reason="black_threes_canasta")
        goal, limit = state.options["goal"], state.options["max_rounds"]
        if max(state.scores) >= goal:
            return events + end_match(state, highest(state.scores), reason="goal")
        if limit and state.round >= limit:
            return events + end_match(state, highest(state.scores), reason="round_limit")
        state.round += 1
        data.dealer = turns.next_seat(state, data.dealer)
        return events + self._deal(state)

    # -- rules as questions ------------------------------------------------------------
    @staticmethod
    def side_score(state: State, seat: int) -> int:
        return state.scores[seat]  # partners share their points: each seat holds the side's

    @staticmethod
    def side_canastas(state: State, seat: int) -> list[str]:
        side = state.team_of(seat)
        kinds = (canasta_kind(g) for g in CanastaData.of(state).groups if g["seat"] in side)
        return [k for k in kinds if k]

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: CanastaData) -> CanastaData:
        """The groups as the view shows them; when each was begun is not shown, so a group
        still short of a canasta counts as begun earlier (see engine.sampling)."""
        data.groups = [
            {"seat": g["seat"], "cards": list(g["cards"]), "turn": -1, "hand": False,
             "oculta": g["canasta"] == "oculta"}
            for g in view["groups"]
        ]  # fmt: skip
        return data

    def public_fields(self, state: State) -> dict:
        data = CanastaData.of(state)
        pile = state.cards("discard")
        return {
            "dealer": data.dealer,
            "opened": list(data.opened),
            "minimum": [threshold(state.scores[s]) for s in range(state.players)],
            "groups": [
                {"seat": g["seat"], "cards": list(g["cards"]), "canasta": canasta_kind(g)}
                for g in data.groups
            ],
            "pile_top": pile[-1] if pile else None,
            "last_round": data.last_round,
        }


register(Canasta())
