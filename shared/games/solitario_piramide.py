"""Solitario Pirámide (rules/solitario-piramide.txt): take the pyramid down in pairs summing 13.

A one-player patience with a 52-card English deck. 28 cards form a pyramid of 7 rows; the
other 24 are the stock. A card is free when no card lies on it (the two cards below it
are gone). Two free cards whose values add up to 13 (A 1, 2-10 at face, J 11, Q 12) go out
together, and a K (13) goes out alone. When no pyramid card can go out, the next stock card
is turned onto the waste, whose top card may pair with a free pyramid card; the stock is
used once. Won when the pyramid is empty; lost when nothing can go out any more.
``tres-puntas`` deals three peaks (rows of 3, 6, 9, 10 and 11 cards, a 13-card stock);
``revelada`` deals every card face up (in ``base`` covered cards lie face down). The
decisions taken where the text is silent are in docs/games/solitario-piramide.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.engine import (
    CARD,
    CARDS,
    HIDDEN,
    PUBLIC,
    Action,
    ActionType,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    english_deck,
    register,
)
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import INT, SEAT, choice, obj
from shared.engine.kit.pairs import sums_to
from shared.engine.kit.solitaire import (
    DRAWN,
    RESULT_VIEW,
    WASTE_TOP,
    Layout,
    draw,
    end_solitaire,
    pyramid,
    solitaire_finished,
    three_peaks,
)
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.kit.tables import ENGLISH_ACE_LOW
from shared.engine.language import ENGLISH_DECK, Message, Say, Words

STOCK, WASTE, DISCARD = "stock", "waste", "discard"
RULE = sums_to(13, ENGLISH_ACE_LOW)
LAYOUTS = {"pyramid": pyramid(7), "three-peaks": three_peaks()}
CLEARED = "the pyramid is cleared"
STUCK = "the stock is used up and no card can go out"
REASON_WORDS = Words(
    {
        CLEARED: ("la pirámide está vacía", CLEARED),
        STUCK: ("el mazo se acabó y ninguna carta puede salir", STUCK),
    }
)

# -- what the rules say to a player, in both languages -------------------------------------
ONE_OR_TWO = Say(
    es="quita un rey solo o dos cartas distintas que sumen 13, nunca más",
    en="remove a K alone or two different cards summing 13, never more",
)
NOT_FREE = Say(
    es="{card:cap} no está libre; libres ahora: {free}",
    en="{card:cap} is not free; free now: {free}",
)
ONLY_KING_ALONE = Say(
    es="solo un rey sale solo, no {card}", en="only a K goes out alone, not {card}"
)
NOT_THIRTEEN = Say(
    es="{cards:cap} suman {total}, no 13", en="{cards:cap} add up to {total}, not 13"
)
STOCK_USED_UP = Say(
    es="el mazo se ha acabado, y el descarte nunca se vuelve",
    en="the stock is used up, and the waste is never turned over",
)
CAN_STILL_GO_OUT = Say(
    es="{cards:cap} aún puede salir: solo se roba cuando ninguna carta de la pirámide puede",
    en="{cards:cap} can still go out: draw only when no card of the pyramid can",
)


@dataclass
class PiramideData(GameData):
    won: bool | None = None  # None while the match is on
    reason: str | None = None  # why it ended

    #: Derived, never stored (not a field: out of the JSON, the hash and a clone): the layout's
    #: free (slot, card)s and the ``State.moves`` they are of, found once per move (``_free``).
    free_at = None  # type: tuple[int, list[tuple[str, str]]] | None


class SolitarioPiramide(Game):
    id = "solitario-piramide"
    name = "Solitario Pirámide"
    rules_file = "solitario-piramide.txt"
    players = (1, 1)
    data_type = PiramideData
    options = {
        "layout": Option(
            "pyramid",
            "the layout: a pyramid of 7 rows (28 cards), or three peaks of rows 3, 6, 9, 10"
            " and 11 (39 cards)",
            choices=tuple(LAYOUTS),
        ),
        "face_up": Option(False, "every card of the layout is dealt face up (revelada)"),
        "draw_any_time": Option(
            False, "the stock may be drawn even while a card of the layout could go out"
        ),
    }
    variants = {
        "base": Variant("base", "7 rows, 28 cards; covered cards lie face down."),
        "tres-puntas": Variant(
            "tres-puntas",
            "Three peaks in rows of 3, 6, 9, 10 and 11 cards; a 13-card stock.",
            {"layout": "three-peaks"},
        ),
        "revelada": Variant("revelada", "7 rows, every card face up.", {"face_up": True}),
    }

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    new_deal = EventType(
        "deal",
        "the layout dealt and the stock left",
        layout=INT.about("cards in the layout"),
        stock=INT.about("cards in the stock"),
        says=Say(
            es="Se reparten {layout} cartas en la mesa; quedan {stock} en el mazo",
            en="{layout} cards are dealt on the table; {stock} stay in the stock",
        ),
    )
    drawn = DRAWN
    removed = EventType(
        "removed",
        "a K alone, or two free cards summing 13, taken out; the cards they freed turn face up",
        seat=SEAT,
        cards=CARDS,
        turned=CARDS.about("the layout cards turned face up, freed by the removal"),
    )
    match_finished = solitaire_finished(
        choice(CLEARED, STUCK, description="why the game is over", words=REASON_WORDS),
        cards_left=INT.about("cards left in the layout"),
    )

    @removed.sentence
    def _removed_said(self, event: Event) -> Say:
        if event["turned"]:
            return Say(
                es="{seat} quita {cards}; boca arriba ahora: {turned}",
                en="{seat} removes {cards}; face up now: {turned}",
            )
        return Say(es="{seat} quita {cards}", en="{seat} removes {cards}")

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "free": CARDS.about("the free cards of the layout"),
        "cards_left": INT.about("cards left in the layout"),
        **RESULT_VIEW,
    }

    # -- the facts ---------------------------------------------------------------------
    stock_left = STOCK_LEFT
    waste_top = WASTE_TOP
    free_cards = FactType(
        "free",
        "the free cards of the layout: two summing 13, or a K, go out",
        CARDS,
        label=Say(es="Libres", en="Free"),
        says=Say(es="Libres: {value:bare}", en="Free: {value:bare}"),
    )
    cleared = FactType(
        "cleared",
        "the cards the player has taken out of the layout, of all it held",
        obj(cleared=INT, of=INT),
        per_seat=True,
        label=Say(es="Quitadas", en="Cleared"),
        says=Say(
            es="{seat} ha quitado {value.cleared} de {value.of} cartas",
            en="{seat} has cleared {value.cleared} of {value.of} cards",
        ),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        layout = self._layout(state)
        facts = [self.stock_left(len(state.cards(STOCK)))]
        if state.cards(WASTE):
            facts.append(self.waste_top(state.cards(WASTE)[-1]))
        free = self._free_cards(state)
        if free:
            facts.append(self.free_cards(free))
        done = {"cleared": len(layout) - layout.count(state), "of": len(layout)}
        facts.append(self.cleared(done, 0))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return english_deck()

    @staticmethod
    def _layout(state: State) -> Layout:
        return LAYOUTS[state.options["layout"]]

    def setup(self, state: State) -> list[Event]:
        cards = self.deck(state)
        state.shuffle(cards)
        layout = self._layout(state)
        layout.deal(state, cards, face_up=state.options["face_up"])
        state.zone(STOCK, None, HIDDEN).cards = cards  # its top is the end of the list
        state.zone(WASTE, None, PUBLIC)
        state.zone(DISCARD, None, PUBLIC)
        state.phase = "play"
        state.to_act = [0]
        return [self.new_deal(layout=len(layout), stock=len(cards))]

    # -- the action table --------------------------------------------------------------
    remove = ActionType(
        "remove",
        "take out two free cards summing 13, or a K alone (the waste's top card is free)",
        phases=("play",),
        cards=CARDS,
    )
    draw_card = ActionType("draw", "turn the next stock card onto the waste", phases=("play",))

    @classmethod
    def _free(cls, state: State) -> list[tuple[str, str]]:
        """The layout's free (slot, card)s (not to be changed: they are kept). Finding them
        is most of an action's cost and the listing, the refusal and the move each need
        them: they are found once per move, kept on the data with the move count, and a move
        hands its successor the ones it leaves (``Layout.free_after``)."""
        data = PiramideData.of(state)
        kept = data.free_at
        if kept is not None and kept[0] == state.moves:
            return kept[1]
        free = cls._layout(state).free(state)
        data.free_at = (state.moves, free)
        return free

    @staticmethod
    def _keep_free(state: State, free: list[tuple[str, str]]) -> None:
        """``free`` are the free cards once this move is applied (the core counts it when its
        handler returns, as the bots' rollouts do)."""
        PiramideData.of(state).free_at = (state.moves + 1, free)

    def _free_cards(self, state: State) -> list[str]:
        return [card for _slot, card in self._free(state)]

    def _available(self, state: State) -> list[str]:
        """The free cards of the layout, then the waste's top card."""
        waste = state.cards(WASTE)
        return self._free_cards(state) + waste[-1:]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The removals, then the draw: each type's listing below, with the layout's free
        cards found once for both (finding them is most of a listing's cost)."""
        if state.phase != "play":
            return super().legal_actions(state, seat)
        free = self._free_cards(state)
        waste = state.cards(WASTE)
        actions = self._removals_from(free + waste[-1:])
        if state.cards(STOCK) and (
            # a removal other than the waste's top card alone takes a card out of the layout
            state.options["draw_any_time"] or all(a["cards"] == waste[-1:] for a in actions)
        ):
            actions.append({"type": "draw"})
        return actions

    @remove.candidates
    def _removals(self, state: State, seat: int) -> list[Action]:
        return self._removals_from(self._available(state))

    @staticmethod
    def _removals_from(available: list[str]) -> list[Action]:
        """The removals among the available cards: each K alone, each pair summing 13."""
        groups = [[c] for c in RULE.singles(available)]
        groups += [list(p) for p in RULE.pairs(available)]
        return [{"type": "remove", "cards": g} for g in groups]

    # The candidates are made by the rule from the free cards: each one is legal.
    remove.enumerate(_removals)

    @remove.refusal
    def _remove_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        cards = action["cards"]
        if len(cards) not in (1, 2) or len(set(cards)) != len(cards):
            return ONE_OR_TWO
        free = self._available(state)
        for card in cards:
            if card not in free:  # the same words whether or not the card lies face down
                return Message(
                    NOT_FREE, {"card": card, "free": free}, {"card": CARD, "free": CARDS}
                )
        if len(cards) == 1:
            return None if RULE.alone(cards[0]) else ONLY_KING_ALONE(card=cards[0])
        a, b = cards
        if not RULE.matches(a, b):
            total = (RULE.value(a) or 0) + (RULE.value(b) or 0)
            return NOT_THIRTEEN(cards=[a, b], total=total)
        return None

    @remove.handler
    def _remove(self, state: State, seat: int, action: Action) -> list[Event]:
        free = self._free(state)
        slot_of = {card: slot for slot, card in free}
        emptied = []
        for card in action["cards"]:  # a free card of the layout, else the waste's top card
            slot = slot_of.get(card)
            state.move(card, slot or WASTE, DISCARD)
            if slot:
                emptied.append(slot)
        layout = self._layout(state)
        free = layout.free_after(state, free, emptied) if emptied else free
        self._keep_free(state, free)
        turned = layout.turn_up_free(state, free)
        removed = self.removed(seat=0, cards=list(action["cards"]), turned=turned)
        return [removed, *self._settle(state, free)]

    @draw_card.enumerate
    def _draws(self, state: State, seat: int) -> list[Action]:
        """The refusal's rule without its message (listing it would word the removal still
        possible on every turn one is)."""
        free = self._free_cards(state)
        return [{"type": "draw"}] if self._may_draw(state, free, state.cards(WASTE)) else []

    @staticmethod
    def _may_draw(state: State, free: list[str], waste: list[str]) -> bool:
        """A card is left in the stock, and drawing is allowed now: any time with the option,
        else only when no card of the layout (``free``: its free cards) can go out."""
        return bool(state.cards(STOCK)) and (
            state.options["draw_any_time"] or not _layout_removal(free, waste)
        )

    @draw_card.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> Message | Say | None:
        if not state.cards(STOCK):
            return STOCK_USED_UP
        if not state.options["draw_any_time"]:
            group = self._layout_removal(state)
            if group:
                return CAN_STILL_GO_OUT(cards=group)
        return None

    @draw_card.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        free = self._free(state)  # a draw leaves the layout as it is
        card = draw(state, STOCK, WASTE)[0]
        self._keep_free(state, free)
        return [self.drawn(seat=0, card=card), *self._settle(state, free)]

    # -- rules as questions ------------------------------------------------------------
    def _layout_removal(self, state: State) -> list[str] | None:
        """A removal that takes a card out of the layout, if any (a waste K alone does not)."""
        return _layout_removal(self._free_cards(state), state.cards(WASTE))

    def _settle(self, state: State, free: list[tuple[str, str]]) -> list[Event]:
        """End the match once the layout is empty (won) or nothing can be done (lost): while
        a card is left in the stock something can (the draw, or the removal barring it).
        ``free``: the layout's free cards now (a layout with a card has a free one)."""
        if not free:
            return self._end(state, True, CLEARED)
        if not state.cards(STOCK):
            waste = state.cards(WASTE)
            if not self._removals_from([card for _slot, card in free] + waste[-1:]):
                return self._end(state, False, STUCK)
        return []

    def _end(self, state: State, won: bool, reason: str) -> list[Event]:
        data = PiramideData.of(state)
        data.won, data.reason = won, reason
        layout = self._layout(state)
        left = layout.count(state)
        return end_solitaire(state, won, len(layout) - left, reason=reason, cards_left=left)

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = PiramideData.of(state)
        return {
            "free": self._free_cards(state),
            "cards_left": self._layout(state).count(state),
            "won": data.won,
            "reason": data.reason,
        }


def _layout_removal(free: list[str], waste: list[str]) -> list[str] | None:
    """A removal taking a card out of the layout (``free``: its free cards), if any: a K, or a
    pair among them and the waste's top card (a waste K alone does not count)."""
    for card in RULE.singles(free):
        return [card]
    pairs = RULE.pairs(free + waste[-1:])
    return list(pairs[0]) if pairs else None


register(SolitarioPiramide())
