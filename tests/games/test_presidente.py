"""Presidente: climbing with sets, the 8 and the 3 of clubs, revolution, ranks and exchanges."""

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
    get_game,
    legal_actions,
    new_match,
    redact,
    view,
)
from shared.engine.kit import climbing
from shared.games.presidente import value
from tests.rigging import rig

TIMEOUT = {"type": "timeout"}
P, C, S = "presidente", "ciudadano", "esclavo"


def match(variant: str = "base", seed: str = "pres", **options) -> State:
    state, _ = new_match("presidente", variant, 4, seed=seed, options=options or None)
    return state


def table(hands: list[list[str]], leader: int = 0, variant: str = "base", **options) -> State:
    """A round in play with these hands; the other cards lie in the discard."""
    state = match(variant, **options)
    rig(state, {f"hand:{s}": cards for s, cards in enumerate(hands)}, spill="discard")
    state.phase, state.to_act, state.deadline = "play", [leader], None
    for s in range(4):
        state.zones[f"swap:{s}"].cards = []
    check_state(state)
    return state


def play(state: State, seat: int, *cards: str) -> list[dict]:
    return apply(state, seat, {"type": "play", "cards": list(cards)})


def pass_(state: State, seat: int) -> list[dict]:
    return apply(state, seat, {"type": "pass"})


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


FILLER = [["9S", "9H"], ["10S", "10H"], ["JS", "JH"], ["QS", "QH"]]


# -- the order and the climb ---------------------------------------------------------------
def test_the_order_runs_from_3_to_2():
    order = ["3S", "4S", "5S", "6S", "7S", "9S", "10S", "JS", "QS", "KS", "AS", "2S"]
    assert [value(c) for c in order] == sorted(value(c) for c in order)
    assert len({value(c) for c in order}) == 12
    assert value("JK") > value("2S")


def test_a_play_may_equal_or_beat_the_card_on_the_pile():
    """The text's example: after a 5, the next player may play another 5 or a higher card."""
    state = table([["5S", "KD"], ["5H", "4H", "6H"], ["9D"], ["QC"]])
    play(state, 0, "5S")
    plays = [a["cards"] for a in legal_actions(state, 1) if a["type"] == "play"]
    assert sorted(plays) == [["5H"], ["6H"]]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="a 4 does not meet the 5 on the pile"):
        play(state, 1, "4H")
    assert snapshot(state) == before
    play(state, 1, "5H")
    assert state.data.top == {"seat": 1, "value": 5, "count": 1}
    assert state.to_act == [2]


def test_a_set_must_be_answered_with_as_many_cards_of_equal_or_higher_value():
    """The text's example: after two 5s, two 5s or two equal cards of a higher value."""
    state = table([["5S", "5D", "KD"], ["5H", "5C", "7H", "7D", "9H", "4H", "4D"], ["9D"], ["QC"]])
    play(state, 0, "5S", "5D")
    plays = sorted(a["cards"] for a in legal_actions(state, 1) if a["type"] == "play")
    assert plays == [["5C", "5H"], ["7D", "7H"]]
    with pytest.raises(IllegalAction, match="2 card"):
        play(state, 1, "9H")
    with pytest.raises(IllegalAction, match="same value"):
        play(state, 1, "7H", "9H")
    play(state, 1, "7H", "7D")
    assert state.data.top["count"] == 2


def test_a_set_is_listed_once_per_value_and_size():
    state = table([["6S", "6H", "6D", "6C", "KD"], ["4H"], ["9D"], ["QC"]])
    plays = [a["cards"] for a in legal_actions(state, 0) if a["type"] == "play"]
    assert len(plays) == 5  # four sizes of 6 and the K, not every subset of the 6s
    assert ["6C", "6D"] in plays
    play(state, 0, "6S", "6C")  # any two 6s are accepted, not only the listed ones
    assert state.cards("pile") == ["6S", "6C"]


def test_the_leader_must_play_and_cannot_pass():
    state = table([["5S"], ["5H"], ["9D"], ["QC"]])
    assert {"type": "pass"} not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="you lead"):
        pass_(state, 0)


