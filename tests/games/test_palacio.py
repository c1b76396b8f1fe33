"""Palacio: equal or higher with J = Q = K, the 2, burning, drawing, the pile, table cards."""

from __future__ import annotations

import json
import random

import pytest

from shared.engine import (
    IllegalAction,
    NotYourTurn,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    view,
)
from tests.rigging import rig


def match(players: int = 2, seed: str = "palacio", **options) -> State:
    state, _ = new_match("palacio", "base", players, seed=seed, options=options or None)
    return state


def table(
    hands: list[list[str]],
    pile: list[str],
    ups: list[list[str]] | None = None,
    downs: list[list[str]] | None = None,
    stock: list[str] | None = None,
    to_act: int = 0,
    **options,
) -> State:
    """A game in play with these zones; unnamed table cards are filled by the deal, the rest burned."""
    state = match(len(hands), **options)
    layout = {"pile": pile, "stock": stock if stock is not None else ["4C", "4D"]}
    for s, cards in enumerate(hands):
        layout[f"hand:{s}"] = cards
        layout[f"up:{s}"] = ups[s] if ups else ["QD", "QH", "QS"]
        layout[f"down:{s}"] = downs[s] if downs else ["AD", "8D", "5H"]
    rig(state, layout, spill="burned")
    state.phase, state.to_act = "play", [to_act]
    state.data.arranged, state.data.must_follow = None, False
    check_state(state)
    return state


def play(state: State, seat: int, *cards: str) -> list[dict]:
    return apply(state, seat, {"type": "play", "cards": list(cards)})


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def plays(state: State, seat: int) -> list[list[str]]:
    return sorted(a["cards"] for a in legal_actions(state, seat) if a["type"] == "play")


# -- the deal and the arrangement ----------------------------------------------------------
def test_the_deal_is_three_in_hand_three_face_up_three_face_down_and_a_pile_card():
    state = match(3)
    for s in range(3):
        assert [len(state.cards(z)) for z in (f"hand:{s}", f"up:{s}", f"down:{s}")] == [3, 3, 3]
    assert len(state.cards("pile")) == 1
    assert len(state.cards("stock")) == 104 - 27 - 1
    assert state.all_cards().count("AS") == 2  # two decks, no jokers
    assert "JK" not in state.all_cards()


def test_face_down_cards_are_hidden_even_from_their_owner():
    state = match(2)
    for seat in (0, 1, None):
        assert view(state, seat)["zones"]["down:0"]["cards"] == [None] * 3
    assert view(state, 1)["zones"]["up:0"]["cards"] == state.cards("up:0")


def test_before_play_each_player_may_swap_hand_and_face_up_cards():
    state = match(2, seed="arrange")
    assert state.phase == "arrange" and state.to_act == [0, 1]
    pool = state.cards("hand:0") + state.cards("up:0")
    assert len(legal_actions(state, 0)) <= 20
    choice = sorted(pool)[-3:]
    apply(state, 0, {"type": "arrange", "up": choice})
    assert sorted(state.cards("up:0")) == choice
    assert sorted(state.cards("hand:0") + choice) == sorted(pool)
    assert state.to_act == [1]
    with pytest.raises(IllegalAction, match="exactly 3"):
        apply(state, 1, {"type": "arrange", "up": state.cards("up:1")[:2]})
    apply(state, 1, {"type": "arrange", "up": list(state.cards("up:1"))})
    first = (state.data.dealer + 1) % 2
    assert state.phase == "play" and state.to_act == [first]
    assert len(state.cards(f"hand:{first}")) == 4  # the first player drew first


# -- equal or higher -----------------------------------------------------------------------
def test_a_card_must_be_equal_to_or_higher_than_the_top_of_the_pile():
    state = table([["6S", "7H", "9D"], ["5C"]], pile=["7S"])
    assert plays(state, 0) == [["7H"], ["9D"]]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="a 6 is lower than the 7"):
        play(state, 0, "6S")
    assert snapshot(state) == before
    play(state, 0, "7H")
    assert state.cards("pile")[-1] == "7H" and state.to_act == [1]


