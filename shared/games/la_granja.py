"""La Granja: a real-time "animal snap" with a 48-card Spanish deck (rules/la-granja.txt).

Every player is a farm animal. Hands lie face down, unseen even by their owners; in
turn each player reveals the top card of their hand onto their own face-up pile. When
two piles show cards of the same number, the two players race (a reaction window of
``shared.engine.kit.reaction``, decided by the server's arrival order) to make the
*rival's* sound; the first right call wins the face-off and the loser takes the
winner's pile. A wrong call, or a call with no face-off, makes every other player give
the caller a card. The first player left with no cards in hand or pile wins.
Variants ``peluche`` (a revealed Rey passes the animals to the right), ``simultanea``
(everyone reveals at once; a face-off of more than two, or several at once, is won by
calling one's own animal) and ``totem`` (the first racer to grab the totem decides the
face-off: a right call wins it, a wrong one is penalised and nobody wins).
Every decision where the text is silent is in docs/games/la-granja.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    rank,
    record_round,
    register,
    spanish_deck,
)
from shared.engine.actions import ActionType, choice
from shared.engine.cards import REY
from shared.engine.kit import reaction, turns
from shared.engine.kit.ending import end_match, lowest
from shared.engine.kit.zones import hand, seat_zone

#: The animals, in the order seats get them, and the sound each one makes.
ANIMALS = ("perro", "gato", "cerdo", "pato", "gallina", "vaca", "oveja", "burro")
SOUNDS = {
    "perro": "guau", "gato": "miau", "cerdo": "oinc", "pato": "cuac",
    "gallina": "cocorocó", "vaca": "muu", "oveja": "bee", "burro": "iaa",
}  # fmt: skip
DECK_SIZE = 48
REMOVED = "removed"
REVEAL = "reveal"  # the simultaneous reveal phase (simultanea)


def pile(seat: int) -> str:
    return seat_zone("pile", seat)


@dataclass
class GranjaData(GameData):
    animals: list[str] = field(default_factory=list)  # per seat: its animal (peluche: held now)
    turn: int | None = None  # who reveals next (None in simultanea)
    #: The open face-off: its racers, the calls made in arrival order ([seat, animal]),
    #: and whether each racer must call its own animal (simultanea, more than one pair).
    window: dict | None = None
    faced: list[list[int]] = field(default_factory=list)  # pairs already raced on these tops
    ready: list[int] = field(default_factory=list)  # simultanea: who has revealed this round
    steps: int = 0  # reveals and calls so far (the match ends at max_steps)


def _seat_of(call: list) -> int:
    return int(call[0])


class LaGranja(Game):
    id = "la-granja"
    name = "La Granja"
    rules_file = "la-granja.txt"
    players = (2, len(ANIMALS))
    data_type = GranjaData
    options = {
        "direction": turns.DIRECTION,
        "first_seat": Option(0, "seat that reveals first", minimum=0, maximum=len(ANIMALS) - 1),
        "reaction_seconds": Option(
            3.0, "seconds a face-off stays open", minimum=0.5, maximum=30.0
        ),
        "reveal_seconds": Option(
            10.0, "simultanea: seconds to reveal before the server reveals for you",
            minimum=1.0, maximum=600.0,
        ),
        "rotate_on_rey": Option(False, "a revealed Rey passes every animal to the right"),
        "simultaneous": Option(False, "everyone reveals at once (simultanea)"),
        "totem": Option(False, "a face-off is won by grabbing the totem (totem)"),
        "max_steps": Option(
            2000, "reveals and calls before the match ends (fewest cards win)",
            minimum=50, maximum=100_000,
        ),
    }  # fmt: skip
    variants = {
        "base": Variant("base", "La Granja: call your rival's animal when your top cards match."),
        "peluche": Variant(
            "peluche", "Plush animals: a revealed Rey passes them all to the right.",
            {"rotate_on_rey": True},
        ),
        "simultanea": Variant(
            "simultanea", "Everyone reveals at once; in a crowded face-off call your own animal.",
            {"simultaneous": True},
        ),
        "totem": Variant(
            "totem", "A face-off is won by grabbing the totem while calling the rival's animal.",
            {"totem": True},
        ),
    }  # fmt: skip

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(DECK_SIZE)

    def setup(self, state: State) -> list[Event]:
        n, data = state.players, GranjaData.of(state)
        first = state.options["first_seat"]
        if first >= n:
            raise BadSetup(f"first_seat must be a seat from 0 to {n - 1}")
        cards = self.deck(state)
        state.shuffle(cards)
        size = len(cards) // n
        for s in range(n):
            state.zone(hand(s), s, HIDDEN).cards = cards[s * size : (s + 1) * size]
            state.zone(pile(s), s, PUBLIC)
        state.zone(REMOVED, None, HIDDEN).cards = cards[n * size :]
        data.animals = list(ANIMALS[:n])
        dealt = event(
            "dealt", hand_size=size, removed=len(cards) - n * size, animals=list(data.animals)
        )
        if state.options["simultaneous"]:
            return [dealt] + self._open_reveal(state)
        data.turn = first
        return [dealt] + self._resume(state)

    # -- the action table --------------------------------------------------------------
    reveal = ActionType(
        "reveal", "turn the top card of your face-down hand onto your pile", phases=("play", REVEAL)
    )
    noise = ActionType(
        "noise",
        "make an animal's sound: in a face-off, your rival's animal",
        animal=choice(*ANIMALS, description="the animal whose sound you make"),
    )
    grab = ActionType(
        "grab",
        "totem: grab the totem while making an animal's sound",
        animal=choice(*ANIMALS, description="the animal whose sound you make"),
    )

    @reveal.refusal
    def _reveal_refused(self, state: State, seat: int, action: Action) -> str | None:
        data = GranjaData.of(state)
        if state.phase == REVEAL:
            return "you have already revealed this round" if seat in data.ready else None
        return None if seat == data.turn else f"it is seat {data.turn}'s turn to reveal"

    @reveal.handler
    def _reveal(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._counted(state, self._reveal_now(state, seat))

    def _reveal_now(self, state: State, seat: int) -> list[Event]:
        data = GranjaData.of(state)
        if state.phase == REVEAL:
            data.ready.append(seat)
            events = [event("ready", seat=seat)]
            if len(data.ready) < state.players:
                return events
            return events + self._reveal_all(state)
        events = self._turn_card(state, seat)
        data.turn = turns.next_seat(state, seat)
        return events + self._after_reveals(state)

    @noise.candidates
    def _noises(self, state: State, seat: int) -> list[Action]:
        return [{"type": "noise", "animal": a} for a in GranjaData.of(state).animals]

    @noise.refusal
    def _noise_refused(self, state: State, seat: int, action: Action) -> str | None:
        if state.options["totem"]:
            return "with the totem a face-off is won by grabbing it: send grab with the animal"
        return self._animal_refused(state, action["animal"])

    @noise.handler
    def _noise(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._counted(state, self._call(state, seat, action["animal"], "noise"))

    @grab.candidates
    def _grabs(self, state: State, seat: int) -> list[Action]:
        return [{"type": "grab", "animal": a} for a in GranjaData.of(state).animals]

    @grab.refusal
    def _grab_refused(self, state: State, seat: int, action: Action) -> str | None:
        if not state.options["totem"]:
            return "there is no totem in this variant: make the sound with noise"
        return self._animal_refused(state, action["animal"])

    @grab.handler
    def _grab(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._counted(state, self._call(state, seat, action["animal"], "grab"))

    @staticmethod
    def _animal_refused(state: State, animal: str) -> str | None:
        if animal in GranjaData.of(state).animals:
            return None
        return f"nobody at this table is the {animal}"

    # -- revealing ---------------------------------------------------------------------
    def _turn_card(self, state: State, seat: int) -> list[Event]:
        """Reveal ``seat``'s top card, renewing an empty hand from its own pile first."""
        data, events = GranjaData.of(state), []
        mine = state.cards(hand(seat))
        if not mine:
            own = state.cards(pile(seat))
            mine.extend(own)
            own.clear()
            state.shuffle(mine)
            events.append(event("renewed", seat=seat, cards=len(mine)))
        card = state.move_top(hand(seat), pile(seat))
        self._top_changed(state, seat)
        events.append(event("revealed", seat=seat, card=card))
        if rank(card) == REY and state.options["rotate_on_rey"]:
            n = state.players
            data.animals = [data.animals[(s + 1) % n] for s in range(n)]
            events.append(event("animals_passed", animals=list(data.animals)))
        return events

    def _reveal_all(self, state: State) -> list[Event]:
        events: list[Event] = []
        for s in range(state.players):
            events += self._turn_card(state, s)
        GranjaData.of(state).ready = []
        return events + self._after_reveals(state)

    def _open_reveal(self, state: State) -> list[Event]:
        data = GranjaData.of(state)
        data.ready = []
        state.phase = REVEAL
        state.to_act = list(range(state.players))
        state.deadline = {"kind": "commit", "seconds": float(state.options["reveal_seconds"])}
        return [event("reveal_open")]

    def _after_reveals(self, state: State) -> list[Event]:
        """Open the next face-off if two tops match, else go on revealing."""
        pairs = self._pending_pairs(state)
        if not pairs:
            return self._resume(state)
        if state.options["simultaneous"] and len(pairs) > 1:
            racers = sorted({s for pair in pairs for s in pair})
            return self._open_face_off(state, racers, own=True)
        return self._open_face_off(state, pairs[0], own=False)

    def _resume(self, state: State) -> list[Event]:
        if state.options["simultaneous"]:
            return self._open_reveal(state)
        state.phase = "play"
        reaction.close_window(state)
        state.to_act = list(range(state.players))
        return []

    # -- face-offs -----------------------------------------------------------------------
    def _open_face_off(self, state: State, racers: list[int], own: bool) -> list[Event]:
        seconds = state.options["reaction_seconds"]
        GranjaData.of(state).window = {"racers": list(racers), "calls": [], "own": own}
        reaction.open_window(state, seconds, range(state.players))
        top = rank(state.cards(pile(racers[0]))[-1])
        return [event("face_off", seats=list(racers), rank=top, own_animal=own, seconds=seconds)]

    def _counted(self, state: State, events: list[Event]) -> list[Event]:
        """Count a player's step; past ``max_steps`` the match ends (fewest cards win)."""
        data = GranjaData.of(state)
        data.steps += 1
        if state.finished or data.steps < state.options["max_steps"]:
            return events
        return events + self._end_by_limit(state)

    def _call(self, state: State, seat: int, animal: str, how: str) -> list[Event]:
        data = GranjaData.of(state)
        window = data.window
        racing = (
            window is not None
            and seat in window["racers"]
            and seat not in reaction.reacted(window["calls"], _seat_of)
        )
        if window is None or not racing:
            events = [event("called", seat=seat, animal=animal, how=how, race=False)]
            why = "a call with no face-off" if window is None else "a call outside the face-off"
            return events + self._penalise(state, seat, why)
        order = reaction.react(state, seat, window["calls"], entry=[seat, animal], leave=False)
        right = animal == self._expected(state, seat)
        events = [
            event("called", seat=seat, animal=animal, how=how, race=True, order=order, right=right)
        ]
        if right:
            return events + self._settle(state, seat)
        events += self._penalise(state, seat, "a wrong sound")
        if state.finished:
            return events
        totem_taken = how == "grab"  # the first grab takes the totem: the race is over
        if totem_taken or reaction.everyone_reacted(window["racers"], window["calls"], _seat_of):
            return events + self._settle(state, None)
        return events

    def _expected(self, state: State, seat: int) -> str:
        """The animal ``seat`` must call in the open face-off."""
        data = GranjaData.of(state)
        window = data.window
        assert window is not None
        if window["own"]:
            return data.animals[seat]
        rival = next(s for s in window["racers"] if s != seat)
        return data.animals[rival]

    def on_timeout(self, state: State) -> list[Event]:
        """The server's timer: a face-off nobody won closes; a reveal happens for the slow."""
        if state.phase == REVEAL:
            data = GranjaData.of(state)
            late = [s for s in range(state.players) if s not in data.ready]
            state.deadline = None
            return [event("reveal_timeout", late=late)] + self._reveal_all(state)
        window = GranjaData.of(state).window
        assert window is not None
        late = reaction.late(window["racers"], window["calls"], _seat_of)
        return [event("face_off_timeout", late=late)] + self._settle(state, None)

    def _settle(self, state: State, winner: int | None) -> list[Event]:
        """Close the face-off; a winner passes their pile to the loser."""
        data = GranjaData.of(state)
        window = data.window
        assert window is not None
        racers = window["racers"]
        data.window = None
        reaction.close_window(state)
        for i, a in enumerate(racers):
            for b in racers[i + 1 :]:
                if [a, b] not in data.faced:
                    data.faced.append([a, b])
        if winner is None:
            events = [event("face_off_undecided", seats=list(racers))]
        else:
            loser = next(s for s in turns.seats_from(state, winner) if s in racers and s != winner)
            won = state.cards(pile(winner))
            taken = len(won)
            state.cards(pile(loser)).extend(won)
            won.clear()
            self._top_changed(state, winner)
            self._top_changed(state, loser)
            events = [event("face_off_won", seat=winner, loser=loser, cards=taken)]
            if not state.cards(hand(winner)):
                return events + self._end(state, [winner], "no cards left")
        return events + self._after_reveals(state)

    # -- penalties and the end ---------------------------------------------------------------
    def _penalise(self, state: State, seat: int, why: str) -> list[Event]:
        """Every other player gives the caller one card of their hand (none if it is empty)."""
        given = [0] * state.players
        mine = state.cards(hand(seat))
        for other in range(state.players):
            source = state.cards(hand(other))
            if other != seat and source:
                mine.insert(0, source.pop())
                given[other] = 1
        events = [event("penalised", seat=seat, reason=why, given=given)]
        empty = [s for s in range(state.players) if self._cards_left(state, s) == 0]
        if empty:
            return events + self._end(state, empty, "no cards left")
        return events

    def _end_by_limit(self, state: State) -> list[Event]:
        left = [self._cards_left(state, s) for s in range(state.players)]
        return self._end(state, lowest(left), "step limit reached")

    def _end(self, state: State, winners: list[int], reason: str) -> list[Event]:
        data = GranjaData.of(state)
        data.window = None
        data.ready = []
        record_round(state, [1 if s in winners else 0 for s in range(state.players)])
        return end_match(state, winners, reason=reason)

    # -- rules as questions -------------------------------------------------------------------
    @staticmethod
    def _cards_left(state: State, seat: int) -> int:
        return len(state.cards(hand(seat))) + len(state.cards(pile(seat)))

    @staticmethod
    def _top_changed(state: State, seat: int) -> None:
        """A new top card: the pairs it was part of may race again."""
        data = GranjaData.of(state)
        data.faced = [p for p in data.faced if seat not in p]

    @staticmethod
    def _pending_pairs(state: State) -> list[list[int]]:
        """Pairs of seats whose top cards have the same number and have not raced on them."""
        data = GranjaData.of(state)
        tops = {
            s: rank(state.cards(pile(s))[-1]) for s in range(state.players) if state.cards(pile(s))
        }
        seats = sorted(tops)
        return [
            [a, b]
            for i, a in enumerate(seats)
            for b in seats[i + 1 :]
            if tops[a] == tops[b] and [a, b] not in data.faced
        ]

    # -- views ---------------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: GranjaData) -> GranjaData:
        """The open face-off as the view names it (see engine.sampling)."""
        face_off = view["face_off"]
        data.window = (
            {"racers": list(face_off["seats"]), "calls": [list(c) for c in face_off["calls"]],
             "own": face_off["own_animal"]}
            if face_off else None
        )  # fmt: skip
        return data

    def public_fields(self, state: State) -> dict:
        data = GranjaData.of(state)
        window = data.window
        return {
            "animals": list(data.animals),
            "sounds": [SOUNDS[a] for a in data.animals],
            "turn": data.turn,
            "face_off": {
                "seats": list(window["racers"]),
                "calls": [list(c) for c in window["calls"]],
                "own_animal": window["own"],
            }
            if window
            else None,
            "ready": list(data.ready),
            "steps": data.steps,
            "step_limit": state.options["max_steps"],
        }


register(LaGranja())
