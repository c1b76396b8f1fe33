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
    record_round,
    register,
    spanish_deck,
)
from shared.engine.actions import ActionType
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import (
    BOOL,
    CARD,
    CARDS,
    INT,
    INTS,
    NUMBER,
    SEAT,
    SEATS,
    STR,
    choice,
    either,
    obj,
)
from shared.engine.kit import reaction, turns
from shared.engine.kit.ending import MATCH_FINISHED, end_match
from shared.engine.kit.tables import SPANISH_COUNT, value_of
from shared.engine.kit.zones import hand
from shared.engine.language import SPANISH_DECK, Message, Say, Words

FIGURE_WORDS = {8: "sota", 9: "caballo", 10: "rey"}
COUNT_CYCLE = 10
SILENT_COUNT = 6
DECK_SIZE = 40
PENALTY_CARDS = 2
PILE = "pile"
FALSE_SLAP, LAST, LATE, THREW = (
    "false slap", "last to slap", "did not slap", "played instead of slapping"
)  # fmt: skip
TAKE_REASON = choice(
    FALSE_SLAP, LAST, LATE, THREW,
    words=Words({FALSE_SLAP: ("palmear sin coincidencia", "a false slap"),
                 LAST: ("palmear el último", "slapping last"),
                 LATE: ("no palmear a tiempo", "not slapping in time"),
                 THREW: ("tirar en vez de palmear", "throwing instead of slapping")}),
    description="why the seat takes the pile",
)  # fmt: skip
WORD = either(INT, STR, description="a number, or a figure's name (contando-figuras)")

