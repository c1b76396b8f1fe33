"""Escoba del 15 and Desescoba (rules/escoba.txt, RULINGS.md 2.12).

A fishing game with the 40-card Spanish deck. Values: 1-7 their number, Sota 8,
Caballo 9, Rey 10. Each deal, every player gets 3 cards and 4 go face up to the
table; when all hands are empty, 3 more each are dealt from the stock (never to
the table) until it runs out. On a turn a player plays one card: together with
any subset of table cards that sums to 15 with it, it is a capture (every such
subset is a separate legal action); otherwise the card stays on the table.
Clearing the table is an escoba (1 point). After the last card the last
capturer takes what is left, and the deal scores: escobas, cartas (most cards),
oros (most oros), 7 de oros, primera. Deals repeat until someone has 15.

Decisions where the text is silent or ambiguous (options where RULINGS names alternatives):
* Players: the text says "2+"; the deck bounds it at 12 (3 cards each plus the 4-card table).
  When the stock cannot give everyone 3 (5 or 7+ players), it deals 3 at a time in turn order
  until it runs out; players left without cards sit that hand out.
* "El más joven" starts: option ``first_seat`` (default 0). Each later deal is started by the
  next seat to the left; play is clockwise (``direction`` option). Refills are dealt from the
  seat after the last player, who then plays on.
* Capture is optional (RULINGS 2.12.1): ``{"type": "play"}`` lays any card. ``mandatory_capture``:
  ``played-card`` (Desescoba default, as diclib describes it: a card that makes 15 must capture,
  though one may choose a card that does not) or ``any-card`` (must capture if any card can).
* "15 en mesa" (only an exact total of 15 on the 4 dealt table cards): the 4 cards go face up to
  the claimant's pile and count as 4 escobas (4 points); the table starts empty. By default the
  first player of the deal claims it (``fifteen_on_table = "first-player"``); ``race`` opens a
  reaction window where every seat may ``claim`` and the first claim the server applies wins;
  at the timeout with no claim the cards stay on the table. ``thirty_on_table`` also awards a
  total of 30, worth twice. It counts as a capture for "last capture takes the rest".
* "15 en mano" (3 cards summing 15): checked on each deal's first hands (``fifteen_in_hand =
  "every-deal"`` also on refills). The 3 cards go face up to the pile as 3 escobas (3 points);
  the player gets no hand and sits out until the next refill. It is not a table capture.
* Captured piles are public: every card in them was seen face up when played or taken.
* End of deal: the last capturer takes the leftover (not an escoba); with no capture at all it
  stays unowned. The leftover always sums to 10 modulo 15 (the deck totals 220 and every capture,
  15 en mesa and 15 en mano remove a multiple of 15; plays without capture only add to the table),
  so it is never empty and the last play of a deal can never be an escoba. The engine checks this
  instead of the text's "multiple of 5" penalty and refuses a state that breaks it.
* Scoring (RULINGS 2.12.5-6): cartas, oros and primera score 0 on a tie. Primera: per suit the
  highest numeric card (figures excluded); only a player with one in all four suits competes;
  the sole highest sum scores 1, or 2 with 28 (four 7s).
* Match end (2.12.7): checked after each deal; at ``target`` (15) or more the highest wins; a tie
  at the top means another deal. Desescoba (2.12.8): the same points are penalties; when anyone
  reaches the target the match ends and the lowest score wins (ties share the win). 15 en mesa
  and 15 en mano apply there too ("mismas reglas"), as penalties.
"""

from __future__ import annotations

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
    Action,
    BadSetup,
    Event,
    Game,
    InvalidState,
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

# Capture value by rank: numbers as printed, Sota (10) 8, Caballo (11) 9, Rey (12) 10.
VALUE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 8, 11: 9, 12: 10}
FIFTEEN = 15
HAND_SIZE, TABLE_SIZE = 3, 4
FIFTEEN_ON_TABLE_ESCOBAS, FIFTEEN_IN_HAND_ESCOBAS = 4, 3
SEVEN_OF_OROS = "7O"
SUITS = ("O", "C", "E", "B")
PRIMERA_MAX = 28  # the four 7s score the primera double


def value(card: str) -> int:
    return VALUE[rank(card)]


def combinations_to(target: int, table: list[str]) -> list[list[str]]:
    """Every subset of ``table`` (each in table order) whose values sum to ``target``."""
    values = [value(c) for c in table]
    found: list[list[str]] = []
    chosen: list[str] = []

    def walk(start: int, rest: int) -> None:
        for i in range(start, len(table)):
            v = values[i]
            if v > rest:
                continue
            chosen.append(table[i])
            if v == rest:
                found.append(list(chosen))
            else:
                walk(i + 1, rest - v)
            chosen.pop()

    if target > 0:
        walk(0, target)
    return found


