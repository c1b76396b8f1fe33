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
    rank,
    record_round,
    register,
    spanish_deck,
)
from shared.engine.actions import ActionType
from shared.engine.cards import REY
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import (
    BOOL,
    CARD,
    INT,
    INTS,
    NUMBER,
    SEAT,
    SEATS,
    STR,
    choice,
    either,
    list_of,
    obj,
)
from shared.engine.kit import reaction, turns
from shared.engine.kit.ending import MATCH_FINISHED, end_match, lowest
from shared.engine.kit.zones import hand, seat_zone
from shared.engine.language import SPANISH_DECK, Message, Say, Words

#: The animals, in the order seats get them, and the sound each one makes.
ANIMALS = ("perro", "gato", "cerdo", "pato", "gallina", "vaca", "oveja", "burro")
SOUNDS = {
    "perro": "guau", "gato": "miau", "cerdo": "oinc", "pato": "cuac",
    "gallina": "cocorocó", "vaca": "muu", "oveja": "bee", "burro": "iaa",
}  # fmt: skip
ANIMAL_WORDS = Words(
    {
        "perro": ("el perro", "the dog"), "gato": ("el gato", "the cat"),
        "cerdo": ("el cerdo", "the pig"), "pato": ("el pato", "the duck"),
        "gallina": ("la gallina", "the hen"), "vaca": ("la vaca", "the cow"),
        "oveja": ("la oveja", "the sheep"), "burro": ("el burro", "the donkey"),
    }
)  # fmt: skip
ANIMAL = choice(*ANIMALS, words=ANIMAL_WORDS, description="an animal")
NO_FACE_OFF, OUTSIDE, WRONG = (
    "a call with no face-off",
    "a call outside the face-off",
    "a wrong sound",
)
PENALTY = choice(
    NO_FACE_OFF, OUTSIDE, WRONG,
    words=Words({NO_FACE_OFF: ("llamar sin duelo", "a call with no face-off"),
                 OUTSIDE: ("llamar fuera del duelo", "a call outside the face-off"),
                 WRONG: ("equivocarse de sonido", "a wrong sound")}),
    description="why the caller is penalised",
)  # fmt: skip
DECK_SIZE = 48

