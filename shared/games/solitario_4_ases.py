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
    event,
    rank,
    register,
    spanish_deck,
    suit,
)
from shared.engine.kit.solitaire import (
    OTHER_SUIT,
    SAME_SUIT,
    draw,
    end_solitaire,
    fits_table,
    foundation_names,
    may_renew,
    successors,
    turn_over,
)
from shared.engine.kit.tables import SPANISH_SEQUENCE_40

FOUNDATIONS = foundation_names(4)
NEXT_RANK = successors(SPANISH_SEQUENCE_40)  # 1..7, Sota, Caballo, Rey: 7 -> Sota
#: Per building option, a foundation's top card (None: empty) -> the cards that go on it.
FITS = {mode: fits_table(spanish_deck(40), NEXT_RANK, mode) for mode in (SAME_SUIT, OTHER_SUIT)}
RANK_NAMES = {**{r: str(r) for r in range(1, 8)}, 10: "Sota", 11: "Caballo", 12: "Rey"}
SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
PILE_SIZE = 10
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
            events.append(event("aces_placed", cards=aces))
        state.zone(STOCK, None, HIDDEN).cards = cards  # its top is the end of the list
        state.zone(REVEALED, None, PUBLIC)
        if state.options["reserve"]:
            state.zone(RESERVE, None, PUBLIC)
        data = Solitario4AsesData.of(state)
        data.tokens = state.options["tokens"] if self._shuffles(state) else None
        state.to_act = [0]
        return [event("deal", stock=len(cards)), *events]

    # -- the action table (in the order legal actions are listed) ----------------------
    reveal = ActionType("reveal", "turn the next cards of the hand face up")
    renew = ActionType("renew", "with the hand empty, turn the revealed pile over as the hand")
    play = ActionType(
        "play",
        "move the top revealed card up to a foundation (subir)",
        card=CARD,
        to=choice(*FOUNDATIONS, description="a foundation"),
    )
    reserve = ActionType("reserve", "put the top revealed card into the reserve slot", card=CARD)
    release = ActionType(
        "release", "put the reserved card back onto a revealed card of its number", card=CARD
    )

    # reveal
    @reveal.refusal
    def _reveal_refused(self, state: State, seat: int, action: Action) -> str | None:
        return None if state.cards(STOCK) else "the hand is empty: renew it from the revealed pile"

    @reveal.handler
    def _reveal(self, state: State, seat: int, action: Action) -> list[Event]:
        cards = draw(state, STOCK, REVEALED, state.options["reveal"])
        return self._after(state, "reveal", [event("revealed", seat=0, cards=cards)])

    @reveal.enumerate
    def _reveals_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: after every action the match asks whether anything is left."""
        return [{"type": "reveal"}] if state.zones[STOCK].cards else []

    # renew
    @renew.enumerate
    def _renewals_now(self, state: State, seat: int) -> list[Action]:
        return [{"type": "renew"}] if self._may_renew(state) else []

    @renew.refusal
    def _renew_refused(self, state: State, seat: int, action: Action) -> str | None:
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
        renewed = event("renewed", seat=0, shuffled=self._shuffles(state), tokens=data.tokens)
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
    def _play_refused(self, state: State, seat: int, action: Action) -> str | None:
        card, target = action["card"], action["to"]
        revealed = state.cards(REVEALED)
        if state.options["reserve"] and card in state.cards(RESERVE):
            number = RANK_NAMES[rank(card)]
            return f"the reserved {card} cannot go up: release it onto a revealed {number} first"
        if not revealed:
            return "no card is revealed: reveal first"
        top = revealed[-1]
        if card != top:
            return f"only the top revealed card, {top}, is available"
        pile = state.cards(target)
        if self._fits(state, card, pile):
            return None
        if not pile:
            return f"{target} is empty: only a 1 can start it"
        under = pile[-1]
        if rank(under) == 12:
            return f"{target} is complete"
        wanted = RANK_NAMES[NEXT_RANK[rank(under)]]
        if state.options["building"] == SAME_SUIT:
            return f"{target} takes only the {wanted} de {SUIT_NAMES[suit(under)]} next"
        return f"{target} takes only a {wanted} of a suit other than {SUIT_NAMES[suit(under)]} next"

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move_top(REVEALED, action["to"])
        Solitario4AsesData.of(state).moved_this_pass += 1
        played = event("played", seat=0, card=action["card"], to=action["to"])
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
    def _reserve_refused(self, state: State, seat: int, action: Action) -> str | None:
        if not state.options["reserve"]:
            return "this variant has no reserve slot"
        reserved, revealed = state.cards(RESERVE), state.cards(REVEALED)
        if reserved:
            return f"the reserve slot already holds {reserved[0]}"
        if not revealed:
            return "no revealed card to reserve"
        if action["card"] != revealed[-1]:
            return f"only the top revealed card, {revealed[-1]}, can be reserved"
        if Solitario4AsesData.of(state).last == "release":
            return "reserving the card just released would only undo that"
        return None

    @reserve.handler
    def _reserve(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move_top(REVEALED, RESERVE)
        return self._after(state, "reserve", [event("reserved", seat=0, card=action["card"])])

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
    def _release_refused(self, state: State, seat: int, action: Action) -> str | None:
        if not state.options["reserve"]:
            return "this variant has no reserve slot"
        reserved, revealed = state.cards(RESERVE), state.cards(REVEALED)
        if not reserved:
            return "the reserve slot is empty"
        if action["card"] != reserved[0]:
            return f"the reserved card is {reserved[0]}"
        if not revealed or rank(revealed[-1]) != rank(reserved[0]):
            top = f"the top revealed card is {revealed[-1]}" if revealed else "none is revealed"
            number = RANK_NAMES[rank(reserved[0])]
            return f"{reserved[0]} goes back only onto a revealed {number}; {top}"
        if Solitario4AsesData.of(state).last == "reserve":
            return "releasing the card just reserved would only undo that"
        return None

    @release.handler
    def _release(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move_top(RESERVE, REVEALED)
        return self._after(state, "release", [event("released", seat=0, card=action["card"])])

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

    def _why_no_renewal(self, state: State) -> str:
        stock = state.cards(STOCK)
        if stock:
            return f"the hand is not empty yet ({len(stock)} left): renew only once it is"
        if not state.cards(REVEALED):
            return "no revealed cards to renew the hand with"
        if self._shuffles(state):
            return "no token left to renew the hand"
        if state.options["idle_pass"] == "no-card-movable":
            return "no card could go up during this pass: turned over, it would repeat forever"
        return "this pass moved no card to the foundations: turned over, it would repeat forever"

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
            return self._end(state, True, "all four suits are ordered from 1 to Rey")
        actions = self.legal_actions(state, 0)
        if any(a["type"] == "play" for a in actions):
            Solitario4AsesData.of(state).movable_this_pass = True
        stranded = not state.cards(STOCK) and not self._may_renew(state)
        if not actions or (stranded and not state.options["play_out_without_renewal"]):
            return self._end(state, False, self._loss_reason(state))
        return []

    def _loss_reason(self, state: State) -> str:
        if state.cards(REVEALED):
            return self._why_no_renewal(state)
        return "only the reserved card is left, and it cannot go up directly"

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
