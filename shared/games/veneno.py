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

Rules version 2 (duplicate deals): every deal's chance is drawn from (seed, deal number,
draw within the deal) (``State.by_deal``), so deal k is the same cards for the same seat at
every table of a duplicate group whatever was played before; a new deal gathers the cards as
play left them and shuffles them from one order (sorted): a fresh shuffle of the same cards,
the same deal distribution.
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
    rank,
    record_round,
    register,
    spanish_deck,
    suit,
)
from shared.engine.actions import ActionType
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import CARD, CARDS, INT, INTS, SEAT, SUIT, Field, list_of, obj
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit.dealing import DEALT, deal_hands, gather_and_shuffle
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.shedding import DREW
from shared.engine.kit.table_facts import STOCK_LEFT
from shared.engine.kit.turns import DIRECTION, next_seat, seats_from
from shared.engine.kit.zones import hand, not_in_hand, seat_zone
from shared.engine.language import SPANISH_DECK, Message, Say, Words

COPAS = "C"
PILES = (0, 1, 2)
HAND_SIZE = 3
PILE_WORDS = Words(
    {
        0: ("el primer montón", "the first pile"),
        1: ("el segundo montón", "the second pile"),
        2: ("el tercer montón", "the third pile"),
    }
)
PILE_ZONES = tuple(f"pile:{i}" for i in PILES)  # the zone of each pile, named once
PILE = Field("int", "which pile: 0, 1 or 2", choices=PILES, words=PILE_WORDS)

# -- what the rules say to a player, in both languages -------------------------------------
HOME_PILE = Say(
    es="{card:cap} debe ir en {pile}, que ya tiene {suit}",
    en="{card:cap} must go on {pile}, which already holds {suit}",
)
START_EMPTY = Say(
    es="ningún montón tiene {suit}: {card} empieza un montón vacío (vacíos: {piles})",
    en="no pile holds {suit}: {card} starts an empty pile (empty: {piles})",
)
ON_COPAS = Say(
    es="ningún montón tiene {suit} y ninguno está vacío: {card} va en un montón solo de copas",
    en="no pile holds {suit} and none is empty: {card} goes on a pile of cups only",
)
ROUND_EACH = Say(
    es="{seat} {points:punto|puntos} (total {score})",
    en="{seat} {points:point|points} (total {score})",
)


def pile(index: int) -> str:
    return PILE_ZONES[index] if 0 <= index < len(PILE_ZONES) else f"pile:{index}"


