"""Solitario 4 Ases (rules/solitario-4-ases.txt): order the 40-card Spanish deck by suit.

A one-player patience. The whole shuffled deck is the player's face-down hand (the
stock). A turn is one of: ``reveal`` (turn the next 2 cards face up onto the revealed
pile; only the top one is available), ``play`` ("subir": the top revealed card goes up to
a foundation: an empty one takes any 1, then the next rank of the same suit, 1..7, Sota,
Caballo, Rey), or ``renew`` (with the stock empty, turn the revealed pile over, unshuffled,
as the new stock). Won with the four suits ordered from 1 to Rey; lost when no move is
left. Variants: ``revelados`` (the 1s start up), ``con-reserva`` (one reserve slot),
``mezclado`` (5 tokens; each renewal costs one and shuffles), ``pintados`` (each next
card of a different suit). The decisions taken where the text is silent (when a pass
loses, the reserve, the end of mezclado) are in docs/games/solitario-4-ases.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.engine import (
    CARD,
    HIDDEN,
    PUBLIC,
    SPANISH_SUITS,
    Action,
    ActionType,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    choice,
    rank,
    register,
    spanish_deck,
    suit,
)
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARDS, INT, SEAT, Field, obj
from shared.engine.kit.solitaire import (
    OTHER_SUIT,
    RESULT_VIEW,
    SAME_SUIT,
    draw,
    end_solitaire,
    fits_table,
    foundation_names,
    may_renew,
    solitaire_finished,
    successors,
    turn_over,
)
from shared.engine.kit.tables import SPANISH_SEQUENCE_40
from shared.engine.language import SPANISH_DECK, Message, Say, Words, text_of

FOUNDATIONS = foundation_names(4)
NEXT_RANK = successors(SPANISH_SEQUENCE_40)  # 1..7, Sota, Caballo, Rey: 7 -> Sota
#: Per building option, a foundation's top card (None: empty) -> the cards that go on it.
FITS = {mode: fits_table(spanish_deck(40), NEXT_RANK, mode) for mode in (SAME_SUIT, OTHER_SUIT)}
PILE_SIZE = 10
FOUNDATION_WORDS = Words(
    {
        name: (f"la {es} base", f"the {en} foundation")
        for name, es, en in zip(
            FOUNDATIONS,
            ("primera", "segunda", "tercera", "cuarta"),
            ("first", "second", "third", "fourth"),
            strict=True,
        )
    }
)
FOUNDATION = choice(*FOUNDATIONS, description="a foundation")
FOUNDATION_SAID = Field("str", "a foundation", choices=FOUNDATIONS, words=FOUNDATION_WORDS)
#: A rank as a player names it, for "a revealed 4", "a jack".
RANK_WORDS = Words(
    {
        **{r: (str(r), str(r)) for r in range(2, 8)},
        1: ("as", "ace"),
        10: ("sota", "jack"),
        11: ("caballo", "knight"),
        12: ("rey", "king"),
    }
)

# -- what the rules say to a player, in both languages -------------------------------------
HAND_EMPTY = Say(
    es="la mano está vacía: renuévala con las cartas descubiertas",
    en="the hand is empty: renew it from the revealed pile",
)
RESERVED_NOT_UP = Say(
    es="{card:cap} está en la reserva y no puede subir: devuélvela antes sobre una carta "
    "descubierta de su número ({number})",
    en="the reserved {card:bare} cannot go up: release it onto a revealed {number} first",
)
NONE_REVEALED = Say(
    es="no hay ninguna carta descubierta: descubre primero",
    en="no card is revealed: reveal first",
)
ONLY_TOP = Say(
    es="solo está disponible la carta descubierta de arriba, {card}",
    en="only the top revealed card, {card}, is available",
)
EMPTY_FOUNDATION = Say(
    es="{target:cap} está vacía: solo un as puede empezarla",
    en="{target:cap} is empty: only a 1 can start it",
)
FOUNDATION_FULL = Say(es="{target:cap} está completa", en="{target:cap} is complete")
NEXT_SAME_SUIT = Say(
    es="{target:cap} solo admite ahora {card}", en="{target:cap} takes only {card} next"
)
NEXT_OTHER_SUIT = Say(
    es="{target:cap} solo admite ahora: {number} de un palo que no sea {suit}",
    en="{target:cap} takes only a {number} of a suit other than {suit} next",
)
NO_RESERVE = Say(
    es="esta variante no tiene hueco de reserva", en="this variant has no reserve slot"
)
RESERVE_FULL = Say(
    es="el hueco de reserva ya tiene {card}", en="the reserve slot already holds {card}"
)
NOTHING_TO_RESERVE = Say(
    es="no hay carta descubierta que reservar", en="no revealed card to reserve"
)
ONLY_TOP_RESERVED = Say(
    es="solo se puede reservar la carta descubierta de arriba, {card}",
    en="only the top revealed card, {card}, can be reserved",
)
UNDO_RELEASE = Say(
    es="reservar la carta que acabas de devolver solo desharía la jugada",
    en="reserving the card just released would only undo that",
)
RESERVE_EMPTY = Say(es="el hueco de reserva está vacío", en="the reserve slot is empty")
RESERVED_IS = Say(es="la carta reservada es {card}", en="the reserved card is {card}")
BACK_ONTO_NUMBER = Say(
    es="{card:cap} solo vuelve sobre una carta descubierta de su número ({number}); la de "
    "arriba es {top}",
    en="{card:cap} goes back only onto a revealed {number}; the top revealed card is {top}",
)
BACK_NONE_REVEALED = Say(
    es="{card:cap} solo vuelve sobre una carta descubierta de su número ({number}); no hay "
    "ninguna descubierta",
    en="{card:cap} goes back only onto a revealed {number}; none is revealed",
)
UNDO_RESERVE = Say(
    es="devolver la carta que acabas de reservar solo desharía la jugada",
    en="releasing the card just reserved would only undo that",
)
HAND_NOT_EMPTY = Say(
    es="la mano aún no está vacía (quedan {left}): solo se renueva cuando lo esté",
    en="the hand is not empty yet ({left} left): renew only once it is",
)
# The reasons a renewal is refused are also the reasons a match is lost (``reason``).
NOTHING_TO_RENEW = Say(
    es="no hay cartas descubiertas con que renovar la mano",
    en="no revealed cards to renew the hand with",
)
NO_TOKEN = Say(
    es="no queda ninguna ficha para renovar la mano", en="no token left to renew the hand"
)
NONE_COULD_GO_UP = Say(
    es="ninguna carta pudo subir en esta pasada: dada la vuelta, se repetiría para siempre",
    en="no card could go up during this pass: turned over, it would repeat forever",
)
NONE_MOVED = Say(
    es="esta pasada no subió ninguna carta: dada la vuelta, se repetiría para siempre",
    en="this pass moved no card to the foundations: turned over, it would repeat forever",
)
WON = Say(
    es="los cuatro palos están ordenados del as al rey",
    en="all four suits are ordered from 1 to Rey",
)
ONLY_RESERVED_LEFT = Say(
    es="solo queda la carta reservada, y no puede subir directamente",
    en="only the reserved card is left, and it cannot go up directly",
)
REASON_WORDS = Words(
    {
        say.en: (say.es, say.en)
        for say in (
            NOTHING_TO_RENEW,
            NO_TOKEN,
            NONE_COULD_GO_UP,
            NONE_MOVED,
            WON,
            ONLY_RESERVED_LEFT,
        )
    }
)
STOCK, REVEALED, RESERVE = "stock", "revealed", "reserve"


@dataclass
class Solitario4AsesData(GameData):
    passes: int = 1  # passes through the stock so far (the deal starts the first)
    moved_this_pass: int = 0  # cards moved up since the last renewal
    movable_this_pass: bool = False  # whether a card could go up at some point of this pass
    tokens: int | None = None  # tokens left for shuffle renewals (mezclado), else None
    last: str | None = None  # the type of the last action (a reserve/release undo check)
    won: bool | None = None  # None while the match is on
    reason: str | None = None  # why it ended


class Solitario4Ases(Game):
    id = "solitario-4-ases"
    name = "Solitario 4 Ases"
    rules_file = "solitario-4-ases.txt"
    players = (1, 1)
    data_type = Solitario4AsesData
    options = {
        "reveal": Option(2, "cards turned face up by one reveal", choices=(1, 2, 3)),
        "aces_start_up": Option(False, "the four 1s start on the foundations (revelados)"),
        "reserve": Option(
            False, "one reserve slot; its card goes back onto a revealed card of its number"
        ),
        "renewal": Option(
            "turn-over",
            "how the revealed pile becomes the hand again: turned over, or shuffled (mezclado)",
            choices=("turn-over", "shuffle"),
        ),
        "tokens": Option(
            5, "tokens for shuffle renewals; each renewal costs one", minimum=0, maximum=40
        ),
        "building": Option(
            SAME_SUIT,
            "each next card up: of the same suit, or of another suit (pintados)",
            choices=(SAME_SUIT, OTHER_SUIT),
        ),
        "idle_pass": Option(
            "no-card-moved",
            "with turn-over renewals, the pass that loses: one that moved no card up, or one"
            " in which no card could go up",
            choices=("no-card-moved", "no-card-movable"),
        ),
        "play_out_without_renewal": Option(
            True, "with an empty hand that cannot be renewed, the revealed pile may still go up"
        ),
    }
    variants = {
        "base": Variant("base", "Reveal 2 at a time; build the four suits from 1 to Rey."),
        "revelados": Variant(
            "revelados", "The four 1s start on the foundations.", {"aces_start_up": True}
        ),
        "con-reserva": Variant("con-reserva", "One reserve slot for a card.", {"reserve": True}),
        "mezclado": Variant(
            "mezclado",
            "5 tokens; each renewal costs one and shuffles the hand.",
            {"renewal": "shuffle"},
        ),
        "pintados": Variant(
            "pintados",
            "Each next card up is of a different suit from the one under it.",
            {"building": OTHER_SUIT},
        ),
    }

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "the shuffled deck is the player's face-down hand",
        stock=INT.about("cards in the hand"),
        says=Say(
            es="Se reparte: {stock:carta|cartas} boca abajo en la mano",
            en="The deal: {stock:card|cards} face down in hand",
        ),
    )
    aces_placed = EventType(
        "aces_placed",
        "the four 1s start on the foundations (revelados)",
        cards=CARDS,
        says=Say(es="Los ases empiezan en las bases: {cards}", en="The aces start up: {cards}"),
    )
    revealed = EventType(
        "revealed",
        "the next cards of the hand turned face up; only the top one is available",
        seat=SEAT,
        cards=CARDS,
        says=Say(es="{seat} descubre {cards}", en="{seat} turns up {cards}"),
    )
    renewed = EventType(
        "renewed",
        "the revealed pile made the hand again: turned over, or shuffled for a token (mezclado)",
        seat=SEAT,
        shuffled=BOOL,
        tokens=INT.or_null("tokens left (mezclado); null without tokens"),
    )
    played = EventType(
        "played",
        "the top revealed card moved up to a foundation (subir)",
        seat=SEAT,
        card=CARD,
        to=FOUNDATION_SAID,
        says=Say(es="{seat} sube {card} a {to}", en="{seat} moves {card} up to {to}"),
    )
    reserved = EventType(
        "reserved",
        "the top revealed card put into the reserve slot",
        seat=SEAT,
        card=CARD,
        says=Say(es="{seat} guarda {card} en la reserva", en="{seat} reserves {card}"),
    )
    released = EventType(
        "released",
        "the reserved card put back onto a revealed card of its number",
        seat=SEAT,
        card=CARD,
        says=Say(
            es="{seat} devuelve {card} de la reserva a las descubiertas",
            en="{seat} puts {card} back from the reserve onto the revealed pile",
        ),
    )
    match_finished = solitaire_finished(Field("str", "why the game is over", words=REASON_WORDS))

    @renewed.sentence
    def _renewed_said(self, event: Event) -> Say:
        if event["shuffled"]:
            return Say(
                es="{seat} baraja las descubiertas como nueva mano; fichas: {tokens}",
                en="{seat} shuffles the revealed pile into a new hand; tokens left: {tokens}",
            )
        return Say(
            es="{seat} da la vuelta a las descubiertas como nueva mano",
            en="{seat} turns the revealed pile over as the new hand",
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "cards_up": INT.about("cards on the foundations"),
        "passes": INT.about("passes through the hand so far, this one included"),
        "moved_this_pass": INT.about("cards moved up since the last renewal"),
        "tokens": INT.or_null("tokens left for shuffle renewals (mezclado); else null"),
        **RESULT_VIEW,
    }

    # -- the facts ---------------------------------------------------------------------
    hand_left = FactType(
        "hand",
        "cards left face down in the hand",
        INT,
        label=Say(es="Mano", en="Hand"),
        says=Say(es="{value:carta|cartas} por descubrir", en="{value:card|cards} left to turn up"),
    )
    top = FactType(
        "top",
        "the top revealed card, the one available",
        CARD,
        label=Say(es="Disponible", en="Available"),
        says=Say(es="Carta disponible: {value:bare}", en="Available card: {value:bare}"),
    )
    foundation = FactType(
        "foundation",
        "a foundation that has started (one fact per such foundation): its top card",
        obj(foundation=FOUNDATION_SAID, top=CARD),
        label=Say(es="Base", en="Foundation"),
        says=Say(
            es="{value.foundation:cap}: hasta {value.top}",
            en="{value.foundation:cap}: up to {value.top}",
        ),
    )
    reserve_card = FactType(
        "reserve",
        "the card in the reserve slot (con reserva)",
        CARD,
        label=Say(es="Reserva", en="Reserve"),
        says=Say(es="En la reserva: {value:bare}", en="In the reserve: {value:bare}"),
    )
    tokens_left = FactType(
        "tokens",
        "tokens left for shuffle renewals (mezclado)",
        INT,
        label=Say(es="Fichas", en="Tokens"),
        says=Say(es="{value:ficha|fichas} por jugar", en="{value:token|tokens} left"),
    )
    pass_number = FactType(
        "pass",
        "which pass through the hand this is",
        INT,
        label=Say(es="Pasada", en="Pass"),
        says=Say(es="Pasada {value}", en="Pass {value}"),
    )
    up = FactType(
        "cards_up",
        "the cards the player has moved up to the foundations, of 40",
        INT,
        per_seat=True,
        label=Say(es="En las bases", en="On the foundations"),
        says=Say(
            es="{seat} tiene {value:carta|cartas} en las bases",
            en="{seat} has {value:card|cards} on the foundations",
        ),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data, zones = Solitario4AsesData.of(state), state.zones
        facts = [self.hand_left(len(zones[STOCK].cards))]
        if zones[REVEALED].cards:
            facts.append(self.top(zones[REVEALED].cards[-1]))
        facts.extend(
            self.foundation({"foundation": name, "top": zones[name].cards[-1]})
            for name in FOUNDATIONS
            if zones[name].cards
        )
        if state.options["reserve"] and zones[RESERVE].cards:
            facts.append(self.reserve_card(zones[RESERVE].cards[0]))
        if data.tokens is not None:
            facts.append(self.tokens_left(data.tokens))
        facts.append(self.pass_number(data.passes))
        facts.append(self.up(self._cards_up(state), 0))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40)

    def setup(self, state: State) -> list[Event]:
        cards = self.deck(state)
        state.shuffle(cards)
        events: list[Event] = []
        for name in FOUNDATIONS:
            state.zone(name, None, PUBLIC)
        if state.options["aces_start_up"]:
            aces = [f"1{s}" for s in SPANISH_SUITS]
            cards = [c for c in cards if c not in aces]
            for name, ace in zip(FOUNDATIONS, aces, strict=True):
                state.zones[name].cards.append(ace)
            events.append(self.aces_placed(cards=aces))
        state.zone(STOCK, None, HIDDEN).cards = cards  # its top is the end of the list
        state.zone(REVEALED, None, PUBLIC)
        if state.options["reserve"]:
            state.zone(RESERVE, None, PUBLIC)
        data = Solitario4AsesData.of(state)
        data.tokens = state.options["tokens"] if self._shuffles(state) else None
        state.to_act = [0]
        return [self.new_deal(stock=len(cards)), *events]

    # -- the action table (in the order legal actions are listed) ----------------------
    reveal = ActionType("reveal", "turn the next cards of the hand face up")
    renew = ActionType("renew", "with the hand empty, turn the revealed pile over as the hand")
    play = ActionType(
        "play",
        "move the top revealed card up to a foundation (subir)",
        card=CARD,
        to=FOUNDATION,
    )
    reserve = ActionType("reserve", "put the top revealed card into the reserve slot", card=CARD)
    release = ActionType(
        "release", "put the reserved card back onto a revealed card of its number", card=CARD
    )

    # reveal
    @reveal.refusal
    def _reveal_refused(self, state: State, seat: int, action: Action) -> Say | None:
        return None if state.cards(STOCK) else HAND_EMPTY

    @reveal.handler
    def _reveal(self, state: State, seat: int, action: Action) -> list[Event]:
        cards = draw(state, STOCK, REVEALED, state.options["reveal"])
        return self._after(state, "reveal", [self.revealed(seat=0, cards=cards)])

    @reveal.enumerate
    def _reveals_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: after every action the match asks whether anything is left."""
        return [{"type": "reveal"}] if state.zones[STOCK].cards else []

    # renew
    @renew.enumerate
    def _renewals_now(self, state: State, seat: int) -> list[Action]:
        return [{"type": "renew"}] if self._may_renew(state) else []

    @renew.refusal
    def _renew_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        return None if self._may_renew(state) else self._why_no_renewal(state)

    @renew.handler
    def _renew(self, state: State, seat: int, action: Action) -> list[Event]:
        data = Solitario4AsesData.of(state)
        cards = turn_over(state, REVEALED, STOCK)  # the first card revealed is the new top
        if self._shuffles(state):
            assert data.tokens is not None
            data.tokens -= 1
            state.shuffle(cards)
        data.passes += 1
        data.moved_this_pass = 0
        data.movable_this_pass = False
        renewed = self.renewed(seat=0, shuffled=self._shuffles(state), tokens=data.tokens)
        return self._after(state, "renew", [renewed])

    # play
    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        revealed = state.cards(REVEALED)
        if not revealed:
            return []
        return [{"type": "play", "card": revealed[-1], "to": name} for name in FOUNDATIONS]

    @play.enumerate
    def _plays_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly (every action asks for them): the top revealed card onto each
        foundation it fits; the shared suite checks this agrees with the refusal."""
        zones = state.zones
        revealed = zones[REVEALED].cards
        if not revealed:
            return []
        top, fits = revealed[-1], FITS[state.options["building"]]
        actions = []
        for name in FOUNDATIONS:
            pile = zones[name].cards
            if top in fits[pile[-1] if pile else None]:
                actions.append({"type": "play", "card": top, "to": name})
        return actions

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        card, target = action["card"], action["to"]
        revealed = state.cards(REVEALED)
        if state.options["reserve"] and card in state.cards(RESERVE):
            return RESERVED_NOT_UP(card=card, number=RANK_WORDS[rank(card)])
        if not revealed:
            return NONE_REVEALED
        top = revealed[-1]
        if card != top:
            return ONLY_TOP(card=top)
        pile = state.cards(target)
        if self._fits(state, card, pile):
            return None
        said = FOUNDATION_WORDS[target]
        if not pile:
            return EMPTY_FOUNDATION(target=said)
        under = pile[-1]
        if rank(under) == 12:
            return FOUNDATION_FULL(target=said)
        wanted = NEXT_RANK[rank(under)]
        if state.options["building"] == SAME_SUIT:
            return NEXT_SAME_SUIT(target=said, card=f"{wanted}{suit(under)}")
        return NEXT_OTHER_SUIT(target=said, number=RANK_WORDS[wanted], suit=suit(under))

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move_top(REVEALED, action["to"])
        Solitario4AsesData.of(state).moved_this_pass += 1
        played = self.played(seat=0, card=action["card"], to=action["to"])
        return self._after(state, "play", [played])

    # reserve
    @reserve.candidates
    def _reserves(self, state: State, seat: int) -> list[Action]:
        revealed = state.cards(REVEALED)
        return [{"type": "reserve", "card": revealed[-1]}] if revealed else []

    @reserve.enumerate
    def _reserves_now(self, state: State, seat: int) -> list[Action]:
        if not state.options["reserve"]:
            return []
        zones = state.zones
        revealed = zones[REVEALED].cards
        if not revealed or zones[RESERVE].cards or Solitario4AsesData.of(state).last == "release":
            return []
        return [{"type": "reserve", "card": revealed[-1]}]

    @reserve.refusal
    def _reserve_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        if not state.options["reserve"]:
            return NO_RESERVE
        reserved, revealed = state.cards(RESERVE), state.cards(REVEALED)
        if reserved:
            return RESERVE_FULL(card=reserved[0])
        if not revealed:
            return NOTHING_TO_RESERVE
        if action["card"] != revealed[-1]:
            return ONLY_TOP_RESERVED(card=revealed[-1])
        if Solitario4AsesData.of(state).last == "release":
            return UNDO_RELEASE
        return None

    @reserve.handler
    def _reserve(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move_top(REVEALED, RESERVE)
        return self._after(state, "reserve", [self.reserved(seat=0, card=action["card"])])

    # release
    @release.candidates
    def _releases(self, state: State, seat: int) -> list[Action]:
        reserved = state.cards(RESERVE) if state.options["reserve"] else []
        return [{"type": "release", "card": reserved[0]}] if reserved else []

    @release.enumerate
    def _releases_now(self, state: State, seat: int) -> list[Action]:
        if not state.options["reserve"]:
            return []
        zones = state.zones
        reserved, revealed = zones[RESERVE].cards, zones[REVEALED].cards
        if not reserved or not revealed or rank(revealed[-1]) != rank(reserved[0]):
            return []
        if Solitario4AsesData.of(state).last == "reserve":
            return []
        return [{"type": "release", "card": reserved[0]}]

    @release.refusal
    def _release_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        if not state.options["reserve"]:
            return NO_RESERVE
        reserved, revealed = state.cards(RESERVE), state.cards(REVEALED)
        if not reserved:
            return RESERVE_EMPTY
        if action["card"] != reserved[0]:
            return RESERVED_IS(card=reserved[0])
        if not revealed or rank(revealed[-1]) != rank(reserved[0]):
            number = RANK_WORDS[rank(reserved[0])]
            if revealed:
                kinds = {"card": CARD, "top": CARD}
                values = {"card": reserved[0], "number": number, "top": revealed[-1]}
                return Message(BACK_ONTO_NUMBER, values, kinds)
            return BACK_NONE_REVEALED(card=reserved[0], number=number)
        if Solitario4AsesData.of(state).last == "reserve":
            return UNDO_RESERVE
        return None

    @release.handler
    def _release(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move_top(RESERVE, REVEALED)
        return self._after(state, "release", [self.released(seat=0, card=action["card"])])

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _fits(state: State, card: str, pile: list[str]) -> bool:
        """Whether ``card`` may go on top of the foundation ``pile`` (the kit's ``builds_on``)."""
        return card in FITS[state.options["building"]][pile[-1] if pile else None]

    @staticmethod
    def _shuffles(state: State) -> bool:
        return state.options["renewal"] == "shuffle"

    def _may_renew(self, state: State) -> bool:
        data, options = Solitario4AsesData.of(state), state.options
        if not may_renew(state, STOCK, REVEALED, data.passes, max_passes=None):
            return False
        if options["renewal"] == "shuffle":
            return bool(data.tokens)
        if options["idle_pass"] == "no-card-movable":  # an idle pass would repeat forever
            return data.moved_this_pass > 0 or data.movable_this_pass
        return data.moved_this_pass > 0

    def _why_no_renewal(self, state: State) -> Message | Say:
        stock = state.cards(STOCK)
        if stock:
            return HAND_NOT_EMPTY(left=len(stock))
        if not state.cards(REVEALED):
            return NOTHING_TO_RENEW
        if self._shuffles(state):
            return NO_TOKEN
        if state.options["idle_pass"] == "no-card-movable":
            return NONE_COULD_GO_UP
        return NONE_MOVED

    @staticmethod
    def _cards_up(state: State) -> int:
        zones = state.zones
        return sum(len(zones[name].cards) for name in FOUNDATIONS)

    def _is_won(self, state: State) -> bool:
        return self._cards_up(state) == len(FOUNDATIONS) * PILE_SIZE

    # -- after every action: note it, then end the match when it is over ---------------
    def _after(self, state: State, kind: str, events: list[Event]) -> list[Event]:
        Solitario4AsesData.of(state).last = kind
        return events + self._settle(state)

    def _settle(self, state: State) -> list[Event]:
        """End the match when it is won, or when no move is left (lost); note a playable card."""
        if self._is_won(state):
            return self._end(state, True, WON.en)
        actions = self.legal_actions(state, 0)
        if any(a["type"] == "play" for a in actions):
            Solitario4AsesData.of(state).movable_this_pass = True
        stranded = not state.cards(STOCK) and not self._may_renew(state)
        if not actions or (stranded and not state.options["play_out_without_renewal"]):
            return self._end(state, False, self._loss_reason(state))
        return []

    def _loss_reason(self, state: State) -> str:
        """The reason a lost match records: the refusal of the renewal it needed, in English."""
        if state.cards(REVEALED):
            return text_of(self._why_no_renewal(state))
        return ONLY_RESERVED_LEFT.en

    def _end(self, state: State, won: bool, reason: str) -> list[Event]:
        data = Solitario4AsesData.of(state)
        data.won, data.reason = won, reason
        events = end_solitaire(state, won, self._cards_up(state), reason=reason)
        assert state.result is not None
        state.result.update(won=won, reason=reason)  # the event shares this result
        return events

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: Solitario4AsesData) -> Solitario4AsesData:
        """The last move matters only to forbid undoing it: read it from what the view offers."""
        offered = {a["type"] for a in view["legal_actions"]}
        if view["options"]["reserve"] and not offered & {"reserve", "release"}:
            data.last = "reserve" if view["zones"][RESERVE]["count"] else "release"
        return data

    def public_fields(self, state: State) -> dict:
        data = Solitario4AsesData.of(state)
        return {
            "cards_up": self._cards_up(state),
            "passes": data.passes,
            "moved_this_pass": data.moved_this_pass,
            "tokens": data.tokens,
            "won": data.won,
            "reason": data.reason,
        }


register(Solitario4Ases())
