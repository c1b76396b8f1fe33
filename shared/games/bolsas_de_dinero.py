"""Bolsas de dinero (rules/bolsas-de-dinero.txt): set collection scored by majority per number.

Two English decks and 4 jokers. On a turn a player spends 3 action points, each on drawing a
card from one of three face-up draw piles or laying a card from hand: opening a money bag
(a card face down) or filling one of their bags with cards of one number (jokers join a bag
that already has a card). At the end every number A..K is scored by majority: +5 for the
only bag of that number, +3 for the unique largest, nothing on a tie; −5 per empty bag and
−1 per card left in hand.

Every decision where the text is silent, and each option, is in docs/games/bolsas-de-dinero.md.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from shared.engine import (
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
from shared.engine.events import PRIVATE, EventType, Said
from shared.engine.facts import Fact, FactType
from shared.engine.fields import CARD, INT, INTS, SEAT, STR, Field, choice, list_of, map_of, obj
from shared.engine.kit.dealing import DEALT, deal_hands
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.majority import category_points
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.kit.turns import next_seat
from shared.engine.kit.zones import hand, not_in_hand, seat_zone
from shared.engine.language import ENGLISH_DECK, Message, Say
from shared.engine.state import HIDDEN

PILES = (0, 1, 2)
NUMBERS = range(1, 14)  # A .. K
LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
FULL_BAG, STOCK_OUT = "full_bag", "stock_out"
END_REASON = choice(FULL_BAG, STOCK_OUT, description="a bag is full, or the cards ran out")

# -- what the rules say to a player, in both languages -------------------------------------
PILE_EMPTY = Say(es="ese montón está vacío", en="that draw pile is empty")
NO_SUCH_BAG = Say(
    es="tienes {count:bolsa|bolsas}: la bolsa {bag} no existe",
    en="you have {count} bag(s): bag {bag} does not exist",
)
NOT_WHEN_OPENED = Say(
    es="una bolsa no se llena en el turno en que se abre",
    en="a bag cannot be filled in the turn it was opened",
)
JOKER_NEEDS_A_CARD = Say(
    es="un comodín solo va en una bolsa que ya tiene una carta",
    en="a joker goes only into a bag with a card in it",
)
ONE_BAG_A_NUMBER = Say(
    es="ya tienes una bolsa de {number}: una bolsa por número",
    en="you already have a bag of {number}: one bag per number",
)
OTHER_NUMBER = Say(
    es="en la bolsa {bag} van los {number}: un {other} no cabe",
    en="bag {bag} holds {number}s: a {other} cannot go in it",
)


#: ``pile(i)`` is ``"draw:<i>"``, looked up (drawing and the listing ask it every action).
pile = tuple(f"draw:{i}" for i in PILES).__getitem__


@functools.cache  # asked for every bag of a seat on every listing: each name made once
def bag(seat: int, k: int) -> str:
    """The face-up cards of ``seat``'s bag number ``k`` (its face-down card is in ``cover:<seat>``)."""
    return f"bag:{seat}:{k}"


#: Each seat's bag zone names made so far, by bag number (``bag_names``).
_BAG_NAMES: dict[int, list[str]] = {}


def bag_names(state: State, seat: int) -> list[str]:
    """The zone names of ``seat``'s bags, ``bag(seat, k)`` for each bag opened, named once."""
    count = len(state.zones[seat_zone("cover", seat)].cards)
    names = _BAG_NAMES.setdefault(seat, [])
    while len(names) < count:
        names.append(bag(seat, len(names)))
    return names[:count]


_RANK = {card: rank(card) for card in english_deck(jokers=1)}  # each card's rank, made once


def label(number: int) -> str:
    return LABELS.get(number, str(number))


@dataclass
class BolsasData(GameData):
    dealer: int = 0
    points: int = 3  # action points left to the player to act
    opened: list[int] = field(default_factory=list)  # bags the player opened this turn
    game: int = 1  # which game of the match (the option "games")
    end_reason: str | None = None


