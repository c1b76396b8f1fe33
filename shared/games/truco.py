"""El Truco, Argentine, for two players (rules/truco.txt, RULINGS.md 2.3).

Each hand deals 3 cards from a 40-card Spanish deck. Mano (the non-dealer; it
alternates every hand) leads the first of up to three bazas; the higher card by
the truco ranking wins a baza and leads the next. Betting calls interleave with
the bazas: a pending call puts the responder alone in ``to_act`` with quiero /
no-quiero / a raise; once answered, play returns to whoever was to play. The
match is won by the first player to reach 30.

Decisions where the text is silent, ambiguous or contradictory (RULINGS 2.3):
* Envido is a stack of calls scored by the table ``STAKES`` (accepted / refused).
  Envido may be answered by a second envido, real envido or falta; real envido
  only by falta; falta is final. RULINGS lists no E+E+FE; it is allowed (the
  prose permits falta after any envido) and worth falta/4 by the table's own
  rule: a refusal pays what the chain accepted before the last call was worth.
* Falta envido is worth what the leading player lacks to reach 15 while the
  leader has fewer than 15 (malas), else what the leader lacks to reach 30
  (buenas). 15 counts as buenas: "lacking 0 to reach 15" would be meaningless.
* Envido is opened only in the first baza, before the caller has played a card,
  while no envido or flor was played this hand and no truco is accepted; so a
  player answering a truco in the first baza may call envido first ("el envido
  está primero"). Raising a pending envido is always allowed to the responder.
* Truco, retruco, vale cuatro are strictly sequential. Either player may call
  truco on their turn to play; answering a call with the next one accepts it.
  Later raises belong to the side that accepted the last level, on its turn.
  A refusal pays the last accepted level (1/2/3); a hand without truco is worth 1.
* Flor (option ``flor``, on): three cards of a suit. Singing it is mandatory:
  a holder's first action in the hand must be ``{"type": "flor"}``. It closes
  the envido for the hand, cancelling a pending one without points. One flor
  scores 3; two flores score 6 to the better flor. Flor is settled when the
  second flor is sung, when the first baza ends, or when the hand ends earlier.
  A flor whose holder never got to act (the opponent folded at once) is lost.
  Contra-flor is not in the seed and not offered.
* Envido points: 20 plus the best two cards of a suit (figures 0), else the
  highest single card; flor value: 20 plus all three. Ties go to mano.
* Pardas: a parda 1st baza lets the next won baza decide, three pardas give the
  hand to mano; a parda 2nd or 3rd baza gives it to the winner of the 1st, so a
  won 1st baza and a parda 2nd end the hand at once. The player who led a parda
  baza leads the next one.
* Reveals: when an envido (or flor against flor) is accepted, mano announces
  first, so mano's points are always public; pie's points are public only when
  pie wins, otherwise pie says "son buenas". A single flor and refused envidos
  reveal nothing. Cards are never shown; unplayed cards return to the deck unseen.
* Scoring: envido and flor points count as soon as they are settled, truco
  points when the hand ends, and the match ends the moment a player reaches 30,
  even mid-hand. Only one player can score envido or flor in a hand and it
  comes first, so envido decides when both would pass 30. Each hand is a round.
* Option ``fold`` (off): "irse al mazo" on one's turn or in answer to a truco
  (not while an envido is pending); the opponent scores the current truco level
  as if a truco had been refused.
* The first dealer is drawn by chance. With two players direction is moot.
"""

from __future__ import annotations

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
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

TARGET, HALF = 30, 15  # the match, and the end of the malas
FLOR_POINTS, FLOR_FLOR_POINTS = 3, 6
PARDA = None  # a tied baza

# Truco ranking, best first (rules/truco.txt "Valores").
RANKING = (
    ("1E",), ("1B",), ("7E",), ("7O",), ("3E", "3C", "3O", "3B"), ("2E", "2C", "2O", "2B"),
    ("1C", "1O"), ("12E", "12C", "12O", "12B"), ("11E", "11C", "11O", "11B"),
    ("10E", "10C", "10O", "10B"), ("7C", "7B"), ("6E", "6C", "6O", "6B"),
    ("5E", "5C", "5O", "5B"), ("4E", "4C", "4O", "4B"),
)  # fmt: skip
STRENGTH = {card: len(RANKING) - i for i, group in enumerate(RANKING) for card in group}

