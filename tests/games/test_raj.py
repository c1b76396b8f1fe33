"""Raj: sealed simultaneous bids, cancelling ties, dice or prize cards (raj.txt, docs/games/raj.md)."""

from __future__ import annotations

import itertools
import json

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
from shared.games.raj import RajData, dice_prize, round_winner
from tests.rigging import rig

TIMEOUT = {"type": "timeout"}


def match(variant: str = "base", players: int = 3, seed: str = "raj", **options) -> State:
    state, _ = new_match("raj", variant, players, seed=seed, options=options or None)
    return state


def bid(state: State, seat: int, card: str) -> list[dict]:
    return apply(state, seat, {"type": "bid", "card": card})


def bid_all(state: State, cards: list[str]) -> list[dict]:
    events: list[dict] = []
    for seat, card in enumerate(cards):
        events += bid(state, seat, card)
    return events


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# -- the prize from the dice ---------------------------------------------------------------
def test_doubles_are_worth_the_face_as_a_negative_prize():
    assert dice_prize([4, 4]) == -4  # the text's example
    assert [dice_prize([f, f]) for f in range(1, 7)] == [-1, -2, -3, -4, -5, -6]
    state = match()
    state.data.dice = [4, 4]
    assert view(state, 0)["prize"] == -4
    bid_all(state, ["KS", "5H", "2D"])
    assert state.scores == [-4, 0, 0]


def test_different_faces_are_summed_as_a_positive_prize():
    assert dice_prize([4, 6]) == 10  # the text's example
    assert dice_prize([1, 2]) == 3
    state = match()
    state.data.dice = [4, 6]
    assert view(state, 1)["prize"] == 10
    bid_all(state, ["2S", "KH", "5D"])
    assert state.scores == [0, 10, 0]
    assert state.rounds == [[0, 10, 0]]


# -- bidding and cancelling ----------------------------------------------------------------
def test_equal_cards_cancel_and_the_highest_card_left_wins():
    """The text's example: bids 6, 6, 2 -> the 2 takes the prize."""
    assert round_winner([6, 6, 2]) == 2
    state = match()
    state.data.dice = [4, 6]
    events = bid_all(state, ["6S", "6H", "2D"])
    assert of_type(events, "round_won") == [{"type": "round_won", "seat": 2, "prize": 10}]
    assert state.scores == [0, 0, 10]


def test_highest_card_takes_a_negative_prize_by_default():
    state = match()
    state.data.dice = [5, 5]
    bid_all(state, ["KS", "2H", "7D"])
    assert state.scores == [-5, 0, 0]


def test_negative_prize_to_the_lowest_card_is_an_option():
    state = match(negative_prize_to="lowest")
    state.data.dice = [5, 5]
    bid_all(state, ["KS", "2H", "2D"])  # the 2s cancel: the lowest card left is the K
    assert state.scores == [-5, 0, 0]
    state = match(negative_prize_to="lowest")
    state.data.dice = [5, 5]
    bid_all(state, ["KS", "3H", "7D"])
    assert state.scores == [0, -5, 0]
    state = match(negative_prize_to="lowest")
    state.data.dice = [2, 5]  # a positive prize still goes to the highest
    bid_all(state, ["KS", "3H", "7D"])
    assert state.scores == [7, 0, 0]


def test_bid_cards_are_discarded_face_up_after_the_reveal():
    state = match()
    bid_all(state, ["6S", "6H", "2D"])
    assert state.cards("discard") == ["6S", "6H", "2D"]
    assert view(state, None)["zones"]["discard"]["cards"] == ["6S", "6H", "2D"]
    apply(state, 2, {"type": "reroll", "die": 0})
    assert "6S" not in state.cards("hand:0")
    assert {"type": "bid", "card": "6S"} not in legal_actions(state, 0)
    assert len(legal_actions(state, 0)) == 12


def test_every_seat_that_still_has_to_bid_acts_at_once():
    state = match()
    assert state.phase == "bid" and state.to_act == [0, 1, 2]
    assert len(legal_actions(state, 1)) == 13
    bid(state, 1, "9H")
    assert sorted(state.to_act) == [0, 2]
    assert view(state, 2)["committed"] == [False, True, False]