# -- the 8 and the 3 of clubs --------------------------------------------------------------
def test_an_eight_clears_the_pile_and_its_player_leads_again():
    state = table([["KS", "4D"], ["8H", "4H"], ["9D", "3D"], ["QC", "3S"]])
    play(state, 0, "KS")
    events = play(state, 1, "8H")  # an 8 goes on a K
    assert of_type(events, "pile_cleared") == [
        {"type": "pile_cleared", "reason": "eight", "seat": 1}
    ]
    assert state.cards("pile") == [] and state.cards("discard")[-2:] == ["KS", "8H"]
    assert state.to_act == [1] and state.data.top is None


def test_eights_must_be_played_in_the_count_of_the_lead():
    state = table([["KS", "KD", "4D"], ["8H", "4H", "8C"], ["9D"], ["QC"]])
    play(state, 0, "KS", "KD")
    with pytest.raises(IllegalAction, match="2 card"):
        play(state, 1, "8H")
    play(state, 1, "8H", "8C")
    assert state.to_act == [1] and state.cards("pile") == []


def test_the_eight_may_be_required_to_beat_as_an_option():
    state = table([["KS", "4D"], ["8H", "4H"], ["9D"], ["QC"]], eight="beat")
    play(state, 0, "KS")
    with pytest.raises(IllegalAction, match="an? 8 does not meet the K"):
        play(state, 1, "8H")
    state = table([["5S", "4D"], ["8H", "4H"], ["9D"], ["QC"]], eight="beat")
    play(state, 0, "5S")
    play(state, 1, "8H")
    assert state.cards("pile") == [] and state.to_act == [1]


def test_the_three_of_clubs_on_a_single_two_takes_the_pile():
    state = table([["2S", "4D"], ["3C", "4H"], ["9D"], ["QC"]])
    play(state, 0, "2S")
    assert {"type": "play", "cards": ["3C"]} in legal_actions(state, 1)
    events = play(state, 1, "3C")
    assert of_type(events, "pile_cleared")[0]["reason"] == "three_of_clubs"
    assert state.cards("pile") == [] and state.to_act == [1]


def test_another_three_does_not_beat_a_two():
    state = table([["2S", "4D"], ["3C", "3H", "4H"], ["9D"], ["QC"]])
    play(state, 0, "2S")
    with pytest.raises(IllegalAction, match="a 3 does not meet the 2"):
        play(state, 1, "3H")


def test_the_three_of_clubs_does_not_take_a_pair_of_twos():
    state = table([["2S", "2D", "4D"], ["3C", "3H", "4H"], ["9D"], ["QC"]])
    play(state, 0, "2S", "2D")
    with pytest.raises(IllegalAction, match="a 3 does not meet the 2"):
        play(state, 1, "3C", "3H")
    assert [a["type"] for a in legal_actions(state, 1)] == ["pass"]


def test_a_set_of_threes_keeps_the_three_of_clubs_for_last():
    state = table([["3C", "3H", "3D", "KD"], ["4H"], ["9D"], ["QC"]])
    plays = [a["cards"] for a in legal_actions(state, 0) if a["type"] == "play"]
    assert ["3D"] in plays and ["3C"] in plays and ["3D", "3H"] in plays
    assert ["3C", "3D", "3H"] in [sorted(p) for p in plays]


# -- passing and clearing ------------------------------------------------------------------
def test_a_player_who_passes_is_out_until_the_pile_clears():
    state = table([["5S", "KS"], ["6H", "7H"], ["9D", "JD"], ["QC", "4C"]])
    play(state, 0, "5S")
    pass_(state, 1)
    play(state, 2, "9D")
    play(state, 3, "QC")
    assert state.to_act == [0]  # seat 1 passed: skipped until the pile clears
    play(state, 0, "KS")
    assert state.to_act == [2]


