"""Undo in a solitaire: one move back at a time, to the exact earlier state, never across a
card shown or a shuffle; the log's undo entries replay and verify."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from shared.engine import IllegalAction, State, apply, legal_actions, new_match
from shared.engine.undo import Undo, undoable
from shared.verify import engine_state_hash, verify

SOLITAIRES = [
    "el-9",
    "solitario-4-ases",
    "solitario-espanol",
    "solitario-golf",
    "solitario-piramide",
]
UNDO = {"type": "undo"}


def moves_until(game: str, wanted: bool, seed: str = "undo") -> tuple[State, State, Undo]:
    """Random legal moves from a seeded deal until one whose undoability is ``wanted``:
    (the state before it, the state after it, the undo stack after it)."""
    rng = random.Random(seed)
    for attempt in range(50):
        state, _ = new_match(game, seed=f"{seed}-{attempt}")
        undo = Undo()
        while not state.finished:
            before = state.clone()
            apply(state, 0, rng.choice(legal_actions(state, 0)))
            undo.played(before, state)
            if undoable(before, state) == wanted and not state.finished:
                return before, state, undo
    raise AssertionError(f"{game}: no move with undoable={wanted} found")


@pytest.mark.parametrize("game", SOLITAIRES)
def test_undo_returns_the_exact_state_before_the_move(game: str):
    before, after, undo = moves_until(game, wanted=True)
    assert engine_state_hash(after) != engine_state_hash(before)
    restored = undo.take_back(after)
    assert engine_state_hash(restored) == engine_state_hash(before)


@pytest.mark.parametrize("game", SOLITAIRES)
def test_undo_is_refused_after_a_move_that_shows_a_card_or_shuffles(game: str):
    _, after, undo = moves_until(game, wanted=False)
    with pytest.raises(IllegalAction):
        undo.take_back(after)


def test_a_move_that_turns_a_hidden_card_is_not_undoable():
    """Golf's stock: the card drawn onto the waste was face down."""
    state, _ = new_match("solitario-golf", seed="draw")
    while {"type": "draw"} not in legal_actions(state, 0):  # until no column card can go down
        apply(state, 0, legal_actions(state, 0)[0])
    before = state.clone()
    apply(state, 0, {"type": "draw"})
    assert not undoable(before, state)
    assert undoable(before, before.clone())  # a move that changed nothing shows nothing


def test_undo_is_for_solitaires_only():
    state, _ = new_match("brisca", players=2, seed="two")
    with pytest.raises(IllegalAction):
        Undo().take_back(state)


def solitaire_log(game: str, undo_after: int) -> list[dict]:
    """A finished solitaire as the lobby logs it, with an undo right after the first undoable
    move at or after ``undo_after`` moves (then random play to the end)."""
    seed = "log-" + game
    digest = hashlib.sha256(seed.encode()).hexdigest()
    state, events = new_match(game, seed=seed)
    match = {"game": game, "variant": "base", "players": 1}
    entries = [
        {"version": 1, "kind": "match.created", "match": match},
        {"version": 2, "kind": "match.started", "setup": {**match, "options": {}},
         "seed_sha256": digest, "events": [{"type": "match_started", "seed_sha256": digest}, *events],
         "state_hash": engine_state_hash(state), "to_act": state.to_act},
    ]  # fmt: skip
    rng, undo, undone = random.Random(seed), Undo(), False
    while not state.finished:
        if not undone and len(entries) - 2 >= undo_after and undo.may_undo(state):
            state, action, events, undone = undo.take_back(state), UNDO, [], True
        else:
            before = state.clone()
            action = rng.choice(legal_actions(state, 0))
            events = apply(state, 0, action)
            undo.played(before, state)
        entries.append(
            {"version": len(entries) + 1, "kind": "action", "actor": {"seat": 0},
             "action": action, "events": json.loads(json.dumps(events)),
             "state_hash": engine_state_hash(state), "to_act": list(state.to_act)}
        )  # fmt: skip
    assert undone, "no undoable move in this match"
    entries[-1].update(finished=True, seed=seed, result=json.loads(json.dumps(state.result)))
    return entries


def test_a_logged_undo_replays_and_verifies():
    entries = solitaire_log("solitario-piramide", undo_after=3)
    report = verify(entries)
    assert report["ok"], report["divergences"]


def test_an_undo_logged_after_a_card_was_shown_fails_verify():
    """The same undo, moved to after a move that showed a card: the engine refuses it."""
    entries = solitaire_log("solitario-piramide", undo_after=3)
    [undo_at] = [i for i, e in enumerate(entries) if e.get("action") == UNDO]
    state, _ = new_match("solitario-piramide", seed="log-solitario-piramide")
    shown = None
    for i, entry in enumerate(entries[2:undo_at], start=2):
        before = state.clone()
        apply(state, 0, entry["action"])
        if not undoable(before, state):
            shown = i
    assert shown is not None, "no card was shown before the undo"
    forged = entries[: shown + 1] + [{**entries[undo_at], "version": shown + 2}]
    forged[-1].update(finished=True, seed="log-solitario-piramide", result=None)
    report = verify(forged)
    assert not report["ok"]
    assert report["divergences"][0]["version"] == shown + 2
