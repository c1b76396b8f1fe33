"""E-Card: Emperor, citizens and Slave in a sealed duel (e-card.txt, docs/games/e-card.md)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from shared.engine import (
    IllegalAction,
    NotYourTurn,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    redact,
    view,
)
from shared.games.e_card import CARDS, beats, duel_winner, holds_both
from tests.rigging import rig

TIMEOUT = {"type": "timeout"}
CITIZENS = [f"{r}S" for r in range(2, 10)]


def match(seed: str = "e-card", **options) -> State:
    state, _ = new_match("e-card", "base", 2, seed=seed, options=options or None)
    return state


def piles(state: State, first: list[str], second: list[str]) -> State:
    """Rig the two face-down piles of a round still to be chosen."""
    assert state.phase == "choose"
    return rig(state, {"pile:0": first, "pile:1": second}, spill="played")


def dealt(emperor_hand: list[str], other: list[str], seed: str = "e-card") -> State:
    """A match where seat 0 chose pile 0 = ``emperor_hand`` and seat 1 holds ``other``."""
    state = match(seed)
    state.data.chooser = 0
    state.to_act = [0]
    piles(state, emperor_hand, other)
    apply(state, 0, {"type": "choose", "pile": 0})
    return state


def duel(state: State, first: str, second: str) -> list[dict]:
    """The seat to act (the K holder) commits ``first``, the other ``second``."""
    lead = state.to_act[0]
    return apply(state, lead, {"type": "play", "card": first}) + apply(
        state, 1 - lead, {"type": "play", "card": second}
    )


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


EMPEROR_SIDE = ["KS", "2S", "3S", "4S", "5S"]
SLAVE_SIDE = ["AS", "6S", "7S", "8S", "9S"]


# -- the three cards ------------------------------------------------------------------------
def test_the_cards_beat_each_other_in_a_circle_and_citizens_draw():
    assert beats("KS", "5S") and not beats("5S", "KS")
    assert beats("5S", "AS") and not beats("AS", "5S")
    assert beats("AS", "KS") and not beats("KS", "AS")
    assert duel_winner(["3S", "9S"]) is None  # not compared by number
    assert duel_winner(["AS", "KS"]) == 0 and duel_winner(["2S", "KS"]) == 1


def test_the_emperor_beats_a_citizen():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    events = duel(state, "KS", "6S")
    assert of_type(events, "cards_revealed")[0]["winner"] == 0
    assert of_type(events, "round_won") == [{"type": "round_won", "round": 1, "seat": 0}]
    assert state.scores == [1, 0] and state.rounds == [[1, 0]]


def test_a_citizen_beats_the_slave():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    duel(state, "2S", "AS")
    assert state.scores == [1, 0]


def test_the_slave_beats_the_emperor():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    duel(state, "KS", "AS")
    assert state.scores == [0, 1]


def test_two_citizens_draw_and_the_round_goes_on():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    events = duel(state, "2S", "9S")
    assert of_type(events, "cards_revealed")[0]["winner"] is None
    assert state.rounds == [] and state.round == 1
    assert state.cards("played") == ["2S", "9S"]
    assert state.phase == "play" and state.to_act == [0]  # the K holder leads again
    assert view(state, 1)["draws"] == 1


def test_after_four_draws_the_fifth_play_is_the_emperor_against_the_slave():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    for mine, theirs in zip(["2S", "3S", "4S", "5S"], ["6S", "7S", "8S", "9S"], strict=True):
        duel(state, mine, theirs)
    assert legal_actions(state, 0) == [{"type": "play", "card": "KS"}]
    duel(state, "KS", "AS")
    assert state.scores == [0, 1]


# -- the sealed order ------------------------------------------------------------------------
def test_the_holder_of_the_k_commits_first_still_sealed():
    state = dealt(SLAVE_SIDE, EMPEROR_SIDE)  # seat 1 holds the K
    assert state.to_act == [1] and view(state, 0)["emperor"] == 1
    with pytest.raises(NotYourTurn):
        apply(state, 0, {"type": "play", "card": "AS"})
    events = apply(state, 1, {"type": "play", "card": "KS"})
    assert state.to_act == [0]
    assert [redact(e, 0) for e in events] == [
        {"type": "card_committed", "seat": 1, "card": None, "timeout": False, "visible_to": [1]}
    ]
    seen = view(state, 0)
    assert seen["committed"] == [False, True] and seen["my_card"] is None
    assert '"KS"' not in json.dumps(seen) and '"KS"' not in json.dumps(view(state, None))
    assert view(state, 1)["my_card"] == "KS"
    events = apply(state, 0, {"type": "play", "card": "AS"})
    reveal = of_type(events, "cards_revealed")[0]
    assert reveal["cards"] == ["AS", "KS"] and "visible_to" not in reveal
    assert view(state, None)["last_reveal"] == {"cards": ["AS", "KS"], "winner": 0}


def test_a_committed_card_cannot_be_changed():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    apply(state, 0, {"type": "play", "card": "KS"})
    with pytest.raises(NotYourTurn):
        apply(state, 0, {"type": "play", "card": "2S"})
    assert state.cards("duel:0") == ["KS"]


# -- piles -----------------------------------------------------------------------------------
def test_a_pile_holding_both_the_k_and_the_a_loses_the_round_at_once():
    state = match()
    chooser = state.to_act[0]
    piles(state, ["KS", "AS", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S", "9S"])
    events = apply(state, chooser, {"type": "choose", "pile": 0})
    assert of_type(events, "automatic_loss") == [
        {"type": "automatic_loss", "seat": chooser, "round": 1}
    ]
    assert state.rounds == [[1, 0] if chooser == 1 else [0, 1]]
    assert state.round == 2 and state.phase == "choose"
    assert state.to_act == [1 - chooser]  # the winner picks first


def test_the_previous_winner_chooses_a_pile_first():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    duel(state, "KS", "AS")  # seat 1 wins
    assert state.phase == "choose" and state.to_act == [1]
    assert view(state, 0)["chooser"] == 1
    assert [z["count"] for name, z in view(state, 1)["zones"].items() if "pile" in name] == [5, 5]
    assert view(state, 1)["zones"]["pile:0"]["cards"] == [None] * 5  # chosen face down
    piles(state, EMPEROR_SIDE, SLAVE_SIDE)
    apply(state, 1, {"type": "choose", "pile": 1})
    assert len(state.cards("hand:0")) == len(state.cards("hand:1")) == 5
    check_state(state)


def test_the_chosen_pile_goes_to_the_chooser_and_the_other_to_the_opponent():
    state = match()
    chooser = state.to_act[0]
    piles(state, EMPEROR_SIDE, SLAVE_SIDE)
    apply(state, chooser, {"type": "choose", "pile": 1})
    assert sorted(state.cards(f"hand:{chooser}")) == sorted(SLAVE_SIDE)
    assert sorted(state.cards(f"hand:{1 - chooser}")) == sorted(EMPEROR_SIDE)
    assert state.to_act == [1 - chooser]  # who holds the K leads


# -- the match -------------------------------------------------------------------------------
def play_out(state: State) -> State:
    while not state.finished:
        apply(state, None, TIMEOUT) if state.phase == "play" else apply(
            state, state.to_act[0], {"type": "choose", "pile": 0}
        )
    return state


def test_twelve_rounds_are_played_and_the_most_rounds_won_wins():
    state = play_out(match("twelve"))
    assert len(state.rounds) == 12 and sum(state.scores) == 12
    best = max(state.scores)
    assert state.result is not None
    assert state.result["winners"] == [s for s in (0, 1) if state.scores[s] == best]


def test_a_six_six_tie_is_a_shared_win():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    state.rounds = [[1, 0], [0, 1]] * 5 + [[1, 0]]
    state.scores = [6, 5]
    duel(state, "KS", "AS")
    assert state.finished and state.scores == [6, 6]
    assert state.result is not None and state.result["winners"] == [0, 1]


def test_the_number_of_rounds_is_an_option():
    state = play_out(match("three", rounds=3))
    assert len(state.rounds) == 3


EVENT_SCENARIOS = {
    "sides_dealt": lambda: new_match("e-card", "base", 2, seed="kaiji", options={"deal": "kaiji"})[
        1
    ]
}


def test_the_kaiji_deal_gives_the_k_against_the_a_and_swaps_sides_every_three_rounds():
    state = match("kaiji", deal="kaiji")
    assert state.phase == "play"
    emperors = []
    while not state.finished:
        emperor = state.data.emperor
        if state.round > len(emperors):  # a new round: fresh hands
            assert "KS" in state.cards(f"hand:{emperor}")
            assert "AS" in state.cards(f"hand:{1 - emperor}")
            assert len(state.cards(f"hand:{emperor}")) == 5
            emperors.append(emperor)
        apply(state, None, TIMEOUT)
    first = emperors[0]
    assert emperors == [first] * 3 + [1 - first] * 3 + [first] * 3 + [1 - first] * 3


# -- deadline and timeout --------------------------------------------------------------------
def test_the_commit_window_is_open_only_while_cards_are_committed():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    assert state.deadline == {"kind": "commit", "seconds": 60.0}
    duel(state, "KS", "AS")
    assert state.phase == "choose" and state.deadline is None
    assert legal_actions(state, None) == []


def test_a_timeout_commits_a_random_card_for_the_seat_to_commit_only():
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE, seed="late")
    events = apply(state, None, TIMEOUT)
    assert [(e["seat"], e["timeout"]) for e in events] == [(0, True)]
    assert state.to_act == [1] and state.deadline is not None
    again = dealt(EMPEROR_SIDE, SLAVE_SIDE, seed="late")
    assert apply(again, None, TIMEOUT)[0]["card"] == events[0]["card"]  # from the seed


def test_a_timeout_may_commit_the_lowest_card_instead():
    state = match("low", timeout_play="lowest")
    state.data.chooser = 0
    state.to_act = [0]
    piles(state, EMPEROR_SIDE, SLAVE_SIDE)
    apply(state, 0, {"type": "choose", "pile": 0})
    events = apply(state, None, TIMEOUT)
    assert events[0]["card"] == "2S"


# -- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "play", "card": "AS"}, "AS is not in your hand"),
        ({"type": "play", "card": "KH"}, "KH is not in your hand"),
        ({"type": "choose", "pile": 0}, "choose is not possible in phase 'play'"),
        ({"type": "play"}, "play needs the field 'card'"),
    ],
)
def test_bad_plays_are_refused_and_change_nothing(action, message):
    state = dealt(EMPEROR_SIDE, SLAVE_SIDE)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message):
        apply(state, 0, action)
    assert state.to_json() == before


def test_a_pile_that_does_not_exist_is_refused():
    state = match()
    before = state.to_json()
    with pytest.raises(IllegalAction, match=r"pile must be one of \[0, 1\]"):
        apply(state, state.to_act[0], {"type": "choose", "pile": 2})
    with pytest.raises(IllegalAction, match="play is not possible in phase 'choose'"):
        apply(state, state.to_act[0], {"type": "play", "card": "KS"})
    assert state.to_json() == before


def test_random_piles_give_an_automatic_loss_in_four_deals_out_of_nine():
    """Every split of the ten cards into the two piles, counted: 2·C(8,3) of C(10,5)."""
    splits = list(itertools.combinations(CARDS, 5))
    lost = sum(
        holds_both(list(pile)) or holds_both([c for c in CARDS if c not in pile]) for pile in splits
    )
    assert len(splits) == 252 and lost == 112
    assert Fraction(lost, len(splits)) == Fraction(4, 9)