E, RE, FE = "envido", "real-envido", "falta-envido"
FALTA = None  # the stake is the falta value
# chain of envido calls -> (points if accepted, points to the last caller if refused)
STAKES: dict[tuple[str, ...], tuple[int | None, int]] = {
    (E,): (2, 1), (RE,): (3, 1), (FE,): (FALTA, 1),
    (E, E): (4, 2), (E, RE): (5, 2), (E, FE): (FALTA, 2), (RE, FE): (FALTA, 3),
    (E, E, RE): (7, 4), (E, E, FE): (FALTA, 4), (E, RE, FE): (FALTA, 5),
    (E, E, RE, FE): (FALTA, 7),
}  # fmt: skip
ENVIDO_CALLS = (E, RE, FE)
TRUCO_CALLS = ("truco", "retruco", "vale-cuatro")
TRUCO_VALUE = (1, 2, 3, 4)  # what the hand is worth by accepted truco level
ACTION_KEYS = {
    "play": {"type", "card"},
    "call": {"type", "call"},
    "quiero": {"type"},
    "no-quiero": {"type"},
    "flor": {"type"},
    "fold": {"type"},
}


def envido_value(card: str) -> int:
    r = rank(card)
    return r if r <= 7 else 0


def envido_points(cards: list[str]) -> int:
    """20 plus the best two of a suit; with no two of a suit, the best single card."""
    best = max(envido_value(c) for c in cards)
    for s in "OCEB":
        values = sorted((envido_value(c) for c in cards if suit(c) == s), reverse=True)
        if len(values) >= 2:
            best = max(best, 20 + values[0] + values[1])
    return best


def has_flor(cards: list[str]) -> bool:
    return len(cards) == 3 and len({suit(c) for c in cards}) == 1


def flor_points(cards: list[str]) -> int:
    return 20 + sum(envido_value(c) for c in cards)


def hand_winner(bazas: list[int | None], mano: int) -> int | None:
    """Who has won the hand by its bazas so far (RULINGS 2.3.8), or None to play on."""
    for s in (0, 1):
        if bazas.count(s) >= 2:
            return s
    if len(bazas) < 2:
        return None
    first = bazas[0]
    if first is PARDA:
        decided = [b for b in bazas[1:] if b is not PARDA]
        if decided:
            return decided[0]
        return mano if len(bazas) == 3 else None
    return first if PARDA in bazas[1:] else None


