"""Cinquillo (rules/cinquillo.txt): a layout shedding game with the 40-card Spanish deck.

The whole deck is dealt. The holder of the 5 de oros opens with it; then, in turn, each
player places one card on the table: a 5 opens its suit's row, any other card extends a
row one rank down (towards the 1) or up (towards the Rey; the Sota follows the 7). A
player passes only when no card of theirs can be placed. The first player without cards
wins. Variants: ``con-pago`` (10 chips each, a pass costs a chip into the pot, the
winner takes the pot), ``con-puntaje`` (the winner of a round scores a point per card
left in the other hands; rounds until 20 points) and ``doble-turno`` (a 1 or a Rey
played gives another play, chained).

Every decision where the text is silent is in docs/games/cinquillo.md.

Rules version 2 (duplicate deals): every deal's chance is drawn from (seed, deal number,
draw within the deal) (``State.by_deal``), so deal k is the same cards for the same seat at
every table of a duplicate group whatever was played before; a new deal gathers the cards as
play left them and shuffles them from one order (sorted): a fresh shuffle of the same cards,
the same deal distribution.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
    SPANISH_SUITS,
    Action,
    BadSetup,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    rank,
    register,
    spanish_deck,
    suit,
)
from shared.engine.actions import ActionType
from shared.engine.events import PRIVATE, EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARD, INT, INTS, SEAT, SEATS, SUIT, Field, map_of, obj
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit.dealing import DEALT, deal_round_robin, gather_and_shuffle
from shared.engine.kit.ending import MATCH_FINISHED, end_match
from shared.engine.kit.rows import SPANISH_40, RowRule
from shared.engine.kit.table_facts import CARDS_HELD
from shared.engine.kit.turns import DIRECTION, next_seat
from shared.engine.kit.zones import card_actions, hand, not_in_hand
from shared.engine.language import SPANISH_DECK, Message, Say, Words

OPENING_CARD = "5O"
RULE = RowRule(SPANISH_40, start=5)
EXTRA_PLAY_RANKS = (1, 12)
#: A rank a row takes next, said in a refusal: "el 4", "la sota".
RANK_WORDS = Words(
    {
        **{r: (f"el {r}", f"the {r}") for r in range(2, 8)},
        1: ("el as", "the ace"),
        10: ("la sota", "the jack"),
        11: ("el caballo", "the knight"),
        12: ("el rey", "the king"),
    }
)
RANK = Field("int", words=RANK_WORDS)

# -- what the rules say to a player, in both languages -------------------------------------
OPENS = Say(es="{card:cap} abre el juego", en="{card:cap} must open the game")
CANNOT_PLACE = Say(
    es="{card:cap} no se puede poner: la fila de {suit} admite {needs}",
    en="{card:cap} cannot be placed: the {suit} row takes {needs}",
)
ONE_RANK = Say(es="{first}", en="{first}")
TWO_RANKS = Say(es="{first} o {second}", en="{first} or {second}")
ROW_COMPLETE = Say(es="nada más (está completa)", en="nothing more (it is complete)")
TAKE_EXTRA_PLAY = Say(
    es="tienes que usar tu jugada extra: puedes poner una carta",
    en="you must take your extra play: a card of yours can be placed",
)
PASS_ONLY_STUCK = Say(
    es="solo se pasa cuando no se puede poner ninguna carta; puedes poner {cards}",
    en="you may pass only when no card can be placed; you can place {cards}",
)


def row(suit_letter: str) -> str:
    """The zone of a suit's row on the table."""
    return f"row:{suit_letter}"


#: Each suit's row zone, by suit.
ROWS = {s: row(s) for s in SPANISH_SUITS}
#: Each row's suit, by the suit that names it in ``rows_of``.
ROW_SUITS = {s: s for s in SPANISH_SUITS}


def rows_of(state: State) -> dict[str, list[str]]:
    zones = state.zones
    return {s: zones[name].cards for s, name in ROWS.items()}


