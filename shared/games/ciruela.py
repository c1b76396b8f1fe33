"""Ciruela (rules/ciruela.txt): a Crazy-Eights-like shedding game with an English deck; the
rules as implemented and every decision where the text is silent are in
docs/games/ciruela.md.

A turn opens with a card that matches the top card's number or suit (drawing until one
can be played); then the player may add cards of the same suit. An A names a new suit,
and the player must then lay every card of it they hold ("descarta todas las cartas de
su mano que tenga de esa pinta"): the turn cannot be ended while one is left, and a
figure or another A of it comes last. A J, Q or K ends the turn. The first player to
empty their hand wins. The stock and discard pile are the kit's (``kit/shedding.py``).

Rules version 2 (``ace_discards_all``): before it, adding cards after an A was optional as
after any other card.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.engine import (
    ENGLISH_SUITS,
    Action,
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
    register,
    suit,
)
from shared.engine.actions import CARD, ActionType, Field
from shared.engine.data import absent_when_none
from shared.engine.kit import shedding
from shared.engine.kit.ending import end_match
from shared.engine.kit.turns import DIRECTION, next_seat
from shared.engine.kit.zones import hand, not_in_hand

ACE = 1
FIGURES = (11, 12, 13)  # J, Q, K
HAND_SIZE = 8
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@dataclass
class CiruelaData(GameData):
    suit: str = ""  # the suit to match or add: the top card's, or the one an A named
    played: int = 0  # cards played in this turn (0: the turn is still to be opened)
    named: str | None = None  # the suit the last A named, while it stands
    #: Since version 2: the suit an A named this turn, every card of which is to be laid
    #: (absent before: the states of version 1 keep their bytes).
    to_empty: str | None = absent_when_none()


class Ciruela(Game):
    id = "ciruela"
    name = "Ciruela"
    rules_file = "ciruela.txt"
    players = (2, 6)  # 8 cards each and a starter: 6 × 8 + 1 = 49 of 52
    data_type = CiruelaData
    options = {
        "direction": DIRECTION,
        "ace_chains": Option(
            True, "an A added after the first card of a turn names a new suit again"
        ),
        "ace_discards_all": Option(
            True,
            "after an A, every card of the suit it named is laid before the turn ends",
            since=2,
        ),
    }
    rules_version = 2
    changes = (
        RulesChange(
            2,
            "after an A the player lays every card of the suit it named: no end while one is"
            " left, and a figure or another A of it comes last (before: adding was optional)",
            before={"ace_discards_all": False},
        ),
    )
    variants = {"base": Variant("base", "Ciruela: eight cards each, the first empty hand wins.")}

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck()

    def setup(self, state: State) -> list[Event]:
        first = state.rng().randrange(state.players)
        seats = [next_seat(state, first, i) for i in range(state.players)]
        events = shedding.new_table(state, english_deck(), HAND_SIZE, seats)
        CiruelaData.of(state).suit = suit(shedding.top(state))
        return events + self._start_turn(state, first)

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = CiruelaData.of(state)
        data.played, data.to_empty = 0, None
        state.phase = "open"
        state.to_act = [seat]
        return [event("turn", seat=seat)]

    # -- rules as questions -------------------------------------------------------------
    def _matches(self, state: State, card: str) -> bool:
        """May open a turn: the same number as the top card, or the suit to match."""
        return rank(card) == rank(shedding.top(state)) or suit(card) == CiruelaData.of(state).suit

    def _can_open(self, state: State, seat: int) -> bool:
        return any(self._matches(state, c) for c in state.cards(hand(seat)))

    def _names_suit(self, state: State, card: str) -> bool:
        """An A names a suit when it opens the turn, and when added if ``ace_chains``."""
        if rank(card) != ACE:
            return False
        return state.phase == "open" or state.options["ace_chains"]

    def _ends_the_run(self, state: State, card: str) -> bool:
        """Added now, this card ends the turn (a figure) or names another suit (an A)."""
        return rank(card) in FIGURES or self._names_suit(state, card)

    # -- the action table --------------------------------------------------------------
    play = ActionType(
        "play",
        "lay a card on the discard pile (an A names the suit to go on with)",
        phases=("open", "dump"),
        card=CARD,
        suit=Field("str", "the suit an A changes to", choices=ENGLISH_SUITS, optional=True),
    )
    draw = ActionType("draw", "draw a card: no card in hand can open the turn", phases=("open",))
    pass_ = ActionType("pass", "nothing can be played or drawn: the turn passes", phases=("open",))
    end = ActionType("end", "stop adding cards; the turn passes", phases=("dump",))

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        actions: list[Action] = []
        for c in state.cards(hand(seat)):
            actions.append({"type": "play", "card": c})
            if rank(c) == ACE:
                actions += [{"type": "play", "card": c, "suit": s} for s in ENGLISH_SUITS]
        return actions

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> str | None:
        card, named = action["card"], action.get("suit")
        data = CiruelaData.of(state)
        if missing := not_in_hand(state, seat, card):
            return missing
        if state.phase == "open" and not self._matches(state, card):
            top = shedding.top(state)
            return (
                f"{card} matches neither the number of the top card {top}"
                f" nor the suit to follow ({SUIT_NAMES[data.suit]})"
            )
        if state.phase == "dump" and suit(card) != data.suit:
            return f"after the first card you may only add {SUIT_NAMES[data.suit]}"
        if (named_suit := data.to_empty) and self._ends_the_run(state, card):
            others = [c for c in state.cards(hand(seat)) if suit(c) == named_suit and c != card]
            if any(not self._ends_the_run(state, c) for c in others):
                why = "ends your turn" if rank(card) in FIGURES else "names another suit"
                return (
                    f"an A named {SUIT_NAMES[named_suit]}: lay your other"
                    f" {SUIT_NAMES[named_suit]} first, since {card} {why}"
                )
        if self._names_suit(state, card):
            if named is None:
                return "an A names the suit to change to: add the field 'suit'"
            if named == suit(card):
                return "an A changes to another suit than its own"
        elif named is not None:
            return "only an A that changes the suit names one"
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        data = CiruelaData.of(state)
        card = action["card"]
        shedding.discard(state, seat, card)
        data.played += 1
        named = action.get("suit")
        data.suit, data.named = (named, named) if named else (suit(card), None)
        if named and self.option(state, "ace_discards_all"):
            data.to_empty = named
        events = [event("played", seat=seat, card=card, suit=named)]
        if not state.cards(hand(seat)):
            return events + end_match(state, [seat], reason="empty hand")
        if rank(card) in FIGURES:
            return events + self._next(state, seat)
        state.phase = "dump"
        if not any(suit(c) == data.suit for c in state.cards(hand(seat))):
            return events + self._next(state, seat)  # nothing to add
        return events

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> str | None:
        if self._can_open(state, seat):
            return "you have a card that can be played: play it"
        if not shedding.can_draw(state):
            return "there is nothing left to draw: pass"
        return None

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        return shedding.draw(state, seat)

    @pass_.refusal
    def _pass_refused(self, state: State, seat: int, action: Action) -> str | None:
        if self._can_open(state, seat):
            return "you have a card that can be played: play it"
        if shedding.can_draw(state):
            return "you must draw until you can play"
        return None

    @pass_.handler
    def _pass(self, state: State, seat: int, action: Action) -> list[Event]:
        return [event("passed", seat=seat)] + self._next(state, seat)

    @end.refusal
    def _end_refused(self, state: State, seat: int, action: Action) -> str | None:
        named = CiruelaData.of(state).to_empty
        if named and any(suit(c) == named for c in state.cards(hand(seat))):
            return f"an A named {SUIT_NAMES[named]}: lay all your {SUIT_NAMES[named]} before ending"
        return None

    @end.handler
    def _end(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._next(state, seat)

    def _next(self, state: State, seat: int) -> list[Event]:
        return self._start_turn(state, next_seat(state, seat))

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: CiruelaData) -> CiruelaData:
        """The view's names for the turn's plays and the named suits (see engine.sampling)."""
        data.played, data.named = view["played_this_turn"], view["named_suit"]
        data.to_empty = view["suit_to_empty"]
        return data

    def public_fields(self, state: State) -> dict:
        data = CiruelaData.of(state)
        return {
            "suit": data.suit,
            "named_suit": data.named,
            "played_this_turn": data.played,
            "suit_to_empty": data.to_empty,
        }


register(Ciruela())