def test_when_everyone_else_has_passed_the_pile_clears_and_the_last_player_leads():
    state = table([["5S", "KS"], ["6H", "7H"], ["9D", "JD"], ["QC", "4C"]])
    play(state, 0, "5S")
    play(state, 1, "6H")
    pass_(state, 2)
    pass_(state, 3)
    events = pass_(state, 0)
    assert of_type(events, "pile_cleared") == [
        {"type": "pile_cleared", "reason": "all_passed", "seat": 1}
    ]
    assert state.to_act == [1] and state.data.passed == [] and state.cards("pile") == []


def test_when_the_last_player_went_out_the_next_player_still_in_leads():
    state = table([["5S", "KS"], ["6H"], ["9D", "JD"], ["QC", "4C"]])
    play(state, 0, "5S")
    events = play(state, 1, "6H")
    assert of_type(events, "went_out") == [{"type": "went_out", "seat": 1, "place": 1}]
    pass_(state, 2)
    pass_(state, 3)
    pass_(state, 0)
    assert state.to_act == [2]


# -- revolution ----------------------------------------------------------------------------
def test_four_equal_values_in_a_row_start_a_revolution_that_reverses_the_order():
    state = table([["5S", "5D", "KS", "4S"], ["5H", "7H", "AH"], ["5C", "JD"], ["QC", "4C"]])
    play(state, 0, "5S")
    play(state, 1, "5H")
    play(state, 2, "5C")
    pass_(state, 3)
    events = play(state, 0, "5D")  # four 5s in a row, from three players
    assert of_type(events, "revolution") == [{"type": "revolution", "on": True}]
    assert view(state, 1)["revolution"] is True
    assert climbing.equal_or_beat(4, 5, revolution=True)
    # the pile clears with everyone passed; in the revolution lower values win
    pass_(state, 1)
    pass_(state, 2)
    assert state.to_act == [0] and state.cards("pile") == []
    play(state, 0, "KS")
    with pytest.raises(
        IllegalAction, match="an A does not meet the K on the pile: play equal or lower"
    ):
        play(state, 1, "AH")
    play(state, 1, "7H")
    assert state.data.revolution is True  # it lasts across the cleared pile


def test_in_a_revolution_the_order_runs_from_2_down_to_3():
    """The text's reversed order: 2, A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3 (weakest to strongest)."""
    reversed_order = ["2S", "AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S"]
    values = [value(c) for c in reversed_order]
    for weaker, stronger in itertools.pairwise(values):
        assert climbing.equal_or_beat(stronger, weaker, revolution=True)
        assert not climbing.equal_or_beat(weaker, stronger, revolution=True)


def test_a_revolution_in_one_play_and_a_second_one_reverts_it():
    state = table([["9S", "9H", "9D", "9C", "4D"], ["6H", "6S", "6D", "6C", "7H"], ["JD"], ["QC"]])
    events = play(state, 0, "9S", "9H", "9D", "9C")
    assert of_type(events, "revolution") == [{"type": "revolution", "on": True}]
    events = play(state, 1, "6H", "6S", "6D", "6C")  # lower goes in a revolution
    assert of_type(events, "revolution") == [{"type": "revolution", "on": False}]
    assert state.data.revolution is False


def test_equal_values_separated_by_another_value_are_no_revolution():
    state = table([["5S", "5D", "KS"], ["5H", "7H"], ["6C", "5C"], ["QC", "4C"]])
    play(state, 0, "5S")
    play(state, 1, "5H")
    play(state, 2, "6C")
    pass_(state, 3)
    pass_(state, 0)
    pass_(state, 1)
    play(state, 2, "5C")
    assert state.data.revolution is False


def test_the_revolution_resets_with_the_next_deal():
    state = table([["9S", "9H", "9D", "9C"], ["6H", "4S"], ["JD", "4D"], ["QC", "4C"]])
    play(state, 0, "9S", "9H", "9D", "9C")
    assert state.data.revolution is True and state.round == 1
    while state.round == 1:
        seat = state.to_act[0]
        apply(state, seat, legal_actions(state, seat)[0])
    assert state.round == 2 and state.data.revolution is False