def playable(state: State, cards: list[str]) -> list[str]:
    """The cards of ``cards`` that may be placed now (only the 5 de oros before it is down)."""
    if not state.cards(ROWS["O"]):
        return [c for c in cards if c == OPENING_CARD]
    return RULE.playable(cards, rows_of(state), ROW_SUITS)


@dataclass
class CinquilloData(GameData):
    chips: list[int] = field(default_factory=list)  # per seat (con-pago); empty without chips
    pot: int = 0  # chips paid for passes, taken by the round's winner
    chips_at_deal: list[int] = field(default_factory=list)  # for the round's line of the sheet
    eliminated: list[int] = field(default_factory=list)  # seats out (broke = "eliminated")
    opener: int | None = None  # who held the 5 de oros this round
    extra_play: bool = False  # the seat to act is taking an extra play (doble-turno)
    last_round: dict | None = None  # the last finished round: winner, points, pot


class Cinquillo(Game):
    id = "cinquillo"
    name = "Cinquillo"
    rules_file = "cinquillo.txt"
    players = (2, 4)
    data_type = CinquilloData
    options = {
        "direction": DIRECTION,
        "chips": Option(0, "chips each player starts with (0: play without chips)", minimum=0,
                        maximum=1000),
        "broke": Option(
            "pass-free",
            "a player who must pass with no chips left: passes without paying, or is out",
            choices=("pass-free", "eliminated"),
        ),
        "target": Option(0, "points that end the match (0: a single round)", minimum=0,
                         maximum=1000),
        "double_turn": Option(False, "a 1 or a Rey played gives another play, chained"),
        "extra_play_optional": Option(
            False, "the extra play of doble-turno may be declined (a free pass)"
        ),
        **deals_by_number(since=2),
    }  # fmt: skip
    rules_version = 2
    changes = (deals_by_number_change(2),)
    variants = {
        "base": Variant("base", "Cinquillo: the first player without cards wins."),
        "con-pago": Variant(
            "con-pago",
            "10 chips each; every pass pays a chip to the pot; the winner takes the pot.",
            {"chips": 10},
        ),
        "con-puntaje": Variant(
            "con-puntaje",
            "The winner scores a point per card left in the other hands; rounds until 20.",
            {"target": 20},
        ),
        "doble-turno": Variant(
            "doble-turno", "Placing a 1 or a Rey gives another play (chained).",
            {"double_turn": True},
        ),
    }  # fmt: skip

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    round_started = EventType(
        "round_started",
        "a round is dealt: the holder of the 5 de oros opens",
        round=INT.about("the round's number, from 1"),
        opener=SEAT.about("who holds the 5 de oros"),
        says=Say(
            es="Ronda {round}: abre {opener} con el 5 de oros",
            en="Round {round}: {opener} opens with the 5 of coins",
        ),
    )
    dealt = DEALT
    spare_card = EventType(
        "spare_card",
        "three players: the card left over goes to the holder of the 5 de oros",
        visibility=PRIVATE,
        seat=SEAT,
        card=CARD,
        says=Say(
            es="{seat} recibe la carta sobrante, {card}", en="{seat} takes the spare card, {card}"
        ),
    )
    played = EventType(
        "played",
        "a card placed on its suit's row",
        seat=SEAT,
        card=CARD,
        row=SUIT.about("the row's suit"),
        span=INTS.about("the row's lowest and highest rank after it"),
        says=Say(es="{seat} pone {card}", en="{seat} places {card}"),
    )
    plays_again = EventType(
        "extra_play",
        "doble-turno: a 1 or a Rey placed gives the same seat another play",
        seat=SEAT,
        says=Say(es="{seat} juega otra vez", en="{seat} plays again"),
    )
    extra_play_lost = EventType(
        "extra_play_lost",
        "doble-turno: the extra play is lost, no card of the seat can be placed",
        seat=SEAT,
        says=Say(
            es="{seat} no puede poner ninguna carta más: pierde la jugada extra",
            en="{seat} has nothing to place: the extra play is lost",
        ),
    )
    passed = EventType(
        "passed",
        "a seat passes: it cannot place a card (con-pago: it pays a chip to the pot), or it"
        " declines an optional extra play",
        seat=SEAT,
        paid=INT.about("the chips paid to the pot"),
        pot=INT.about("the pot after it"),
        extra_play=BOOL.about("whether it declined an extra play"),
    )
    eliminated = EventType(
        "eliminated",
        "a player who must pass with no chips left is out (option broke)",
        seat=SEAT,
        says=Say(es="{seat} no puede pagar y queda eliminado", en="{seat} cannot pay and is out"),
    )
    round_won = EventType(
        "round_won",
        "a seat is out of cards (or the last one in): it wins the round",
        seat=SEAT,
        round=INT,
        points=INT.about("the cards left in the other hands (con-puntaje: its points)"),
        pot=INT.about("the pot it takes (con-pago)"),
        cards_left=INTS.about("per seat, the cards left in its hand"),
        last_standing=BOOL.about("whether it won as the last player not eliminated"),
    )
    match_finished = MATCH_FINISHED

    @passed.sentence
    def _passed_said(self, event: Event) -> Say:
        if event["extra_play"]:
            return Say(es="{seat} renuncia a la jugada extra", en="{seat} declines the extra play")
        if event["paid"]:
            return Say(
                es="{seat} pasa y paga {paid:ficha|fichas}: el bote tiene {pot}",
                en="{seat} passes and pays {paid:chip|chips}: the pot has {pot}",
            )
        return Say(es="{seat} pasa", en="{seat} passes")

    @round_won.sentence
    def _round_won_said(self, event: Event) -> Say:
        if event["last_standing"]:
            return Say(
                es="{seat} es el último en juego y gana la ronda {round}",
                en="{seat} is the last one in and wins round {round}",
            )
        if event["pot"]:
            return Say(
                es="{seat} se queda sin cartas, gana la ronda {round} y se lleva {pot:ficha|fichas}",
                en="{seat} is out of cards, wins round {round} and takes {pot:chip|chips}",
            )
        return Say(
            es="{seat} se queda sin cartas y gana la ronda {round}",
            en="{seat} is out of cards and wins round {round}",
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "rows": map_of(
            INTS.or_null(), "per suit, its row's lowest and highest rank (null: not opened)"
        ),
        "chips": INTS.about("per seat, its chips (con-pago; else empty)"),
        "pot": INT.about("the chips paid for passes this round (con-pago)"),
        "eliminated": SEATS.about("the seats out of the match"),
        "opener": SEAT.or_null("who held the 5 de oros this round"),
        "extra_play": BOOL.about("whether the seat to act is taking an extra play"),
        "target": INT.about("the points that end the match (0: a single round)"),
        "last_round": obj(
            "the last round won: its winner, its points and the pot it took",
            winner=SEAT,
            points=INT,
            pot=INT,
        ).or_null(),
    }

    # -- the facts ---------------------------------------------------------------------
    pot = FactType(
        "pot",
        "the chips paid for passes this round, the winner's prize (con-pago)",
        INT,
        label=Say(es="Bote", en="Pot"),
        says=Say(es="Bote: {value:ficha|fichas}", en="Pot: {value:chip|chips}"),
    )
    target = FactType(
        "target",
        "the points that end the match (con-puntaje)",
        INT,
        label=Say(es="Partida", en="Match"),
        says=Say(es="Partida a {value:punto|puntos}", en="Match to {value:point|points}"),
    )
    extra = FactType(
        "extra_play",
        "doble-turno: the seat taking an extra play",
        SEAT,
        label=Say(es="Jugada extra", en="Extra play"),
        says=Say(es="{value} juega otra vez", en="{value} plays again"),
    )
    cards_left = CARDS_HELD
    chips = FactType(
        "chips",
        "a seat's chips (con-pago)",
        INT,
        per_seat=True,
        label=Say(es="Fichas", en="Chips"),
        says=Say(es="{seat} tiene {value:ficha|fichas}", en="{seat} has {value:chip|chips}"),
    )
    score = FactType(
        "score",
        "a seat's points over the rounds played (con-puntaje)",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )
    out = FactType(
        "eliminated",
        "a seat out of the match",
        BOOL,
        per_seat=True,
        label=Say(es="Eliminado", en="Out"),
        says=Say(es="{seat} está eliminado", en="{seat} is out"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, opts, n = CinquilloData.of(state), state.options, state.players
        facts: list[Fact] = []
        if data.chips:
            facts.append(self.pot(data.pot))
        if opts["target"]:
            facts.append(self.target(opts["target"]))
        if data.extra_play and state.to_act:
            facts.append(self.extra(state.to_act[0]))
        for s in range(n):
            facts.append(self.cards_left(len(state.cards(hand(s))), s))
            if data.chips:
                facts.append(self.chips(data.chips[s], s))
            elif opts["target"]:
                facts.append(self.score(state.scores[s], s))
            if s in data.eliminated:
                facts.append(self.out(True, s))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40)

    def setup(self, state: State) -> list[Event]:
        if state.options["chips"] and state.options["target"]:
            raise BadSetup(
                "chips and a points target do not combine: the score is one or the other"
            )
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
        for letter in SPANISH_SUITS:
            state.zone(row(letter), None, PUBLIC)
        state.zone("stock", None, HIDDEN).cards = self.deck(state)
        data = CinquilloData.of(state)
        if state.options["chips"]:
            data.chips = [state.options["chips"]] * state.players
            state.scores = list(data.chips)
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        """Shuffle every card into the stock and deal it all; the 5 de oros opens."""
        stock = gather_and_shuffle(state)
        n = state.players
        events = deal_round_robin(state, list(range(n)), len(stock) // n)
        holder = self._holder(state)
        if stock:  # three players: the holder of the 5 de oros takes the spare card
            spare = stock.pop()
            taker = holder if holder is not None else state.rng().randrange(n)
            state.cards(hand(taker)).append(spare)
            events.append(self.spare_card(seat=taker, card=spare, visible_to=[taker]))
            holder = self._holder(state)
        assert holder is not None
        data = CinquilloData.of(state)
        data.opener, data.extra_play = holder, False
        data.chips_at_deal = list(data.chips)
        state.phase, state.to_act = "play", [holder]
        return [self.round_started(round=state.round, opener=holder), *events]

    def _holder(self, state: State) -> int | None:
        for s in range(state.players):
            if OPENING_CARD in state.cards(hand(s)):
                return s
        return None

    # -- the action table --------------------------------------------------------------
    play = ActionType(
        "play", "place a card: a 5 opens its row, others extend a row by one rank",
        phases=("play",), card=CARD,
    )  # fmt: skip
    pass_ = ActionType("pass", "pass the turn (only when no card can be placed)", phases=("play",))

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return card_actions("play", state.cards(hand(seat)))

    @play.enumerate
    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        """The hand's cards that may be placed now, each once, in the hand's order."""
        cards = list(dict.fromkeys(state.cards(hand(seat))))
        return [{"type": "play", "card": c} for c in playable(state, cards)]

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | None:
        card = action["card"]
        if missing := not_in_hand(state, seat, card):
            return missing
        if not state.cards(row("O")):
            return None if card == OPENING_CARD else OPENS(card=OPENING_CARD)
        if playable(state, [card]):
            return None
        wanted = list(RULE.next_ranks(state.cards(row(suit(card)))))
        if not wanted:
            needs: Message | Say = ROW_COMPLETE
        else:
            ranks = dict(zip(("first", "second"), wanted, strict=False))
            needs = Message(
                TWO_RANKS if len(wanted) > 1 else ONE_RANK, ranks, dict.fromkeys(ranks, RANK)
            )
        return CANNOT_PLACE(card=card, suit=suit(card), needs=needs)

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        state.move(card, hand(seat), row(suit(card)))
        lo_hi = RULE.span(state.cards(row(suit(card))))
        events = [self.played(seat=seat, card=card, row=suit(card), span=list(lo_hi or ()))]
        if not state.cards(hand(seat)):
            return events + self._round_won(state, seat)
        data = CinquilloData.of(state)
        if state.options["double_turn"] and rank(card) in EXTRA_PLAY_RANKS:
            if playable(state, state.cards(hand(seat))):
                data.extra_play = True
                return events + [self.plays_again(seat=seat)]
            events.append(self.extra_play_lost(seat=seat))
        return events + self._next_turn(state, seat)

    @pass_.enumerate
    def _passes(self, state: State, seat: int) -> list[Action]:
        """The refusal's rule without its message (listing it would word the cards to place
        on every turn a seat can place one)."""
        if CinquilloData.of(state).extra_play:
            allowed = state.options["extra_play_optional"]
        else:
            allowed = not playable(state, state.cards(hand(seat)))
        return [{"type": "pass"}] if allowed else []

    @pass_.refusal
    def _pass_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        data = CinquilloData.of(state)
        if data.extra_play:
            if state.options["extra_play_optional"]:
                return None
            return TAKE_EXTRA_PLAY
        cards = playable(state, state.cards(hand(seat)))
        if cards:
            return PASS_ONLY_STUCK(cards=cards)
        return None

    @pass_.handler
    def _pass(self, state: State, seat: int, action: Action) -> list[Event]:
        data = CinquilloData.of(state)
        extra = data.extra_play  # declining an optional extra play costs nothing
        broke = bool(data.chips) and not extra and data.chips[seat] == 0
        if broke and state.options["broke"] == "eliminated":
            return self._eliminate(state, seat)
        paid = 1 if data.chips and not extra and data.chips[seat] > 0 else 0
        if paid:
            data.chips[seat] -= 1
            data.pot += 1
            state.scores = list(data.chips)
        passed = self.passed(seat=seat, paid=paid, pot=data.pot, extra_play=extra)
        return [passed] + self._next_turn(state, seat)

    def _eliminate(self, state: State, seat: int) -> list[Event]:
        """A broke player who must pass is out (option ``broke`` = "eliminated")."""
        data = CinquilloData.of(state)
        data.eliminated.append(seat)
        events = [self.eliminated(seat=seat)]
        alive = [s for s in range(state.players) if s not in data.eliminated]
        if len(alive) == 1:
            return events + self._round_won(state, alive[0], last_standing=True)
        return events + self._next_turn(state, seat)

    # -- turns and the end -------------------------------------------------------------
    def _next_turn(self, state: State, seat: int) -> list[Event]:
        data = CinquilloData.of(state)
        data.extra_play = False
        state.to_act = [next_seat(state, seat, skip=data.eliminated)]
        return []

    def _round_won(self, state: State, winner: int, last_standing: bool = False) -> list[Event]:
        """The round is over: score it, then end the match or deal the next round."""
        data = CinquilloData.of(state)
        data.extra_play = False
        left = [len(state.cards(hand(s))) for s in range(state.players)]
        points = sum(n for s, n in enumerate(left) if s != winner)
        if data.chips:
            data.chips[winner] += data.pot
            state.scores = list(data.chips)
            deltas = zip(data.chips, data.chips_at_deal, strict=True)
            state.rounds.append([now - then for now, then in deltas])
        else:
            state.rounds.append([points if s == winner else 0 for s in range(state.players)])
            state.scores[winner] += points
        events = [
            self.round_won(seat=winner, round=state.round, points=points, pot=data.pot,
                           cards_left=left, last_standing=last_standing),
        ]  # fmt: skip
        data.last_round = {"winner": winner, "points": points, "pot": data.pot}
        data.pot = 0
        target = state.options["target"]
        if not target or state.scores[winner] >= target or last_standing:
            return events + end_match(state, [winner])
        state.round += 1
        return events + self._deal(state)

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = CinquilloData.of(state)
        spans = {s: RULE.span(state.cards(row(s))) for s in SPANISH_SUITS}
        return {
            "rows": {s: list(span) if span else None for s, span in spans.items()},
            "chips": list(data.chips),
            "pot": data.pot,
            "eliminated": list(data.eliminated),
            "opener": data.opener,
            "extra_play": data.extra_play,
            "target": state.options["target"],
            "last_round": dict(data.last_round) if data.last_round else None,
        }


register(Cinquillo())
