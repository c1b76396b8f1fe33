"""Ladrones de tumbas: build four tombs, each an Ace with cards alternately face up (of the
Ace's suit) and face down (any suit); at the end a tomb is open when its other suits add
up to at least its own suit. Secret missions (two figures each) score one point per
mission card whose suit's tomb is open (rules/ladrones-de-tumbas.txt). ``descubiertas``:
the missions are public.

A turn is two draws, a draw and a play, or two plays: laying a card ends the turn, but for
a second card laid on another tomb ("cuando un jugador baja cartas termina su turno"), so
after a play the player lays another card or ends the turn, and draws no more. A tomb
holding seven cards (the Ace and six) is blocked. The match ends when every tomb is
blocked or nobody can act.

Rules version 2 (``draw_after_play`` off): before it a turn was any two actions, a draw
after a play included, and could not end after one play.

Every decision where the text is silent or ambiguous is in docs/games/ladrones-de-tumbas.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.engine import (
    ENGLISH_SUITS,
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
    english_deck,
    event,
    rank,
    record_round,
    register,
    suit,
)
from shared.engine.actions import CARD, ActionType, choice
from shared.engine.kit import turns
from shared.engine.kit.dealing import deal_hands
from shared.engine.kit.ending import end_match, highest
from shared.engine.kit.zones import hand, not_in_hand, seat_zone

ACTIONS_PER_TURN = 2
TOMB_SIZE = 7  # the Ace and six cards: the seventh card blocks the tomb
FIGURES = (11, 12, 13)
MISSIONS_EACH = 2
NUMBER_CARDS = 36  # 2 to 10 of four suits
DRAW: Action = {"type": "draw"}


def tomb(s: str) -> str:
    """The public zone of the tomb of suit ``s``: its Ace and its face-up cards."""
    return f"tomb-{s}"


def tomb_down(s: str) -> str:
    """The hidden zone of the tomb of suit ``s``: its face-down cards, in the order played."""
    return f"tomb-{s}-down"


def missions(seat: int) -> str:
    return seat_zone("missions", seat)


def tomb_sums(ace_suit: str, cards: list[str]) -> tuple[int, int]:
    """(the Ace's suit total, the other suits' total) of a tomb's cards, the Ace counting 1."""
    own = sum(rank(c) for c in cards if suit(c) == ace_suit)
    return own, sum(rank(c) for c in cards if suit(c) != ace_suit)


def is_open(ace_suit: str, cards: list[str]) -> bool:
    """Open when the other suits add up to at least the Ace's suit; otherwise closed."""
    own, others = tomb_sums(ace_suit, cards)
    return others >= own


def mission_points(cards: list[str], open_suits: set[str]) -> int:
    """One point per mission card whose suit's tomb is open."""
    return sum(1 for c in cards if suit(c) in open_suits)


@dataclass
class LadronesData(GameData):
    dealer: int = 0
    actions_left: int = ACTIONS_PER_TURN  # actions left in the current turn
    played: list[str] = field(default_factory=list)  # tombs played on in the current turn
    result_tombs: dict | None = None  # at the end: per tomb its cards, sums and whether open


