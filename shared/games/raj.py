"""Raj (rules/raj.txt): a sealed-bid game; the rules as implemented and every decision
where the text is silent are in docs/games/raj.md.

Each player holds one suit, A (1) to K (13). Every round has a prize (two dice, or a
prize card); all players bid one card at once, sealed (``kit/sealed.py``); the bids are
revealed together, equal cards cancel each other, and the highest card left takes the
prize. The match ends when the hands are empty; the most points wins.

Rules version 2 (duplicate deals): every deal's chance is drawn from (seed, deal number,
draw within the deal) (``State.by_deal``), so deal k is the same cards for the same seat at
every table of a duplicate group whatever was played before; each round (a row of the score
sheet) draws its chance afresh: a prize card, a re-rolled die or a random default bid does
not move a later round's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

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
    rank,
    record_round,
    register,
)
from shared.engine.actions import ActionType
from shared.engine.cards import ENGLISH_RANKS
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARD, CARDS, INT, INTS, SEAT, Field, list_of, obj
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.sealed import Sealed
from shared.engine.kit.zones import hand, hand_card_action, seat_zone
from shared.engine.language import ENGLISH_DECK, Say, Words

SEALED = Sealed(
    "bid",
    "bid_committed",
    says=Say(es="{seat} puja {card}", en="{seat} bids {card}"),
    says_late=Say(es="Se acaba el tiempo: {seat} puja {card}", en="Time is up: {seat} bids {card}"),
)

PRIZE_CARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, -5, -4, -3, -2)
DICE = (0, 1)


def dice_prize(dice: list[int]) -> int:
    """Doubles are worth the face, negative; different faces their sum."""
    a, b = dice
    return -a if a == b else a + b


def round_prize(state: State) -> int:
    """This round's prize: what was carried over plus the dice (or the prize cards shown)."""
    data = RajData.of(state)
    return sum(data.pot) + (dice_prize(data.dice) if data.dice else 0)


def round_winner(values: list[int], to_lowest: bool = False) -> int | None:
    """The seat whose card survives cancelling and is highest (or lowest); None: all cancel."""
    counts = Counter(values)
    alive = [s for s, v in enumerate(values) if counts[v] == 1]
    if not alive:
        return None
    pick = min if to_lowest else max
    return pick(alive, key=values.__getitem__)


def seat_suit(seat: int) -> str:
    return ENGLISH_SUITS[seat % len(ENGLISH_SUITS)]


DIE_WORDS = Words(
    {0: ("el primer dado", "the first die"), 1: ("el segundo dado", "the second die")}
)
ONLY_FORZAR_NEGATIVO = Say(
    es="igualar los dados solo se puede en forzar-negativo (opción force_negative)",
    en="forcing a negative prize is only in forzar-negativo (option force_negative)",
)


@dataclass
class RajData(GameData):
    dice: list[int] | None = None  # the two dice faces (None with prize cards)
    pot: list[int] = field(default_factory=list)  # carried dice prizes, or the prize cards shown
    prize_deck: list[int] = field(default_factory=list)  # prize cards not yet revealed
    won: list[list[int]] = field(default_factory=list)  # per seat, the prizes it took
    last_winner: int | None = None
    last_reveal: dict | None = None  # the last round's bids, winner and prize, for views