# -- the end of a round --------------------------------------------------------------------
def _finish_round(state: State) -> list[dict]:
    """Seats 0, 1, 2 go out in this order; seat 3 is last."""
    events = play(state, 0, "5S")
    events += play(state, 1, "6H")
    events += play(state, 2, "7D")
    return events


def test_first_out_is_president_the_middle_two_citizens_and_the_last_the_slave():
    state = table([["5S"], ["6H"], ["7D"], ["QC", "4C"]])
    events = _finish_round(state)
    over = of_type(events, "round_over")[0]
    assert over["order"] == [0, 1, 2, 3] and over["ranks"] == [P, C, C, S]
    assert state.rounds == [[2, 1, 1, 0]]
    assert view(state, 3)["ranks"] == [P, C, C, S]


def test_the_round_is_dealt_again_and_the_slave_gives_the_president_the_best_cards():
    state = table([["5S"], ["6H"], ["7D"], ["QC", "4C"]])
    events = _finish_round(state)
    assert state.round == 2 and state.phase == "swap"
    assert all(
        len(state.cards(f"hand:{s}")) + len(state.cards(f"swap:{s}")) == 13 for s in range(4)
    )
    swaps = of_type(events, "exchanged")
    slave_gave, president_gave = swaps[0], swaps[1]
    assert (slave_gave["seat"], slave_gave["to"]) == (3, 0)
    assert (president_gave["seat"], president_gave["to"]) == (0, 3)
    # what the slave gave is at least as strong as anything it kept, and the president's the weakest
    assert min(value(c) for c in slave_gave["cards"]) >= max(
        value(c) for c in state.cards("hand:3") if c not in president_gave["cards"]
    )
    assert max(value(c) for c in president_gave["cards"]) <= min(
        value(c) for c in state.cards("hand:0") if c not in slave_gave["cards"]
    )
    assert redact(slave_gave, 1)["cards"] == [None, None, None]
    assert redact(slave_gave, 0)["cards"] == slave_gave["cards"]
    assert sorted(state.to_act) == [1, 2] and state.deadline == {"kind": "commit", "seconds": 60.0}


def test_the_first_round_has_no_exchange_and_starts_left_of_the_dealer():
    for seed in ("a", "b", "c"):
        state = match(seed=seed)
        assert state.phase == "play" and state.round == 1
        assert state.to_act == [(state.data.dealer + 1) % 4]
        assert all(len(state.cards(f"hand:{s}")) == 13 for s in range(4))


# -- the citizens' sealed swap ---------------------------------------------------------------
def _to_swap() -> State:
    state = table([["5S"], ["6H"], ["7D"], ["QC", "4C"]])
    _finish_round(state)
    return state


def test_the_citizens_swap_is_sealed_until_both_have_chosen():
    state = _to_swap()
    cards = sorted(state.cards("hand:1"))[:3]
    events = apply(state, 1, {"type": "swap", "cards": cards})
    assert state.to_act == [2]
    for seat in (0, 2, 3, None):
        seen = view(state, seat)
        assert seen["zones"]["swap:1"]["cards"] == [None] * 3
        assert seen["committed"] == [False, True, False, False]
        assert not any(f'"{c}"' in json.dumps(seen) for c in cards)
        assert redact(events[0], seat)["cards"] == [None] * 3
    assert view(state, 1)["my_swap"] == cards
    other = sorted(state.cards("hand:2"))[-3:]
    events = apply(state, 2, {"type": "swap", "cards": other})
    assert sorted(other) == sorted(of_type(events, "swapped")[1]["cards"])
    assert set(cards) <= set(state.cards("hand:2")) and set(other) <= set(state.cards("hand:1"))
    assert state.phase == "play" and state.to_act == [0]  # the President leads
    assert state.deadline is None and len(state.cards("hand:1")) == 13


def test_the_swap_does_not_depend_on_the_order_of_the_commits():
    finals = set()
    for order in itertools.permutations((1, 2)):
        state = _to_swap()
        picks = {s: sorted(state.cards(f"hand:{s}"))[:3] for s in (1, 2)}
        for s in order:
            apply(state, s, {"type": "swap", "cards": picks[s]})
        doc = state.to_json()
        doc["moves"] = 0
        finals.add(json.dumps(doc, sort_keys=True))
    assert len(finals) == 1