# -- sealed bids ---------------------------------------------------------------------------
def test_no_seat_sees_another_seats_bid_before_the_reveal():
    state = match()
    events = bid(state, 0, "KS")
    for seat in (1, 2, None):
        seen = view(state, seat)
        assert seen["zones"]["bid:0"] == {"owner": 0, "count": 1, "cards": [None]}
        assert seen["committed"] == [True, False, False]
        assert seen.get("my_bid") is None
        assert '"KS"' not in json.dumps(seen)
        assert [redact(e, seat) for e in events] == [
            {"type": "bid_committed", "seat": 0, "card": None, "timeout": False, "visible_to": [0]}
        ]
    mine = view(state, 0)
    assert mine["my_bid"] == "KS"
    assert mine["zones"]["bid:0"]["cards"] == [None]  # the zone is sealed; my_bid tells the bidder
    assert redact(events[0], 0)["card"] == "KS"
    bid(state, 1, "QH")
    assert '"QH"' not in json.dumps(view(state, 0)) and view(state, 1)["my_bid"] == "QH"


def test_the_reveal_is_one_public_event_with_every_bid():
    state = match()
    state.data.dice = [1, 3]
    events = bid_all(state, ["KS", "QH", "JD"])
    reveal = of_type(events, "bids_revealed")
    assert reveal == [{"type": "bids_revealed", "round": 1, "bids": ["KS", "QH", "JD"]}]
    assert "visible_to" not in reveal[0]
    assert view(state, None)["last_reveal"] == {"bids": ["KS", "QH", "JD"], "winner": 0, "prize": 4}
    assert view(state, 1)["committed"] == [False, False, False]


def test_resolution_does_not_depend_on_the_order_of_the_bids():
    finals = set()
    for order in itertools.permutations(range(3)):
        state = match(seed="order")
        cards = ["6S", "6H", "2D"]
        for seat in order:
            bid(state, seat, cards[seat])
        apply(state, state.to_act[0], {"type": "reroll", "die": 1})
        finals.add(snapshot(state))
    assert len(finals) == 1


# -- carry-over ----------------------------------------------------------------------------
def test_a_prize_nobody_wins_carries_over_and_adds_to_the_next_roll():
    state = match(players=4)
    state.data.dice = [4, 6]
    events = bid_all(state, ["5S", "5H", "9D", "9C"])
    assert of_type(events, "prize_carried") == [{"type": "prize_carried", "prize": 10}]
    assert state.scores == [0, 0, 0, 0] and state.rounds == [[0, 0, 0, 0]]
    assert state.phase == "dice" and state.to_act == [0]  # nobody has won yet: seat 0 re-rolls
    apply(state, 0, {"type": "reroll", "die": 0})
    dice = state.data.dice
    assert dice[1] == 6
    assert view(state, 2)["prize"] == 10 + dice_prize(dice)
    assert view(state, 2)["carried"] == [10]
    bid_all(state, ["2S", "KH", "3D", "4C"])
    assert state.scores == [0, 10 + dice_prize(dice), 0, 0]
    assert view(state, 0)["carried"] == []


def test_after_a_round_nobody_wins_the_last_winner_handles_the_dice():
    state = match()
    state.data.dice = [2, 3]
    bid_all(state, ["2S", "KH", "3D"])
    apply(state, 1, {"type": "reroll", "die": 0})
    bid_all(state, ["7S", "7H", "7D"])  # everything cancels
    assert state.to_act == [1]
    assert view(state, 0)["dice_keeper"] == 1


def every_bid_cancels_without_carry_over() -> tuple[State, list[dict]]:
    """Three 7s bid for a prize of 10 with carry_over off."""
    state = match(carry_over=False)
    state.data.dice = [4, 6]
    return state, bid_all(state, ["7S", "7H", "7D"])