class BolsasDeDinero(Game):
    id = "bolsas-de-dinero"
    name = "Bolsas de dinero"
    rules_file = "bolsas-de-dinero.txt"
    players = (2, 8)
    data_type = BolsasData
    options = {
        "action_points": Option(3, "action points per turn", minimum=1, maximum=6),
        "hand_size": Option(4, "cards dealt to each player", minimum=1, maximum=10),
        "bags_per_number": Option(
            "one",
            "one bag per number per player, or several (counted together, scored per bag)",
            choices=("one", "many"),
        ),
        "full_bag": Option(8, "a bag with this many cards ends the game", minimum=2, maximum=12),
        "games": Option(1, "games in a match, points summed", choices=(1, 3)),
    }
    variants = {
        "base": Variant("base", "108 cards, 3 face-up draw piles, 3 action points a turn."),
    }

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    game_started = EventType(
        "game_started",
        "a game of the match is dealt",
        game=INT.about("which game of the match, from 1"),
        dealer=SEAT,
        says=Say(es="Juego {game}: da {dealer}", en="Game {game}: {dealer} deals"),
    )
    dealt = DEALT
    pile_refilled = EventType(
        "pile_refilled",
        "an empty draw pile gets the stock's top card, face up",
        pile=INT.about("the draw pile, from 0"),
        face_up=CARD,
    )
    turn = EventType(
        "turn",
        "a seat's turn: its action points",
        seat=SEAT,
        points=INT.about("its action points"),
        says=Say(
            es="Turno de {seat}: {points:punto|puntos} de acción",
            en="{seat}'s turn: {points:action point|action points}",
        ),
    )
    drew = EventType(
        "drew",
        "a seat takes a draw pile's face-up card (1 point)",
        seat=SEAT,
        pile=INT.about("the draw pile, from 0"),
        face_up=CARD,
    )
    bag_opened = EventType(
        "bag_opened",
        "a seat lays a card face down as a new money bag (1 point): only it sees the card",
        visibility=PRIVATE,
        seat=SEAT,
        bag=INT.about("the new bag's index, from 0"),
        card=CARD,
        says=Say(es="{seat} abre una bolsa con {card}", en="{seat} opens a bag with {card}"),
    )
    bag_filled = EventType(
        "bag_filled",
        "a seat puts a card face up into one of its bags (1 point)",
        seat=SEAT,
        bag=INT.about("the bag's index, from 0"),
        face_up=CARD,
    )
    game_over = EventType(
        "game_over",
        "a game is over and scored by majority per number",
        game=INT,
        reason=END_REASON,
        points=INTS.about("per seat, its points this game"),
        numbers=map_of(INTS, "per number shown (A, 2 … K), each seat's points for it"),
        empty_bags=INTS.about("per seat, its bags with no face-up card (−5 each)"),
        cards_in_hand=INTS.about("per seat, its cards left in hand (−1 each)"),
    )
    match_finished = MATCH_FINISHED.extend(reason=END_REASON)

    @pile_refilled.sentence
    def _refilled_said(self, event: Event) -> Said:
        said = Say(
            es="Se descubre {face_up} en el montón {n}", en="{face_up:cap} tops draw pile {n}"
        )
        return said, {"n": event["pile"] + 1}

    @drew.sentence
    def _drew_said(self, event: Event) -> Said:
        said = Say(
            es="{seat} coge {face_up} del montón {n}", en="{seat} takes {face_up} from pile {n}"
        )
        return said, {"n": event["pile"] + 1}

    @bag_filled.sentence
    def _filled_said(self, event: Event) -> Said:
        said = Say(
            es="{seat} mete {face_up} en su bolsa {n}", en="{seat} puts {face_up} in bag {n}"
        )
        return said, {"n": event["bag"] + 1}

    @game_over.sentence
    def _game_over_said(self, event: Event) -> Say:
        if event["reason"] == FULL_BAG:
            return Say(
                es="Fin del juego {game}: una bolsa está llena",
                en="Game {game} is over: a bag is full",
            )
        return Say(
            es="Fin del juego {game}: se acaban las cartas",
            en="Game {game} is over: the cards ran out",
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "points_left": INT.about("the action points left to the seat to act"),
        "opened_this_turn": INTS.about("the bags opened this turn (they cannot be filled yet)"),
        "bags": list_of(
            list_of(
                obj(
                    number=STR.or_null("its number: A, 2 … 10, J, Q, K (null: none face up)"),
                    count=INT.about("its face-up cards"),
                )
            ),
            "per seat, its bags",
        ),
        "game_number": INT.about("which game of the match"),
        "dealer": SEAT,
        "end_reason": END_REASON.or_null("why the last game ended"),
    }

    # -- the facts ---------------------------------------------------------------------
    points_left = FactType(
        "points_left",
        "the action points left to the seat to act",
        INT,
        label=Say(es="Puntos de acción", en="Action points"),
        says=Say(
            es="Puntos de acción: {value}",
            en="{value:action point|action points} left",
        ),
    )
    stock_left = STOCK_LEFT
    game_number = FactType(
        "game",
        "which game of the match this is",
        obj(number=INT, of=INT),
        label=Say(es="Juego", en="Game"),
        says=Say(es="Juego {value.number} de {value.of}", en="Game {value.number} of {value.of}"),
    )
    holdings = FactType(
        "holdings",
        "a seat's bags and the cards in its hand",
        obj(bags=INT, hand=INT),
        per_seat=True,
        label=Say(es="Bolsas y mano", en="Bags and hand"),
        says=Say(
            es="{seat}: {value.bags:bolsa|bolsas}, {value.hand:carta|cartas} en la mano",
            en="{seat}: {value.bags:bag|bags}, {value.hand:card|cards} in hand",
        ),
    )
    standing = FactType(
        "standing",
        "what a seat would score if the game ended now",
        INT,
        per_seat=True,
        label=Say(es="Si acabara ahora", en="If it ended now"),
        says=Say(
            es="{seat} sumaría {value:punto|puntos} ahora", en="{seat} would score {value} now"
        ),
    )
    total = FactType(
        "score",
        "a seat's points over the games played",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = BolsasData.of(state), state.players
        facts = []
        if not state.finished:
            facts.append(self.points_left(data.points))
        facts.append(self.stock_left(len(state.cards("stock"))))
        games = state.options["games"]
        if games > 1:
            facts.append(self.game_number({"number": data.game, "of": games}))
        standing = self.score(state)[0]
        for s in range(n):
            held = {
                "bags": len(state.cards(seat_zone("cover", s))),
                "hand": len(state.cards(hand(s))),
            }
            facts.append(self.holdings(held, s))
            if not state.finished:
                facts.append(self.standing(standing[s], s))
            if games > 1 or state.finished:
                facts.append(self.total(state.scores[s], s))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck(jokers=2, copies=2)

    def setup(self, state: State) -> list[Event]:
        state.zone("stock", None, HIDDEN).cards = self.deck(state)
        for i in PILES:
            state.zone(pile(i), None, PUBLIC)
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("cover", s), s, OWNER)
        BolsasData.of(state).dealer = state.rng().randrange(state.players)
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        data = BolsasData.of(state)
        stock = state.cards("stock")
        for name in list(state.zones):
            if name.startswith("bag:"):
                stock.extend(state.zones.pop(name).cards)
            elif name != "stock":
                stock.extend(state.zones[name].cards)
                state.zones[name].cards = []
        state.shuffle(stock)
        first = next_seat(state, data.dealer)
        order = [next_seat(state, first, i) for i in range(state.players)]
        events = [self.game_started(game=data.game, dealer=data.dealer)]
        events += deal_hands(state, order, state.options["hand_size"])
        events += self._refill(state)
        return events + self._start_turn(state, first)

    def _refill(self, state: State) -> list[Event]:
        events = []
        for i in PILES:
            if not state.cards(pile(i)) and state.cards("stock"):
                card = state.move_top("stock", pile(i))
                events.append(self.pile_refilled(pile=i, face_up=card))
        return events

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = BolsasData.of(state)
        state.phase, state.to_act = "turn", [seat]
        data.points, data.opened = state.options["action_points"], []
        return [self.turn(seat=seat, points=data.points)]

    # -- the action table --------------------------------------------------------------
    draw = ActionType(
        "draw", "take the card of a draw pile into your hand (1 point)", phases=("turn",),
        pile=Field("int", "the draw pile: 0, 1 or 2", choices=PILES),
    )  # fmt: skip
    open_ = ActionType(
        "open", "lay a card face down as a new money bag (1 point)", phases=("turn",), card=CARD
    )
    fill = ActionType(
        "fill", "put a card of your hand into one of your bags (1 point)", phases=("turn",),
        card=CARD, bag=Field("int", "which of your bags, from 0", minimum=0),
    )  # fmt: skip

    @draw.candidates
    def _draws(self, state: State, seat: int) -> list[Action]:
        return [{"type": "draw", "pile": i} for i in PILES]

    @draw.enumerate
    def _legal_draws(self, state: State, seat: int) -> list[Action]:
        """The piles with a card (``_draw_refused`` of each candidate)."""
        zones = state.zones
        return [{"type": "draw", "pile": i} for i in PILES if zones[pile(i)].cards]

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> Say | None:
        return None if state.cards(pile(action["pile"])) else PILE_EMPTY

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top(pile(action["pile"]), hand(seat))
        return [self.drew(seat=seat, pile=action["pile"], face_up=card)] + self._spent(state, seat)

    @open_.candidates
    def _opens(self, state: State, seat: int) -> list[Action]:
        return [{"type": "open", "card": c} for c in sorted(set(state.cards(hand(seat))))]

    @open_.enumerate
    def _legal_opens(self, state: State, seat: int) -> list[Action]:
        """Every candidate: each is a card of the hand, and any held card opens a bag."""
        return list(self._opens(state, seat))

    @open_.refusal
    def _open_refused(self, state: State, seat: int, action: Action) -> Message | None:
        return self._not_held(state, seat, action["card"])

    @open_.handler
    def _open(self, state: State, seat: int, action: Action) -> list[Event]:
        k = len(state.cards(seat_zone("cover", seat)))
        state.move(action["card"], hand(seat), seat_zone("cover", seat))
        state.zone(bag(seat, k), seat, PUBLIC)
        BolsasData.of(state).opened.append(k)
        events = [self.bag_opened(seat=seat, bag=k, card=action["card"], visible_to=[seat])]
        return events + self._spent(state, seat)

    @fill.candidates
    def _fills(self, state: State, seat: int) -> list[Action]:
        cards = sorted(set(state.cards(hand(seat))))
        bags = range(len(state.cards(seat_zone("cover", seat))))
        return [{"type": "fill", "card": c, "bag": k} for c in cards for k in bags]

    @fill.enumerate
    def _legal_fills(self, state: State, seat: int) -> list[Action]:
        """The same as filtering the candidates, with each bag's number worked out once and
        the bags a number may go in once per number (the cards of a number share them)."""
        numbers = self._numbers(state, seat)
        opened = BolsasData.of(state).opened
        free = [(k, number) for k, number in enumerate(numbers) if k not in opened]
        taken = {n for n in numbers if n is not None}
        one = state.options["bags_per_number"] == "one"
        bags_for: dict[int, list[int]] = {}  # by rank (the joker: 0): the bags it may go in
        actions = []
        rank_of = _RANK.__getitem__  # a hand holds the deck's cards
        for c in sorted(set(state.cards(hand(seat)))):
            r = rank_of(c)  # the joker: 0
            ks = bags_for.get(r)
            if ks is None:
                if c == JOKER:
                    ks = [k for k, number in free if number is not None]
                else:
                    empty_ok = not (one and r in taken)
                    ks = [k for k, n in free if n == r or (n is None and empty_ok)]
                bags_for[r] = ks
            actions += [{"type": "fill", "card": c, "bag": k} for k in ks]
        return actions

    @fill.refusal
    def _fill_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card, k = action["card"], action["bag"]
        problem = self._not_held(state, seat, card)
        if problem:
            return problem
        numbers = self._numbers(state, seat)
        if k >= len(numbers):
            return NO_SUCH_BAG(count=len(numbers), bag=k)
        if k in BolsasData.of(state).opened:
            return NOT_WHEN_OPENED
        number = numbers[k]
        if card == JOKER:
            return None if number is not None else JOKER_NEEDS_A_CARD
        if number is None:
            if state.options["bags_per_number"] == "one" and rank(card) in numbers:
                return ONE_BAG_A_NUMBER(number=label(rank(card)))
            return None
        if rank(card) != number:
            return OTHER_NUMBER(bag=k, number=label(number), other=label(rank(card)))
        return None

    @fill.handler
    def _fill(self, state: State, seat: int, action: Action) -> list[Event]:
        card, k = action["card"], action["bag"]
        state.move(card, hand(seat), bag(seat, k))
        events = [self.bag_filled(seat=seat, bag=k, face_up=card)]
        return events + self._spent(state, seat)

    def _spent(self, state: State, seat: int) -> list[Event]:
        """One action point is spent; with none left the turn ends."""
        data = BolsasData.of(state)
        data.points -= 1
        if data.points > 0:
            return []
        reason = self._end_reason(state)
        if reason:
            data.end_reason = reason
            return self._end_game(state, reason)
        nxt = next_seat(state, seat)
        return self._refill(state) + self._start_turn(state, nxt)

    # -- the end -------------------------------------------------------------------------
    def _end_reason(self, state: State) -> str | None:
        full, zones = state.options["full_bag"], state.zones
        for s in range(state.players):
            for name in bag_names(state, s):
                if len(zones[name].cards) >= full:
                    return FULL_BAG
        empty = sum(1 for i in PILES if not zones[pile(i)].cards)
        return STOCK_OUT if empty > len(zones["stock"].cards) else None

    def score(self, state: State) -> tuple[list[int], dict]:
        """Each seat's points for this game, and the details per number and penalty."""
        n = state.players
        counts = {number: [0] * n for number in NUMBERS}
        bags_of = {number: [0] * n for number in NUMBERS}
        empty = [0] * n
        for s in range(n):
            for k, number in enumerate(self._numbers(state, s)):
                if number is None:
                    empty[s] += 1
                else:
                    counts[number][s] += len(state.cards(bag(s, k)))
                    bags_of[number][s] += 1
        points = [0] * n
        per_number = {}
        for number in NUMBERS:
            got = category_points(counts[number])
            got = [p * max(1, b) for p, b in zip(got, bags_of[number], strict=True)]
            if any(counts[number]):
                per_number[label(number)] = got
            points = [a + b for a, b in zip(points, got, strict=True)]
        in_hand = [len(state.cards(hand(s))) for s in range(n)]
        points = [p - 5 * e - h for p, e, h in zip(points, empty, in_hand, strict=True)]
        return points, {"numbers": per_number, "empty_bags": empty, "cards_in_hand": in_hand}

    def _end_game(self, state: State, reason: str) -> list[Event]:
        data = BolsasData.of(state)
        points, details = self.score(state)
        record_round(state, points)
        events = [self.game_over(game=data.game, reason=reason, points=points, **details)]
        if data.game < state.options["games"]:
            data.game += 1
            state.round += 1
            data.dealer = next_seat(state, data.dealer)
            data.end_reason = None
            return events + self._deal(state)
        return events + end_match(state, highest(state.scores), reason=reason)

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _numbers(state: State, seat: int) -> list[int | None]:
        """The number of each of ``seat``'s bags (None: no face-up card in it yet)."""
        zones = state.zones
        out: list[int | None] = []
        for name in bag_names(state, seat):
            cards = zones[name].cards
            out.append(_RANK[cards[0]] if cards else None)
        return out

    @staticmethod
    def _not_held(state: State, seat: int, card: str) -> Message | None:
        return not_in_hand(state, seat, card)

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: BolsasData) -> BolsasData:
        """The view's names for the turn's points, opened bags and game number (see engine.sampling)."""
        data.points = view["points_left"]
        data.opened = list(view["opened_this_turn"])
        data.game = view["game_number"]
        return data

    def public_fields(self, state: State) -> dict:
        data = BolsasData.of(state)
        return {
            "points_left": data.points if not state.finished else 0,
            "opened_this_turn": list(data.opened),
            "bags": [
                [
                    {
                        "number": label(n) if n is not None else None,
                        "count": len(state.cards(bag(s, k))),
                    }
                    for k, n in enumerate(self._numbers(state, s))
                ]
                for s in range(state.players)
            ],  # fmt: skip
            "game_number": data.game,  # which game of the match (option games)
            "dealer": data.dealer,
            "end_reason": data.end_reason,
        }


register(BolsasDeDinero())