def test_a_timeout_makes_a_citizen_who_has_not_chosen_give_the_lowest_cards():
    state = _to_swap()
    lowest = sorted(state.cards("hand:2"), key=lambda c: (value(c), c == "3C", c))[:3]
    apply(state, 1, {"type": "swap", "cards": state.cards("hand:1")[:3]})
    events = apply(state, None, TIMEOUT)
    forced = of_type(events, "swap_committed")
    assert forced[0]["seat"] == 2 and sorted(forced[0]["cards"]) == sorted(lowest)
    assert forced[0]["timeout"] is True
    assert state.phase == "play"


def test_a_citizen_swaps_exactly_three_of_their_own_cards():
    state = _to_swap()
    before = snapshot(state)
    mine = state.cards("hand:1")
    with pytest.raises(IllegalAction, match="exactly 3"):
        apply(state, 1, {"type": "swap", "cards": mine[:2]})
    theirs = state.cards("hand:0")[0]
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(state, 1, {"type": "swap", "cards": [*mine[:2], theirs]})
    with pytest.raises(NotYourTurn):
        apply(state, 0, {"type": "swap", "cards": state.cards("hand:0")[:3]})
    assert snapshot(state) == before
    assert len(legal_actions(state, 1)) == 286  # every 3 of 13 cards


# -- capital fall --------------------------------------------------------------------------
def test_a_president_who_does_not_go_out_first_falls_and_stops_playing():
    state = table([["5S", "KS"], ["6H"], ["7D", "AD"], ["QC", "4C"]])
    state.round, state.data.ranks = 2, [P, C, C, S]
    play(state, 0, "5S")
    events = play(state, 1, "6H")
    assert of_type(events, "capital_fall") == [{"type": "capital_fall", "seat": 0}]
    assert state.to_act == [2]
    play(state, 2, "7D")
    pass_(state, 3)
    assert state.to_act == [2]  # seat 0 is blocked; seat 2 leads after everyone passed
    events = play(state, 2, "AD")
    assert of_type(events, "round_over")[0]["order"] == [1, 2, 3, 0]
    assert state.round == 3
    assert state.data.presidents == [1]
    assert state.rounds[-1] == [0, 2, 1, 1]  # the deposed president is the slave


def test_there_is_no_capital_fall_in_the_first_round():
    state = table([["5S", "KS"], ["6H"], ["7D", "AD"], ["QC", "4C"]])
    play(state, 0, "5S")
    events = play(state, 1, "6H")
    assert not of_type(events, "capital_fall") and state.data.blocked == []
    assert state.to_act == [2]


def test_the_forced_exchange_is_worked_out_from_the_hands_as_dealt():
    strong = ["2S", "2H", "2D", "2C", "AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC", "QS"]
    weak = ["3S", "3H", "3D", "4S", "4H", "4D", "4C", "5S", "5H", "5D", "5C", "6S", "6H"]
    state = table([strong, ["7S"], ["7H"], weak])
    state.round, state.data.ranks = 2, [P, C, C, S]
    events = get_game("presidente")._exchange(state)
    slave_gave, president_gave = of_type(events, "exchanged")
    assert sorted(slave_gave["cards"]) == ["5S", "6H", "6S"]
    # the President gives back 3 of its own lowest cards, not the Esclavo's cards just received
    assert sorted(president_gave["cards"]) == ["KC", "KD", "QS"]


def test_the_president_who_goes_out_first_keeps_the_title():
    state = table([["5S"], ["6H"], ["7D"], ["QC", "4C"]])
    state.round, state.data.ranks = 2, [P, C, C, S]
    events = _finish_round(state)
    assert not of_type(events, "capital_fall")
    assert of_type(events, "round_over")[0]["ranks"] == [P, C, C, S]


