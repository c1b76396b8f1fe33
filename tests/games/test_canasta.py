"""Canasta and Canasta en parejas: fixed deals, each test named after the rule it checks."""

from __future__ import annotations

import json

import pytest

from shared.engine import (
    BadSetup,
    IllegalAction,
    apply,
    check_state,
    legal_actions,
    new_match,
    view,
)
from shared.games.canasta import (
    canasta_kind,
    card_value,
    group_problem,
    round_points,
    threshold,
)
from tests.rigging import rig

QUEENS = ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]  # canasta limpia
FIVES = ["5S", "5H", "5D", "2C", "2D", "5C", "5S"]  # canasta sucia
FOURS = ["4S", "4H", "4D", "4C"]  # fewer than 7: no canasta
SMALL_HAND = ["6S", "8H", "9D", "10C", "KS", "JH", "7D"]  # nothing to meld, no wilds


def deal(
    variant="base", players=2, layout=None, groups=None, phase="draw", seed="fixed", spill="stock"
):
    """A round with seat 0 to act in ``phase`` and the given cards and table groups placed.

    ``groups``: {seat: [cards of each group]}; their cards are put on that seat's table."""
    state, _ = new_match("canasta", variant, players, seed=seed)
    state.to_act, state.phase = [0], phase
    layout = dict(layout or {})
    for seat, cards in (groups or {}).items():
        layout[f"table:{seat}"] = [c for g in cards for c in g]
    rig(state, layout, spill)
    data = state.data
    for seat, cards in (groups or {}).items():
        for g in cards:
            data.groups.append({"seat": seat, "cards": list(g), "turn": 0, "hand": True,
                                "oculta": False})  # fmt: skip
            data.opened[seat] = True
    check_state(state)
    return state


def act(state, seat, action):
    return apply(state, seat, action)


def refused(state, seat, action, words):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    assert words in str(info.value)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def kinds(events):
    return [e["type"] for e in events]


def empty_stock(state, keep=0):
    """Move the stock (all but ``keep`` cards) under the discard pile."""
    stock = state.zones["stock"].cards
    state.zones["discard"].cards[:0] = stock[: len(stock) - keep]
    del stock[: len(stock) - keep]


# -- the deal ---------------------------------------------------------------------------------
def test_two_decks_with_four_jokers_and_eleven_cards_each():
    state, events = new_match("canasta", "base", 3, seed="deal")
    assert len(state.all_cards()) == 108 and state.all_cards().count("JK") == 4
    assert all(len(state.cards(f"hand:{s}")) == 11 for s in range(3))
    assert state.cards("discard")[-1] not in ("3H", "3D")
    assert state.phase == "draw" and sum(e["type"] == "dealt" for e in events) == 3


def test_red_threes_are_laid_down_at_once_and_replaced():
    layout = {"hand:0": SMALL_HAND, "stock": ["5C", "9S", "3H", "3D"], "red-threes:0": []}
    s = deal(layout=layout, spill="discard")  # the top of the stock is the end
    events = act(s, 0, {"type": "draw"})
    assert s.cards("red-threes:0") == ["3D", "3H"] and len(s.cards("hand:0")) == 9
    assert "9S" in s.cards("hand:0")
    assert kinds(events) == ["drew", "red_three", "red_three", "replaced"]
    assert events[1] == {"type": "red_three", "seat": 0, "red_three": "3D"}  # public


def test_players_and_partnerships():
    with pytest.raises(BadSetup):
        new_match("canasta", "parejas", 3)
    state, _ = new_match("canasta", "parejas", 4, seed="teams")
    assert state.teams == [[0, 2], [1, 3]] and view(state, 0)["teams"] == [[0, 2], [1, 3]]
    assert state.options["goal"] == 8000


# -- the turn -----------------------------------------------------------------------------------
def test_a_turn_begins_by_drawing_two_cards():
    s = deal(layout={"hand:0": SMALL_HAND, "discard": ["4S"]})
    assert legal_actions(s, 0) == [{"type": "draw"}]  # no pair of 4s to take the pile
    events = act(s, 0, {"type": "draw"})
    assert len(s.cards("hand:0")) == 9 and events[0]["visible_to"] == [0] and s.phase == "meld"
    act(s, 0, {"type": "discard", "card": "6S"})
    assert s.to_act == [1] and s.phase == "draw" and s.cards("discard")[-1] == "6S"