#: The event types random matches rarely show, from rigged deals (the shared suite checks that
#: every declared event type is met: tests/test_event_types.py).
EVENT_SCENARIOS = {"prize_discarded": lambda: every_bid_cancels_without_carry_over()[1]}


def test_carry_over_can_be_switched_off():
    state, events = every_bid_cancels_without_carry_over()
    assert of_type(events, "prize_discarded") == [{"type": "prize_discarded", "prize": 10}]
    apply(state, 0, {"type": "reroll", "die": 1})
    assert view(state, 0)["prize"] == dice_prize(state.data.dice)


def test_a_carry_over_left_after_the_last_round_is_lost():
    state = match()
    rig(state, {"hand:0": ["KS"], "hand:1": ["KH"], "hand:2": ["KD"]}, spill="discard")
    events = bid_all(state, ["KS", "KH", "KD"])
    assert state.finished and state.scores == [0, 0, 0]
    assert state.result is not None and state.result["winners"] == [0, 1, 2]
    assert of_type(events, "match_finished")


# -- the dice between rounds ---------------------------------------------------------------
def test_the_round_winner_rerolls_one_die_of_their_choice():
    state = match(seed="reroll")
    state.data.dice = [2, 5]
    bid_all(state, ["3S", "JH", "4D"])
    assert state.phase == "dice" and state.to_act == [1]
    assert state.deadline is None
    assert legal_actions(state, 1) == [{"type": "reroll", "die": 0}, {"type": "reroll", "die": 1}]
    with pytest.raises(NotYourTurn):
        apply(state, 0, {"type": "reroll", "die": 0})
    events = apply(state, 1, {"type": "reroll", "die": 1})
    assert state.data.dice[0] == 2  # the other die keeps its face
    rolled = of_type(events, "dice_rolled")[0]
    assert rolled["seat"] == 1 and rolled["dice"] == state.data.dice
    assert rolled["prize"] == dice_prize(state.data.dice)
    assert state.phase == "bid" and state.to_act == [0, 1, 2]


def test_forzar_negativo_sets_one_die_to_the_others_face():
    state = match("forzar-negativo")
    state.data.dice = [3, 5]
    bid_all(state, ["3S", "JH", "4D"])
    assert {"type": "force", "die": 1} in legal_actions(state, 1)
    assert {"type": "reroll", "die": 0} in legal_actions(state, 1)  # re-rolling is still allowed
    events = apply(state, 1, {"type": "force", "die": 1})
    assert state.data.dice == [3, 3]
    assert view(state, 0)["prize"] == -3
    assert of_type(events, "dice_forced")[0]["prize"] == -3


def test_forcing_a_negative_prize_is_refused_outside_forzar_negativo():
    state = match()
    bid_all(state, ["3S", "JH", "4D"])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="forzar-negativo"):
        apply(state, 1, {"type": "force", "die": 1})
    assert snapshot(state) == before


# -- deadline and timeout ------------------------------------------------------------------
def test_the_commit_deadline_is_open_only_while_bids_are():
    state = match()
    assert state.deadline == {"kind": "commit", "seconds": 60.0}
    assert legal_actions(state, None) == [TIMEOUT]
    assert match(bid_seconds=15).deadline == {"kind": "commit", "seconds": 15.0}
    bid_all(state, ["3S", "JH", "4D"])
    assert state.deadline is None and legal_actions(state, None) == []
    apply(state, 1, {"type": "reroll", "die": 0})
    assert state.deadline == {"kind": "commit", "seconds": 60.0}


def test_a_timeout_plays_the_lowest_card_of_every_seat_that_has_not_bid():
    state = match()
    state.data.dice = [1, 2]
    bid(state, 0, "KS")
    events = apply(state, None, TIMEOUT)
    forced = of_type(events, "bid_committed")
    assert [(e["seat"], e["card"], e["timeout"]) for e in forced] == [
        (1, "AH", True),
        (2, "AD", True),
    ]
    assert of_type(events, "bids_revealed")[0]["bids"] == ["KS", "AH", "AD"]
    assert state.scores == [3, 0, 0]  # the two aces cancel


