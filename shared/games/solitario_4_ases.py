"""Solitario 4 Ases (rules/solitario-4-ases.txt, RULINGS.md 2.1).

A one-player patience with the 40-card Spanish deck. The whole deck is the player's
face-down hand (the stock). A turn is one of:

* ``reveal``: turn the next 2 cards of the stock face up onto the revealed pile, one on
  top of the other; only the top (last) card is available (1 card when 1 is left);
* ``play`` ("subir"): move the top revealed card up to a foundation: an empty one takes
  any 1, otherwise the next rank (1..7, Sota, Caballo, Rey: 7 -> Sota is consecutive) of
  the same suit;
* ``renew``: with the stock empty, turn the revealed pile over, unshuffled, as the new stock.

Won with all 40 cards on the foundations (four piles 1..Rey); lost when no move is left.

Variants: ``revelados`` (the four 1s start on the foundations; 36-card stock),
``con-reserva`` (one reserve slot), ``mezclado`` (5 tokens; each renewal costs one and
shuffles), ``pintados`` (each next card is of a different suit from the one under it).

Decisions where the text is silent or ambiguous:
* Reveal order (the seed's example): the first card revealed goes underneath, the last on
  top. ``reveal`` sets how many cards a reveal turns (2).
* Renewing is the player's explicit action (the text lists it as a turn action), only with
  the stock empty. Turning the pile over makes the first card revealed the new top, so the
  stock comes back in exactly its previous order.
* Loss (RULINGS 2.1.2): a pass (from the deal or a renewal until the stock is empty) that
  moved no card to the foundations may not be renewed, and the game is lost as soon as no
  legal move is left. Cards moved up after the stock ran out count for the pass; reserving
  and releasing do not (they move no card up). Why this is a dead end: the pile turned over
  is the previous stock in the same order, and the foundations are unchanged, so the same
  cards come up in the same groups with the same card on top: if no card *could* go up, none
  ever will. A player who passed over a playable card also loses under this reading ("si no
  consigue realizar más movimientos en una ronda"), although the repeated pass would offer
  that card again; ``idle_pass`` = ``no-card-movable`` loses only when no card could go up
  during the pass (a proven dead end; a player who keeps passing over cards then plays on).
* Mezclado: the idle-pass rule does not apply (the shuffle breaks the repeat; the tokens
  bound the game). With the stock empty and no token left, the top revealed cards may
  still go up ("movimientos"); the game is lost once none can. ``play_out_without_renewal``
  = False loses at once when the hand is empty and cannot be renewed (RULINGS 2.1.5 literally).
* Reserva (RULINGS 2.1.4): ``reserve`` puts the top revealed card (the only available one)
  into the empty slot; ``release`` puts it back on top of the revealed pile when the top
  card has the same number, where it is available again. Both are actions. A reserved
  card never goes up directly and stays reserved across renewals. Releasing the card just
  reserved, or reserving the card just released, would only undo the last action: both are
  refused, so that play always ends.
* Pintados: the next rank of a different suit from the card under it; any 1 starts a pile.
* Revelados: the 1s start on foundations 1-4 in the order oros, copas, espadas, bastos.
* The revealed pile is public: each of its cards was seen face up. The stock is hidden,
  its order too, even from the player.
* Result: winners is [0] for a win and [] for a loss; ``scores`` is the cards on the
  foundations (40 when won) and ``result["won"]`` / ``result["reason"]`` say why it ended.
"""

from __future__ import annotations

from shared.engine import (
    HIDDEN,
    PUBLIC,
    SPANISH_SUITS,
    Action,
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
    suit,
)

FOUNDATIONS = ("foundation1", "foundation2", "foundation3", "foundation4")
NEXT_RANK = {1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 10, 10: 11, 11: 12}
RANK_NAMES = {**{r: str(r) for r in range(1, 8)}, 10: "Sota", 11: "Caballo", 12: "Rey"}
SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
PILE_SIZE = 10
ACTION_TYPES = "reveal, play, renew, reserve, release"
REVEAL: Action = {"type": "reveal"}
RENEW: Action = {"type": "renew"}