# -- the match -----------------------------------------------------------------------------
def test_the_match_has_five_rounds_and_the_last_president_wins():
    state = table([["5S"], ["6H"], ["7D"], ["QC", "4C"]])
    state.round, state.data.ranks = 5, [C, P, C, S]
    state.data.presidents = [1, 1, 1, 1]
    events = play(state, 0, "5S")  # seat 0 goes out first: capital fall of seat 1
    assert of_type(events, "capital_fall")
    assert state.to_act == [2]  # the deposed president is skipped
    events = play(state, 2, "7D")
    assert state.finished and state.result["winners"] == [0]
    assert of_type(events, "round_over")[0]["order"] == [0, 2, 3, 1]
    assert of_type(events, "match_finished")[0]["president"] == 0
    assert state.rounds == [[2, 0, 1, 1]]


def test_random_match_lasts_five_rounds():
    state = match(seed="five")
    while not state.finished:
        seat = state.to_act[0] if state.to_act else None
        if seat is None or state.phase == "swap":
            apply(state, None, TIMEOUT)
            continue
        apply(state, seat, legal_actions(state, seat)[0])
    assert len(state.rounds) == 5 and len(state.data.presidents) == 5
    assert state.result["winners"] == [state.data.presidents[-1]]
    check_state(state)


# -- comodines -----------------------------------------------------------------------------
def test_comodines_has_54_cards_and_the_first_deal_gives_two_players_14():
    state = match("comodines")
    counts = sorted(len(state.cards(f"hand:{s}")) for s in range(4))
    assert counts == [13, 13, 14, 14] and state.all_cards().count("JK") == 2


def test_comodines_deals_the_slave_15_cards():
    state = table([["5S"], ["6H"], ["7D"], ["QC", "4C"]], variant="comodines")
    _finish_round(state)
    sizes = [len(state.cards(f"hand:{s}")) + len(state.cards(f"swap:{s}")) for s in range(4)]
    assert sizes == [13, 13, 13, 15]


def test_a_joker_beats_a_two_and_the_three_of_clubs_beats_a_single_joker():
    state = table([["2S", "4D"], ["JK", "4H"], ["3C", "9D"], ["QC"]], variant="comodines")
    play(state, 0, "2S")
    play(state, 1, "JK")
    assert {"type": "play", "cards": ["3C"]} in legal_actions(state, 2)
    events = play(state, 2, "3C")
    assert of_type(events, "pile_cleared")[0]["reason"] == "three_of_clubs"


def test_the_joker_stays_strongest_in_a_revolution_unless_the_option_says_weakest():
    state = table([["5S", "4D"], ["JK", "4H"], ["3C", "9D"], ["QC"]], variant="comodines")
    state.data.revolution = True
    play(state, 0, "4D")
    play(state, 1, "JK")
    with pytest.raises(IllegalAction, match="a 9 does not meet the joker"):
        play(state, 2, "9D")
    state = table(
        [["5S", "4D"], ["JK", "4H"], ["3C", "9D"], ["QC"]],
        variant="comodines", joker_in_revolution="weakest",
    )  # fmt: skip
    state.data.revolution = True
    play(state, 0, "4D")
    with pytest.raises(IllegalAction, match="a joker does not meet the 4"):
        play(state, 1, "JK")


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "play", "cards": ["KH"]}, "not in your hand"),
        ({"type": "play", "cards": []}, "same value"),
        ({"type": "play"}, "needs the field 'cards'"),
        ({"type": "swap", "cards": ["5S", "KS", "4D"]}, "not possible in phase 'play'"),
        ({"type": "bid"}, "unknown action type 'bid'"),
    ],
)
def test_bad_plays_are_refused_and_change_nothing(action, message):
    state = table([["5S", "KS", "4D"], ["6H"], ["9D"], ["QC"]])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        apply(state, 0, action)
    with pytest.raises(NotYourTurn):
        apply(state, 1, {"type": "play", "cards": ["6H"]})
    assert snapshot(state) == before


def test_presidente_is_for_four_players():
    with pytest.raises(Exception, match="4 to 4"):
        new_match("presidente", "base", 3)
