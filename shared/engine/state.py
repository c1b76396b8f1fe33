"""The match state: zones of cards with a visibility, whose turn it is, scores, and game data.

Every card of a match lies in exactly one zone. Views, event redaction and the
card-conservation check are all derived from the zones' visibility, in one place
(``shared.engine.core``), so a game never writes its own hiding logic.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from .cards import are_cards
from .data import GameData
from .errors import InvalidState

# Who may see the cards of a zone.
PUBLIC = "public"  # everyone, spectators included
OWNER = "owner"  # its owner only
HIDDEN = "hidden"  # nobody (the stock, face-down cards, sealed piles)
TOP = "top"  # everyone sees the top (last) card only
VISIBILITIES = (PUBLIC, OWNER, HIDDEN, TOP)

#: The option of a game whose chance is drawn deal by deal (``State.by_deal``); declared by
#: the game with ``shared.engine.game.deals_by_number`` under the rules version that adopted it.
DEALS_BY_NUMBER = "deals_by_number"


class Zone:
    __slots__ = ("cards", "owner", "visibility")

    def __init__(
        self, cards: list[str] | None = None, owner: int | None = None, visibility: str = PUBLIC
    ):
        self.cards = cards if cards is not None else []
        self.owner = owner
        self.visibility = visibility

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) sees every card of this zone."""
        return self.visibility == PUBLIC or (
            self.visibility == OWNER and seat is not None and seat == self.owner
        )

    def to_json(self) -> dict:
        return {"cards": list(self.cards), "owner": self.owner, "visibility": self.visibility}


class State:
    """One match: the generic part the core understands plus ``data`` that only its game reads.

    Mutable on purpose: the engine applies actions in place (as OpenSpiel and
    python-chess do) because copying a whole state per move would dominate the
    cost; ``clone`` gives an independent copy where one is needed.
    """

    __slots__ = (
        "game", "variant", "options", "players", "seed", "chance", "zones", "phase", "to_act",
        "round", "scores", "rounds", "teams", "data", "finished", "result", "deadline", "moves",
    )  # fmt: skip

    def __init__(self, game: str, variant: str, options: dict, players: int, seed: str):
        self.game = game
        self.variant = variant
        self.options = options
        self.players = players
        self.seed = seed
        self.chance = 0  # how many chance draws were made: chance comes from (seed, counter)
        self.zones: dict[str, Zone] = {}
        self.phase = "play"
        self.to_act: list[int] = []
        self.round = 1
        self.scores = [0] * players
        self.rounds: list[list[int]] = []
        self.teams: list[list[int]] | None = None
        self.data: Any = {}  # the game's GameData (a dict for games not yet typed)
        self.finished = False
        self.result: dict | None = None
        self.deadline: dict | None = None  # a window the server's timer closes: {"kind", "seconds"}
        self.moves = 0  # actions applied so far

    # -- zones -----------------------------------------------------------------
    def zone(self, name: str, owner: int | None = None, visibility: str = PUBLIC) -> Zone:
        """Create (or reset) a zone."""
        z = Zone([], owner, visibility)
        self.zones[name] = z
        return z

    def cards(self, name: str) -> list[str]:
        return self.zones[name].cards

    def move(self, card: str, src: str, dst: str) -> None:
        self.zones[src].cards.remove(card)
        self.zones[dst].cards.append(card)

    def move_top(self, src: str, dst: str) -> str:
        card = self.zones[src].cards.pop()
        self.zones[dst].cards.append(card)
        return card

    def all_cards(self) -> list[str]:
        return [c for z in self.zones.values() for c in z.cards]

    # -- chance ----------------------------------------------------------------
    def rng(self) -> random.Random:
        """A generator for the next chance event, derived from (seed, counter) only.

        Replaying the same actions on the same seed gives the same deals, dice and shuffles.
        Under ``deals_by_number`` (``by_deal``) the counter counts the draws of the deal
        only and the deal's number is part of the key: ``(seed, deal, draw within it)``.
        """
        self.chance += 1
        if self.by_deal():
            return random.Random(f"{self.seed}:deal {len(self.rounds) + 1}:{self.chance}")
        return random.Random(f"{self.seed}:{self.chance}")

    def by_deal(self) -> bool:
        """Whether chance comes from (seed, deal number, draw within the deal): the game's
        ``deals_by_number`` option, so deal k is the same cards for the same seat at every
        table of a duplicate group whatever was played before it (docs/engine.md)."""
        return self.options.get(DEALS_BY_NUMBER) is True

    def new_deal(self) -> None:
        """A deal begins: under ``by_deal`` its draws are counted from the first again, so
        neither the draws made while the deals before it were played nor their number shift
        its cards. The deal's number is the score sheet's next line (``len(rounds) + 1``),
        the deal a duplicate comparison sets side by side. The first deal goes on counting
        from the setup's draws (the same at every table). Nothing otherwise."""
        if self.by_deal() and self.rounds:
            self.chance = 0

    def shuffle(self, cards: list[str]) -> None:
        """Shuffle ``cards`` in place with the next draw. Under ``by_deal`` the cards are put
        in one order first (sorted), so the outcome depends on which cards and the draw, not
        on the order play left them in: the same distribution as any shuffle of them."""
        if self.by_deal():
            cards.sort()
        shuffle(self.rng(), cards)

    # -- teams -----------------------------------------------------------------------
    def team_of(self, seat: int) -> list[int]:
        if self.teams:
            for team in self.teams:
                if seat in team:
                    return team
        return [seat]

    # -- JSON ------------------------------------------------------------------
    def to_json(self, copy_data: bool = True) -> dict:
        """The state as JSON types; ``copy_data=False`` shares the game data (to serialise at once)."""
        own = _deepcopy if copy_data else _same
        return {
            "game": self.game,
            "variant": self.variant,
            "options": dict(self.options),
            "players": self.players,
            "seed": self.seed,
            "chance": self.chance,
            "zones": {name: z.to_json() for name, z in self.zones.items()},
            "phase": self.phase,
            "to_act": list(self.to_act),
            "round": self.round,
            "scores": list(self.scores),
            "rounds": [list(r) for r in self.rounds],
            "teams": [list(t) for t in self.teams] if self.teams else None,
            "data": (
                self.data.to_json(copy_data) if isinstance(self.data, GameData) else own(self.data)
            ),
            "finished": self.finished,
            "result": own(self.result),
            "deadline": dict(self.deadline) if self.deadline else None,
            "moves": self.moves,
        }

    @classmethod
    def from_json(cls, doc: Any, copy_data: bool = True) -> State:
        """Rebuild a state, refusing anything malformed with an ``InvalidState`` that says what.

        ``copy_data=False`` lets the state take over the document's game data instead of
        copying it, for a document nobody else holds (one just parsed from a request).
        """
        own = _deepcopy if copy_data else _same
        _expect(isinstance(doc, dict), "state must be an object")
        for key, kind in _FIELDS.items():
            _expect(key in doc, f"state.{key} is missing")
            _expect(_is(doc[key], kind), f"state.{key} must be {_KIND_NAMES[kind]}")
        players = doc["players"]
        _expect(1 <= players <= 16, "state.players is out of range")
        s = cls(doc["game"], doc["variant"], dict(doc["options"]), players, doc["seed"])
        s.chance = doc["chance"]
        for name, z in doc["zones"].items():
            _expect(isinstance(z, dict), f"zone {name} must be an object")
            cards, owner, vis = z.get("cards"), z.get("owner"), z.get("visibility")
            _expect(
                isinstance(cards, list) and are_cards(cards),
                f"zone {name} has a bad card",
            )
            _expect(
                owner is None or (_is(owner, int) and 0 <= owner < players),
                f"zone {name} has a bad owner",
            )
            _expect(vis in VISIBILITIES, f"zone {name} has a bad visibility")
            s.zones[name] = Zone(list(cards), owner, vis)
        s.phase = doc["phase"]
        _expect(
            all(_is(x, int) and 0 <= x < players for x in doc["to_act"]),
            "state.to_act has a bad seat",
        )
        s.to_act = list(doc["to_act"])
        s.round = doc["round"]
        _expect(
            len(doc["scores"]) == players and all(_is(x, int) for x in doc["scores"]),
            "bad state.scores",
        )
        s.scores = list(doc["scores"])
        _expect(
            all(
                isinstance(r, list) and len(r) == players and all(_is(x, int) for x in r)
                for r in doc["rounds"]
            ),
            "bad state.rounds",
        )
        s.rounds = [list(r) for r in doc["rounds"]]
        teams = doc["teams"]
        _expect(
            teams is None
            or (
                isinstance(teams, list)
                and all(isinstance(t, list) and all(_is(x, int) for x in t) for t in teams)
            ),
            "bad state.teams",
        )
        s.teams = [list(t) for t in teams] if teams else None
        s.data = _game_data(doc["game"], doc["data"], copy_data)
        s.finished = doc["finished"]
        _expect(doc["result"] is None or isinstance(doc["result"], dict), "bad state.result")
        s.result = own(doc["result"])
        _expect(doc["deadline"] is None or isinstance(doc["deadline"], dict), "bad state.deadline")
        s.deadline = dict(doc["deadline"]) if doc["deadline"] else None
        s.moves = doc["moves"]
        return s

    def clone(self) -> State:
        return State.from_json(self.to_json())


