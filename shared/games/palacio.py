"""Palacio (rules/palacio.txt): a climbing game of the Shithead / Palace family, two decks.

Each player has a hand, three face-up and three face-down table cards. On a turn a player
draws a card, then plays cards of one rank equal to or higher than the top of the pile
(J = Q = K = 10); a 2 goes on anything and must be followed by another card; a 10, or three
equal cards in a row, burns the pile. A player who cannot play picks the pile up and lays
one card as the new pile. With an empty hand, the face-up cards are played, then the
face-down ones blind. The first player to clear the table wins.

Every decision where the text is silent, and each option, is in docs/games/palacio.md.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from shared.engine import (
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
)
from shared.engine.actions import CARD, CARDS, ActionType, Field
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, INT, INTS, SEAT, SEATS, choice, obj
from shared.engine.kit import climbing, shedding
from shared.engine.kit.dealing import DEALT, deal_hands
from shared.engine.kit.ending import MATCH_FINISHED, end_match, lowest
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.kit.turns import DIRECTION, next_seat
from shared.engine.kit.zones import MAX_SEATS, hand, holds, not_in_hand, seat_zone
from shared.engine.language import ENGLISH_DECK, Message, Say, Words

TABLE_CARDS = 3
WILD, BURNER = 2, 10
SOURCE_WORDS = Words(
    {
        "hand": ("de la mano", "from the hand"),
        "up": ("de sus cartas boca arriba", "from the face-up cards"),
        "down": ("a ciegas, boca abajo", "blind, face down"),
    }
)

# -- what the rules say to a player, in both languages -------------------------------------
EXACTLY = Say(
    es="elige exactamente {count} cartas para dejar boca arriba",
    en="choose exactly {count} cards to lie face up",
)
AMONG_YOURS = Say(
    es="elige las cartas boca arriba entre tu mano y tus cartas boca arriba",
    en="choose the face-up cards among your hand and your face-up cards",
)
GO_BLIND = Say(
    es="tu mano y tus cartas boca arriba están vacías: da la vuelta a una carta boca abajo (blind)",
    en="your hand and face-up cards are empty: turn over a face-down card (blind)",
)
FROM_HAND = Say(
    es="juega cartas de tu mano (la mano va primero)",
    en="play cards from your hand (your hand comes first)",
)
FROM_UP = Say(es="juega cartas boca arriba", en="play cards from your face-up cards")
ONE_RANK = Say(es="juega cartas de un solo valor", en="play cards of one rank only")
LOWER = Say(
    es="{card:cap} es más bajo que {top} del montón",
    en="a {played} is lower than the {on} on the pile",
)
DOWN_LAST = Say(
    es="las cartas boca abajo se juegan solo con la mano y las boca arriba vacías",
    en="face-down cards are played only once your hand and face-up cards are empty",
)
DOWN_COUNT = Say(
    es="tienes {count:carta|cartas} boca abajo", en="you have {count} face-down card(s)"
)
BLIND_FIRST = Say(
    es="da antes la vuelta a una carta boca abajo (blind)",
    en="turn over a face-down card first (blind)",
)
CAN_PLAY = Say(
    es="puedes jugar: el montón solo se recoge cuando ninguna carta tuya va encima",
    en="you can play: the pile is picked up only when no card of yours goes on it",
)


#: ``up(seat)`` / ``down(seat)``: the seat's face-up / face-down zone, table lookups like
#: ``hand`` (asked several times an action, where to play from).
up: Callable[[int], str] = tuple(seat_zone("up", s) for s in range(MAX_SEATS)).__getitem__
down: Callable[[int], str] = tuple(seat_zone("down", s) for s in range(MAX_SEATS)).__getitem__


def strength(card: str, ace_high: bool) -> int:
    """J = Q = K = 10, the ace high (14) or low (1); the other cards their rank."""
    r = rank(card)
    if r == 1:
        return 14 if ace_high else 1
    return min(r, 10)


#: Whether the ace is high -> each card's strength.
_STRENGTHS = {
    high: {card: strength(card, high) for card in english_deck(jokers=1)} for high in (True, False)
}


@dataclass
class PalacioData(GameData):
    dealer: int = 0
    must_follow: bool = False  # a 2 was played: the same player plays again from the same place
    arranged: list[int] | None = None  # seats that have set their face-up cards
    burned_by: int | None = None  # the last burn, for views
    idle_turns: int = 0  # turns in a row without progress (see the option stalemate_turns)


def _plays_on(card: str, ace_high: bool, ten_on_anything: bool, top: int) -> bool:
    """Whether ``card`` goes on a pile topped by strength ``top`` (not a 2, nothing to follow)."""
    r = rank(card)
    if r == WILD or (r == BURNER and ten_on_anything):
        return True
    return climbing.equal_or_beat(strength(card, ace_high), top)


@functools.lru_cache(maxsize=64)
def _playable_on(ace_high: bool, ten_on_anything: bool, top: int) -> frozenset[str]:
    """The English cards that go on a pile topped by strength ``top``, found once per pile."""
    return frozenset(
        c for c in _STRENGTHS[ace_high] if _plays_on(c, ace_high, ten_on_anything, top)
    )


def _any_card(card: str) -> bool:
    """Any card goes (an empty pile, a 2 on top, or a card that must be followed)."""
    return True


class Palacio(Game):
    id = "palacio"
    name = "Palacio"
    rules_file = "palacio.txt"
    players = (2, 8)
    data_type = PalacioData
    options = {
        "ace": Option("high", "the ace ranks above the K, or as 1", choices=("high", "low")),
        "burn_run": Option(
            3, "equal ranks in a row on the pile that burn it", minimum=3, maximum=4
        ),
        "after_burn": Option(
            "next",
            "after a burn the next player leads, or the same player",
            choices=("next", "same"),
        ),
        "ten_on_anything": Option(
            False, "a 10 may be played on anything (otherwise it must be equal or higher too)"
        ),
        "stalemate_turns": Option(
            100,
            "with the stock empty, this many turns in a row without a burn or a table card "
            "played end the game: the fewest cards left wins (0: never)",
            minimum=0,
            maximum=10000,
        ),
        "direction": DIRECTION,
    }
    variants = {
        "base": Variant("base", "Two decks without jokers; 3 in hand, 3 face up, 3 face down."),
    }

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    table_dealt = EventType(
        "table_dealt",
        "each seat gets three face-down and three face-up table cards",
        dealer=SEAT,
        says=Say(
            es="Reparte {dealer}: tres cartas boca abajo y tres boca arriba a cada uno",
            en="{dealer} deals three face-down and three face-up cards to each",
        ),
    )
    dealt = DEALT
    pile_started = EventType(
        "pile_started",
        "the stock's top card turned up to start the pile",
        face_up=CARD,
        says=Say(es="El montón empieza con {face_up}", en="The pile starts with {face_up}"),
    )
    arranged = EventType(
        "arranged",
        "a seat's choice of the three cards that lie face up",
        seat=SEAT,
        face_up=CARDS,
        says=Say(es="{seat} deja boca arriba {face_up}", en="{seat} lays face up {face_up}"),
    )
    new_turn = EventType(
        "turn",
        "a seat's turn begins",
        seat=SEAT,
        says=Say(es="Turno de {seat}", en="{seat}'s turn"),
    )
    drew = shedding.DREW
    played = EventType(
        "played",
        "cards of one rank played onto the pile, from the hand, the face-up or the face-down cards",
        seat=SEAT,
        cards=CARDS,
        source=choice("hand", "up", "down", description="where from", words=SOURCE_WORDS),
        says=Say(es="{seat} juega {cards} {source}", en="{seat} plays {cards} {source}"),
    )
    blind_failed = EventType(
        "blind_failed",
        "a face-down card turned over does not go on the pile: it goes to the hand",
        seat=SEAT,
        face_up=CARD.about("the card turned over"),
        says=Say(
            es="{seat} da la vuelta a {face_up}, que no vale",
            en="{seat} turns over {face_up}: no good",
        ),
    )
    burned = EventType(
        "burned",
        "the pile burns: a 10, or equal ranks in a row",
        seat=SEAT,
        reason=choice("ten", "run", description="a 10, or a run of equal ranks"),
    )
    must_follow = EventType(
        "must_follow",
        "a 2 was played: the same player plays again",
        seat=SEAT,
        says=Say(es="{seat} echó un 2 y vuelve a jugar", en="{seat} played a 2 and plays again"),
    )
    picked_up = EventType(
        "picked_up",
        "the whole pile taken into the hand",
        seat=SEAT,
        count=INT.about("cards taken"),
        says=Say(
            es="{seat} recoge el montón: {count:carta|cartas}",
            en="{seat} picks up the pile: {count:card|cards}",
        ),
    )
    laid = EventType(
        "laid",
        "a card of the hand laid as the new pile after picking up",
        seat=SEAT,
        face_up=CARD,
        says=Say(
            es="{seat} empieza el montón con {face_up}", en="{seat} starts the pile with {face_up}"
        ),
    )
    match_finished = MATCH_FINISHED.extend(
        winner=SEAT.about("who cleared the table").maybe(),
        reason=choice("cleared", "stalemate", description="the table cleared, or no progress"),
        cards_left=INTS.about("at a stalemate: each seat's cards left").maybe(),
    )

    @burned.sentence
    def _burned_said(self, event: Event) -> Say:
        if event["reason"] == "ten":
            return Say(es="{seat} quema el montón con un 10", en="{seat} burns the pile with a 10")
        return Say(
            es="{seat} quema el montón: cartas iguales seguidas",
            en="{seat} burns the pile: equal ranks in a row",
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "dealer": SEAT,
        "top_value": INT.or_null("the strength to meet (J = Q = K = 10); null: an empty pile"),
        "must_follow": BOOL.about("a 2 was played: the same player plays again"),
        "arranged": SEATS.or_null("while the face-up cards are chosen: who has chosen"),
        "last_burn_by": SEAT.or_null("who burned the pile last"),
    }

    # -- the facts ---------------------------------------------------------------------
    pile = FactType(
        "pile",
        "the pile: its top card and how many cards it holds",
        obj(top=CARD, count=INT),
        label=Say(es="Montón", en="Pile"),
        says=Say(
            es="Montón: {value.top:bare}, {value.count:carta|cartas}",
            en="Pile: {value.top:bare}, {value.count:card|cards}",
        ),
    )
    stock = STOCK_LEFT
    follow = FactType(
        "must_follow",
        "a 2 was played: the same player plays again",
        BOOL,
        label=Say(es="Tras un 2", en="After a 2"),
        says=Say(es="Tras un 2 se vuelve a jugar", en="After a 2 the same player plays again"),
    )
    left = FactType(
        "cards",
        "a seat's cards: in hand, face up and face down",
        obj(hand=INT, up=INT, down=INT),
        per_seat=True,
        label=Say(es="Cartas", en="Cards"),
        says=Say(
            es="{seat}: {value.hand} en la mano, {value.up} boca arriba, {value.down} boca abajo",
            en="{seat}: {value.hand} in hand, {value.up} face up, {value.down} face down",
        ),
    )
    chosen = FactType(
        "arranged",
        "a seat that has chosen its face-up cards",
        BOOL,
        per_seat=True,
        label=Say(es="Ha elegido", en="Has chosen"),
        says=Say(es="{seat} ya ha elegido sus cartas boca arriba", en="{seat} has chosen"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, pile = PalacioData.of(state), state.cards("pile")
        facts: list[Fact] = []
        if pile:
            facts.append(self.pile({"top": pile[-1], "count": len(pile)}))
        facts.append(self.stock(len(state.cards("stock"))))
        if data.must_follow:
            facts.append(self.follow(True))
        for s in range(state.players):
            counts = {"hand": len(state.cards(hand(s))), "up": len(state.cards(up(s))),
                      "down": len(state.cards(down(s)))}  # fmt: skip
            facts.append(self.left(counts, s))
        facts.extend(self.chosen(True, s) for s in data.arranged or [])
        return facts

    # -- values ------------------------------------------------------------------------
    @staticmethod
    def value(state: State, card: str) -> int:
        """The strength for "equal or higher": J = Q = K = 10, the ace high (14) or low (1)."""
        ace_high = state.options["ace"] == "high"
        try:  # looked up: listing a hand's sets asks it of every card, every turn
            return _STRENGTHS[ace_high][card]
        except KeyError:  # a card of no English deck, in a refused action
            return strength(card, ace_high)

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck(copies=2)

    def setup(self, state: State) -> list[Event]:
        stock = state.zone("stock", None, HIDDEN)
        stock.cards = self.deck(state)
        state.shuffle(stock.cards)
        state.zone("pile", None, PUBLIC)
        state.zone("burned", None, PUBLIC)
        data = PalacioData.of(state)
        data.dealer = state.rng().randrange(state.players)
        order = [next_seat(state, data.dealer, i) for i in range(1, state.players + 1)]
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            state.zone(up(s), s, PUBLIC)
            state.zone(down(s), s, HIDDEN)
        for s in order:
            state.cards(down(s)).extend(stock.cards.pop() for _ in range(TABLE_CARDS))
            state.cards(up(s)).extend(stock.cards.pop() for _ in range(TABLE_CARDS))
        events = [self.table_dealt(dealer=data.dealer)]
        events += deal_hands(state, order, TABLE_CARDS)
        first = state.move_top("stock", "pile")
        events.append(self.pile_started(face_up=first))
        state.phase = "arrange"
        state.to_act = list(range(state.players))
        data.arranged = []
        return events

    # -- the action table --------------------------------------------------------------
    arrange = ActionType(
        "arrange", "choose which 3 of your hand and face-up cards lie face up",
        phases=("arrange",), up=CARDS,
    )  # fmt: skip
    play = ActionType(
        "play", "play cards of one rank from your hand (or, with it empty, your face-up cards)",
        phases=("play",), cards=CARDS,
    )  # fmt: skip
    blind = ActionType(
        "blind", "turn over one of your face-down cards and play it", phases=("play",),
        slot=Field("int", "which face-down card, from 0", minimum=0),
    )  # fmt: skip
    pickup = ActionType("pickup", "take the whole pile into your hand", phases=("play",))
    lay = ActionType("lay", "lay one card of your hand as the new pile", phases=("lay",), card=CARD)

    @arrange.candidates
    def _arrangements(self, state: State, seat: int) -> list[Action]:
        pool = sorted(state.cards(hand(seat)) + state.cards(up(seat)))
        combos = dict.fromkeys(itertools.combinations(pool, TABLE_CARDS))
        return [{"type": "arrange", "up": list(c)} for c in combos]

    arrange.enumerate(_arrangements)  # each is three cards of the pool, as the refusal asks

    @arrange.refusal
    def _arrange_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        pool = Counter(state.cards(hand(seat)) + state.cards(up(seat)))
        if len(action["up"]) != TABLE_CARDS:
            return EXACTLY(count=TABLE_CARDS)
        chosen: list[str] = action["up"]
        if Counter(chosen) - pool:
            return AMONG_YOURS
        return None

    @arrange.handler
    def _arrange(self, state: State, seat: int, action: Action) -> list[Event]:
        data = PalacioData.of(state)
        pool = state.cards(hand(seat)) + state.cards(up(seat))
        for c in action["up"]:
            pool.remove(c)
        state.zones[up(seat)].cards = list(action["up"])
        state.zones[hand(seat)].cards = pool
        assert data.arranged is not None
        data.arranged.append(seat)
        state.to_act.remove(seat)
        events = [self.arranged(seat=seat, face_up=list(action["up"]))]
        if state.to_act:
            return events
        data.arranged = None
        return events + self._start_turn(state, next_seat(state, data.dealer))

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        source = self._source(state, seat)
        if source == "down":
            return []
        sets = climbing.set_choices(state.cards(source), rank)
        return [{"type": "play", "cards": s} for s in sets]

    @play.enumerate
    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        """The candidates are sets from where the seat plays: only the pile is left to meet.
        Whether a card goes on the pile depends on its rank only, so the cards the pile
        refuses are left out as they are met (a set lookup) and their sets never made."""
        source = self._source(state, seat)
        if source == "down":
            return []
        allowed = self._playable_cards(state)
        cards = state.cards(source)
        if allowed is not None:
            cards = [c for c in cards if c in allowed]
        plays: list[Action] = []
        for group in climbing.sets_by_value(cards, rank).values():
            if len(group) == 1:
                plays.append({"type": "play", "cards": group})
                continue
            group.sort()  # as ``set_choices`` orders them
            plays.extend(
                {"type": "play", "cards": group[:size]} for size in range(1, len(group) + 1)
            )
        return plays

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        cards: list[str] = action["cards"]
        source = self._source(state, seat)
        if source == "down":
            return GO_BLIND
        if not cards or not holds(state.cards(source), cards):
            return FROM_HAND if source == hand(seat) else FROM_UP
        if not climbing.is_set(cards, rank):
            return ONE_RANK
        if not self._playable(state, cards[0]):
            top = state.cards("pile")[-1]
            return Message(
                LOWER,
                {"card": cards[0], "top": top, "played": cards[0][:-1], "on": top[:-1]},
                {"top": CARD},
            )
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        source = self._source(state, seat)
        for c in action["cards"]:
            state.move(c, source, "pile")
        kind = "hand" if source == hand(seat) else "up"
        events = [self.played(seat=seat, cards=list(action["cards"]), source=kind)]
        return events + self._after_play(state, seat, source)

    @blind.candidates
    def _blinds(self, state: State, seat: int) -> list[Action]:
        return [{"type": "blind", "slot": i} for i in range(len(state.cards(down(seat))))]

    @blind.enumerate
    def _legal_blinds(self, state: State, seat: int) -> list[Action]:
        """Every face-down card, once the hand and the face-up cards are empty."""
        return list(self._blinds(state, seat)) if self._source(state, seat) == "down" else []

    @blind.refusal
    def _blind_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        if self._source(state, seat) != "down":
            return DOWN_LAST
        n = len(state.cards(down(seat)))
        return None if action["slot"] < n else DOWN_COUNT(count=n)

    @blind.handler
    def _blind(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.cards(down(seat)).pop(action["slot"])
        if self._playable(state, card):
            state.cards("pile").append(card)
            events = [self.played(seat=seat, cards=[card], source="down")]
            return events + self._after_play(state, seat, down(seat))
        state.cards(hand(seat)).append(card)
        PalacioData.of(state).idle_turns = 0
        events = [self.blind_failed(seat=seat, face_up=card)]
        return events + self._pick_up(state, seat)

    @pickup.refusal
    def _pickup_refused(self, state: State, seat: int, action: Action) -> Say | None:
        source = self._source(state, seat)
        if source == "down":
            return BLIND_FIRST
        allowed = self._playable_cards(state)
        if allowed is None or not allowed.isdisjoint(state.cards(source)):
            return CAN_PLAY
        return None

    @pickup.handler
    def _pickup(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._pick_up(state, seat)

    @lay.candidates
    def _lays(self, state: State, seat: int) -> list[Action]:
        return [{"type": "lay", "card": c} for c in sorted(set(state.cards(hand(seat))))]

    lay.enumerate(_lays)  # every card held: checking each again would only repeat it

    @lay.refusal
    def _lay_refused(self, state: State, seat: int, action: Action) -> Message | None:
        return not_in_hand(state, seat, action["card"])

    @lay.handler
    def _lay(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move(action["card"], hand(seat), "pile")
        events = [self.laid(seat=seat, face_up=action["card"])]
        return events + self._end_turn(state, seat)

    # -- turns ---------------------------------------------------------------------------
    def _start_turn(self, state: State, seat: int) -> list[Event]:
        """The player draws first (only with cards in hand and in the stock), then plays."""
        state.phase, state.to_act = "play", [seat]
        PalacioData.of(state).must_follow = False
        events = [self.new_turn(seat=seat)]
        if state.cards("stock"):
            PalacioData.of(state).idle_turns = 0
        if state.cards(hand(seat)) and state.cards("stock"):
            card = state.move_top("stock", hand(seat))
            events.append(self.drew(seat=seat, card=card, visible_to=[seat]))
        return events

    def _after_play(self, state: State, seat: int, source: str) -> list[Event]:
        """Burns, the 2's follow-up, the win, or the next turn."""
        data = PalacioData.of(state)
        pile = state.cards("pile")
        top = rank(pile[-1])
        data.must_follow = False
        if source != hand(seat):
            data.idle_turns = 0  # a table card left the table: progress
        if self._cleared(state, seat):
            return self._win(state, seat)
        if top == BURNER or climbing.burns(pile, rank, state.options["burn_run"]):
            climbing.clear_pile(state, "pile", "burned")
            data.burned_by, data.idle_turns = seat, 0
            events = [self.burned(seat=seat, reason="ten" if top == BURNER else "run")]
            if state.options["after_burn"] == "same":
                state.to_act = [seat]
                return events
            return events + self._end_turn(state, seat)
        if top == WILD and state.cards(source):
            data.must_follow = True
            return [self.must_follow(seat=seat)]
        return self._end_turn(state, seat)

    def _pick_up(self, state: State, seat: int) -> list[Event]:
        taken = climbing.clear_pile(state, "pile", hand(seat))
        state.phase = "lay"
        PalacioData.of(state).must_follow = False
        return [self.picked_up(seat=seat, count=len(taken))]

    def _end_turn(self, state: State, seat: int) -> list[Event]:
        data = PalacioData.of(state)
        data.idle_turns += 1
        limit = state.options["stalemate_turns"]
        if limit and data.idle_turns >= limit:
            return self._stalemate(state)
        return self._start_turn(state, next_seat(state, seat))

    def _win(self, state: State, seat: int) -> list[Event]:
        record_round(state, [int(s == seat) for s in range(state.players)])
        return end_match(state, [seat], winner=seat, reason="cleared")

    def _stalemate(self, state: State) -> list[Event]:
        """No progress for too long: the players with the fewest cards left share the win."""
        left = [
            sum(len(state.cards(z)) for z in (hand(s), up(s), down(s)))
            for s in range(state.players)
        ]
        winners = lowest(left)
        record_round(state, [int(s in winners) for s in range(state.players)])
        return end_match(state, winners, reason="stalemate", cards_left=left)

    # -- rules as questions -------------------------------------------------------------
    def _source(self, state: State, seat: int) -> str:
        """Where the player plays from: the hand, else the face-up cards, else face down."""
        if state.cards(hand(seat)):
            return hand(seat)
        return up(seat) if state.cards(up(seat)) else "down"

    def _playable(self, state: State, card: str) -> bool:
        """A 2 goes on anything; on an empty pile, a 2, or after a 2 anything goes; otherwise
        equal or higher (a 10 too, unless ``ten_on_anything``)."""
        return self._playable_test(state)(card)

    def _playable_test(self, state: State) -> Callable[[str], bool]:
        """``_playable`` for many cards of one turn: the pile and the options looked at once."""
        allowed = self._playable_cards(state)
        if allowed is None:
            return _any_card
        known = _STRENGTHS[True]

        def playable(card: str) -> bool:
            if card in known:
                return card in allowed
            ace_high, ten = state.options["ace"] == "high", state.options["ten_on_anything"]
            top = self.value(state, state.cards("pile")[-1])
            return _plays_on(card, ace_high, ten, top)  # a card of no English deck

        return playable

    def _playable_cards(self, state: State) -> frozenset[str] | None:
        """The English cards that go on the pile now (None: any card goes), found once per
        pile (``_playable_on``)."""
        pile = state.cards("pile")
        if not pile or rank(pile[-1]) == WILD or PalacioData.of(state).must_follow:
            return None
        ace_high, ten = state.options["ace"] == "high", state.options["ten_on_anything"]
        return _playable_on(ace_high, ten, self.value(state, pile[-1]))

    @staticmethod
    def _cleared(state: State, seat: int) -> bool:
        return not (state.cards(hand(seat)) or state.cards(up(seat)) or state.cards(down(seat)))

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: PalacioData) -> PalacioData:
        """The view's name for the last burn (see engine.sampling)."""
        data.burned_by = view["last_burn_by"]
        return data

    def public_fields(self, state: State) -> dict:
        data = PalacioData.of(state)
        pile = state.cards("pile")
        return {
            "dealer": data.dealer,
            "top_value": self.value(state, pile[-1]) if pile else None,
            "must_follow": data.must_follow,
            "arranged": list(data.arranged) if data.arranged is not None else None,
            "last_burn_by": data.burned_by,
        }


register(Palacio())