# -- what the rules say to a player, in both languages -------------------------------------
ALREADY_REVEALED = Say(
    es="ya has descubierto en esta ronda", en="you have already revealed this round"
)
NOT_YOUR_REVEAL = Say(es="le toca descubrir a {seat}", en="it is {seat}'s turn to reveal")
GRAB_THE_TOTEM = Say(
    es="con el tótem, un duelo se gana agarrándolo: envía grab con el animal",
    en="with the totem a face-off is won by grabbing it: send grab with the animal",
)
NO_TOTEM = Say(
    es="en esta variante no hay tótem: haz el sonido con noise",
    en="there is no totem in this variant: make the sound with noise",
)
NOBODY_IS = Say(es="nadie en esta mesa es {animal}", en="nobody at this table is {animal}")
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

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    dealt = EventType(
        "dealt",
        "every hand dealt face down, unseen even by its owner; every seat is an animal",
        hand_size=INT.about("the cards in each hand"),
        removed=INT.about("the cards set aside so that hands are equal"),
        animals=list_of(ANIMAL, "per seat, its animal"),
        says=Say(
            es="Cada jugador recibe {hand_size:carta|cartas} boca abajo",
            en="Every player is dealt {hand_size:card|cards} face down",
        ),
    )
    reveal_open = EventType(
        "reveal_open",
        "simultanea: every player reveals at once, before the timer reveals for the slow",
        says=Say(es="Todos descubren a la vez", en="Everyone reveals at once"),
    )
    ready = EventType(
        "ready",
        "simultanea: a player has revealed this round",
        seat=SEAT,
        says=Say(es="{seat} está listo", en="{seat} is ready"),
    )
    reveal_timeout = EventType(
        "reveal_timeout",
        "simultanea: time is up, the server reveals for the players not ready",
        late=SEATS.about("the players not ready"),
        says=Say(es="Se acaba el tiempo para descubrir", en="Time is up to reveal"),
    )
    renewed = EventType(
        "renewed",
        "an empty hand is renewed from its own pile, shuffled",
        seat=SEAT,
        cards=INT.about("the cards of the new hand"),
        says=Say(
            es="{seat} vuelve a coger su montón: {cards:carta|cartas}",
            en="{seat} takes back its pile: {cards:card|cards}",
        ),
    )
    revealed = EventType(
        "revealed",
        "a player turns the top card of its hand onto its pile",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} descubre {card}", en="{seat} reveals {card}"),
    )
    animals_passed = EventType(
        "animals_passed",
        "peluche: a revealed Rey passes every animal to the right",
        animals=list_of(ANIMAL, "per seat, its animal now"),
        says=Say(
            es="Un rey: los animales pasan a la derecha", en="A king: the animals pass to the right"
        ),
    )
    face_off = EventType(
        "face_off",
        "two piles show the same number (simultanea: maybe more): their players race",
        seats=SEATS.about("the racers"),
        rank=INT.about("the number their top cards show"),
        own_animal=BOOL.about("whether each racer must call its own animal"),
        seconds=NUMBER.about("how long the face-off stays open"),
    )
    called = EventType(
        "called",
        "a player makes an animal's sound (totem: grabbing the totem)",
        seat=SEAT,
        animal=ANIMAL,
        how=choice("noise", "grab", description="a sound, or a grab of the totem"),
        race=BOOL.about("whether the caller was racing in a face-off"),
        order=INT.about("its place among the face-off's calls").maybe(),
        right=BOOL.about("whether it was the sound to make").maybe(),
    )
    penalised = EventType(
        "penalised",
        "every other player gives the caller a card of its hand",
        seat=SEAT,
        reason=PENALTY,
        given=INTS.about("per seat, the cards it gave"),
        says=Say(
            es="{seat} recibe una carta de cada rival por {reason}",
            en="{seat} takes a card from every rival for {reason}",
        ),
    )
    face_off_timeout = EventType(
        "face_off_timeout",
        "the face-off's time is up",
        late=SEATS.about("the racers that did not call"),
        says=Say(es="Se acaba el tiempo del duelo", en="The face-off's time is up"),
    )
    face_off_undecided = EventType(
        "face_off_undecided",
        "a face-off closes with no winner",
        seats=SEATS,
        says=Say(es="Nadie gana el duelo entre {seats}", en="Nobody wins the face-off of {seats}"),
    )
    face_off_won = EventType(
        "face_off_won",
        "the first right call wins the face-off: the loser takes the winner's pile",
        seat=SEAT,
        loser=SEAT,
        cards=INT.about("the cards of the pile the loser takes"),
        says=Say(
            es="{seat} gana el duelo: {loser} se lleva su montón de {cards:carta|cartas}",
            en="{seat} wins the face-off: {loser} takes its pile of {cards:card|cards}",
        ),
    )
    match_finished = MATCH_FINISHED.extend(
        reason=choice("no cards left", "step limit reached", description="why it ended")
    )

    @face_off.sentence
    def _face_off_said(self, event: Event) -> Say:
        if event["own_animal"]:
            return Say(
                es="¡Duelo entre {seats}! Cada uno imita a su propio animal",
                en="Face-off of {seats}! Each calls its own animal",
            )
        return Say(es="¡Duelo entre {seats}!", en="Face-off of {seats}!")

    @called.sentence
    def _called_said(self, event: Event) -> Say:
        grab = event["how"] == "grab"
        es = "{seat} agarra el tótem e imita a {animal}" if grab else "{seat} imita a {animal}"
        en = "{seat} grabs the totem and calls {animal}" if grab else "{seat} calls {animal}"
        if not event["race"]:
            return Say(es=es + " sin estar en un duelo", en=en + " outside a face-off")
        if event.get("right"):
            return Say(es=es + ": acierta", en=en + ": right")
        return Say(es=es + ": se equivoca", en=en + ": wrong")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "animals": list_of(ANIMAL, "per seat, its animal"),
        "sounds": list_of(STR, "per seat, its animal's sound"),
        "turn": SEAT.or_null("who reveals next (null: simultanea, or a face-off is open)"),
        "face_off": obj(
            "the open face-off",
            seats=SEATS.about("the racers"),
            calls=list_of(list_of(either(SEAT, ANIMAL)), "the calls made: [seat, animal]"),
            own_animal=BOOL.about("whether each racer must call its own animal"),
        ).or_null(),
        "ready": SEATS.about("simultanea: who has revealed this round"),
        "steps": INT.about("reveals and calls so far"),
        "step_limit": INT.about("the reveals and calls after which the fewest cards win"),
    }

    # -- the facts ---------------------------------------------------------------------
    duel = FactType(
        "face_off",
        "the racers of the open face-off",
        SEATS,
        label=Say(es="Duelo", en="Face-off"),
        says=Say(es="Duelo entre {value}", en="Face-off of {value}"),
    )
    to_reveal = FactType(
        "turn",
        "who reveals next",
        SEAT,
        label=Say(es="Turno", en="Turn"),
        says=Say(es="Descubre {value}", en="{value} reveals next"),
    )
    animal = FactType(
        "animal",
        "a seat's animal and its sound",
        obj(animal=ANIMAL, sound=STR),
        per_seat=True,
        label=Say(es="Animal", en="Animal"),
        says=Say(
            es="{seat} es {value.animal} ({value.sound})",
            en="{seat} is {value.animal} ({value.sound})",
        ),
    )
    cards_left = FactType(
        "cards",
        "a seat's cards: its face-down hand and its pile (none left wins)",
        INT,
        per_seat=True,
        label=Say(es="Cartas", en="Cards"),
        says=Say(es="{seat}: {value:carta|cartas}", en="{seat}: {value:card|cards}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data = GranjaData.of(state)
        facts = []
        if data.window:
            facts.append(self.duel(list(data.window["racers"])))
        elif data.turn is not None and not state.finished:
            facts.append(self.to_reveal(data.turn))
        for s, a in enumerate(data.animals):
            facts.append(self.animal({"animal": a, "sound": SOUNDS[a]}, s))
            facts.append(self.cards_left(self._cards_left(state, s), s))
        return facts

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
        dealt = self.dealt(
            hand_size=size, removed=len(cards) - n * size, animals=list(data.animals)
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
        reflex=True,
        animal=choice(*ANIMALS, description="the animal whose sound you make"),
    )
    grab = ActionType(
        "grab",
        "totem: grab the totem while making an animal's sound",
        reflex=True,
        animal=choice(*ANIMALS, description="the animal whose sound you make"),
    )

    @reveal.refusal
    def _reveal_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        data = GranjaData.of(state)
        if state.phase == REVEAL:
            return ALREADY_REVEALED if seat in data.ready else None
        return None if seat == data.turn else NOT_YOUR_REVEAL(seat=data.turn)

    @reveal.handler
    def _reveal(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._counted(state, self._reveal_now(state, seat))

    def _reveal_now(self, state: State, seat: int) -> list[Event]:
        data = GranjaData.of(state)
        if state.phase == REVEAL:
            data.ready.append(seat)
            events = [self.ready(seat=seat)]
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
    def _noise_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        if state.options["totem"]:
            return GRAB_THE_TOTEM
        return self._animal_refused(state, action["animal"])

    @noise.handler
    def _noise(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._counted(state, self._call(state, seat, action["animal"], "noise"))

    @grab.candidates
    def _grabs(self, state: State, seat: int) -> list[Action]:
        return [{"type": "grab", "animal": a} for a in GranjaData.of(state).animals]

    @grab.refusal
    def _grab_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        if not state.options["totem"]:
            return NO_TOTEM
        return self._animal_refused(state, action["animal"])

    @grab.handler
    def _grab(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._counted(state, self._call(state, seat, action["animal"], "grab"))

    @staticmethod
    def _animal_refused(state: State, animal: str) -> Message | None:
        if animal in GranjaData.of(state).animals:
            return None
        return Message(NOBODY_IS, {"animal": animal}, {"animal": ANIMAL})

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
            events.append(self.renewed(seat=seat, cards=len(mine)))
        card = state.move_top(hand(seat), pile(seat))
        self._top_changed(state, seat)
        events.append(self.revealed(seat=seat, card=card))
        if rank(card) == REY and state.options["rotate_on_rey"]:
            n = state.players
            data.animals = [data.animals[(s + 1) % n] for s in range(n)]
            events.append(self.animals_passed(animals=list(data.animals)))
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
        return [self.reveal_open()]

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
        return [self.face_off(seats=list(racers), rank=top, own_animal=own, seconds=seconds)]

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
            events = [self.called(seat=seat, animal=animal, how=how, race=False)]
            why = NO_FACE_OFF if window is None else OUTSIDE
            return events + self._penalise(state, seat, why)
        order = reaction.react(state, seat, window["calls"], entry=[seat, animal], leave=False)
        right = animal == self._expected(state, seat)
        events = [
            self.called(seat=seat, animal=animal, how=how, race=True, order=order, right=right)
        ]
        if right:
            return events + self._settle(state, seat)
        events += self._penalise(state, seat, WRONG)
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
            return [self.reveal_timeout(late=late)] + self._reveal_all(state)
        window = GranjaData.of(state).window
        assert window is not None
        late = reaction.late(window["racers"], window["calls"], _seat_of)
        return [self.face_off_timeout(late=late)] + self._settle(state, None)

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
            events = [self.face_off_undecided(seats=list(racers))]
        else:
            loser = next(s for s in turns.seats_from(state, winner) if s in racers and s != winner)
            won = state.cards(pile(winner))
            taken = len(won)
            state.cards(pile(loser)).extend(won)
            won.clear()
            self._top_changed(state, winner)
            self._top_changed(state, loser)
            events = [self.face_off_won(seat=winner, loser=loser, cards=taken)]
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
        events = [self.penalised(seat=seat, reason=why, given=given)]
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
