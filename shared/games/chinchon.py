"""Chinchón (rules/chinchon.txt, RULINGS.md 2.5).

A rummy game for 2 to 4 players with a 40-card Spanish deck, 7 cards each and
one card face up to start the discard pile. A turn is: draw the top card of the
stock or of the discard pile, then discard face up, or close. Cards are grouped
only in 3, 4 or 7: sets of 3 or 4 of a number; runs of 3 or 4 consecutive cards
of a suit; a run of all 7 is a chinchón. A run of 5 or 6 is not a group (the
text's 2-3-4-5-6 de copas groups as 4-5-6 leaving 2 and 3, or 3-4-5-6 leaving 2).
Runs follow 1..7, Sota, Caballo, Rey (7 -> Sota is consecutive) and never wrap.

Closing means discarding the 8th card face down and showing the other 7:
* chinchón (7 consecutive cards of a suit): the closer wins the match;
* all 7 grouped (3 + 4): the closer scores +10;
* con resto (3 + 3 and a loose card worth 1, 2 or 3): the closer scores minus
  that card, and only once every player still in has played a turn this hand.
After a close con resto the others may "soltar cartas": add a card to one of the
closer's 3-groups to make a valid 4-group. Every other player then scores minus
the value of the cards they could not group (1-7 face value, figures 10).
Reaching +50 wins; reaching -50 eliminates; the last player left wins.

Actions:
* ``{"type": "draw", "source": "stock" | "discard"}``;
* ``{"type": "discard", "card": c}``;
* ``{"type": "close", "discard": c, "groups": [[...], [...]]}``: the closer's own
  arrangement of the other 7 cards, checked in ``is_legal``; ``legal_actions``
  lists one close per possible discard, with the best arrangement (chinchón,
  then all grouped, then the lowest loose card). The declared groups decide the
  kind of close and are the groups the others may lay off on;
* ``{"type": "lay_off", "card": c, "group": i}`` and ``{"type": "done"}`` while
  cards are laid off.

Decisions where the text is silent or ambiguous (options with the RULINGS default):
* Score ledger: one net score (``ledger = "net"``): >= ``win_points`` (50) wins,
  <= -``lose_points`` (-50) eliminates. ``ledger = "separate"`` keeps positive and
  negative tallies apart: 50 positive points win, 50 negative points eliminate.
* Only the closer can gain points, so at most one player reaches +50 in a hand; a
  win there ends the match even if others were eliminated by the same hand. If
  every player still in is eliminated by one hand, the best score among them
  wins (ties shared). Eliminated players are dealt no more cards and are skipped.
* The "one turn each" condition for con resto counts completed turns in the hand:
  with n players still in, closing con resto is legal from the (n+1)-th turn on.
  Chinchón and all-grouped closes may happen on any turn.
* A chinchón ends the match at once; the hand is still written on the score
  sheet (0 for the closer, the others' loose cards as usual).
* Soltar cartas: every other player still in acts at once (``to_act``), in any
  order; a 3-group that someone has made a 4-group takes no more cards (a group
  has at most 4), so the first to lay off on it takes it. A player sends ``done``
  when finished; a player with nothing left to lay off leaves the phase on their
  own. After an all-grouped close nobody lays off.
* The players who did not close do not declare groups: the engine takes the
  arrangement of their remaining cards that leaves the fewest points loose,
  which is what every player wants. All hands are shown in the ``hand_scored`` event.
* Taking the top of the discard pile and discarding the same card is allowed.
* Restock: when a turn starts with an empty stock, the discard pile but its top
  card is shuffled into a new stock (at most 28 cards are in hands, so there is
  always enough to restock).
* Bound (``max_restocks``, 10): the text restocks forever, and random play can go
  tens of thousands of turns without a close. When the stock runs out after 10
  restocks in one hand (over 100 turns each with two players, about 30 with four),
  the hand ends without a close: every player scores minus their loose cards, as
  those who did not close always do (``stock_exhausted`` event). A void hand
  would not do: the match could still only end through closes.
* First dealer by chance; the first player sits to the dealer's left and the deal
  rotates left. Play is clockwise as the text says (``direction`` option).
* The closer's face-down card lies in the hidden zone ``closing``; the 7 shown
  cards, and the cards laid off on them, lie face up in ``melds:<closer>``.

Con comodín: the 1 de oros is wild (``wild_one_of_oros``), plus ``jokers`` (0-2,
default 2: the text names two) that are always wild. A wild stands for whatever
card makes its group valid. Where the text is silent the standard rules apply:
at most ``wilds_per_group`` (1, es.wikipedia "con un solo comodín") wilds in a
group, and a wild left loose counts ``wild_value`` (25, cccj.es), so it is never
the loose card of a close con resto. A chinchón that needs a wild only counts as
all grouped (+10); the 1 de oros in its own place (1-7 de oros) is not "used" as
a wild, so that run is a real chinchón.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from shared.engine import (
    HIDDEN,
    JOKER,
    OWNER,
    PUBLIC,
    TOP,
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

HAND_SIZE = 7
GROUP_SIZES = (3, 4, 7)  # never 5 or 6
CHINCHON_SIZE = 7
ALL_GROUPED_POINTS = 10
RESTO_MAX = 3  # the loose card of a close con resto is a 1, 2 or 3
SEQUENCE = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 10: 7, 11: 8, 12: 9}  # 7 -> Sota
FACE_VALUE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 10, 11: 10, 12: 10}
ONE_OF_OROS = "1O"
CARD_KEYS = {c: (rank(c), suit(c), SEQUENCE.get(rank(c), -99)) for c in spanish_deck(40, jokers=1)}
CLOSE_RANK = {"chinchon": 0, "grouped": 1, "resto": 2}  # which close is best, lower first
ACTIONS = {  # action type -> (the phase it belongs to, its fields)
    "draw": ("draw", {"source"}),
    "discard": ("discard", {"card"}),
    "close": ("discard", {"discard", "groups"}),
    "lay_off": ("soltar", {"card", "group"}),
    "done": ("soltar", set()),
}
PHASE_HINTS = {
    "draw": "draw a card first, from the stock or the discard pile",
    "discard": "you have drawn: discard a card or close",
    "soltar": "the hand is closed: lay off a card on the closer's groups or say done",
}
Groups = list[list[str]]


class Rules:
    """The grouping rules of one match, read once from its options."""

    __slots__ = ("wilds", "per_group", "wild_value")

    def __init__(self, options: dict):
        self.wilds = frozenset(
            ([ONE_OF_OROS] if options["wild_one_of_oros"] else [])
            + ([JOKER] if options["jokers"] else [])
        )
        self.per_group = options["wilds_per_group"]
        self.wild_value = options["wild_value"]

    def value(self, card: str) -> int:
        """Points a loose card costs."""
        return self.wild_value if card in self.wilds else FACE_VALUE[rank(card)]

    def is_group(self, cards: Sequence[str]) -> bool:
        """Whether the cards form one legal group: a set of 3-4, a run of 3, 4 or 7."""
        return is_group(cards, self.wilds, self.per_group)

    def group_masks(self, hand: Sequence[str]) -> list[int]:
        """Every legal group among the cards of ``hand``, as bit masks of positions.

        Fast path for the hot loop: two cards can share a group of 3 or 4 only if one
        is wild, or they have the same number, or the same suit at most 3 steps apart;
        every group of 4 or 7 holds a group of 3, so there is nothing more to look for
        where no group of 3 is found, and groups of 4 grow from groups of 3.
        """
        n, wild = len(hand), [c in self.wilds for c in hand]
        keys = [CARD_KEYS[c] for c in hand]
        fits = [0] * n  # fits[i]: the cards that may share a group of 3-4 with card i
        for i in range(n):
            ri, si, qi = keys[i]
            for j in range(i + 1, n):
                rj, sj, qj = keys[j]
                if wild[i] or wild[j] or ri == rj or (si == sj and abs(qi - qj) <= 3):
                    fits[i] |= 1 << j
                    fits[j] |= 1 << i
        found = set()
        for i, j, k in combinations(range(n), 3):
            if not (fits[i] >> j & fits[i] >> k & fits[j] >> k & 1):
                continue
            if not self.is_group((hand[i], hand[j], hand[k])):
                continue
            three = 1 << i | 1 << j | 1 << k
            found.add(three)
            common = fits[i] & fits[j] & fits[k]
            for m in range(n):
                if common >> m & 1 and self.is_group((hand[i], hand[j], hand[k], hand[m])):
                    found.add(three | 1 << m)
        if n >= CHINCHON_SIZE and found:  # a run of 7 holds runs of 3
            for combo in combinations(range(n), CHINCHON_SIZE):
                if self.is_group([hand[i] for i in combo]):
                    found.add(sum(1 << i for i in combo))
        return sorted(found)

    def best_grouping(self, hand: Sequence[str]) -> tuple[Groups, list[str]]:
        """The groups that leave the fewest points loose, and the loose cards."""
        best: tuple[int, Groups, list[str]] = (sum(map(self.value, hand)), [], list(hand))
        for arrangement in arrangements(self.group_masks(hand)):
            groups, rest = split(hand, arrangement)
            points = sum(map(self.value, rest))
            if points < best[0]:
                best = (points, groups, rest)
        return best[1], best[2]

    def best_closes(self, hand: Sequence[str], resto_allowed: bool) -> dict[str, Groups]:
        """For each card that can be discarded to close, the best groups for the other 7."""
        best: dict[str, tuple[tuple[int, int], Groups]] = {}
        for arrangement in arrangements(self.group_masks(hand)):
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
            return "chinchon" if is_group(groups[0], frozenset(), 0) else "grouped"
        return "grouped" if sum(map(len, groups)) == HAND_SIZE else "resto"


def is_group(cards: Sequence[str], wilds: frozenset[str], per_group: int) -> bool:
    """Whether ``cards`` form one group, each of the ``wilds`` standing for any card."""
    size = len(cards)
    if size not in GROUP_SIZES:
        return False
    naturals = [c for c in cards if c not in wilds]
    if size - len(naturals) > per_group or JOKER in naturals:
        return False
    if not naturals:
        return True
    keys = [CARD_KEYS[c] for c in naturals]
    first, kind = keys[0][0], keys[0][1]
    if size <= 4 and all(k[0] == first for k in keys):
        return True  # a set (one deck: equal ranks are different suits)
    if any(k[1] != kind for k in keys):
        return False
    steps = sorted(k[2] for k in keys)
    distinct = all(a < b for a, b in zip(steps, steps[1:], strict=False))
    return distinct and steps[-1] - steps[0] < size  # wilds fill the gaps and the ends


def arrangements(masks: list[int]) -> Iterator[tuple[int, ...]]:
    """One or two disjoint groups (8 cards cannot hold three groups)."""
    for i, first in enumerate(masks):
        yield (first,)
        for second in masks[i + 1 :]:
            if not first & second:
                yield (first, second)


def split(hand: Sequence[str], arrangement: tuple[int, ...]) -> tuple[Groups, list[str]]:
    groups = [[c for i, c in enumerate(hand) if mask >> i & 1] for mask in arrangement]
    used = sum(arrangement)
    return groups, [c for i, c in enumerate(hand) if not used >> i & 1]


class Chinchon(Game):
    id = "chinchon"
    name = "Chinchón"
    rules_file = "chinchon.txt"
    players = (2, 4)
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
        "direction": Option("clockwise", "direction of play", ("clockwise", "counterclockwise")),
        "max_restocks": Option(
            10,
            "restocks in a hand; when the stock runs out once more, the hand ends with no close "
            "and every player scores their loose cards",
            minimum=0,
            maximum=1000,
        ),
    }
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

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40, jokers=state.options["jokers"])

    def setup(self, state: State) -> list[Event]:
        n = state.players
        state.data.update(
            direction=1 if state.options["direction"] == "clockwise" else -1,
            dealer=state.rng().randrange(n),
            eliminated=[],
            plus=[0] * n,
            minus=[0] * n,
        )
        return self._deal(state)

    def _deal(self, state: State) -> list[Event]:
        data = state.data
        cards = self.deck(state)
        state.shuffle(cards)
        for s in range(state.players):
            state.zone(f"hand:{s}", s, OWNER)
            state.zone(f"melds:{s}", s, PUBLIC)
        first = self._next_in(state, data["dealer"])
        order = [first]
        while len(order) < state.players - len(data["eliminated"]):
            order.append(self._next_in(state, order[-1]))
        events = [event("deal", round=state.round, dealer=data["dealer"], first=first)]
        for s in order:
            state.zones[f"hand:{s}"].cards = cards[:HAND_SIZE]
            del cards[:HAND_SIZE]
            events.append(
                event("dealt", seat=s, cards=list(state.cards(f"hand:{s}")), visible_to=[s])
            )
        state.zone("discard", None, TOP).cards = [cards.pop()]
        state.zone("stock", None, HIDDEN).cards = cards  # the top of the stock is the end
        state.zone("closing", None, HIDDEN)
        data.update(
            turns=0, restocks=0, closer=None, close_kind=None, melds=[], loose=[], laid_off=[]
        )
        events.append(event("discard_started", card=state.cards("discard")[-1]))
        return events + self._start_turn(state, first)

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        events = []
        if not state.cards("stock"):
            if state.data["restocks"] >= state.options["max_restocks"]:
                return [
                    event("stock_exhausted", restocks=state.data["restocks"])
                ] + self._score_hand(state)
            state.data["restocks"] += 1
            pile = state.zones["discard"].cards
            stock, pile[:] = pile[:-1], pile[-1:]
            state.shuffle(stock)
            state.zones["stock"].cards = stock
            events.append(event("restocked", count=len(stock)))
        state.phase = "draw"
        state.to_act = [seat]
        return events

    # -- legality --------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        hand = state.cards(f"hand:{seat}")
        if state.phase == "draw":
            return [{"type": "draw", "source": p} for p in ("stock", "discard") if state.cards(p)]
        if state.phase == "discard":
            actions: list[Action] = [{"type": "discard", "card": c} for c in dict.fromkeys(hand)]
            closes = Rules(state.options).best_closes(hand, self._resto_allowed(state))
            actions += [{"type": "close", "discard": c, "groups": g} for c, g in closes.items()]
            return actions
        lay_offs = [
            {"type": "lay_off", "card": c, "group": i} for c, i in self._lay_offs(state, seat)
        ]
        return lay_offs + [{"type": "done"}]

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        return self._problem(state, seat, action) is None

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        return self._problem(state, seat, action) or "that action is legal now"

    def _problem(self, state: State, seat: int, action: Action) -> str | None:
        """Why ``action`` is refused, or None when it is legal."""
        kind, fields = action.get("type"), set(action) - {"type"}
        if kind not in ACTIONS:
            return f"unknown action type {kind!r}; actions: {', '.join(ACTIONS)}"
        phase, wanted = ACTIONS[kind]
        if fields != wanted:
            return f"a {kind} action takes the fields {sorted(wanted)}, not {sorted(fields)}"
        if state.phase != phase:
            return PHASE_HINTS[state.phase]
        hand = state.cards(f"hand:{seat}")
        if kind == "draw":
            source = action["source"]
            if source not in ("stock", "discard"):
                return "draw from 'stock' or 'discard'"
            return None if state.cards(source) else f"the {source} pile is empty"
        if kind == "discard":
            return None if action["card"] in hand else f"card {action['card']} is not in your hand"
        if kind == "close":
            return self._close_problem(state, hand, action["discard"], action["groups"])
        if kind == "lay_off":
            return self._lay_off_problem(state, hand, action["card"], action["group"])
        return None

    def _close_problem(
        self, state: State, hand: list[str], discard: object, groups: object
    ) -> str | None:
        if not isinstance(discard, str) or discard not in hand:
            return f"card {discard} is not in your hand"
        if not isinstance(groups, list) or not all(
            isinstance(g, list) and all(isinstance(c, str) for c in g) for g in groups
        ):
            return "groups must be a list of lists of card codes"
        shown = Counter(hand) - Counter([discard])
        if Counter(c for g in groups for c in g) - shown:
            return "the groups must use cards of your hand, each once, without the discarded card"
        rules = Rules(state.options)
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

    def _lay_off_problem(
        self, state: State, hand: list[str], card: object, group: object
    ) -> str | None:
        if card not in hand:
            return f"card {card} is not in your hand"
        melds = state.data["melds"]
        if isinstance(group, bool) or not isinstance(group, int) or not 0 <= group < len(melds):
            return f"group must be the index of one of the closer's groups, 0 to {len(melds) - 1}"
        if group not in self._open_groups(state):
            return "only a group of 3 takes a card, to make a group of 4"
        if not Rules(state.options).is_group(melds[group] + [card]):
            return f"{card} does not make {melds[group]} a group of 4"
        return None

    # -- applying --------------------------------------------------------------------
    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        assert seat is not None
        kind = action["type"]
        if kind == "draw":
            return self._draw(state, seat, action["source"])
        if kind == "discard":
            state.move(action["card"], f"hand:{seat}", "discard")
            state.data["turns"] += 1
            events = [event("discarded", seat=seat, card=action["card"])]
            return events + self._start_turn(state, self._next_in(state, seat))
        if kind == "close":
            return self._close(state, seat, action["discard"], action["groups"])
        if kind == "lay_off":
            return self._lay_off(state, seat, action["card"], action["group"])
        state.to_act.remove(seat)
        return [event("done", seat=seat)] + self._after_soltar(state)

    def _draw(self, state: State, seat: int, source: str) -> list[Event]:
        card = state.move_top(source, f"hand:{seat}")
        state.phase = "discard"
        if source == "stock":
            return [event("drew", seat=seat, source=source, card=card, visible_to=[seat])]
        return [event("drew", seat=seat, source=source, card=card)]

    def _close(self, state: State, seat: int, discard: str, groups: Groups) -> list[Event]:
        data, rules = state.data, Rules(state.options)
        state.move(discard, f"hand:{seat}", "closing")
        hand = state.zones[f"hand:{seat}"]
        loose = list((Counter(hand.cards) - Counter(c for g in groups for c in g)).elements())
        state.zones[f"melds:{seat}"].cards = hand.cards
        hand.cards = []
        kind = rules.close_kind(groups)
        data.update(closer=seat, close_kind=kind, melds=[list(g) for g in groups], loose=loose)
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

    def _lay_off(self, state: State, seat: int, card: str, group: int) -> list[Event]:
        data = state.data
        state.move(card, f"hand:{seat}", f"melds:{data['closer']}")
        data["melds"][group].append(card)
        data["laid_off"].append({"seat": seat, "card": card, "group": group})
        return [event("laid_off", seat=seat, card=card, group=group)] + self._after_soltar(state)

    def _after_soltar(self, state: State) -> list[Event]:
        """Players with nothing left to lay off leave the phase; when nobody is left, score."""
        state.to_act = [s for s in state.to_act if self._can_lay_off(state, s)]
        return [] if state.to_act else self._score_hand(state)

    def _score_hand(self, state: State) -> list[Event]:
        data, rules, n = state.data, Rules(state.options), state.players
        closer, kind = data["closer"], data["close_kind"]
        points = [0] * n
        if closer is not None:
            points[closer] = ALL_GROUPED_POINTS if kind == "grouped" else 0
            points[closer] -= sum(map(rules.value, data["loose"]))
        shown = []
        for s in self._seats_in(state):
            if s != closer:
                groups, loose = rules.best_grouping(state.cards(f"hand:{s}"))
                points[s] = -sum(map(rules.value, loose))
                shown.append({"seat": s, "groups": groups, "loose": loose})
        record_round(state, points)
        for s, p in enumerate(points):
            data["plus" if p > 0 else "minus"][s] += abs(p)
        events = [event("hand_scored", round=state.round, close=kind, closer=closer, points=points,
                        hands=shown)]  # fmt: skip
        return events + self._after_hand(state)

    def _after_hand(self, state: State) -> list[Event]:
        data = state.data
        still_in = self._seats_in(state)
        if data["close_kind"] == "chinchon":
            return self._end(state, [data["closer"]])
        winners = [s for s in still_in if self._has_won(state, s)]
        if winners:
            return self._end(state, winners)
        out = [s for s in still_in if self._is_out(state, s)]
        data["eliminated"] += out
        events = [event("eliminated", seat=s) for s in out]
        survivors = [s for s in still_in if s not in out]
        if len(survivors) <= 1:
            last = survivors or out
            best = max(state.scores[s] for s in last)
            return events + self._end(state, [s for s in last if state.scores[s] == best])
        state.round += 1
        data["dealer"] = self._next_in(state, data["dealer"])
        return events + self._deal(state)

    @staticmethod
    def _end(state: State, winners: list[int]) -> list[Event]:
        finish(state, winners)
        return [event("match_finished", result=state.result)]

    # -- rules as questions ----------------------------------------------------------
    def _resto_allowed(self, state: State) -> bool:
        """Has every player still in played a turn this hand?"""
        return state.data["turns"] >= len(self._seats_in(state))

    def _lay_offs(self, state: State, seat: int) -> Iterator[tuple[str, int]]:
        """(card, group) pairs where ``seat`` can make one of the closer's 3-groups a 4-group."""
        rules, melds = Rules(state.options), state.data["melds"]
        for i in self._open_groups(state):
            for card in dict.fromkeys(state.cards(f"hand:{seat}")):
                if rules.is_group(melds[i] + [card]):
                    yield card, i

    def _can_lay_off(self, state: State, seat: int) -> bool:
        return next(self._lay_offs(state, seat), None) is not None

    @staticmethod
    def _open_groups(state: State) -> list[int]:
        return [i for i, g in enumerate(state.data["melds"]) if len(g) == 3]

    @staticmethod
    def _has_won(state: State, seat: int) -> bool:
        win = state.options["win_points"]
        if state.options["ledger"] == "separate":
            return state.data["plus"][seat] >= win
        return state.scores[seat] >= win

    @staticmethod
    def _is_out(state: State, seat: int) -> bool:
        lose = state.options["lose_points"]
        if state.options["ledger"] == "separate":
            return state.data["minus"][seat] >= lose
        return state.scores[seat] <= -lose

    @staticmethod
    def _seats_in(state: State) -> list[int]:
        return [s for s in range(state.players) if s not in state.data["eliminated"]]

    @staticmethod
    def _next_in(state: State, seat: int) -> int:
        """The next seat in the direction of play that is not eliminated."""
        nxt = state.next_seat(seat)
        while nxt in state.data["eliminated"]:
            nxt = state.next_seat(nxt)
        return nxt

    def view_fields(self, state: State, seat: int | None) -> dict:
        data = state.data
        return {
            "dealer": data["dealer"],
            "eliminated": list(data["eliminated"]),
            "turns": data["turns"],
            "resto_allowed": self._resto_allowed(state),
            "closer": data["closer"],
            "close_kind": data["close_kind"],
            "melds": [list(g) for g in data["melds"]],
            "loose": list(data["loose"]),
            "laid_off": [dict(x) for x in data["laid_off"]],
            "plus": list(data["plus"]),
            "minus": list(data["minus"]),
        }


register(Chinchon())
