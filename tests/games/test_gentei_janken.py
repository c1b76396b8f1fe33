"""Gentei Janken: suits as rock-paper-scissors, hearts as chips (gentei-janken.txt,
docs/games/gentei-janken.md)."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from shared.engine import (
    BadSetup,
    IllegalAction,
    NotYourTurn,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    redact,
    suit,
    view,
)
from shared.games.gentei_janken import stronger
from tests.rigging import rig

TIMEOUT = {"type": "timeout"}


def match(variant: str = "base", seed: str = "gentei", **options) -> State:
    state, _ = new_match("gentei-janken", variant, 3, seed=seed, options=options or None)
    return state


def turn_of(state: State, seat: int) -> State:
    state.data.active = seat
    state.phase, state.to_act = "challenge", [seat]
    return state


def hands(state: State, **layout: list[str]) -> State:
    """Rig zones named with ``_`` for ``:`` (``hand_0``, ``chips_1``); the rest goes unused."""
    rig(state, {k.replace("_", ":"): v for k, v in layout.items()}, spill="unused")
    state.scores = [len(state.cards(f"chips:{s}")) for s in range(3)]
    return state


def duel(state: State, challenger: int, opponent: int, mine: str, theirs: str) -> list[dict]:
    events = apply(state, challenger, {"type": "challenge", "seat": opponent})
    events += apply(state, challenger, {"type": "play", "card": mine})
    return events + apply(state, opponent, {"type": "play", "card": theirs})


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def rigged(variant: str = "base", seed: str = "gentei") -> State:
    """Seat 0 to challenge; every seat holds spades, diamonds and clubs and 3 chips."""
    state = match(variant, seed)
    hands(
        state,
        hand_0=["2S", "3S", "2D", "3D", "2C", "3C"],
        hand_1=["4S", "5S", "4D", "5D", "4C", "5C"],
        hand_2=["6S", "7S", "6D", "7D", "6C", "7C"],
    )
    return turn_of(state, 0)


# -- the deal ------------------------------------------------------------------------------
def test_each_player_gets_four_cards_of_each_sign_and_three_heart_chips():
    state = match()
    for s in range(3):
        assert Counter(suit(c) for c in state.cards(f"hand:{s}")) == {"S": 4, "D": 4, "C": 4}
        assert [suit(c) for c in state.cards(f"chips:{s}")] == ["H"] * 3
    assert len(state.cards("bank")) == 4 and len(state.cards("unused")) == 3
    assert state.scores == [3, 3, 3]
    check_state(state)


def test_one_deck_serves_only_three_players():
    with pytest.raises(BadSetup, match="3 to 3 players, not 4"):
        new_match("gentei-janken", "base", 4)
    with pytest.raises(BadSetup, match="3 to 3 players, not 2"):
        new_match("gentei-janken", "extremo", 2)


# -- the duel ------------------------------------------------------------------------------
def test_spades_beat_diamonds_diamonds_beat_clubs_and_clubs_beat_spades():
    assert stronger("2S", "KD") == 0 and stronger("KD", "2S") == 1
    assert stronger("9D", "AC") == 0
    assert stronger("AC", "QS") == 0
    assert stronger("5S", "KS") is None  # ranks never matter


def test_the_stronger_suit_takes_one_chip_from_the_other():
    state = rigged()
    events = duel(state, 0, 2, "2S", "6D")
    assert of_type(events, "cards_revealed") == [
        {"type": "cards_revealed", "seats": [0, 2], "cards": ["2S", "6D"], "winner": 0}
    ]
    assert of_type(events, "chips_taken") == [
        {"type": "chips_taken", "seat": 0, "loser": 2, "chips": 1}
    ]
    assert state.scores == [4, 3, 2]
    assert len(state.cards("chips:0")) == 4 and len(state.cards("chips:2")) == 2


def test_the_same_suit_keeps_both_players_chips():
    state = rigged()
    events = duel(state, 0, 1, "2C", "5C")
    assert of_type(events, "cards_revealed")[0]["winner"] is None
    assert not of_type(events, "chips_taken") and state.scores == [3, 3, 3]


def test_the_challenged_player_wins_with_the_stronger_suit_too():
    state = rigged()
    duel(state, 0, 1, "2S", "4C")
    assert state.scores == [2, 4, 3]


def test_both_duellists_commit_at_once_and_nothing_shows_before_the_reveal():
    state = rigged()
    apply(state, 0, {"type": "challenge", "seat": 2})
    assert state.phase == "duel" and state.to_act == [0, 2]
    assert state.deadline == {"kind": "commit", "seconds": 60.0}
    assert legal_actions(state, 1) == []
    events = apply(state, 2, {"type": "play", "card": "7C"})
    for seat in (0, 1, None):
        assert redact(events[0], seat)["card"] is None
        seen = view(state, seat)
        assert seen["committed"] == [False, False, True]
        assert '"7C"' not in json.dumps(seen)
    assert view(state, 2)["my_card"] == "7C"
    assert state.to_act == [0]


def test_the_outcome_does_not_depend_on_the_order_of_the_commits():
    finals = set()
    for first, second in itertools.permutations([(0, "3D"), (1, "4C")]):
        state = rigged()
        apply(state, 0, {"type": "challenge", "seat": 1})
        for seat, card in (first, second):
            apply(state, seat, {"type": "play", "card": card})
        finals.add(json.dumps(state.to_json(), sort_keys=True))
    assert len(finals) == 1


def test_played_cards_go_face_down_to_the_discard_pile():
    state = rigged()
    duel(state, 0, 1, "2S", "4D")
    assert sorted(state.cards("discard")) == ["2S", "4D"]
    assert view(state, 0)["zones"]["discard"]["cards"] == [None, None]
    assert view(state, None)["last_duel"] == {
        "seats": [0, 1], "cards": ["2S", "4D"], "winner": 0, "chips": 1
    }  # fmt: skip


def test_the_turn_passes_to_the_left_of_the_challenger():
    state = rigged()
    duel(state, 0, 2, "2S", "6S")
    assert state.phase == "challenge" and state.to_act == [1]
    assert view(state, 0)["active"] == 1


# -- whom one may challenge -------------------------------------------------------------------
def test_a_player_without_cards_cannot_be_challenged():
    state = rigged()
    hands(state, hand_2=[])
    assert {"type": "challenge", "seat": 2} not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="seat 2 has no cards left"):
        apply(state, 0, {"type": "challenge", "seat": 2})


def test_a_player_without_chips_cannot_be_challenged():
    state = rigged("extremo")
    hands(state, chips_2=[])
    with pytest.raises(IllegalAction, match="seat 2 has no chips"):
        apply(state, 0, {"type": "challenge", "seat": 2})
    assert legal_actions(state, 0) == [{"type": "challenge", "seat": 1}]


def test_nobody_challenges_themselves():
    state = rigged()
    with pytest.raises(IllegalAction, match="cannot challenge yourself"):
        apply(state, 0, {"type": "challenge", "seat": 0})


# -- elimination and the end ---------------------------------------------------------------
def test_a_player_left_without_chips_is_out_and_discards_their_cards():
    state = rigged()
    hands(state, chips_1=["AH"], chips_0=["2H", "3H", "4H"])
    events = duel(state, 0, 1, "2D", "4C")
    assert of_type(events, "eliminated") == [{"type": "eliminated", "seat": 1, "discarded": 5}]
    assert state.cards("hand:1") == [] and len(state.cards("discard")) == 7
    assert view(state, None)["out"] == [1]
    assert state.to_act == [2]  # seat 1, out, is skipped
    with pytest.raises(IllegalAction, match="seat 1 is out of the game"):
        apply(state, 2, {"type": "challenge", "seat": 1})


def test_the_match_ends_when_no_challenge_is_possible_and_the_most_chips_win():
    state = rigged()
    hands(
        state,
        hand_0=["2S"], hand_1=["4D"], hand_2=[],
        chips_0=["2H", "3H", "4H"], chips_1=["5H", "6H"], chips_2=["7H", "8H", "9H", "10H"],
    )  # fmt: skip
    events = duel(state, 0, 1, "2S", "4D")
    assert state.finished and state.scores == [4, 1, 4]
    assert state.result is not None and state.result["winners"] == [0, 2]  # a tie is shared
    assert of_type(events, "match_finished")[0]["reason"] == "no challenge is possible"


def test_a_player_with_chips_but_no_cards_keeps_them_to_the_end():
    state = rigged()
    hands(state, hand_1=[], chips_1=["5H", "6H", "7H", "8H", "9H"])
    state.scores = [3, 5, 3]
    duel(state, 0, 2, "2S", "6S")
    assert state.to_act == [2]  # seat 1 cannot challenge: no cards
    assert state.scores[1] == 5


# -- extremo ---------------------------------------------------------------------------------
def test_extremo_a_player_without_chips_stays_in_and_may_challenge():
    state = rigged("extremo")
    hands(state, chips_1=["AH"], chips_0=["2H", "3H", "4H"])
    duel(state, 0, 1, "2D", "4C")
    assert state.scores[1] == 0 and view(state, None)["out"] == []
    turn_of(state, 1)
    assert {"type": "challenge", "seat": 0} in legal_actions(state, 1)


def test_extremo_a_chipless_challenger_who_wins_takes_two_chips():
    state = rigged("extremo")
    hands(state, chips_1=[], chips_0=["AH", "2H", "3H", "4H"])
    turn_of(state, 1)
    events = duel(state, 1, 0, "4S", "2D")
    assert of_type(events, "chips_taken")[0]["chips"] == 2
    assert state.scores[:2] == [2, 2]


def chipless_challenger_loses():
    """Extremo: seat 1, without chips, challenges seat 0 and loses: it gives all its cards."""
    state = rigged("extremo")
    hands(state, chips_1=[], chips_0=["AH", "2H", "3H", "4H"])
    turn_of(state, 1)
    return state, duel(state, 1, 0, "4S", "2C")


EVENT_SCENARIOS = {
    "cards_given": lambda: chipless_challenger_loses()[1],
    "eliminated": lambda: chipless_challenger_loses()[1],
}


def test_extremo_a_chipless_challenger_who_loses_gives_all_their_cards():
    state, events = chipless_challenger_loses()
    given = of_type(events, "cards_given")[0]
    assert given["seat"] == 1 and given["to"] == 0 and len(given["cards"]) == 5
    assert redact(given, 2)["cards"] == [None] * 5 and redact(given, 0)["cards"] == given["cards"]
    assert len(state.cards("hand:0")) == 5 + 5 and state.cards("hand:1") == []
    assert state.scores[:2] == [4, 0]
    assert of_type(events, "eliminated") == [{"type": "eliminated", "seat": 1, "discarded": 0}]


# -- deadline, timeout and bad input -----------------------------------------------------------
def test_a_timeout_commits_a_random_card_for_each_duellist_still_to_commit():
    state = rigged(seed="late")
    apply(state, 0, {"type": "challenge", "seat": 1})
    apply(state, 1, {"type": "play", "card": "4S"})
    events = apply(state, None, TIMEOUT)
    forced = of_type(events, "card_committed")
    assert [(e["seat"], e["timeout"]) for e in forced] == [(0, True)]
    assert suit(forced[0]["card"]) in "SDC" and of_type(events, "cards_revealed")
    assert state.deadline is None and state.phase == "challenge"


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (0, {"type": "play", "card": "2S"}, "play is not possible in phase 'challenge'"),
        (0, {"type": "challenge", "seat": 3}, "seat must be a seat number from 0 to 2"),
        (0, {"type": "challenge"}, "challenge needs the field 'seat'"),
    ],
)
def test_bad_challenges_are_refused_and_change_nothing(seat, action, message):
    state = rigged()
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message):
        apply(state, seat, action)
    assert state.to_json() == before


def test_a_card_not_held_is_refused_and_only_duellists_commit():
    state = rigged()
    apply(state, 0, {"type": "challenge", "seat": 1})
    before = state.to_json()
    with pytest.raises(IllegalAction, match="4S is not in your hand"):
        apply(state, 0, {"type": "play", "card": "4S"})
    with pytest.raises(NotYourTurn):
        apply(state, 2, {"type": "play", "card": "6S"})
    assert state.to_json() == before


def test_the_turn_may_pass_to_the_right_instead():
    state = match(direction="counterclockwise")
    hands(state, hand_0=["2S", "2D"], hand_1=["4S", "4D"], hand_2=["6S", "6D"])
    turn_of(state, 0)
    duel(state, 0, 1, "2S", "4S")
    assert state.to_act == [2]