_FIELDS = {
    "game": str, "variant": str, "options": dict, "players": int, "seed": str, "chance": int,
    "zones": dict, "phase": str, "to_act": list, "round": int, "scores": list, "rounds": list,
    "teams": (list, type(None)), "data": dict, "finished": bool, "result": (dict, type(None)),
    "deadline": (dict, type(None)), "moves": int,
}  # fmt: skip
_KIND_NAMES = {
    str: "a string", dict: "an object", int: "an integer", list: "a list", bool: "a boolean",
    (list, type(None)): "a list or null", (dict, type(None)): "an object or null",
}  # fmt: skip


def shuffle(rng: random.Random, cards: list) -> None:
    """``rng.shuffle(cards)``: the same draws and the same order (CPython's ``Random.shuffle``
    with ``_randbelow_with_getrandbits`` inlined), for every deal and restock shuffles a deck
    and the method call per card was most of a short match's setup. tests/test_kit.py checks
    it against ``Random.shuffle`` (a Python whose shuffle draws otherwise would fail there)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _game_data(game_id: str, doc: dict, copy_values: bool) -> Any:
    """The game's typed data from the state's ``data`` object (a dict for an untyped game)."""
    from .errors import UnknownGame
    from .game import get_game

    try:
        data_type = get_game(game_id).data_type
    except UnknownGame:
        data_type = None  # check_state refuses the game itself
    if data_type is None:
        return copy.deepcopy(doc) if copy_values else doc
    return data_type.from_json(doc, copy_values)


def _deepcopy(value: Any) -> Any:
    return copy.deepcopy(value)


def _same(value: Any) -> Any:
    return value


def _is(value: Any, kind: Any) -> bool:
    if kind is int:  # bool is an int in Python, never in a state
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidState(message)