class Truco(Game):
    id = "truco"
    name = "El Truco"
    rules_file = "truco.txt"
    players = (2, 2)
    options = {
        "flor": Option(True, "three of a suit score 3 (flor against flor 6) and cancel the envido"),
        "fold": Option(False, "allow 'irse al mazo', paid as a refused truco at the current level"),
    }
    variants = {"base": Variant("base", "El Truco for two: envido, flor and truco, to 30 points.")}

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return spanish_deck(40)

    def setup(self, state: State) -> list[Event]:
        for s in (0, 1):
            state.zone(f"hand:{s}", s, OWNER)
            state.zone(f"table:{s}", s, PUBLIC)
        state.zone("deck", None, HIDDEN).cards = self.deck(state)
        return self._deal(state, dealer=state.rng().randrange(2))

    def _deal(self, state: State, dealer: int) -> list[Event]:
        deck = state.zones["deck"].cards
        for s in (0, 1):
            for name in (f"hand:{s}", f"table:{s}"):
                deck.extend(state.zones[name].cards)
                state.zones[name].cards = []
        state.shuffle(deck)
        mano = 1 - dealer
        for s in (mano, dealer):
            state.zones[f"hand:{s}"].cards = [deck.pop() for _ in range(3)]
        state.data.update(
            dealer=dealer, mano=mano, turn=mano, leader=mano, bazas=[],
            truco_level=0, truco_owner=None, truco_call=None,
            envido=[], envido_by=None, envido_open=False, envido_done=False,
            flores=[], flor_settled=False, points=[0, 0],
        )  # fmt: skip
        self._set_to_act(state)
        events = [event("hand_started", round=state.round, dealer=dealer, mano=mano)]
        for s in (mano, dealer):
            cards = list(state.cards(f"hand:{s}"))
            events.append(event("dealt", seat=s, cards=cards, visible_to=[s]))
        return events

    # -- legality: one predicate gives both the legal list and the reasons -----------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if self._owes_flor(state, seat):
            return [{"type": "flor"}]
        if self._pending_call(state):
            candidates: list[Action] = [{"type": "quiero"}, {"type": "no-quiero"}]
        else:
            candidates = [{"type": "play", "card": c} for c in state.cards(f"hand:{seat}")]
        candidates += [{"type": "call", "call": c} for c in ENVIDO_CALLS + TRUCO_CALLS]
        candidates.append({"type": "fold"})
        return [a for a in candidates if self._turn_refusal(state, seat, a) is None]

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        return self._refusal(state, seat, action) is None

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        return self._refusal(state, seat, action) or "that action is not legal now"

    def _refusal(self, state: State, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, or None when it may."""
        kind = action["type"]
        keys = ACTION_KEYS.get(kind)
        if keys is None:
            return f"unknown action type {kind!r}; actions: {', '.join(ACTION_KEYS)}"
        if set(action) != keys:
            return f"a {kind} action has exactly the keys {sorted(keys)}"
        if kind == "flor":
            return self._flor_refusal(state, seat)
        if self._owes_flor(state, seat):
            return "you hold a flor: singing it is mandatory before anything else"
        return self._turn_refusal(state, seat, action)

    def _turn_refusal(self, state: State, seat: int, action: Action) -> str | None:
        """Why a well-formed action other than the flor is refused, once no flor is owed."""
        kind, data = action["type"], state.data
        pending = self._pending_call(state)
        if kind == "play":
            if pending:
                return f"answer the {pending} first (quiero, no-quiero or a raise)"
            if action["card"] not in state.cards(f"hand:{seat}"):
                return f"card {action['card']} is not in your hand"
            return None
        if kind == "call":
            call = action["call"]
            if call in ENVIDO_CALLS:
                return self._envido_refusal(state, seat, call)
            if call in TRUCO_CALLS:
                return self._truco_refusal(state, seat, call)
            return f"unknown call {call!r}; calls: {', '.join(ENVIDO_CALLS + TRUCO_CALLS)}"
        if kind in ("quiero", "no-quiero"):
            return None if pending else "there is no call to answer"
        if not state.options["fold"]:
            return "irse al mazo is not allowed in this match (option fold is off)"
        return "answer the envido first" if data["envido_open"] else None

    def _flor_refusal(self, state: State, seat: int) -> str | None:
        if not state.options["flor"]:
            return "this match is played without flor"
        if seat in state.data["flores"]:
            return "you already sang your flor"
        if not has_flor(self._cards(state, seat)):
            return "you do not hold a flor (three cards of one suit)"
        return None

    def _envido_refusal(self, state: State, seat: int, call: str) -> str | None:
        data = state.data
        if data["flores"]:
            return "a flor was sung: the flor cancels the envido"
        chain = tuple(data["envido"])
        if data["envido_open"]:
            if chain + (call,) in STAKES:
                return None
            raises = ", ".join(c for c in ENVIDO_CALLS if chain + (c,) in STAKES)
            return f"after {' + '.join(chain)} you may raise only with {raises or 'nothing'}"
        if data["envido_done"]:
            return "the envido was already played this hand"
        if data["bazas"]:
            return "the envido is called only in the first baza"
        if state.cards(f"table:{seat}"):
            return "the envido must be called before you play your first card"
        if data["truco_level"] > 0:
            return "the truco was accepted: it is too late for the envido"
        return None

    def _truco_refusal(self, state: State, seat: int, call: str) -> str | None:
        data = state.data
        if data["envido_open"]:
            return "answer the envido first"
        answering = data["truco_call"] is not None
        level = data["truco_level"] + answering  # the level a new call would raise
        if level >= len(TRUCO_CALLS):
            return "vale cuatro is the highest call"
        if TRUCO_CALLS.index(call) != level:
            return f"the calls go truco, retruco, vale-cuatro: the next is {TRUCO_CALLS[level]}"
        if not answering and level > 0 and data["truco_owner"] != seat:
            return f"only the side that accepted the {TRUCO_CALLS[level - 1]} may raise it"
        return None

    # -- applying ------------------------------------------------------------------------
    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        assert seat is not None
        kind = action["type"]
        if kind == "flor":
            events = self._sing_flor(state, seat)
        elif kind == "play":
            events = self._play(state, seat, action["card"])
        elif kind == "call":
            events = self._call(state, seat, action["call"])
        elif kind == "quiero":
            events = self._accept(state, seat)
        elif kind == "no-quiero":
            events = self._refuse(state, seat)
        else:
            events = [event("folded", seat=seat)]
            state.data["truco_call"] = None
            events += self._end_hand(state, 1 - seat, TRUCO_VALUE[state.data["truco_level"]])
        if not state.finished:
            self._set_to_act(state)
        return events

    def _sing_flor(self, state: State, seat: int) -> list[Event]:
        data = state.data
        data["flores"].append(seat)
        events = [event("flor", seat=seat)]
        if data["envido_open"]:
            events.append(event("envido_cancelled", seat=seat, calls=list(data["envido"])))
            data["envido_open"] = False
        data["envido_done"] = True
        if len(data["flores"]) == 2:
            events += self._settle_flor(state)
        return events

    def _call(self, state: State, seat: int, call: str) -> list[Event]:
        data = state.data
        if call in ENVIDO_CALLS:
            data["envido"].append(call)
            data["envido_by"] = seat
            data["envido_open"] = True
        else:
            if data["truco_call"] is not None:  # raising in answer accepts the pending call
                data["truco_level"] += 1
                data["truco_owner"] = seat
            data["truco_call"] = seat
        return [event("called", seat=seat, call=call)]

    def _accept(self, state: State, seat: int) -> list[Event]:
        data = state.data
        if data["envido_open"]:
            chain = tuple(data["envido"])
            data["envido_open"], data["envido_done"] = False, True
            stake = STAKES[chain][0]
            value = self._falta(state) if stake is FALTA else stake
            points = [envido_points(self._cards(state, s)) for s in (0, 1)]
            winner = self._better(state, points)
            declared = self._declared(state, points, winner)
            events = [
                event("quiero", seat=seat, call=chain[-1]),
                event("envido_won", seat=winner, points=value, declared=declared),
            ]
            return events + self._award(state, winner, value)
        data["truco_level"] += 1
        data["truco_owner"], data["truco_call"] = seat, None
        return [event("quiero", seat=seat, call=TRUCO_CALLS[data["truco_level"] - 1])]

    def _refuse(self, state: State, seat: int) -> list[Event]:
        data = state.data
        if data["envido_open"]:
            chain, caller = tuple(data["envido"]), data["envido_by"]
            data["envido_open"], data["envido_done"] = False, True
            value = STAKES[chain][1]
            events = [
                event("no_quiero", seat=seat, call=chain[-1]),
                event("envido_won", seat=caller, points=value, declared=[None, None]),
            ]
            return events + self._award(state, caller, value)
        caller, level = data["truco_call"], data["truco_level"]
        data["truco_call"] = None
        events = [event("no_quiero", seat=seat, call=TRUCO_CALLS[level])]
        return events + self._end_hand(state, caller, TRUCO_VALUE[level])

    def _play(self, state: State, seat: int, card: str) -> list[Event]:
        data = state.data
        state.move(card, f"hand:{seat}", f"table:{seat}")
        events = [event("played", seat=seat, card=card)]
        n = len(data["bazas"])
        if len(state.cards(f"table:{1 - seat}")) <= n:  # the baza waits for the other card
            data["turn"] = 1 - seat
            return events
        a, b = state.cards("table:0")[n], state.cards("table:1")[n]
        result = PARDA if STRENGTH[a] == STRENGTH[b] else (0 if STRENGTH[a] > STRENGTH[b] else 1)
        data["bazas"].append(result)
        events.append(event("baza", number=n + 1, seat=result, parda=result is PARDA))
        if result is not PARDA:
            data["leader"] = result
        data["turn"] = data["leader"]
        if data["flores"] and not data["flor_settled"]:
            events += self._settle_flor(state)
            if state.finished:
                return events
        winner = hand_winner(data["bazas"], data["mano"])
        if winner is not None:
            events += self._end_hand(state, winner, TRUCO_VALUE[data["truco_level"]])
        return events

    # -- scoring -------------------------------------------------------------------------
    def _settle_flor(self, state: State) -> list[Event]:
        data = state.data
        data["flor_settled"] = True
        flores = data["flores"]
        declared: list[int | None] = [None, None]
        if len(flores) == 1:
            winner, value = flores[0], FLOR_POINTS
        else:
            points = [flor_points(self._cards(state, s)) for s in (0, 1)]
            winner, value = self._better(state, points), FLOR_FLOR_POINTS
            declared = self._declared(state, points, winner)
        events = [event("flor_won", seat=winner, points=value, declared=declared)]
        return events + self._award(state, winner, value)

    def _award(self, state: State, seat: int, value: int) -> list[Event]:
        """Envido or flor points count at once; reaching 30 with them ends the match mid-hand."""
        points = state.data["points"]
        points[seat] += value
        if state.scores[seat] + points[seat] < TARGET:
            return []
        record_round(state, list(points))
        finish(state, [seat])
        return [event("match_finished", result=state.result)]

    def _end_hand(self, state: State, winner: int, value: int) -> list[Event]:
        data = state.data
        events: list[Event] = []
        if data["flores"] and not data["flor_settled"]:  # envido and flor count first
            events += self._settle_flor(state)
            if state.finished:
                return events
        data["points"][winner] += value
        points = list(data["points"])
        record_round(state, points)
        events.append(event("hand_ended", round=state.round, seat=winner, won=value, points=points))
        if state.scores[winner] >= TARGET:
            finish(state, [winner])
            return events + [event("match_finished", result=state.result)]
        state.round += 1
        return events + self._deal(state, dealer=data["mano"])

    def _falta(self, state: State) -> int:
        """What the leader lacks to reach 15 (in malas) or 30 (in buenas)."""
        leader = max(state.scores)
        return HALF - leader if leader < HALF else TARGET - leader

    # -- rules as questions --------------------------------------------------------------
    def _owes_flor(self, state: State, seat: int) -> bool:
        """Whether ``seat`` must sing its flor now: before its first card, as its first action."""
        data = state.data
        return (
            not data["bazas"]
            and seat not in data["flores"]
            and self._plays_flor(state, self._cards(state, seat))
        )

    @staticmethod
    def _plays_flor(state: State, cards: list[str]) -> bool:
        return bool(state.options["flor"]) and has_flor(cards)

    @staticmethod
    def _pending_call(state: State) -> str | None:
        data = state.data
        if data["envido_open"]:
            return data["envido"][-1]
        if data["truco_call"] is not None:
            return TRUCO_CALLS[data["truco_level"]]
        return None

    @staticmethod
    def _cards(state: State, seat: int) -> list[str]:
        """The three cards ``seat`` was dealt this hand: those in hand and those played."""
        return state.cards(f"hand:{seat}") + state.cards(f"table:{seat}")

    @staticmethod
    def _better(state: State, points: list[int]) -> int:
        mano = state.data["mano"]
        return 1 - mano if points[1 - mano] > points[mano] else mano

    @staticmethod
    def _declared(state: State, points: list[int], winner: int) -> list[int | None]:
        """Mano announces first; pie announces only better points, else says "son buenas"."""
        shown: list[int | None] = [None, None]
        for s in (state.data["mano"], winner):
            shown[s] = points[s]
        return shown

    @staticmethod
    def _set_to_act(state: State) -> None:
        data = state.data
        if data["envido_open"]:
            state.phase, state.to_act = "envido", [1 - data["envido_by"]]
        elif data["truco_call"] is not None:
            state.phase, state.to_act = "truco", [1 - data["truco_call"]]
        else:
            state.phase, state.to_act = "play", [data["turn"]]

    def view_fields(self, state: State, seat: int | None) -> dict:
        data = state.data
        own = self._cards(state, seat) if seat is not None else None
        call = self._pending_call(state)
        caller = data["envido_by"] if data["envido_open"] else data["truco_call"]
        return {
            "dealer": data["dealer"],
            "mano": data["mano"],
            "turn": data["turn"],
            "bazas": list(data["bazas"]),
            "truco": TRUCO_CALLS[data["truco_level"] - 1] if data["truco_level"] else None,
            "truco_value": TRUCO_VALUE[data["truco_level"]],
            "truco_owner": data["truco_owner"],
            "pending_call": {"seat": caller, "call": call} if call else None,
            "envido_calls": list(data["envido"]),
            "envido_done": data["envido_done"],
            "flores": list(data["flores"]),
            "hand_points": list(data["points"]),
            "falta_value": self._falta(state),
            "envido_points": envido_points(own) if own else None,
            "flor_points": flor_points(own) if own and self._plays_flor(state, own) else None,
        }


register(Truco())
