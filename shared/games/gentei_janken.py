"""Gentei Janken (rules/gentei-janken.txt): restricted rock-paper-scissors with cards and
chips; the rules as implemented and every decision where the text is silent are in
docs/games/gentei-janken.md.

Three suits of one English deck are the three signs (spades beat diamonds, diamonds beat
clubs, clubs beat spades) and hearts are the chips. On their turn a player challenges an
opponent; both commit a card sealed (``kit/sealed.py``) and reveal at once; the stronger
suit takes a chip. A player without chips is out (``extremo``: may still challenge, for
two chips or all their cards). The most chips at the end wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
    SEAT,
    Action,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    english_deck,
    rank,
    register,
    suit,
)
from shared.engine.actions import ActionType
from shared.engine.events import PRIVATE, EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARD, CARDS, INT, SEATS, STR, list_of, obj
from shared.engine.kit.dealing import DEALT
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.sealed import POLICIES, RANDOM, Sealed
from shared.engine.kit.table_facts import CARDS_HELD, COMMITTED, MY_CARD
from shared.engine.kit.turns import DIRECTION, next_seat, seats_from
from shared.engine.kit.zones import hand, hand_card_action, seat_zone
from shared.engine.language import ENGLISH_DECK, Message, Say

SIGNS = ("S", "D", "C")  # scissors, paper, rock
BEATS = {
    "S": "D",
    "D": "C",
    "C": "S",
}  # spades cut diamonds, diamonds wrap clubs, clubs break spades
CHIP_SUIT = "H"
NO_CHALLENGE = "no challenge is possible"
CARDS_PER_SUIT, CHIPS_EACH = 4, 3
SEALED = Sealed("duel", "card_committed")

# -- what the rules say to a player, in both languages -------------------------------------
NOT_YOURSELF = Say(es="no puedes retarte a ti mismo", en="you cannot challenge yourself")
OUT = Say(es="{seat} está fuera de la partida", en="seat {number} is out of the game")
NO_CARDS = Say(
    es="{seat} no tiene cartas y no se le puede retar",
    en="seat {number} has no cards left and cannot be challenged",
)
NO_CHIPS = Say(
    es="{seat} no tiene fichas y no se le puede retar",
    en="seat {number} has no chips and cannot be challenged",
)


def chips(seat: int) -> str:
    return seat_zone("chips", seat)


def stronger(a: str, b: str) -> int | None:
    """0 if card ``a``'s suit beats ``b``'s, 1 if the other way round, None for the same suit."""
    if suit(a) == suit(b):
        return None
    return 0 if BEATS[suit(a)] == suit(b) else 1


def capacity() -> int:
    """How many players one deck serves: 4 cards of each sign and 3 heart chips each."""
    return min(13 // CARDS_PER_SUIT, 13 // CHIPS_EACH)


@dataclass
class GenteiData(GameData):
    active: int | None = None  # whose turn it is to challenge (and who challenges in a duel)
    duel: list[int] | None = None  # [challenger, challenged] while the duel is open
    out: list[int] = field(default_factory=list)  # seats out of the game, in order
    last_duel: dict | None = None  # the last duel's seats, cards, winner and chips, for views


class GenteiJanken(Game):
    id = "gentei-janken"
    name = "Gentei Janken"
    rules_file = "gentei-janken.txt"
    players = (3, capacity())  # one deck: 3 (36 of the 39 cards of the three signs)
    data_type = GenteiData
    options = {
        "direction": DIRECTION,
        "chipless_challenge": Option(
            False,
            "a player without chips stays in and may challenge: winning takes 2 chips, losing"
            " gives all their cards to the opponent",
        ),
        "commit_seconds": Option(
            60.0, "seconds to commit a card before the timeout", minimum=1.0, maximum=3600.0
        ),
        "timeout_play": Option(
            RANDOM, "the card committed for a seat that did not commit in time", choices=POLICIES
        ),
    }
    variants = {
        "base": Variant(
            "base",
            "Three players (one deck serves no more): a player left without chips is out.",
        ),
        "extremo": Variant(
            "extremo",
            "P.P.T. extremo: a player without chips may still challenge, winning 2 chips or"
            " losing all their cards.",
            {"chipless_challenge": True},
        ),
    }

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    dealt = DEALT
    new_turn = EventType(
        "turn",
        "a seat's turn to challenge someone",
        seat=SEAT,
        says=Say(es="Turno de {seat}: elige a quién retar", en="{seat}'s turn to challenge"),
    )
    challenged = EventType(
        "challenged",
        "a duel: both seats commit a card, sealed",
        seat=SEAT.about("the challenger"),
        opponent=SEAT.about("the seat challenged"),
        says=Say(es="{seat} reta a {opponent}", en="{seat} challenges {opponent}"),
    )
    card_committed = SEALED.commit_event
    cards_revealed = EventType(
        "cards_revealed",
        "both cards shown at once and whose suit is stronger (null: the same suit)",
        seats=SEATS.about("the duellists, in seat order"),
        cards=CARDS.about("their cards, in the same order"),
        winner=SEAT.or_null(),
    )
    chips_taken = EventType(
        "chips_taken",
        "the winner of a duel takes chips from the loser",
        seat=SEAT.about("who takes"),
        loser=SEAT,
        chips=INT,
        says=Say(
            es="{seat} le quita {chips:ficha|fichas} a {loser}",
            en="{seat} takes {chips:chip|chips} from {loser}",
        ),
    )
    cards_given = EventType(
        "cards_given",
        "extremo: a chipless challenger who loses gives all its cards to the opponent, seen by"
        " the two of them",
        visibility=PRIVATE,
        seat=SEAT.about("who gives"),
        to=SEAT.about("who takes"),
        cards=CARDS,
        says=Say(es="{seat} da {cards} a {to}", en="{seat} gives {cards} to {to}"),
    )
    eliminated = EventType(
        "eliminated",
        "a player left without chips (extremo: and without cards) is out, its cards discarded",
        seat=SEAT,
        discarded=INT.about("cards it had left"),
        says=Say(
            es="{seat} se queda sin fichas: fuera de la partida",
            en="{seat} has no chips left: out of the game",
        ),
    )
    match_finished = MATCH_FINISHED.extend(reason=STR.about("why it ended"))

    @cards_revealed.sentence
    def _revealed_said(self, event: Event) -> Say:
        if event["winner"] is None:
            return Say(
                es="Se descubren {cards}: mismo palo, nadie gana",
                en="{cards:cap} are shown: the same suit, nobody wins",
            )
        return Say(
            es="Se descubren {cards}: gana {winner}", en="{cards:cap} are shown: {winner} wins"
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "active": SEAT.or_null("whose turn it is to challenge; null once the match is over"),
        "duel": SEATS.or_null("while a duel is open: the challenger and the seat challenged"),
        "committed": list_of(BOOL, "per seat, whether it has committed its card"),
        "out": SEATS.about("seats out of the game, in order"),
        "last_duel": obj(
            "the last duel: its seats and cards (seat order), its winner and the chips taken",
            seats=SEATS,
            cards=CARDS,
            winner=SEAT.or_null(),
            chips=INT,
        ).or_null(),
    }
    private_view = {"my_card": CARD.or_null("the card you committed, sealed until the reveal")}

    # -- the facts ---------------------------------------------------------------------
    duel_on = FactType(
        "duel",
        "the duel being played: the challenger and the seat challenged",
        SEATS,
        label=Say(es="Duelo", en="Duel"),
        says=Say(es="Duelo: {value}", en="Duel: {value}"),
    )
    chip_count = FactType(
        "chips",
        "a seat's chips (hearts): the most at the end wins",
        INT,
        per_seat=True,
        label=Say(es="Fichas", en="Chips"),
        says=Say(es="{seat}: {value:ficha|fichas}", en="{seat}: {value:chip|chips}"),
    )
    in_hand = CARDS_HELD
    out_of_game = FactType(
        "out",
        "a seat out of the game",
        BOOL,
        per_seat=True,
        label=Say(es="Fuera", en="Out"),
        says=Say(es="{seat} está fuera de la partida", en="{seat} is out of the game"),
    )
    committed = COMMITTED
    my_card = MY_CARD

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data = GenteiData.of(state)
        facts: list[Fact] = []
        if data.duel and not state.finished:
            facts.append(self.duel_on(list(data.duel)))
            facts.extend(self.committed(True, s) for s in data.duel if SEALED.committed(state, s))
        if seat is not None and (mine := SEALED.card_of(state, seat)) is not None:
            facts.append(self.my_card(mine, seat))
        for s in range(state.players):
            facts.append(self.chip_count(self._chips(state, s), s))
            facts.append(self.in_hand(len(state.cards(hand(s))), s))
            if s in data.out:
                facts.append(self.out_of_game(True, s))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck()

    def setup(self, state: State) -> list[Event]:
        n = state.players
        for s in range(n):
            state.zone(hand(s), s, OWNER)
            state.zone(chips(s), s, PUBLIC)
        SEALED.create(state)
        state.zone("unused", None, HIDDEN)
        state.zone("bank", None, PUBLIC)
        state.zone("discard", None, HIDDEN)
        for sign in SIGNS:
            cards = [c for c in english_deck() if suit(c) == sign]
            state.shuffle(cards)
            for s in range(n):
                state.zones[hand(s)].cards += cards[s * CARDS_PER_SUIT : (s + 1) * CARDS_PER_SUIT]
            state.zones["unused"].cards += cards[n * CARDS_PER_SUIT :]
        hearts = [c for c in english_deck() if suit(c) == CHIP_SUIT]
        for s in range(n):
            state.zones[hand(s)].cards.sort(key=lambda c: (SIGNS.index(suit(c)), rank(c)))
            state.zones[chips(s)].cards = hearts[s * CHIPS_EACH : (s + 1) * CHIPS_EACH]
        state.zones["bank"].cards = hearts[n * CHIPS_EACH :]
        self._count_chips(state)
        events = [
            self.dealt(seat=s, cards=list(state.cards(hand(s))), visible_to=[s]) for s in range(n)
        ]
        first = state.rng().randrange(n)
        return events + self._turn(state, first)

    # -- who may do what -------------------------------------------------------------------
    @staticmethod
    def _chips(state: State, seat: int) -> int:
        return len(state.cards(chips(seat)))

    def _can_be_challenged(self, state: State, seat: int) -> bool:
        return bool(state.cards(hand(seat))) and self._chips(state, seat) > 0

    def _can_challenge(self, state: State, seat: int) -> bool:
        """Has cards, has chips (or may challenge without them), and someone to challenge."""
        if not state.cards(hand(seat)):
            return False
        if self._chips(state, seat) == 0 and not state.options["chipless_challenge"]:
            return False
        return any(self._can_be_challenged(state, o) for o in range(state.players) if o != seat)

    def _turn(self, state: State, start: int) -> list[Event]:
        """The first seat from ``start`` on, in the order of play, that can challenge someone
        takes the turn; if nobody can, the match ends."""
        data = GenteiData.of(state)
        for seat in seats_from(state, start):
            if self._can_challenge(state, seat):
                data.active, data.duel = seat, None
                state.phase = "challenge"
                state.to_act = [seat]
                return [self.new_turn(seat=seat)]
        data.active, data.duel = None, None
        return end_match(state, highest(state.scores), reason=NO_CHALLENGE)

    # -- the action table --------------------------------------------------------------
    challenge = ActionType(
        "challenge",
        "challenge another player to a duel",
        phases=("challenge",),
        seat=SEAT,
    )
    play = hand_card_action("play", "commit one card of your hand, face down", ("duel",))

    @challenge.candidates
    def _challenges(self, state: State, seat: int) -> list[Action]:
        return [{"type": "challenge", "seat": s} for s in range(state.players)]

    @challenge.refusal
    def _challenge_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        target = action["seat"]
        if target == seat:
            return NOT_YOURSELF
        if target in GenteiData.of(state).out:
            return OUT(seat=target, number=target)
        if not state.cards(hand(target)):
            return NO_CARDS(seat=target, number=target)
        if self._chips(state, target) == 0:
            return NO_CHIPS(seat=target, number=target)
        return None

    @challenge.handler
    def _challenge(self, state: State, seat: int, action: Action) -> list[Event]:
        data = GenteiData.of(state)
        data.duel = [seat, action["seat"]]
        state.phase = "duel"
        SEALED.open(state, sorted(data.duel), state.options["commit_seconds"])
        return [self.challenged(seat=seat, opponent=action["seat"])]

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        events = SEALED.commit(state, seat, action["card"], hand(seat))
        return events + (self._resolve(state) if not state.to_act else [])

    def on_timeout(self, state: State) -> list[Event]:
        """The commit window closed: each duellist still to commit commits its default card."""
        hands = {s: hand(s) for s in range(state.players)}
        events = SEALED.commit_defaults(state, hands, state.options["timeout_play"])
        return events + self._resolve(state)

    # -- the duel ------------------------------------------------------------------------
    def _resolve(self, state: State) -> list[Event]:
        """Reveal both cards at once; the stronger suit takes its chips."""
        data = GenteiData.of(state)
        assert data.duel is not None and data.active is not None
        challenger, challenged = data.duel
        seats = sorted(data.duel)
        cards = SEALED.reveal(state, seats, "discard")
        side = stronger(cards[0], cards[1])
        winner = None if side is None else seats[side]
        events = [self.cards_revealed(seats=seats, cards=cards, winner=winner)]
        taken = 0
        if side is not None:
            winner, loser = seats[side], seats[1 - side]
            chipless = self._chips(state, challenger) == 0
            if chipless and winner == challenger:
                taken = self._take(state, loser, winner, 2)
            elif chipless:
                events += self._give_cards(state, challenger, challenged)
            else:
                taken = self._take(state, loser, winner, 1)
            if taken:
                events.append(self.chips_taken(seat=winner, loser=loser, chips=taken))
        data.last_duel = {"seats": seats, "cards": cards, "winner": winner, "chips": taken}
        events += self._eliminate(state)
        return events + self._turn(state, next_seat(state, challenger))

    def _take(self, state: State, loser: int, winner: int, count: int) -> int:
        taken = min(count, self._chips(state, loser))
        for _ in range(taken):
            state.move_top(chips(loser), chips(winner))
        self._count_chips(state)
        return taken

    def _give_cards(self, state: State, giver: int, receiver: int) -> list[Event]:
        cards = list(state.cards(hand(giver)))
        state.zones[hand(giver)].cards = []
        state.zones[hand(receiver)].cards += cards
        return [
            self.cards_given(seat=giver, to=receiver, cards=cards, visible_to=[giver, receiver])
        ]

    def _eliminate(self, state: State) -> list[Event]:
        """Base game: a player without chips is out and leaves their cards on the discard pile.
        Extremo: only a player without chips and without cards is out."""
        data, events = GenteiData.of(state), []
        for s in range(state.players):
            if s in data.out or self._chips(state, s):
                continue
            left = state.cards(hand(s))
            if state.options["chipless_challenge"] and left:
                continue
            state.zones["discard"].cards += left
            state.zones[hand(s)].cards = []
            data.out.append(s)
            events.append(self.eliminated(seat=s, discarded=len(left)))
        return events

    @staticmethod
    def _count_chips(state: State) -> None:
        state.scores = [len(state.cards(chips(s))) for s in range(state.players)]

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = GenteiData.of(state)
        return {
            "active": data.active,
            "duel": list(data.duel) if data.duel else None,
            "committed": SEALED.flags(state),
            "out": list(data.out),
            "last_duel": dict(data.last_duel) if data.last_duel else None,
        }

    def private_fields(self, state: State, seat: int) -> dict:
        return {"my_card": SEALED.card_of(state, seat)}


register(GenteiJanken())
