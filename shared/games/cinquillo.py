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
    event,
    rank,
    register,
    spanish_deck,
    suit,
)
from shared.engine.actions import CARD, ActionType
from shared.engine.kit.dealing import deal_round_robin, gather_and_shuffle
from shared.engine.kit.ending import end_match
from shared.engine.kit.rows import SPANISH_40, RowRule
from shared.engine.kit.turns import DIRECTION, next_seat
from shared.engine.kit.zones import card_actions, hand, not_in_hand

OPENING_CARD = "5O"
RULE = RowRule(SPANISH_40, start=5)
EXTRA_PLAY_RANKS = (1, 12)
SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
RANK_NAMES = {**{r: str(r) for r in range(1, 8)}, 10: "Sota", 11: "Caballo", 12: "Rey"}


def row(suit_letter: str) -> str:
    """The zone of a suit's row on the table."""
    return f"row:{suit_letter}"


def card_name(card: str) -> str:
    return f"{RANK_NAMES[rank(card)]} de {SUIT_NAMES[suit(card)]}"


def rows_of(state: State) -> dict[str, list[str]]:
    return {s: state.cards(row(s)) for s in SPANISH_SUITS}


def playable(state: State, cards: list[str]) -> list[str]:
    """The cards of ``cards`` that may be placed now (only the 5 de oros before it is down)."""
    if not state.cards(row("O")):
        return [c for c in cards if c == OPENING_CARD]
    rows = rows_of(state)
    return RULE.playable(cards, rows, {s: s for s in rows})


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
    }  # fmt: skip
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
            events.append(event("spare_card", seat=taker, card=spare, visible_to=[taker]))
            holder = self._holder(state)
        assert holder is not None
        data = CinquilloData.of(state)
        data.opener, data.extra_play = holder, False
        data.chips_at_deal = list(data.chips)
        state.phase, state.to_act = "play", [holder]
        return [event("round_started", round=state.round, opener=holder), *events]

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

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> str | None:
        card = action["card"]
        if missing := not_in_hand(state, seat, card):
            return missing
        if not state.cards(row("O")):
            return None if card == OPENING_CARD else "the 5 de oros must open the game"
        if playable(state, [card]):
            return None
        wanted = RULE.next_ranks(state.cards(row(suit(card))))
        needs = " or ".join(RANK_NAMES[r] for r in wanted) or "nothing more (it is complete)"
        return f"the {card_name(card)} cannot be placed: the {SUIT_NAMES[suit(card)]} row takes {needs}"

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        state.move(card, hand(seat), row(suit(card)))
        lo_hi = RULE.span(state.cards(row(suit(card))))
        events = [event("played", seat=seat, card=card, row=suit(card), span=list(lo_hi or ()))]
        if not state.cards(hand(seat)):
            return events + self._round_won(state, seat)
        data = CinquilloData.of(state)
        if state.options["double_turn"] and rank(card) in EXTRA_PLAY_RANKS:
            if playable(state, state.cards(hand(seat))):
                data.extra_play = True
                return events + [event("extra_play", seat=seat)]
            events.append(event("extra_play_lost", seat=seat))
        return events + self._next_turn(state, seat)

    @pass_.refusal
    def _pass_refused(self, state: State, seat: int, action: Action) -> str | None:
        data = CinquilloData.of(state)
        if data.extra_play:
            if state.options["extra_play_optional"]:
                return None
            return "you must take your extra play: a card of yours can be placed"
        cards = playable(state, state.cards(hand(seat)))
        if cards:
            return f"you may pass only when no card can be placed; you can place {', '.join(cards)}"
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
        passed = event("passed", seat=seat, paid=paid, pot=data.pot, extra_play=extra)
        return [passed] + self._next_turn(state, seat)

    def _eliminate(self, state: State, seat: int) -> list[Event]:
        """A broke player who must pass is out (option ``broke`` = "eliminated")."""
        data = CinquilloData.of(state)
        data.eliminated.append(seat)
        events = [event("eliminated", seat=seat)]
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
            event("round_won", seat=winner, round=state.round, points=points, pot=data.pot,
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
