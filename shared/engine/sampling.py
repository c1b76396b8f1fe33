"""Full states rebuilt from one seat's view: what a bot that never peeks may search over.

A view shows every public card, the seat's own cards, the size of every zone, and the
game's public and private fields; it hides the other cards. ``sample_state`` deals the
hidden cards at random from those the view does not show (the game's deck minus every
visible card), one per hidden slot, so every zone keeps the size the view shows. Every
other part of the state comes from the view:

* the generic fields (phase, to act, scores, rounds, teams, deadline...) are copied;
* zone visibilities come from a state the game deals itself (``new_match``), where the
  zone exists there; otherwise they are read from what the view shows;
* the game's data starts from that dealt state's data and takes every game field of the
  view (not the core's) of the same name; a game whose view renames or derives a field it needs to
  play on gives it back with the optional hook ``Game.data_from_view(view, data)``;
* cards the seat knows from its private fields (a sealed bid only it has seen) go back
  into the hidden zones it owns before anything else is dealt.

The same view and generator always give the same state; a fresh seed for the sampled
state's chance makes its future draws differ between samples (shuffles are unknown too).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from functools import lru_cache
from typing import Any

from .cards import is_card
from .core import VIEW_FIELDS, new_match
from .data import GameData
from .errors import UnknownGame
from .game import Game, get_game
from .state import HIDDEN, OWNER, PUBLIC, TOP, State, Zone


@lru_cache(maxsize=512)
def _template(game_id: str, variant: str, players: int, options_key: str) -> State:
    """A state the game dealt itself with these options: zone visibilities, data shapes."""
    state, _ = new_match(
        game_id, variant, players, seed="template", options=json.loads(options_key)
    )
    return state


def game_of(view: dict) -> Game:
    """The view's game (``UnknownGame`` when it names none)."""
    game_id = view["game"]
    if not isinstance(game_id, str):
        raise UnknownGame(f"a view's game is a game id, not {game_id!r}")
    return get_game(game_id)


def template(view: dict) -> State:
    """The dealt state of the view's game, variant, players and options."""
    key = json.dumps(view["options"], sort_keys=True)
    return _template(game_of(view).id, view["variant"], view["players"], key)


def _visibility(name: str, shown: dict, seat: int | None, known: State) -> str:
    """The zone's visibility as the view shows it; the dealt state's where both fit.

    Visibilities change during play (a face-down cell turned up), so the view decides;
    the dealt state only tells apart what one seat's view cannot (public or its own)."""
    cards, owner = shown["cards"], shown["owner"]
    dealt = known.zones[name].visibility if name in known.zones else None
    mine = owner is not None and owner == seat
    if not cards:
        return dealt or PUBLIC
    if all(c is not None for c in cards):
        if dealt == OWNER and mine:
            return OWNER
        return TOP if dealt == TOP and len(cards) == 1 else PUBLIC
    if len(cards) > 1 and cards[-1] is not None and all(c is None for c in cards[:-1]):
        return TOP
    if dealt == OWNER and not mine:
        return OWNER
    return HIDDEN if dealt == HIDDEN or owner is None or mine else OWNER


def _cards_in(value: Any) -> list[str]:
    """Every card code in a view field (a card, or lists of them)."""
    if isinstance(value, str):
        return [value] if is_card(value) else []
    if isinstance(value, list):
        return [c for v in value for c in _cards_in(v)]
    return []


def private_cards(game: Game, view: dict, known: State) -> list[str]:
    """Cards named in the seat's private view fields (those a spectator's view lacks)."""
    public = game.public_fields(known).keys()
    names = [k for k in game.private_fields(known, 0) if k not in public] if known.players else []
    return [c for k in names for c in _cards_in(view.get(k))]


def sample_state(view: dict, rng: random.Random) -> State:
    """A full state consistent with ``view``: hidden cards dealt uniformly from the unseen ones."""
    game = game_of(view)
    seat = view["seat"]
    known = template(view)
    state = State(
        game.id, view["variant"], dict(view["options"]), view["players"], f"{rng.random()!r}"
    )
    state.chance = 0
    state.phase = view["phase"]
    state.to_act = list(view["to_act"])
    state.round = view["round"]
    state.scores = list(view["scores"])
    state.rounds = [list(r) for r in view["rounds"]]
    state.teams = [list(t) for t in view["teams"]] if view.get("teams") else None
    state.finished = view["finished"]
    state.result = view["result"]
    state.deadline = dict(view["deadline"]) if view["deadline"] else None
    state.moves = known.moves
    state.data = _data(game, view, known)

    unseen = Counter(game.deck(state))
    slots: list[tuple[Zone, int]] = []
    for name, shown in view["zones"].items():
        cards = list(shown["cards"])
        zone = Zone(cards, shown["owner"], _visibility(name, shown, seat, known))
        state.zones[name] = zone
        for i, card in enumerate(cards):
            if card is None:
                slots.append((zone, i))
            else:
                unseen[card] -= 1
    # Cards the seat knows but no zone shows it: into its own hidden zones first.
    own = [(z, i) for z, i in slots if z.owner == seat and seat is not None]
    mine = (
        [c for c in private_cards(game, view, known) if unseen[c] > 0] if seat is not None else []
    )
    placed = set()
    for card, (zone, i) in zip(mine, own, strict=False):
        zone.cards[i] = card
        unseen[card] -= 1
        placed.add((id(zone), i))
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    for zone, i in slots:
        if (id(zone), i) not in placed:
            zone.cards[i] = pool.pop()
    return state


def _data(game: Game, view: dict, known: State) -> Any:
    base = known.data
    if isinstance(base, GameData):
        doc = base.to_json()
        for name in type(base).field_names():
            if name in view and name not in VIEW_FIELDS and _same_kind(doc.get(name), view[name]):
                doc[name] = _copy(view[name])
        data: Any = type(base).from_json(doc)
    else:
        data = {
            k: _copy(view[k]) if k in view and k not in VIEW_FIELDS else _copy(v)
            for k, v in base.items()
        }
    hook = getattr(game, "data_from_view", None)
    if hook is not None:
        data = hook(view, data)
    return data


def _same_kind(default: Any, value: Any) -> bool:
    """Whether a view field can stand for a data field of that default (None: anything)."""
    if default is None or value is None:
        return True
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, int | float):
        return isinstance(value, int | float)
    return type(default) is type(value)


def _copy(value: Any) -> Any:
    return copy.deepcopy(value)
