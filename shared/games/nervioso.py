"""Nervioso (rules/nervioso.txt, RULINGS.md 2.11 and 3 "Real-time reflex").

A real-time slap game with a 40-card Spanish deck. The deck is dealt face down
and evenly; nobody sees their own cards. In turn, clockwise, each player turns
the top card of their hand onto the face-up discard pile while the count runs
1, 2, ... 10 and starts again (the server owns the count: values 1-7 are
themselves, Sota 8, Caballo 9, Rey 10). When the card played equals the count
said, a reaction window opens: every seat must slap the pile and the LAST to
slap takes it. The server's arrival order (the order ``apply`` is called)
decides the race; its ``timeout`` closes the window, and whoever has not
slapped by then counts as last. The taker shuffles the pile into their hand and
restarts the count at 1 with their next card.

Penalties: a slap with no window open (a false slap) takes the pile; the next
player throwing a card instead of slapping takes the pile plus 2 cards from the
top of every other hand. Win: a player with no cards who slaps a match and is
not the last to do so. Loss: the player who ends up holding all 40 cards
(everyone else wins). Draw: every card is discarded with no match.

Decisions where the text is silent or ambiguous (each an option where it is a rule choice):
* Deal: ``40 // n`` cards each; the ``40 % n`` leftovers start the pile face up
  and do not touch the count, which starts at 1 with the first card played.
  2 to 10 players (the text says "2+"; 10 keeps 4 cards a hand).
* First player ("el más joven"): option ``youngest_seat`` (default 0). Play is
  clockwise; ``direction`` = ``counterclockwise`` reverses it.
* Every card of the pile was shown when it landed there, so the pile is public;
  hands are hidden from everyone, their owner included. A play takes no card
  parameter: the player throws the top card without knowing it.
* Who may act: outside a window every seat may slap while the pile holds a card
  (slapping an empty table is no slap), and the player in turn may also play.
  In a window every seat that has not slapped yet may slap, and the player due
  to play next may also throw a card instead (the penalty above); the player
  who made the match is in the race like everyone else.
* Several non-reactors at the timeout: the first of them in turn order after
  the player who made the match (that player last) takes the pile; option
  ``non_reactor_taker`` = ``random`` draws one by chance instead.
* After any take the taker plays next with count 1 (RULINGS 2.11.3). Players
  with no cards are skipped in turn but may still slap; a false slap or a last
  slap gives them the pile and they play on normally.
* A player with no cards wins the moment they slap a match while some seat has
  not slapped yet (they can no longer be last); the first such slap wins.
* A draw (all cards discarded without a match) is a shared win of every seat;
  so is reaching ``max_passes`` passes through the deck (``40 * max_passes``
  cards played), a bound that keeps any match, random play included, finite.
* Scores: 1 for each winner, 0 for everyone else, recorded as the one round.
* contando-figuras: the same game with the words sota/caballo/rey said for 8, 9
  and 10 (``count_words`` = ``figures``); a match is the same card as in base.
* 666: count 6 is silent (``silent_six``): nothing is said, so a 6 played there
  matches no spoken number and opens no window (``silent_six_is_match`` makes it
  open one anyway); the count goes on at 7. Saying 6 or losing the count cannot
  happen because the server keeps the count, so that penalty is never applied.
"""

from __future__ import annotations

from shared.engine import (
    HIDDEN,
    PUBLIC,
    Action,
    BadSetup,
    Event,
    Game,
    Option,
    State,
    Variant,
    event,
    finish,
    rank,
    record_round,
    register,
    spanish_deck,
)

VALUE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 8, 11: 9, 12: 10}  # rank -> count value
FIGURE_WORDS = {8: "sota", 9: "caballo", 10: "rey"}
COUNT_CYCLE = 10
SILENT_COUNT = 6
DECK_SIZE = 40
PENALTY_CARDS = 2
PILE = "pile"


