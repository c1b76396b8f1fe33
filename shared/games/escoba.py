"""Escoba del 15 and Desescoba (rules/escoba.txt).

A fishing game with the 40-card Spanish deck: a player lays one card, and takes with it
any set of table cards that makes 15 with it (every such set is its own action);
clearing the table is an escoba. Deals of 3 cards each, 4 on the table, refills from the
stock; the deal scores escobas, cartas, oros, the 7 de oros and the primera, until
someone reaches 15. In Desescoba the same points are penalties.

The decisions where the text is silent or ambiguous, each with its option and default,
are in docs/games/escoba.md.
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
    InvalidState,
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
from shared.engine.cards import SPANISH_SUITS
from shared.engine.data import absent_when_none
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARD, CARDS, INT, INTS, SEAT, SEATS, list_of, obj
from shared.engine.kit import turns
from shared.engine.kit.dealing import DEALT, deal_hands
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest, lowest
from shared.engine.kit.tables import SPANISH_COUNT
from shared.engine.kit.zones import hand, not_in_hand, seat_zone
from shared.engine.language import SPANISH_DECK, Message, Say

FIFTEEN = 15
HAND_SIZE, TABLE_SIZE = 3, 4
FIFTEEN_ON_TABLE_ESCOBAS, FIFTEEN_IN_HAND_ESCOBAS = 4, 3
SEVEN_OF_OROS = "7O"
PRIMERA_MAX = 28  # the four 7s score the primera double

# -- what the rules say to a player, in both languages -------------------------------------
TAKE_NOTHING = Say(
    es="hay que llevarse al menos una carta de la mesa",
    en="take must be a non-empty list of table cards",
)
TAKE_TWICE = Say(es="una carta se lleva una sola vez", en="take lists a card twice")
NOT_ON_TABLE = Say(es="no están en la mesa: {cards}", en="not on the table: {cards}")
NOT_FIFTEEN = Say(
    es="{card:cap} ({worth}) con {cards} suma {total}, no 15",
    en="{card:cap} ({worth}) with {cards} makes {total}, not 15",
)
MUST_CAPTURE = Say(
    es="es obligatorio capturar: {card} suma 15 con {cards}",
    en="capture is mandatory: {card} makes 15 with {cards}",
)


_VALUES = {card: SPANISH_COUNT[rank(card)] for card in spanish_deck(40)}


def value(card: str) -> int:
    """A card's capture value: numbers as printed, sota 8, caballo 9, rey 10."""
    return _VALUES[card]


def combinations_to(target: int, table: list[str]) -> list[list[str]]:
    """Every subset of ``table`` (each in table order) whose values sum to ``target``.

    A depth-first walk in table order; a branch stops as soon as the cards after it cannot
    add up to what is missing (the sums of the table's tails are computed once).
    """
    if target <= 0:
        return []
    values = [_VALUES[c] for c in table]
    tails = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        tails[i] = tails[i + 1] + values[i]
    found: list[list[str]] = []
    chosen: list[str] = []

    def walk(start: int, rest: int) -> None:
        for i in range(start, len(values)):
            if tails[i] < rest:
                return  # even every card left would not make it
            v = values[i]
            if v > rest:
                continue
            chosen.append(table[i])
            if v == rest:
                found.append(list(chosen))
            else:
                walk(i + 1, rest - v)
            chosen.pop()

    walk(0, target)
    return found


def reachable_sums(table: list[str]) -> int:
    """A bitset of every total some cards of the table make (bit i: a subset sums to i):
    whether a card must capture is one bit test, without listing the captures."""
    sums = 1
    for card in table:
        sums |= sums << _VALUES[card]
    return sums


def can_capture(card: str, sums: int) -> bool:
    """Whether ``card`` makes 15 with some table cards, given the table's ``reachable_sums``."""
    need = FIFTEEN - _VALUES[card]
    return need > 0 and bool(sums >> need & 1)


def primera_sum(pile: list[str]) -> int | None:
    """The sum of the best numeric card of each suit, or None without one in every suit."""
    best = dict.fromkeys(SPANISH_SUITS, 0)
    for card in pile:
        if rank(card) <= 7 and rank(card) > best[suit(card)]:
            best[suit(card)] = rank(card)
    return None if 0 in best.values() else sum(best.values())


