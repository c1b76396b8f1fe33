"""99 (rules/noventa-y-nueve.txt): an adding game with two English decks and four jokers; the
rules as implemented and every decision where the text is silent are in
docs/games/noventa-y-nueve.md.

Players lay one card at a time on a running total that starts at 0 and never goes below
0: A-9 add their number, a 10 adds or takes 10 as the player chooses, a J takes 10, a Q
adds nothing, a K sets the total to 99 and a joker to 0. Whoever takes the total past 99
loses; a player holding three cards of one number (a trío) wins. After each card the
player draws from the stock (``kit/shedding.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from shared.engine import (
    JOKER,
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
from shared.engine.actions import CARD, ActionType, Field
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import CARDS, INT, SEAT, SEATS, choice, obj
from shared.engine.kit import shedding
from shared.engine.kit.dealing import DEALT
from shared.engine.kit.ending import MATCH_FINISHED, end_match
from shared.engine.kit.table_facts import CARDS_HELD, STOCK_LEFT
from shared.engine.kit.turns import DIRECTION, next_seat
from shared.engine.kit.zones import hand, not_in_hand
from shared.engine.language import ENGLISH_DECK, Message, Say

LIMIT = 99
HAND_SIZE = 3
PLUS, MINUS = "plus", "minus"
TEN, JACK, QUEEN, KING = 10, 11, 12, 13
BUST, TRIO, LAST_WITH_TOKENS = "bust", "trío", "last player with tokens"
TEN_WAY = Field("str", "for a 10: add or take 10", choices=(PLUS, MINUS))

# -- what the rules say to a player, in both languages -------------------------------------
SAY_TEN = Say(
    es="un 10 suma o resta 10: añade el campo 'ten' (plus o minus)",
    en="a 10 adds or takes 10: add the field 'ten' (plus or minus)",
)
ONLY_TEN = Say(es="solo un 10 dice plus o minus", en="only a 10 says plus or minus")


def new_total(total: int, card: str, ten: str | None = None) -> int:
    """The running total after ``card``; never below 0 (it may go past 99: that loses)."""
    if card == JOKER:
        return 0
    r = rank(card)
    if r == KING:
        return LIMIT
    if r == QUEEN:
        return total
    if r == JACK or (r == TEN and ten == MINUS):
        return max(0, total - 10)
    return total + r  # A-9 their number, a 10 added


def has_trio(cards: list[str]) -> bool:
    """Three cards of the same number (three jokers count too)."""
    return any(n >= 3 for n in Counter(rank(c) for c in cards).values())


def first_trio(state: State, order: list[int]) -> int | None:
    """The first seat in ``order`` whose hand is a trío (checked after a deal)."""
    return next((s for s in order if has_trio(state.cards(hand(s)))), None)


@dataclass
class NoventaData(GameData):
    total: int = 0
    first: int = 0  # who opened the current deal
    out: list[int] = field(default_factory=list)  # seats without tokens left, in order
    last_play: dict | None = None  # the last card laid, the choice for a 10 and the total


class NoventaYNueve(Game):
    id = "noventa-y-nueve"
    name = "99"
    rules_file = "noventa-y-nueve.txt"
    players = (2, 10)
    data_type = NoventaData
    options = {
        "direction": DIRECTION,
        "count_starter": Option(False, "the face-up starter card counts towards the total"),
        "tokens": Option(
            0,
            "0: one deal decides; otherwise each player starts with this many tokens, losing one"
            " per deal lost, and the last player with tokens wins",
            minimum=0,
            maximum=9,
        ),
    }
    variants = {"base": Variant("base", "99: do not take the total past 99; a trío wins.")}

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "a new deal: its number and who plays first",
        round=INT,
        first=SEAT.about("who plays first"),
        says=Say(es="Reparto {round}: empieza {first}", en="Deal {round}: {first} starts"),
    )
    dealt = DEALT
    turned_up = shedding.TURNED_UP
    total = EventType(
        "total",
        "the total the deal starts from (the starter card's value, by option)",
        total=INT,
        says=Say(es="El total empieza en {total}", en="The total starts at {total}"),
    )
    played = EventType(
        "played",
        "a card laid on the pile, and the total it makes",
        seat=SEAT,
        card=CARD,
        ten=TEN_WAY.or_null("for a 10, whether it added or took 10"),
        total=INT,
    )
    drew = shedding.DREW
    restocked = shedding.RESTOCKED
    bust = EventType(
        "bust",
        "a card took the total past 99: its player loses the deal",
        seat=SEAT,
        total=INT,
        says=Say(es="{seat} se pasa de 99: {total}", en="{seat} goes past 99: {total}"),
    )
    trio = EventType(
        "trio",
        "a hand of three cards of one number wins the deal",
        seat=SEAT,
        cards=CARDS.about("the hand"),
        says=Say(es="{seat} tiene un trío: {cards}", en="{seat} has a trío: {cards}"),
    )
    tokens_lost = EventType(
        "tokens_lost",
        "each loser of the deal gives up a token",
        seats=SEATS.about("the losers"),
    )
    eliminated = EventType(
        "eliminated",
        "a player without tokens is out of the match",
        seat=SEAT,
        says=Say(es="{seat} se queda sin fichas: queda fuera", en="{seat} has no tokens left: out"),
    )
    match_finished = MATCH_FINISHED.extend(
        loser=SEAT.about("who went past 99").maybe(),
        reason=choice(BUST, TRIO, LAST_WITH_TOKENS, description="how the match ended"),
    )

    @played.sentence
    def _played_said(self, event: Event) -> Say:
        if event["ten"] == PLUS:
            return Say(
                es="{seat} juega {card} y suma 10: {total}",
                en="{seat} plays {card}, plus 10: {total}",
            )
        if event["ten"] == MINUS:
            return Say(
                es="{seat} juega {card} y resta 10: {total}",
                en="{seat} plays {card}, minus 10: {total}",
            )
        return Say(es="{seat} juega {card}: {total}", en="{seat} plays {card}: {total}")

    @tokens_lost.sentence
    def _tokens_lost_said(self, event: Event) -> Say:
        if len(event["seats"]) == 1:
            return Say(es="{seats} pierde una ficha", en="{seats} loses a token")
        return Say(es="{seats} pierden una ficha", en="{seats} lose a token each")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "total": INT.about("the running total"),
        "last_play": obj(
            "the last card laid, the choice for a 10 and the total it made",
            seat=SEAT,
            card=CARD,
            ten=TEN_WAY.or_null(),
            total=INT,
        ).or_null(),
        "out": SEATS.about("seats without tokens left, in the order they went out"),
    }

    # -- the facts ---------------------------------------------------------------------
    running = FactType(
        "total",
        "the running total; past 99 loses",
        INT,
        label=Say(es="Total", en="Total"),
        says=Say(es="Total: {value} de 99", en="Total: {value} of 99"),
    )
    stock = STOCK_LEFT
    tokens = FactType(
        "tokens",
        "tokens a seat has left (a player without any is out)",
        INT,
        per_seat=True,
        label=Say(es="Fichas", en="Tokens"),
        says=Say(es="{seat}: {value:ficha|fichas}", en="{seat}: {value:token|tokens}"),
    )
    in_hand = CARDS_HELD

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = NoventaData.of(state), state.players
        facts = [self.running(data.total), self.stock(len(state.cards("stock")))]
        if state.options["tokens"]:
            facts.extend(self.tokens(state.scores[s], s) for s in range(n))
        facts.extend(self.in_hand(len(state.cards(hand(s))), s) for s in range(n))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck(jokers=2, copies=2)  # two decks of 54: four jokers

    def setup(self, state: State) -> list[Event]:
        tokens = state.options["tokens"]
        state.scores = [tokens] * state.players
        return self._deal(state, state.rng().randrange(state.players))

    def _in_play(self, state: State) -> list[int]:
        out = NoventaData.of(state).out
        return [s for s in range(state.players) if s not in out]

    def _order(self, state: State, first: int) -> list[int]:
        """Seats still in, in the order of play from ``first``."""
        out = NoventaData.of(state).out
        seats = [next_seat(state, first, i) for i in range(state.players)]
        return [s for s in seats if s not in out]

    def _deal(self, state: State, first: int) -> list[Event]:
        """Shuffle every card, deal three to each player still in, turn up the starter."""
        data = NoventaData.of(state)
        order = self._order(state, first)
        data.first, data.last_play = first, None
        events = [self.new_deal(round=state.round, first=first)]
        events += shedding.new_table(state, self.deck(state), HAND_SIZE, order)
        starter = shedding.top(state)
        data.total = new_total(0, starter, PLUS) if state.options["count_starter"] else 0
        events.append(self.total(total=data.total))
        dealt_trio = first_trio(state, order)  # several: the first in the order of play wins
        if dealt_trio is not None:
            return events + self._trio(state, dealt_trio)
        state.phase = "play"
        state.to_act = [first]
        return events

    # -- the action table --------------------------------------------------------------
    play = ActionType(
        "play",
        "lay a card on the pile and change the total (a 10 says plus or minus), then draw",
        phases=("play",),
        card=CARD,
        ten=TEN_WAY.maybe(),
    )

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        actions: list[Action] = []
        for c in dict.fromkeys(state.cards(hand(seat))):  # two equal cards: one action
            if c != JOKER and rank(c) == TEN:
                actions += [{"type": "play", "card": c, "ten": t} for t in (PLUS, MINUS)]
            else:
                actions.append({"type": "play", "card": c})
        return actions

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card, ten = action["card"], action.get("ten")
        if missing := not_in_hand(state, seat, card):
            return missing
        is_ten = card != JOKER and rank(card) == TEN
        if is_ten and ten is None:
            return SAY_TEN
        if not is_ten and ten is not None:
            return ONLY_TEN
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        data = NoventaData.of(state)
        card, ten = action["card"], action.get("ten")
        shedding.discard(state, seat, card)
        data.total = new_total(data.total, card, ten)
        data.last_play = {"seat": seat, "card": card, "ten": ten, "total": data.total}
        events = [self.played(seat=seat, card=card, ten=ten, total=data.total)]
        if data.total > LIMIT:
            return events + self._bust(state, seat)
        events += shedding.draw(state, seat)
        if has_trio(state.cards(hand(seat))):
            return events + self._trio(state, seat)
        state.to_act = [next_seat(state, seat, skip=data.out)]
        return events

    # -- the end of a deal ------------------------------------------------------------------
    def _bust(self, state: State, seat: int) -> list[Event]:
        events = [self.bust(seat=seat, total=NoventaData.of(state).total)]
        if not state.options["tokens"]:
            others = [s for s in self._in_play(state) if s != seat]
            return events + end_match(state, others, reason=BUST, loser=seat)
        return events + self._lose_tokens(state, [seat])

    def _trio(self, state: State, seat: int) -> list[Event]:
        events = [self.trio(seat=seat, cards=list(state.cards(hand(seat))))]
        if not state.options["tokens"]:
            return events + end_match(state, [seat], reason=TRIO)
        return events + self._lose_tokens(state, [s for s in self._in_play(state) if s != seat])

    def _lose_tokens(self, state: State, losers: list[int]) -> list[Event]:
        """Each loser gives up a token; without tokens a player is out. One player left wins;
        otherwise a new deal starts with the next player still in."""
        data = NoventaData.of(state)
        record_round(state, [-1 if s in losers else 0 for s in range(state.players)])
        events: list[Event] = [self.tokens_lost(seats=sorted(losers))]
        for s in sorted(losers):
            if state.scores[s] <= 0:
                data.out.append(s)
                events.append(self.eliminated(seat=s))
        left = self._in_play(state)
        if len(left) <= 1:
            return events + end_match(state, left, reason=LAST_WITH_TOKENS)
        state.round += 1
        nxt = next_seat(state, data.first, skip=data.out)
        return events + self._deal(state, nxt)

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = NoventaData.of(state)
        return {
            "total": data.total,
            "last_play": dict(data.last_play) if data.last_play else None,
            "out": list(data.out),
        }


register(NoventaYNueve())