def test_j_q_and_k_are_worth_ten_and_equal_to_each_other():
    state = table([["JS", "9D"], ["QC", "KD", "5C"]], pile=["KS"])
    assert plays(state, 0) == [["JS"]]
    play(state, 0, "JS")
    assert plays(state, 1)[:2] == [["KD"], ["QC"]]
    play(state, 1, "QC")


def test_the_ace_is_above_the_king_or_low_as_an_option():
    state = table([["AS", "3D"], ["5C"]], pile=["KS"])
    assert ["AS"] in plays(state, 0)
    state = table([["AS", "3D"], ["5C"]], pile=["3S"], ace="low")
    assert plays(state, 0) == [["3D"]]


def test_all_the_cards_of_one_rank_may_go_together():
    state = table([["8S", "8H", "8S", "4D"], ["5C"]], pile=["7S"])
    assert plays(state, 0) == [["8H"], ["8H", "8S"], ["8H", "8S", "8S"]]
    play(state, 0, "8S", "8H")
    assert state.cards("pile") == ["7S", "8S", "8H"]


def test_three_cards_of_one_rank_played_together_burn_the_pile():
    state = table([["8S", "8H", "8S", "4D"], ["5C"]], pile=["7S"])
    events = play(state, 0, "8S", "8H", "8S")
    assert of_type(events, "burned")[0]["reason"] == "run" and state.cards("pile") == []


# -- the 2 ---------------------------------------------------------------------------------
def test_a_two_goes_on_anything_and_must_be_followed_by_another_card():
    state = table([["2S", "3D", "9H"], ["5C"]], pile=["AS"])
    assert ["2S"] in plays(state, 0)
    events = play(state, 0, "2S")
    assert of_type(events, "must_follow") and state.to_act == [0]
    assert view(state, 1)["must_follow"] is True
    assert plays(state, 0) == [["3D"], ["9H"]]  # anything goes on the 2
    with pytest.raises(IllegalAction, match="you can play"):
        apply(state, 0, {"type": "pickup"})
    play(state, 0, "3D")
    assert state.to_act == [1] and state.cards("pile")[-2:] == ["2S", "3D"]


def test_a_two_that_is_the_last_card_in_hand_may_stand_alone():
    state = table([["2S"], ["5C", "6C"]], pile=["AS"], stock=[])
    play(state, 0, "2S")
    assert state.to_act == [1] and not state.data.must_follow
    assert plays(state, 1) == [["5C"], ["6C"]]  # the 2 resets the pile


# -- burning -------------------------------------------------------------------------------
def test_a_ten_burns_the_pile_and_the_next_player_starts_a_clean_pile():
    state = table([["10S", "4D"], ["3C", "6C"]], pile=["5S", "9H"])
    events = play(state, 0, "10S")
    assert of_type(events, "burned") == [{"type": "burned", "seat": 0, "reason": "ten"}]
    assert state.cards("pile") == [] and state.cards("burned")[-3:] == ["5S", "9H", "10S"]
    assert state.to_act == [1] and plays(state, 1) == [["3C"], ["4D"], ["6C"]]


def test_a_ten_must_meet_the_pile_unless_the_option_lets_it_go_on_anything():
    state = table([["10S", "4D"], ["3C"]], pile=["AH"])
    with pytest.raises(IllegalAction, match="lower than the A"):
        play(state, 0, "10S")
    state = table([["10S", "4D"], ["3C"]], pile=["AH"], ten_on_anything=True)
    play(state, 0, "10S")
    assert state.cards("pile") == []


def test_three_equal_ranks_in_a_row_burn_the_pile_even_from_different_players():
    state = table([["6S", "6D"], ["6H", "6C"]], pile=["4S"], stock=[])
    play(state, 0, "6S")
    play(state, 1, "6H")
    events = play(state, 0, "6D")
    assert of_type(events, "burned")[0]["reason"] == "run"
    assert state.cards("pile") == [] and state.to_act == [1]


