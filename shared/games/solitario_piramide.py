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
from itertools import combinations

from shared.engine import (
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
    event,
    register,
)
from shared.engine.kit.pairs import sums_to
from shared.engine.kit.solitaire import Layout, draw, end_solitaire, pyramid, three_peaks
from shared.engine.kit.tables import ENGLISH_ACE_LOW

STOCK, WASTE, DISCARD = "stock", "waste", "discard"
RULE = sums_to(13, ENGLISH_ACE_LOW)
LAYOUTS = {"pyramid": pyramid(7), "three-peaks": three_peaks()}


@dataclass
class PiramideData(GameData):
    won: bool | None = None  # None while the match is on
    reason: str | None = None  # why it ended


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
        return [event("deal", layout=len(layout), stock=len(cards))]

    # -- the action table --------------------------------------------------------------
    remove = ActionType(
        "remove",
        "take out two free cards summing 13, or a K alone (the waste's top card is free)",
        phases=("play",),
        cards=CARDS,
    )
    draw_card = ActionType("draw", "turn the next stock card onto the waste", phases=("play",))

    def _available(self, state: State) -> list[str]:
        """The free cards of the layout, then the waste's top card."""
        waste = state.cards(WASTE)
        return self._layout(state).free_cards(state) + waste[-1:]

    @remove.candidates
    def _removals(self, state: State, seat: int) -> list[Action]:
        free = self._available(state)
        groups = [[c] for c in RULE.singles(free)] + [list(p) for p in RULE.pairs(free)]
        return [{"type": "remove", "cards": g} for g in groups]

    @remove.refusal
    def _remove_refused(self, state: State, seat: int, action: Action) -> str | None:
        cards = action["cards"]
        if len(cards) not in (1, 2) or len(set(cards)) != len(cards):
            return "remove a K alone or two different cards summing 13, never more"
        free = self._available(state)
        for card in cards:
            if card not in free:  # the same words whether or not the card lies face down
                return f"{card} is not free; free now: {', '.join(free) or 'none'}"
        if len(cards) == 1:
            return None if RULE.alone(cards[0]) else f"only a K goes out alone, not {cards[0]}"
        a, b = cards
        if not RULE.matches(a, b):
            total = (RULE.value(a) or 0) + (RULE.value(b) or 0)
            return f"{a} and {b} add up to {total}, not 13"
        return None

    @remove.handler
    def _remove(self, state: State, seat: int, action: Action) -> list[Event]:
        layout = self._layout(state)
        for card in action["cards"]:
            slot = layout.slot_of(state, card)
            state.move(card, slot or WASTE, DISCARD)
        turned = layout.turn_up(state)
        return [
            event("removed", seat=0, cards=list(action["cards"]), turned=turned)
        ] + self._settle(state)

    @draw_card.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> str | None:
        if not state.cards(STOCK):
            return "the stock is used up, and the waste is never turned over"
        if not state.options["draw_any_time"]:
            group = self._layout_removal(state)
            if group:
                return (
                    f"{' + '.join(group)} can still go out: draw only when no card of the"
                    " pyramid can"
                )
        return None

    @draw_card.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        card = draw(state, STOCK, WASTE)[0]
        return [event("drawn", seat=0, card=card)] + self._settle(state)

    # -- rules as questions ------------------------------------------------------------
    def _layout_removal(self, state: State) -> list[str] | None:
        """A removal that takes a card out of the layout, if any (a waste K alone does not)."""
        free = self._layout(state).free_cards(state)
        for card in RULE.singles(free):
            return [card]
        available = free + state.cards(WASTE)[-1:]
        for a, b in combinations(available, 2):
            if RULE.matches(a, b):
                return [a, b]
        return None

    def _settle(self, state: State) -> list[Event]:
        """End the match once the layout is empty (won) or nothing can be done (lost)."""
        if not self._layout(state).count(state):
            return self._end(state, True, "the pyramid is cleared")
        if not self.legal_actions(state, 0):
            return self._end(state, False, "the stock is used up and no card can go out")
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
            "free": self._layout(state).free_cards(state),
            "cards_left": self._layout(state).count(state),
            "won": data.won,
            "reason": data.reason,
        }


register(SolitarioPiramide())