def test_taking_the_pile_shows_two_naturals_and_the_rest_goes_to_the_hand():
    hand0 = ["KS", "KH", "6S", "8H", "9D"]
    s = deal(
        layout={"hand:0": hand0, "discard": ["7C", "4D", "KD"]}, groups={0: [["10S", "10H", "10D"]]}
    )
    events = act(s, 0, {"type": "take"})
    assert s.data.groups[-1]["cards"] == ["KD", "KS", "KH"] and s.cards("discard") == []
    assert sorted(s.cards("hand:0")) == sorted(["6S", "8H", "9D", "7C", "4D"])
    took = events[0]
    assert took["shown"] == ["KS", "KH"] and took["visible_to"] == [0] and s.phase == "meld"


def test_the_pile_needs_two_natural_cards_not_wilds():
    s = deal(
        layout={"hand:0": ["KS", "2H", "JK", "8H", "9D"], "discard": ["KD"]},
        groups={0: [FOURS[:3]]},
    )
    refused(s, 0, {"type": "take"}, "show two natural cards of K")


def test_a_wild_or_a_black_three_on_top_blocks_the_pile():
    s = deal(
        layout={"hand:0": ["3C", "3S", "2H", "2C", "9D"], "discard": ["3S"]},
        groups={0: [FOURS[:3]]},
    )
    refused(s, 0, {"type": "take"}, "a black 3 on top blocks the pile")
    s = deal(
        layout={"hand:0": ["2S", "2D", "8H", "9D"], "discard": ["2C"]}, groups={0: [FOURS[:3]]}
    )
    refused(s, 0, {"type": "take"}, "is wild")


def test_the_pile_is_blocked_when_its_top_matches_any_players_canasta():
    kings = ["KS", "KH", "KD", "KC", "2S", "2H", "JK"]  # a canasta sucia on seat 1's table
    s = deal(layout={"hand:0": ["KS", "KH", "8H", "9D"], "discard": ["KD"]}, groups={1: [kings]})
    refused(s, 0, {"type": "take"}, "a canasta of K is on the table")


def test_taking_the_pile_before_the_first_meld_must_reach_the_minimum():
    hand0 = ["KS", "KH", "6S", "6H", "6D", "9D"]
    s = deal(layout={"hand:0": hand0, "discard": ["4C", "KD"]})
    refused(s, 0, {"type": "take"}, "at least 50 points; these are worth 30")
    refused(s, 0, {"type": "take", "groups": [["6S", "6H", "6D"]]}, "worth 45")  # 30 + 15
    assert legal_actions(s, 0) == [{"type": "draw"}]
    s = deal(layout={"hand:0": hand0 + ["AS", "AH", "AD"], "discard": ["4C", "KD"]})
    act(s, 0, {"type": "take", "groups": [["AS", "AH", "AD"]]})  # 30 + 60
    assert s.data.opened[0] and len(s.data.groups) == 2


# -- melding ------------------------------------------------------------------------------------
def test_rule_text_first_meld_example_five_five_two_and_four_four_four_four_make_fifty():
    hand0 = ["5S", "5H", "2C", "4S", "4H", "4D", "4C", "7S", "7H", "7D", "KC"]
    s = deal(layout={"hand:0": hand0}, phase="meld")
    refused(s, 0, {"type": "meld", "groups": [FOURS]}, "at least 50 points; these are worth 20")
    act(s, 0, {"type": "meld", "groups": [["5S", "5H", "2C"], FOURS]})  # 30 + 20 = 50
    assert s.data.opened[0]
    act(s, 0, {"type": "meld", "groups": [["7S", "7H", "7D"]]})  # 15: no minimum any more
    assert [g["cards"] for g in s.data.groups] == [["5S", "5H", "2C"], FOURS, ["7S", "7H", "7D"]]


def test_the_minimum_for_the_first_meld_grows_with_the_score():
    assert [threshold(x) for x in (-300, 0, 1499, 1500, 2999, 3000, 4999)] == [
        50, 50, 50, 90, 90, 120, 120
    ]  # fmt: skip
    s = deal(layout={"hand:0": ["AS", "AH", "AD", "9D"]}, phase="meld")
    s.scores = [1500, 0]
    refused(s, 0, {"type": "meld", "groups": [["AS", "AH", "AD"]]}, "at least 90 points")
    assert view(s, 0)["minimum"] == [90, 50]