def test_a_timeout_may_play_a_random_card_instead():
    state = match(timeout_play="random", seed="random-timeout")
    events = apply(state, None, TIMEOUT)
    bids = of_type(events, "bids_revealed")[0]["bids"]
    assert [b[-1] for b in bids] == ["S", "H", "D"]
    again = match(timeout_play="random", seed="random-timeout")
    assert of_type(apply(again, None, TIMEOUT), "bids_revealed")[0]["bids"] == bids


# -- end of the match ----------------------------------------------------------------------
def test_the_match_ends_when_every_hand_is_empty():
    state = match()
    while not state.finished:
        if state.phase == "bid":
            apply(state, None, TIMEOUT)
        else:
            apply(state, state.to_act[0], {"type": "reroll", "die": 0})
    assert len(state.rounds) == 13 and state.round == 13
    assert len(state.cards("discard")) == 39
    assert state.result is not None and state.result["scores"] == state.scores
    check_state(state)


def _tied_match(**options) -> State:
    """Seats 0 and 1 both end on 7: seat 0 from one prize of 7, seat 1 from prizes of 3 and 4."""
    state = match(**options)
    rig(
        state,
        {"hand:0": ["QS", "2S", "3S"], "hand:1": ["2H", "QH", "KH"], "hand:2": ["2D", "3D", "QD"]},
        spill="discard",
    )
    for dice, bids in (
        ([3, 4], ["QS", "2H", "2D"]),
        ([1, 2], ["2S", "QH", "3D"]),
        ([1, 3], ["3S", "KH", "QD"]),
    ):
        if state.phase == "dice":
            apply(state, state.to_act[0], {"type": "reroll", "die": 0})
        state.data.dice = dice
        bid_all(state, bids)
    assert state.finished and state.scores == [7, 7, 0]
    return state


def test_a_final_tie_is_a_shared_win():
    state = _tied_match()
    assert state.result is not None and state.result["winners"] == [0, 1]


def test_a_final_tie_may_be_broken_by_the_number_of_positive_prizes():
    state = _tied_match(tie_break="positive-prizes")
    assert state.result is not None and state.result["winners"] == [1]
    assert view(state, None)["won"] == [[7], [3, 4], []]


# -- variants ------------------------------------------------------------------------------
def test_dos_jugadores_removes_three_cards_unseen_and_plays_ten_rounds():
    state = match("dos-jugadores", players=2)
    for seat in (0, 1):
        assert len(state.cards(f"hand:{seat}")) == 10
        assert len(state.cards(f"removed:{seat}")) == 3
    for viewer in (0, 1, None):
        zones = view(state, viewer)["zones"]
        assert zones["removed:0"]["cards"] == [None] * 3
        assert zones["removed:1"]["cards"] == [None] * 3
    while not state.finished:
        if state.phase == "bid":
            apply(state, None, TIMEOUT)
        else:
            apply(state, state.to_act[0], {"type": "reroll", "die": 1})
    assert len(state.rounds) == 10
    assert len(state.cards("removed:0")) == 3 and len(state.cards("discard")) == 20


def test_dos_jugadores_is_for_two_players_and_base_for_three_or_more():
    with pytest.raises(Exception, match="2 to 2"):
        new_match("raj", "dos-jugadores", 3)
    with pytest.raises(Exception, match="3 to 8"):
        new_match("raj", "base", 2)


def test_prize_cards_replace_the_dice():
    state = match("cartas-de-premios")
    shown = view(state, 0)
    assert shown["dice"] is None and len(shown["prize_cards"]) == 1
    assert shown["prize"] == shown["prize_cards"][0]
    assert sorted(shown["prizes_left"] + shown["prize_cards"]) == sorted(
        [2, 3, 4, 5, 6, 7, 8, 9, 10, -5, -4, -3, -2]
    )
    first = shown["prize"]
    events = bid_all(state, ["2S", "KH", "5D"])
    assert state.scores == [0, first, 0] and view(state, 0)["won"][1] == [first]
    assert state.phase == "bid" and state.to_act == [0, 1, 2]  # no dice to re-roll
    assert len(of_type(events, "prize_revealed")) == 1
    while not state.finished:
        apply(state, None, TIMEOUT)
    won = view(state, None)["won"]
    assert [sum(w) for w in won] == state.scores
    assert len(state.rounds) == 13 and view(state, None)["prizes_left"] == []


