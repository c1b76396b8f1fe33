"""Chinchón: a rummy game for 2 to 4 players with a 40-card Spanish deck (rules/chinchon.txt).

Draw from the stock or the discard pile, then discard or close. Cards group only in 3,
4 or 7 (sets of a number, runs of a suit following 1..7, sota, caballo, rey); closing
with a run of 7 (a chinchón) wins the match, all seven grouped scores +10, and a close
con resto (3 + 3 and a loose 1, 2 or 3) scores minus the loose card, after which the
others may lay off on the closer's groups of 3. +50 wins, -50 eliminates. Con comodín:
the 1 de oros and two jokers are wild. The groups come from ``shared.engine.kit.melds``.

Every decision where the text is silent or ambiguous is in docs/games/chinchon.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from shared.engine import (
    HIDDEN,
    JOKER,
    OWNER,
    PUBLIC,
    TOP,
    Action,
    Event,
    Game,
    GameData,
    Option,
    RulesChange,
    State,
    Variant,
    event,
    rank,
    record_round,
    register,
    spanish_deck,
)
from shared.engine.actions import CARD, ActionType, Field, choice
from shared.engine.kit import turns
from shared.engine.kit.ending import end_match
from shared.engine.kit.melds import Groups, Melds, arrangements, split
from shared.engine.kit.tables import SPANISH_FACE
from shared.engine.kit.zones import hand, hand_card_action, not_in_hand, seat_zone

HAND_SIZE = 7
CHINCHON_SIZE = 7
ALL_GROUPED_POINTS = 10
RESTO_MAX = 3  # the loose card of a close con resto is a 1, 2 or 3
SEQUENCE = "spanish-sequence-40"  # 7 -> Sota
ONE_OF_OROS = "1O"
CLOSE_RANK = {"chinchon": 0, "grouped": 1, "resto": 2}  # which close is best, lower first
NATURAL = Melds(SEQUENCE, set_sizes=(3, 4), run_sizes=(3, 4, CHINCHON_SIZE))


class Rules(Melds):
    """The grouping rules of one match, read from its options: sets of 3-4, runs of 3, 4 or 7."""

    __slots__ = ("wild_value",)

    def __init__(self, options: dict, natural_one: bool):
        wilds = ([ONE_OF_OROS] if options["wild_one_of_oros"] else []) + (
            [JOKER] if options["jokers"] else []
        )
        super().__init__(
            SEQUENCE, (3, 4), (3, 4, CHINCHON_SIZE), wilds, options["wilds_per_group"], natural_one
        )
        self.wild_value = options["wild_value"]

    def value(self, card: str) -> int:
        """Points a loose card costs."""
        return self.wild_value if card in self.wilds else SPANISH_FACE[rank(card)]

    def best_grouping(  # type: ignore[override]
        self, hand: Sequence[str], value: object = None
    ) -> tuple[Groups, list[str]]:
        """The groups that leave the fewest points loose, and the loose cards."""
        return super().best_grouping(hand, self.value)

    def best_closes(self, hand: Sequence[str], resto_allowed: bool) -> dict[str, Groups]:
        """For each card that can be discarded to close, the best groups for the other 7."""
        best: dict[str, tuple[tuple[int, int], Groups]] = {}
        # a close groups all but one or two cards: most hands are far from it
        for arrangement in arrangements(self.group_masks(hand, len(hand) - 2), 2):
            groups, rest = split(hand, arrangement)
            if len(rest) == 1:
                options = [(rest[0], (CLOSE_RANK[self.close_kind(groups)], 0))]
            elif len(rest) == 2 and resto_allowed:
                options = [
                    (rest[i], (CLOSE_RANK["resto"], self.value(rest[1 - i])))
                    for i in (0, 1)
                    if self.value(rest[1 - i]) <= RESTO_MAX
                ]
            else:
                continue
            for discard, score in options:
                if discard not in best or score < best[discard][0]:
                    best[discard] = (score, groups)
        return {card: groups for card, (_score, groups) in best.items()}

    @staticmethod
    def close_kind(groups: Groups) -> str:
        """chinchon, grouped or resto, from the declared groups (already checked legal)."""
        if len(groups) == 1:
            return "chinchon" if NATURAL.is_group(groups[0]) else "grouped"
        return "grouped" if sum(map(len, groups)) == HAND_SIZE else "resto"


_RULES: dict[tuple, Rules] = {}


@dataclass
class ChinchonData(GameData):
    direction: int = 1  # kept for stored states; the direction is read from the options
    dealer: int = 0
    eliminated: list[int] = field(default_factory=list)
    plus: list[int] = field(default_factory=list)  # positive points per seat (ledger separate)
    minus: list[int] = field(default_factory=list)  # negative points per seat
    turns: int = 0  # turns completed in this hand
    restocks: int = 0
    closer: int | None = None
    close_kind: str | None = None
    melds: list[list[str]] = field(default_factory=list)  # the closer's declared groups
    loose: list[str] = field(default_factory=list)  # the closer's loose card
    laid_off: list[dict] = field(default_factory=list)


class Chinchon(Game):
    id = "chinchon"
    name = "Chinchón"
    rules_file = "chinchon.txt"
    players = (2, 4)
    data_type = ChinchonData
    options = {
        "ledger": Option(
            "net", "one net score, or separate positive and negative tallies", ("net", "separate")
        ),
        "win_points": Option(50, "positive points that win the match", minimum=1, maximum=1000),
        "lose_points": Option(50, "negative points that eliminate", minimum=1, maximum=1000),
        "wild_one_of_oros": Option(False, "the 1 de oros is a wild card (comodín)"),
        "jokers": Option(0, "jokers added to the deck, always wild", minimum=0, maximum=2),
        "wilds_per_group": Option(1, "most wild cards in one group", minimum=1, maximum=3),
        "wild_value": Option(25, "points a wild card left loose costs", minimum=0, maximum=100),
        "natural_one_of_oros": Option(
            True,
            "the wild 1 de oros in its own place (a 1 of a set, the 1 of an oros run) is natural:"
            " it is not one of the group's wilds",
            since=2,
        ),
        "direction": turns.DIRECTION,
        "max_restocks": Option(
            10,
            "restocks in a hand; when the stock runs out once more, the hand ends with no close "
            "and every player scores their loose cards",
            minimum=0,
            maximum=1000,
        ),
    }
    rules_version = 2
    changes = (
        RulesChange(
            2,
            "the wild 1 de oros in its own place is natural (before: always one of the wilds, so"
            " [1O, 2O, 3O, JK] and [1O, 1C, 1E, JK] were refused with one wild a group)",
            before={"natural_one_of_oros": False},
        ),
    )
    variants = {
        "base": Variant(
            "base", "Chinchón: 40 cards, groups of 3, 4 or 7, +50 wins and -50 eliminates."
        ),
        "con-comodin": Variant(
            "con-comodin",
            "Con comodín: the 1 de oros and two jokers are wild; a chinchón with a wild is +10.",
            {"wild_one_of_oros": True, "jokers": 2},
        ),
    }

    def rules_of(self, state: State) -> Rules:
        """The match's grouping rules (one object per distinct set of grouping options)."""
        options, natural_one = state.options, self.option(state, "natural_one_of_oros")
        key = (
            options["wild_one_of_oros"], options["jokers"], options["wilds_per_group"],
            options["wild_value"], natural_one,
        )  # fmt: skip
        found = _RULES.get(key)
        if found is None:
            found = _RULES[key] = Rules(options, natural_one)
        return found

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40, jokers=state.options["jokers"])

    def setup(self, state: State) -> list[Event]:
        n, data = state.players, ChinchonData.of(state)
        data.direction = turns.direction(state)
        data.dealer = state.rng().randrange(n)
        data.eliminated, data.plus, data.minus = [], [0] * n, [0] * n
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        data = ChinchonData.of(state)
        cards = self.deck(state)
        state.shuffle(cards)
        for s in range(state.players):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("melds", s), s, PUBLIC)
        first = self._next_in(state, data.dealer)
        order = [first]
        while len(order) < state.players - len(data.eliminated):
            order.append(self._next_in(state, order[-1]))
        events = [event("deal", round=state.round, dealer=data.dealer, first=first)]
        for s in order:
            state.zones[hand(s)].cards = cards[:HAND_SIZE]
            del cards[:HAND_SIZE]
            events.append(event("dealt", seat=s, cards=list(state.cards(hand(s))), visible_to=[s]))
        state.zone("discard", None, TOP).cards = [cards.pop()]
        state.zone("stock", None, HIDDEN).cards = cards  # the top of the stock is the end
        state.zone("closing", None, HIDDEN)
        data.turns, data.restocks, data.closer, data.close_kind = 0, 0, None, None
        data.melds, data.loose, data.laid_off = [], [], []
        events.append(event("discard_started", card=state.cards("discard")[-1]))
        return events + self._start_turn(state, first)

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        data = ChinchonData.of(state)
        events = []
        if not state.cards("stock"):
            if data.restocks >= state.options["max_restocks"]:
                return [event("stock_exhausted", restocks=data.restocks)] + self._score_hand(state)
            data.restocks += 1
            pile = state.zones["discard"].cards
            stock, pile[:] = pile[:-1], pile[-1:]
            state.shuffle(stock)
            state.zones["stock"].cards = stock
            events.append(event("restocked", count=len(stock)))
        state.phase = "draw"
        state.to_act = [seat]
        return events

    # -- the action table --------------------------------------------------------------
    draw = ActionType(
        "draw",
        "take the top card of the stock or of the discard pile",
        phases=("draw",),
        source=choice("stock", "discard", description="the pile to draw from"),
    )
    discard = hand_card_action("discard", "discard a card face up", ("discard",))
    close = ActionType(
        "close",
        "discard a card face down and show the other 7 as the declared groups",
        phases=("discard",),
        discard=Field("card", "the card put face down"),
        groups=Field("card-groups", "the groups the other 7 cards form"),
    )
    lay_off = ActionType(
        "lay_off",
        "add a card to one of the closer's groups of 3, making a group of 4",
        phases=("soltar",),
        card=CARD,
        group=Field("int", "the index of the closer's group"),
    )
    done = ActionType("done", "stop laying off cards", phases=("soltar",))

    @draw.candidates
    def _draws(self, state: State, seat: int) -> list[Action]:
        return [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]

    @draw.enumerate
    def _legal_draws(self, state: State, seat: int) -> list[Action]:
        """Faster than filtering: a turn of the hot loop is a draw and a discard."""
        zones = state.zones
        return [{"type": "draw", "source": p} for p in ("stock", "discard") if zones[p].cards]

    @draw.refusal
    def _draw_refused(self, state: State, seat: int, action: Action) -> str | None:
        source = action["source"]
        return None if state.cards(source) else f"the {source} pile is empty"

    @draw.handler
    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        source = action["source"]
        card = state.move_top(source, hand(seat))
        state.phase = "discard"
        if source == "stock":
            return [event("drew", seat=seat, source=source, card=card, visible_to=[seat])]
        return [event("drew", seat=seat, source=source, card=card)]

    @discard.handler
    def _discard(self, state: State, seat: int, action: Action) -> list[Event]:
        state.move(action["card"], hand(seat), "discard")
        ChinchonData.of(state).turns += 1
        events = [event("discarded", seat=seat, card=action["card"])]
        return events + self._start_turn(state, self._next_in(state, seat))

    @close.candidates
    def _closes(self, state: State, seat: int) -> list[Action]:
        """One close per card that can be discarded to close, with the best groups for the
        other 7 (chinchón, then all grouped, then the lowest loose card)."""
        found = self.rules_of(state).best_closes(
            state.cards(hand(seat)), self._resto_allowed(state)
        )
        return [{"type": "close", "discard": c, "groups": g} for c, g in found.items()]

    close.enumerate(_closes)  # built legal: checking each close again would double the cost

    @close.refusal
    def _close_refused(self, state: State, seat: int, action: Action) -> str | None:
        cards, discard, groups = state.cards(hand(seat)), action["discard"], action["groups"]
        if discard not in cards:
            return f"card {discard} is not in your hand"
        shown = Counter(cards) - Counter([discard])
        if Counter(c for g in groups for c in g) - shown:
            return "the groups must use cards of your hand, each once, without the discarded card"
        rules = self.rules_of(state)
        for g in groups:
            if not rules.is_group(g):
                return f"{g} is not a group: sets of 3-4 of a number, runs of 3, 4 or 7 of a suit"
        sizes = sorted(map(len, groups))
        if sizes in ([3, 4], [7]):
            return None
        if sizes != [3, 3]:
            return (
                "to close, group all 7 cards (3 + 4 or 7), or two groups of 3 and one card of 1-3"
            )
        loose = next(iter((shown - Counter(c for g in groups for c in g)).elements()))
        worth = rules.value(loose)
        if worth > RESTO_MAX:
            return f"the loose card {loose} is worth {worth}: closing con resto needs a 1, 2 or 3"
        if not self._resto_allowed(state):
            return "closing con resto is allowed only once every player has played a turn"
        return None

    @close.handler
    def _close(self, state: State, seat: int, action: Action) -> list[Event]:
        discard, groups = action["discard"], action["groups"]
        data, rules = ChinchonData.of(state), self.rules_of(state)
        state.move(discard, hand(seat), "closing")
        held = state.zones[hand(seat)]
        loose = list((Counter(held.cards) - Counter(c for g in groups for c in g)).elements())
        state.zones[seat_zone("melds", seat)].cards = held.cards
        held.cards = []
        kind = rules.close_kind(groups)
        data.closer, data.close_kind = seat, kind
        data.melds, data.loose = [list(g) for g in groups], loose
        shown = [list(g) for g in groups]
        events = [
            event("closed", seat=seat, close=kind, groups=shown, loose=loose, card=discard,
                  visible_to=[seat])
        ]  # fmt: skip
        if kind != "resto":
            return events + self._score_hand(state)
        state.phase = "soltar"
        state.to_act = [s for s in self._seats_in(state) if s != seat]
        return events + self._after_soltar(state)

    @lay_off.candidates
    def _lay_off_candidates(self, state: State, seat: int) -> list[Action]:
        return [{"type": "lay_off", "card": c, "group": i} for c, i in self._lay_offs(state, seat)]

    @lay_off.refusal
    def _lay_off_refused(self, state: State, seat: int, action: Action) -> str | None:
        card, group = action["card"], action["group"]
        if missing := not_in_hand(state, seat, card):
            return missing
        melds = ChinchonData.of(state).melds
        if not 0 <= group < len(melds):
            return f"group must be the index of one of the closer's groups, 0 to {len(melds) - 1}"
        if group not in self._open_groups(state):
            return "only a group of 3 takes a card, to make a group of 4"
        if not self.rules_of(state).is_group(melds[group] + [card]):
            return f"{card} does not make {melds[group]} a group of 4"
        return None

    @lay_off.handler
    def _lay_off(self, state: State, seat: int, action: Action) -> list[Event]:
        card, group = action["card"], action["group"]
        data = ChinchonData.of(state)
        state.move(card, hand(seat), seat_zone("melds", data.closer))  # type: ignore[arg-type]
        data.melds[group].append(card)
        data.laid_off.append({"seat": seat, "card": card, "group": group})
        return [event("laid_off", seat=seat, card=card, group=group)] + self._after_soltar(state)

    @done.handler
    def _done(self, state: State, seat: int, action: Action) -> list[Event]:
        state.to_act.remove(seat)
        return [event("done", seat=seat)] + self._after_soltar(state)

    # -- the end of a hand -------------------------------------------------------------
    def _after_soltar(self, state: State) -> list[Event]:
        """Players with nothing left to lay off leave the phase; when nobody is left, score."""
        state.to_act = [s for s in state.to_act if self._can_lay_off(state, s)]
        return [] if state.to_act else self._score_hand(state)

    def _score_hand(self, state: State) -> list[Event]:
        data, rules, n = ChinchonData.of(state), self.rules_of(state), state.players
        closer, kind = data.closer, data.close_kind
        points = [0] * n
        if closer is not None:
            points[closer] = ALL_GROUPED_POINTS if kind == "grouped" else 0
            points[closer] -= sum(map(rules.value, data.loose))
        shown = []
        for s in self._seats_in(state):
            if s != closer:
                groups, loose = rules.best_grouping(state.cards(hand(s)))
                points[s] = -sum(map(rules.value, loose))
                shown.append({"seat": s, "groups": groups, "loose": loose})
        record_round(state, points)
        for s, p in enumerate(points):
            tally = data.plus if p > 0 else data.minus
            tally[s] += abs(p)
        events = [event("hand_scored", round=state.round, close=kind, closer=closer, points=points,
                        hands=shown)]  # fmt: skip
        return events + self._after_hand(state)

    def _after_hand(self, state: State) -> list[Event]:
        data = ChinchonData.of(state)
        still_in = self._seats_in(state)
        if data.close_kind == "chinchon":
            return end_match(state, [data.closer])  # type: ignore[list-item]
        winners = [s for s in still_in if self._has_won(state, s)]
        if winners:
            return end_match(state, winners)
        out = [s for s in still_in if self._is_out(state, s)]
        data.eliminated += out
        events = [event("eliminated", seat=s) for s in out]
        survivors = [s for s in still_in if s not in out]
        if len(survivors) <= 1:
            last = survivors or out
            best = max(state.scores[s] for s in last)
            return events + end_match(state, [s for s in last if state.scores[s] == best])
        state.round += 1
        data.dealer = self._next_in(state, data.dealer)
        return events + self._deal(state)

    # -- rules as questions ----------------------------------------------------------
    def _resto_allowed(self, state: State) -> bool:
        """Has every player still in played a turn this hand?"""
        return ChinchonData.of(state).turns >= len(self._seats_in(state))

    def _lay_offs(self, state: State, seat: int) -> Iterator[tuple[str, int]]:
        """(card, group) pairs where ``seat`` can make one of the closer's 3-groups a 4-group."""
        rules, melds = self.rules_of(state), ChinchonData.of(state).melds
        for i in self._open_groups(state):
            for card in dict.fromkeys(state.cards(hand(seat))):
                if rules.is_group(melds[i] + [card]):
                    yield card, i

    def _can_lay_off(self, state: State, seat: int) -> bool:
        return next(self._lay_offs(state, seat), None) is not None

    @staticmethod
    def _open_groups(state: State) -> list[int]:
        return [i for i, g in enumerate(ChinchonData.of(state).melds) if len(g) == 3]

    @staticmethod
    def _has_won(state: State, seat: int) -> bool:
        win = state.options["win_points"]
        if state.options["ledger"] == "separate":
            return ChinchonData.of(state).plus[seat] >= win
        return state.scores[seat] >= win

    @staticmethod
    def _is_out(state: State, seat: int) -> bool:
        lose = state.options["lose_points"]
        if state.options["ledger"] == "separate":
            return ChinchonData.of(state).minus[seat] >= lose
        return state.scores[seat] <= -lose

    @staticmethod
    def _seats_in(state: State) -> list[int]:
        out = ChinchonData.of(state).eliminated
        return [s for s in range(state.players) if s not in out]

    @staticmethod
    def _next_in(state: State, seat: int) -> int:
        """The next seat in the direction of play that is not eliminated."""
        return turns.next_seat(state, seat, skip=ChinchonData.of(state).eliminated)

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = ChinchonData.of(state)
        return {
            "dealer": data.dealer,
            "eliminated": list(data.eliminated),
            "turns": data.turns,
            "resto_allowed": self._resto_allowed(state),
            "closer": data.closer,
            "close_kind": data.close_kind,
            "melds": [list(g) for g in data.melds],
            "loose": list(data.loose),
            "laid_off": [dict(x) for x in data.laid_off],
            "plus": list(data.plus),
            "minus": list(data.minus),
        }


register(Chinchon())
