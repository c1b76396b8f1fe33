"""Veneno (rules/veneno.txt): avoid taking the copas, the poison. 48-card Spanish deck.

Each player holds 3 cards. On a turn a player first draws the top card of the stock,
then plays one card onto one of three piles in the middle: a card of oros, espadas or
bastos goes on the pile that already holds its suit, or starts an empty pile; a copa may
go on any pile. If the pile then adds up to 13 or more (numbers at face value, figures
4), the player takes the whole pile, the card just played included. When the stock and
the hands are empty the round is scored: every copa taken is a negative point. Rounds
go on until someone reaches 20 negative points; the fewest negatives wins.

Variants: ``mazo-reducido`` (40 cards, figures worth 2, taking at 12) and
``copas-sin-veneno`` (a player who took all four cards of a number scores that copa as
+2 instead of -1).

Every decision where the text is silent is in docs/games/veneno.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
    Action,
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
    suit,
)
from shared.engine.actions import CARD, ActionType, Field
from shared.engine.kit.dealing import deal_hands, gather_and_shuffle
from shared.engine.kit.ending import end_match, highest
from shared.engine.kit.turns import DIRECTION, next_seat, seats_from
from shared.engine.kit.zones import hand, not_in_hand, seat_zone

COPAS = "C"
PILES = (0, 1, 2)
HAND_SIZE = 3
SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
RANK_NAMES = {**{r: str(r) for r in range(1, 10)}, 10: "Sota", 11: "Caballo", 12: "Rey"}


def pile(index: int) -> str:
    return f"pile:{index}"


def taken(seat: int) -> str:
    """The cards a seat has taken this round (public: each was seen on a pile)."""
    return seat_zone("taken", seat)


def card_name(card: str) -> str:
    return f"{RANK_NAMES[rank(card)]} de {SUIT_NAMES[suit(card)]}"


def card_value(card: str, figure_value: int) -> int:
    r = rank(card)
    return r if r <= 9 else figure_value


def round_points(cards: list[str], quartets: str) -> tuple[int, list[int]]:
    """A round's points from the cards a seat took, and the numbers it has all four of.

    ``quartets``: ``off`` (every copa is -1), ``that-copa`` (the copa of a number whose four
    cards were all taken is +2 instead of -1), ``all-copas`` (any full number cancels every
    copa of the round and scores +2 per full number).
    """
    copas = [c for c in cards if suit(c) == COPAS]
    counts = Counter(rank(c) for c in cards)
    full = sorted(r for r, n in counts.items() if n == 4)
    if quartets == "that-copa":
        return sum(2 if rank(c) in full else -1 for c in copas), full
    if quartets == "all-copas" and full:
        return 2 * len(full), full
    return -len(copas), full if quartets != "off" else []


@dataclass
class VenenoData(GameData):
    dealer: int = 0  # the round's dealer; the player to the left plays first
    last_take: dict | None = None  # the last pile taken: seat, cards, total


class Veneno(Game):
    id = "veneno"
    name = "Veneno"
    rules_file = "veneno.txt"
    players = (2, 8)
    data_type = VenenoData
    options = {
        "direction": DIRECTION,
        "deck_size": Option(48, "Spanish deck of 48 or 40 cards (no 8s and 9s)", choices=(48, 40)),
        "figure_value": Option(4, "what a Sota, Caballo or Rey adds to a pile", minimum=0,
                               maximum=20),
        "threshold": Option(13, "a pile adding up to this or more is taken", minimum=1,
                            maximum=200),
        "limit": Option(20, "negative points that end the match", minimum=1, maximum=1000),
        "quartets": Option(
            "off",
            "all four cards of a number taken: off; that-copa (+2 instead of -1); "
            "all-copas (no copa counts, +2 per number)",
            choices=("off", "that-copa", "all-copas"),
        ),
        "copas_pile": Option(
            "when-no-pile-is-empty",
            "when a pile holding only copas may take the first card of another suit",
            choices=("when-no-pile-is-empty", "always"),
        ),
    }  # fmt: skip
    variants = {
        "base": Variant("base", "Veneno: 48 cards, figures 4, a pile of 13 or more is taken."),
        "mazo-reducido": Variant(
            "mazo-reducido", "40 cards (no 8s and 9s), figures worth 2, a pile of 12 is taken.",
            {"deck_size": 40, "figure_value": 2, "threshold": 12},
        ),
        "copas-sin-veneno": Variant(
            "copas-sin-veneno",
            "All four cards of a number taken: that copa scores +2 instead of -1.",
            {"quartets": "that-copa"},
        ),
    }  # fmt: skip

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(state.options["deck_size"])

    def setup(self, state: State) -> list[Event]:
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            state.zone(taken(s), s, PUBLIC)
        for i in PILES:
            state.zone(pile(i), None, PUBLIC)
        state.zone("discard", None, PUBLIC)
        state.zone("stock", None, HIDDEN).cards = self.deck(state)
        VenenoData.of(state).dealer = state.rng().randrange(state.players)
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        """Collect and shuffle every card, deal 3 to each player; the dealer's left plays first."""
        gather_and_shuffle(state)
        dealer = VenenoData.of(state).dealer
        first = next_seat(state, dealer)
        state.phase = "play"
        events = [event("round_started", round=state.round, dealer=dealer, first=first)]
        events += deal_hands(state, seats_from(state, first), HAND_SIZE)
        return events + self._turn(state, first)

    # -- the action table --------------------------------------------------------------
    play = ActionType(
        "play", "play a card of your hand onto a pile (0, 1 or 2)", phases=("play",),
        card=CARD, pile=Field("int", "which pile: 0, 1 or 2", choices=PILES),
    )  # fmt: skip

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return [
            {"type": "play", "card": c, "pile": i} for c in state.cards(hand(seat)) for i in PILES
        ]

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> str | None:
        card, index = action["card"], action["pile"]
        if missing := not_in_hand(state, seat, card):
            return missing
        if suit(card) == COPAS:
            return None
        name = f"the {card_name(card)}"
        home = self._pile_of_suit(state, suit(card))
        if home is not None:
            if home == index:
                return None
            return f"{name} must go on pile {home}, which already holds {SUIT_NAMES[suit(card)]}"
        if index in self._open_piles(state):
            return None
        empty = [i for i in PILES if not state.cards(pile(i))]
        if empty:
            piles = " or ".join(str(i) for i in empty)
            return f"no pile holds {SUIT_NAMES[suit(card)]}: {name} starts an empty pile ({piles})"
        return f"no pile holds {SUIT_NAMES[suit(card)]} and none is empty: {name} goes on a pile of copas only"

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card, index = action["card"], action["pile"]
        state.move(card, hand(seat), pile(index))
        value = self._pile_total(state, index)
        events = [event("played", seat=seat, card=card, pile=index, total=value)]
        if value >= state.options["threshold"]:
            cards = list(state.cards(pile(index)))
            state.zones[taken(seat)].cards.extend(cards)
            state.cards(pile(index)).clear()
            copas = sum(1 for c in cards if suit(c) == COPAS)
            VenenoData.of(state).last_take = {"seat": seat, "cards": cards, "total": value}
            events.append(
                event("took", seat=seat, pile=index, cards=cards, total=value, copas=copas)
            )
        return events + self._turn(state, next_seat(state, seat))

    # -- turns and rounds ----------------------------------------------------------------
    def _turn(self, state: State, seat: int) -> list[Event]:
        """Start the turn of the first seat from ``seat`` with cards to play: it draws first."""
        stock = state.cards("stock")
        for s in seats_from(state, seat):
            if stock or state.cards(hand(s)):
                state.to_act = [s]
                if not stock:
                    return []
                card = state.move_top("stock", hand(s))
                return [event("drew", seat=s, card=card, visible_to=[s])]
        return self._score(state)

    def _score(self, state: State) -> list[Event]:
        """The round is over: leftover piles are discarded, each copa taken is a negative point."""
        for i in PILES:
            state.zones["discard"].cards.extend(state.cards(pile(i)))
            state.cards(pile(i)).clear()
        line, full_numbers, copas = [], [], []
        for s in range(state.players):
            cards = state.cards(taken(s))
            points, full = round_points(cards, state.options["quartets"])
            line.append(points)
            full_numbers.append(full)
            copas.append(sum(1 for c in cards if suit(c) == COPAS))
        record_round(state, line)
        events = [
            event("round_scored", round=state.round, points=line, copas=copas,
                  full_numbers=full_numbers, scores=list(state.scores)),
        ]  # fmt: skip
        if min(state.scores) <= -state.options["limit"]:
            return events + end_match(state, highest(state.scores))
        state.round += 1
        data = VenenoData.of(state)
        data.dealer, data.last_take = next_seat(state, data.dealer), None
        return events + self._deal(state)

    # -- rules as questions -------------------------------------------------------------
    def _pile_total(self, state: State, index: int) -> int:
        figure = state.options["figure_value"]
        return sum(card_value(c, figure) for c in state.cards(pile(index)))

    @staticmethod
    def _pile_of_suit(state: State, letter: str) -> int | None:
        """The pile that holds cards of a suit other than copas (at most one pile does)."""
        for i in PILES:
            if any(suit(c) == letter for c in state.cards(pile(i))):
                return i
        return None

    @staticmethod
    def _open_piles(state: State) -> list[int]:
        """Piles that may take the first card of a suit no pile holds: the empty ones, and
        the piles of copas only when no pile is empty (or always, by option)."""
        empty = [i for i in PILES if not state.cards(pile(i))]
        only_copas = [
            i
            for i in PILES
            if state.cards(pile(i)) and all(suit(c) == COPAS for c in state.cards(pile(i)))
        ]
        if state.options["copas_pile"] == "always":
            return sorted(empty + only_copas)
        return empty or only_copas

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = VenenoData.of(state)
        return {
            "pile_totals": [self._pile_total(state, i) for i in PILES],
            "pile_suits": [
                sorted({suit(c) for c in state.cards(pile(i)) if suit(c) != COPAS}) for i in PILES
            ],
            "copas_taken": [
                sum(1 for c in state.cards(taken(s)) if suit(c) == COPAS)
                for s in range(state.players)
            ],
            "threshold": state.options["threshold"],
            "dealer": data.dealer,
            "last_take": dict(data.last_take) if data.last_take else None,
        }


register(Veneno())