class Nervioso(Game):
    id = "nervioso"
    name = "Nervioso"
    rules_file = "nervioso.txt"
    players = (2, 10)
    options = {
        "youngest_seat": Option(
            0, "seat of the youngest player, who plays first", minimum=0, maximum=9
        ),
        "direction": Option(
            "clockwise", "direction of play", choices=("clockwise", "counterclockwise")
        ),
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
        state.data["direction"] = 1 if state.options["direction"] == "clockwise" else -1
        cards = self.deck(state)
        state.shuffle(cards)
        size = len(cards) // n
        for s in range(n):
            state.zone(f"hand:{s}", s, HIDDEN).cards = cards[s * size : (s + 1) * size]
        state.zone(PILE, None, PUBLIC).cards = cards[n * size :]
        state.data.update(count=1, said=None, turn=first, window=None, plays=0)
        dealt = event("dealt", hand_size=size, pile=list(state.cards(PILE)), first=first)
        return [dealt] + self._start_turn(state, first)

    # -- legal actions -----------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        actions: list[Action] = []
        if self._may_slap(state):
            actions.append({"type": "slap"})
        if seat == state.data["turn"]:
            actions.append({"type": "play"})
        return actions

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        kind, turn = action.get("type"), state.data["turn"]
        if kind == "slap":
            return "there is no discard pile to slap yet"
        if kind == "play":
            if set(action) != {"type"}:
                return "play takes no card: you throw the top card of your face-down hand"
            if self._window_open(state):
                return f"only seat {turn}, next to play, can throw a card instead of slapping"
            return f"it is seat {turn}'s turn to play"
        return f"unknown action type {kind!r}; actions: play, slap"

    # -- applying ----------------------------------------------------------------------
    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        if seat is None:
            return self._timeout(state)
        if action["type"] == "slap":
            return self._slap(state, seat)
        if self._window_open(state):
            return self._throw_instead_of_slapping(state, seat)
        return self._play(state, seat)

    def _play(self, state: State, seat: int) -> list[Event]:
        data = state.data
        card = state.move_top(f"hand:{seat}", PILE)
        count = data["count"]
        said = self._word(state, count)
        data["said"] = said
        data["count"] = count % COUNT_CYCLE + 1
        data["plays"] += 1
        match = VALUE[rank(card)] == count and (
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
        state.phase = "reaction"
        state.data["window"] = {"player": seat, "slaps": []}
        state.data["turn"] = nxt
        state.to_act = list(range(state.players))
        state.deadline = {"kind": "reaction", "seconds": seconds}
        return [event("window_opened", seat=seat, seconds=seconds)]

    def _slap(self, state: State, seat: int) -> list[Event]:
        if not self._window_open(state):
            false_slap = event("slapped", seat=seat, match=False)
            return [false_slap] + self._take(state, seat, "false slap")
        slaps = state.data["window"]["slaps"]
        slaps.append(seat)
        state.to_act.remove(seat)
        events = [event("slapped", seat=seat, match=True, order=len(slaps))]
        if not state.cards(f"hand:{seat}") and state.to_act:
            return events + self._end(state, [seat], "empty hand and a correct slap")
        if not state.to_act:
            return events + self._take(state, seat, "last to slap")
        return events

    def _timeout(self, state: State) -> list[Event]:
        late = self._non_reactors(state)
        if state.options["non_reactor_taker"] == "random" and len(late) > 1:
            taker = late[state.rng().randrange(len(late))]
        else:
            taker = late[0]
        return [event("window_closed", late=late)] + self._take(state, taker, "did not slap")

    def _throw_instead_of_slapping(self, state: State, seat: int) -> list[Event]:
        card = state.move_top(f"hand:{seat}", PILE)
        hand = state.cards(f"hand:{seat}")
        given = [0] * state.players
        for other in range(state.players):
            if other != seat:
                source = state.cards(f"hand:{other}")
                given[other] = min(PENALTY_CARDS, len(source))
                hand.extend(source[len(source) - given[other] :])
                del source[len(source) - given[other] :]
        events = [event("threw", seat=seat, card=card), event("penalty", seat=seat, taken=given)]
        return events + self._take(state, seat, "played instead of slapping")

    def _take(self, state: State, seat: int, reason: str) -> list[Event]:
        """The taker shuffles the pile into their hand and restarts the count at 1."""
        pile, hand = state.cards(PILE), state.cards(f"hand:{seat}")
        taken = len(pile)
        hand.extend(pile)
        pile.clear()
        state.shuffle(hand)
        state.data["count"] = 1
        events = [event("took_pile", seat=seat, reason=reason, taken=taken)]
        if len(hand) == DECK_SIZE:
            others = [s for s in range(state.players) if s != seat]
            return events + self._end(state, others, f"seat {seat} holds every card")
        return events + self._start_turn(state, seat)

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = state.data
        if data["plays"] >= state.options["max_passes"] * DECK_SIZE:
            return self._end(state, list(range(state.players)), "play limit reached")
        state.phase = "play"
        state.deadline = None
        data["window"] = None
        data["turn"] = seat
        state.to_act = list(range(state.players)) if state.cards(PILE) else [seat]
        return []

    def _end(self, state: State, winners: list[int], reason: str) -> list[Event]:
        record_round(state, [1 if s in winners else 0 for s in range(state.players)])
        finish(state, winners)
        state.data["window"] = None
        return [event("match_finished", reason=reason, result=state.result)]

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _window_open(state: State) -> bool:
        return state.data["window"] is not None

    @staticmethod
    def _may_slap(state: State) -> bool:
        return bool(state.zones[PILE].cards)

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
        for step in range(1, state.players + 1):
            other = state.next_seat(seat, step)
            if state.zones[f"hand:{other}"].cards:
                return other
        return None

    @staticmethod
    def _non_reactors(state: State) -> list[int]:
        """Seats that did not slap, in turn order after the matching player (who comes last)."""
        window = state.data["window"]
        order = [state.next_seat(window["player"], step) for step in range(1, state.players + 1)]
        return [s for s in order if s not in window["slaps"]]

    def view_fields(self, state: State, seat: int | None) -> dict:
        data = state.data
        window = data["window"]
        return {
            "count": data["count"],
            "next_word": self._word(state, data["count"]),
            "said": data["said"],
            "turn": data["turn"],
            "window": {"player": window["player"], "slaps": list(window["slaps"])}
            if window
            else None,
            "plays": data["plays"],
            "play_limit": state.options["max_passes"] * DECK_SIZE,
        }


register(Nervioso())