def test_j_q_k_in_a_row_are_equal_but_do_not_burn():
    state = table([["JS", "KD"], ["QC", "5C"]], pile=["4S"], stock=[])
    play(state, 0, "JS")
    play(state, 1, "QC")
    play(state, 0, "KD")
    assert state.cards("pile")[-3:] == ["JS", "QC", "KD"]


def test_a_burn_may_give_the_same_player_another_turn_and_four_may_be_needed():
    state = table([["10S", "4D"], ["3C"]], pile=["5S"], after_burn="same")
    play(state, 0, "10S")
    assert state.to_act == [0]
    state = table([["6S", "6D"], ["6H", "6C"]], pile=["4S"], stock=[], burn_run=4)
    play(state, 0, "6S")
    play(state, 1, "6H")
    play(state, 0, "6D")
    assert len(state.cards("pile")) == 4


# -- drawing and the pile ------------------------------------------------------------------
def test_the_player_draws_a_card_first_at_the_start_of_the_turn():
    state = table([["9S", "4D"], ["9H", "5C"]], pile=["4S"], stock=["3C", "8C"])
    events = play(state, 0, "9S")
    drew = of_type(events, "drew")
    assert drew == [{"type": "drew", "seat": 1, "card": "8C", "visible_to": [1]}]
    assert sorted(state.cards("hand:1")) == ["5C", "8C", "9H"]


def test_with_an_empty_hand_there_is_no_draw_and_the_face_up_cards_are_played():
    state = table([["9S"], ["9H", "5C"]], pile=["4S"], ups=[["7S", "7D", "JC"], ["KC", "KD", "KH"]])
    play(state, 0, "9S")
    play(state, 1, "9H")
    assert state.cards("hand:0") == [] and len(state.cards("stock")) == 1
    assert plays(state, 0) == [["JC"]]
    with pytest.raises(IllegalAction, match="lower than the 9"):
        play(state, 0, "7S")
    play(state, 0, "JC")
    assert state.cards("up:0") == ["7S", "7D"]


def test_a_player_who_cannot_play_picks_up_the_pile_and_lays_one_card():
    state = table([["4H", "5D"], ["3C"]], pile=["3S", "9H"])
    assert legal_actions(state, 0) == [{"type": "pickup"}]
    events = apply(state, 0, {"type": "pickup"})
    assert of_type(events, "picked_up") == [{"type": "picked_up", "seat": 0, "count": 2}]
    assert state.phase == "lay" and state.to_act == [0] and state.cards("pile") == []
    assert sorted(state.cards("hand:0")) == ["3S", "4H", "5D", "9H"]
    apply(state, 0, {"type": "lay", "card": "3S"})
    assert state.cards("pile") == ["3S"] and state.to_act == [1]


def test_the_pile_is_picked_up_only_when_no_card_can_be_played():
    state = table([["4H", "9D"], ["3C"]], pile=["9H"])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="no card of yours goes on it"):
        apply(state, 0, {"type": "pickup"})
    assert snapshot(state) == before


# -- face-down cards -----------------------------------------------------------------------
def _down_to_table(downs: list[str], pile: list[str]) -> State:
    return table(
        [[], ["3C", "5C"]], pile=pile, ups=[[], ["KC", "KD", "KH"]],
        downs=[downs, ["QC", "QD", "QH"]],
    )  # fmt: skip


def test_face_down_cards_are_played_blind_once_hand_and_face_up_cards_are_gone():
    state = _down_to_table(["9S", "3D", "JH"], ["7S"])
    assert legal_actions(state, 0) == [{"type": "blind", "slot": i} for i in range(3)]
    events = apply(state, 0, {"type": "blind", "slot": 2})
    assert of_type(events, "played")[0] == {
        "type": "played", "seat": 0, "cards": ["JH"], "source": "down",
    }  # fmt: skip
    assert state.cards("down:0") == ["9S", "3D"] and state.to_act == [1]


