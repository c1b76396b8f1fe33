"""El Truco, Argentine, for two players (rules/truco.txt).

Each hand deals 3 cards of the 40-card Spanish deck; mano (the non-dealer, alternating)
leads the first of up to three bazas, each won by the higher card in the truco ranking.
Betting interleaves with the bazas: envido (points of two cards of a suit), flor (three
of a suit) and truco (what the hand is worth). A pending call puts the responder alone in
``to_act`` (phase ``envido`` or ``truco``) with quiero, no-quiero or a raise. The first
player to reach 30 wins.

The decisions where the text is silent, ambiguous or contradictory, each with its option
and default, are in docs/games/truco.md.

Rules version 2 (duplicate deals): every deal's chance is drawn from (seed, deal number,
draw within the deal) (``State.by_deal``), so deal k is the same cards for the same seat at
every table of a duplicate group whatever was played before; a new hand gathers the cards as
play left them and shuffles them from one order (sorted): a fresh shuffle of the same cards,
the same deal distribution.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    rank,
    record_round,
    register,
    spanish_deck,
    suit,
)
from shared.engine.actions import ActionType
from shared.engine.cards import SPANISH_SUITS
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARD, INT, INTS, SEAT, SEATS, choice, list_of, obj
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit.dealing import DEALT
from shared.engine.kit.ending import MATCH_FINISHED, end_match
from shared.engine.kit.tricks import trick_winner
from shared.engine.kit.zones import card_actions, hand, not_in_hand, seat_zone
from shared.engine.language import SPANISH_DECK, Message, Say, Words

TARGET, HALF = 30, 15  # the match, and the end of the malas
FLOR_POINTS, FLOR_FLOR_POINTS = 3, 6
PARDA = None  # a tied baza

# Truco ranking, best first (rules/truco.txt "Valores").
RANKING = (
    ("1E",), ("1B",), ("7E",), ("7O",), ("3E", "3C", "3O", "3B"), ("2E", "2C", "2O", "2B"),
    ("1C", "1O"), ("12E", "12C", "12O", "12B"), ("11E", "11C", "11O", "11B"),
    ("10E", "10C", "10O", "10B"), ("7C", "7B"), ("6E", "6C", "6O", "6B"),
    ("5E", "5C", "5O", "5B"), ("4E", "4C", "4O", "4B"),
)  # fmt: skip
STRENGTH = {card: len(RANKING) - i for i, group in enumerate(RANKING) for card in group}

E, RE, FE = "envido", "real-envido", "falta-envido"
FALTA = None  # the stake is the falta value
# chain of envido calls -> (points if accepted, points to the last caller if refused)
STAKES: dict[tuple[str, ...], tuple[int | None, int]] = {
    (E,): (2, 1), (RE,): (3, 1), (FE,): (FALTA, 1),
    (E, E): (4, 2), (E, RE): (5, 2), (E, FE): (FALTA, 2), (RE, FE): (FALTA, 3),
    (E, E, RE): (7, 4), (E, E, FE): (FALTA, 4), (E, RE, FE): (FALTA, 5),
    (E, E, RE, FE): (FALTA, 7),
}  # fmt: skip
ENVIDO_CALLS = (E, RE, FE)
TRUCO_CALLS = ("truco", "retruco", "vale-cuatro")
TRUCO_VALUE = (1, 2, 3, 4)  # what the hand is worth by accepted truco level

#: The calls as players say them.
CALL_WORDS = Words(
    {
        E: ("envido", "envido"), RE: ("real envido", "real envido"),
        FE: ("falta envido", "falta envido"), "truco": ("truco", "truco"),
        "retruco": ("retruco", "retruco"), "vale-cuatro": ("vale cuatro", "vale cuatro"),
    }
)  # fmt: skip
CALL = choice(*ENVIDO_CALLS, *TRUCO_CALLS, description="a call", words=CALL_WORDS)
ENVIDO_CALL = choice(*ENVIDO_CALLS, description="an envido call", words=CALL_WORDS)
TRUCO_CALL = choice(*TRUCO_CALLS, description="a truco call", words=CALL_WORDS)

# -- what the rules say to a player, in both languages -------------------------------------
NO_FLOR = Say(es="esta partida se juega sin flor", en="this match is played without flor")
FLOR_SUNG = Say(es="ya cantaste tu flor", en="you already sang your flor")
NO_FLOR_HELD = Say(
    es="no tienes flor (tres cartas del mismo palo)",
    en="you do not hold a flor (three cards of one suit)",
)
FLOR_FIRST = Say(
    es="tienes flor: hay que cantarla antes que nada",
    en="you hold a flor: singing it is mandatory before anything else",
)
FLOR_CANCELS = Say(
    es="se cantó flor: la flor anula el envido", en="a flor was sung: the flor cancels the envido"
)
RAISE_ONLY = Say(
    es="después de {chain} solo se puede subir con {raises}",
    en="after {chain} you may raise only with {raises}",
)
NOTHING = Say(es="nada", en="nothing")
ENVIDO_PLAYED = Say(
    es="el envido ya se jugó en esta mano", en="the envido was already played this hand"
)
ENVIDO_FIRST_BAZA = Say(
    es="el envido solo se canta en la primera baza",
    en="the envido is called only in the first baza",
)
ENVIDO_BEFORE_CARD = Say(
    es="el envido se canta antes de jugar tu primera carta",
    en="the envido must be called before you play your first card",
)
TRUCO_ACCEPTED = Say(
    es="ya se quiso el truco: es tarde para el envido",
    en="the truco was accepted: it is too late for the envido",
)
ANSWER_ENVIDO = Say(es="primero responde al envido", en="answer the envido first")
HIGHEST_CALL = Say(es="vale cuatro es el canto más alto", en="vale cuatro is the highest call")
NEXT_CALL = Say(
    es="los cantos van truco, retruco y vale cuatro: el siguiente es {next}",
    en="the calls go truco, retruco, vale cuatro: the next is {next}",
)
RAISER_ONLY = Say(
    es="solo puede subir quien quiso el {call}",
    en="only the side that accepted the {call} may raise it",
)
WON_IT = Say(
    es="{seat} gana {what}: {points:punto|puntos}", en="{seat} wins {what}: {points:point|points}"
)
WON_IT_WITH = Say(
    es="{seat} gana {what} con {shown}: {points:punto|puntos}",
    en="{seat} wins {what} with {shown}: {points:point|points}",
)
NO_FOLD = Say(
    es="en esta partida no se puede ir al mazo (opción fold)",
    en="irse al mazo is not allowed in this match (option fold is off)",
)


def envido_value(card: str) -> int:
    r = rank(card)
    return r if r <= 7 else 0


def envido_points(cards: list[str]) -> int:
    """20 plus the best two of a suit; with no two of a suit, the best single card."""
    best = max(envido_value(c) for c in cards)
    for s in SPANISH_SUITS:
        values = sorted((envido_value(c) for c in cards if suit(c) == s), reverse=True)
        if len(values) >= 2:
            best = max(best, 20 + values[0] + values[1])
    return best


def has_flor(cards: list[str]) -> bool:
    """Three cards of one suit."""
    return len(cards) == 3 and suit(cards[0]) == suit(cards[1]) == suit(cards[2])


def flor_points(cards: list[str]) -> int:
    return 20 + sum(envido_value(c) for c in cards)


def baza_winner(cards: list[str]) -> int | None:
    """Who takes a baza of seat 0's and seat 1's cards: the higher in the ranking, whatever
    the suits; None for a parda (equal rank in the ranking)."""
    return trick_winner(cards, STRENGTH.__getitem__, any_suit=True, shared_best_wins=False)


def hand_winner(bazas: list[int | None], mano: int) -> int | None:
    """Who has won the hand by its bazas so far, or None to play on: see docs/games/truco.md."""
    for s in (0, 1):
        if bazas.count(s) >= 2:
            return s
    if len(bazas) < 2:
        return None
    first = bazas[0]
    if first is PARDA:
        decided = [b for b in bazas[1:] if b is not PARDA]
        if decided:
            return decided[0]
        return mano if len(bazas) == 3 else None
    return first if PARDA in bazas[1:] else None


@dataclass
class TrucoData(GameData):
    dealer: int = 0
    mano: int = 0  # the non-dealer: leads the first baza, wins ties of points
    turn: int = 0  # whose turn to play once no call is pending
    leader: int = 0  # who leads the current baza
    bazas: list[int | None] = field(default_factory=list)  # each baza's winner, None: parda
    truco_level: int = 0  # accepted level: 0 none, 1 truco, 2 retruco, 3 vale cuatro
    truco_owner: int | None = None  # who accepted the last level (may raise it)
    truco_call: int | None = None  # who made the pending truco call
    envido: list[str] = field(default_factory=list)  # the chain of envido calls
    envido_by: int | None = None  # who made the last envido call
    envido_open: bool = False  # an envido call awaits an answer
    envido_done: bool = False  # the envido (or a flor) was played this hand
    flores: list[int] = field(default_factory=list)  # seats that sang a flor, in order
    flor_settled: bool = False
    points: list[int] = field(default_factory=lambda: [0, 0])  # this hand's points so far


class Truco(Game):
    id = "truco"
    name = "El Truco"
    rules_file = "truco.txt"
    players = (2, 2)
    data_type = TrucoData
    options = {
        "flor": Option(True, "three of a suit score 3 (flor against flor 6) and cancel the envido"),
        "fold": Option(False, "allow 'irse al mazo', paid as a refused truco at the current level"),
        **deals_by_number(since=2),
    }
    rules_version = 2
    changes = (deals_by_number_change(2),)
    variants = {"base": Variant("base", "El Truco for two: envido, flor and truco, to 30 points.")}
    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    hand_started = EventType(
        "hand_started",
        "a new hand: its dealer, and mano, who leads and wins ties",
        round=INT.about("the hand's number, from 1"),
        dealer=SEAT,
        mano=SEAT,
        says=Say(
            es="Mano {round}: da {dealer}, es mano {mano}",
            en="Hand {round}: {dealer} deals, {mano} is mano",
        ),
    )
    dealt = DEALT
    called = EventType(
        "called",
        "a call made or raised: envido, real envido, falta envido, truco, retruco, vale cuatro",
        seat=SEAT,
        call=CALL,
        says=Say(es="{seat} canta {call}", en="{seat} calls {call}"),
    )
    accepted = EventType(
        "quiero",
        "the pending call accepted",
        seat=SEAT,
        call=CALL,
        says=Say(es="{seat}: ¡quiero! ({call})", en="{seat} accepts the {call}"),
    )
    refused = EventType(
        "no_quiero",
        "the pending call refused",
        seat=SEAT,
        call=CALL,
        says=Say(es="{seat}: no quiero ({call})", en="{seat} refuses the {call}"),
    )
    sang_flor = EventType(
        "flor",
        "a flor sung (three cards of one suit)",
        seat=SEAT,
        says=Say(es="{seat} canta flor", en="{seat} sings flor"),
    )
    envido_cancelled = EventType(
        "envido_cancelled",
        "a flor sung while an envido was pending cancels it",
        seat=SEAT.about("who sang the flor"),
        calls=list_of(ENVIDO_CALL, "the envido calls cancelled"),
        says=Say(es="La flor de {seat} anula el {calls}", en="{seat}'s flor cancels the {calls}"),
    )
    envido_won = EventType(
        "envido_won",
        "the envido settled: who wins it and its points; the points each side declared",
        seat=SEAT,
        points=INT,
        declared=list_of(INT.or_null(), "per seat, the envido it declared (null: none)"),
    )
    flor_won = EventType(
        "flor_won",
        "the flor settled: who wins it and its points; against a flor, the points declared",
        seat=SEAT,
        points=INT,
        declared=list_of(INT.or_null(), "per seat, the flor it declared (null: none)"),
    )
    played = EventType(
        "played",
        "a card played to the baza",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} juega {card}", en="{seat} plays {card}"),
    )
    baza = EventType(
        "baza",
        "a baza decided: its number and winner (null and parda: a tie)",
        number=INT,
        seat=SEAT.or_null(),
        parda=BOOL,
    )
    folded = EventType(
        "folded",
        "irse al mazo: the hand given up",
        seat=SEAT,
        says=Say(es="{seat} se va al mazo", en="{seat} folds"),
    )
    hand_ended = EventType(
        "hand_ended",
        "a hand is over: who won it, what it was worth, and this hand's points per seat",
        round=INT,
        seat=SEAT,
        won=INT.about("what the hand was worth to its winner"),
        points=INTS.about("per seat, every point of this hand (envido and flor included)"),
        says=Say(
            es="{seat} gana la mano {round}: {won:punto|puntos}",
            en="{seat} wins hand {round}: {won:point|points}",
        ),
    )
    match_finished = MATCH_FINISHED

    @envido_won.sentence
    def _envido_won_said(self, event: Event) -> tuple[Say, dict[str, Any]]:
        return self._settled(event, Say(es="el envido", en="the envido"))

    @flor_won.sentence
    def _flor_won_said(self, event: Event) -> tuple[Say, dict[str, Any]]:
        return self._settled(event, Say(es="la flor", en="the flor"))

    @staticmethod
    def _settled(event: Event, what: Say) -> tuple[Say, dict[str, Any]]:
        """Who won the envido or the flor, with the points the winner declared (if it did)."""
        shown = event["declared"][event["seat"]]
        if shown is None:
            return WON_IT, {"what": what}
        return WON_IT_WITH, {"what": what, "shown": shown}

    @baza.sentence
    def _baza_said(self, event: Event) -> Say:
        if event["parda"]:
            return Say(es="La baza {number} es parda", en="Baza {number} is a tie (parda)")
        return Say(es="{seat} gana la baza {number}", en="{seat} takes baza {number}")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "dealer": SEAT,
        "mano": SEAT.about("leads the first baza and wins ties of points"),
        "turn": SEAT.about("whose turn to play once no call is pending"),
        "bazas": list_of(SEAT.or_null(), "each baza's winner so far (null: parda)"),
        "truco": TRUCO_CALL.or_null("the truco level accepted (null: none)"),
        "truco_value": INT.about("what the hand is worth now"),
        "truco_owner": SEAT.or_null("who accepted the last truco level (only that side raises)"),
        "pending_call": obj(
            "the call awaiting an answer (null: none)", seat=SEAT.about("who called"), call=CALL
        ).or_null(),
        "envido_calls": list_of(ENVIDO_CALL, "the envido calls of this hand, in order"),
        "envido_done": BOOL.about("the envido (or a flor) was played this hand"),
        "flores": SEATS.about("the seats that sang a flor this hand"),
        "hand_points": INTS.about("per seat, this hand's points so far (envido and flor)"),
        "falta_value": INT.about("what a falta envido is worth now"),
    }
    private_view = {
        "envido_points": INT.or_null("your envido points this hand"),
        "flor_points": INT.or_null("your flor points, if you hold a flor"),
    }

    # -- the facts ---------------------------------------------------------------------
    pending = FactType(
        "pending_call",
        "the call awaiting an answer, about the seat that made it",
        CALL,
        per_seat=True,
        label=Say(es="Canto pendiente", en="Pending call"),
        says=Say(
            es="{seat} ha cantado {value}: falta la respuesta",
            en="{seat} called {value}: waiting for the answer",
        ),
    )
    truco_accepted = FactType(
        "truco",
        "the truco level accepted this hand",
        TRUCO_CALL,
        label=Say(es="Truco", en="Truco"),
        says=Say(es="Querido: {value}", en="Accepted: {value}"),
    )
    stake = FactType(
        "stake",
        "what this hand is worth to its winner now",
        INT,
        label=Say(es="La mano vale", en="The hand is worth"),
        says=Say(
            es="La mano vale {value:punto|puntos}", en="The hand is worth {value:point|points}"
        ),
    )
    envido = FactType(
        "envido",
        "the envido calls of this hand, while the envido is open",
        list_of(ENVIDO_CALL),
        label=Say(es="Envido", en="Envido"),
        says=Say(es="Envido cantado: {value}", en="Envido called: {value}"),
    )
    envido_played = FactType(
        "envido_done",
        "the envido (or a flor) was played this hand: it cannot be called again",
        BOOL,
        label=Say(es="Envido", en="Envido"),
        says=Say(es="El envido ya se jugó", en="The envido has been played"),
    )
    falta = FactType(
        "falta",
        "what a falta envido is worth now",
        INT,
        label=Say(es="La falta vale", en="Falta envido is worth"),
        says=Say(es="La falta vale {value}", en="A falta envido is worth {value}"),
    )
    flor_sung = FactType(
        "flor",
        "a seat that sang a flor this hand",
        BOOL,
        per_seat=True,
        label=Say(es="Flor", en="Flor"),
        says=Say(es="{seat} tiene flor", en="{seat} has a flor"),
    )
    mano_seat = FactType(
        "mano",
        "the seat that is mano this hand: it leads and wins ties",
        BOOL,
        per_seat=True,
        label=Say(es="Mano", en="Mano"),
        says=Say(es="{seat} es mano", en="{seat} is mano"),
    )
    hand_points = FactType(
        "hand_points",
        "a seat's points so far this hand (envido and flor count at once)",
        INT,
        per_seat=True,
        label=Say(es="Puntos de esta mano", en="Points this hand"),
        says=Say(es="{seat}: {value} en esta mano", en="{seat}: {value} this hand"),
    )
    score = FactType(
        "score",
        "a seat's points in the match, to 30 (under 15: in malas)",
        INT,
        per_seat=True,
        label=Say(es="Partida", en="Match"),
        says=Say(es="{seat}: {value} de 30", en="{seat}: {value} of 30"),
    )
    my_envido = FactType(
        "my_envido",
        "your envido points this hand (only your view shows them)",
        INT,
        per_seat=True,
        label=Say(es="Tu envido", en="Your envido"),
        says=Say(es="Tienes {value} de envido", en="Your envido is {value}"),
    )
    my_flor = FactType(
        "my_flor",
        "your flor points, holding a flor (only your view shows them)",
        INT,
        per_seat=True,
        label=Say(es="Tu flor", en="Your flor"),
        says=Say(es="Tienes {value} de flor", en="Your flor is {value}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data = TrucoData.of(state)
        facts: list[Fact] = []
        call = self._pending_call(state)
        if call is not None:
            caller = data.envido_by if data.envido_open else data.truco_call
            facts.append(self.pending(call, caller))
        if data.truco_level:
            facts.append(self.truco_accepted(TRUCO_CALLS[data.truco_level - 1]))
        facts.append(self.stake(TRUCO_VALUE[data.truco_level]))
        if data.envido_open:
            facts.append(self.envido(list(data.envido)))
        elif data.envido_done:
            facts.append(self.envido_played(True))
        facts.append(self.falta(self._falta(state)))
        facts.extend(self.flor_sung(True, s) for s in data.flores)
        facts.append(self.mano_seat(True, data.mano))
        facts.extend(self.hand_points(data.points[s], s) for s in (0, 1))
        facts.extend(self.score(state.scores[s], s) for s in (0, 1))
        if seat is not None and not state.finished:
            own = self._cards(state, seat)
            facts.append(self.my_envido(envido_points(own), seat))
            if self._plays_flor(state, own):
                facts.append(self.my_flor(flor_points(own), seat))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40)

    def setup(self, state: State) -> list[Event]:
        for s in (0, 1):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("table", s), s, PUBLIC)
        state.zone("deck", None, HIDDEN).cards = self.deck(state)
        return self._deal(state, dealer=state.rng().randrange(2))

    def _deal(self, state: State, dealer: int) -> list[Event]:
        state.new_deal()
        deck = state.zones["deck"].cards
        for s in (0, 1):
            for name in (hand(s), seat_zone("table", s)):
                deck.extend(state.zones[name].cards)
                state.zones[name].cards = []
        state.shuffle(deck)
        mano = 1 - dealer
        for s in (mano, dealer):
            state.zones[hand(s)].cards = [deck.pop() for _ in range(3)]
        data = TrucoData.of(state)
        data.dealer, data.mano, data.turn, data.leader, data.bazas = dealer, mano, mano, mano, []
        data.truco_level, data.truco_owner, data.truco_call = 0, None, None
        data.envido, data.envido_by, data.envido_open, data.envido_done = [], None, False, False
        data.flores, data.flor_settled, data.points = [], False, [0, 0]
        self._set_to_act(state)
        events = [self.hand_started(round=state.round, dealer=dealer, mano=mano)]
        for s in (mano, dealer):
            cards = list(state.cards(hand(s)))
            events.append(self.dealt(seat=s, cards=cards, visible_to=[s]))
        return events

    # -- the action table --------------------------------------------------------------
    flor = ActionType("flor", "sing your flor: mandatory, as your first action of the hand")
    quiero = ActionType("quiero", "accept the pending call", phases=("envido", "truco"))
    no_quiero = ActionType("no-quiero", "refuse the pending call", phases=("envido", "truco"))
    play = ActionType("play", "play a card of your hand to the baza", phases=("play",), card=CARD)
    call = ActionType(
        "call",
        "call or raise the envido, or the truco",
        call=choice(*ENVIDO_CALLS, *TRUCO_CALLS, description="the call"),
    )
    fold = ActionType(
        "fold", "irse al mazo: give the hand up (option fold)", phases=("play", "truco")
    )

    @flor.enumerate
    def _flor_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly, as every type open in every phase: a refusal words its reason."""
        if not state.options["flor"] or seat in TrucoData.of(state).flores:
            return []
        return [{"type": "flor"}] if has_flor(self._cards(state, seat)) else []

    @flor.refusal
    def _flor_refused(self, state: State, seat: int, action: Action) -> Say | None:
        if not state.options["flor"]:
            return NO_FLOR
        if seat in TrucoData.of(state).flores:
            return FLOR_SUNG
        if not has_flor(self._cards(state, seat)):
            return NO_FLOR_HELD
        return None

    @flor.handler
    def _sing_flor(self, state: State, seat: int, action: Action) -> list[Event]:
        data = TrucoData.of(state)
        data.flores.append(seat)
        events = [self.sang_flor(seat=seat)]
        if data.envido_open:
            events.append(self.envido_cancelled(seat=seat, calls=list(data.envido)))
            data.envido_open = False
        data.envido_done = True
        if len(data.flores) == 2:
            events += self._settle_flor(state)
        return self._then(state, events)

    @quiero.refusal
    def _quiero_refused(self, state: State, seat: int, action: Action) -> Say | None:
        return self._flor_owed(state, seat)

    @quiero.handler
    def _accept(self, state: State, seat: int, action: Action) -> list[Event]:
        data = TrucoData.of(state)
        if data.envido_open:
            chain = tuple(data.envido)
            data.envido_open, data.envido_done = False, True
            stake = STAKES[chain][0]
            value = self._falta(state) if stake is FALTA else stake
            points = [envido_points(self._cards(state, s)) for s in (0, 1)]
            winner = self._better(state, points)
            declared = self._declared(state, points, winner)
            events = [
                self.accepted(seat=seat, call=chain[-1]),
                self.envido_won(seat=winner, points=value, declared=declared),
            ]
            return self._then(state, events + self._award(state, winner, value))
        data.truco_level += 1
        data.truco_owner, data.truco_call = seat, None
        events = [self.accepted(seat=seat, call=TRUCO_CALLS[data.truco_level - 1])]
        return self._then(state, events)

    @no_quiero.refusal
    def _no_quiero_refused(self, state: State, seat: int, action: Action) -> Say | None:
        return self._flor_owed(state, seat)

    @no_quiero.handler
    def _refuse(self, state: State, seat: int, action: Action) -> list[Event]:
        data = TrucoData.of(state)
        if data.envido_open:
            chain, caller = tuple(data.envido), data.envido_by
            assert caller is not None
            data.envido_open, data.envido_done = False, True
            value = STAKES[chain][1]
            events = [
                self.refused(seat=seat, call=chain[-1]),
                self.envido_won(seat=caller, points=value, declared=[None, None]),
            ]
            return self._then(state, events + self._award(state, caller, value))
        caller, level = data.truco_call, data.truco_level
        assert caller is not None
        data.truco_call = None
        events = [self.refused(seat=seat, call=TRUCO_CALLS[level])]
        return self._then(state, events + self._end_hand(state, caller, TRUCO_VALUE[level]))

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return card_actions("play", state.cards(hand(seat)))

    @play.enumerate
    def _plays_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly so that the owed flor is asked once, not once per card."""
        if self._owes_flor(state, seat):
            return []
        return card_actions("play", state.cards(hand(seat)))

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card = action["card"]
        if missing := not_in_hand(state, seat, card):
            return missing
        return self._flor_owed(state, seat)

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card, data = action["card"], TrucoData.of(state)
        state.move(card, hand(seat), seat_zone("table", seat))
        events = [self.played(seat=seat, card=card)]
        n = len(data.bazas)
        if len(state.cards(seat_zone("table", 1 - seat))) <= n:  # the baza waits for the other card
            data.turn = 1 - seat
            return self._then(state, events)
        result = baza_winner([state.cards(seat_zone("table", s))[n] for s in (0, 1)])
        data.bazas.append(result)
        events.append(self.baza(number=n + 1, seat=result, parda=result is PARDA))
        if result is not PARDA:
            data.leader = result
        data.turn = data.leader
        if data.flores and not data.flor_settled:
            events += self._settle_flor(state)
            if state.finished:
                return events
        winner = hand_winner(data.bazas, data.mano)
        if winner is not None:
            events += self._end_hand(state, winner, TRUCO_VALUE[data.truco_level])
        return self._then(state, events)

    @call.candidates
    def _calls(self, state: State, seat: int) -> list[Action]:
        return [{"type": "call", "call": c} for c in ENVIDO_CALLS + TRUCO_CALLS]

    @call.enumerate
    def _calls_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly so that the owed flor is asked once, not once per call."""
        if self._owes_flor(state, seat):
            return []
        data = TrucoData.of(state)  # the questions of the two refusals, asked once for all calls
        names: list[str] = []
        if data.flores:
            pass  # a flor cancels the envido
        elif data.envido_open:
            chain = tuple(data.envido)
            names = [c for c in ENVIDO_CALLS if chain + (c,) in STAKES]
        elif self._envido_closed(state, seat) is None:
            names = list(ENVIDO_CALLS)
        if not data.envido_open:
            answering = data.truco_call is not None
            level = data.truco_level + answering
            if level < len(TRUCO_CALLS) and (answering or level == 0 or data.truco_owner == seat):
                names.append(TRUCO_CALLS[level])
        return [{"type": "call", "call": c} for c in names]

    @call.refusal
    def _call_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        return self._call_rule(state, seat, action["call"]) or self._flor_owed(state, seat)

    def _call_rule(self, state: State, seat: int, name: str) -> Message | Say | None:
        """Why the call ``name`` is refused by the rules of the envido or the truco, or None."""
        if name in ENVIDO_CALLS:
            return self._envido_refusal(state, seat, name)
        return self._truco_refusal(state, seat, name)

    @call.handler
    def _call(self, state: State, seat: int, action: Action) -> list[Event]:
        name, data = action["call"], TrucoData.of(state)
        if name in ENVIDO_CALLS:
            data.envido.append(name)
            data.envido_by = seat
            data.envido_open = True
        else:
            if data.truco_call is not None:  # raising in answer accepts the pending call
                data.truco_level += 1
                data.truco_owner = seat
            data.truco_call = seat
        return self._then(state, [self.called(seat=seat, call=name)])

    @fold.enumerate
    def _fold_now(self, state: State, seat: int) -> list[Action]:
        if not state.options["fold"] or self._owes_flor(state, seat):
            return []
        return [{"type": "fold"}]

    @fold.refusal
    def _fold_refused(self, state: State, seat: int, action: Action) -> Say | None:
        if not state.options["fold"]:
            return NO_FOLD
        return self._flor_owed(state, seat)

    @fold.handler
    def _fold(self, state: State, seat: int, action: Action) -> list[Event]:
        data = TrucoData.of(state)
        events = [self.folded(seat=seat)]
        data.truco_call = None
        events += self._end_hand(state, 1 - seat, TRUCO_VALUE[data.truco_level])
        return self._then(state, events)

    def _then(self, state: State, events: list[Event]) -> list[Event]:
        """After any action: whoever must answer or play next is to act (unless it is over)."""
        if not state.finished:
            self._set_to_act(state)
        return events

    # -- refusals of calls ---------------------------------------------------------------
    def _flor_owed(self, state: State, seat: int) -> Say | None:
        """Asked last by every refusal but the flor's: it is the costliest question."""
        if self._owes_flor(state, seat):
            return FLOR_FIRST
        return None

    def _envido_refusal(self, state: State, seat: int, call: str) -> Message | Say | None:
        data = TrucoData.of(state)
        if data.flores:
            return FLOR_CANCELS
        chain = tuple(data.envido)
        if data.envido_open:
            if chain + (call,) in STAKES:
                return None
            raises = [CALL_WORDS[c] for c in ENVIDO_CALLS if chain + (c,) in STAKES]
            return RAISE_ONLY(chain=[CALL_WORDS[c] for c in chain], raises=raises or NOTHING)
        return self._envido_closed(state, seat)

    def _envido_closed(self, state: State, seat: int) -> Say | None:
        """Why no envido can be called now (with none open and no flor), or None."""
        data = TrucoData.of(state)
        if data.envido_done:
            return ENVIDO_PLAYED
        if data.bazas:
            return ENVIDO_FIRST_BAZA
        if state.cards(seat_zone("table", seat)):
            return ENVIDO_BEFORE_CARD
        if data.truco_level > 0:
            return TRUCO_ACCEPTED
        return None

    def _truco_refusal(self, state: State, seat: int, call: str) -> Message | Say | None:
        data = TrucoData.of(state)
        if data.envido_open:
            return ANSWER_ENVIDO
        answering = data.truco_call is not None
        level = data.truco_level + answering  # the level a new call would raise
        if level >= len(TRUCO_CALLS):
            return HIGHEST_CALL
        if TRUCO_CALLS.index(call) != level:
            return NEXT_CALL(next=CALL_WORDS[TRUCO_CALLS[level]])
        if not answering and level > 0 and data.truco_owner != seat:
            return RAISER_ONLY(call=CALL_WORDS[TRUCO_CALLS[level - 1]])
        return None

    # -- scoring -------------------------------------------------------------------------
    def _settle_flor(self, state: State) -> list[Event]:
        data = TrucoData.of(state)
        data.flor_settled = True
        flores = data.flores
        declared: list[int | None] = [None, None]
        if len(flores) == 1:
            winner, value = flores[0], FLOR_POINTS
        else:
            points = [flor_points(self._cards(state, s)) for s in (0, 1)]
            winner, value = self._better(state, points), FLOR_FLOR_POINTS
            declared = self._declared(state, points, winner)
        events = [self.flor_won(seat=winner, points=value, declared=declared)]
        return events + self._award(state, winner, value)

    def _award(self, state: State, seat: int, value: int) -> list[Event]:
        """Envido or flor points count at once; reaching 30 with them ends the match mid-hand."""
        points = TrucoData.of(state).points
        points[seat] += value
        if state.scores[seat] + points[seat] < TARGET:
            return []
        record_round(state, list(points))
        return end_match(state, [seat])

    def _end_hand(self, state: State, winner: int, value: int) -> list[Event]:
        data = TrucoData.of(state)
        events: list[Event] = []
        if data.flores and not data.flor_settled:  # envido and flor count first
            events += self._settle_flor(state)
            if state.finished:
                return events
        data.points[winner] += value
        points = list(data.points)
        record_round(state, points)
        events.append(self.hand_ended(round=state.round, seat=winner, won=value, points=points))
        if state.scores[winner] >= TARGET:
            return events + end_match(state, [winner])
        state.round += 1
        return events + self._deal(state, dealer=data.mano)

    def _falta(self, state: State) -> int:
        """What the leader lacks to reach 15 (in malas) or 30 (in buenas)."""
        leader = max(state.scores)
        return HALF - leader if leader < HALF else TARGET - leader

    # -- rules as questions --------------------------------------------------------------
    def _owes_flor(self, state: State, seat: int) -> bool:
        """Whether ``seat`` must sing its flor now: before its first card, as its first action."""
        data = TrucoData.of(state)  # asked for every candidate action: cheap questions first
        if data.bazas or seat in data.flores or not state.options["flor"]:
            return False
        cards = state.zones[hand(seat)].cards
        played = state.zones[seat_zone("table", seat)].cards
        return has_flor(cards + played if played else cards)

    @staticmethod
    def _plays_flor(state: State, cards: list[str]) -> bool:
        return bool(state.options["flor"]) and has_flor(cards)

    @staticmethod
    def _pending_call(state: State) -> str | None:
        data = TrucoData.of(state)
        if data.envido_open:
            return data.envido[-1]
        if data.truco_call is not None:
            return TRUCO_CALLS[data.truco_level]
        return None

    @staticmethod
    def _cards(state: State, seat: int) -> list[str]:
        """The three cards ``seat`` was dealt this hand: those in hand and those played."""
        return state.cards(hand(seat)) + state.cards(seat_zone("table", seat))

    @staticmethod
    def _better(state: State, points: list[int]) -> int:
        mano = TrucoData.of(state).mano
        return 1 - mano if points[1 - mano] > points[mano] else mano

    @staticmethod
    def _declared(state: State, points: list[int], winner: int) -> list[int | None]:
        """Mano announces first; pie announces only better points, else says "son buenas"."""
        shown: list[int | None] = [None, None]
        for s in (TrucoData.of(state).mano, winner):
            shown[s] = points[s]
        return shown

    @staticmethod
    def _set_to_act(state: State) -> None:
        data = TrucoData.of(state)
        if data.envido_open:
            assert data.envido_by is not None
            state.phase, state.to_act = "envido", [1 - data.envido_by]
        elif data.truco_call is not None:
            state.phase, state.to_act = "truco", [1 - data.truco_call]
        else:
            state.phase, state.to_act = "play", [data.turn]

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: TrucoData) -> TrucoData:
        """The calls and the baza's leader from what the view shows (see engine.sampling)."""
        call, n = view["pending_call"], len(view["bazas"])
        data.truco_level = TRUCO_CALLS.index(view["truco"]) + 1 if view["truco"] else 0
        data.envido, data.points = list(view["envido_calls"]), list(view["hand_points"])
        data.envido_open = bool(call) and call["call"] in ENVIDO_CALLS
        data.envido_by = call["seat"] if data.envido_open else None
        data.truco_call = call["seat"] if call and not data.envido_open else None
        data.flor_settled = bool(data.flores) and n >= 1
        ahead = [s for s in (0, 1) if view["zones"][seat_zone("table", s)]["count"] > n]
        data.leader = ahead[0] if ahead else view["turn"]
        return data

    def public_fields(self, state: State) -> dict:
        data = TrucoData.of(state)
        call = self._pending_call(state)
        caller = data.envido_by if data.envido_open else data.truco_call
        return {
            "dealer": data.dealer,
            "mano": data.mano,
            "turn": data.turn,
            "bazas": list(data.bazas),
            "truco": TRUCO_CALLS[data.truco_level - 1] if data.truco_level else None,
            "truco_value": TRUCO_VALUE[data.truco_level],
            "truco_owner": data.truco_owner,
            "pending_call": {"seat": caller, "call": call} if call else None,
            "envido_calls": list(data.envido),
            "envido_done": data.envido_done,
            "flores": list(data.flores),
            "hand_points": list(data.points),
            "falta_value": self._falta(state),
        }

    def private_fields(self, state: State, seat: int) -> dict:
        own = self._cards(state, seat)
        return {
            "envido_points": envido_points(own) if own else None,
            "flor_points": flor_points(own) if own and self._plays_flor(state, own) else None,
        }


register(Truco())