class LadronesDeTumbas(Game):
    id = "ladrones-de-tumbas"
    name = "Ladrones de tumbas"
    rules_file = "ladrones-de-tumbas.txt"
    players = (2, 6)  # two mission cards each from the 12 figures
    data_type = LadronesData
    options = {
        "public_missions": Option(False, "every player's missions are shown to all"),
        "hand_size": Option(6, "cards dealt to each player", minimum=1, maximum=18),
        "direction": turns.DIRECTION,
        "draw_after_play": Option(
            False, "a card may be drawn after one was laid in the same turn", since=2
        ),
    }
    rules_version = 2
    changes = (
        RulesChange(
            2,
            "after laying a card a player may only lay a second card, on another tomb, or end"
            " the turn (before: a draw after a play was allowed, and a turn was always two"
            " actions)",
            before={"draw_after_play": True},
        ),
    )
    variants = {
        "base": Variant("base", "Secret missions."),
        "descubiertas": Variant(
            "descubiertas",
            "Tumbas descubiertas: the missions are public.",
            {"public_missions": True},
        ),
    }

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck()

    def setup(self, state: State) -> list[Event]:
        n, data = state.players, LadronesData.of(state)
        if n * state.options["hand_size"] > NUMBER_CARDS:
            size = state.options["hand_size"]
            raise BadSetup(f"{n} players cannot each be dealt {size} of the {NUMBER_CARDS} cards")
        for x in ENGLISH_SUITS:
            state.zone(tomb(x), None, PUBLIC).cards = [f"A{x}"]
            state.zone(tomb_down(x), None, HIDDEN)
        stock = state.zone("stock", None, HIDDEN)
        stock.cards = [c for c in self.deck(state) if 2 <= rank(c) <= 10]
        state.shuffle(stock.cards)
        figures = state.zone("missions-left", None, HIDDEN)
        figures.cards = [c for c in self.deck(state) if rank(c) in FIGURES]
        state.shuffle(figures.cards)
        shown = PUBLIC if state.options["public_missions"] else OWNER
        for s in range(n):
            state.zone(hand(s), s, OWNER)
            state.zone(missions(s), s, shown)
        data.dealer = state.rng().randrange(n)
        first = turns.next_seat(state, data.dealer)
        order = turns.seats_from(state, first)
        events = [event("deal", dealer=data.dealer, first=first)]
        events += deal_hands(state, order, state.options["hand_size"])
        left = state.cards("missions-left")
        for s in order:
            taken = [left.pop() for _ in range(MISSIONS_EACH)]
            state.zones[missions(s)].cards = taken
            secret = {} if state.options["public_missions"] else {"visible_to": [s]}
            events.append(event("missions_dealt", seat=s, cards=list(taken), **secret))
        state.phase = "play"
        return events + self._start_turn(state, first)

    # -- the action table --------------------------------------------------------------
    draw = ActionType("draw", "take the top card of the stock", phases=("play",))
    play = ActionType(
        "play",
        "put a card on a tomb: face up (of the Ace's suit) or face down (any card), alternately",
        phases=("play",),
        card=CARD,
        tomb=choice(*ENGLISH_SUITS, description="the suit of the tomb's Ace"),
    )
    end = ActionType("end", "end your turn after laying one card", phases=("play",))

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> str | None:
        if LadronesData.of(state).played and not self.option(state, "draw_after_play"):
            return "you have laid a card this turn: lay a second one on another tomb, or end it"
        return None if state.cards("stock") else "the stock is empty"

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state.move_top("stock", hand(seat))
        return [event("drew", seat=seat, card=card, visible_to=[seat])] + self._after(state, seat)

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return [
            {"type": "play", "card": c, "tomb": x}
            for x in ENGLISH_SUITS
            for c in dict.fromkeys(state.cards(hand(seat)))
        ]

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> str | None:
        card, x = action["card"], action["tomb"]
        if missing := not_in_hand(state, seat, card):
            return missing
        if self.size(state, x) >= TOMB_SIZE:
            return f"the tomb of {x} is blocked: it holds {TOMB_SIZE} cards"
        if x in LadronesData.of(state).played:
            return (
                f"you have played on the tomb of {x} this turn: a second card goes to another tomb"
            )
        if self.face_up_next(state, x) and suit(card) != x:
            return f"the next card on the tomb of {x} goes face up and must be of its suit, {x}"
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card, x = action["card"], action["tomb"]
        up = self.face_up_next(state, x)
        state.move(card, hand(seat), tomb(x) if up else tomb_down(x))
        LadronesData.of(state).played.append(x)
        if up:
            events = [event("played", seat=seat, tomb=x, face="up", card=card)]
        else:
            events = [event("played", seat=seat, tomb=x, face="down", card=card, visible_to=[seat])]
        if self.size(state, x) >= TOMB_SIZE:
            events.append(event("tomb_blocked", tomb=x))
        return events + self._after(state, seat)

    @end.refusal
    def _end_refused(self, state: State, seat: int, action: Action) -> str | None:
        if self.option(state, "draw_after_play"):
            return "a turn is two actions, each a draw or a card laid"
        if not LadronesData.of(state).played:
            return "you may end your turn early only after laying a card"
        return None

    @end.handler
    def _end_turn(self, state: State, seat: int, action: Action) -> list[Event]:
        return [event("done", seat=seat)] + self._start_turn(state, turns.next_seat(state, seat))

    # -- turns -------------------------------------------------------------------------
    def _after(self, state: State, seat: int) -> list[Event]:
        """One action done: the turn goes on, passes to the next player who can act, or the
        match ends (every tomb blocked, or nobody can act)."""
        data = LadronesData.of(state)
        data.actions_left -= 1
        if all(self.size(state, x) >= TOMB_SIZE for x in ENGLISH_SUITS):
            return self._end(state, "all_tombs_blocked")
        if data.actions_left and self._can_act(state, seat):
            return []
        return self._start_turn(state, turns.next_seat(state, seat))

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = LadronesData.of(state)
        data.actions_left, data.played = ACTIONS_PER_TURN, []
        events: list[Event] = []
        for candidate in turns.seats_from(state, seat):
            if self._can_act(state, candidate):
                state.to_act = [candidate]
                return events
            events.append(event("passed", seat=candidate))
        return events + self._end(state, "nobody_can_act")

    def _can_act(self, state: State, seat: int) -> bool:
        """Whether ``seat`` has a draw or a play left now (ending a turn early is no action:
        a player who could only end it has it ended)."""
        if self._draw_refused(state, seat, DRAW) is None:
            return True
        return any(self._play_refused(state, seat, a) is None for a in self._plays(state, seat))

    # -- the end -----------------------------------------------------------------------
    def _end(self, state: State, reason: str) -> list[Event]:
        """Reveal the tombs, score the missions, and finish."""
        data = LadronesData.of(state)
        tombs = {}
        for x in ENGLISH_SUITS:
            state.zones[tomb_down(x)].visibility = PUBLIC
            cards = state.cards(tomb(x)) + state.cards(tomb_down(x))
            own, others = tomb_sums(x, cards)
            tombs[x] = {"cards": cards, "suit_total": own, "others_total": others,
                        "open": others >= own}  # fmt: skip
        data.result_tombs = tombs
        open_suits = {x for x, t in tombs.items() if t["open"]}
        shown = [list(state.cards(missions(s))) for s in range(state.players)]
        for s in range(state.players):
            state.zones[missions(s)].visibility = PUBLIC
        points = [mission_points(m, open_suits) for m in shown]
        record_round(state, points)
        state.to_act = []
        events = [
            event("tombs_revealed", reason=reason, tombs=tombs),
            event("missions_revealed", missions=shown, points=points),
        ]
        return events + end_match(state, highest(state.scores))

    # -- rules as questions ------------------------------------------------------------
    @staticmethod
    def size(state: State, x: str) -> int:
        """Cards at the tomb of ``x``, its Ace included."""
        return len(state.cards(tomb(x))) + len(state.cards(tomb_down(x)))

    @classmethod
    def face_up_next(cls, state: State, x: str) -> bool:
        """The Ace is followed by a face-up card, then face down, up, down, up, down."""
        return cls.size(state, x) % 2 == 1

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: LadronesData) -> LadronesData:
        """The view's name for the tombs played this turn (see engine.sampling)."""
        data.played = list(view["played_this_turn"])
        return data

    def public_fields(self, state: State) -> dict:
        data = LadronesData.of(state)
        return {
            "dealer": data.dealer,
            "actions_left": data.actions_left if not state.finished else 0,
            "played_this_turn": list(data.played),
            "tombs": {
                x: {
                    "size": self.size(state, x),
                    "blocked": self.size(state, x) >= TOMB_SIZE,
                    "next": "up" if self.face_up_next(state, x) else "down",
                }
                for x in ENGLISH_SUITS
            },
            "result_tombs": data.result_tombs,
        }


register(LadronesDeTumbas())
