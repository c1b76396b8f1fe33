"""Nervioso: a real-time slap game with a 40-card Spanish deck (rules/nervioso.txt).

Hands lie face down, unseen even by their owners; in turn each player throws the top
card onto a public pile while the server keeps the count 1..10. A card equal to the
count opens a reaction window (``shared.engine.kit.reaction``): everyone slaps, the
server's arrival order is the race, and the last to slap (or whoever has not slapped
at the timeout) takes the pile. A player with no cards wins on a correct slap that is
not last; whoever ends up with all 40 cards loses. Variants ``contando-figuras`` and
``666``. Every decision where the text is silent is in docs/games/nervioso.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.engine import (
    HIDDEN,
    PUBLIC,
    Action,
    BadSetup,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    event,
    record_round,
    register,
    spanish_deck,
)
from shared.engine.actions import ActionType
from shared.engine.kit import reaction, turns
from shared.engine.kit.ending import end_match
from shared.engine.kit.tables import SPANISH_COUNT, value_of
from shared.engine.kit.zones import hand

FIGURE_WORDS = {8: "sota", 9: "caballo", 10: "rey"}
COUNT_CYCLE = 10
SILENT_COUNT = 6
DECK_SIZE = 40
PENALTY_CARDS = 2
PILE = "pile"
#: Each card's count value (``value_of`` with ``SPANISH_COUNT``), looked up on every card thrown.
COUNT_OF = {card: value_of(card, SPANISH_COUNT) for card in spanish_deck(DECK_SIZE)}


@dataclass
class NerviosoData(GameData):
    direction: int = 1  # +1 clockwise, -1 counterclockwise (kept for stored states)
    count: int = 1  # the number the next card is said on
    said: int | str | None = None  # what was said on the last card (None: a silent six)
    turn: int | None = None  # who plays next (None: every hand is empty)
    window: dict | None = None  # the open window: {"player": who matched, "slaps": in order}
    plays: int = 0  # cards played so far


class Nervioso(Game):
    id = "nervioso"
    name = "Nervioso"
    rules_file = "nervioso.txt"
    players = (2, 10)
    data_type = NerviosoData
    options = {
        "youngest_seat": Option(
            0, "seat of the youngest player, who plays first", minimum=0, maximum=9
        ),
        "direction": turns.DIRECTION,
        "reaction_seconds": Option(
            3.0, "seconds a reaction window stays open", minimum=0.5, maximum=30.0
        ),
        "count_words": Option(
            "numbers",
            "words said for 8, 9, 10: numbers or sota/caballo/rey",
            choices=("numbers", "figures"),
        ),
        "silent_six": Option(False, "count 6 is silent (666): nothing is said on it"),
        "silent_six_is_match": Option(False, "a 6 played on a silent 6 still opens a window"),
        "non_reactor_taker": Option(
            "next-in-turn",
            "who takes the pile when several seats did not slap",
            choices=("next-in-turn", "random"),
        ),
        "max_passes": Option(
            25,
            "passes through the deck (40 cards played each) before a draw",
            minimum=1,
            maximum=1000,
        ),
    }
    variants = {
        "base": Variant("base", "Nervioso: count 1 to 10 (S 8, C 9, R 10); slap on a match."),
        "contando-figuras": Variant(
            "contando-figuras",
            "Count 1 to 7, then sota, caballo, rey.",
            {"count_words": "figures"},
        ),
        "666": Variant(
            "666", "The 6 is never said: the 6th card is played in silence.", {"silent_six": True}
        ),
    }

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(DECK_SIZE)

    def setup(self, state: State) -> list[Event]:
        n, first = state.players, state.options["youngest_seat"]
        if first >= n:
            raise BadSetup(f"youngest_seat must be a seat from 0 to {n - 1}")
        data = NerviosoData.of(state)
        data.direction = turns.direction(state)
        cards = self.deck(state)
        state.shuffle(cards)
        size = len(cards) // n
        for s in range(n):
            state.zone(hand(s), s, HIDDEN).cards = cards[s * size : (s + 1) * size]
        state.zone(PILE, None, PUBLIC).cards = cards[n * size :]
        data.turn = first
        dealt = event("dealt", hand_size=size, pile=list(state.cards(PILE)), first=first)
        return [dealt] + self._start_turn(state, first)

    # -- the action table --------------------------------------------------------------
    slap = ActionType(
        "slap",
        "put your hand on the pile: on a match a reaction, otherwise a false slap",
        phases=("play", reaction.PHASE),
    )
    play = ActionType(
        "play",
        "throw the top card of your face-down hand onto the pile",
        phases=("play", reaction.PHASE),
    )

    @slap.enumerate
    def _slaps_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly, as is play: every seat asks after every card thrown, and a
        refusal would word a reason for each seat that cannot."""
        return [{"type": "slap"}] if state.zones[PILE].cards else []

    @play.enumerate
    def _plays_now(self, state: State, seat: int) -> list[Action]:
        return [{"type": "play"}] if seat == NerviosoData.of(state).turn else []

    @slap.refusal
    def _slap_refused(self, state: State, seat: int, action: Action) -> str | None:
        return None if state.cards(PILE) else "there is no discard pile to slap yet"

    @slap.handler
    def _slap(self, state: State, seat: int, action: Action) -> list[Event]:
        window = NerviosoData.of(state).window
        if window is None:
            false_slap = event("slapped", seat=seat, match=False)
            return [false_slap] + self._take(state, seat, "false slap")
        order = reaction.react(state, seat, window["slaps"])
        events = [event("slapped", seat=seat, match=True, order=order)]
        last = reaction.everyone_reacted(range(state.players), window["slaps"])
        if not state.cards(hand(seat)) and not last:
            return events + self._end(state, [seat], "empty hand and a correct slap")
        if last:
            return events + self._take(state, seat, "last to slap")
        return events

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> str | None:
        data = NerviosoData.of(state)
        if seat == data.turn:
            return None
        if data.window is not None:
            return f"only seat {data.turn}, next to play, can throw a card instead of slapping"
        return f"it is seat {data.turn}'s turn to play"

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        data = NerviosoData.of(state)
        if data.window is not None:
            return self._throw_instead_of_slapping(state, seat)
        return self._throw(state, seat, data)

    # -- applying ----------------------------------------------------------------------
    def _throw(self, state: State, seat: int, data: NerviosoData) -> list[Event]:
        card = state.move_top(hand(seat), PILE)
        count = data.count
        said = self._word(state, count)
        data.said = said
        data.count = count % COUNT_CYCLE + 1
        data.plays += 1
        match = COUNT_OF[card] == count and (
            said is not None or state.options["silent_six_is_match"]
        )
        events = [event("played", seat=seat, card=card, count=count, said=said, match=match)]
        nxt = self._next_holder(state, seat)
        if match:
            return events + self._open_window(state, seat, nxt)
        if nxt is None:
            return events + self._end(state, list(range(state.players)), "all cards discarded")
        return events + self._start_turn(state, nxt)

    def _open_window(self, state: State, seat: int, nxt: int | None) -> list[Event]:
        seconds = state.options["reaction_seconds"]
        data = NerviosoData.of(state)
        data.window = {"player": seat, "slaps": []}
        data.turn = nxt
        reaction.open_window(state, seconds, range(state.players))
        return [event("window_opened", seat=seat, seconds=seconds)]

    def on_timeout(self, state: State) -> list[Event]:
        """The window's time is up: a seat that did not slap counts as the last."""
        late = self._non_reactors(state)
        if state.options["non_reactor_taker"] == "random" and len(late) > 1:
            taker = late[state.rng().randrange(len(late))]
        else:
            taker = late[0]
        return [event("window_closed", late=late)] + self._take(state, taker, "did not slap")

    def _throw_instead_of_slapping(self, state: State, seat: int) -> list[Event]:
        card = state.move_top(hand(seat), PILE)
        mine = state.cards(hand(seat))
        given = [0] * state.players
        for other in range(state.players):
            if other != seat:
                source = state.cards(hand(other))
                given[other] = min(PENALTY_CARDS, len(source))
                mine.extend(source[len(source) - given[other] :])
                del source[len(source) - given[other] :]
        events = [event("threw", seat=seat, card=card), event("penalty", seat=seat, taken=given)]
        return events + self._take(state, seat, "played instead of slapping")

    def _take(self, state: State, seat: int, reason: str) -> list[Event]:
        """The taker shuffles the pile into their hand and restarts the count at 1."""
        pile, mine = state.cards(PILE), state.cards(hand(seat))
        taken = len(pile)
        mine.extend(pile)
        pile.clear()
        state.shuffle(mine)
        NerviosoData.of(state).count = 1
        events = [event("took_pile", seat=seat, reason=reason, taken=taken)]
        if len(mine) == DECK_SIZE:
            others = [s for s in range(state.players) if s != seat]
            return events + self._end(state, others, f"seat {seat} holds every card")
        return events + self._start_turn(state, seat)

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = NerviosoData.of(state)
        if data.plays >= state.options["max_passes"] * DECK_SIZE:
            return self._end(state, list(range(state.players)), "play limit reached")
        state.phase = "play"
        reaction.close_window(state)
        data.window = None
        data.turn = seat
        state.to_act = list(range(state.players)) if state.cards(PILE) else [seat]
        return []

    def _end(self, state: State, winners: list[int], reason: str) -> list[Event]:
        record_round(state, [1 if s in winners else 0 for s in range(state.players)])
        NerviosoData.of(state).window = None
        return end_match(state, winners, reason=reason)

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _word(state: State, count: int) -> int | str | None:
        """What the player says for ``count``; None when the count is silent (666)."""
        if count == SILENT_COUNT and state.options["silent_six"]:
            return None
        if state.options["count_words"] == "figures":
            return FIGURE_WORDS.get(count, count)
        return count

    @staticmethod
    def _next_holder(state: State, seat: int) -> int | None:
        """The next seat after ``seat`` (itself last) that still has cards to play."""
        zones = state.zones
        for other in turns.seats_after(state, seat):
            if zones[hand(other)].cards:
                return other
        return None

    @staticmethod
    def _non_reactors(state: State) -> list[int]:
        """Seats that did not slap, in turn order after the matching player (who comes last)."""
        window = NerviosoData.of(state).window
        assert window is not None
        order = [turns.next_seat(state, window["player"], s) for s in range(1, state.players + 1)]
        return reaction.late(order, window["slaps"])

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = NerviosoData.of(state)
        window = data.window
        return {
            "count": data.count,
            "next_word": self._word(state, data.count),
            "said": data.said,
            "turn": data.turn,
            "window": {"player": window["player"], "slaps": list(window["slaps"])}
            if window
            else None,
            "plays": data.plays,
            "play_limit": state.options["max_passes"] * DECK_SIZE,
        }


register(Nervioso())
