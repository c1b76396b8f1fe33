"""Invariants every game and variant must keep, checked on random matches (later games join by registering)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from shared import jsoncodec
from shared.engine import (
    TOP,
    IllegalAction,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    redact,
    view,
)
from shared.engine.core import VIEW_FIELDS
from shared.engine.game import get_game
from tests.playouts import choose, playout, variant_cases

CASES = variant_cases()
SEEDS = ["alpha", "beta"]


def ids(case: tuple[str, str, int]) -> str:
    return f"{case[0]}/{case[1]}/{case[2]}p"


@pytest.mark.parametrize("case", CASES, ids=ids)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_match_ends_with_a_result_and_conserves_cards(case, seed):
    game, variant, players = case
    state = None
    for state, _seat, _action, _events in playout(game, variant, players, seed):
        check_state(state)
    assert state is not None, "a match needs at least one action"
    result = state.result
    assert state.finished and result is not None
    assert set(result["winners"]) <= set(range(players))
    assert result["winners"] or players == 1 or result.get("reason") == "house_won", (
        "only a solitaire, or a match against a house that won, may end with nobody winning"
    )
    assert len(result["scores"]) == players
    assert all(len(r) == players for r in result["rounds"])
    assert legal_actions(state, 0) == []


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_every_listed_legal_action_applies(case):
    game, variant, players = case
    for step, (state, _seat, _action, _events) in enumerate(
        playout(game, variant, players, "listed")
    ):
        if step % 5 or state.finished:
            continue
        seats = list(state.to_act) + [None]
        for seat in seats:
            for action in legal_actions(state, seat):
                trial = state.clone()
                apply(trial, seat, action)
                check_state(trial)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_views_hide_other_hands_as_from_a_spectator(case):
    game, variant, players = case
    for state, _seat, _action, events in playout(game, variant, players, "views"):
        spectator = view(state, None)
        for seat in range(players):
            mine = view(state, seat)
            for name, zone in mine["zones"].items():
                if zone["owner"] is not None and zone["owner"] != seat:
                    assert zone["cards"] == spectator["zones"][name]["cards"], (name, seat)
            for ev in events:
                if ev.get("visible_to") is not None and seat not in ev["visible_to"]:
                    shown = redact(ev, seat)
                    assert shown.get("card") is None and not any(shown.get("cards") or [])


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_game_view_fields_never_take_the_name_of_a_core_view_field(case):
    """A game field named like a core field (``game``, ``finished``, ``rounds``...) would
    replace the core's value in every client's view."""
    game_id, variant, players = case
    game = get_game(game_id)
    for state, *_rest in playout(game_id, variant, players, "fields"):
        for seat in [None, *range(players)]:
            own = game.view_fields(state, seat)
            assert not VIEW_FIELDS & own.keys(), (seat, sorted(VIEW_FIELDS & own.keys()))
            shown = view(state, seat)
            assert shown.keys() - own.keys() <= VIEW_FIELDS
            assert (shown["game"], shown["finished"]) == (state.game, state.finished)
            assert shown["rounds"] == [list(r) for r in state.rounds]


@pytest.mark.parametrize(
    ("hook", "clash"),
    [("public_fields", {"finished": [1]}), ("private_fields", {"seat": 2, "ok": 1})],
)
def test_the_core_refuses_a_game_field_named_like_a_core_view_field(monkeypatch, hook, clash):
    state, _ = new_match("presidente", "base", 4, seed="clash")
    game = get_game("presidente")
    monkeypatch.setattr(game, hook, lambda *args: clash)
    name = next(k for k in clash if k in VIEW_FIELDS)
    with pytest.raises(TypeError, match=f"presidente: its view fields \\['{name}'\\]"):
        view(state, 1)


def canonical(value: object) -> object:
    """A hashable form of an action where lists compare as multisets."""
    if isinstance(value, dict):
        return tuple(sorted((k, canonical(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(sorted((canonical(v) for v in value), key=repr))
    return value


def unseen_slots(state: State, seat: int) -> list[tuple[str, int]]:
    """Every (zone, index) holding a card that ``seat`` cannot see. Its own hidden zones are
    left out: they may hold what it committed itself (a sealed bid), which it knows."""
    slots = []
    for name, zone in state.zones.items():
        if zone.visible_to(seat) or zone.owner == seat:
            continue
        last = len(zone.cards) - 1 if zone.visibility == TOP else len(zone.cards)
        slots.extend((name, i) for i in range(last))
    return slots


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_a_view_does_not_change_when_the_cards_its_seat_cannot_see_are_permuted(case):
    """What a seat sees depends only on what it may see: shuffling every card hidden from it
    among the places they occupy changes nothing in its view (fields, counts, legal actions)."""
    game, variant, players = case
    rng = random.Random("permute")
    for step, (state, *_rest) in enumerate(playout(game, variant, players, "permute")):
        if step % 3 or state.finished:
            continue
        for seat in range(players):
            slots = unseen_slots(state, seat)
            if len(slots) < 2:
                continue
            cards = [state.zones[name].cards[i] for name, i in slots]
            rng.shuffle(cards)
            other = state.clone()
            for (name, i), card in zip(slots, cards, strict=True):
                other.zones[name].cards[i] = card
            assert view(other, seat) == view(state, seat), (step, seat)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_direct_enumerations_agree_with_the_refusals(case):
    """Where a game lists an action type's legal actions directly, they are exactly the
    candidates its refusal accepts (the one source of legality)."""
    game_id, variant, players = case
    table = [a for a in get_game(game_id).action_table.values() if a._enumerate and a._candidates]
    if not table:
        pytest.skip("no action type is enumerated directly")
    game = get_game(game_id)
    for state, *_rest in playout(game_id, variant, players, "enumerate"):
        for seat in state.to_act:
            for kind in table:
                if kind.open_in(state.phase):
                    fast = sorted(map(canonical, kind.legal(game, state, seat)), key=repr)
                    slow = sorted(map(canonical, kind.filtered(game, state, seat)), key=repr)
                    assert fast == slow, (kind.type, state.phase)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_same_seed_replays_to_the_same_states(case):
    game, variant, players = case
    first = [
        json.dumps(s.to_json(), sort_keys=True)
        for s, *_ in playout(game, variant, players, "replay")
    ]
    again = [
        json.dumps(s.to_json(), sort_keys=True)
        for s, *_ in playout(game, variant, players, "replay")
    ]
    assert first == again
    # replaying the recorded actions on a fresh deal reaches the same states
    state, _ = new_match(game, variant, players, seed="replay")
    rng = random.Random("replay")
    for recorded in first:
        seat, action = choose(state, rng)
        apply(state, seat, action)
        assert json.dumps(state.to_json(), sort_keys=True) == recorded


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_state_json_round_trips(case):
    game, variant, players = case
    for state, *_ in playout(game, variant, players, "json"):
        doc = json.loads(json.dumps(state.to_json()))
        assert State.from_json(doc).to_json() == state.to_json()


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_canonical_json_is_the_byte_form_earlier_seals_and_state_hashes_used(case):
    game, variant, players = case
    for state, *_ in playout(game, variant, players, "canonical"):
        doc = state.to_json()
        legacy = json.dumps(doc, sort_keys=True, separators=(",", ":"), allow_nan=False)
        assert jsoncodec.canonical(doc) == legacy.encode()


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_illegal_action_is_refused_and_changes_nothing(case):
    game, variant, players = case
    for step, (state, *_rest) in enumerate(playout(game, variant, players, "illegal")):
        if step % 7 or state.finished:
            continue
        before = json.dumps(state.to_json(), sort_keys=True)
        bad = [(s, {"type": "no-such-action"}) for s in state.to_act]
        bad += [(s, {"type": "play", "card": "99X"}) for s in state.to_act]
        bad += [(s, {"type": "play"}) for s in range(players) if s not in state.to_act]
        for seat, action in bad:
            with pytest.raises(IllegalAction):
                apply(state, seat, action)
            assert json.dumps(state.to_json(), sort_keys=True) == before


def test_the_registry_is_whole_for_threads_that_ask_during_its_first_load():
    """A fresh process whose threads all ask for a game at once (a gunicorn worker's first
    requests) must find every game, not a registry still being filled."""
    script = """
import threading
from shared.engine import get_game
found, threads = [], []
for _ in range(16):
    threads.append(threading.Thread(target=lambda: found.append(get_game("brisca").id)))
for t in threads: t.start()
for t in threads: t.join()
print(len(found))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "16"