def test_group_composition_one_number_two_naturals_and_no_more_wilds_than_naturals():
    assert group_problem(["9S", "9H", "9D"]) is None
    assert group_problem(["9S", "9H", "2D"]) is None
    assert "at least two natural" in group_problem(["9S", "2H", "JK"])
    assert "more wilds than natural" in group_problem(["9S", "9H", "2D", "2C", "JK"])
    assert "one number" in group_problem(["9S", "9H", "8D"])
    assert "3 to 7" in group_problem(["9S", "9H"])
    assert "3 to 7" in group_problem(["9S"] * 4 + ["9H"] * 4)


def test_black_threes_meld_only_with_two_wilds_and_wilds_alone_make_a_group():
    assert "two wilds" in group_problem(["3S", "3C", "2D"])
    assert group_problem(["3S", "2D", "JK"]) is None
    assert group_problem(["2S", "2D", "JK"]) is None
    assert "red 3" in group_problem(["3H", "3D", "3H"])


def test_adding_a_card_to_ones_own_group():
    s = deal(
        layout={"hand:0": ["9C", "2H", "KS"]},
        groups={0: [["9S", "9H", "9D"]], 1: [["8S", "8H", "8D"]]},
        phase="meld",
    )
    act(s, 0, {"type": "add", "card": "9C", "group": 0})
    assert s.data.groups[0]["cards"] == ["9S", "9H", "9D", "9C"] and "9C" in s.cards("table:0")
    refused(s, 0, {"type": "add", "card": "2H", "group": 1}, "only to your own groups")
    refused(s, 0, {"type": "add", "card": "KS", "group": 0}, "not cards of one number")
    act(s, 0, {"type": "add", "card": "2H", "group": 0})
    refused(s, 0, {"type": "add", "card": "KS", "group": 0}, "keep a card to discard")


def test_a_complete_canasta_takes_no_more_cards():
    s = deal(layout={"hand:0": ["QC", "KS"]}, groups={0: [QUEENS]}, phase="meld")
    refused(s, 0, {"type": "add", "card": "QC", "group": 0}, "takes no more cards")


# -- canastas and the round score ------------------------------------------------------------------
def test_canasta_kinds():
    def group(cards, oculta=False):
        return {"cards": cards, "oculta": oculta}

    assert canasta_kind(group(QUEENS)) == "limpia" and canasta_kind(group(FIVES)) == "sucia"
    assert canasta_kind(group(FOURS)) is None
    assert canasta_kind(group(QUEENS, oculta=True)) == "oculta"
    assert canasta_kind(group(["2S", "2H", "JK", "2D", "JK", "2C", "2S"])) == "comodin"
    assert canasta_kind(group(["3S", "3C", "3S", "3C", "2D", "JK", "2H"])) == "tres-negros"
    assert canasta_kind(group(["3S", "3C", "3S", "2S", "2D", "JK", "2H"])) == "sucia"


def test_card_values():
    values = [card_value(c) for c in ("AS", "2H", "3S", "4D", "7C", "8H", "KS", "JK")]
    assert values == [20, 20, 100, 5, 5, 10, 10, 50]


def no_red_threes(state):
    """Put the red 3s laid at the deal under the discard pile (out of the round's score)."""
    for seat in range(state.players):
        state.zones["discard"].cards[:0] = state.zones[f"red-threes:{seat}"].cards
        state.zones[f"red-threes:{seat}"].cards = []


def test_rule_text_round_score_example_is_six_hundred_fifty_five():
    assert round_points(["limpia", "sucia", None], ["2H", "7S", "JD", "KC", "3S"], 0, False) == 655
    s = deal(
        layout={"hand:0": ["2H", "7S", "JD", "KC", "3S"], "hand:1": ["KD", "4C"]},
        groups={0: [QUEENS, FIVES, FOURS]},
        phase="meld",
    )
    no_red_threes(s)
    empty_stock(s)
    s.to_act = [1]
    events = act(s, 1, {"type": "discard", "card": "4C"})  # seat 0's turn finds no stock
    assert kinds(events)[1:3] == ["stock_exhausted", "round_scored"]
    side = events[2]["sides"][0]
    assert side["canastas"] == ["limpia", "sucia"] and side["points"] == 655
    assert side["in_hand"] == ["2H", "7S", "JD", "KC", "3S"]
    assert s.rounds[0] == [655, -10] and s.round == 2


