"""Chinchón and Chinchón con comodín: fixed deals, each test named after the rule it checks."""

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
from shared.engine.kit.turns import next_seat
from shared.games.chinchon import Rules
from tests.rigging import rig

COPAS_RUN = ["1C", "2C", "3C", "4C", "5C", "6C", "7C"]
GROUPED_HAND = ["4O", "5O", "6O", "7O", "10C", "10E", "10B"]
GROUPED = [["4O", "5O", "6O", "7O"], ["10C", "10E", "10B"]]  # 3 + 4: all seven grouped


def deal(players=2, variant="base", options=None, layout=None, seed="fixed"):
    """A fresh hand with seat 0 to play first and the given cards placed."""
    state, _ = new_match("chinchon", variant, players, seed=seed, options=options)
    state.to_act = [0]
    state.data.dealer = players - 1
    if layout:
        rig(state, layout)
    check_state(state)
    return state


def draw(state, seat, source="discard"):
    return apply(state, seat, {"type": "draw", "source": source})


def discard(state, seat, card):
    return apply(state, seat, {"type": "discard", "card": card})


def close(state, seat, card, groups):
    return apply(state, seat, {"type": "close", "discard": card, "groups": groups})


def idle_turn(state):
    """The seat to act takes the top of the discard pile and discards it again."""
    seat = state.to_act[0]
    top = state.cards("discard")[-1]
    draw(state, seat)
    return discard(state, seat, top)


def kinds(events):
    return [e["type"] for e in events]


def scored(events):
    return next(e for e in events if e["type"] == "hand_scored")


