"""Siete y Media (rules/siete-y-media.txt): every player against the house, 40-card deck.

Cards 1-7 are worth their number, the Sota, Caballo and Rey half a point each. Each
player gets one card face down, the house one card face up. In turn, each player takes
cards (face up) until they stand; going over 7½ ends their turn at once (a bust). When
every player is done, the house plays by itself: it always turns a second card, then
draws while its total is under 4 and stands at 4 or more. A player wins with a total over
the house's and not over 7½ (7½ from any cards is "siete y media"); a tie goes to the
house. The base game is one round; a match in which no player beat the house has no
winner (the result's reason is ``house_won``).

The house is an automated actor without a seat: its cards come from the match's shuffled
stock, and its play happens inside the engine when the players are done, so a match
replays like any other. Variants: ``con-apuestas`` (chips: an ante, one raise, 1:1 and
3:1 for 7½, rounds until one player holds all the chips or a round limit) and
``con-descarte`` (up to 3 extra cards, then one discard).

Rules version 2 (house_second_card, house_can_win, until_a_winner off): before it the house
stood on a first card of 4 or more, the players shared the win of a match the house won, and
rounds were dealt until a player beat the house. Every decision where the text is silent is
in docs/games/siete-y-media.md. Rules version 3 (duplicate deals): every deal's chance is
drawn from (seed, deal number, draw within the deal) (``State.by_deal``), so deal k is the
same cards for the same seat at every table of a duplicate group whatever was played before;
a new round gathers the cards as play left them and shuffles them from one order (sorted): a
fresh shuffle of the same cards, the same deal distribution; each seat's first card comes
from its own place, a seat out of chips leaving its place under the stock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
    Action,
    Event,
    Game,
    GameData,
    Option,
    RulesChange,
    State,
    Variant,
    rank,
    register,
    spanish_deck,
)
from shared.engine.actions import ActionType
from shared.engine.events import EventType, Said
from shared.engine.facts import Fact, FactType
from shared.engine.fields import (
    BOOL,
    CARD,
    CARDS,
    INT,
    INTS,
    NUMBER,
    SEAT,
    Field,
    choice,
    list_of,
    obj,
)
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit.dealing import DEALT, deal_by_place, deal_hands, gather_and_shuffle
from shared.engine.kit.ending import MATCH_FINISHED, end_match, finished_said, highest
from shared.engine.kit.turns import DIRECTION, seats_from
from shared.engine.kit.zones import hand, seat_zone_names
from shared.engine.language import SPANISH_DECK, Message, Say, Words

SIETE_Y_MEDIA = 15  # totals are kept in half points: 7½ is 15
HOUSE_STANDS_AT = 8  # 4 points
ANTE = 1
OUT, IN, STOOD, BUSTED = "out", "in", "stood", "busted"
WON, WON_7_5, LOST = "won", "won-siete-y-media", "lost"
HOUSE_WON = "house_won"  # the result's reason when no player beat the house

STATUS_WORDS = Words(
    {
        OUT: ("fuera de la ronda", "out of the round"),
        IN: ("juega", "playing"),
        STOOD: ("plantado", "standing"),
        BUSTED: ("pasado", "bust"),
    }
)
OUTCOME_WORDS = Words(
    {
        WON: ("gana a la banca", "beats the house"),
        WON_7_5: ("gana con siete y media", "wins with siete y media"),
        LOST: ("pierde", "loses"),
    }
)
PHASE_WORDS = Words({"discard": ("descartes", "discards"), "raise": ("subidas", "raises")})
STATUS = choice(OUT, IN, STOOD, BUSTED, words=STATUS_WORDS)
OUTCOME = choice(WON, WON_7_5, LOST, words=OUTCOME_WORDS).or_null(
    "the seat's outcome against the house; null: it sat the round out"
)
PHASE = choice("discard", "raise", words=PHASE_WORDS)

# -- what the rules say to a player, in both languages -------------------------------------
EXTRA_CARDS_LIMIT = Say(
    es="solo puedes pedir {limit:carta|cartas} después de la primera",
    en="you may take at most {limit} cards after your first one",
)
STOCK_EMPTY = Say(
    es="el mazo se ha acabado: solo puedes plantarte", en="the stock is empty: you can only stand"
)
KEEP_THE_LAST = Say(
    es="solo tienes una carta: tienes que quedártela",
    en="you have only one card: you must keep it",
)
RAISE_LIMIT = Say(
    es="se sube como mucho {limit:ficha|fichas}", en="a raise is at most {limit} chips"
)
NOT_YOURS = Say(es="{card:cap} no es una de tus cartas", en="card {code} is not one of yours")
CHIPS_LEFT = Say(es="solo te quedan {chips:ficha|fichas}", en="you have only {chips} chips left")


def halves(card: str) -> int:
    """A card's value in half points: 1-7 their number, figures ½."""
    r = rank(card)
    return 2 * r if r <= 7 else 1