def primera_sum(pile: list[str]) -> int | None:
    """The sum of the best numeric card of each suit, or None without one in every suit."""
    best = dict.fromkeys(SUITS, 0)
    for card in pile:
        if rank(card) <= 7 and rank(card) > best[suit(card)]:
            best[suit(card)] = rank(card)
    return None if 0 in best.values() else sum(best.values())


def sole_best(counts: list[int]) -> int | None:
    """The seat with strictly the highest count, or None on a tie."""
    top = max(counts)
    leaders = [s for s, c in enumerate(counts) if c == top]
    return leaders[0] if len(leaders) == 1 else None


def score_deal(piles: list[list[str]], escobas: list[int]) -> tuple[list[int], dict]:
    """Each seat's points for one deal and the breakdown: the seat taking each category, or None."""
    sums = [primera_sum(p) for p in piles]
    winners: dict[str, int | None] = {
        "cards": sole_best([len(p) for p in piles]),
        "oros": sole_best([sum(suit(c) == "O" for c in p) for p in piles]),
        "seven_of_oros": next((s for s, p in enumerate(piles) if SEVEN_OF_OROS in p), None),
        "primera": sole_best([-1 if x is None else x for x in sums]),
    }
    primera = winners["primera"]
    primera_points = 0 if primera is None else 2 if sums[primera] == PRIMERA_MAX else 1
    points = list(escobas)
    for category, seat in winners.items():
        if seat is not None:
            points[seat] += primera_points if category == "primera" else 1
    breakdown = {"escobas": list(escobas), **winners, "primera_sums": sums}
    return points, {**breakdown, "primera_points": primera_points, "points": points}