def test_red_threes_score_one_hundred_each_and_eight_hundred_all_four():
    assert round_points([], [], 1, False) == 100 and round_points([], [], 3, False) == 300
    assert round_points([], [], 4, False) == 800


def test_canasta_bonuses():
    assert round_points(["comodin"], [], 0, False) == 2000
    assert round_points(["oculta", "limpia", "sucia"], [], 0, True) == 1000 + 500 + 300 + 100


def test_a_group_laid_complete_in_one_turn_is_an_oculta():
    hand0 = ["9S", "9H", "9D", "9C", "9S", "9H", "2D", "KS"]
    s = deal(layout={"hand:0": hand0}, groups={0: [FOURS[:3]]}, phase="meld")
    act(s, 0, {"type": "meld", "groups": [hand0[:7]]})
    assert view(s, 0)["groups"][-1]["canasta"] == "oculta"


def test_a_group_completed_over_two_turns_is_no_oculta():
    s = deal(
        layout={"hand:0": ["9C", "KS"]},
        groups={0: [["9S", "9H", "9D", "9C", "9S", "9H"]]},
        phase="meld",
    )
    s.data.turn = 3
    act(s, 0, {"type": "add", "card": "9C", "group": 0})
    assert view(s, 0)["groups"][0]["canasta"] == "limpia"


# -- going out -------------------------------------------------------------------------------------
def test_going_out_needs_a_canasta_limpia_and_a_sucia_and_scores_one_hundred():
    s = deal(layout={"hand:0": ["KS"], "hand:1": ["4S", "5D"]}, groups={0: [QUEENS]}, phase="meld")
    refused(s, 0, {"type": "go_out", "card": "KS"}, "a canasta limpia and a canasta sucia")
    s = deal(
        layout={"hand:0": ["KS"], "hand:1": ["4S", "5D"]}, groups={0: [QUEENS, FIVES]}, phase="meld"
    )
    no_red_threes(s)
    assert {"type": "go_out", "card": "KS"} in legal_actions(s, 0)
    events = act(s, 0, {"type": "go_out", "card": "KS"})
    assert events[0]["visible_to"] == [0]
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["went_out"] == 0 and [x["points"] for x in scored["sides"]] == [900, -10]
    assert s.round == 2 and s.phase == "draw"


def going_out():
    """Seat 0 goes out with a canasta limpia and a canasta sucia on its table."""
    s = deal(
        layout={"hand:0": ["KS"], "hand:1": ["4S", "5D"]}, groups={0: [QUEENS, FIVES]}, phase="meld"
    )
    no_red_threes(s)
    return act(s, 0, {"type": "go_out", "card": "KS"})


EVENT_SCENARIOS = {"went_out": going_out}


def test_going_out_is_with_the_last_card():
    s = deal(layout={"hand:0": ["KS", "KH"]}, groups={0: [QUEENS, FIVES]}, phase="meld")
    refused(s, 0, {"type": "go_out", "card": "KS"}, "with your last card")


def test_four_black_threes_with_three_wilds_win_the_match():
    s = deal(
        layout={"hand:0": ["3C", "KS"]},
        groups={0: [["3S", "3C", "3S", "2D", "JK", "2H"]]},
        phase="meld",
    )
    events = act(s, 0, {"type": "add", "card": "3C", "group": 0})
    assert "black_threes_canasta" in kinds(events)
    assert (
        s.finished and s.result["winners"] == [0] and events[-1]["reason"] == "black_threes_canasta"
    )


def test_the_round_ends_when_the_stock_runs_out():
    s = deal(layout={"hand:0": SMALL_HAND}, phase="meld")
    empty_stock(s)
    events = act(s, 0, {"type": "discard", "card": "6S"})
    assert kinds(events)[1:3] == ["stock_exhausted", "round_scored"] and s.round == 2


def test_reaching_five_thousand_wins():
    s = deal(layout={"hand:0": ["KS"], "hand:1": ["4S"]}, groups={0: [QUEENS, FIVES]}, phase="meld")
    s.scores = [4500, 4000]
    act(s, 0, {"type": "go_out", "card": "KS"})
    assert s.finished and s.result["winners"] == [0] and s.scores[0] >= 5000