class Solitario4Ases(Game):
    id = "solitario-4-ases"
    name = "Solitario 4 Ases"
    rules_file = "solitario-4-ases.txt"
    players = (1, 1)
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
            "same-suit",
            "each next card up: of the same suit, or of another suit (pintados)",
            choices=("same-suit", "other-suit"),
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
            {"building": "other-suit"},
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
        state.zone("stock", None, HIDDEN).cards = cards  # its top is the end of the list
        state.zone("revealed", None, PUBLIC)
        if state.options["reserve"]:
            state.zone("reserve", None, PUBLIC)
        state.data.update(
            passes=1,
            moved_this_pass=0,
            movable_this_pass=False,
            tokens=state.options["tokens"] if self._shuffles(state) else None,
            last=None,
            won=None,
            reason=None,
        )
        state.to_act = [0]
        return [event("deal", stock=len(cards)), *events]

    # -- legal actions -----------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        stock, revealed = state.zones["stock"].cards, state.zones["revealed"].cards
        actions: list[Action] = []
        if stock:
            actions.append(REVEAL)
        elif self._may_renew(state):
            actions.append(RENEW)
        if revealed:
            top = revealed[-1]
            for name in self._targets(state, top):
                actions.append({"type": "play", "card": top, "to": name})
        if state.options["reserve"]:
            reserved = state.zones["reserve"].cards
            if revealed and not reserved and state.data["last"] != "release":
                actions.append({"type": "reserve", "card": revealed[-1]})
            if reserved and self._may_release(state):
                actions.append({"type": "release", "card": reserved[0]})
        return actions

    def _targets(self, state: State, card: str) -> list[str]:
        return [name for name in FOUNDATIONS if self._fits(state, card, state.zones[name].cards)]

    def _fits(self, state: State, card: str, pile: list[str]) -> bool:
        """Whether ``card`` may go on top of the foundation ``pile``."""
        if not pile:
            return rank(card) == 1
        under = pile[-1]
        if NEXT_RANK.get(rank(under)) != rank(card):
            return False
        same_suit = suit(under) == suit(card)
        return same_suit if state.options["building"] == "same-suit" else not same_suit

    def _may_renew(self, state: State) -> bool:
        if state.zones["stock"].cards or not state.zones["revealed"].cards:
            return False
        if self._shuffles(state):
            return state.data["tokens"] > 0
        data = state.data  # an idle pass would repeat forever
        if state.options["idle_pass"] == "no-card-movable":
            return data["moved_this_pass"] > 0 or data["movable_this_pass"]
        return data["moved_this_pass"] > 0

    def _may_release(self, state: State) -> bool:
        revealed, reserved = state.zones["revealed"].cards, state.zones["reserve"].cards
        return (
            bool(revealed and reserved)
            and rank(revealed[-1]) == rank(reserved[0])
            and state.data["last"] != "reserve"
        )

    @staticmethod
    def _shuffles(state: State) -> bool:
        return state.options["renewal"] == "shuffle"

    # -- refusals ------------------------------------------------------------------------
    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        kind = action.get("type")
        revealed = state.zones["revealed"].cards
        if kind in ("reveal", "renew") and len(action) > 1:
            return f"{kind} takes no parameters"
        if kind == "reveal":
            return "the hand is empty: renew it from the revealed pile"
        if kind == "renew":
            return self._why_no_renewal(state)
        if kind == "play":
            return self._why_not_up(state, action)
        if kind in ("reserve", "release") and not state.options["reserve"]:
            return "this variant has no reserve slot"
        reserved = state.zones["reserve"].cards if state.options["reserve"] else []
        if kind == "reserve":
            if reserved:
                return f"the reserve slot already holds {reserved[0]}"
            if not revealed:
                return "no revealed card to reserve"
            if action.get("card") != revealed[-1]:
                return f"only the top revealed card, {revealed[-1]}, can be reserved"
            return "reserving the card just released would only undo that"
        if kind == "release":
            if not reserved:
                return "the reserve slot is empty"
            if action.get("card") != reserved[0]:
                return f"the reserved card is {reserved[0]}"
            if not revealed or rank(revealed[-1]) != rank(reserved[0]):
                top = f"the top revealed card is {revealed[-1]}" if revealed else "none is revealed"
                number = RANK_NAMES[rank(reserved[0])]
                return f"{reserved[0]} goes back only onto a revealed {number}; {top}"
            return "releasing the card just reserved would only undo that"
        return f"unknown action type {kind!r}; actions: {ACTION_TYPES}"

    def _why_no_renewal(self, state: State) -> str:
        stock = state.zones["stock"].cards
        if stock:
            return f"the hand is not empty yet ({len(stock)} left): renew only once it is"
        if not state.zones["revealed"].cards:
            return "no revealed cards to renew the hand with"
        if self._shuffles(state):
            return "no token left to renew the hand"
        if state.options["idle_pass"] == "no-card-movable":
            return "no card could go up during this pass: turned over, it would repeat forever"
        return "this pass moved no card to the foundations: turned over, it would repeat forever"

    def _why_not_up(self, state: State, action: Action) -> str:
        card, target = action.get("card"), action.get("to")
        revealed = state.zones["revealed"].cards
        if state.options["reserve"] and card in state.zones["reserve"].cards:
            number = RANK_NAMES[rank(card)]
            return f"the reserved {card} cannot go up: release it onto a revealed {number} first"
        if not revealed:
            return "no card is revealed: reveal first"
        top = revealed[-1]
        if card != top:
            return f"only the top revealed card, {top}, is available"
        if target not in FOUNDATIONS:
            return f"'to' must be one of {', '.join(FOUNDATIONS)}"
        pile = state.zones[target].cards
        if not pile:
            return f"{target} is empty: only a 1 can start it"
        under = pile[-1]
        if rank(under) == 12:
            return f"{target} is complete"
        wanted = RANK_NAMES[NEXT_RANK[rank(under)]]
        if state.options["building"] == "same-suit":
            return f"{target} takes only the {wanted} de {SUIT_NAMES[suit(under)]} next"
        return f"{target} takes only a {wanted} of a suit other than {SUIT_NAMES[suit(under)]} next"

    # -- applying ----------------------------------------------------------------------
    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "reveal":
            events = self._reveal(state)
        elif kind == "play":
            events = self._play(state, action["card"], action["to"])
        elif kind == "renew":
            events = self._renew(state)
        elif kind == "reserve":
            state.move_top("revealed", "reserve")
            events = [event("reserved", seat=0, card=action["card"])]
        else:
            state.move_top("reserve", "revealed")
            events = [event("released", seat=0, card=action["card"])]
        state.data["last"] = kind
        return events + self._settle(state)

    def _reveal(self, state: State) -> list[Event]:
        stock, revealed = state.zones["stock"].cards, state.zones["revealed"].cards
        cards = [stock.pop() for _ in range(min(state.options["reveal"], len(stock)))]
        revealed.extend(cards)
        return [event("revealed", seat=0, cards=cards)]

    def _play(self, state: State, card: str, target: str) -> list[Event]:
        state.move_top("revealed", target)
        state.data["moved_this_pass"] += 1
        return [event("played", seat=0, card=card, to=target)]

    def _renew(self, state: State) -> list[Event]:
        data = state.data
        cards = state.zones["revealed"].cards
        cards.reverse()  # turned over: the first card revealed is the new top
        if self._shuffles(state):
            data["tokens"] -= 1
            state.shuffle(cards)
        state.zones["stock"].cards, state.zones["revealed"].cards = cards, []
        data["passes"] += 1
        data["moved_this_pass"] = 0
        data["movable_this_pass"] = False
        return [event("renewed", seat=0, shuffled=self._shuffles(state), tokens=data["tokens"])]

    def _settle(self, state: State) -> list[Event]:
        """End the match when it is won, or when no move is left (lost); note a playable card."""
        if self._is_won(state):
            return self._end(state, True, "all four suits are ordered from 1 to Rey")
        actions = self.legal_actions(state, 0)
        if any(a["type"] == "play" for a in actions):
            state.data["movable_this_pass"] = True
        stranded = not state.zones["stock"].cards and not self._may_renew(state)
        if not actions or (stranded and not state.options["play_out_without_renewal"]):
            return self._end(state, False, self._loss_reason(state))
        return []

    def _loss_reason(self, state: State) -> str:
        if state.zones["revealed"].cards:
            return self._why_no_renewal(state)
        return "only the reserved card is left, and it cannot go up directly"

    def _end(self, state: State, won: bool, reason: str) -> list[Event]:
        state.data["won"], state.data["reason"] = won, reason
        record_round(state, [self._cards_up(state)])
        finish(state, [0] if won else [])
        assert state.result is not None
        state.result.update(won=won, reason=reason)
        return [event("match_finished", won=won, reason=reason, result=state.result)]

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _cards_up(state: State) -> int:
        return sum(len(state.zones[name].cards) for name in FOUNDATIONS)

    def _is_won(self, state: State) -> bool:
        return self._cards_up(state) == len(FOUNDATIONS) * PILE_SIZE

    def view_fields(self, state: State, seat: int | None) -> dict:
        data = state.data
        return {
            "cards_up": self._cards_up(state),
            "passes": data["passes"],
            "moved_this_pass": data["moved_this_pass"],
            "tokens": data["tokens"],
            "won": data["won"],
            "reason": data["reason"],
        }


register(Solitario4Ases())