class Escoba(Game):
    id = "escoba"
    name = "Escoba"
    rules_file = "escoba.txt"
    players = (2, 12)
    options = {
        "first_seat": Option(
            0, "seat of the youngest player, who starts the first deal", minimum=0, maximum=11
        ),
        "direction": Option(
            "clockwise", "direction of play", choices=("clockwise", "counterclockwise")
        ),
        "target": Option(15, "points that end the match", minimum=1, maximum=100),
        "mandatory_capture": Option(
            "never", "when capturing is compulsory", choices=("never", "played-card", "any-card")
        ),
        "reaching_target_loses": Option(False, "points are penalties: reaching the target loses"),
        "fifteen_on_table": Option(
            "first-player", "who takes a dealt table of 15", choices=("first-player", "race", "off")
        ),
        "race_seconds": Option(
            3.0, "reaction window of the 15-en-mesa race", minimum=0.5, maximum=30.0
        ),
        "thirty_on_table": Option(False, "a dealt table of 30 also counts, worth twice 15 en mesa"),
        "fifteen_in_hand": Option(
            "first-deal",
            "when a 3-card hand of 15 scores",
            choices=("first-deal", "every-deal", "off"),
        ),
    }
    variants = {
        "base": Variant("base", "Escoba del 15: capture to 15; the first to 15 points wins."),
        "desescoba": Variant(
            "desescoba",
            "Desescoba: a card making 15 must capture; points are penalties; reaching 15 loses.",
            {"mandatory_capture": "played-card", "reaching_target_loses": True},
        ),
    }

    # -- dealing -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40)

    def setup(self, state: State) -> list[Event]:
        first = state.options["first_seat"]
        if first >= state.players:
            raise BadSetup(f"first_seat must be a seat from 0 to {state.players - 1}")
        state.data["direction"] = 1 if state.options["direction"] == "clockwise" else -1
        for s in range(state.players):
            state.zone(f"hand:{s}", s, OWNER)
            state.zone(f"captured:{s}", s, PUBLIC)
        state.zone("table", None, PUBLIC)
        state.zone("stock", None, HIDDEN)
        return self._new_deal(state, first)

    def _new_deal(self, state: State, starter: int) -> list[Event]:
        for zone in state.zones.values():
            zone.cards = []
        cards = self.deck(state)
        state.shuffle(cards)
        state.zones["stock"].cards = cards  # the top of the stock is the end of the list
        state.data["starter"] = starter
        events = [event("deal", round=state.round, starter=starter)]
        events += self._deal_hands(state, starter)
        table = state.zones["table"].cards
        table.extend(cards.pop() for _ in range(TABLE_SIZE))
        events.append(event("table_dealt", cards=list(table)))
        return events + self.begin_deal(state)

    def _deal_hands(self, state: State, first: int) -> list[Event]:
        stock = state.zones["stock"].cards
        events = []
        for i in range(state.players):
            if not stock:
                break
            s = state.next_seat(first, i)
            hand = [stock.pop() for _ in range(min(HAND_SIZE, len(stock)))]
            state.zones[f"hand:{s}"].cards.extend(hand)
            events.append(event("dealt", seat=s, cards=hand, visible_to=[s]))
        return events

    def begin_deal(self, state: State) -> list[Event]:
        """Open play on dealt hands and table: reset the deal's tallies, then the 15 checks.

        Public so that tests can rig a deal and open it exactly as a real deal opens.
        """
        data, opts = state.data, state.options
        data.update(escobas=[0] * state.players, last_capturer=None, sitting_out=[])
        state.deadline = None
        starter = data["starter"]
        events = []
        if opts["fifteen_in_hand"] != "off":
            events += self._fifteen_in_hand(state, starter)
        if opts["fifteen_on_table"] != "off" and self._table_bonus(state):
            if opts["fifteen_on_table"] == "race":
                state.phase = "race"
                state.to_act = list(range(state.players))
                state.deadline = {"kind": "reaction", "seconds": float(opts["race_seconds"])}
                return events + [event("fifteen_on_table_race", cards=list(state.cards("table")))]
            events += self._take_table(state, starter)
        return events + self._next_turn(state, state.next_seat(starter, -1))

    def _fifteen_in_hand(self, state: State, first: int) -> list[Event]:
        events = []
        for i in range(state.players):
            s = state.next_seat(first, i)
            hand = state.zones[f"hand:{s}"].cards
            if len(hand) == HAND_SIZE and sum(value(c) for c in hand) == FIFTEEN:
                state.zones[f"captured:{s}"].cards.extend(hand)
                state.data["escobas"][s] += FIFTEEN_IN_HAND_ESCOBAS
                state.data["sitting_out"].append(s)
                events.append(event("fifteen_in_hand", seat=s, cards=list(hand)))
                hand.clear()
        return events

    def _table_bonus(self, state: State) -> int:
        """Escobas a freshly dealt table is worth: 4 for exactly 15 (8 for 30 with that option)."""
        table = state.cards("table")
        if len(table) != TABLE_SIZE:
            return 0
        total = sum(value(c) for c in table)
        if total == FIFTEEN or (total == 2 * FIFTEEN and state.options["thirty_on_table"]):
            return FIFTEEN_ON_TABLE_ESCOBAS * total // FIFTEEN
        return 0

    def _take_table(self, state: State, seat: int) -> list[Event]:
        escobas = self._table_bonus(state)
        table = state.zones["table"].cards
        taken = list(table)
        state.zones[f"captured:{seat}"].cards.extend(taken)
        table.clear()
        state.data["escobas"][seat] += escobas
        state.data["last_capturer"] = seat
        return [event("fifteen_on_table", seat=seat, cards=taken, escobas=escobas)]

    def _next_turn(self, state: State, after: int) -> list[Event]:
        """Give the turn to the next seat holding cards; else refill the hands, or end the deal."""
        events: list[Event] = []
        while True:
            for i in range(1, state.players + 1):
                s = state.next_seat(after, i)
                if state.zones[f"hand:{s}"].cards:
                    state.phase, state.to_act = "play", [s]
                    return events
            if not state.zones["stock"].cards:
                return events + self._end_deal(state)
            first = state.next_seat(after)
            state.data["sitting_out"] = []
            events += self._deal_hands(state, first)
            if state.options["fifteen_in_hand"] == "every-deal":
                events += self._fifteen_in_hand(state, first)

    # -- legal actions -----------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == "race":
            return [{"type": "claim"}]
        table, mode = state.cards("table"), state.options["mandatory_capture"]
        captures: list[Action] = []
        plays: list[Action] = []
        for card in state.cards(f"hand:{seat}"):
            takes = combinations_to(FIFTEEN - value(card), table)
            captures += [{"type": "capture", "card": card, "take": take} for take in takes]
            if not (takes and mode == "played-card"):
                plays.append({"type": "play", "card": card})
        if captures and mode == "any-card":
            return captures
        return captures + plays

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        return self._problem(state, seat, action) is None

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        return self._problem(state, seat, action) or "this action is legal"

    def _problem(self, state: State, seat: int, action: Action) -> str | None:
        """Why ``action`` is refused, or None when legal (checked directly, never by listing)."""
        kind = action.get("type")
        if state.phase == "race":
            if kind == "claim" and set(action) == {"type"}:
                return None
            return 'the dealt table makes 15: the only action now is {"type": "claim"}'
        if kind not in ("play", "capture"):
            return f"unknown action type {kind!r}; actions: play, capture"
        fields = {"type", "card"} if kind == "play" else {"type", "card", "take"}
        if set(action) != fields:
            return f"a {kind} has exactly the fields {sorted(fields)}"
        card, hand, table = action["card"], state.cards(f"hand:{seat}"), state.cards("table")
        if not isinstance(card, str) or card not in hand:
            return f"card {card!r} is not in your hand"
        if kind == "play":
            return self._capture_required(state, seat, card)
        take = action["take"]
        if not isinstance(take, list) or not take or not all(isinstance(c, str) for c in take):
            return "take must be a non-empty list of table cards"
        if len(set(take)) != len(take):
            return "take lists a card twice"
        absent = [c for c in take if c not in table]
        if absent:
            return f"not on the table: {absent}"
        total = value(card) + sum(value(c) for c in take)
        if total != FIFTEEN:
            return f"{card} ({value(card)}) with {take} makes {total}, not 15"
        return None

    def _capture_required(self, state: State, seat: int, card: str) -> str | None:
        """Why laying ``card`` without capturing is refused under ``mandatory_capture``, or None."""
        mode = state.options["mandatory_capture"]
        if mode == "never":
            return None
        candidates = [card] if mode == "played-card" else state.cards(f"hand:{seat}")
        for c in candidates:
            takes = combinations_to(FIFTEEN - value(c), state.cards("table"))
            if takes:
                return f"capture is mandatory: {c} makes 15 with {takes[0]}"
        return None

    # -- applying ----------------------------------------------------------------------
    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        kind = action["type"]
        if seat is None or kind == "claim":
            return self._close_race(state, seat)
        card = action["card"]
        if kind == "play":
            state.move(card, f"hand:{seat}", "table")
            return [event("played", seat=seat, card=card)] + self._next_turn(state, seat)
        pile, table = f"captured:{seat}", state.zones["table"].cards
        state.move(card, f"hand:{seat}", pile)
        for c in action["take"]:
            state.move(c, "table", pile)
        state.data["last_capturer"] = seat
        events = [
            event("captured", seat=seat, card=card, take=list(action["take"]), escoba=not table)
        ]
        if not table:
            state.data["escobas"][seat] += 1
        return events + self._next_turn(state, seat)

    def _close_race(self, state: State, claimant: int | None) -> list[Event]:
        """The first claim applied takes the table; the timeout (seat None) leaves it unclaimed."""
        state.deadline = None
        if claimant is None:
            events = [event("fifteen_on_table_unclaimed")]
        else:
            events = self._take_table(state, claimant)
        return events + self._next_turn(state, state.next_seat(state.data["starter"], -1))

    def _end_deal(self, state: State) -> list[Event]:
        data, table = state.data, state.zones["table"].cards
        leftover = sum(value(c) for c in table)
        if leftover % FIFTEEN != 10:
            raise InvalidState(f"the cards left on the table sum {leftover}, not 10 modulo 15")
        events = []
        last = data["last_capturer"]
        if last is not None:
            events.append(event("took_leftover", seat=last, cards=list(table)))
            state.zones[f"captured:{last}"].cards.extend(table)
            table.clear()
        piles = [state.cards(f"captured:{s}") for s in range(state.players)]
        points, breakdown = score_deal(piles, data["escobas"])
        data["last_deal"] = breakdown
        record_round(state, points)
        events.append(event("deal_scored", round=state.round, **breakdown))
        winners = self._match_winners(state)
        if winners is not None:
            finish(state, winners)
            return events + [event("match_finished", result=state.result)]
        state.round += 1
        return events + self._new_deal(state, state.next_seat(data["starter"]))

    def _match_winners(self, state: State) -> list[int] | None:
        """Who wins once someone has reached the target; None while the match goes on."""
        scores = state.scores
        if max(scores) < state.options["target"]:
            return None
        if state.options["reaching_target_loses"]:
            return [s for s, x in enumerate(scores) if x == min(scores)]
        leaders = [s for s, x in enumerate(scores) if x == max(scores)]
        return leaders if len(leaders) == 1 else None

    def view_fields(self, state: State, seat: int | None) -> dict:
        data = state.data
        return {
            "starter": data["starter"],
            "escobas": list(data["escobas"]),
            "last_capturer": data["last_capturer"],
            "sitting_out": list(data["sitting_out"]),
            "table_sum": sum(value(c) for c in state.cards("table")),
            "last_deal": data.get("last_deal"),
        }


register(Escoba())