def sole_best(counts: list[int]) -> int | None:
    """The seat with strictly the highest count, or None on a tie."""
    top = max(counts)
    leaders = [s for s, c in enumerate(counts) if c == top]
    return leaders[0] if len(leaders) == 1 else None


def score_deal(piles: list[list[str]], escobas: list[int]) -> tuple[list[int], dict]:
    """Each seat's points for one deal and the breakdown: the seat taking each category, or None."""
    sums = [primera_sum(p) for p in piles]
    winners: dict[str, int | None] = {
        "cards": sole_best([len(p) for p in piles]),
        "oros": sole_best([sum(suit(c) == "O" for c in p) for p in piles]),
        "seven_of_oros": next((s for s, p in enumerate(piles) if SEVEN_OF_OROS in p), None),
        "primera": sole_best([-1 if x is None else x for x in sums]),
    }
    primera = winners["primera"]
    primera_points = 0 if primera is None else 2 if sums[primera] == PRIMERA_MAX else 1
    points = list(escobas)
    for category, seat in winners.items():
        if seat is not None:
            points[seat] += primera_points if category == "primera" else 1
    breakdown = {"escobas": list(escobas), **winners, "primera_sums": sums}
    return points, {**breakdown, "primera_points": primera_points, "points": points}


@dataclass
class EscobaData(GameData):
    direction: int = 1  # +1 clockwise, -1 counterclockwise (kept in stored states)
    starter: int = 0  # who started this deal
    escobas: list[int] = field(default_factory=list)  # per seat, this deal (bonuses included)
    last_capturer: int | None = None  # who takes the leftover at the end of the deal
    sitting_out: list[int] = field(default_factory=list)  # seats with no hand after 15 en mano
    last_deal: dict | None = absent_when_none()  # the last deal's score breakdown, once scored