def test_prize_cards_carried_over_go_together_to_the_next_winner():
    state = match("cartas-de-premios", seed="cards")
    first = state.data.pot[0]
    bid_all(state, ["7S", "7H", "7D"])
    second = state.data.pot[1]
    assert view(state, 2)["prize_cards"] == [first, second]
    assert view(state, 2)["prize"] == first + second
    bid_all(state, ["2S", "3H", "QD"])
    assert view(state, 2)["won"][2] == [first, second]
    assert state.scores == [0, 0, first + second]


def test_seats_beyond_four_hold_a_suit_of_a_second_deck():
    state = match(players=5)
    assert state.cards("hand:4") == state.cards("hand:0")
    check_state(state)


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (0, {"type": "bid", "card": "KH"}, "KH is not in your hand"),
        (0, {"type": "bid"}, "bid needs the field 'card'"),
        (0, {"type": "bid", "card": "KH", "die": 0}, "bid has no field 'die'"),
        (0, {"type": "reroll", "die": 0}, "not possible in phase 'bid'; possible now: bid"),
        (0, {"type": "shout"}, "unknown action type 'shout'"),
    ],
)
def test_illegal_bids_are_refused_and_change_nothing(seat, action, message):
    state = match()
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        apply(state, seat, action)
    assert snapshot(state) == before


def test_a_seat_cannot_bid_twice_in_a_round():
    state = match()
    bid(state, 0, "KS")
    before = snapshot(state)
    with pytest.raises(NotYourTurn):
        bid(state, 0, "QS")
    assert snapshot(state) == before


def test_bad_dice_actions_are_refused_and_change_nothing():
    state = match()
    bid_all(state, ["3S", "JH", "4D"])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=r"die must be one of \[0, 1\]"):
        apply(state, 1, {"type": "reroll", "die": 2})
    with pytest.raises(IllegalAction, match="bid is not possible in phase 'dice'"):
        apply(state, 1, {"type": "bid", "card": "KH"})
    with pytest.raises(IllegalAction, match="not a server action"):
        apply(state, None, TIMEOUT)
    assert snapshot(state) == before


def dice_of_round_three(round_two: dict, rules_version: int | None = None) -> list[int]:
    """The dice after the keeper of round 3 rolls die 0 again, round 2's dice having been
    set with ``round_two`` (a ``force`` draws nothing, a ``reroll`` draws one die)."""
    state, _ = new_match(
        "raj", "forzar-negativo", 3, seed="raj:duplicate", rules_version=rules_version
    )
    for dice_move in (None, round_two, {"type": "reroll", "die": 0}):
        if dice_move is not None:
            apply(state, state.to_act[0], dice_move)
        bid_all(state, [min(state.cards(f"hand:{s}")) for s in range(3)])  # the same bids
    assert state.phase == "dice" and state.round == 4
    return list(RajData.of(state).dice or [])


def test_a_reroll_draws_the_same_die_at_every_table_whatever_the_rounds_before_drew():
    """Version 2 draws each round's chance from (seed, round, draw within the round): a
    reroll at round 3 gives the same die whether round 2's dice were forced (no draw) or
    rolled again (a draw), as two tables of a duplicate group need."""
    forced = dice_of_round_three({"type": "force", "die": 0})
    rerolled = dice_of_round_three({"type": "reroll", "die": 1})
    assert forced[0] == rerolled[0]
    assert (
        dice_of_round_three({"type": "force", "die": 0}, rules_version=1)[0]
        != dice_of_round_three({"type": "reroll", "die": 1}, rules_version=1)[0]
    )  # version 1: the count of the match's draws keys it, and round 2's draw shifted it
