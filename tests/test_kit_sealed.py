"""The sealed-commit kit: one card per seat, hidden until every commitment is revealed at once."""

from __future__ import annotations

import itertools
import json

from shared.engine import HIDDEN, OWNER, PUBLIC, State, apply, new_match, redact, view
from shared.engine.kit.sealed import Sealed, default_card

SEALED = Sealed("duel", "card_committed")


def table(players: int = 3) -> State:
    """A bare state: each seat holds three cards of its own suit, and a public pile."""
    state = State("raj", "base", {}, players, "sealed")
    for s, suit in zip(range(players), "SHDC", strict=False):
        state.zone(f"hand:{s}", s, OWNER).cards = [f"2{suit}", f"9{suit}", f"K{suit}"]
    SEALED.create(state)
    state.zone("pile", None, PUBLIC)
    return state


def test_every_committing_seat_is_to_act_at_once_within_a_commit_window():
    state = table()
    SEALED.open(state, [2, 0], 30)
    assert state.to_act == [2, 0]
    assert state.deadline == {"kind": "commit", "seconds": 30.0}
    assert SEALED.flags(state) == [False, False, False]


def test_a_commit_moves_the_card_into_a_hidden_zone_owned_by_the_seat():
    state = table()
    SEALED.open(state, [0, 1, 2], 30)
    events = SEALED.commit(state, 1, "9H", "hand:1")
    zone = state.zones["duel:1"]
    assert (zone.cards, zone.owner, zone.visibility) == (["9H"], 1, HIDDEN)
    assert state.cards("hand:1") == ["2H", "KH"]
    assert state.to_act == [0, 2]
    assert SEALED.flags(state) == [False, True, False]
    assert SEALED.card_of(state, 1) == "9H" and SEALED.card_of(state, 0) is None
    assert events == [
        {"type": "card_committed", "seat": 1, "card": "9H", "timeout": False, "visible_to": [1]}
    ]


def test_only_the_committing_seat_sees_its_card_in_the_event():
    state = table()
    SEALED.open(state, [0, 1, 2], 30)
    (committed,) = SEALED.commit(state, 0, "KS", "hand:0")
    assert redact(committed, 0)["card"] == "KS"
    for seat in (1, 2, None):
        assert redact(committed, seat)["card"] is None


def test_no_view_shows_a_commit_before_the_reveal():
    state, _ = new_match("raj", players=3, seed="kit-sealed")
    apply(state, 0, {"type": "bid", "card": "QS"})
    for seat in (0, 1, 2, None):
        seen = view(state, seat)
        assert seen["zones"]["bid:0"]["cards"] == [None]
        if seat != 0:
            assert '"QS"' not in json.dumps(seen)


def test_complete_says_whether_every_committing_seat_has_committed():
    state = table()
    SEALED.open(state, [0, 2], 30)
    SEALED.commit(state, 2, "2D", "hand:2")
    assert not SEALED.complete(state, [0, 2])
    SEALED.commit(state, 0, "2S", "hand:0")
    assert SEALED.complete(state, [0, 2]) and state.to_act == []


def test_the_reveal_lists_the_cards_by_seat_whatever_the_order_of_arrival():
    outcomes = set()
    for order in itertools.permutations(range(3)):
        state = table()
        SEALED.open(state, [0, 1, 2], 30)
        cards = {0: "KS", 1: "2H", 2: "9D"}
        for seat in order:
            SEALED.commit(state, seat, cards[seat], f"hand:{seat}")
        revealed = SEALED.reveal(state, [0, 1, 2], "pile")
        assert state.deadline is None
        assert SEALED.flags(state) == [False, False, False]
        outcomes.add((tuple(revealed), json.dumps(state.to_json(), sort_keys=True)))
    assert len(outcomes) == 1
    (revealed, _), *_ = outcomes
    assert revealed == ("KS", "2H", "9D")


def test_then_puts_the_next_seat_to_act_only_after_the_first_has_committed():
    state = table(2)
    SEALED.open(state, [1], 30)
    assert state.to_act == [1]
    SEALED.commit(state, 1, "KH", "hand:1", then=0)
    assert state.to_act == [0]
    assert state.deadline == {"kind": "commit", "seconds": 30.0}
    SEALED.commit(state, 0, "2S", "hand:0", then=1)  # seat 1 has committed: nobody is added
    assert state.to_act == [] and SEALED.complete(state, [0, 1])


def test_the_timeout_commits_the_lowest_card_of_each_seat_still_to_act():
    state = table()
    SEALED.open(state, [0, 1, 2], 30)
    SEALED.commit(state, 1, "KH", "hand:1")
    hands = {s: f"hand:{s}" for s in range(3)}
    events = SEALED.commit_defaults(state, hands, "lowest")
    assert [(e["seat"], e["card"], e["timeout"]) for e in events] == [
        (0, "2S", True),
        (2, "2D", True),
    ]
    assert SEALED.complete(state, [0, 1, 2])


def test_the_timeout_with_an_order_commits_only_the_seat_whose_turn_it_is():
    state = table(2)
    SEALED.open(state, [1], 30)
    events = SEALED.commit_defaults(state, {0: "hand:0", 1: "hand:1"}, "lowest", then=0)
    assert [e["seat"] for e in events] == [1]
    assert state.to_act == [0] and not SEALED.committed(state, 0)


def test_a_random_default_comes_from_the_match_seed():
    first, again = table(), table()
    assert default_card(first, ["2S", "9S", "KS"], "random") == default_card(
        again, ["2S", "9S", "KS"], "random"
    )
    assert first.chance == 1
    assert default_card(table(), ["9S", "KS", "2S"], "lowest") == "2S"