# -- parejas -----------------------------------------------------------------------------------------
def test_parejas_partners_share_their_points_and_canastas():
    s = deal(
        "parejas", 4,
        layout={"hand:0": ["KS"], "hand:1": ["4S"], "hand:2": ["JH"], "hand:3": ["5D"]},
        groups={0: [QUEENS], 2: [FIVES]}, phase="meld",
    )  # fmt: skip
    no_red_threes(s)
    act(s, 0, {"type": "go_out", "card": "KS"})  # the partner's sucia counts
    assert s.rounds[0] == [890, -10, 890, -10]


def test_parejas_adding_to_a_partners_group_needs_ones_own_first_meld():
    s = deal(
        "parejas",
        4,
        layout={"hand:0": ["9C", "KS", "KH"]},
        groups={2: [["9S", "9H", "9D"]]},
        phase="meld",
    )
    refused(s, 0, {"type": "add", "card": "9C", "group": 0}, "first meld")
    s.data.opened[0] = True
    act(s, 0, {"type": "add", "card": "9C", "group": 0})
    assert "9C" in s.cards("table:2")


# -- bad input ---------------------------------------------------------------------------------------
def test_bad_input_is_refused_and_changes_nothing():
    s = deal(layout={"hand:0": SMALL_HAND})
    refused(s, 0, {"type": "discard", "card": "6S"}, "not possible in phase 'draw'")
    refused(s, 0, {"type": "take", "groups": "x"}, "groups must be a list of lists")
    act(s, 0, {"type": "draw"})
    refused(s, 0, {"type": "discard", "card": "3H"}, "not in your hand")
    refused(s, 0, {"type": "meld", "groups": [["6S", "6S", "6S"]]}, "cards of your hand")
    refused(s, 0, {"type": "meld", "groups": []}, "one or two groups")
    refused(s, 0, {"type": "add", "card": "6S", "group": 0}, "first meld")
    refused(s, 0, {"type": "add", "card": "6S", "group": -1}, "at least 0")


def test_an_oculta_counts_as_limpia_and_a_comodin_as_sucia_to_go_out():
    wilds = ["2S", "2H", "JK", "2D", "JK", "2C", "2S"]
    s = deal(layout={"hand:0": ["KS"]}, groups={0: [QUEENS, wilds]}, phase="meld")
    s.data.groups[0]["oculta"] = True
    assert [g["canasta"] for g in view(s, 1)["groups"]] == ["oculta", "comodin"]
    assert {"type": "go_out", "card": "KS"} in legal_actions(s, 0)


def test_a_second_group_of_a_number_may_be_started_beside_a_complete_canasta():
    s = deal(
        layout={"hand:0": ["QC", "2H", "KS", "KH", "KD", "9S"]}, groups={0: [QUEENS]}, phase="meld"
    )
    assert {"type": "meld", "groups": [["KS", "KH", "KD", "2H"]]} in legal_actions(s, 0)
    refused(s, 0, {"type": "add", "card": "QC", "group": 0}, "takes no more cards")
    # the last queen cannot start a group alone: a group needs two naturals
    refused(s, 0, {"type": "meld", "groups": [["QC", "2H", "9S"]]}, "not cards of one number")
    sucia_of_nines = ["9S", "9S", "9H", "9D", "2C", "2D", "JK"]
    nines = deal(
        layout={"hand:0": ["9C", "9D", "9H", "KS"]}, groups={0: [sucia_of_nines]}, phase="meld"
    )
    act(nines, 0, {"type": "meld", "groups": [["9C", "9D", "9H"]]})  # beside the sucia of 9s
    assert [g["cards"] for g in nines.data.groups][-1] == ["9C", "9D", "9H"]


def test_round_limit_option_ends_the_match_after_that_many_rounds():
    s = deal(layout={"hand:0": SMALL_HAND}, phase="meld")
    s.options["max_rounds"] = 1
    empty_stock(s)
    events = act(s, 0, {"type": "discard", "card": "6S"})
    assert s.finished and events[-1]["reason"] == "round_limit"


def test_at_most_six_players():
    with pytest.raises(BadSetup):
        new_match("canasta", "base", 7)


def test_parejas_needs_eight_thousand_to_win():
    s = deal(
        "parejas", 4,
        layout={"hand:0": ["KS"], "hand:1": ["4S"], "hand:2": ["JH"], "hand:3": ["5D"]},
        groups={0: [QUEENS], 2: [FIVES]}, phase="meld",
    )  # fmt: skip
    s.scores = [5000, 0, 5000, 0]
    act(s, 0, {"type": "go_out", "card": "KS"})
    assert not s.finished and s.scores[0] >= 5800 and s.round == 2
