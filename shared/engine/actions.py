"""The declarative action table: every action type a game accepts, declared once.

A game declares each action type as a class attribute, with its fields and the phases
in which it exists, then gives it a refusal (the one source of legality), the candidates
worth checking, and a handler::

    class Raj(Game):
        bid = ActionType("bid", "commit one card of your hand, sealed", phases=("bid",), card=CARD)

        @bid.candidates
        def _bids(self, state, seat):
            return ({"type": "bid", "card": c} for c in state.cards(hand(seat)))

        @bid.refusal
        def _bid_refused(self, state, seat, action):
            return None if action["card"] in state.cards(hand(seat)) else "that card is not in your hand"

        @bid.handler
        def _bid(self, state, seat, action):
            ...  # only ever called with an action the refusal accepted

From the table the base ``Game`` derives ``legal_actions`` (the candidates the refusal
accepts) and ``refusal`` (why an action is illegal now, or None); it writes the unknown-type, wrong-phase and
bad-field messages once, for every game, and dispatches to the handler. Where listing
candidates and filtering them is slow, ``@bid.enumerate`` may list the legal actions
directly; the shared suite then checks that both ways agree. The catalog and the API
specs read the same table, so clients know every action type and its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .cards import CODES, are_cards, is_card
from .fields import CARD, CARD_PATTERN, CARDS, KIND_WORDS, SEAT, Field, choice
from .language import Message, Say  # noqa: F401 - Message: the refusals' type

if TYPE_CHECKING:
    from .state import State

Action = dict[str, Any]
Event = dict[str, Any]

NO_FIELD = Say(
    es="{type} no tiene el campo '{name}'; sus campos: {fields}",
    en="{type} has no field '{name}'; fields: {fields}",
)
NONE = Say(es="ninguno", en="none")
NEEDS_FIELD = Say(
    es="{type} necesita el campo '{name}' ({what})", en="{type} needs the field '{name}' ({what})"
)
NOT_IN_PHASE = Say(
    es="{type} no es posible en la fase '{phase}'; ahora es posible: {open}",
    en="{type} is not possible in phase '{phase}'; possible now: {open}",
)


__all__ = [
    "CARD",
    "CARDS",
    "CARD_PATTERN",
    "SEAT",
    "Action",
    "ActionType",
    "Event",
    "Field",
    "choice",
]

#: A refusal says why, in both languages: a ``Say`` or a ``Message`` (a ``Say`` with values,
#: itself a string: its English text); a plain string is the same in both.
Refusal = Callable[[Any, "State", int, Action], "str | Say | None"]
Candidates = Callable[[Any, "State", int], Iterable[Action]]
Handler = Callable[[Any, "State", int, Action], "list[Event]"]


class ActionType:
    """One action type of a game: its name, fields and phases, and the functions behind it.

    ``phases`` None means every phase of play. ``reflex``: a call a player may make at any
    moment and is penalised for unless a reaction window is open (a slap, an animal's
    sound); bots at a live table wait for the window instead (shared/bots/reflexes.py).
    The functions are set with the decorators ``candidates``, ``enumerate``, ``refusal``
    and ``handler`` on the game's methods.
    """

    def __init__(
        self,
        type: str,
        description: str,
        phases: tuple[str, ...] | None = None,
        *,
        reflex: bool = False,
        **fields: Field,
    ):
        self.type = type
        self.description = description
        self.phases = phases
        self.reflex = reflex
        self.fields = fields
        #: The one field is a required plain card: an action of two keys with a card code in
        #: ``card`` is well-formed (the refusal's fast path).
        self.card_only = list(fields) == ["card"] and fields["card"] == CARD
        self._candidates: Candidates | None = None
        self._enumerate: Candidates | None = None
        self._refusal: Refusal | None = None
        self._handler: Handler | None = None

    def __repr__(self) -> str:
        return f"ActionType({self.type!r})"

    # -- declaring the functions (decorators on the game's methods) ---------------------
    def candidates(self, fn: Candidates) -> Candidates:
        """Every well-formed action of this type worth checking (the refusal filters them).
        Not needed for an action type without fields: its one candidate is ``{"type": ...}``."""
        self._candidates = fn
        return fn

    def enumerate(self, fn: Candidates) -> Candidates:
        """The legal actions of this type listed directly, where that is faster than filtering:
        a new list each time (the caller keeps it), or any iterable."""
        self._enumerate = fn
        return fn

    def refusal(self, fn: Refusal) -> Refusal:
        """Why a well-formed action of this type is illegal now, or None: the one source of legality."""
        self._refusal = fn
        return fn

    def handler(self, fn: Handler) -> Handler:
        """Apply a legal action of this type in place and return its events."""
        self._handler = fn
        return fn

    # -- used by Game --------------------------------------------------------------------
    def open_in(self, phase: str) -> bool:
        return self.phases is None or phase in self.phases

    def refused(self, game: Any, state: State, seat: int, action: Action) -> str | Say | None:
        """Why ``action``, of this type, is illegal now, or None: phase and fields first, then
        the game's rule (``Game.refusal`` once the type is known; the core asks it directly)."""
        if self.phases is not None and state.phase not in self.phases:
            table = game.action_table.values()
            open_now = ", ".join(k.type for k in table if k.open_in(state.phase)) or "-"
            return NOT_IN_PHASE(type=self.type, phase=state.phase, open=open_now)
        if self.card_only and len(action) == 2 and type(card := action.get("card")) is str:
            # the commonest shape, one card, checked without the general walk
            problem = None if card in CODES else self.shape_problem(action, state.players)
        elif len(action) > 1 or self.fields:
            problem = self.shape_problem(action, state.players)
        else:
            problem = None
        if problem or self._refusal is None:
            return problem
        return self._refusal(game, state, seat, action)

    def shape_problem(self, action: Action, players: int) -> Message | None:
        """Unknown, missing or ill-typed fields, said once for every game."""
        fields = self.fields
        for name in action:
            if name != "type" and name not in fields:
                listed = str(sorted(fields)) if fields else NONE
                return NO_FIELD(type=self.type, name=name, fields=listed)
        for name, spec in fields.items():
            if name not in action:
                if spec.optional:
                    continue
                english, spanish = KIND_WORDS[spec.kind]
                what = Say(es=spanish, en=spec.description or english)
                return NEEDS_FIELD(type=self.type, name=name, what=what)
            value = action[name]
            # The commonest fields, a card, a list of cards (or of groups) or a string of fixed
            # choices, are accepted here without the general check (this runs for every action
            # applied).
            if spec.choices is None:
                kind = spec.kind
                if kind == "card" and is_card(value):
                    continue
                if kind == "cards" and type(value) is list and are_cards(value):
                    continue
                if (  # the rummy games' melds and closes
                    kind == "card-groups"
                    and type(value) is list
                    and all(type(g) is list and are_cards(g) for g in value)
                ):
                    continue
                if kind == "seat" and type(value) is int and 0 <= value < players:
                    continue
                if (
                    kind == "int"
                    and type(value) is int
                    and (spec.minimum is None or value >= spec.minimum)
                    and (spec.maximum is None or value <= spec.maximum)
                ):
                    continue
            elif spec.kind == "str" and isinstance(value, str) and value in spec.choices:
                continue
            problem = spec.problem(name, value, players)
            if problem:
                return problem
        return None

    def lister(self) -> Candidates:
        """The function listing this type's legal actions: the direct listing where there is
        one, else the candidates the refusal accepts (one action without fields: itself)."""
        if self._enumerate is not None:
            return self._enumerate
        refuse, candidates = self._refusal, self._candidates
        if candidates is None and not self.fields:
            one = {"type": self.type}
            if refuse is None:
                return lambda game, state, seat: [dict(one)]
            return lambda game, state, seat: (
                [dict(one)] if refuse(game, state, seat, one) is None else []
            )
        return self.filtered

    def legal(self, game: Any, state: State, seat: int) -> list[Action]:
        if self._enumerate is not None:
            return list(self._enumerate(game, state, seat))
        return self.filtered(game, state, seat)

    def candidate_list(self, game: Any, state: State, seat: int) -> Iterable[Action]:
        """The declared candidates; an action type without fields has one, ``{"type": ...}``."""
        if self._candidates is not None:
            return self._candidates(game, state, seat)
        if self.fields:
            raise TypeError(f"action {self.type} has fields but declares no candidates")
        return [{"type": self.type}]

    def filtered(self, game: Any, state: State, seat: int) -> list[Action]:
        """The candidates the refusal accepts (what ``enumerate`` must agree with)."""
        refuse = self._refusal
        return [
            a
            for a in self.candidate_list(game, state, seat)
            if refuse is None or refuse(game, state, seat, a) is None
        ]

    def describe(self) -> dict:
        """The catalog entry of this action type."""
        return {
            "type": self.type,
            "description": self.description,
            "phases": list(self.phases) if self.phases is not None else None,
            "fields": {name: spec.json_schema() for name, spec in self.fields.items()},
            "required": [name for name, spec in self.fields.items() if not spec.optional],
        }