class Raj(Game):
    id = "raj"
    name = "Raj"
    rules_file = "raj.txt"
    players = (3, 8)
    data_type = RajData
    options = {
        "prizes": Option("dice", "where each round's prize comes from", choices=("dice", "cards")),
        "force_negative": Option(False, "the dice keeper may set one die to the other's face"),
        "removed_per_player": Option(
            0, "cards each player removes unseen at the start", minimum=0, maximum=10
        ),
        "negative_prize_to": Option(
            "highest", "which surviving bid takes a negative prize", choices=("highest", "lowest")
        ),
        "carry_over": Option(
            True, "when every bid cancels, the prize is added to the next round's"
        ),
        "tie_break": Option(
            "shared",
            "a final tie: shared, or more positive prizes wins",
            choices=("shared", "positive-prizes"),
        ),
        "bid_seconds": Option(
            60.0, "seconds to commit a bid before the timeout", minimum=1.0, maximum=3600.0
        ),
        "timeout_play": Option(
            "lowest",
            "the card played for a seat that did not bid in time",
            choices=("lowest", "random"),
        ),
        **deals_by_number(since=2),
    }
    rules_version = 2
    changes = (deals_by_number_change(2),)
    variants = {
        "base": Variant("base", "Raj: dice prizes, the highest surviving bid takes the prize."),
        "dos-jugadores": Variant(
            "dos-jugadores", "Two players; each removes 3 random cards unseen (10 rounds).",
            {"removed_per_player": 3}, players=(2, 2),
        ),
        "forzar-negativo": Variant(
            "forzar-negativo",
            "The winner may set one die equal to the other instead of re-rolling.",
            {"force_negative": True},
        ),
        "cartas-de-premios": Variant(
            "cartas-de-premios",
            "13 prize cards (+2..+10, -5..-2) instead of dice.",
            {"prizes": "cards"},
        ),
    }  # fmt: skip

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    removed = EventType(
        "removed",
        "cards a seat sets aside unseen at the start (dos jugadores)",
        seat=SEAT,
        count=INT,
        says=Say(
            es="{seat} aparta {count:carta|cartas} sin verlas",
            en="{seat} sets {count:card|cards} aside unseen",
        ),
    )
    dice_rolled = EventType(
        "dice_rolled",
        "the dice rolled for the round's prize (at the start), or one die rolled again",
        seat=SEAT.or_null("who rolled one die again; null: the first roll"),
        die=Field("int", "which die was rolled again", choices=DICE, words=DIE_WORDS).maybe(),
        dice=INTS.about("the two dice"),
        prize=INT.about("the round's prize they make"),
    )
    dice_forced = EventType(
        "dice_forced",
        "one die set to the other's face, for a negative prize",
        seat=SEAT,
        die=Field("int", "the die that was set", choices=DICE, words=DIE_WORDS),
        dice=INTS,
        prize=INT,
        says=Say(
            es="{seat} iguala {die} al otro: {dice}, premio {prize}",
            en="{seat} sets {die} to the other's face: {dice}, prize {prize}",
        ),
    )
    prize_revealed = EventType(
        "prize_revealed",
        "the next prize card turned up",
        prize_card=INT.about("the card's value"),
        prize=INT.about("the round's prize, with any carried over"),
        says=Say(
            es="Carta de premio: {prize_card}; se puja por {prize}",
            en="Prize card: {prize_card}; the prize is {prize}",
        ),
    )
    bids_open = EventType(
        "bids_open",
        "every seat bids at once, sealed, for the round's prize",
        round=INT,
        prize=INT,
        says=Say(
            es="Ronda {round}: se puja por {prize:punto|puntos}",
            en="Round {round}: bidding for {prize:point|points}",
        ),
    )
    bid_committed = SEALED.commit_event
    bids_revealed = EventType(
        "bids_revealed",
        "every bid shown at once, by seat",
        round=INT,
        bids=CARDS.about("each seat's bid, in seat order"),
        says=Say(es="Se descubren las pujas: {bids}", en="The bids are shown: {bids}"),
    )
    round_won = EventType(
        "round_won",
        "the highest bid left after equal ones cancel takes the prize",
        seat=SEAT,
        prize=INT,
        says=Say(
            es="{seat} se lleva el premio: {prize:punto|puntos}",
            en="{seat} takes the prize: {prize:point|points}",
        ),
    )
    prize_carried = EventType(
        "prize_carried",
        "every bid cancelled: the prize is added to the next round's",
        prize=INT,
        says=Say(
            es="Todas las pujas se anulan: el premio de {prize} pasa a la ronda siguiente",
            en="Every bid cancels: the prize of {prize} carries over to the next round",
        ),
    )
    prize_discarded = EventType(
        "prize_discarded",
        "every bid cancelled, without carry-over: the prize is lost",
        prize=INT,
        says=Say(
            es="Todas las pujas se anulan: el premio de {prize} se pierde",
            en="Every bid cancels: the prize of {prize} is lost",
        ),
    )
    match_finished = MATCH_FINISHED

    @dice_rolled.sentence
    def _dice_rolled_said(self, event: Event) -> Say:
        if event["seat"] is None:
            return Say(
                es="Se tiran los dados: {dice}; se puja por {prize}",
                en="The dice are rolled: {dice}; the prize is {prize}",
            )
        return Say(
            es="{seat} vuelve a tirar {die}: {dice}, premio {prize}",
            en="{seat} rolls {die} again: {dice}, prize {prize}",
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "prize": INT.or_null("the prize of this round; null once the match is over"),
        "dice": INTS.or_null("the two dice; null with prize cards"),
        "carried": INTS.about("dice prizes carried over from rounds where every bid cancelled"),
        "prize_cards": INTS.about("with prize cards: the cards in play this round"),
        "prizes_left": INTS.about("with prize cards: the ones not yet turned up"),
        "committed": list_of(BOOL, "per seat, whether it has bid this round"),
        "won": list_of(INTS, "per seat, the prizes it took"),
        "last_reveal": obj(
            "the last round's bids, by seat, its winner (null: every bid cancelled) and prize",
            bids=CARDS,
            winner=SEAT.or_null(),
            prize=INT,
        ).or_null(),
        "dice_keeper": SEAT.or_null("in phase dice: who rolls again or forces the dice"),
    }
    private_view = {"my_bid": CARD.or_null("the card you bid this round, sealed until the reveal")}

    # -- the facts ---------------------------------------------------------------------
    prize = FactType(
        "prize",
        "the prize being bid for this round",
        INT,
        label=Say(es="Premio", en="Prize"),
        says=Say(es="Se puja por {value:punto|puntos}", en="Bidding for {value:point|points}"),
    )
    dice = FactType(
        "dice", "the two dice that make the prize", INTS, label=Say(es="Dados", en="Dice")
    )
    carried = FactType(
        "carried",
        "prizes carried over from rounds where every bid cancelled, part of the prize",
        INTS,
        label=Say(es="Acumulado", en="Carried over"),
    )
    prize_cards = FactType(
        "prize_cards",
        "the prize cards in play this round",
        INTS,
        label=Say(es="Cartas de premio", en="Prize cards"),
    )
    prizes_left = FactType(
        "prizes_left",
        "prize cards not yet turned up",
        INT,
        label=Say(es="Cartas de premio por salir", en="Prize cards to come"),
    )
    score = FactType(
        "score",
        "a seat's points: the prizes it took",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )
    has_bid = FactType(
        "bid_in",
        "a seat that has bid this round (its card stays sealed)",
        BOOL,
        per_seat=True,
        label=Say(es="Ha pujado", en="Has bid"),
        says=Say(es="{seat} ya ha pujado", en="{seat} has bid"),
    )
    my_bid = FactType(
        "my_bid",
        "the card you bid this round (only your view shows it)",
        CARD,
        per_seat=True,
        label=Say(es="Tu puja", en="Your bid"),
        says=Say(es="Tu puja: {value:bare}", en="Your bid: {value:bare}"),
    )
    keeper = FactType(
        "dice_keeper",
        "who rolls one die again (or forces them) before the round's bids",
        BOOL,
        per_seat=True,
        label=Say(es="Dados", en="Dice"),
        says=Say(es="{seat} decide los dados", en="{seat} chooses the dice"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = RajData.of(state), state.players
        facts: list[Fact] = []
        if not state.finished:
            facts.append(self.prize(round_prize(state)))
        if data.dice:
            facts.append(self.dice(list(data.dice)))
        if self._uses_cards(state):
            if data.pot:
                facts.append(self.prize_cards(list(data.pot)))
            facts.append(self.prizes_left(len(data.prize_deck)))
        elif data.pot:
            facts.append(self.carried(list(data.pot)))
        if state.phase == "dice" and state.to_act:
            facts.append(self.keeper(True, state.to_act[0]))
        if state.phase == "bid":
            facts.extend(self.has_bid(True, s) for s in range(n) if SEALED.committed(state, s))
        if seat is not None and (mine := SEALED.card_of(state, seat)) is not None:
            facts.append(self.my_bid(mine, seat))
        facts.extend(self.score(state.scores[s], s) for s in range(n))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return [f"{r}{seat_suit(s)}" for s in range(state.players) for r in ENGLISH_RANKS]

    def setup(self, state: State) -> list[Event]:
        removed = state.options["removed_per_player"]
        events: list[Event] = []
        for s in range(state.players):
            cards = state.zone(hand(s), s, OWNER)
            cards.cards = [f"{r}{seat_suit(s)}" for r in ENGLISH_RANKS]
            SEALED.create(state, [s])
            if removed:
                state.shuffle(cards.cards)
                state.zone(seat_zone("removed", s), s, HIDDEN).cards = cards.cards[:removed]
                cards.cards = sorted(cards.cards[removed:], key=rank)
                events.append(self.removed(seat=s, count=removed))
        state.zone("discard", None, PUBLIC)
        data = RajData.of(state)
        data.prize_deck = sorted(PRIZE_CARDS) if self._uses_cards(state) else []
        data.won = [[] for _ in range(state.players)]
        if self._uses_cards(state):
            events.extend(self._reveal_prize_card(state))
        else:
            rng = state.rng()
            data.dice = [rng.randint(1, 6), rng.randint(1, 6)]
            events.append(
                self.dice_rolled(seat=None, dice=list(data.dice), prize=round_prize(state))
            )
        return events + self._open_bids(state)

    def _open_bids(self, state: State) -> list[Event]:
        state.phase = "bid"
        SEALED.open(state, range(state.players), state.options["bid_seconds"])
        return [self.bids_open(round=state.round, prize=round_prize(state))]

    def _reveal_prize_card(self, state: State) -> list[Event]:
        data = RajData.of(state)
        card = data.prize_deck.pop(state.rng().randrange(len(data.prize_deck)))
        data.pot.append(card)
        return [self.prize_revealed(prize_card=card, prize=round_prize(state))]

    # -- the action table --------------------------------------------------------------
    bid = hand_card_action(  # a hand is one suit's 15 cards: no twins
        "bid", "commit one card of your hand, sealed", ("bid",), twins=False
    )
    die = Field("int", "which die: 0 or 1", choices=DICE, words=DIE_WORDS)
    reroll = ActionType("reroll", "roll one die again", phases=("dice",), die=die)
    force = ActionType("force", "set one die to the other's face", phases=("dice",), die=die)

    @bid.handler
    def _bid(self, state: State, seat: int, action: Action) -> list[Event]:
        events = SEALED.commit(state, seat, action["card"], hand(seat))
        return events + (self._resolve(state) if not state.to_act else [])

    @reroll.candidates
    @reroll.enumerate
    def _rerolls(self, state: State, seat: int) -> list[Action]:
        """Either die may be rolled again: every candidate is legal."""
        return [{"type": "reroll", "die": d} for d in DICE]

    @reroll.handler
    def _reroll(self, state: State, seat: int, action: Action) -> list[Event]:
        dice = RajData.of(state).dice
        assert dice is not None
        dice[action["die"]] = state.rng().randint(1, 6)
        return self._dice_changed(state, seat, self.dice_rolled, action["die"])

    @force.candidates
    def _forces(self, state: State, seat: int) -> list[Action]:
        return [{"type": "force", "die": d} for d in DICE]

    @force.enumerate
    def _forces_now(self, state: State, seat: int) -> list[Action]:
        return list(self._forces(state, seat)) if state.options["force_negative"] else []

    @force.refusal
    def _force_refused(self, state: State, seat: int, action: Action) -> Say | None:
        if not state.options["force_negative"]:
            return ONLY_FORZAR_NEGATIVO
        return None

    @force.handler
    def _force(self, state: State, seat: int, action: Action) -> list[Event]:
        dice = RajData.of(state).dice
        assert dice is not None
        die = action["die"]
        dice[die] = dice[1 - die]
        return self._dice_changed(state, seat, self.dice_forced, die)

    def _dice_changed(self, state: State, seat: int, kind: EventType, die: int) -> list[Event]:
        dice = RajData.of(state).dice
        assert dice is not None
        events = [kind(seat=seat, die=die, dice=list(dice), prize=round_prize(state))]
        return events + self._open_bids(state)

    def on_timeout(self, state: State) -> list[Event]:
        """The commit deadline passed: every seat still to bid plays its default card."""
        hands = {s: hand(s) for s in range(state.players)}
        events = SEALED.commit_defaults(state, hands, state.options["timeout_play"])
        return events + self._resolve(state)

    def _resolve(self, state: State) -> list[Event]:
        """Reveal every bid at once, cancel equal cards, then award or carry the prize."""
        data, n = RajData.of(state), state.players
        bids = SEALED.reveal(state, range(n), "discard")
        prize = round_prize(state)
        to_lowest = prize < 0 and state.options["negative_prize_to"] == "lowest"
        winner = round_winner([rank(c) for c in bids], to_lowest)
        events = [self.bids_revealed(round=state.round, bids=bids)]
        points = [0] * n
        if winner is not None:
            points[winner] = prize
            data.won[winner].extend(data.pot if self._uses_cards(state) else [prize])
            data.pot = []
            data.last_winner = winner
            events.append(self.round_won(seat=winner, prize=prize))
        elif state.options["carry_over"]:
            if data.dice is not None:
                data.pot.append(dice_prize(data.dice))
            events.append(self.prize_carried(prize=prize))
        else:
            data.pot = []
            events.append(self.prize_discarded(prize=prize))
        data.last_reveal = {"bids": bids, "winner": winner, "prize": prize}
        record_round(state, points)
        if not state.cards(hand(0)):
            return events + self._end(state)
        state.round += 1
        state.new_deal()  # a round is a deal of the score sheet: its draws counted afresh
        if self._uses_cards(state):
            return events + self._reveal_prize_card(state) + self._open_bids(state)
        state.phase = "dice"
        state.to_act = [self._dice_keeper(state)]
        return events

    def _end(self, state: State) -> list[Event]:
        winners = highest(state.scores)
        if len(winners) > 1 and state.options["tie_break"] == "positive-prizes":
            most = max(self._positive_prizes(state, s) for s in winners)
            winners = [s for s in winners if self._positive_prizes(state, s) == most]
        RajData.of(state).pot = []  # a carry-over left after the last round is lost
        return end_match(state, winners)

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _uses_cards(state: State) -> bool:
        return state.options["prizes"] == "cards"

    @staticmethod
    def _dice_keeper(state: State) -> int:
        last = RajData.of(state).last_winner
        return 0 if last is None else last

    @staticmethod
    def _positive_prizes(state: State, seat: int) -> int:
        return sum(1 for p in RajData.of(state).won[seat] if p > 0)

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: RajData) -> RajData:
        """The prizes as the view shows them (see engine.sampling)."""
        data.pot = list(
            view["prize_cards"] if view["options"]["prizes"] == "cards" else view["carried"]
        )
        data.prize_deck = list(view["prizes_left"])
        data.last_winner = view["last_reveal"]["winner"] if view["last_reveal"] else None
        return data

    def public_fields(self, state: State) -> dict:
        data = RajData.of(state)
        cards = self._uses_cards(state)
        return {
            "prize": None if state.finished else round_prize(state),
            "dice": list(data.dice) if data.dice else None,
            "carried": list(data.pot) if not cards else [],
            "prize_cards": list(data.pot) if cards else [],
            "prizes_left": list(data.prize_deck),
            "committed": SEALED.flags(state),
            "won": [list(w) for w in data.won],
            "last_reveal": dict(data.last_reveal) if data.last_reveal else None,
            "dice_keeper": state.to_act[0] if state.phase == "dice" else None,
        }

    def private_fields(self, state: State, seat: int) -> dict:
        return {"my_bid": SEALED.card_of(state, seat)}


register(Raj())