# -- what the rules say to a player, in both languages -------------------------------------
NO_PILE = Say(es="todavía no hay montón que palmear", en="there is no discard pile to slap yet")
ONLY_NEXT_THROWS = Say(
    es="solo {seat}, que tira después, puede tirar una carta en vez de palmear",
    en="only {seat}, next to play, can throw a card instead of slapping",
)
NOT_YOUR_THROW = Say(es="le toca tirar a {seat}", en="it is {seat}'s turn to play")
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

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    dealt = EventType(
        "dealt",
        "every hand dealt face down, unseen even by its owner; the cards left start the pile",
        hand_size=INT.about("the cards in each hand"),
        pile=CARDS.about("the cards left over, face up on the pile"),
        first=SEAT.about("who throws first: the youngest"),
        says=Say(
            es="Cada jugador recibe {hand_size:carta|cartas} boca abajo; empieza {first}",
            en="Every player is dealt {hand_size:card|cards} face down; {first} starts",
        ),
    )
    played = EventType(
        "played",
        "a card thrown onto the pile while the count is said; a card equal to it is a match",
        seat=SEAT,
        card=CARD,
        count=INT.about("the count it was thrown on, 1 to 10"),
        said=WORD.or_null("what was said (null: a silent six)"),
        match=BOOL.about("whether the card matches the count: everyone slaps"),
    )
    window_opened = EventType(
        "window_opened",
        "a match: everyone slaps; the last to slap takes the pile",
        seat=SEAT.about("who threw the matching card"),
        seconds=NUMBER.about("how long the window stays open"),
        says=Say(es="¡Coincidencia! Todos a palmear", en="A match! Everyone slaps"),
    )
    slapped = EventType(
        "slapped",
        "a seat slaps the pile: on a match a reaction, else a false slap",
        seat=SEAT,
        match=BOOL.about("whether a match was open"),
        order=INT.about("its place among the slaps").maybe(),
    )
    window_closed = EventType(
        "window_closed",
        "the window's time is up: a seat that did not slap counts as the last",
        late=SEATS.about("the seats that did not slap"),
        says=Say(es="Se acaba el tiempo para palmear", en="Time is up to slap"),
    )
    threw = EventType(
        "threw",
        "the next to play throws a card instead of slapping: a penalty",
        seat=SEAT,
        card=CARD,
        says=Say(
            es="{seat} tira {card} en vez de palmear", en="{seat} throws {card} instead of slapping"
        ),
    )
    penalty = EventType(
        "penalty",
        "every other seat gives the thrower two cards of its hand",
        seat=SEAT,
        taken=INTS.about("per seat, the cards it gave"),
        says=Say(
            es="{seat} recibe dos cartas de cada rival",
            en="{seat} takes two cards from every rival",
        ),
    )
    took_pile = EventType(
        "took_pile",
        "a seat takes the pile into its hand and the count starts again at 1",
        seat=SEAT,
        reason=TAKE_REASON,
        taken=INT.about("the cards of the pile"),
        says=Say(
            es="{seat} se lleva el montón de {taken:carta|cartas} por {reason}",
            en="{seat} takes the pile of {taken:card|cards} for {reason}",
        ),
    )
    match_finished = MATCH_FINISHED.extend(reason=STR.about("why it ended"))

    @played.sentence
    def _played_said(self, event: Event) -> Say:
        if event["said"] is None:
            return Say(es="{seat} tira {card} en silencio", en="{seat} throws {card} in silence")
        if event["match"]:
            return Say(
                es="{seat} tira {card} y dice «{said}»: ¡coincide!",
                en="{seat} throws {card} and says “{said}”: a match!",
            )
        return Say(
            es="{seat} tira {card} y dice «{said}»", en="{seat} throws {card} and says “{said}”"
        )

    @slapped.sentence
    def _slapped_said(self, event: Event) -> Say:
        if event["match"]:
            return Say(es="{seat} palmea", en="{seat} slaps")
        return Say(es="{seat} palmea sin coincidencia", en="{seat} slaps with no match")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "count": INT.about("the count the next card is thrown on, 1 to 10"),
        "next_word": WORD.or_null("what is said on the next card (null: a silent six)"),
        "said": WORD.or_null("what was said on the last card (null: silent, or none yet)"),
        "turn": SEAT.or_null("who throws next (null: every hand is empty)"),
        "window": obj(
            "the open reaction window: who threw the match, and who has slapped, in order",
            player=SEAT,
            slaps=SEATS,
        ).or_null(),
        "plays": INT.about("cards thrown so far"),
        "play_limit": INT.about("the cards thrown after which the match is drawn"),
    }

    # -- the facts ---------------------------------------------------------------------
    next_word = FactType(
        "next_word",
        "what is said on the next card thrown (null: a silent six)",
        WORD.or_null(),
        label=Say(es="Se dice", en="Next word"),
        says=Say(es="Siguiente: «{value}»", en="Next: “{value}”"),
    )
    slap_now = FactType(
        "window",
        "a match is open: the seats that have slapped so far",
        SEATS,
        label=Say(es="¡A palmear!", en="Slap!"),
        says=Say(es="¡A palmear! Han palmeado: {value}", en="Slap! Slapped so far: {value}"),
    )
    to_throw = FactType(
        "turn",
        "who throws next",
        SEAT,
        label=Say(es="Turno", en="Turn"),
        says=Say(es="Tira {value}", en="{value} throws next"),
    )
    pile_size = FactType(
        "pile",
        "the cards on the pile: the last to slap takes them",
        INT,
        label=Say(es="Montón", en="Pile"),
        says=Say(es="Montón: {value:carta|cartas}", en="Pile: {value:card|cards}"),
    )
    cards_left = FactType(
        "cards",
        "the cards in a seat's hand (none left and a right slap wins)",
        INT,
        per_seat=True,
        label=Say(es="Cartas", en="Cards"),
        says=Say(es="{seat}: {value:carta|cartas}", en="{seat}: {value:card|cards}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data = NerviosoData.of(state)
        facts = []
        if data.window is not None:
            facts.append(self.slap_now(list(data.window["slaps"])))
        elif data.turn is not None and not state.finished:
            facts.append(self.to_throw(data.turn))
            word = self._word(state, data.count)
            if word is not None:
                facts.append(self.next_word(word))
        facts.append(self.pile_size(len(state.cards(PILE))))
        facts.extend(self.cards_left(len(state.cards(hand(s))), s) for s in range(state.players))
        return facts

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
        dealt = self.dealt(hand_size=size, pile=list(state.cards(PILE)), first=first)
        return [dealt] + self._start_turn(state, first)

    # -- the action table --------------------------------------------------------------
    slap = ActionType(
        "slap",
        "put your hand on the pile: on a match a reaction, otherwise a false slap",
        phases=("play", reaction.PHASE),
        reflex=True,
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
    def _slap_refused(self, state: State, seat: int, action: Action) -> Say | None:
        return None if state.cards(PILE) else NO_PILE

    @slap.handler
    def _slap(self, state: State, seat: int, action: Action) -> list[Event]:
        window = NerviosoData.of(state).window
        if window is None:
            false_slap = self.slapped(seat=seat, match=False)
            return [false_slap] + self._take(state, seat, FALSE_SLAP)
        order = reaction.react(state, seat, window["slaps"])
        events = [self.slapped(seat=seat, match=True, order=order)]
        last = reaction.everyone_reacted(range(state.players), window["slaps"])
        if not state.cards(hand(seat)) and not last:
            return events + self._end(state, [seat], "empty hand and a correct slap")
        if last:
            return events + self._take(state, seat, LAST)
        return events

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | None:
        data = NerviosoData.of(state)
        if seat == data.turn:
            return None
        if data.window is not None:
            return ONLY_NEXT_THROWS(seat=data.turn)
        return NOT_YOUR_THROW(seat=data.turn)

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
        events = [self.played(seat=seat, card=card, count=count, said=said, match=match)]
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
        return [self.window_opened(seat=seat, seconds=seconds)]

    def on_timeout(self, state: State) -> list[Event]:
        """The window's time is up: a seat that did not slap counts as the last."""
        late = self._non_reactors(state)
        if state.options["non_reactor_taker"] == "random" and len(late) > 1:
            taker = late[state.rng().randrange(len(late))]
        else:
            taker = late[0]
        return [self.window_closed(late=late)] + self._take(state, taker, LATE)

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
        events = [self.threw(seat=seat, card=card), self.penalty(seat=seat, taken=given)]
        return events + self._take(state, seat, THREW)

    def _take(self, state: State, seat: int, reason: str) -> list[Event]:
        """The taker shuffles the pile into their hand and restarts the count at 1."""
        pile, mine = state.cards(PILE), state.cards(hand(seat))
        taken = len(pile)
        mine.extend(pile)
        pile.clear()
        state.shuffle(mine)
        NerviosoData.of(state).count = 1
        events = [self.took_pile(seat=seat, reason=reason, taken=taken)]
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