def test_a_face_down_card_lower_than_the_pile_takes_the_pile():
    state = _down_to_table(["9S", "3D", "JH"], ["7S"])
    events = apply(state, 0, {"type": "blind", "slot": 1})
    assert of_type(events, "blind_failed") == [{"type": "blind_failed", "seat": 0, "face_up": "3D"}]
    assert sorted(state.cards("hand:0")) == ["3D", "7S"] and state.phase == "lay"
    apply(state, 0, {"type": "lay", "card": "7S"})
    apply(state, 1, {"type": "pickup"})  # 3 and 5 do not go on the 7
    apply(state, 1, {"type": "lay", "card": "3C"})
    # with a card in hand again, no face-down card may be played
    assert [a["type"] for a in legal_actions(state, 0)] == ["play", "play"]
    with pytest.raises(IllegalAction, match="only once your hand and face-up cards are empty"):
        apply(state, 0, {"type": "blind", "slot": 0})


def test_face_up_cards_come_before_face_down_ones():
    state = table([[], ["3C"]], pile=["4S"], ups=[["9S"], []])
    with pytest.raises(IllegalAction, match="only once your hand and face-up cards are empty"):
        apply(state, 0, {"type": "blind", "slot": 0})


# -- the end -------------------------------------------------------------------------------
def test_the_first_player_to_clear_the_table_wins():
    state = table(
        [[], ["3C", "5C"]], pile=["7S"], ups=[[], ["KC"]], downs=[["9S"], ["QC"]],
    )  # fmt: skip
    events = apply(state, 0, {"type": "blind", "slot": 0})
    assert state.finished and state.result["winners"] == [0]
    assert of_type(events, "match_finished")[0]["winner"] == 0
    assert state.rounds == [[1, 0]]


def test_a_stalemate_with_an_empty_stock_ends_the_game_and_the_fewest_cards_win():
    state = table([["4H", "5D"], ["3C"]], pile=["AC"], stock=[], stalemate_turns=3)
    for seat in (0, 1, 0):
        apply(state, seat, {"type": "pickup"})
        events = apply(state, seat, {"type": "lay", "card": "AC"})
    finished = of_type(events, "match_finished")[0]
    assert finished["reason"] == "stalemate" and finished["cards_left"] == [8, 7]
    assert state.result["winners"] == [1]


def test_a_burn_or_a_table_card_resets_the_stalemate_count():
    state = table([["4H", "5D"], ["3C"]], pile=["AC"], stock=[], stalemate_turns=3)
    apply(state, 0, {"type": "pickup"})
    apply(state, 0, {"type": "lay", "card": "AC"})
    assert state.data.idle_turns == 1
    state = table([["10S", "5D"], ["3C"]], pile=["9C"], stock=[], stalemate_turns=3)
    state.data.idle_turns = 2
    play(state, 0, "10S")
    assert state.data.idle_turns == 1 and not state.finished


def test_random_matches_end_with_a_result():
    for seed in ("x", "y", "z"):
        state, rng = match(4, seed=seed), random.Random(seed)
        for _ in range(5000):
            if state.finished:
                break
            seat = rng.choice(state.to_act)
            apply(state, seat, rng.choice(legal_actions(state, seat)))
        assert state.finished and state.result["winners"]
        check_state(state)


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "play", "cards": ["KH"]}, "play cards from your hand"),
        ({"type": "play", "cards": ["9D", "5S"]}, "one rank only"),
        ({"type": "play", "cards": []}, "play cards from your hand"),
        ({"type": "lay", "card": "9D"}, "not possible in phase 'play'"),
        ({"type": "blind", "slot": 0}, "only once your hand"),
        ({"type": "arrange", "up": ["9D"]}, "not possible in phase 'play'"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(action, message):
    state = table([["9D", "9H", "5S"], ["3C"]], pile=["4S"])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        apply(state, 0, action)
    with pytest.raises(NotYourTurn):
        apply(state, 1, {"type": "pickup"})
    assert snapshot(state) == before