HALVES = {card: halves(card) for card in spanish_deck(40)}  # totals are asked after every card


def total(cards: list[str]) -> int:
    return sum(map(HALVES.__getitem__, cards))


def points(half_points: int) -> float | int:
    """Half points as the number players say: 15 -> 7.5, 8 -> 4."""
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


#: ``up(seat)``: a seat's face-up cards; its face-down first card is in ``hand:<seat>``.
up = seat_zone_names("up")


@dataclass
class SieteYMediaData(GameData):
    status: list[str] = field(default_factory=list)  # per seat: out, in, stood, busted
    chips: list[int] = field(default_factory=list)  # per seat (con-apuestas)
    stakes: list[int] = field(default_factory=list)  # this round's ante plus raise, per seat
    first: int = 0  # who plays first this round
    queue: list[int] = field(default_factory=list)  # seats still to discard or to raise
    last_round: dict | None = None  # the house's total and each seat's outcome


class SieteYMedia(Game):
    id = "siete-y-media"
    name = "Siete y Media"
    rules_file = "siete-y-media.txt"
    players = (2, 8)
    data_type = SieteYMediaData
    options = {
        "direction": DIRECTION,
        "chips": Option(0, "chips each player starts with (0: no betting)", minimum=0,
                        maximum=1000),
        "max_raise": Option(3, "the most chips a player may add in the one raise", minimum=0,
                            maximum=1000),
        "siete_y_media_pays": Option(3, "what a win with 7½ pays per chip staked (1:1 otherwise)",
                                     minimum=1, maximum=10),
        "rounds": Option(1, "rounds in the match", minimum=1, maximum=100),
        "until_a_winner": Option(
            False, "without chips: while the house has beaten every player, deal another round"
        ),
        "max_rounds": Option(20, "the most rounds dealt while waiting for a winner", minimum=1,
                             maximum=100),
        "max_extra_cards": Option(0, "cards a player may take after the first (0: no limit)",
                                  minimum=0, maximum=39),
        "discard": Option(False, "before the house plays, each player may discard one card"),
        "house_hole_card": Option(
            False, "the house's second card is dealt face down at the start instead of drawn later"
        ),
        "house_second_card": Option(
            True, "the house always turns a second card before it stands", since=2
        ),
        "house_can_win": Option(
            True, "a match in which no player beat the house has no winner: the house won",
            since=2,
        ),
        **deals_by_number(since=3),
    }  # fmt: skip
    rules_version = 3
    changes = (
        RulesChange(
            2,
            "the house always turns a second card; a match in which no player beat the house"
            " has no winner; the base game is one round (before: the house stood on a first"
            " card of 4 or more, the players shared the win of a match the house won, and"
            " rounds were dealt until a player beat the house)",
            before={"house_second_card": False, "house_can_win": False, "until_a_winner": True},
        ),
        deals_by_number_change(
            3,
            "; each seat's first card from its own place, a seat out of chips leaving its "
            "place under the stock",
        ),
    )
    variants = {
        "base": Variant("base", "Siete y Media against the house: beat its total without going over 7½."),
        "con-apuestas": Variant(
            "con-apuestas",
            "10 chips each: an ante of 1, one raise, 1:1 (3:1 with 7½); 5 rounds, the most chips wins.",
            {"chips": 10, "rounds": 5},
        ),
        "con-descarte": Variant(
            "con-descarte",
            "Up to 3 extra cards; before the house plays each player may discard one card.",
            {"max_extra_cards": 3, "discard": True},
        ),
    }  # fmt: skip

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    round_started = EventType(
        "round_started",
        "a round begins: its number and who plays first",
        round=INT.about("the round's number, from 1"),
        first=SEAT.about("who plays first this round"),
        says=Say(es="Ronda {round}: empieza {first}", en="Round {round}: {first} plays first"),
    )
    antes = EventType(
        "antes",
        "every player in the round stakes its ante (con-apuestas)",
        stakes=INTS.about("per seat, the chips staked (0: it sits the round out)"),
        says=Say(es="Cada jugador pone su apuesta inicial", en="Every player stakes the ante"),
    )
    dealt = DEALT
    house_card = EventType(
        "house_card",
        "the house turns a card face up from the stock",
        card=CARD,
        total=NUMBER.about("the house's total after it"),
        says=Say(
            es="La banca descubre {card} y suma {total}",
            en="The house turns up {card} and has {total}",
        ),
    )
    house_card_face_down = EventType(
        "house_card_face_down",
        "the house takes its second card face down (option house_hole_card)",
        says=Say(es="La banca recibe una carta boca abajo", en="The house takes a card face down"),
    )
    took = EventType(
        "hit",
        "a player takes the stock's top card, face up",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} pide carta: {card}", en="{seat} takes a card: {card}"),
    )
    busted = EventType(
        "busted",
        "a player goes over 7½: its turn ends",
        seat=SEAT,
        says=Say(es="{seat} se pasa", en="{seat} goes bust"),
    )
    stood = EventType(
        "stood",
        "a player keeps its total and ends its turn",
        seat=SEAT,
        says=Say(es="{seat} se planta", en="{seat} stands"),
    )
    phase_started = EventType(
        "phase_started",
        "the players' turns are over: the round of discards or of raises begins",
        phase=PHASE,
        says=Say(es="Empieza la ronda de {phase}", en="The round of {phase} begins"),
    )
    discarded = EventType(
        "discarded",
        "a player discards one of its cards face up (con-descarte)",
        seat=SEAT,
        card=CARD,
        face_down_card=BOOL.about("whether it was the player's face-down first card"),
        says=Say(es="{seat} descarta {card}", en="{seat} discards {card}"),
    )
    raised = EventType(
        "raised",
        "a player adds chips to its stake, once (con-apuestas)",
        seat=SEAT,
        chips=INT.about("the chips added"),
        stake=INT.about("the player's stake after it"),
        says=Say(
            es="{seat} sube {chips:ficha|fichas}: apuesta {stake}",
            en="{seat} raises {chips:chip|chips}: stakes {stake}",
        ),
    )
    kept = EventType(
        "kept",
        "a player discards nothing (discard phase) or keeps its stake (raise phase)",
        seat=SEAT,
        phase=PHASE,
    )
    house_revealed = EventType(
        "house_revealed",
        "the house turns its face-down card up as it starts to play",
        card=CARD,
        total=NUMBER.about("the house's total after it"),
        says=Say(
            es="La banca descubre su carta tapada, {card}, y suma {total}",
            en="The house turns up its face-down card, {card}, and has {total}",
        ),
    )
    house_busted = EventType(
        "house_busted",
        "the house goes over 7½: every player not bust beats it",
        total=NUMBER,
        says=Say(es="La banca se pasa con {total}", en="The house goes bust with {total}"),
    )
    house_stood = EventType(
        "house_stood",
        "the house stands",
        total=NUMBER,
        says=Say(es="La banca se planta con {total}", en="The house stands on {total}"),
    )
    hand_shown = EventType(
        "hand_shown",
        "a player's cards shown when the round is scored",
        seat=SEAT,
        cards=CARDS,
        total=NUMBER,
        says=Say(es="{seat} enseña {cards}: {total}", en="{seat} shows {cards}: {total}"),
    )
    round_scored = EventType(
        "round_scored",
        "a round is settled against the house",
        round=INT,
        house=NUMBER.about("the house's total"),
        outcomes=list_of(OUTCOME, "per seat, its outcome"),
        points=INTS.about("per seat: chips won or lost (con-apuestas), else 1 for a win"),
        says=Say(
            es="Termina la ronda {round}: la banca tenía {house}",
            en="Round {round} is over: the house had {house}",
        ),
    )
    match_finished = MATCH_FINISHED.extend(
        reason=choice(HOUSE_WON, description="no player beat the house").maybe()
    )

    @kept.sentence
    def _kept_said(self, event: Event) -> Say:
        if event["phase"] == "discard":
            return Say(es="{seat} no descarta", en="{seat} discards nothing")
        return Say(es="{seat} no sube", en="{seat} does not raise")

    @match_finished.sentence
    def _finished_said(self, event: Event) -> Said:
        if event.get("reason") == HOUSE_WON:
            return Say(
                es="Fin de la partida: gana la banca", en="The match is over: the house wins"
            )
        return finished_said(self, event)

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "house_total": NUMBER.about("the total of the house's face-up cards"),
        "showing": list_of(NUMBER, "per seat, the total of its face-up cards"),
        "status": list_of(STATUS, "per seat: out, in (to play), stood or busted"),
        "chips": INTS.about("per seat, the chips in hand (con-apuestas; else empty)"),
        "stakes": INTS.about("per seat, its stake this round (con-apuestas)"),
        "first": SEAT.about("who plays first this round"),
        "last_round": obj(
            "the last round settled: the house's total and each seat's outcome",
            house=NUMBER,
            outcomes=list_of(OUTCOME),
        ).or_null(),
    }
    private_view = {
        "my_total": NUMBER.or_null("your total, face-down card included (null: out of the round)")
    }

    # -- the facts ---------------------------------------------------------------------
    house = FactType(
        "house",
        "the total of the house's face-up cards",
        NUMBER,
        label=Say(es="Banca", en="House"),
        says=Say(es="La banca tiene {value}", en="The house has {value}"),
    )
    round_number = FactType(
        "round",
        "which round of the match this is",
        obj(number=INT, of=INT),
        label=Say(es="Ronda", en="Round"),
        says=Say(es="Ronda {value.number} de {value.of}", en="Round {value.number} of {value.of}"),
    )
    seat_status = FactType(
        "status",
        "where a player is in the round: to play, standing, bust or out",
        STATUS,
        per_seat=True,
        label=Say(es="Estado", en="Status"),
        says=Say(es="{seat}: {value}", en="{seat}: {value}"),
    )
    showing = FactType(
        "showing",
        "the total of a player's face-up cards",
        NUMBER,
        per_seat=True,
        label=Say(es="A la vista", en="Showing"),
        says=Say(es="{seat} enseña {value}", en="{seat} shows {value}"),
    )
    my_total = FactType(
        "my_total",
        "the reader's own total, its face-down card included",
        NUMBER,
        per_seat=True,
        label=Say(es="Tu total", en="Your total"),
        says=Say(es="Tu total: {value}", en="Your total: {value}"),
    )
    chips = FactType(
        "chips",
        "the chips a player has in hand (con-apuestas)",
        INT,
        per_seat=True,
        label=Say(es="Fichas", en="Chips"),
        says=Say(es="{seat} tiene {value:ficha|fichas}", en="{seat} has {value:chip|chips}"),
    )
    stake = FactType(
        "stake",
        "a player's stake this round (con-apuestas)",
        INT,
        per_seat=True,
        label=Say(es="Apuesta", en="Stake"),
        says=Say(es="{seat} apuesta {value:ficha|fichas}", en="{seat} stakes {value:chip|chips}"),
    )
    rounds_won = FactType(
        "score",
        "the rounds a player has won against the house (without chips)",
        INT,
        per_seat=True,
        label=Say(es="Rondas ganadas", en="Rounds won"),
        says=Say(
            es="{seat} ha ganado {value:ronda|rondas}", en="{seat} has won {value:round|rounds}"
        ),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = SieteYMediaData.of(state), state.players
        of = state.options["rounds"]
        if not data.chips and state.options["until_a_winner"]:
            of = max(of, min(state.round, state.options["max_rounds"]))
        facts = [
            self.house(points(self._house_total(state))),
            self.round_number({"number": state.round, "of": of}),
        ]
        for s in range(n):
            facts.append(self.seat_status(data.status[s], s))
            if data.status[s] != OUT:
                facts.append(self.showing(points(total(state.cards(up(s)))), s))
        if seat is not None and data.status[seat] != OUT:
            facts.append(self.my_total(points(self._seat_total(state, seat)), seat))
        if data.chips:
            for s in range(n):
                facts.append(self.chips(data.chips[s], s))
                facts.append(self.stake(data.stakes[s], s))
        else:
            facts.extend(self.rounds_won(state.scores[s], s) for s in range(n))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40)

    def setup(self, state: State) -> list[Event]:
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            state.zone(up(s), s, PUBLIC)
        state.zone("house", None, PUBLIC)
        state.zone("house:hole", None, HIDDEN)
        state.zone("discard", None, PUBLIC)
        state.zone("stock", None, HIDDEN).cards = self.deck(state)
        data = SieteYMediaData.of(state)
        data.status = [IN] * state.players
        data.stakes = [0] * state.players
        if state.options["chips"]:
            data.chips = [state.options["chips"]] * state.players
            self._owned(state)
        data.first = state.rng().randrange(state.players)
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        """Collect and shuffle every card, take the antes, deal one card to each player and the house."""
        data = SieteYMediaData.of(state)
        gather_and_shuffle(state)
        seated = seats_from(state, data.first)
        events: list[Event] = [self.round_started(round=state.round, first=data.first)]
        for s in range(state.players):
            broke = bool(data.chips) and data.chips[s] < ANTE
            data.status[s] = OUT if broke else IN
            data.stakes[s] = 0
            if data.chips and not broke:
                data.chips[s] -= ANTE
                data.stakes[s] = ANTE
        if data.chips:
            self._owned(state)
            events.append(self.antes(stakes=list(data.stakes)))
        dealt_in = [s for s in seated if data.status[s] == IN]
        if state.by_deal():  # a seat out of chips at one table leaves the others' cards alike
            events += deal_by_place(state, seated, dealt_in, 1)
        else:
            events += deal_hands(state, dealt_in, 1)
        card = state.move_top("stock", "house")
        events.append(self.house_card(card=card, total=points(self._house_total(state))))
        if state.options["house_hole_card"]:
            state.move_top("stock", "house:hole")
            events.append(self.house_card_face_down())
        state.phase = "play"
        return events + self._next_player(state, None)

    # -- the action table --------------------------------------------------------------
    hit = ActionType("hit", "take the top card of the stock, face up", phases=("play",))
    stand = ActionType("stand", "keep your total and end your turn", phases=("play",))
    discard = ActionType(
        "discard", "discard one of your cards face up; you score with the rest",
        phases=("discard",), card=CARD,
    )  # fmt: skip
    raise_ = ActionType(
        "raise", "add chips to your stake, once, before the house plays",
        phases=("raise",), chips=Field("int", "how many chips to add", minimum=1),
    )  # fmt: skip
    keep = ActionType(
        "keep", "discard nothing (discard phase) or keep your stake (raise phase)",
        phases=("discard", "raise"),
    )  # fmt: skip

    @hit.refusal
    def _hit_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        limit = state.options["max_extra_cards"]
        if limit and len(state.cards(up(seat))) >= limit:
            return EXTRA_CARDS_LIMIT(limit=limit)
        if not state.cards("stock"):
            return STOCK_EMPTY
        return None

    @hit.handler
    def _hit(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top("stock", up(seat))
        events = [self.took(seat=seat, card=card)]
        if self._seat_total(state, seat) > SIETE_Y_MEDIA:
            SieteYMediaData.of(state).status[seat] = BUSTED
            events.append(self.busted(seat=seat))
            return events + self._next_player(state, seat)
        return events

    @stand.handler
    def _stand(self, state: State, seat: int, action: Action) -> list[Event]:
        SieteYMediaData.of(state).status[seat] = STOOD
        return [self.stood(seat=seat)] + self._next_player(state, seat)

    @discard.candidates
    def _discards(self, state: State, seat: int) -> list[Action]:
        return [{"type": "discard", "card": c} for c in self._cards(state, seat)]

    @discard.refusal
    def _discard_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        cards = self._cards(state, seat)
        if action["card"] not in cards:
            return NOT_YOURS(card=action["card"], code=action["card"])
        if len(cards) < 2:
            return KEEP_THE_LAST
        return None

    @discard.handler
    def _discard(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        source = hand(seat) if card in state.cards(hand(seat)) else up(seat)
        state.move(card, source, "discard")
        face_down = source == hand(seat)
        return [self.discarded(seat=seat, card=card, face_down_card=face_down)] + (
            self._next_in_queue(state)
        )

    @raise_.candidates
    def _raises(self, state: State, seat: int) -> list[Action]:
        most = min(state.options["max_raise"], SieteYMediaData.of(state).chips[seat])
        return [{"type": "raise", "chips": n} for n in range(1, most + 1)]

    @raise_.refusal
    def _raise_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        chips, limit = SieteYMediaData.of(state).chips[seat], state.options["max_raise"]
        if action["chips"] > limit:
            return RAISE_LIMIT(limit=limit)
        if action["chips"] > chips:
            return CHIPS_LEFT(chips=chips)
        return None

    @raise_.handler
    def _raise(self, state: State, seat: int, action: Action) -> list[Event]:
        data = SieteYMediaData.of(state)
        data.chips[seat] -= action["chips"]
        data.stakes[seat] += action["chips"]
        self._owned(state)
        raised = self.raised(seat=seat, chips=action["chips"], stake=data.stakes[seat])
        return [raised] + self._next_in_queue(state)

    @keep.handler
    def _keep(self, state: State, seat: int, action: Action) -> list[Event]:
        return [self.kept(seat=seat, phase=state.phase)] + self._next_in_queue(state)

    # -- the order of a round ----------------------------------------------------------
    def _next_player(self, state: State, after: int | None) -> list[Event]:
        """The next player still to take cards, or the phases after the players' turns."""
        data = SieteYMediaData.of(state)
        order = seats_from(state, data.first)
        rest = order if after is None else order[order.index(after) + 1 :]
        for s in rest:
            if data.status[s] == IN:
                state.to_act = [s]
                return []
        return self._after_turns(state, "play")

    def _after_turns(self, state: State, done: str) -> list[Event]:
        """Open the next phase that has someone to act: discard, then raise; then the house."""
        data = SieteYMediaData.of(state)
        order = [s for s in seats_from(state, data.first) if data.status[s] != OUT]
        phases = ["discard", "raise"]
        for phase in phases[phases.index(done) + 1 if done in phases else 0 :]:
            if phase == "discard" and state.options["discard"]:
                data.queue = list(order)
            elif phase == "raise" and data.chips:
                data.queue = [
                    s for s in order
                    if data.chips[s] > 0 and state.options["max_raise"] > 0
                    and (data.status[s] != BUSTED or state.options["discard"])
                ]  # fmt: skip
            else:
                continue
            if data.queue:
                state.phase, state.to_act = phase, [data.queue[0]]
                return [self.phase_started(phase=phase)]
        return self._house_plays(state)

    def _next_in_queue(self, state: State) -> list[Event]:
        data = SieteYMediaData.of(state)
        data.queue.pop(0)
        if data.queue:
            state.to_act = [data.queue[0]]
            return []
        return self._after_turns(state, state.phase)

    def _house_plays(self, state: State) -> list[Event]:
        """The house's automated play: reveal or turn a second card, draw below 4, stand at 4
        or more; then score."""
        state.to_act, state.phase = [], "house"
        events: list[Event] = []
        hole = state.cards("house:hole")
        if hole:
            card = state.move_top("house:hole", "house")
            events.append(self.house_revealed(card=card, total=points(self._house_total(state))))
        while self._house_draws(state):
            card = state.move_top("stock", "house")
            events.append(self.house_card(card=card, total=points(self._house_total(state))))
        house = self._house_total(state)
        busted = house > SIETE_Y_MEDIA
        events.append((self.house_busted if busted else self.house_stood)(total=points(house)))
        return events + self._score(state)

    def _score(self, state: State) -> list[Event]:
        """Show every hand, settle each player against the house, then end or deal again."""
        data = SieteYMediaData.of(state)
        house = self._house_total(state)
        events: list[Event] = []
        outcomes: list[str | None] = [None] * state.players
        line = [0] * state.players
        for s in seats_from(state, data.first):
            if data.status[s] == OUT:
                continue
            for card in reversed(state.cards(hand(s))):
                state.cards(up(s)).insert(0, card)
            state.cards(hand(s)).clear()
            mine = self._seat_total(state, s)
            events.append(self.hand_shown(seat=s, cards=list(state.cards(up(s))),
                                     total=points(mine)))  # fmt: skip
            if mine > SIETE_Y_MEDIA or (mine <= house <= SIETE_Y_MEDIA):
                outcomes[s] = LOST
            else:
                outcomes[s] = WON_7_5 if mine == SIETE_Y_MEDIA else WON
            if data.chips:
                stake = data.stakes[s]
                if outcomes[s] == LOST:
                    line[s] = -stake
                else:
                    pays = state.options["siete_y_media_pays"] if outcomes[s] == WON_7_5 else 1
                    data.chips[s] += stake + stake * pays
                    line[s] = stake * pays
            else:
                line[s] = 0 if outcomes[s] == LOST else 1
        state.rounds.append(line)
        data.stakes = [0] * state.players
        if data.chips:
            self._owned(state)
        else:
            state.scores = [a + b for a, b in zip(state.scores, line, strict=True)]
        data.last_round = {"house": points(house), "outcomes": list(outcomes)}
        events.append(self.round_scored(round=state.round, house=points(house),
                                 outcomes=list(outcomes), points=list(line)))  # fmt: skip
        if self._match_over(state):
            return events + self._end(state)
        state.round += 1
        data.first = seats_from(state, data.first)[1]
        return events + self._deal(state)

    def _match_over(self, state: State) -> bool:
        data = SieteYMediaData.of(state)
        if data.chips:
            in_play = sum(1 for c in data.chips if c >= ANTE)
            return state.round >= state.options["rounds"] or in_play <= 1
        if state.round < state.options["rounds"]:
            return False
        nobody_won = max(state.scores) == 0 and state.options["until_a_winner"]
        return not nobody_won or state.round >= state.options["max_rounds"]

    def _end(self, state: State) -> list[Event]:
        """The most points (or chips) win; when no player has any, the house won: no winner."""
        if max(state.scores) > 0 or not self.option(state, "house_can_win"):
            return end_match(state, highest(state.scores))
        events = end_match(state, [], reason=HOUSE_WON)
        assert state.result is not None
        state.result["reason"] = HOUSE_WON  # the event shares this result
        return events

    # -- rules as questions -------------------------------------------------------------
    def _house_draws(self, state: State) -> bool:
        """The house takes a card while below 4, and (since version 2) always a second one;
        with the stock empty it stands with what it has."""
        if not state.cards("stock"):
            return False
        cards = state.cards("house")
        if len(cards) < 2 and self.option(state, "house_second_card"):
            return True
        return total(cards) < HOUSE_STANDS_AT

    @staticmethod
    def _owned(state: State) -> None:
        """With chips, a seat's score is what it owns: the chips in hand and those staked."""
        data = SieteYMediaData.of(state)
        state.scores = [c + s for c, s in zip(data.chips, data.stakes, strict=True)]

    @staticmethod
    def _cards(state: State, seat: int) -> list[str]:
        return state.cards(hand(seat)) + state.cards(up(seat))

    def _seat_total(self, state: State, seat: int) -> int:
        return total(self._cards(state, seat))

    @staticmethod
    def _house_total(state: State) -> int:
        """The house's face-up cards only: a face-down card counts once it is revealed."""
        return total(state.cards("house"))

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = SieteYMediaData.of(state)
        return {
            "house_total": points(self._house_total(state)),
            "showing": [points(total(state.cards(up(s)))) for s in range(state.players)],
            "status": list(data.status),
            "chips": list(data.chips),
            "stakes": list(data.stakes),
            "first": data.first,
            "last_round": dict(data.last_round) if data.last_round else None,
        }

    def private_fields(self, state: State, seat: int) -> dict:
        if SieteYMediaData.of(state).status[seat] == OUT:
            return {"my_total": None}
        return {"my_total": points(self._seat_total(state, seat))}


register(SieteYMedia())
