"""Escoba and Desescoba: worked scenarios from fixed deals, named after the rule they check."""

from __future__ import annotations

import json
import random

import pytest

from shared.engine import (
    BadSetup,
    IllegalAction,
    InvalidState,
    apply,
    check_state,
    get_game,
    legal_actions,
    new_match,
    spanish_deck,
    view,
)
from shared.engine.kit.tables import SPANISH_COUNT
from shared.games.escoba import (
    EscobaData,
    can_capture,
    combinations_to,
    primera_sum,
    reachable_sums,
    score_deal,
    value,
)
from tests.playouts import choose
from tests.rigging import rig

GAME = get_game("escoba")


def deal(
    layout, players=2, variant="base", options=None, starter=0, spill="stock", rules_version=None
):
    """A deal opened exactly as a real one, with the given cards placed (unnamed hands and piles empty)."""
    state, _ = new_match(
        "escoba", variant, players, seed="fixed", options=options, rules_version=rules_version
    )
    full = {f"hand:{s}": [] for s in range(players)}
    full.update({f"captured:{s}": [] for s in range(players)})
    full.update(layout)
    rig(state, full, spill=spill)
    EscobaData.of(state).starter = starter
    events = GAME.begin_deal(state)
    check_state(state)
    return state, events


def last_hand(layout, players=2, variant="base", options=None, starter=0):
    """The final hand of a deal: empty stock, every unnamed card already in seat 1's pile."""
    layout = {"stock": [], **layout}
    in_play = [
        c for name, cards in layout.items() if not name.startswith("captured") for c in cards
    ]
    assert sum(value(c) for c in in_play) % 15 == 10, "a real deal leaves 10 modulo 15 in play"
    return deal(layout, players, variant, options, starter, spill="captured:1")


def capture(state, seat, card, take):
    return apply(state, seat, {"type": "capture", "card": card, "take": take})