def taken(seat: int) -> str:
    """The cards a seat has taken this round (public: each was seen on a pile)."""
    return seat_zone("taken", seat)


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
        **deals_by_number(since=2),
    }  # fmt: skip
    rules_version = 2
    changes = (deals_by_number_change(2),)
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

    deck_kind = SPANISH_DECK

    # -- the events ------------------------------------------------------------------
    round_started = EventType(
        "round_started",
        "a round is dealt: its number, its dealer, and who plays first (the dealer's left)",
        round=INT,
        dealer=SEAT,
        first=SEAT.about("who plays first"),
        says=Say(
            es="Ronda {round}: reparte {dealer}, empieza {first}",
            en="Round {round}: {dealer} deals, {first} starts",
        ),
    )
    dealt = DEALT
    drew = DREW
    played = EventType(
        "played",
        "a card played onto a pile, and the pile's total with it",
        seat=SEAT,
        card=CARD,
        pile=PILE,
        total=INT.about("what the pile adds up to now"),
        says=Say(
            es="{seat} juega {card} en {pile}, que suma {total}",
            en="{seat} plays {card} on {pile}, which adds up to {total}",
        ),
    )
    took = EventType(
        "took",
        "a pile reached the threshold: its player takes it, copas (the poison) included",
        seat=SEAT,
        pile=PILE,
        cards=CARDS.about("the pile's cards, the one just played included"),
        total=INT,
        copas=INT.about("the copas among them"),
        says=Say(
            es="{seat} se lleva {pile} ({total}) con {copas:copa|copas}",
            en="{seat} takes {pile} ({total}) with {copas:cup|cups}",
        ),
    )
    round_scored = EventType(
        "round_scored",
        "a round is over: each copa taken is a negative point (a full number may change it)",
        round=INT,
        points=INTS.about("per seat, its points this round"),
        copas=INTS.about("per seat, the copas it took this round"),
        full_numbers=list_of(INTS, "per seat, the numbers it took all four cards of"),
        scores=INTS.about("per seat, its total after the round"),
    )
    match_finished = MATCH_FINISHED

    @round_scored.sentence
    def _round_scored_said(self, event: Event) -> tuple[Say, dict]:
        each = [
            ROUND_EACH(seat=s, points=p, score=t)
            for s, (p, t) in enumerate(zip(event["points"], event["scores"], strict=True))
        ]
        return Say(es="Fin de la ronda {round}: {each}", en="Round {round} is over: {each}"), {
            "each": each
        }

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "pile_totals": INTS.about("per pile, what its cards add up to"),
        "pile_suits": list_of(
            list_of(SUIT), "per pile, the suits other than copas it holds (at most one)"
        ),
        "copas_taken": INTS.about("per seat, the copas it took this round"),
        "threshold": INT.about("a pile adding up to this or more is taken"),
        "dealer": SEAT,
        "last_take": obj(
            "the last pile taken this round: who took it, its cards and total",
            seat=SEAT,
            cards=CARDS,
            total=INT,
        ).or_null(),
    }

    # -- the facts ---------------------------------------------------------------------
    pile_total = FactType(
        "pile",
        "one pile (one fact per pile): what it adds up to",
        obj(pile=PILE, total=INT),
        label=Say(es="Montón", en="Pile"),
        says=Say(
            es="{value.pile:cap} suma {value.total}", en="{value.pile:cap} adds up to {value.total}"
        ),
    )
    threshold = FactType(
        "threshold",
        "a pile adding up to this or more goes to the player who made it",
        INT,
        label=Say(es="Se lleva con", en="Taken at"),
        says=Say(
            es="Un montón que suma {value} o más se lo lleva quien lo hizo",
            en="A pile of {value} or more goes to whoever made it",
        ),
    )
    stock_left = STOCK_LEFT
    limit = FactType(
        "limit",
        "the negative points that end the match",
        INT,
        label=Say(es="Límite", en="Limit"),
        says=Say(
            es="La partida acaba cuando alguien llega a -{value}",
            en="The match ends when someone reaches -{value}",
        ),
    )
    copas = FactType(
        "copas",
        "the copas a seat has taken this round (each a negative point)",
        INT,
        per_seat=True,
        label=Say(es="Copas", en="Cups"),
        says=Say(
            es="{seat} lleva {value:copa|copas} esta ronda",
            en="{seat} has taken {value:cup|cups} this round",
        ),
    )
    score = FactType(
        "score",
        "a seat's points over the rounds played (negative: the copas taken)",
        INT,
        per_seat=True,
        label=Say(es="Puntos", en="Points"),
        says=Say(es="{seat}: {value:punto|puntos}", en="{seat}: {value:point|points}"),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        n = state.players
        facts = [self.pile_total({"pile": i, "total": self._pile_total(state, i)}) for i in PILES]
        facts.append(self.threshold(state.options["threshold"]))
        facts.append(self.stock_left(len(state.cards("stock"))))
        facts.append(self.limit(state.options["limit"]))
        for s in range(n):
            taken_copas = sum(1 for c in state.cards(taken(s)) if suit(c) == COPAS)
            facts.append(self.copas(taken_copas, s))
        facts.extend(self.score(state.scores[s], s) for s in range(n))
        return facts

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
        events = [self.round_started(round=state.round, dealer=dealer, first=first)]
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

    @play.enumerate
    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        """Each card of the hand on the piles it may go on (copas on any, another suit on the
        pile of its suit, else on an open pile), in the candidates' order."""
        homes: dict[str, list[int]] = {COPAS: list(PILES)}
        plays: list[Action] = []
        on_piles = self._suits_on_piles(state)
        for c in state.cards(hand(seat)):
            letter = suit(c)
            piles = homes.get(letter)
            if piles is None:
                home = self._pile_of_suit(state, letter, on_piles)
                piles = homes[letter] = (
                    [home] if home is not None else self._open_piles(state, on_piles)
                )
            plays.extend({"type": "play", "card": c, "pile": i} for i in piles)
        return plays

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> Message | None:
        card, index = action["card"], action["pile"]
        if missing := not_in_hand(state, seat, card):
            return missing
        if suit(card) == COPAS:
            return None
        on_piles = self._suits_on_piles(state)
        home = self._pile_of_suit(state, suit(card), on_piles)
        if home is not None:
            if home == index:
                return None
            return HOME_PILE(card=card, pile=PILE_WORDS[home], suit=suit(card))
        if index in self._open_piles(state, on_piles):
            return None
        empty = [PILE_WORDS[i] for i in PILES if not state.cards(pile(i))]
        if empty:
            return START_EMPTY(suit=suit(card), card=card, piles=empty)
        return ON_COPAS(suit=suit(card), card=card)

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card, index = action["card"], action["pile"]
        state.move(card, hand(seat), pile(index))
        value = self._pile_total(state, index)
        events = [self.played(seat=seat, card=card, pile=index, total=value)]
        if value >= state.options["threshold"]:
            cards = list(state.cards(pile(index)))
            state.zones[taken(seat)].cards.extend(cards)
            state.cards(pile(index)).clear()
            copas = sum(1 for c in cards if suit(c) == COPAS)
            VenenoData.of(state).last_take = {"seat": seat, "cards": cards, "total": value}
            events.append(self.took(seat=seat, pile=index, cards=cards, total=value, copas=copas))
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
                return [self.drew(seat=s, card=card, visible_to=[s])]
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
            self.round_scored(round=state.round, points=line, copas=copas,
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
    def _suits_on_piles(state: State) -> list[set[str]]:
        """The suits on each pile (none: the pile is empty), found once for a listing."""
        return [{suit(c) for c in state.zones[z].cards} for z in PILE_ZONES]

    @staticmethod
    def _pile_of_suit(
        state: State, letter: str, on_piles: list[set[str]] | None = None
    ) -> int | None:
        """The pile that holds cards of a suit other than copas (at most one pile does)."""
        for i, suits in enumerate(Veneno._suits_on_piles(state) if on_piles is None else on_piles):
            if letter in suits:
                return i
        return None

    @staticmethod
    def _open_piles(state: State, on_piles: list[set[str]] | None = None) -> list[int]:
        """Piles that may take the first card of a suit no pile holds: the empty ones, and
        the piles of copas only when no pile is empty (or always, by option)."""
        if on_piles is None:
            on_piles = Veneno._suits_on_piles(state)
        empty = [i for i, suits in enumerate(on_piles) if not suits]
        only_copas = [i for i, suits in enumerate(on_piles) if suits == {COPAS}]
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
