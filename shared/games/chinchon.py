"""Chinchón: a rummy game for 2 to 4 players with a 40-card Spanish deck (rules/chinchon.txt).

Draw from the stock or the discard pile, then discard or close. Cards group only in 3,
4 or 7 (sets of a number, runs of a suit following 1..7, sota, caballo, rey); closing
with a run of 7 (a chinchón) wins the match, all seven grouped scores +10, and a close
con resto (3 + 3 and a loose 1, 2 or 3) scores minus the loose card, after which the
others may lay off on the closer's groups of 3. +50 wins, -50 eliminates. Con comodín:
the 1 de oros and two jokers are wild. The groups come from ``shared.engine.kit.melds``.

Every decision where the text is silent or ambiguous is in docs/games/chinchon.md.

Rules version 3 (duplicate deals): every deal's chance is drawn from (seed, deal number,
draw within the deal) (``State.by_deal``), so deal k is the same cards for the same seat at
every table of a duplicate group whatever was played before; each seat's hand is cut from
its own place in the deck, an eliminated seat's place going under the stock, so an
elimination at one table moves nobody else's cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from shared.engine import (
    HIDDEN,
    JOKER,
    OWNER,
    PUBLIC,
    TOP,
    Action,
    Event,
    Game,
    GameData,
    Option,
    RulesChange,
    State,
    Variant,
    rank,
    record_round,
    register,
    spanish_deck,
)
from shared.engine.actions import ActionType
from shared.engine.events import MAYBE_PRIVATE, PRIVATE, EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import (
    BOOL,
    CARD,
    CARDS,
    INT,
    INTS,
    SEAT,
    SEATS,
    Field,
    choice,
    list_of,
    obj,
)
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit import turns
from shared.engine.kit.dealing import DEALT, deal_by_place
from shared.engine.kit.ending import MATCH_FINISHED, end_match
from shared.engine.kit.melds import Groups, Melds, split
from shared.engine.kit.shedding import RESTOCKED
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.kit.tables import SPANISH_FACE
from shared.engine.kit.zones import hand, hand_card_action, not_in_hand, seat_zone
from shared.engine.language import SPANISH_DECK, Message, Say, Words

HAND_SIZE = 7
CHINCHON_SIZE = 7
ALL_GROUPED_POINTS = 10
RESTO_MAX = 3  # the loose card of a close con resto is a 1, 2 or 3
SEQUENCE = "spanish-sequence-40"  # 7 -> Sota
ONE_OF_OROS = "1O"
CLOSE_RANK = {"chinchon": 0, "grouped": 1, "resto": 2}  # which close is best, lower first
NATURAL = Melds(SEQUENCE, set_sizes=(3, 4), run_sizes=(3, 4, CHINCHON_SIZE))

CLOSE_WORDS = Words(
    {
        "chinchon": ("con chinchón", "with a chinchón"),
        "grouped": ("con todo ligado", "with every card grouped"),
        "resto": ("con resto", "with a loose card"),
    }
)
CLOSE = choice(*CLOSE_RANK, words=CLOSE_WORDS)
PILE_WORDS = Words({"stock": ("el mazo", "the stock"), "discard": ("el descarte", "the discard")})
GROUPS = Field("card-groups", "groups of cards")

# -- what the rules say to a player, in both languages -------------------------------------
EMPTY_PILE = Say(es="{pile} está vacío", en="{pile} pile is empty")
GROUPS_FROM_HAND = Say(
    es="los grupos deben usar cartas de tu mano, cada una una vez, sin la carta descartada",
    en="the groups must use cards of your hand, each once, without the discarded card",
)
NOT_A_GROUP = Say(
    es="no es un grupo: {cards} (los grupos son tríos o cuartetos de un número y escaleras"
    " de 3, 4 o 7 de un palo)",
    en="this is not a group: {cards} (sets of 3-4 of a number, runs of 3, 4 or 7 of a suit)",
)
GROUP_ALL = Say(
    es="para cerrar, liga las 7 cartas (3 + 4 o 7), o dos grupos de 3 y una carta de 1 a 3",
    en="to close, group all 7 cards (3 + 4 or 7), or two groups of 3 and one card of 1-3",
)
RESTO_TOO_HIGH = Say(
    es="la carta suelta, {card:bare}, vale {worth}: para cerrar con resto hace falta un 1,"
    " un 2 o un 3",
    en="the loose card {card:bare} is worth {worth}: closing con resto needs a 1, 2 or 3",
)
RESTO_LATER = Say(
    es="solo se cierra con resto cuando todos los jugadores han jugado un turno",
    en="closing con resto is allowed only once every player has played a turn",
)
GROUP_INDEX = Say(
    es="group debe ser el número de uno de los grupos del que cerró, de 0 a {last}",
    en="group must be the index of one of the closer's groups, 0 to {last}",
)
ONLY_THREES = Say(
    es="solo un grupo de 3 admite una carta, para hacer un grupo de 4",
    en="only a group of 3 takes a card, to make a group of 4",
)
DOES_NOT_FIT = Say(
    es="{card:cap} no hace de {cards} un grupo de 4",
    en="{card:cap} does not make {cards} a group of 4",
)


class Rules(Melds):
    """The grouping rules of one match, read from its options: sets of 3-4, runs of 3, 4 or 7."""

    __slots__ = ("wild_value",)

    def __init__(self, options: dict, natural_one: bool):
        wilds = ([ONE_OF_OROS] if options["wild_one_of_oros"] else []) + (
            [JOKER] if options["jokers"] else []
        )
        super().__init__(
            SEQUENCE, (3, 4), (3, 4, CHINCHON_SIZE), wilds, options["wilds_per_group"], natural_one
        )
        self.wild_value = options["wild_value"]

    def value(self, card: str) -> int:
        """Points a loose card costs."""
        return self.wild_value if card in self.wilds else SPANISH_FACE[rank(card)]

    def best_grouping(  # type: ignore[override]
        self, hand: Sequence[str], value: object = None
    ) -> tuple[Groups, list[str]]:
        """The groups that leave the fewest points loose, and the loose cards."""
        return super().best_grouping(hand, self.value)

    def best_closes(self, hand: Sequence[str], resto_allowed: bool) -> dict[str, Groups]:
        """For each card that can be discarded to close, the best groups for the other 7."""
        best: dict[str, tuple[tuple[int, int], Groups]] = {}
        # a close groups all but one or two cards: most hands are far from it
        for arrangement in self._covering(self.group_masks(hand, len(hand) - 2), len(hand)):
            groups, rest = split(hand, arrangement)
            if len(rest) == 1:
                options = [(rest[0], (CLOSE_RANK[self.close_kind(groups)], 0))]
            elif len(rest) == 2 and resto_allowed:
                options = [
                    (rest[i], (CLOSE_RANK["resto"], self.value(rest[1 - i])))
                    for i in (0, 1)
                    if self.value(rest[1 - i]) <= RESTO_MAX
                ]
            else:
                continue
            for discard, score in options:
                if discard not in best or score < best[discard][0]:
                    best[discard] = (score, groups)
        return {card: groups for card, (_score, groups) in best.items()}

    @staticmethod
    def _covering(masks: list[int], size: int) -> Iterator[tuple[int, ...]]:
        """The arrangements of one or two groups (``arrangements(masks, 2)``, in its order)
        that leave one or two of ``size`` cards loose, the only ones a close can be: the
        others are told by counting their cards, without splitting the hand."""
        fewest = size - 2
        counts = [m.bit_count() for m in masks]
        for i, first in enumerate(masks):
            grouped = counts[i]
            if fewest <= grouped < size:
                yield (first,)
            for j in range(i + 1, len(masks)):
                if fewest <= grouped + counts[j] < size and not first & masks[j]:
                    yield (first, masks[j])

    @staticmethod
    def close_kind(groups: Groups) -> str:
        """chinchon, grouped or resto, from the declared groups (already checked legal)."""
        if len(groups) == 1:
            return "chinchon" if NATURAL.is_group(groups[0]) else "grouped"
        return "grouped" if sum(map(len, groups)) == HAND_SIZE else "resto"


_RULES: dict[tuple, Rules] = {}


@dataclass
class ChinchonData(GameData):
    direction: int = 1  # kept for stored states; the direction is read from the options
    dealer: int = 0
    eliminated: list[int] = field(default_factory=list)
    plus: list[int] = field(default_factory=list)  # positive points per seat (ledger separate)
    minus: list[int] = field(default_factory=list)  # negative points per seat
    turns: int = 0  # turns completed in this hand
    restocks: int = 0
    closer: int | None = None
    close_kind: str | None = None
    melds: list[list[str]] = field(default_factory=list)  # the closer's declared groups
    loose: list[str] = field(default_factory=list)  # the closer's loose card
    laid_off: list[dict] = field(default_factory=list)


class Chinchon(Game):
    id = "chinchon"
    name = "Chinchón"
    rules_file = "chinchon.txt"
    players = (2, 4)
    data_type = ChinchonData
    options = {
        "ledger": Option(
            "net", "one net score, or separate positive and negative tallies", ("net", "separate")
        ),
        "win_points": Option(50, "positive points that win the match", minimum=1, maximum=1000),
        "lose_points": Option(50, "negative points that eliminate", minimum=1, maximum=1000),
        "wild_one_of_oros": Option(False, "the 1 de oros is a wild card (comodín)"),
        "jokers": Option(0, "jokers added to the deck, always wild", minimum=0, maximum=2),
        "wilds_per_group": Option(1, "most wild cards in one group", minimum=1, maximum=3),
        "wild_value": Option(25, "points a wild card left loose costs", minimum=0, maximum=100),
        "natural_one_of_oros": Option(
            True,
            "the wild 1 de oros in its own place (a 1 of a set, the 1 of an oros run) is natural:"
            " it is not one of the group's wilds",
            since=2,
        ),
        "direction": turns.DIRECTION,
        "max_restocks": Option(
            10,
            "restocks in a hand; when the stock runs out once more, the hand ends with no close "
            "and every player scores their loose cards",
            minimum=0,
            maximum=1000,
        ),
        **deals_by_number(since=3),
    }
    rules_version = 3
    changes = (
        RulesChange(
            2,
            "the wild 1 de oros in its own place is natural (before: always one of the wilds, so"
            " [1O, 2O, 3O, JK] and [1O, 1C, 1E, JK] were refused with one wild a group)",
            before={"natural_one_of_oros": False},
        ),
        deals_by_number_change(
            3,
            "; each seat's hand cut from its own place in the deck, an eliminated seat's "
            "place under the stock",
        ),
    )
    variants = {
        "base": Variant(
            "base", "Chinchón: 40 cards, groups of 3, 4 or 7, +50 wins and -50 eliminates."
        ),
        "con-comodin": Variant(
            "con-comodin",
            "Con comodín: the 1 de oros and two jokers are wild; a chinchón with a wild is +10.",
            {"wild_one_of_oros": True, "jokers": 2},
        ),
    }

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "a new hand: its number, its dealer and who plays first",
        round=INT.about("the hand's number, from 1"),
        dealer=SEAT,
        first=SEAT.about("who plays first"),
        says=Say(
            es="Mano {round}: da {dealer}, empieza {first}",
            en="Hand {round}: {dealer} deals, {first} plays first",
        ),
    )
    dealt = DEALT
    discard_started = EventType(
        "discard_started",
        "the card turned face up to start the discard pile",
        card=CARD,
        says=Say(es="Se descubre {card} en el descarte", en="{card:cap} starts the discard pile"),
    )
    drew = EventType(
        "drew",
        "a card drawn: from the stock (seen by the drawer only) or the discard pile (seen by all)",
        visibility=MAYBE_PRIVATE,
        seat=SEAT,
        source=choice("stock", "discard", description="the pile drawn from"),
        card=CARD,
    )
    restocked = RESTOCKED
    discarded = EventType(
        "discarded",
        "a card discarded face up, ending the turn",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} descarta {card}", en="{seat} discards {card}"),
    )
    closed = EventType(
        "closed",
        "a seat closes: its card put face down (seen by the closer only) and its groups shown",
        visibility=PRIVATE,
        seat=SEAT,
        close=CLOSE.about("how it closes: chinchon, grouped or resto"),
        groups=GROUPS.about("the closer's groups"),
        loose=CARDS.about("the closer's loose card (con resto), else none"),
        card=CARD.about("the card put face down"),
        says=Say(es="{seat} cierra {close}", en="{seat} closes {close}"),
    )
    laid_off = EventType(
        "laid_off",
        "a card added to one of the closer's groups of 3",
        seat=SEAT,
        card=CARD,
        group=INT.about("the index of the closer's group"),
        says=Say(
            es="{seat} liga {card} a un grupo del que cerró",
            en="{seat} lays {card} off on the closer's groups",
        ),
    )
    stopped = EventType(
        "done",
        "a seat stops laying off cards",
        seat=SEAT,
        says=Say(es="{seat} no liga más cartas", en="{seat} lays off no more cards"),
    )
    stock_exhausted = EventType(
        "stock_exhausted",
        "the stock ran out once more than restocks allow: the hand ends with no close",
        restocks=INT.about("the restocks of this hand"),
        says=Say(
            es="El mazo se acaba tras {restocks:vuelta|vueltas}: la mano termina sin cierre",
            en="The stock runs out after {restocks:restock|restocks}: the hand ends unclosed",
        ),
    )
    hand_scored = EventType(
        "hand_scored",
        "a hand is scored: the close, and every other hand's groups and loose cards",
        round=INT,
        close=CLOSE.or_null("how the hand was closed (null: the stock ran out)"),
        closer=SEAT.or_null("who closed"),
        hands=list_of(obj(seat=SEAT, groups=GROUPS, loose=CARDS), "the other hands, grouped"),
        points=INTS.about("per seat, its points this hand"),
        says=Say(es="Se cuenta la mano {round}", en="Hand {round} is scored"),
    )
    eliminated = EventType(
        "eliminated",
        "a seat reaches the losing points and leaves the match",
        seat=SEAT,
        says=Say(es="{seat} queda eliminado", en="{seat} is out of the match"),
    )
    match_finished = MATCH_FINISHED

    @drew.sentence
    def _drew_said(self, event: Event) -> Say:
        if event["source"] == "stock":
            return Say(es="{seat} roba {card} del mazo", en="{seat} draws {card} from the stock")
        return Say(
            es="{seat} coge {card} del descarte", en="{seat} takes {card} from the discard pile"
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "dealer": SEAT,
        "eliminated": SEATS.about("the seats out of the match"),
        "turns": INT.about("turns completed in this hand"),
        "resto_allowed": BOOL.about("whether closing con resto is allowed yet"),
        "closer": SEAT.or_null("who closed this hand"),
        "close_kind": CLOSE.or_null("how the hand was closed"),
        "melds": GROUPS.about("the closer's groups, with the cards laid off on them"),
        "loose": CARDS.about("the closer's loose card"),
        "laid_off": list_of(
            obj(seat=SEAT, card=CARD, group=INT), "the cards laid off on the closer's groups"
        ),
        "plus": INTS.about("per seat, its positive points (ledger separate)"),
        "minus": INTS.about("per seat, its negative points (ledger separate)"),
    }

    # -- the facts ---------------------------------------------------------------------
    stock_left = STOCK_LEFT
    resto = FactType(
        "resto_allowed",
        "whether closing con resto is allowed yet (every player has played a turn)",
        BOOL,
        label=Say(es="Cerrar con resto", en="Close with a loose card"),
    )
    closer = FactType(
        "closer",
        "who closed this hand, and how",
        obj(seat=SEAT, close=CLOSE),
        label=Say(es="Cierre", en="Close"),
        says=Say(
            es="{value.seat} ha cerrado {value.close}", en="{value.seat} closed {value.close}"
        ),
    )
    limits = FactType(
        "limits",
        "the points that win the match and those that put a seat out",
        obj(win=INT, lose=INT),
        label=Say(es="Límites", en="Limits"),
        says=Say(
            es="Gana quien llegue a +{value.win}; queda fuera quien llegue a -{value.lose}",
            en="+{value.win} wins; -{value.lose} is out",
        ),
    )
    score = FactType(
        "score",
        "a seat's points in the match",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )
    tallies = FactType(
        "tallies",
        "a seat's positive and negative points (ledger separate)",
        obj(plus=INT, minus=INT),
        per_seat=True,
        label=Say(es="Positivos y negativos", en="Plus and minus"),
        says=Say(
            es="{seat}: +{value.plus} / -{value.minus}", en="{seat}: +{value.plus} / -{value.minus}"
        ),
    )
    out = FactType(
        "eliminated",
        "a seat out of the match",
        BOOL,
        per_seat=True,
        label=Say(es="Eliminado", en="Out"),
        says=Say(es="{seat} está eliminado", en="{seat} is out"),
    )
    loose_points = FactType(
        "loose_points",
        "the reader's own hand: what its cards left out of its best groups would cost",
        INT,
        per_seat=True,
        label=Say(es="Sin ligar", en="Ungrouped"),
        says=Say(
            es="Sin ligar tienes {value:punto|puntos}", en="Your ungrouped cards cost {value}"
        ),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, opts, n = ChinchonData.of(state), state.options, state.players
        facts = [self.stock_left(len(state.cards("stock")))]
        if state.phase in ("draw", "discard"):
            facts.append(self.resto(self._resto_allowed(state)))
        if data.closer is not None and data.close_kind is not None:
            facts.append(self.closer({"seat": data.closer, "close": data.close_kind}))
        facts.append(self.limits({"win": opts["win_points"], "lose": opts["lose_points"]}))
        for s in range(n):
            facts.append(self.score(state.scores[s], s))
            if opts["ledger"] == "separate":
                facts.append(self.tallies({"plus": data.plus[s], "minus": data.minus[s]}, s))
            if s in data.eliminated:
                facts.append(self.out(True, s))
        cards = state.cards(hand(seat)) if seat is not None else []
        if cards and not state.finished:
            rules = self.rules_of(state)
            loose = rules.best_grouping(cards)[1]
            facts.append(self.loose_points(sum(map(rules.value, loose)), seat))
        return facts

    def rules_of(self, state: State) -> Rules:
        """The match's grouping rules (one object per distinct set of grouping options)."""
        options, natural_one = state.options, self.option(state, "natural_one_of_oros")
        key = (
            options["wild_one_of_oros"], options["jokers"], options["wilds_per_group"],
            options["wild_value"], natural_one,
        )  # fmt: skip
        found = _RULES.get(key)
        if found is None:
            found = _RULES[key] = Rules(options, natural_one)
        return found

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40, jokers=state.options["jokers"])

    def setup(self, state: State) -> list[Event]:
        n, data = state.players, ChinchonData.of(state)
        data.direction = turns.direction(state)
        data.dealer = state.rng().randrange(n)
        data.eliminated, data.plus, data.minus = [], [0] * n, [0] * n
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        state.new_deal()
        data = ChinchonData.of(state)
        cards = self.deck(state)
        state.shuffle(cards)
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("melds", s), s, PUBLIC)
        first = self._next_in(state, data.dealer)
        order = [first]
        while len(order) < state.players - len(data.eliminated):
            order.append(self._next_in(state, order[-1]))
        events = [self.new_deal(round=state.round, dealer=data.dealer, first=first)]
        if state.by_deal():  # seat s takes place s: an elimination leaves the others' cards
            state.zone("stock", None, HIDDEN).cards = cards
            events += deal_by_place(state, list(range(state.players)), order, HAND_SIZE)
        else:
            for s in order:
                state.zones[hand(s)].cards = cards[:HAND_SIZE]
                del cards[:HAND_SIZE]
                events.append(self.dealt(seat=s, cards=list(state.cards(hand(s))), visible_to=[s]))
        state.zone("discard", None, TOP).cards = [cards.pop()]
        state.zone("stock", None, HIDDEN).cards = cards  # the top of the stock is the end
        state.zone("closing", None, HIDDEN)
        data.turns, data.restocks, data.closer, data.close_kind = 0, 0, None, None
        data.melds, data.loose, data.laid_off = [], [], []
        events.append(self.discard_started(card=state.cards("discard")[-1]))
        return events + self._start_turn(state, first)

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = ChinchonData.of(state)
        events = []
        if not state.cards("stock"):
            if data.restocks >= state.options["max_restocks"]:
                return [self.stock_exhausted(restocks=data.restocks)] + self._score_hand(state)
            data.restocks += 1
            pile = state.zones["discard"].cards
            stock, pile[:] = pile[:-1], pile[-1:]
            state.shuffle(stock)
            state.zones["stock"].cards = stock
            events.append(self.restocked(count=len(stock)))
        state.phase = "draw"
        state.to_act = [seat]
        return events

    # -- the action table --------------------------------------------------------------
    draw = ActionType(
        "draw",
        "take the top card of the stock or of the discard pile",
        phases=("draw",),
        source=choice("stock", "discard", description="the pile to draw from"),
    )
    discard = hand_card_action("discard", "discard a card face up", ("discard",))
    close = ActionType(
        "close",
        "discard a card face down and show the other 7 as the declared groups",
        phases=("discard",),
        discard=Field("card", "the card put face down"),
        groups=Field("card-groups", "the groups the other 7 cards form"),
    )
    lay_off = ActionType(
        "lay_off",
        "add a card to one of the closer's groups of 3, making a group of 4",
        phases=("soltar",),
        card=CARD,
        group=Field("int", "the index of the closer's group"),
    )
    done = ActionType("done", "stop laying off cards", phases=("soltar",))

    @draw.candidates
    def _draws(self, state: State, seat: int) -> list[Action]:
        return [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]

    @draw.enumerate
    def _legal_draws(self, state: State, seat: int) -> list[Action]:
        """Faster than filtering: a turn of the hot loop is a draw and a discard."""
        zones = state.zones
        return [{"type": "draw", "source": p} for p in ("stock", "discard") if zones[p].cards]

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> Message | None:
        source = action["source"]
        return None if state.cards(source) else EMPTY_PILE(pile=PILE_WORDS[source])

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        source = action["source"]
        card = state.move_top(source, hand(seat))
        state.phase = "discard"
        if source == "stock":
            return [self.drew(seat=seat, source=source, card=card, visible_to=[seat])]
        return [self.drew(seat=seat, source=source, card=card)]

    @discard.handler
    def _discard(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move(action["card"], hand(seat), "discard")
        ChinchonData.of(state).turns += 1
        events = [self.discarded(seat=seat, card=action["card"])]
        return events + self._start_turn(state, self._next_in(state, seat))

    @close.candidates
    def _closes(self, state: State, seat: int) -> list[Action]:
        """One close per card that can be discarded to close, with the best groups for the
        other 7 (chinchón, then all grouped, then the lowest loose card)."""
        found = self.rules_of(state).best_closes(
            state.cards(hand(seat)), self._resto_allowed(state)
        )
        return [{"type": "close", "discard": c, "groups": g} for c, g in found.items()]

    close.enumerate(_closes)  # built legal: checking each close again would double the cost

    @close.refusal
    def _close_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        cards, discard, groups = state.cards(hand(seat)), action["discard"], action["groups"]
        if discard not in cards:
            return not_in_hand(state, seat, discard)
        shown = Counter(cards) - Counter([discard])
        if Counter(c for g in groups for c in g) - shown:
            return GROUPS_FROM_HAND
        rules = self.rules_of(state)
        for g in groups:
            if not rules.is_group(g):
                return NOT_A_GROUP(cards=list(g))
        sizes = sorted(map(len, groups))
        if sizes in ([3, 4], [7]):
            return None
        if sizes != [3, 3]:
            return GROUP_ALL
        loose = next(iter((shown - Counter(c for g in groups for c in g)).elements()))
        worth = rules.value(loose)
        if worth > RESTO_MAX:
            return RESTO_TOO_HIGH(card=loose, worth=worth)
        if not self._resto_allowed(state):
            return RESTO_LATER
        return None

    @close.handler
    def _close(self, state: State, seat: int, action: Action) -> list[Event]:
        discard, groups = action["discard"], action["groups"]
        data, rules = ChinchonData.of(state), self.rules_of(state)
        state.move(discard, hand(seat), "closing")
        held = state.zones[hand(seat)]
        loose = list((Counter(held.cards) - Counter(c for g in groups for c in g)).elements())
        state.zones[seat_zone("melds", seat)].cards = held.cards
        held.cards = []
        kind = rules.close_kind(groups)
        data.closer, data.close_kind = seat, kind
        data.melds, data.loose = [list(g) for g in groups], loose
        shown = [list(g) for g in groups]
        events = [
            self.closed(seat=seat, close=kind, groups=shown, loose=loose, card=discard,
                        visible_to=[seat])
        ]  # fmt: skip
        if kind != "resto":
            return events + self._score_hand(state)
        state.phase = "soltar"
        state.to_act = [s for s in self._seats_in(state) if s != seat]
        return events + self._after_soltar(state)

    @lay_off.candidates
    def _lay_off_candidates(self, state: State, seat: int) -> list[Action]:
        return [{"type": "lay_off", "card": c, "group": i} for c, i in self._lay_offs(state, seat)]

    @lay_off.refusal
    def _lay_off_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card, group = action["card"], action["group"]
        if missing := not_in_hand(state, seat, card):
            return missing
        melds = ChinchonData.of(state).melds
        if not 0 <= group < len(melds):
            return GROUP_INDEX(last=len(melds) - 1)
        if group not in self._open_groups(state):
            return ONLY_THREES
        if not self.rules_of(state).is_group(melds[group] + [card]):
            return DOES_NOT_FIT(card=card, cards=list(melds[group]))
        return None

    @lay_off.handler
    def _lay_off(self, state: State, seat: int, action: Action) -> list[Event]:
        card, group = action["card"], action["group"]
        data = ChinchonData.of(state)
        state.move(card, hand(seat), seat_zone("melds", data.closer))  # type: ignore[arg-type]
        data.melds[group].append(card)
        data.laid_off.append({"seat": seat, "card": card, "group": group})
        return [self.laid_off(seat=seat, card=card, group=group)] + self._after_soltar(state)

    @done.handler
    def _done(self, state: State, seat: int, action: Action) -> list[Event]:
        state.to_act.remove(seat)
        return [self.stopped(seat=seat)] + self._after_soltar(state)

    # -- the end of a hand -------------------------------------------------------------
    def _after_soltar(self, state: State) -> list[Event]:
        """Players with nothing left to lay off leave the phase; when nobody is left, score."""
        state.to_act = [s for s in state.to_act if self._can_lay_off(state, s)]
        return [] if state.to_act else self._score_hand(state)

    def _score_hand(self, state: State) -> list[Event]:
        data, rules, n = ChinchonData.of(state), self.rules_of(state), state.players
        closer, kind = data.closer, data.close_kind
        points = [0] * n
        if closer is not None:
            points[closer] = ALL_GROUPED_POINTS if kind == "grouped" else 0
            points[closer] -= sum(map(rules.value, data.loose))
        shown = []
        for s in self._seats_in(state):
            if s != closer:
                groups, loose = rules.best_grouping(state.cards(hand(s)))
                points[s] = -sum(map(rules.value, loose))
                shown.append({"seat": s, "groups": groups, "loose": loose})
        record_round(state, points)
        for s, p in enumerate(points):
            tally = data.plus if p > 0 else data.minus
            tally[s] += abs(p)
        events = [self.hand_scored(round=state.round, close=kind, closer=closer, points=points,
                                 hands=shown)]  # fmt: skip
        return events + self._after_hand(state)

    def _after_hand(self, state: State) -> list[Event]:
        data = ChinchonData.of(state)
        still_in = self._seats_in(state)
        if data.close_kind == "chinchon":
            return end_match(state, [data.closer])  # type: ignore[list-item]
        winners = [s for s in still_in if self._has_won(state, s)]
        if winners:
            return end_match(state, winners)
        out = [s for s in still_in if self._is_out(state, s)]
        data.eliminated += out
        events = [self.eliminated(seat=s) for s in out]
        survivors = [s for s in still_in if s not in out]
        if len(survivors) <= 1:
            last = survivors or out
            best = max(state.scores[s] for s in last)
            return events + end_match(state, [s for s in last if state.scores[s] == best])
        state.round += 1
        data.dealer = self._next_in(state, data.dealer)
        return events + self._deal(state)

    # -- rules as questions ----------------------------------------------------------
    def _resto_allowed(self, state: State) -> bool:
        """Has every player still in played a turn this hand?"""
        return ChinchonData.of(state).turns >= len(self._seats_in(state))

    def _lay_offs(self, state: State, seat: int) -> Iterator[tuple[str, int]]:
        """(card, group) pairs where ``seat`` can make one of the closer's 3-groups a 4-group."""
        rules, melds = self.rules_of(state), ChinchonData.of(state).melds
        for i in self._open_groups(state):
            for card in dict.fromkeys(state.cards(hand(seat))):
                if rules.is_group(melds[i] + [card]):
                    yield card, i

    def _can_lay_off(self, state: State, seat: int) -> bool:
        return next(self._lay_offs(state, seat), None) is not None

    @staticmethod
    def _open_groups(state: State) -> list[int]:
        return [i for i, g in enumerate(ChinchonData.of(state).melds) if len(g) == 3]

    @staticmethod
    def _has_won(state: State, seat: int) -> bool:
        win = state.options["win_points"]
        if state.options["ledger"] == "separate":
            return ChinchonData.of(state).plus[seat] >= win
        return state.scores[seat] >= win

    @staticmethod
    def _is_out(state: State, seat: int) -> bool:
        lose = state.options["lose_points"]
        if state.options["ledger"] == "separate":
            return ChinchonData.of(state).minus[seat] >= lose
        return state.scores[seat] <= -lose

    @staticmethod
    def _seats_in(state: State) -> list[int]:
        out = ChinchonData.of(state).eliminated
        return [s for s in range(state.players) if s not in out]

    @staticmethod
    def _next_in(state: State, seat: int) -> int:
        """The next seat in the direction of play that is not eliminated."""
        return turns.next_seat(state, seat, skip=ChinchonData.of(state).eliminated)

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = ChinchonData.of(state)
        return {
            "dealer": data.dealer,
            "eliminated": list(data.eliminated),
            "turns": data.turns,
            "resto_allowed": self._resto_allowed(state),
            "closer": data.closer,
            "close_kind": data.close_kind,
            "melds": [list(g) for g in data.melds],
            "loose": list(data.loose),
            "laid_off": [dict(x) for x in data.laid_off],
            "plus": list(data.plus),
            "minus": list(data.minus),
        }


register(Chinchon())