def play(state, seat, card):
    return apply(state, seat, {"type": "play", "card": card})


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def refused(state, seat, action, reason):
    """The action is refused with a reason containing ``reason``, and nothing changes."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as exc:
        apply(state, seat, action)
    assert reason in str(exc.value)
    assert json.dumps(state.to_json(), sort_keys=True) == before


# -- values and captures ---------------------------------------------------------------
def test_values_are_the_number_and_sota_8_caballo_9_rey_10():
    assert [value(f"{r}O") for r in (1, 2, 3, 4, 5, 6, 7)] == [1, 2, 3, 4, 5, 6, 7]
    assert (value("10C"), value("11E"), value("12B")) == (8, 9, 10)
    assert sum(SPANISH_COUNT.values()) * 4 == 220  # the deck total behind the leftover invariant


def test_every_subset_of_the_table_making_15_is_a_separate_capture():
    state, _ = deal({"hand:0": ["7O"], "table": ["1C", "2C", "3C", "5C", "4E", "10B"]})
    takes = {frozenset(a["take"]) for a in legal_actions(state, 0) if a["type"] == "capture"}
    assert takes == {
        frozenset({"10B"}),
        frozenset({"3C", "5C"}),
        frozenset({"1C", "2C", "5C"}),
        frozenset({"1C", "3C", "4E"}),
    }


def test_captures_of_equal_values_with_different_cards_are_distinct():
    state, _ = deal({"hand:0": ["12O"], "table": ["3C", "3E", "2O"]})
    takes = [a["take"] for a in legal_actions(state, 0) if a["type"] == "capture"]
    assert sorted(takes) == [["3C", "2O"], ["3E", "2O"]]


def test_combinations_list_each_subset_once_in_table_order():
    assert combinations_to(5, ["1O", "4O", "2C", "3C", "5E"]) == [
        ["1O", "4O"],
        ["2C", "3C"],
        ["5E"],
    ]
    assert combinations_to(0, ["1O"]) == []


def test_contract_example_capture_takes_the_cards_to_the_players_pile():
    state, _ = deal({"hand:0": ["7O", "1B"], "hand:1": ["2B"], "table": ["3C", "5E", "6B"]})
    events = capture(state, 0, "7O", ["3C", "5E"])
    assert sorted(state.cards("captured:0")) == ["3C", "5E", "7O"]
    assert state.cards("table") == ["6B"]
    took = {"type": "captured", "seat": 0, "card": "7O", "take": ["3C", "5E"], "escoba": False}
    assert of_type(events, "captured") == [took]
    assert EscobaData.of(state).last_capturer == 0 and state.to_act == [1]


def test_capture_is_optional_in_the_base_game():
    state, _ = deal({"hand:0": ["7O", "1B"], "hand:1": ["2B"], "table": ["3C", "5E"]})
    assert {"type": "play", "card": "7O"} in legal_actions(state, 0)
    play(state, 0, "7O")
    assert state.cards("table") == ["3C", "5E", "7O"]
    assert state.cards("captured:0") == [] and EscobaData.of(state).last_capturer is None


def test_clearing_the_table_is_an_escoba_and_the_next_player_can_only_play():
    state, _ = deal({"hand:0": ["7O", "1B"], "hand:1": ["2B", "12C"], "table": ["3C", "5E"]})
    events = capture(state, 0, "7O", ["5E", "3C"])  # any order of the take is accepted
    assert of_type(events, "captured")[0]["escoba"] is True
    assert EscobaData.of(state).escobas == [1, 0]
    assert legal_actions(state, 1) == [
        {"type": "play", "card": "2B"},
        {"type": "play", "card": "12C"},
    ]


def test_turn_passes_to_the_left():
    state, _ = deal(
        {"hand:0": ["1B"], "hand:1": ["2B"], "hand:2": ["3B"], "table": ["1C", "1E"]},
        players=3,
        starter=1,
    )
    assert state.to_act == [1]
    play(state, 1, "2B")
    assert state.to_act == [2]
    play(state, 2, "3B")
    assert state.to_act == [0]


def test_counterclockwise_direction_option_reverses_the_turn():
    state, _ = deal(
        {"hand:0": ["1B"], "hand:1": ["2B"], "hand:2": ["3B"], "table": ["1C", "1E"]},
        players=3,
        options={"direction": "counterclockwise"},
    )
    play(state, 0, "1B")
    assert state.to_act == [2]


# -- refused actions ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (
            {"type": "capture", "card": "7O", "take": ["3C"]},
            "The 7 of coins (7) with the 3 of cups makes 10, not 15",
        ),
        (
            {"type": "capture", "card": "7O", "take": ["3C", "5B"]},
            "not on the table: the 5 of clubs",
        ),
        ({"type": "capture", "card": "4O", "take": ["3C", "5E"]}, "card 4O is not in your hand"),
        ({"type": "capture", "card": "7O", "take": []}, "take must be a non-empty list"),
        ({"type": "capture", "card": "7O", "take": "3C"}, "take must be a list of card codes"),
        ({"type": "capture", "card": "7O", "take": ["3C", "3C"]}, "take lists a card twice"),
        ({"type": "capture", "card": "7O"}, "capture needs the field 'take'"),
        (
            {"type": "play", "card": "7O", "take": ["3C"]},
            "play has no field 'take'; fields: ['card']",
        ),
        ({"type": "play", "card": None}, "card must be a card code"),
        ({"type": "claim"}, "claim is not possible in phase 'play'; possible now: capture, play"),
        ({"type": "sweep"}, "unknown action type 'sweep'"),
    ],
)
def test_invalid_actions_are_refused_with_a_clear_reason_and_change_nothing(action, reason):
    state, _ = deal({"hand:0": ["7O", "1B"], "hand:1": ["2B"], "table": ["3C", "5E"]})
    refused(state, 0, action, reason)


def test_a_seat_out_of_turn_is_refused():
    state, _ = deal({"hand:0": ["7O"], "hand:1": ["2B"], "table": ["3C", "5E"]})
    refused(state, 1, {"type": "play", "card": "2B"}, "Player 2 is not to act now")


# -- Desescoba: mandatory capture ---------------------------------------------------------
CAPTURE_OR_LAY = {"hand:0": ["7O", "1B"], "hand:1": ["2B"], "table": ["3C", "5E"]}


def test_desescoba_capturing_is_mandatory_whenever_a_card_of_the_hand_can():
    state, _ = deal(CAPTURE_OR_LAY, variant="desescoba")
    assert state.options["mandatory_capture"] == "any-card"
    assert legal_actions(state, 0) == [{"type": "capture", "card": "7O", "take": ["3C", "5E"]}]
    refused(
        state, 0, {"type": "play", "card": "1B"}, "capture is mandatory: the 7 of coins makes 15"
    )
    refused(
        state, 0, {"type": "play", "card": "7O"}, "capture is mandatory: the 7 of coins makes 15"
    )


def test_desescoba_played_card_option_lets_a_card_that_cannot_make_15_be_laid():
    state, _ = deal(
        CAPTURE_OR_LAY, variant="desescoba", options={"mandatory_capture": "played-card"}
    )
    assert legal_actions(state, 0) == [
        {"type": "capture", "card": "7O", "take": ["3C", "5E"]},
        {"type": "play", "card": "1B"},
    ]
    refused(
        state,
        0,
        {"type": "play", "card": "7O"},
        "capture is mandatory: the 7 of coins makes 15 with the 3 of cups and the 5 of swords",
    )
    play(state, 0, "1B")  # a card that cannot make 15 may still be laid
    assert "1B" in state.cards("table")


def test_desescoba_a_match_of_rules_version_1_lets_another_card_be_laid():
    state, _ = deal(CAPTURE_OR_LAY, variant="desescoba", rules_version=1)
    assert state.options["mandatory_capture"] == "played-card"
    play(state, 0, "1B")
    assert "1B" in state.cards("table")


def test_desescoba_without_any_capture_a_card_is_laid():
    state, _ = deal(
        {"hand:0": ["1B", "2B"], "hand:1": ["2C"], "table": ["1C", "1E"]}, variant="desescoba"
    )
    assert legal_actions(state, 0) == [
        {"type": "play", "card": "1B"},
        {"type": "play", "card": "2B"},
    ]


# -- dealing -------------------------------------------------------------------------------
def test_deal_gives_three_cards_each_and_four_to_the_table_then_refills_hands_only():
    state, events = new_match("escoba", "base", 2, seed="fixed")
    assert not of_type(events, "fifteen_in_hand") and not of_type(events, "fifteen_on_table")
    assert [len(state.cards(z)) for z in ("hand:0", "hand:1", "table", "stock")] == [3, 3, 4, 30]
    for _ in range(6):
        seat = state.to_act[0]
        play(state, seat, state.cards(f"hand:{seat}")[0])
    assert [len(state.cards(z)) for z in ("hand:0", "hand:1", "table", "stock")] == [3, 3, 10, 24]
    assert state.to_act == [0]  # the rotation goes on from the player after the last one


def test_a_short_stock_deals_three_at_a_time_in_turn_order_until_it_runs_out():
    state, _ = deal(
        {"hand:0": ["1B"], "table": ["1C", "1E"], "stock": ["4O", "5O", "6O", "7O"]},
        players=3,
        spill="captured:2",
    )
    play(state, 0, "1B")
    assert state.cards("hand:1") == ["7O", "6O", "5O"]  # the top of the stock first
    assert state.cards("hand:2") == ["4O"] and state.cards("hand:0") == []
    assert state.to_act == [1]


def test_first_seat_option_chooses_who_starts_the_first_deal():
    state, events = new_match("escoba", "base", 3, seed="fixed", options={"first_seat": 2})
    assert events[0] == {"type": "deal", "round": 1, "starter": 2} and state.to_act == [2]


def test_player_count_is_two_up_to_what_the_deck_can_deal():
    assert GAME.players == (2, 12)
    state, _ = new_match("escoba", "base", 12, seed="fixed")
    assert state.cards("stock") == [] and all(len(state.cards(f"hand:{s}")) == 3 for s in range(12))
    with pytest.raises(BadSetup):
        new_match("escoba", "base", 13)
    with pytest.raises(BadSetup, match="first_seat"):
        new_match("escoba", "base", 2, options={"first_seat": 2})


# -- 15 en mesa -------------------------------------------------------------------------------
def test_fifteen_on_table_goes_to_the_first_player_as_four_escobas_and_empties_the_table():
    state, events = deal(
        {
            "hand:0": ["1B", "2B", "4B"],
            "hand:1": ["1E", "2E", "4E"],
            "table": ["1O", "2C", "5E", "7B"],
        },
        starter=1,
    )
    assert of_type(events, "fifteen_on_table") == [
        {"type": "fifteen_on_table", "seat": 1, "cards": ["1O", "2C", "5E", "7B"], "escobas": 4}
    ]
    assert state.cards("table") == []
    assert sorted(state.cards("captured:1")) == ["1O", "2C", "5E", "7B"]
    assert EscobaData.of(state).escobas == [0, 4] and EscobaData.of(state).last_capturer == 1
    assert state.to_act == [1]


@pytest.mark.parametrize(
    "table", [["1O", "2C", "5E", "6B"], ["1O", "2C", "5E", "12B"], ["7O", "7C", "6E", "12B"]]
)
def test_fifteen_on_table_needs_an_exact_total_of_15(table):
    state, events = deal({"hand:0": ["1B"], "hand:1": ["1E"], "table": table})  # 14, 18, 30
    assert not of_type(events, "fifteen_on_table") and state.cards("table") == table


def test_thirty_on_table_option_counts_twice():
    state, events = deal(
        {"hand:0": ["1B"], "hand:1": ["1E"], "table": ["7O", "7C", "6E", "12B"]},
        options={"thirty_on_table": True},
    )
    assert of_type(events, "fifteen_on_table")[0]["escobas"] == 8
    assert EscobaData.of(state).escobas == [8, 0]


RACE = {"fifteen_on_table": "race", "race_seconds": 2.5}
RACE_DEAL = {"hand:0": ["1B", "2B"], "hand:1": ["1E", "2E"], "table": ["1O", "2C", "5E", "7B"]}


def race_unclaimed() -> list[dict]:
    """A dealt table of 15 raced for, the window closing without a claim."""
    state, events = deal(RACE_DEAL, options=RACE)
    return events + apply(state, None, {"type": "timeout"})


#: The events random matches do not meet (no variant races for a dealt table of 15).
EVENT_SCENARIOS = {
    "fifteen_on_table_race": race_unclaimed,
    "fifteen_on_table_unclaimed": race_unclaimed,
}


def test_fifteen_on_table_race_opens_a_reaction_window_for_every_seat():
    state, events = deal(RACE_DEAL, options=RACE)
    assert of_type(events, "fifteen_on_table_race")
    assert state.phase == "race" and state.to_act == [0, 1]
    assert state.deadline == {"kind": "reaction", "seconds": 2.5}
    assert legal_actions(state, 1) == [{"type": "claim"}]
    assert legal_actions(state, None) == [{"type": "timeout"}]
    refused(
        state,
        0,
        {"type": "play", "card": "1B"},
        "play is not possible in phase 'race'; possible now: claim",
    )


def test_fifteen_on_table_race_the_first_claim_applied_wins():
    state, _ = deal(RACE_DEAL, options=RACE)
    events = apply(state, 1, {"type": "claim"})  # arrival order: seat 1 reached the server first
    assert of_type(events, "fifteen_on_table")[0]["seat"] == 1
    assert EscobaData.of(state).escobas == [0, 4] and state.cards("table") == []
    assert state.deadline is None and state.phase == "play" and state.to_act == [0]
    refused(state, 0, {"type": "claim"}, "claim is not possible in phase 'play'")  # too late
    assert legal_actions(state, None) == []


def test_fifteen_on_table_race_timeout_without_claim_leaves_the_table():
    state, _ = deal(RACE_DEAL, options=RACE)
    events = apply(state, None, {"type": "timeout"})
    assert of_type(events, "fifteen_on_table_unclaimed")
    assert EscobaData.of(state).escobas == [0, 0] and len(state.cards("table")) == 4
    assert state.deadline is None and state.to_act == [0]


# -- 15 en mano ---------------------------------------------------------------------------------
def test_fifteen_in_hand_scores_three_escobas_and_the_player_sits_out_until_the_refill():
    state, events = deal(
        {
            "hand:0": ["7O", "5C", "3E"],
            "hand:1": ["4C", "4E", "4B"],
            "table": ["1O", "1C", "1E", "2B"],
        }
    )
    assert of_type(events, "fifteen_in_hand") == [
        {"type": "fifteen_in_hand", "seat": 0, "cards": ["7O", "5C", "3E"]}
    ]
    assert EscobaData.of(state).escobas == [3, 0] and EscobaData.of(state).sitting_out == [0]
    assert state.cards("hand:0") == [] and sorted(state.cards("captured:0")) == ["3E", "5C", "7O"]
    for card in ("4C", "4E", "4B"):  # seat 1 plays its whole hand alone
        assert state.to_act == [1]
        play(state, 1, card)
    assert len(state.cards("hand:0")) == 3 and len(state.cards("hand:1")) == 3
    assert EscobaData.of(state).sitting_out == [] and state.to_act == [0]


def test_fifteen_in_hand_is_found_on_a_real_deal():
    state, events = new_match("escoba", "base", 2, seed="a")
    shown = of_type(events, "fifteen_in_hand")[0]
    assert sum(value(c) for c in shown["cards"]) == 15
    assert EscobaData.of(state).escobas[shown["seat"]] == 3 and not state.cards(
        f"hand:{shown['seat']}"
    )


REFILL = {
    "hand:0": ["1B"],
    "hand:1": ["2B"],
    "table": ["1O", "1C", "3B"],
    "stock": ["12C", "7E", "7C", "4O", "5O", "6O"],
}


def test_fifteen_in_hand_is_checked_only_on_the_first_hands_by_default():
    state, _ = deal(REFILL, spill="captured:1")
    play(state, 0, "1B")
    events = play(state, 1, "2B")
    assert not of_type(events, "fifteen_in_hand") and state.cards("hand:0") == ["6O", "5O", "4O"]


def test_fifteen_in_hand_every_deal_option_checks_refills_too():
    state, _ = deal(REFILL, options={"fifteen_in_hand": "every-deal"}, spill="captured:1")
    play(state, 0, "1B")
    events = play(state, 1, "2B")
    assert of_type(events, "fifteen_in_hand")[0]["seat"] == 0
    assert (
        EscobaData.of(state).escobas == [3, 0]
        and state.cards("hand:0") == []
        and state.to_act == [1]
    )


# -- end of deal and scoring -------------------------------------------------------------------------
FINAL = {"hand:0": ["7O"], "hand:1": ["1C"], "table": ["3C", "5E", "2B", "7B"]}  # 25 in play


def test_last_capturer_takes_the_leftover_and_the_deal_is_scored():
    state, _ = last_hand(FINAL)
    capture(state, 0, "7O", ["3C", "5E"])
    events = play(state, 1, "1C")
    assert of_type(events, "took_leftover") == [
        {"type": "took_leftover", "seat": 0, "cards": ["2B", "7B", "1C"]}
    ]
    scored = of_type(events, "deal_scored")[0]
    # seat 0: 7O 3C 5E 2B 7B 1C; seat 1: the other 34 cards (9 oros, primera 6O 7C 7E 6B)
    categories = {k: scored[k] for k in ("cards", "oros", "seven_of_oros", "primera")}
    assert categories == {"cards": 1, "oros": 1, "seven_of_oros": 0, "primera": 1}
    assert scored["primera_sums"] == [22, 26] and scored["points"] == [1, 3]
    assert state.rounds == [[1, 3]] and state.scores == [1, 3]


def test_a_new_deal_follows_started_by_the_next_seat():
    state, _ = last_hand(FINAL)
    capture(state, 0, "7O", ["3C", "5E"])
    events = play(state, 1, "1C")
    assert of_type(events, "deal")[0] == {"type": "deal", "round": 2, "starter": 1}
    assert (
        state.round == 2
        and len(state.cards("stock")) == 30
        and EscobaData.of(state).escobas == [0, 0]
    )


def test_leftover_stays_unowned_when_nobody_captured():
    state, _ = last_hand(FINAL)
    play(state, 0, "7O")
    events = play(state, 1, "1C")
    assert not of_type(events, "took_leftover")
    assert of_type(events, "deal_scored")[0]["seven_of_oros"] is None


def test_leftover_not_10_modulo_15_is_an_invalid_state():
    state, _ = deal(
        {
            "stock": [],
            "hand:0": ["7O"],
            "hand:1": ["1C"],
            "table": ["3C", "5E", "2B", "6B"],
            "captured:0": [],
        },
        spill="captured:1",
    )  # the other cards sum 196, which no sequence of 15s could have captured
    capture(state, 0, "7O", ["3C", "5E"])
    with pytest.raises(InvalidState, match="not 10 modulo 15"):
        play(state, 1, "1C")


def test_leftover_is_always_10_modulo_15_in_random_play():
    options = [
        {},
        {"fifteen_on_table": "race", "fifteen_in_hand": "every-deal", "thirty_on_table": True},
    ]
    seen = 0
    for k in range(12):
        state, _ = new_match("escoba", "base", 2 + k % 4, seed=f"inv{k}", options=options[k % 2])
        rng = random.Random(k)
        while not state.finished:
            seat, action = choose(state, rng)
            for e in of_type(apply(state, seat, action), "took_leftover"):
                assert sum(value(c) for c in e["cards"]) % 15 == 10
                seen += 1
    assert seen > 12


def test_cards_and_oros_go_to_the_sole_highest_and_nobody_on_a_tie():
    points, b = score_deal([["1O", "2O", "3C"], ["4O", "5C"]], [0, 0])
    assert (b["cards"], b["oros"]) == (0, 0) and points == [2, 0]
    points, b = score_deal([["1O", "3C"], ["4O", "5C"]], [0, 0])
    assert (b["cards"], b["oros"]) == (None, None) and points == [0, 0]


def test_seven_of_oros_and_each_escoba_score_one():
    points, b = score_deal([["1C"], ["7O", "2C"]], [2, 1])
    assert b["seven_of_oros"] == 1
    assert points == [2, 1 + 1 + 1 + 1]  # seat 1: its escoba, 7 de oros, cartas and oros


def test_primera_counts_the_best_numeric_card_of_each_suit_figures_excluded():
    assert primera_sum(["7O", "2O", "12C", "3C", "1E", "6B", "11B"]) == 7 + 3 + 1 + 6
    assert primera_sum(["7O", "12C", "1E", "6B"]) is None  # only a figure in copas: cannot compete


def test_primera_needs_all_four_suits_to_compete():
    points, b = score_deal([["7O", "7C", "7E"], ["1O", "1C", "1E", "1B"]], [0, 0])
    assert b["primera_sums"] == [None, 4] and b["primera"] == 1 and b["primera_points"] == 1


def test_primera_with_four_sevens_scores_two():
    points, b = score_deal([["7O", "7C", "7E", "7B"], ["6O", "6C", "6E", "6B"]], [0, 0])
    assert b["primera_sums"] == [28, 24] and b["primera_points"] == 2
    assert points == [1 + 2, 0]  # 7 de oros and the double primera


def test_primera_tie_scores_nobody():
    points, b = score_deal([["5O", "5C", "7E", "1B"], ["6O", "4C", "6E", "2B"]], [0, 0])
    assert b["primera_sums"] == [18, 18] and b["primera"] is None and b["primera_points"] == 0


# -- end of the match ---------------------------------------------------------------------------------
def end_deal_with_scores(scores, variant="base"):
    """Play FINAL (seat 0 scores 1, seat 1 scores 3) from the given running totals."""
    state, _ = last_hand(FINAL, variant=variant)
    state.scores = list(scores)
    capture(state, 0, "7O", ["3C", "5E"])
    play(state, 1, "1C")
    return state


def test_reaching_15_wins():
    state = end_deal_with_scores([14, 0])
    assert state.finished and state.result["winners"] == [0] and state.scores == [15, 3]


def test_when_several_reach_15_the_highest_wins():
    state = end_deal_with_scores([14, 13])
    assert state.result["winners"] == [1] and state.scores == [15, 16]


def test_a_tie_at_the_top_means_another_deal():
    state = end_deal_with_scores([14, 12])
    assert state.scores == [15, 15] and not state.finished and state.round == 2


def test_desescoba_reaching_15_loses_and_the_lowest_wins():
    state = end_deal_with_scores([14, 0], variant="desescoba")
    assert state.finished and state.result["winners"] == [1] and state.scores == [15, 3]


def test_desescoba_lowest_score_wins_even_when_several_reach_15():
    state = end_deal_with_scores([14, 13], variant="desescoba")
    assert state.result["winners"] == [0] and state.scores == [15, 16]


# -- views -------------------------------------------------------------------------------------------------
def test_views_show_table_and_piles_but_only_ones_own_hand():
    state, _ = deal({"hand:0": ["7O", "1B"], "hand:1": ["2B"], "table": ["3C", "5E", "6B"]})
    capture(state, 0, "7O", ["3C", "5E"])
    mine, spectator = view(state, 0), view(state, None)
    assert mine["zones"]["hand:0"]["cards"] == ["1B"] and spectator["zones"]["hand:0"]["cards"] == [
        None
    ]
    assert spectator["zones"]["captured:0"]["cards"] == ["7O", "3C", "5E"]
    assert (
        spectator["table_sum"] == 6
        and spectator["last_capturer"] == 0
        and spectator["escobas"] == [0, 0]
    )


def test_the_subset_sum_bitset_agrees_with_listing_the_captures():
    """Mandatory capture asks only whether a card can capture: one bit test of the table's
    reachable sums, which must say yes exactly when some capture exists."""
    rng = random.Random(15)
    deck = spanish_deck(40)
    for _ in range(500):
        table = rng.sample(deck, rng.randint(0, 8))
        sums = reachable_sums(table)
        for card in deck:
            assert can_capture(card, sums) == bool(combinations_to(15 - value(card), table))