class Escoba(Game):
    id = "escoba"
    name = "Escoba"
    rules_file = "escoba.txt"
    players = (2, 12)
    data_type = EscobaData
    options = {
        "first_seat": Option(
            0, "seat of the youngest player, who starts the first deal", minimum=0, maximum=11
        ),
        "direction": turns.DIRECTION,
        "target": Option(15, "points that end the match", minimum=1, maximum=100),
        "mandatory_capture": Option(
            "never", "when capturing is compulsory", choices=("never", "played-card", "any-card")
        ),
        "reaching_target_loses": Option(False, "points are penalties: reaching the target loses"),
        "fifteen_on_table": Option(
            "first-player", "who takes a dealt table of 15", choices=("first-player", "race", "off")
        ),
        "race_seconds": Option(
            3.0, "reaction window of the 15-en-mesa race", minimum=0.5, maximum=30.0
        ),
        "thirty_on_table": Option(False, "a dealt table of 30 also counts, worth twice 15 en mesa"),
        "fifteen_in_hand": Option(
            "first-deal",
            "when a 3-card hand of 15 scores",
            choices=("first-deal", "every-deal", "off"),
        ),
    }
    rules_version = 2
    changes = (
        RulesChange(
            2,
            "Desescoba: capturing is mandatory whenever a card of the hand can (before: only the"
            " card played had to capture, so laying another card avoided the capture)",
            variants={"desescoba": {"mandatory_capture": "played-card"}},
        ),
    )
    fresh_deals_since = 1  # every deal shuffles a fresh deck, no draw during play
    variants = {
        "base": Variant("base", "Escoba del 15: capture to 15; the first to 15 points wins."),
        "desescoba": Variant(
            "desescoba",
            "Desescoba: capturing is mandatory whenever possible; points are penalties; reaching"
            " 15 loses.",
            {"mandatory_capture": "any-card", "reaching_target_loses": True},
        ),
    }

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "a new deal: its number and who starts it",
        round=INT.about("the deal's number, from 1"),
        starter=SEAT.about("who plays first this deal"),
        says=Say(es="Reparto {round}: empieza {starter}", en="Deal {round}: {starter} starts"),
    )
    dealt = DEALT
    table_dealt = EventType(
        "table_dealt",
        "the four cards dealt face up to the table",
        cards=CARDS,
        says=Say(es="En la mesa: {cards}", en="On the table: {cards}"),
    )
    fifteen_in_hand = EventType(
        "fifteen_in_hand",
        "a seat dealt three cards that make 15 shows them and scores them as escobas",
        seat=SEAT,
        cards=CARDS,
        says=Say(es="{seat} tiene 15 en mano: {cards}", en="{seat} holds 15 in hand: {cards}"),
    )
    fifteen_on_table = EventType(
        "fifteen_on_table",
        "a seat takes a dealt table of 15 (or 30), worth escobas",
        seat=SEAT,
        cards=CARDS,
        escobas=INT.about("the escobas it is worth"),
        says=Say(
            es="{seat} se lleva la mesa de {cards}: {escobas:escoba|escobas}",
            en="{seat} takes the table of {cards}: {escobas:escoba|escobas}",
        ),
    )
    race = EventType(
        "fifteen_on_table_race",
        "a dealt table of 15: the first seat to claim it takes it",
        cards=CARDS,
        says=Say(
            es="La mesa suma 15 ({cards}): se la lleva quien la reclame primero",
            en="The table makes 15 ({cards}): the first to claim it takes it",
        ),
    )
    unclaimed = EventType(
        "fifteen_on_table_unclaimed",
        "nobody claimed the dealt table of 15 in time: it stays",
        says=Say(es="Nadie reclama la mesa de 15", en="Nobody claims the table of 15"),
    )
    captured = EventType(
        "captured",
        "a card played that takes table cards making 15 with it; an escoba clears the table",
        seat=SEAT,
        card=CARD,
        take=CARDS.about("the table cards taken"),
        escoba=BOOL.about("whether it cleared the table"),
    )
    played = EventType(
        "played",
        "a card laid on the table without capturing",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} deja {card} en la mesa", en="{seat} lays {card} on the table"),
    )
    took_leftover = EventType(
        "took_leftover",
        "the last seat to capture takes the cards left on the table at the end of the deal",
        seat=SEAT,
        cards=CARDS,
        says=Say(
            es="{seat} se lleva lo que queda en la mesa: {cards}",
            en="{seat} takes what is left on the table: {cards}",
        ),
    )
    deal_scored = EventType(
        "deal_scored",
        "a deal is scored: each category's seat (null: tied or nobody) and the points",
        round=INT,
        escobas=INTS.about("per seat, its escobas this deal"),
        cards=SEAT.or_null("who took the most cards"),
        oros=SEAT.or_null("who took the most oros"),
        seven_of_oros=SEAT.or_null("who took the 7 de oros"),
        primera=SEAT.or_null("who has the best primera"),
        primera_sums=list_of(INT.or_null(), "per seat, its primera (null: a suit missing)"),
        primera_points=INT.about("what the primera is worth: 1, or 2 with the four 7s"),
        points=INTS.about("per seat, its points this deal"),
        says=Say(es="Se cuenta el reparto {round}", en="Deal {round} is scored"),
    )
    match_finished = MATCH_FINISHED

    @captured.sentence
    def _captured_said(self, event: Event) -> Say:
        if event["escoba"]:
            return Say(
                es="{seat} se lleva {take} con {card}: ¡escoba!",
                en="{seat} takes {take} with {card}: escoba!",
            )
        return Say(es="{seat} se lleva {take} con {card}", en="{seat} takes {take} with {card}")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "starter": SEAT.about("who started this deal"),
        "escobas": INTS.about("per seat, its escobas this deal, bonuses included"),
        "last_capturer": SEAT.or_null("who captured last: it takes the leftover"),
        "sitting_out": SEATS.about("seats without a hand after showing 15 en mano"),
        "table_sum": INT.about("what the table cards add up to"),
        "last_deal": obj(
            "the last deal's score: each category's seat (null: tied or nobody)",
            escobas=INTS,
            cards=SEAT.or_null(),
            oros=SEAT.or_null(),
            seven_of_oros=SEAT.or_null(),
            primera=SEAT.or_null(),
            primera_sums=list_of(INT.or_null()),
            primera_points=INT,
            points=INTS,
        ).or_null(),
    }

    # -- the facts ---------------------------------------------------------------------
    table_sum = FactType(
        "table_sum",
        "what the table cards add up to",
        INT,
        label=Say(es="Mesa", en="Table"),
        says=Say(es="La mesa suma {value}", en="The table makes {value}"),
    )
    stock_left = FactType(
        "stock",
        "cards left in the stock to deal",
        INT,
        label=Say(es="Mazo", en="Stock"),
        says=Say(es="En el mazo: {value:carta|cartas}", en="{value:card|cards} left to deal"),
    )
    target = FactType(
        "target",
        "the points that end the match (Desescoba: reaching them loses)",
        INT,
        label=Say(es="Partida", en="Match"),
        says=Say(es="Partida a {value:punto|puntos}", en="Match to {value:point|points}"),
    )
    seven_of_oros = FactType(
        "seven_of_oros",
        "who has taken the 7 de oros this deal",
        SEAT,
        label=Say(es="Siete de oros", en="Seven of coins"),
        says=Say(es="{value} tiene el 7 de oros", en="{value} has the 7 of coins"),
    )
    escobas = FactType(
        "escobas",
        "a seat's escobas this deal, bonuses included",
        INT,
        per_seat=True,
        label=Say(es="Escobas", en="Escobas"),
        says=Say(es="{seat} lleva {value:escoba|escobas}", en="{seat} has {value:escoba|escobas}"),
    )
    taken = FactType(
        "taken",
        "the cards a seat has taken this deal, and how many are oros",
        obj(cards=INT, oros=INT),
        per_seat=True,
        label=Say(es="Cartas llevadas", en="Cards taken"),
        says=Say(
            es="{seat} se ha llevado {value.cards:carta|cartas}, {value.oros} de oros",
            en="{seat} has taken {value.cards:card|cards}, {value.oros} of them coins",
        ),
    )
    score = FactType(
        "score",
        "a seat's points over the deals played",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, n = EscobaData.of(state), state.players
        facts = [
            self.table_sum(sum(value(c) for c in state.cards("table"))),
            self.stock_left(len(state.cards("stock"))),
            self.target(state.options["target"]),
        ]
        piles = [state.cards(seat_zone("captured", s)) for s in range(n)]
        holder = next((s for s in range(n) if SEVEN_OF_OROS in piles[s]), None)
        if holder is not None:
            facts.append(self.seven_of_oros(holder))
        for s in range(n):
            facts.append(self.escobas(data.escobas[s] if data.escobas else 0, s))
            oros = sum(suit(c) == "O" for c in piles[s])
            facts.append(self.taken({"cards": len(piles[s]), "oros": oros}, s))
        facts.extend(self.score(state.scores[s], s) for s in range(n))
        return facts

    # -- dealing -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40)

    def setup(self, state: State) -> list[Event]:
        first = state.options["first_seat"]
        if first >= state.players:
            raise BadSetup(f"first_seat must be a seat from 0 to {state.players - 1}")
        EscobaData.of(state).direction = turns.direction(state)
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("captured", s), s, PUBLIC)
        state.zone("table", None, PUBLIC)
        state.zone("stock", None, HIDDEN)
        return self._new_deal(state, first)

    def _new_deal(self, state: State, starter: int) -> list[Event]:
        for zone in state.zones.values():
            zone.cards = []
        cards = self.deck(state)
        state.shuffle(cards)
        state.zones["stock"].cards = cards  # the top of the stock is the end of the list
        EscobaData.of(state).starter = starter
        events = [self.new_deal(round=state.round, starter=starter)]
        events += self._deal_hands(state, starter)
        table = state.zones["table"].cards
        table.extend(cards.pop() for _ in range(TABLE_SIZE))
        events.append(self.table_dealt(cards=list(table)))
        return events + self.begin_deal(state)

    @staticmethod
    def _deal_hands(state: State, first: int) -> list[Event]:
        """3 cards to each seat in turn from ``first`` while the stock lasts."""
        return deal_hands(state, turns.seats_from(state, first), HAND_SIZE)

    def begin_deal(self, state: State) -> list[Event]:
        """Open play on dealt hands and table: reset the deal's tallies, then the 15 checks.

        Public so that tests can rig a deal and open it exactly as a real deal opens.
        """
        data, opts = EscobaData.of(state), state.options
        data.escobas = [0] * state.players
        data.last_capturer = None
        data.sitting_out = []
        state.deadline = None
        starter = data.starter
        events = []
        if opts["fifteen_in_hand"] != "off":
            events += self._fifteen_in_hand(state, starter)
        if opts["fifteen_on_table"] != "off" and self._table_bonus(state):
            if opts["fifteen_on_table"] == "race":
                state.phase = "race"
                state.to_act = list(range(state.players))
                state.deadline = {"kind": "reaction", "seconds": float(opts["race_seconds"])}
                return events + [self.race(cards=list(state.cards("table")))]
            events += self._take_table(state, starter)
        return events + self._next_turn(state, turns.next_seat(state, starter, -1))

    def _fifteen_in_hand(self, state: State, first: int) -> list[Event]:
        data = EscobaData.of(state)
        events = []
        for s in turns.seats_from(state, first):
            cards = state.zones[hand(s)].cards
            if len(cards) == HAND_SIZE and sum(value(c) for c in cards) == FIFTEEN:
                state.zones[seat_zone("captured", s)].cards.extend(cards)
                data.escobas[s] += FIFTEEN_IN_HAND_ESCOBAS
                data.sitting_out.append(s)
                events.append(self.fifteen_in_hand(seat=s, cards=list(cards)))
                cards.clear()
        return events

    def _table_bonus(self, state: State) -> int:
        """Escobas a freshly dealt table is worth: 4 for exactly 15 (8 for 30 with that option)."""
        table = state.cards("table")
        if len(table) != TABLE_SIZE:
            return 0
        total = sum(value(c) for c in table)
        if total == FIFTEEN or (total == 2 * FIFTEEN and state.options["thirty_on_table"]):
            return FIFTEEN_ON_TABLE_ESCOBAS * total // FIFTEEN
        return 0

    def _take_table(self, state: State, seat: int) -> list[Event]:
        data = EscobaData.of(state)
        escobas = self._table_bonus(state)
        table = state.zones["table"].cards
        taken = list(table)
        state.zones[seat_zone("captured", seat)].cards.extend(taken)
        table.clear()
        data.escobas[seat] += escobas
        data.last_capturer = seat
        return [self.fifteen_on_table(seat=seat, cards=taken, escobas=escobas)]

    def _next_turn(self, state: State, after: int) -> list[Event]:
        """Give the turn to the next seat holding cards; else refill the hands, or end the deal."""
        events: list[Event] = []
        zones = state.zones
        while True:
            for s in turns.seats_after(state, after):
                if zones[hand(s)].cards:
                    state.phase, state.to_act = "play", [s]
                    return events
            if not state.zones["stock"].cards:
                return events + self._end_deal(state)
            first = turns.next_seat(state, after)
            EscobaData.of(state).sitting_out = []
            events += self._deal_hands(state, first)
            if state.options["fifteen_in_hand"] == "every-deal":
                events += self._fifteen_in_hand(state, first)

    # -- the action table --------------------------------------------------------------
    capture = ActionType(
        "capture",
        "play a card of your hand and take table cards that make 15 with it",
        phases=("play",),
        card=CARD,
        take=CARDS,
    )
    play = ActionType(
        "play",
        "lay a card of your hand on the table without capturing",
        phases=("play",),
        card=CARD,
    )
    claim = ActionType(
        "claim", "claim a dealt table of 15 (the first claim takes it)", phases=("race",)
    )

    @capture.candidates
    @capture.enumerate
    def _captures(self, state: State, seat: int) -> list[Action]:
        """The sets the subset-sum walk finds are exactly the legal captures, so they are also
        listed directly, without asking the refusal about each (the shared suite checks both)."""
        table = state.cards("table")
        return [
            {"type": "capture", "card": card, "take": take}
            for card in state.cards(hand(seat))
            for take in combinations_to(FIFTEEN - _VALUES[card], table)
        ]

    @capture.refusal
    def _capture_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card, take, zones = action["card"], action["take"], state.zones
        if card not in zones[hand(seat)].cards:
            return not_in_hand(state, seat, card)
        if not take:
            return TAKE_NOTHING
        if len(set(take)) != len(take):
            return TAKE_TWICE
        table = zones["table"].cards
        absent = [c for c in take if c not in table]
        if absent:
            return NOT_ON_TABLE(cards=absent)
        total = _VALUES[card] + sum(map(_VALUES.__getitem__, take))
        if total != FIFTEEN:
            return NOT_FIFTEEN(card=card, worth=value(card), cards=list(take), total=total)
        return None

    @capture.handler
    def _capture(self, state: State, seat: int, action: Action) -> list[Event]:
        card, data = action["card"], EscobaData.of(state)
        pile, table = seat_zone("captured", seat), state.zones["table"].cards
        state.move(card, hand(seat), pile)
        for c in action["take"]:
            state.move(c, "table", pile)
        data.last_capturer = seat
        events = [self.captured(seat=seat, card=card, take=list(action["take"]), escoba=not table)]
        if not table:
            data.escobas[seat] += 1
        return events + self._next_turn(state, seat)

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return [{"type": "play", "card": card} for card in state.cards(hand(seat))]

    @play.enumerate
    def _plays_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: without mandatory capture every card of the hand may be laid, so
        most listings ask no question per card."""
        cards = state.cards(hand(seat))
        mode = state.options["mandatory_capture"]
        if mode != "never":
            sums = reachable_sums(state.cards("table"))
            if mode == "played-card":
                cards = [c for c in cards if not can_capture(c, sums)]
            elif any(can_capture(c, sums) for c in cards):
                cards = []
        return [{"type": "play", "card": c} for c in cards]

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card = action["card"]
        if card not in state.cards(hand(seat)):
            return not_in_hand(state, seat, card)
        return self._capture_required(state, seat, card)

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        state.move(card, hand(seat), "table")
        return [self.played(seat=seat, card=card)] + self._next_turn(state, seat)

    @claim.handler
    def _claim(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._close_race(state, seat)

    def on_timeout(self, state: State) -> list[Event]:
        """The race window closed with no claim: the dealt table stays where it is."""
        return self._close_race(state, None)

    def _capture_required(self, state: State, seat: int, card: str) -> Message | None:
        """Why laying ``card`` without capturing is refused under ``mandatory_capture``, or None."""
        mode = state.options["mandatory_capture"]
        if mode == "never":
            return None
        table = state.cards("table")
        sums = reachable_sums(table)
        for c in [card] if mode == "played-card" else state.cards(hand(seat)):
            if can_capture(c, sums):
                take = combinations_to(FIFTEEN - _VALUES[c], table)[0]
                return MUST_CAPTURE(card=c, cards=take)
        return None

    def _close_race(self, state: State, claimant: int | None) -> list[Event]:
        """The first claim applied takes the table; the timeout (seat None) leaves it unclaimed."""
        state.deadline = None
        events = [self.unclaimed()] if claimant is None else self._take_table(state, claimant)
        starter = EscobaData.of(state).starter
        return events + self._next_turn(state, turns.next_seat(state, starter, -1))

    # -- the end of a deal and of the match ------------------------------------------------
    def _end_deal(self, state: State) -> list[Event]:
        data, table = EscobaData.of(state), state.zones["table"].cards
        leftover = sum(value(c) for c in table)
        if leftover % FIFTEEN != 10:
            raise InvalidState(f"the cards left on the table sum {leftover}, not 10 modulo 15")
        events = []
        last = data.last_capturer
        if last is not None:
            events.append(self.took_leftover(seat=last, cards=list(table)))
            state.zones[seat_zone("captured", last)].cards.extend(table)
            table.clear()
        piles = [state.cards(seat_zone("captured", s)) for s in range(state.players)]
        points, breakdown = score_deal(piles, data.escobas)
        data.last_deal = breakdown
        record_round(state, points)
        events.append(self.deal_scored(round=state.round, **breakdown))
        winners = self._match_winners(state)
        if winners is not None:
            return events + end_match(state, winners)
        state.round += 1
        return events + self._new_deal(state, turns.next_seat(state, data.starter))

    def _match_winners(self, state: State) -> list[int] | None:
        """Who wins once someone has reached the target; None while the match goes on."""
        scores = state.scores
        if max(scores) < state.options["target"]:
            return None
        if state.options["reaching_target_loses"]:
            return lowest(scores)
        leaders = highest(scores)
        return leaders if len(leaders) == 1 else None

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = EscobaData.of(state)
        return {
            "starter": data.starter,
            "escobas": list(data.escobas),
            "last_capturer": data.last_capturer,
            "sitting_out": list(data.sitting_out),
            "table_sum": sum(value(c) for c in state.cards("table")),
            "last_deal": data.last_deal,
        }


register(Escoba())
