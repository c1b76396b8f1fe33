"""99 (rules/noventa-y-nueve.txt): an adding game with two English decks and four jokers; the
rules as implemented and every decision where the text is silent are in
docs/games/noventa-y-nueve.md.

Players lay one card at a time on a running total that starts at 0 and never goes below
0: A-9 add their number, a 10 adds or takes 10 as the player chooses, a J takes 10, a Q
adds nothing, a K sets the total to 99 and a joker to 0. Whoever takes the total past 99
loses; a player holding three cards of one number (a trío) wins. After each card the
player draws from the stock (``kit/shedding.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from shared.engine import (
    JOKER,
    Action,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    english_deck,
    event,
    rank,
    record_round,
    register,
)
from shared.engine.actions import CARD, ActionType, Field
from shared.engine.kit import shedding
from shared.engine.kit.ending import end_match
from shared.engine.kit.turns import DIRECTION, next_seat
from shared.engine.kit.zones import hand, not_in_hand

LIMIT = 99
HAND_SIZE = 3
PLUS, MINUS = "plus", "minus"
TEN, JACK, QUEEN, KING = 10, 11, 12, 13


def new_total(total: int, card: str, ten: str | None = None) -> int:
    """The running total after ``card``; never below 0 (it may go past 99: that loses)."""
    if card == JOKER:
        return 0
    r = rank(card)
    if r == KING:
        return LIMIT
    if r == QUEEN:
        return total
    if r == JACK or (r == TEN and ten == MINUS):
        return max(0, total - 10)
    return total + r  # A-9 their number, a 10 added


def has_trio(cards: list[str]) -> bool:
    """Three cards of the same number (three jokers count too)."""
    return any(n >= 3 for n in Counter(rank(c) for c in cards).values())


def first_trio(state: State, order: list[int]) -> int | None:
    """The first seat in ``order`` whose hand is a trío (checked after a deal)."""
    return next((s for s in order if has_trio(state.cards(hand(s)))), None)


@dataclass
class NoventaData(GameData):
    total: int = 0
    first: int = 0  # who opened the current deal
    out: list[int] = field(default_factory=list)  # seats without tokens left, in order
    last_play: dict | None = None  # the last card laid, the choice for a 10 and the total


class NoventaYNueve(Game):
    id = "noventa-y-nueve"
    name = "99"
    rules_file = "noventa-y-nueve.txt"
    players = (2, 10)
    data_type = NoventaData
    options = {
        "direction": DIRECTION,
        "count_starter": Option(False, "the face-up starter card counts towards the total"),
        "tokens": Option(
            0,
            "0: one deal decides; otherwise each player starts with this many tokens, losing one"
            " per deal lost, and the last player with tokens wins",
            minimum=0,
            maximum=9,
        ),
    }
    variants = {"base": Variant("base", "99: do not take the total past 99; a trío wins.")}

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck(jokers=2, copies=2)  # two decks of 54: four jokers

    def setup(self, state: State) -> list[Event]:
        tokens = state.options["tokens"]
        state.scores = [tokens] * state.players
        return self._deal(state, state.rng().randrange(state.players))

    def _in_play(self, state: State) -> list[int]:
        out = NoventaData.of(state).out
        return [s for s in range(state.players) if s not in out]

    def _order(self, state: State, first: int) -> list[int]:
        """Seats still in, in the order of play from ``first``."""
        out = NoventaData.of(state).out
        seats = [next_seat(state, first, i) for i in range(state.players)]
        return [s for s in seats if s not in out]

    def _deal(self, state: State, first: int) -> list[Event]:
        """Shuffle every card, deal three to each player still in, turn up the starter."""
        data = NoventaData.of(state)
        order = self._order(state, first)
        data.first, data.last_play = first, None
        events = [event("deal", round=state.round, first=first)]
        events += shedding.new_table(state, self.deck(state), HAND_SIZE, order)
        starter = shedding.top(state)
        data.total = new_total(0, starter, PLUS) if state.options["count_starter"] else 0
        events.append(event("total", total=data.total))
        dealt_trio = first_trio(state, order)  # several: the first in the order of play wins
        if dealt_trio is not None:
            return events + self._trio(state, dealt_trio)
        state.phase = "play"
        state.to_act = [first]
        return events

    # -- the action table --------------------------------------------------------------
    play = ActionType(
        "play",
        "lay a card on the pile and change the total (a 10 says plus or minus), then draw",
        phases=("play",),
        card=CARD,
        ten=Field("str", "for a 10: add or take 10", choices=(PLUS, MINUS), optional=True),
    )

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        actions: list[Action] = []
        for c in dict.fromkeys(state.cards(hand(seat))):  # two equal cards: one action
            if c != JOKER and rank(c) == TEN:
                actions += [{"type": "play", "card": c, "ten": t} for t in (PLUS, MINUS)]
            else:
                actions.append({"type": "play", "card": c})
        return actions

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> str | None:
        card, ten = action["card"], action.get("ten")
        if missing := not_in_hand(state, seat, card):
            return missing
        is_ten = card != JOKER and rank(card) == TEN
        if is_ten and ten is None:
            return "a 10 adds or takes 10: add the field 'ten' (plus or minus)"
        if not is_ten and ten is not None:
            return "only a 10 says plus or minus"
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        data = NoventaData.of(state)
        card, ten = action["card"], action.get("ten")
        shedding.discard(state, seat, card)
        data.total = new_total(data.total, card, ten)
        data.last_play = {"seat": seat, "card": card, "ten": ten, "total": data.total}
        events = [event("played", seat=seat, card=card, ten=ten, total=data.total)]
        if data.total > LIMIT:
            return events + self._bust(state, seat)
        events += shedding.draw(state, seat)
        if has_trio(state.cards(hand(seat))):
            return events + self._trio(state, seat)
        state.to_act = [next_seat(state, seat, skip=data.out)]
        return events

    # -- the end of a deal ------------------------------------------------------------------
    def _bust(self, state: State, seat: int) -> list[Event]:
        events = [event("bust", seat=seat, total=NoventaData.of(state).total)]
        if not state.options["tokens"]:
            others = [s for s in self._in_play(state) if s != seat]
            return events + end_match(state, others, reason="bust", loser=seat)
        return events + self._lose_tokens(state, [seat])

    def _trio(self, state: State, seat: int) -> list[Event]:
        events = [event("trio", seat=seat, cards=list(state.cards(hand(seat))))]
        if not state.options["tokens"]:
            return events + end_match(state, [seat], reason="trío")
        return events + self._lose_tokens(state, [s for s in self._in_play(state) if s != seat])

    def _lose_tokens(self, state: State, losers: list[int]) -> list[Event]:
        """Each loser gives up a token; without tokens a player is out. One player left wins;
        otherwise a new deal starts with the next player still in."""
        data = NoventaData.of(state)
        record_round(state, [-1 if s in losers else 0 for s in range(state.players)])
        events: list[Event] = [event("tokens_lost", seats=sorted(losers))]
        for s in sorted(losers):
            if state.scores[s] <= 0:
                data.out.append(s)
                events.append(event("eliminated", seat=s))
        left = self._in_play(state)
        if len(left) <= 1:
            return events + end_match(state, left, reason="last player with tokens")
        state.round += 1
        nxt = next_seat(state, data.first, skip=data.out)
        return events + self._deal(state, nxt)

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = NoventaData.of(state)
        return {
            "total": data.total,
            "last_play": dict(data.last_play) if data.last_play else None,
            "out": list(data.out),
        }


register(NoventaYNueve())
