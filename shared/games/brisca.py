"""Brisca, Tute and Tute en parejas (rules/brisca.txt).

Trick-taking "ace-ten" games with the 40-card Spanish deck: the highest trump takes a
trick, else the highest card of the suit led; players draw from the stock after every
trick, and once it is gone they must follow suit (arrastre). A match is 4 deals whose
card points are summed. Tute adds cantes (rey and caballo of a suit) and the last
trick's ten; Tute en parejas deals every card to two partnerships.

What the players at the table know is public: won tricks lie face up (every card in them was
seen when played), so each view's facts give every seat's points taken so far this deal, and
a client may show the last trick again.

The decisions where the text is silent or ambiguous, each with its option and default,
are in docs/games/brisca.md.

Rules version 3 (duplicate deals): every deal's chance is drawn from (seed, deal number,
draw within the deal) (``State.by_deal``), and each seat's cards come from its own place in
the deck (seat 0's first) rather than by turn from the leader, so deal k is the same cards for
the same seat at every table of a duplicate group whatever was played before. The winner of
the last trick still leads the next deal, as the rules say ("Nueva Partida"); where every
card is dealt, the last card of the deck (the last seat's) shows the trump.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.engine import (
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
    rank,
    record_round,
    register,
    spanish_deck,
    suit,
)
from shared.engine.actions import ActionType
from shared.engine.cards import CABALLO, REY, SPANISH_SUITS
from shared.engine.events import MAYBE_PRIVATE, EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import (
    CARD,
    CARDS,
    INT,
    INTS,
    SEAT,
    SEATS,
    SUIT,
    choice,
    list_of,
    obj,
)
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit import tricks, turns
from shared.engine.kit.dealing import DEALT
from shared.engine.kit.ending import MATCH_FINISHED, end_match
from shared.engine.kit.tables import BRISCA_POINTS, BRISCA_STRENGTH
from shared.engine.kit.zones import MAX_SEATS, card_actions, hand, not_in_hand, seat_zone
from shared.engine.language import SPANISH_DECK, Message, Say, Words

#: Card points by option ``card_points``: Brisca's, or the Tute seed's (A and 3 worth 10).
CARD_POINTS = {"standard": BRISCA_POINTS, "aces-and-threes": {1: 10, 3: 10}}
#: The same by card code (every trick is counted as it is taken: a lookup per card, not a rank).
POINTS_BY_CARD = {
    name: {c: table.get(rank(c), 0) for c in spanish_deck(48)}
    for name, table in CARD_POINTS.items()
}
#: ``won(seat)`` is ``"won:<seat>"`` (``seat_zone``), made once: asked after every trick.
won_pile = tuple(seat_zone("won", s) for s in range(MAX_SEATS)).__getitem__
TUTE = "tute"  # the "suit" of a sung tute (all four reyes or caballos)
#: Per trump suit, the cards that may be exchanged for the face-up card: its 7 and its 2.
EXCHANGES = {s: (f"7{s}", f"2{s}") for s in SPANISH_SUITS}

# -- what the rules say to a player, in both languages -------------------------------------
FOLLOW = Say(
    es="sin mazo hay que asistir al palo de salida y, si no se puede, fallar con triunfo",
    en="the stock is empty: follow the suit led, else play a trump",
)
FOLLOW_AND_HEAD = Say(
    es="sin mazo hay que asistir al palo de salida y, si no se puede, fallar con triunfo, "
    "superando la mejor carta de la baza cuando se pueda",
    en="the stock is empty: follow the suit led, else play a trump, beating the best card "
    "where you can",
)
NO_FACE_UP = Say(
    es="la muestra ya no está en la mesa", en="the face-up trump is no longer on the table"
)
WIN_FIRST = Say(
    es="para cambiar la muestra hay que haber ganado una baza",
    en="you must have won a trick before exchanging",
)
ONLY_SEVEN_OR_TWO = Say(
    es="solo se cambia el 7 de triunfo, o el 2 de triunfo por un 7 de muestra, cada uno una "
    "vez por reparto",
    en="only the 7 of trumps, or the 2 of trumps for a face-up 7, can be exchanged, each once "
    "a deal",
)
NO_CANTES = Say(
    es="esta partida se juega sin cantes (opción cantes)",
    en="this match is played without cantes (option cantes is off)",
)
SING_AFTER_TRICK = Say(
    es="solo se canta justo después de ganar una baza, antes de salir a la siguiente",
    en="a pareja is sung only right after winning a trick, before leading the next",
)
TUTE_NEEDS_OPTION = Say(
    es="el tute solo se lleva el reparto con la opción tute_wins_deal",
    en="a tute takes the deal only with option tute_wins_deal",
)
TUTE_NEEDS_FOUR = Say(
    es="un tute necesita los cuatro reyes o los cuatro caballos",
    en="a tute needs all four reyes or caballos",
)
SUNG_ALREADY = Say(
    es="las {suit} ya se cantaron en este reparto",
    en="the pareja of {suit} was already sung this deal",
)
SING_NEEDS_PAIR = Say(
    es="para cantar en {suit} hay que tener el rey y el caballo de {suit}",
    en="singing in {suit} needs the king and the knight of {suit} in your hand",
)
CLAIM_AFTER_PARTNER = Say(
    es="un cante se reclama en tu turno siguiente a que tu pareja juegue su rey o su caballo",
    en="a pareja is claimed on your next turn after your partner plays its rey or caballo",
)
CLAIM_NEEDS_OTHER = Say(
    es="para reclamar el cante de {suit} hay que tener la otra carta (rey o caballo) en la mano",
    en="claiming {suit} needs the pareja's other card (king or knight) in your hand",
)
FOLLOW_RULES = Words(
    {
        "follow": ("asistir al palo", "follow suit"),
        "montar": ("asistir y montar", "follow and beat"),
    }
)


@dataclass
class BriscaData(GameData):
    direction: int = 1  # +1 clockwise, -1 counterclockwise (kept in stored states)
    trump: str = ""  # the trump suit of this deal
    trump_card: str = ""  # the card that showed it
    dealer: int = 0
    trick_seats: list[int] = field(default_factory=list)  # who played each card of the trick
    tricks_won: list[int] = field(default_factory=list)  # per seat, this deal
    cantes: list[dict] = field(default_factory=list)  # {"seat", "suit", "points"} this deal
    sung: list[list[str]] = field(default_factory=list)  # per seat, the suits it sang
    may_sing: int | None = None  # the seat that just won a trick and has not led yet
    claimable: list[list[str]] = field(default_factory=list)  # per seat, parejas to claim
    last_trick: int | None = None  # who won the last trick
    exchanged: list[str] = field(default_factory=list)  # the trumps exchanged this deal


class Brisca(Game):
    id = "brisca"
    name = "Brisca"
    rules_file = "brisca.txt"
    players = (2, 4)
    data_type = BriscaData
    options = {
        "hand_size": Option(3, "cards in each hand while the stock lasts", choices=(3, 6, 10)),
        "card_points": Option(
            "standard",
            "A 11, 3 10, R 4, C 3, S 2; or Tute's A and 3 worth 10",
            choices=tuple(CARD_POINTS),
        ),
        "cantes": Option(False, "parejas (R + C of a suit) sing 20, 40 in trumps"),
        "last_trick_bonus": Option(
            0, "points for the last trick (Tute's 'diez de últimas')", minimum=0, maximum=100
        ),
        "partnerships": Option(False, "with 4 players, seats 0+2 against 1+3"),
        "partner_claim": Option(False, "a partner may claim the pareja when R or C is played"),
        "claim_needs_pair": Option(
            True, "a claim needs the pareja's other card in the claimant's hand", since=2
        ),
        "tute_wins_deal": Option(
            False, "holding all four Reyes or Caballos ('tute') takes the deal"
        ),
        "arrastre": Option(
            "follow", "obligation once the stock is gone", choices=("follow", "montar")
        ),
        "three_player_removal": Option(
            "2B", "cards removed for 3 players", choices=("2B", "all-twos")
        ),
        "deals": Option(4, "deals per match", minimum=1, maximum=20),
        "direction": turns.DIRECTION,
        **deals_by_number(since=3),
    }
    rules_version = 3
    changes = (
        RulesChange(
            2,
            "a partner claims a pareja only holding its other card (before: without it too)",
            before={"claim_needs_pair": False},
        ),
        deals_by_number_change(
            3,
            "; each seat's cards from its own place in the deck, not by turn from the leader",
        ),
    )
    variants = {
        "base": Variant("base", "Brisca: 3 cards, 4 deals, 120 points a deal."),
        "tute": Variant(
            "tute",
            "Tute: 6 cards, A and 3 worth 10, cantes 20/40, last trick 10.",
            {
                "hand_size": 6,
                "card_points": "aces-and-threes",
                "cantes": True,
                "last_trick_bonus": 10,
            },
        ),
        "tute-parejas": Variant(
            "tute-parejas",
            "Tute en parejas: 4 players in two partnerships, 10 cards each, partner claims.",
            {
                "hand_size": 10,
                "card_points": "aces-and-threes",
                "cantes": True,
                "last_trick_bonus": 10,
                "partnerships": True,
                "partner_claim": True,
            },
            players=(4, 4),
        ),
    }

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "a new deal: its number, dealer and leader, and the card that shows the trump",
        round=INT.about("the deal's number, from 1"),
        dealer=SEAT,
        leader=SEAT.about("who leads the first trick"),
        trump_card=CARD.about("the card that shows the trump suit"),
        says=Say(
            es="Reparto {round}: da {dealer}, sale {leader}; la muestra es {trump_card}",
            en="Deal {round}: {dealer} deals, {leader} leads; the trump card is {trump_card}",
        ),
    )
    dealt = DEALT
    played = EventType(
        "played",
        "a card played to the trick",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} juega {card}", en="{seat} plays {card}"),
    )
    trick_won = tricks.TRICK_WON
    drew = EventType(
        "drew",
        "a card drawn after a trick: from the stock (seen by the drawer only) or the face-up"
        " trump, the last card (seen by all)",
        visibility=MAYBE_PRIVATE,
        seat=SEAT,
        card=CARD,
    )
    exchanged = EventType(
        "exchanged",
        "the 7 (or 2) of trumps given for the face-up card",
        seat=SEAT,
        gave=CARD.about("the card put face up"),
        took=CARD.about("the face-up card taken"),
        says=Say(es="{seat} cambia {gave} por {took}", en="{seat} exchanges {gave} for {took}"),
    )
    sang = EventType(
        "sang",
        "a pareja sung: the rey and caballo of a suit, 40 in trumps, else 20",
        seat=SEAT,
        suit=SUIT,
        points=INT,
        shown=CARDS.about("the rey and the caballo shown"),
        says=Say(es="{seat} canta las {points} en {suit}", en="{seat} sings {points} in {suit}"),
    )
    claimed = EventType(
        "claimed",
        "a pareja claimed by the partner of the seat that played its rey or caballo",
        seat=SEAT,
        suit=SUIT,
        points=INT,
        says=Say(
            es="{seat} reclama el cante de {suit}: {points:punto|puntos}",
            en="{seat} claims the pareja of {suit}: {points:point|points}",
        ),
    )
    deal_ended = EventType(
        "deal_ended",
        "a deal is over: each seat's points (its side's), and who sang a tute to take it",
        round=INT,
        points=INTS.about("per seat, its side's points this deal"),
        tute=SEAT.or_null("the seat whose tute took the deal"),
    )
    match_finished = MATCH_FINISHED

    @drew.sentence
    def _drew_said(self, event: Event) -> Say:
        if "visible_to" in event:
            return Say(es="{seat} roba {card}", en="{seat} draws {card}")
        return Say(
            es="{seat} se lleva la muestra, {card}", en="{seat} takes the face-up {card:bare}"
        )

    @deal_ended.sentence
    def _deal_ended_said(self, event: Event) -> Say:
        if event["tute"] is not None:
            return Say(
                es="{tute} canta tute y se lleva el reparto {round}",
                en="{tute} sings tute and takes deal {round}",
            )
        return Say(es="Termina el reparto {round}", en="Deal {round} is over")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "trump": SUIT.about("the trump suit of this deal"),
        "trump_card": CARD.about("the card that showed the trump"),
        "dealer": SEAT,
        "trick_seats": SEATS.about("who played each card of the trick, in order"),
        "tricks_won": INTS.about("per seat, tricks won this deal"),
        "cantes": list_of(
            obj(seat=SEAT, suit=SUIT, points=INT), "the parejas sung or claimed this deal"
        ),
        "deal_points": INTS.about("per seat, the card points of the tricks it won this deal"),
    }

    # -- the facts ---------------------------------------------------------------------
    trump = FactType(
        "trump", "the trump suit of this deal", SUIT, label=Say(es="Triunfo", en="Trump")
    )
    face_up = FactType(
        "trump_card",
        "the face-up card under the stock, while it is on the table",
        CARD,
        label=Say(es="Muestra", en="Face-up trump"),
        says=Say(es="Muestra: {value:bare}", en="Face-up trump: {value:bare}"),
    )
    stock_left = FactType(
        "stock",
        "cards left to draw: the stock and the face-up trump",
        INT,
        label=Say(es="Mazo", en="Stock"),
        says=Say(es="{value:carta|cartas} por robar", en="{value:card|cards} left to draw"),
    )
    arrastre = FactType(
        "arrastre",
        "the stock is gone: what a card played to a trick must do",
        choice("follow", "montar", words=FOLLOW_RULES),
        label=Say(es="Arrastre", en="Arrastre"),
        says=Say(es="Arrastre: hay que {value}", en="Arrastre: you must {value}"),
    )
    taken = FactType(
        "points",
        "the points a seat has taken this deal: its tricks' cards and its cantes",
        INT,
        per_seat=True,
        label=Say(es="Puntos del reparto", en="Points this deal"),
        says=Say(es="{seat} lleva {value:punto|puntos}", en="{seat} has {value:point|points}"),
    )
    side_taken = FactType(
        "team_points",
        "the points a seat's side has taken this deal: its tricks' cards and its cantes",
        INT,
        per_seat=True,
        label=Say(es="Puntos de la pareja", en="Side's points this deal"),
        says=Say(
            es="La pareja de {seat} lleva {value:punto|puntos}",
            en="{seat}'s side has {value:point|points}",
        ),
    )
    score = FactType(
        "score",
        "a seat's total over the deals played",
        INT,
        per_seat=True,
        label=Say(es="Partida", en="Match"),
        says=Say(es="{seat}: {value} en la partida", en="{seat}: {value} in the match"),
    )
    deal_number = FactType(
        "deal",
        "which deal of the match this is",
        obj(number=INT, of=INT),
        label=Say(es="Reparto", en="Deal"),
        says=Say(es="Reparto {value.number} de {value.of}", en="Deal {value.number} of {value.of}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, zones, n = BriscaData.of(state), state.zones, state.players
        facts = [self.trump(data.trump)]
        if zones["trump"].cards:
            facts.append(self.face_up(zones["trump"].cards[0]))
        left = len(zones["stock"].cards) + len(zones["trump"].cards)
        facts.append(self.stock_left(left))
        if not left and not state.finished:
            facts.append(self.arrastre(state.options["arrastre"]))
        taken = [self._points(state, state.cards(seat_zone("won", s))) for s in range(n)]
        for c in data.cantes:
            taken[c["seat"]] += c["points"]
        for s in range(n):
            facts.append(self.taken(taken[s], s))
        if state.teams:
            for s in range(n):
                facts.append(self.side_taken(sum(taken[m] for m in state.team_of(s)), s))
        facts.extend(self.score(state.scores[s], s) for s in range(n))
        facts.append(self.deal_number({"number": state.round, "of": state.options["deals"]}))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        cards = spanish_deck(40)
        if state.players == 3:
            removed = (
                {"2B"}
                if state.options["three_player_removal"] == "2B"
                else {"2O", "2C", "2E", "2B"}
            )
            cards = [c for c in cards if c not in removed]
        return cards

    def setup(self, state: State) -> list[Event]:
        opts = state.options
        if state.players * opts["hand_size"] > len(self.deck(state)):
            raise BadSetup(
                f"{opts['hand_size']} cards for {state.players} players do not fit the deck"
            )
        BriscaData.of(state).direction = turns.direction(state)
        if opts["partnerships"] and state.players == 4:
            state.teams = [[0, 2], [1, 3]]
        dealer = state.rng().randrange(state.players)
        return self._deal(state, turns.next_seat(state, dealer))

    def _deal(self, state: State, leader: int) -> list[Event]:
        state.new_deal()
        n, opts = state.players, state.options
        cards = self.deck(state)
        state.shuffle(cards)
        for s in range(n):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("won", s), s, PUBLIC)
        state.zone("trick", None, PUBLIC)
        stock = state.zone("stock", None, HIDDEN)
        face_up = state.zone("trump", None, PUBLIC)
        events = []
        order = turns.seats_from(state, leader)
        # by deal number: each seat's cards from its own place in the deck, whoever leads
        places = list(range(n)) if state.by_deal() else order
        size = opts["hand_size"]
        for s in places:
            state.zones[hand(s)].cards = cards[:size]
            del cards[:size]
        if cards:
            face_up.cards = [cards.pop(0)]
            stock.cards = cards[::-1]  # the top of the stock is the end of the list
            trump_card = face_up.cards[0]
        else:  # everything dealt: the last card dealt shows the trump (the dealer's, by turn)
            trump_card = state.cards(hand(places[-1]))[-1]
        data = BriscaData.of(state)
        data.trump = suit(trump_card)
        data.trump_card = trump_card
        data.dealer = turns.next_seat(state, leader, -1)
        data.trick_seats = []
        data.tricks_won = [0] * n
        data.cantes = []
        data.sung = [[] for _ in range(n)]
        data.may_sing = None
        data.claimable = [[] for _ in range(n)]
        data.last_trick = None
        data.exchanged = []
        state.to_act = [leader]
        events.append(self.new_deal(round=state.round, dealer=data.dealer, leader=leader,
                                    trump_card=trump_card))  # fmt: skip
        for s in order:
            events.append(self.dealt(seat=s, cards=list(state.cards(hand(s))), visible_to=[s]))
        return events

    # -- the action table --------------------------------------------------------------
    play = ActionType("play", "play a card of your hand to the trick", phases=("play",), card=CARD)
    exchange = ActionType(
        "exchange",
        "give the 7 of trumps for the face-up card (or the 2 of trumps for a face-up 7)",
        phases=("play",),
        card=CARD,
    )
    sing = ActionType(
        "sing",
        "sing a pareja (rey and caballo of a suit) right after winning a trick, or a tute",
        phases=("play",),
        suit=choice(*SPANISH_SUITS, TUTE, description="the pareja's suit, or tute"),
    )
    claim = ActionType(
        "claim",
        "claim the pareja of the rey or caballo your partner just played",
        phases=("play",),
        suit=choice(*SPANISH_SUITS, description="the suit of the card your partner played"),
    )

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The action table's listing (play, exchange, sing, claim, in its order) in one call:
        asked every turn, and on most turns only a card can be played, so each other type's
        listing is called only when its first condition holds (tests/games/test_brisca.py
        checks this equals each type's own listing, which the shared suite checks against
        the refusals)."""
        if state.phase != "play":  # pragma: no cover - Brisca has one phase
            return super().legal_actions(state, seat)
        actions = self._playable_now(state, seat)
        zones, data, options = state.zones, state.data, state.options
        if zones["trump"].cards and data.tricks_won[seat]:
            seven, two = EXCHANGES[data.trump]
            cards = zones[hand(seat)].cards
            if seven in cards or two in cards:
                actions += self._exchanges_now(state, seat)
        if options["cantes"] and data.may_sing == seat:
            actions += self._sings_now(state, seat)
        if options["partner_claim"] and data.claimable[seat]:
            actions += self._claims_now(state, seat)
        return actions

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return card_actions("play", state.cards(hand(seat)))

    def _playable_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: under arrastre one pass over the hand instead of one per card."""
        zones = state.zones
        cards = zones[hand(seat)].cards
        if zones["trick"].cards and not zones["stock"].cards and not zones["trump"].cards:
            cards = self._playable(state, cards)  # arrastre
        return [{"type": "play", "card": c} for c in cards]

    play.enumerate(_playable_now)  # not as a decorator: ``legal_actions`` extends its list

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card, zones = action["card"], state.zones
        cards = zones[hand(seat)].cards
        if card not in cards:
            return not_in_hand(state, seat, card)
        if (
            zones["trick"].cards  # arrastre (``_arrastre``), asked here on every card played
            and not zones["stock"].cards
            and not zones["trump"].cards
            and card not in self._playable(state, cards)
        ):
            return FOLLOW_AND_HEAD if state.options["arrastre"] == "montar" else FOLLOW
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        # Every action but a few is a card played: the zones and data are read directly.
        card, zones, options = action["card"], state.zones, state.options
        data: BriscaData = state.data
        n = state.players
        zones[hand(seat)].cards.remove(card)
        trick = zones["trick"].cards
        trick.append(card)
        data.trick_seats.append(seat)
        data.may_sing = None
        if data.claimable[seat]:
            data.claimable[seat] = []
        events = [self.played(seat=seat, card=card)]
        if options["partner_claim"] and rank(card) in (CABALLO, REY) and state.teams:
            partner = next(s for s in state.team_of(seat) if s != seat)
            if suit(card) not in data.claimable[partner]:
                data.claimable[partner].append(suit(card))
        if len(trick) < n:
            state.to_act = [(seat + data.direction) % n]  # ``turns.next_seat``
            return events
        taker = tricks.trick_winner(trick, BRISCA_STRENGTH, data.trump)
        assert taker is not None
        winner = data.trick_seats[taker]
        won = list(trick)
        zones[won_pile(winner)].cards.extend(won)
        trick.clear()
        data.trick_seats = []
        data.tricks_won[winner] += 1
        data.last_trick = winner
        events.append(self.trick_won(seat=winner, cards=won, points=self._points(state, won)))
        for s in range(n):
            if zones[hand(s)].cards:
                break
        else:  # every hand is played out
            return events + self._end_deal(state)
        if zones["stock"].cards or zones["trump"].cards:
            events.extend(self._draw(state, winner))
        state.to_act = [winner]
        if options["cantes"]:
            data.may_sing = winner
        return events

    @exchange.enumerate
    def _exchanges_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: asked every turn, and most turns nothing can be exchanged."""
        zones, data = state.zones, BriscaData.of(state)
        if not zones["trump"].cards or not data.tricks_won[seat]:
            return []
        cards = zones[hand(seat)].cards
        seven, two = EXCHANGES[data.trump]
        if seven not in cards and two not in cards:
            return []
        return self.exchange.filtered(self, state, seat)

    @exchange.candidates
    def _exchanges(self, state: State, seat: int) -> list[Action]:
        if not state.zones["trump"].cards:
            return []  # nothing to check: the refusal says why
        data = BriscaData.of(state)
        if not data.tricks_won[seat]:
            return []
        cards = state.zones[hand(seat)].cards
        seven, two = EXCHANGES[data.trump]
        if seven not in cards and two not in cards:
            return []
        return [{"type": "exchange", "card": c} for c in (seven, two) if c in cards]

    @exchange.refusal
    def _exchange_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        face_up = state.zones["trump"].cards
        if not face_up:
            return NO_FACE_UP
        if not self._has_won(state, seat):
            return WIN_FIRST
        card, data = action["card"], BriscaData.of(state)
        seven, two = f"7{data.trump}", f"2{data.trump}"
        if missing := not_in_hand(state, seat, card):
            return missing
        if card in data.exchanged or not (card == seven or (card == two and face_up[0] == seven)):
            return ONLY_SEVEN_OR_TWO
        return None

    @exchange.handler
    def _exchange(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        face_up = state.zones["trump"].cards
        taken = face_up[0]
        cards = state.cards(hand(seat))
        cards[cards.index(card)] = taken
        face_up[0] = card
        BriscaData.of(state).exchanged.append(card)
        return [self.exchanged(seat=seat, gave=card, took=taken)]

    @sing.enumerate
    def _sings_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: only the winner of the last trick may sing, before leading."""
        options = state.options
        if not options["cantes"] or BriscaData.of(state).may_sing != seat:
            return []
        cards, sung = state.zones[hand(seat)].cards, self._team_sung(state, seat)
        actions: list[Action] = [
            {"type": "sing", "suit": s}
            for s in SPANISH_SUITS
            if s not in sung and f"{REY}{s}" in cards and f"{CABALLO}{s}" in cards
        ]
        if options["tute_wins_deal"] and self._tute(cards):
            actions.append({"type": "sing", "suit": TUTE})
        return actions

    @sing.candidates
    def _sings(self, state: State, seat: int) -> list[Action]:
        if not state.options["cantes"] or BriscaData.of(state).may_sing != seat:
            return []  # nothing to check: the refusal says why
        cards = state.cards(hand(seat))
        held = [s for s in SPANISH_SUITS if f"{REY}{s}" in cards and f"{CABALLO}{s}" in cards]
        return [{"type": "sing", "suit": s} for s in (*held, TUTE)]

    @sing.refusal
    def _sing_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        opts, which = state.options, action["suit"]
        if not opts["cantes"]:
            return NO_CANTES
        if BriscaData.of(state).may_sing != seat:
            return SING_AFTER_TRICK
        cards = state.cards(hand(seat))
        if which == TUTE:
            if not opts["tute_wins_deal"]:
                return TUTE_NEEDS_OPTION
            return None if self._tute(cards) else TUTE_NEEDS_FOUR
        if which in self._team_sung(state, seat):
            return SUNG_ALREADY(suit=which)
        if f"{REY}{which}" not in cards or f"{CABALLO}{which}" not in cards:
            return SING_NEEDS_PAIR(suit=which)
        return None

    @sing.handler
    def _sing(self, state: State, seat: int, action: Action) -> list[Event]:
        which, data = action["suit"], BriscaData.of(state)
        data.may_sing = None
        if which == TUTE:
            return self._end_deal(state, tute=seat)
        points = 40 if which == data.trump else 20
        data.sung[seat].append(which)
        data.cantes.append({"seat": seat, "suit": which, "points": points})
        shown = [f"{REY}{which}", f"{CABALLO}{which}"]
        return [self.sang(seat=seat, suit=which, points=points, shown=shown)]

    @claim.enumerate
    def _claims_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: a claim is open only right after the partner's rey or caballo."""
        if not state.options["partner_claim"] or not BriscaData.of(state).claimable[seat]:
            return []
        return self.claim.filtered(self, state, seat)

    @claim.candidates
    def _claims(self, state: State, seat: int) -> list[Action]:
        if not state.options["partner_claim"]:
            return []  # nobody can claim: the refusal says why
        suits = BriscaData.of(state).claimable[seat]
        if suits and self.option(state, "claim_needs_pair"):
            cards = state.zones[hand(seat)].cards
            suits = [s for s in suits if f"{REY}{s}" in cards or f"{CABALLO}{s}" in cards]
        return [{"type": "claim", "suit": s} for s in suits]

    @claim.refusal
    def _claim_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        which = action["suit"]
        if which not in BriscaData.of(state).claimable[seat]:
            return CLAIM_AFTER_PARTNER
        if which in self._team_sung(state, seat):
            return SUNG_ALREADY(suit=which)
        cards = state.cards(hand(seat))
        if self.option(state, "claim_needs_pair") and not (
            f"{REY}{which}" in cards or f"{CABALLO}{which}" in cards
        ):
            # The partner played one of the two; the other must be in the claimant's hand.
            return CLAIM_NEEDS_OTHER(suit=which)
        return None

    @claim.handler
    def _claim(self, state: State, seat: int, action: Action) -> list[Event]:
        which, data = action["suit"], BriscaData.of(state)
        data.claimable[seat].remove(which)
        points = 40 if which == data.trump else 20
        data.sung[seat].append(which)
        data.cantes.append({"seat": seat, "suit": which, "points": points})
        return [self.claimed(seat=seat, suit=which, points=points)]

    # -- drawing and the end of a deal ----------------------------------------------------
    def _draw(self, state: State, first: int) -> list[Event]:
        zones, data = state.zones, state.data
        stock, face_up = zones["stock"].cards, zones["trump"].cards
        events = []
        for s in turns.rounds_from(state.players, data.direction)[first]:
            if stock:
                card = stock.pop()
                events.append(self.drew(seat=s, card=card, visible_to=[s]))
            elif face_up:
                card = face_up.pop()
                events.append(self.drew(seat=s, card=card))
            else:
                break
            zones[hand(s)].cards.append(card)
        return events

    def _end_deal(self, state: State, tute: int | None = None) -> list[Event]:
        data, n = BriscaData.of(state), state.players
        if tute is not None:  # a sung "tute" takes every point of the deal
            every = self._points(state, self.deck(state)) + state.options["last_trick_bonus"]
            every += sum(c["points"] for c in data.cantes)
            seat_points = [every if s in state.team_of(tute) else 0 for s in range(n)]
            pile = state.zones[seat_zone("won", tute)].cards
            for s in range(n):  # the deal stops here: gather the cards back on the winner's pile
                for name in (hand(s), "trick", "stock", "trump"):
                    pile.extend(state.zones[name].cards)
                    state.zones[name].cards.clear()
            data.last_trick = tute
        else:
            seat_points = [self._points(state, state.cards(seat_zone("won", s))) for s in range(n)]
            for c in data.cantes:
                seat_points[c["seat"]] += c["points"]
            assert data.last_trick is not None
            seat_points[data.last_trick] += state.options["last_trick_bonus"]
        points = [sum(seat_points[m] for m in state.team_of(s)) for s in range(n)]
        record_round(state, points)
        events = [self.deal_ended(round=state.round, points=points, tute=tute)]
        if len(state.rounds) >= state.options["deals"]:
            best = max(state.scores)
            winners = [s for s in range(n) if state.scores[s] == best]
            if len(winners) > 1:  # tie-break: the higher score in the last deal
                last = max(points[s] for s in winners)
                winners = [s for s in winners if points[s] == last]
            return events + end_match(state, winners)
        state.round += 1
        assert data.last_trick is not None
        return events + self._deal(state, data.last_trick)

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _arrastre(state: State) -> bool:
        """Whether suit is obligatory now: a trick is led and stock and face-up trump are gone."""
        zones = state.zones
        return bool(zones["trick"].cards) and not zones["stock"].cards and not zones["trump"].cards

    @staticmethod
    def _playable(state: State, cards: list[str]) -> list[str]:
        """The cards of a hand that may follow the trick under arrastre."""
        head = state.options["arrastre"] == "montar"
        trick, trump = state.zones["trick"].cards, BriscaData.of(state).trump
        return tricks.playable(cards, trick, BRISCA_STRENGTH, trump, head=head)

    @staticmethod
    def _points(state: State, cards: list[str]) -> int:
        return sum(map(POINTS_BY_CARD[state.options["card_points"]].__getitem__, cards))

    @staticmethod
    def _has_won(state: State, seat: int) -> bool:
        return BriscaData.of(state).tricks_won[seat] > 0

    @staticmethod
    def _team_sung(state: State, seat: int) -> set[str]:
        sung = BriscaData.of(state).sung
        return {s for m in state.team_of(seat) for s in sung[m]}

    @staticmethod
    def _tute(cards: list[str]) -> bool:
        return (
            sum(rank(c) == REY for c in cards) == 4 or sum(rank(c) == CABALLO for c in cards) == 4
        )

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: BriscaData) -> BriscaData:
        """The songs sung, and the seat's own song and claims, from the view (see engine.sampling)."""
        data.sung = [
            [c["suit"] for c in view["cantes"] if c["seat"] == s] for s in range(view["players"])
        ]
        offered = view["legal_actions"]
        if any(a["type"] == "sing" for a in offered):
            data.may_sing = view["seat"]
        seat, face_up = view["seat"], view["zones"]["trump"]["cards"]
        if seat is None:
            return data
        if data.claimable:
            data.claimable[seat] = [a["suit"] for a in offered if a["type"] == "claim"]
        # A 7 or 2 of trumps the seat could exchange now but is not offered was exchanged.
        seven, two = f"7{data.trump}", f"2{data.trump}"
        hand = view["zones"][f"hand:{seat}"]["cards"]
        can = face_up and view["tricks_won"][seat] > 0 and seat in view["to_act"]
        exchangeable = [seven, two] if face_up and face_up[0] == seven else [seven]
        offered_cards = {a["card"] for a in offered if a["type"] == "exchange"}
        data.exchanged = [c for c in face_up if c in (seven, two)] + [
            c for c in exchangeable if can and c in hand and c not in offered_cards
        ]
        return data

    def public_fields(self, state: State) -> dict:
        data = BriscaData.of(state)
        return {
            "trump": data.trump,
            "trump_card": data.trump_card,
            "dealer": data.dealer,
            "trick_seats": list(data.trick_seats),
            "tricks_won": list(data.tricks_won),
            "cantes": list(data.cantes),
            "deal_points": [
                self._points(state, state.cards(seat_zone("won", s))) for s in range(state.players)
            ],
        }


register(Brisca())