def refused(state, seat, action, words):
    """``action`` raises IllegalAction mentioning ``words`` and changes nothing."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    assert words in str(info.value)
    assert json.dumps(state.to_json(), sort_keys=True) == before


BASE = Rules({"wild_one_of_oros": False, "jokers": 0, "wilds_per_group": 1, "wild_value": 25}, True)
COMODIN = Rules(
    {"wild_one_of_oros": True, "jokers": 2, "wilds_per_group": 1, "wild_value": 25}, True
)


# -- deal and turn ---------------------------------------------------------------------
@pytest.mark.parametrize(("players", "stock"), [(2, 25), (3, 18), (4, 11)])
def test_deal_gives_seven_cards_each_and_starts_the_discard_pile(players, stock):
    state, events = new_match("chinchon", "base", players, seed="deal")
    assert all(len(state.cards(f"hand:{s}")) == 7 for s in range(players))
    assert len(state.cards("discard")) == 1 and len(state.cards("stock")) == stock
    assert len(state.all_cards()) == 40 and "8O" not in state.all_cards()
    assert state.phase == "draw" and state.to_act == [next_seat(state, state.data.dealer)]
    assert sum(e["type"] == "dealt" for e in events) == players


def test_two_to_four_players():
    for players in (1, 5):
        with pytest.raises(BadSetup):
            new_match("chinchon", "base", players)


def test_a_turn_is_draw_then_discard_and_play_passes_left():
    s = deal(layout={"hand:0": ["1O", "2O", "5C", "7E", "10B", "11B", "12C"], "discard": ["3B"]})
    assert legal_actions(s, 0) == [
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "discard"},
    ]
    draw(s, 0, "stock")
    assert len(s.cards("hand:0")) == 8 and s.phase == "discard"
    discard(s, 0, "12C")
    assert s.cards("discard")[-1] == "12C" and len(s.cards("hand:0")) == 7
    assert s.to_act == [1] and s.phase == "draw"


def test_drawing_from_the_discard_pile_takes_its_top_card():
    s = deal(layout={"discard": ["4E", "6C"]})
    events = draw(s, 0)
    assert "6C" in s.cards("hand:0") and s.cards("discard") == ["4E"]
    assert events[0]["card"] == "6C" and "visible_to" not in events[0]


def test_a_card_drawn_from_the_stock_is_seen_only_by_its_drawer():
    s = deal()
    events = draw(s, 0, "stock")
    assert events[0]["visible_to"] == [0]


def test_the_card_taken_from_the_discard_pile_may_be_discarded_again():
    s = deal(layout={"discard": ["6C"]})
    events = idle_turn(s)
    assert events[0] == {"type": "discarded", "seat": 0, "card": "6C"} and s.to_act == [1]


def test_counterclockwise_direction_option():
    s = deal(players=3, options={"direction": "counterclockwise"})
    idle_turn(s)
    assert s.to_act == [2]


# -- groups ------------------------------------------------------------------------------
def test_rule_text_example_two_to_six_de_copas_groups_as_four_five_six_or_three_to_six():
    assert not BASE.is_group(["2C", "3C", "4C", "5C", "6C"])  # a run of 5 is not a group
    assert BASE.is_group(["4C", "5C", "6C"]) and BASE.is_group(["3C", "4C", "5C", "6C"])
    groups, loose = BASE.best_grouping(["2C", "3C", "4C", "5C", "6C"])
    assert groups == [["3C", "4C", "5C", "6C"]] and loose == ["2C"]


def test_groups_are_three_four_or_seven_cards_only():
    assert BASE.is_group(["5O", "5C", "5E"]) and BASE.is_group(["5O", "5C", "5E", "5B"])
    assert BASE.is_group(COPAS_RUN)
    assert not BASE.is_group(["5O", "5C"])
    assert not BASE.is_group(COPAS_RUN[:6])  # a run of 6 is not a group either
    assert not BASE.is_group(["5O", "6O", "7C"])  # a run is of one suit


def test_seven_to_sota_is_consecutive_and_runs_do_not_wrap():
    assert BASE.is_group(["6O", "7O", "10O"]) and BASE.is_group(["7O", "10O", "11O", "12O"])
    assert not BASE.is_group(["11O", "12O", "1O"]) and not BASE.is_group(["12O", "1O", "2O"])


# -- closing -----------------------------------------------------------------------------
def test_chinchon_wins_the_match_at_once():
    s = deal(layout={"hand:0": COPAS_RUN, "discard": ["12B"]})
    draw(s, 0)
    listed = {"type": "close", "discard": "12B", "groups": [COPAS_RUN]}
    assert listed in legal_actions(s, 0)  # allowed on the very first turn
    events = close(s, 0, "12B", [COPAS_RUN])
    assert scored(events)["close"] == "chinchon"
    assert s.finished and s.result["winners"] == [0]
    assert kinds(events)[-1] == "match_finished"


def test_all_seven_grouped_scores_plus_ten_and_others_minus_their_loose_cards():
    s = deal(
        layout={
            "hand:0": GROUPED_HAND,
            "hand:1": ["1B", "2B", "3B", "6C", "12C", "11E", "7E"],
            "discard": ["2E"],
        }
    )
    draw(s, 0)
    events = close(s, 0, "2E", GROUPED)
    hand = scored(events)
    assert hand["close"] == "grouped" and hand["points"] == [10, -33]  # 6 + 10 + 10 + 7
    assert hand["hands"] == [
        {"seat": 1, "groups": [["1B", "2B", "3B"]], "loose": ["6C", "12C", "11E", "7E"]}
    ]
    assert s.rounds == [[10, -33]] and s.scores == [10, -33]
    assert kinds(events)[:2] == ["closed", "hand_scored"]  # no soltar phase
    assert s.round == 2 and s.phase == "draw"  # the next hand is dealt
    check_state(s)


def resto_hand(loose="2B"):
    """Seat 0 holds 1-2-3 de oros, three 5s and ``loose``; the Rey de espadas tops the discards."""
    return {"hand:0": ["1O", "2O", "3O", "5C", "5E", "5B", loose], "discard": ["12E"]}


LAYS_OFF_4O_5O = ["4O", "5O", "12C", "11E", "10B", "7B", "6C"]  # no group of its own


def closed_con_resto(hand1=LAYS_OFF_4O_5O):
    """Seat 0 closes con resto (2 de bastos loose) on its second turn; seat 1 holds ``hand1``."""
    s = deal(layout={**resto_hand(), "hand:1": hand1})
    idle_turn(s)
    idle_turn(s)
    draw(s, 0)
    events = close(s, 0, "12E", [["1O", "2O", "3O"], ["5C", "5E", "5B"]])
    return s, events


def test_closing_discards_face_down_and_shows_the_groups():
    s, events = closed_con_resto()
    assert s.cards("closing") == ["12E"] and s.phase == "soltar"
    seen = view(s, 1)
    assert seen["zones"]["closing"]["cards"] == [None]
    assert seen["zones"]["melds:0"]["cards"] == ["1O", "2O", "3O", "5C", "5E", "5B", "2B"]
    assert seen["melds"] == [["1O", "2O", "3O"], ["5C", "5E", "5B"]] and seen["loose"] == ["2B"]
    closed = next(e for e in events if e["type"] == "closed")
    assert closed["visible_to"] == [0] and closed["card"] == "12E" and closed["close"] == "resto"


def test_con_resto_needs_every_player_to_have_played_a_turn():
    hand1 = ["6O", "6C", "6E", "1B", "1C", "1E", "3C"]  # con resto too, with the 3 de copas
    s = deal(layout={**resto_hand(), "hand:1": hand1})
    draw(s, 0)
    groups = [["1O", "2O", "3O"], ["5C", "5E", "5B"]]
    assert not [a for a in legal_actions(s, 0) if a["type"] == "close"]
    action = {"type": "close", "discard": "12E", "groups": groups}
    refused(s, 0, action, "every player has played a turn")
    discard(s, 0, "12E")
    draw(s, 1)  # the last player's first turn: not everyone has played yet
    groups1 = [["6O", "6C", "6E"], ["1B", "1C", "1E"]]
    refused(s, 1, {"type": "close", "discard": "12E", "groups": groups1}, "every player has played")
    discard(s, 1, "12E")
    draw(s, 0)
    assert action in legal_actions(s, 0) and view(s, 0)["resto_allowed"]
    assert scored(apply(s, 0, action))["points"][0] == -2


def test_con_resto_loose_card_must_be_one_two_or_three():
    s = deal(layout=resto_hand(loose="4B"))
    idle_turn(s)
    idle_turn(s)
    draw(s, 0)
    groups = [["1O", "2O", "3O"], ["5C", "5E", "5B"]]
    refused(s, 0, {"type": "close", "discard": "12E", "groups": groups}, "needs a 1, 2 or 3")
    # discarding the 4 instead leaves the Rey loose: no close with a loose figure either
    assert not [a for a in legal_actions(s, 0) if a["type"] == "close"]


def test_con_resto_scores_the_loose_card_for_the_closer():
    s = deal(
        layout={**resto_hand(loose="3B"), "hand:1": ["12O", "12C", "11E", "11B", "10O", "7C", "7B"]}
    )
    idle_turn(s)
    idle_turn(s)
    draw(s, 0)
    events = close(s, 0, "12E", [["1O", "2O", "3O"], ["5C", "5E", "5B"]])
    hand = scored(events)  # seat 1 has nothing to lay off: the hand is scored at once
    assert hand["close"] == "resto" and hand["points"] == [-3, -64]
    assert s.data.eliminated == [1] and s.finished and s.result["winners"] == [0]


def test_only_groups_of_three_four_or_seven_close_a_hand():
    s = deal(layout={"hand:0": ["2C", "3C", "4C", "5C", "6C", "10E", "10B"], "discard": ["10O"]})
    draw(s, 0)
    five = [["2C", "3C", "4C", "5C", "6C"]]
    refused(s, 0, {"type": "close", "discard": "10O", "groups": five}, "is not a group")
    refused(
        s,
        0,
        {"type": "close", "discard": "2C", "groups": [["3C", "4C", "5C", "6C"]]},
        "group all 7",
    )
    # three Sotas and 3-4-5-6 discarding the 2, or 2-3-4-5 discarding the 6
    listed = {a["discard"]: a["groups"] for a in legal_actions(s, 0) if a["type"] == "close"}
    assert listed == {
        "2C": [["3C", "4C", "5C", "6C"], ["10E", "10B", "10O"]],
        "6C": [["2C", "3C", "4C", "5C"], ["10E", "10B", "10O"]],
    }


def test_close_groups_must_come_from_the_hand_without_the_discard():
    s = deal(layout={"hand:0": GROUPED_HAND, "discard": ["2E"]})
    draw(s, 0)
    refused(s, 0, {"type": "close", "discard": "4O", "groups": GROUPED}, "without the discarded")
    foreign = [["1C", "2C", "3C"], ["10C", "10E", "10B"]]
    refused(s, 0, {"type": "close", "discard": "2E", "groups": foreign}, "cards of your hand")
    refused(s, 0, {"type": "close", "discard": "2E", "groups": "4O"}, "list of lists")


# -- soltar cartas -----------------------------------------------------------------------
def test_soltar_cartas_completes_a_group_of_four_and_lowers_the_penalty():
    s, _ = closed_con_resto()
    assert s.phase == "soltar" and s.to_act == [1]
    assert sorted(a["card"] for a in legal_actions(s, 1) if a["type"] == "lay_off") == ["4O", "5O"]
    apply(s, 1, {"type": "lay_off", "card": "4O", "group": 0})
    assert s.data.melds[0] == ["1O", "2O", "3O", "4O"] and "4O" in s.cards("melds:0")
    events = apply(s, 1, {"type": "lay_off", "card": "5O", "group": 1})
    hand = scored(events)  # nothing left to lay off: scored without waiting for "done"
    assert hand["points"] == [-2, -43]  # R C S 7 6 left
    check_state(s)


def test_a_group_of_four_takes_no_fifth_card():
    s, _ = closed_con_resto()
    apply(s, 1, {"type": "lay_off", "card": "4O", "group": 0})
    refused(s, 1, {"type": "lay_off", "card": "5O", "group": 0}, "only a group of 3")
    refused(s, 1, {"type": "lay_off", "card": "12C", "group": 1}, "does not make")
    refused(
        s, 1, {"type": "lay_off", "card": "5O", "group": 7}, "index of one of the closer's groups"
    )
    refused(s, 1, {"type": "draw", "source": "stock"}, "not possible in phase 'soltar'")
    events = apply(s, 1, {"type": "done"})
    assert scored(events)["points"] == [-2, -48]  # 5 R C S 7 6 left: the player chose to keep the 5


def test_soltar_cartas_lets_every_other_player_act_at_once_first_come_first_served():
    s = deal(
        players=3,
        layout={
            "hand:0": ["4O", "5O", "6O", "2C", "2E", "2B", "1B"],
            "hand:1": ["3O", "12C", "11E", "10B", "7B", "6C", "12B"],
            "hand:2": ["7O", "12O", "11B", "10E", "7C", "4C", "3E"],
            "discard": ["12E"],
        },
    )
    for _ in range(3):
        idle_turn(s)
    draw(s, 0)
    close(s, 0, "12E", [["4O", "5O", "6O"], ["2C", "2E", "2B"]])
    assert s.to_act == [1, 2]  # both may extend the run of oros (3 or 7)
    apply(s, 2, {"type": "lay_off", "card": "7O", "group": 0})
    # seat 1's 3 de oros no longer fits a group of 4: the hand is scored
    assert s.rounds == [[-1, -56, -44]] and s.data.eliminated == [1]
    assert s.round == 2 and s.phase == "draw"


def test_no_soltar_after_an_all_grouped_close():
    hand1 = ["10O", "3O", "1B", "2B", "12C", "11C", "6E"]
    s = deal(layout={"hand:0": GROUPED_HAND, "hand:1": hand1, "discard": ["2E"]})
    draw(s, 0)
    events = close(s, 0, "2E", GROUPED)
    assert kinds(events)[:2] == ["closed", "hand_scored"]  # the 10O could not be laid off
    assert scored(events)["points"] == [10, -42]


# -- score, end of the match ---------------------------------------------------------------
def test_reaching_fifty_points_wins():
    s = deal(layout={"hand:0": GROUPED_HAND, "discard": ["2E"]})
    s.scores = [40, 0]
    draw(s, 0)
    close(s, 0, "2E", GROUPED)
    assert s.finished and s.result["winners"] == [0] and s.scores[0] == 50


def test_reaching_minus_fifty_eliminates_and_the_last_player_left_wins():
    s = deal(
        players=3,
        layout={
            "hand:0": GROUPED_HAND,
            "hand:1": ["1B", "2B", "3B", "4B", "5C", "6C", "1E"],
            "hand:2": ["12O", "12C", "11E", "11C", "3E", "7C", "7B"],
            "discard": ["2E"],
        },
    )
    s.scores = [0, -30, -10]
    draw(s, 0)
    events = close(s, 0, "2E", GROUPED)
    assert scored(events)["points"] == [10, -12, -57]
    assert [e["seat"] for e in events if e["type"] == "eliminated"] == [2]
    assert not s.finished and s.data.eliminated == [2]
    assert s.cards("hand:2") == [] and all(len(s.cards(f"hand:{p}")) == 7 for p in (0, 1))
    assert s.data.dealer == 0 and s.to_act == [1]
    idle_turn(s)
    assert s.to_act == [0]  # seat 2 is skipped
    check_state(s)


def test_a_player_left_alone_wins():
    hand1 = ["12O", "12C", "11E", "11C", "1B", "7C", "7B"]
    s = deal(
        layout={
            "hand:0": GROUPED_HAND,
            "hand:1": hand1,
            "discard": ["2E"],
        }
    )
    s.scores = [0, -45]
    draw(s, 0)
    close(s, 0, "2E", GROUPED)
    assert s.finished and s.result["winners"] == [0] and s.data.eliminated == [1]


def test_when_everyone_left_is_eliminated_at_once_the_best_score_wins():
    hand1 = ["12O", "12C", "11E", "11B", "10O", "7C", "7B"]  # 64 loose points
    s = deal(layout={**resto_hand(loose="3B"), "hand:1": hand1})
    idle_turn(s)
    idle_turn(s)
    s.scores = [-49, 14]
    draw(s, 0)
    close(s, 0, "12E", [["1O", "2O", "3O"], ["5C", "5E", "5B"]])
    assert s.scores == [-52, -50] and s.data.eliminated == [0, 1]
    assert s.finished and s.result["winners"] == [1]


def test_separate_tallies_option_counts_positive_points_apart():
    layout = {
        "hand:0": GROUPED_HAND,
        "hand:1": ["1B", "2B", "3B", "1E", "2E", "3E", "4E"],
        "discard": ["12E"],
    }
    for ledger, wins in (("net", False), ("separate", True)):
        s = deal(options={"ledger": ledger}, layout=layout)
        s.scores, s.data.plus, s.data.minus = [15, 0], [45, 0], [30, 0]
        draw(s, 0)
        close(s, 0, "12E", GROUPED)
        assert s.finished is wins
        assert s.data.plus[0] == 55


# -- the stock -------------------------------------------------------------------------------
def empty_stock(state):
    """Put the whole stock under the discard pile, as if long since drawn."""
    state.zones["discard"].cards[:0] = state.zones["stock"].cards
    state.zones["stock"].cards = []


def test_restock_shuffles_the_discard_pile_keeping_its_top_card():
    s = deal()
    empty_stock(s)
    assert legal_actions(s, 0) == [{"type": "draw", "source": "discard"}]
    refused(s, 0, {"type": "draw", "source": "stock"}, "stock pile is empty")
    pile = len(s.cards("discard"))
    top = s.cards("discard")[-1]
    draw(s, 0)
    events = discard(s, 0, top)
    assert {"type": "restocked", "count": pile - 1} in events
    assert s.cards("discard") == [top] and len(s.cards("stock")) == pile - 1
    assert s.data.restocks == 1
    check_state(s)


def test_stock_running_out_after_max_restocks_ends_the_hand_with_every_hand_counted():
    s = deal(
        options={"max_restocks": 0},
        layout={
            "hand:0": ["1B", "2B", "3B", "4C", "5C", "7E", "10O"],
            "hand:1": ["1O", "1C", "1E", "2O", "2C", "3C", "4O"],
        },
    )
    empty_stock(s)
    events = idle_turn(s)
    assert kinds(events)[1:3] == ["stock_exhausted", "hand_scored"]
    assert scored(events)["close"] is None and s.rounds == [[-26, -8]]  # 1-2-3 de copas for seat 1
    assert s.round == 2 and len(s.cards("stock")) == 25


def test_views_hide_other_hands_and_the_stock():
    s = deal(
        layout={"hand:0": ["1O", "2O", "5C", "7E", "10B", "11B", "12C"], "discard": ["4B", "3B"]}
    )
    mine, theirs = view(s, 0), view(s, 1)
    assert mine["zones"]["hand:0"]["cards"] == ["1O", "2O", "5C", "7E", "10B", "11B", "12C"]
    assert theirs["zones"]["hand:0"]["cards"] == [None] * 7
    assert theirs["zones"]["discard"]["cards"] == [None, "3B"]
    assert set(mine["zones"]["stock"]["cards"]) == {None}
    assert mine["resto_allowed"] is False and mine["turns"] == 0


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    s = deal(layout={"hand:0": ["1O", "2O", "5C", "7E", "10B", "11B", "12C"]})
    refused(
        s, 0, {"type": "discard", "card": "1O"}, "not possible in phase 'draw'; possible now: draw"
    )
    refused(s, 0, {"type": "draw", "source": "table"}, "source must be one of ['stock', 'discard']")
    refused(s, 0, {"type": "draw"}, "draw needs the field 'source'")
    refused(s, 0, {"type": "lay_off", "card": "1O", "group": 0}, "not possible in phase 'draw'")
    refused(s, 0, {"type": "pass"}, "unknown action type")
    draw(s, 0, "stock")
    refused(s, 0, {"type": "draw", "source": "stock"}, "possible now: discard, close")
    refused(s, 0, {"type": "discard", "card": "3E"}, "not in your hand")


# -- con comodín -------------------------------------------------------------------------------
def test_con_comodin_deck_has_the_two_jokers():
    s = deal(variant="con-comodin")
    assert len(s.all_cards()) == 42 and s.all_cards().count("JK") == 2


def test_wild_cards_stand_for_any_card_one_per_group():
    assert COMODIN.is_group(["1O", "5C", "5E"]) and COMODIN.is_group(["JK", "5C", "5E", "5B"])
    assert COMODIN.is_group(["5E", "1O", "7E"]) and COMODIN.is_group(["7E", "JK", "11E"])
    assert not COMODIN.is_group(["1O", "JK", "5E"])  # at most one wild in a group
    two = Rules(
        {"wild_one_of_oros": True, "jokers": 2, "wilds_per_group": 2, "wild_value": 25}, True
    )
    assert two.is_group(["1O", "JK", "5E"])
    assert not BASE.is_group(["1O", "5C", "5E"])  # without the variant the 1 de oros is a 1


# -- rules version 2: the 1 de oros in its own place is not one of the group's wilds ------------
NATURAL_ONE_MELDS = [["1O", "2O", "3O", "JK"], ["1O", "1C", "1E", "JK"]]
NATURAL_ONE_HANDS = [["1O", "2O", "3O", "JK", "5C", "5E", "5B"], ["1O", "1C", "1E", "JK", "4B", "5B", "6B"]]  # fmt: skip


@pytest.mark.parametrize("hand", NATURAL_ONE_HANDS, ids=["oros-run", "set-of-ones"])
def test_chinchon_con_comodin_the_one_of_oros_in_its_own_place_is_natural_beside_a_joker(hand):
    s = deal(variant="con-comodin", layout={"hand:0": hand, "discard": ["12B"]})
    draw(s, 0)
    groups = [hand[:4], hand[4:]]  # another arrangement (the 1 de oros as a wild) is listed
    assert [a["discard"] for a in legal_actions(s, 0) if a["type"] == "close"] == ["12B"]
    events = close(s, 0, "12B", groups)
    assert scored(events)["close"] == "grouped" and s.scores[0] == 10


def test_chinchon_con_comodin_still_one_wild_a_group_besides_a_natural_one_of_oros():
    assert all(COMODIN.is_group(m) for m in NATURAL_ONE_MELDS)
    assert not COMODIN.is_group(["1O", "2O", "JK", "JK"])  # two jokers: two wilds
    assert not COMODIN.is_group(["1O", "JK", "5C"])  # the 1 de oros standing for a 5 is wild
    assert not COMODIN.is_group(["1O", "JK", "5C", "5E"])
    assert COMODIN.is_group(["1O", "5C", "5E", "5B"]) and COMODIN.is_group(["1O", "3O", "JK"])


@pytest.mark.parametrize("hand", NATURAL_ONE_HANDS, ids=["oros-run", "set-of-ones"])
def test_chinchon_con_comodin_a_match_of_rules_version_1_counts_the_one_of_oros_as_wild(hand):
    state, _ = new_match("chinchon", "con-comodin", 2, seed="fixed", rules_version=1)
    assert "natural_one_of_oros" not in state.options  # same states, same hashes as before
    state.to_act, state.data.dealer = [0], 1
    rig(state, {"hand:0": hand, "discard": ["12B"]})
    draw(state, 0)
    groups = [hand[:4], hand[4:]]
    refused(state, 0, {"type": "close", "discard": "12B", "groups": groups}, "not a group")


def test_chinchon_with_a_wild_counts_only_as_all_grouped():
    run = ["1C", "2C", "3C", "JK", "5C", "6C", "7C"]
    hand1 = ["1B", "2B", "3B", "1E", "2E", "3E", "4E"]
    s = deal(variant="con-comodin", layout={"hand:0": run, "hand:1": hand1, "discard": ["12B"]})
    draw(s, 0)
    events = close(s, 0, "12B", [run])
    assert scored(events)["close"] == "grouped" and s.scores[0] == 10 and not s.finished


def test_chinchon_with_the_one_of_oros_in_its_own_place_is_a_real_chinchon():
    run = ["1O", "2O", "3O", "4O", "5O", "6O", "7O"]
    s = deal(variant="con-comodin", layout={"hand:0": run, "discard": ["12B"]})
    draw(s, 0)
    close(s, 0, "12B", [run])
    assert s.finished and s.result["winners"] == [0]


def test_a_loose_wild_costs_twenty_five_and_cannot_be_the_resto_card():
    assert COMODIN.best_grouping(["JK", "12C", "5E"]) == ([], ["JK", "12C", "5E"])  # 25 + 10 + 5
    assert COMODIN.value("1O") == 25 and COMODIN.value("JK") == 25 and BASE.value("1O") == 1
    s = deal(
        variant="con-comodin",
        layout={"hand:0": ["4O", "5O", "6O", "2C", "2E", "2B", "1O"], "discard": ["12E"]},
    )
    idle_turn(s)
    idle_turn(s)
    draw(s, 0)
    groups = [["4O", "5O", "6O"], ["2C", "2E", "2B"]]
    refused(s, 0, {"type": "close", "discard": "12E", "groups": groups}, "worth 25")
    assert [a["discard"] for a in legal_actions(s, 0) if a["type"] == "close"] == ["12E"]
    events = close(s, 0, "12E", [["4O", "5O", "6O", "1O"], ["2C", "2E", "2B"]])  # the wild grouped
    assert scored(events)["close"] == "grouped" and s.scores[0] == 10


def test_the_direction_stays_in_the_data_and_the_turn_order_follows_the_option():
    s = deal(players=3, options={"direction": "counterclockwise"})
    assert s.to_json()["data"]["direction"] == -1
    assert new_match("chinchon", "base", 3, seed="x")[0].to_json()["data"]["direction"] == 1
    idle_turn(s)
    idle_turn(s)
    assert s.to_act == [1]  # 0 -> 2 -> 1


def test_bad_fields_are_refused_by_the_action_table():
    s, _ = closed_con_resto()
    refused(s, 1, {"type": "lay_off", "card": "4O", "group": "0"}, "group must be an integer")
    refused(s, 1, {"type": "lay_off", "card": "4O"}, "lay_off needs the field 'group'")
    refused(s, 1, {"type": "done", "now": True}, "done has no field 'now'")
