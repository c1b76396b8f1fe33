"""Siete y Media: card values, busts, the automated house, ties, chips and raises, discards,
and the rules of version 1 for the matches played under them."""

from __future__ import annotations

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
from shared.games.siete_y_media import halves, points, total
from tests.rigging import rig

HIT, STAND, KEEP = {"type": "hit"}, {"type": "stand"}, {"type": "keep"}


def match(
    variant: str = "base",
    players: int = 2,
    seed: str = "siete",
    rules_version: int | None = None,
    **options,
) -> State:
    state, _ = new_match(
        "siete-y-media", variant, players, seed=seed, options=options or None,
        rules_version=rules_version,
    )  # fmt: skip
    return state


def table(
    state: State,
    hands: dict[int, str],
    house: list[str],
    stock: list[str],
    ups: dict[int, list[str]] | None = None,
    hole: list[str] | None = None,
) -> State:
    """Rig each seat's face-down card, the house's cards and the stock (drawn from the end);
    every other card goes to the discard pile. Seat 0 plays first."""
    layout = {f"hand:{s}": [c] for s, c in hands.items()}
    layout.update({f"up:{s}": cards for s, cards in (ups or {}).items()})
    layout.update({"house": house, "stock": stock, "house:hole": hole or []})
    rig(state, layout, spill="discard")
    state.data.first = 0
    state.to_act = [0]
    check_state(state)
    return state


def act(state: State, seat: int, *actions: dict) -> list[dict]:
    events: list[dict] = []
    for action in actions:
        events += apply(state, seat, action)
    return events


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def to_the_score(events: list[dict]) -> list[dict]:
    """The events up to the round's score, without the next round's deal."""
    return events[: events.index(of_type(events, "round_scored")[0]) + 1]


# -- values ------------------------------------------------------------------------------------
def test_numbers_are_worth_their_face_and_figures_half_a_point():
    assert [halves(c) for c in ("1O", "4C", "7E", "10B", "11O", "12C")] == [2, 8, 14, 1, 1, 1]
    assert points(total(["7O", "12C"])) == 7.5  # the text's 7 and a figure
    assert points(total(["3O", "4C"])) == 7 and points(total(["10O", "11O"])) == 1


def test_seven_and_a_half_from_any_cards_is_siete_y_media():
    state = table(match("con-apuestas"), {0: "3O", 1: "2C"}, ["4E"], ["10E", "4B"])
    act(state, 0, HIT, HIT, STAND)  # 3 + 4 + ½
    act(state, 1, STAND)  # 2: loses to the house's 4
    act(state, 0, KEEP)
    events = act(state, 1, KEEP)
    assert of_type(events, "round_scored")[0]["outcomes"] == ["won-siete-y-media", "lost"]


# -- the deal ----------------------------------------------------------------------------------
def test_each_player_gets_one_card_face_down_and_the_house_one_face_up():
    state, events = new_match("siete-y-media", "base", 3, seed="deal")
    for s in range(3):
        assert len(state.cards(f"hand:{s}")) == 1 and state.cards(f"up:{s}") == []
    assert len(state.cards("house")) == 1 and state.cards("house:hole") == []
    card = state.cards("house")[0]
    for seat in (0, 1, 2, None):
        zones = view(state, seat)["zones"]
        assert zones["house"]["cards"] == [card]
        for s in range(3):
            shown = zones[f"hand:{s}"]["cards"]
            assert shown == (state.cards(f"hand:{s}") if s == seat else [None])
    dealt = of_type(events, "dealt")
    assert [e["visible_to"] for e in dealt] == [[e["seat"]] for e in dealt]
    assert of_type(events, "house_card")[0]["card"] == card
    assert view(state, None)["house_total"] == points(halves(card))


def test_later_cards_are_dealt_face_up():
    state = table(match(), {0: "1O", 1: "2C"}, ["4E"], ["1B", "5B"])
    events = act(state, 0, HIT)
    assert events == [{"type": "hit", "seat": 0, "card": "5B"}]
    assert view(state, 1)["zones"]["up:0"]["cards"] == ["5B"]
    assert view(state, 1)["showing"] == [5, 0] and view(state, 0)["my_total"] == 6
    assert view(state, 1)["my_total"] == 2


# -- the players' turns ------------------------------------------------------------------------
def test_a_bust_ends_the_players_turn_at_once():
    state = table(match(players=3), {0: "7O", 1: "2C", 2: "3C"}, ["4E"], ["1B", "1E"])
    events = act(state, 0, HIT)
    assert of_type(events, "busted") == [{"type": "busted", "seat": 0}]
    assert state.to_act == [1] and view(state, 2)["status"] == ["busted", "in", "in"]
    with pytest.raises(NotYourTurn):
        act(state, 0, STAND)


def test_a_player_may_take_cards_until_they_stand():
    state = table(match(), {0: "1O", 1: "2C"}, ["4E"], ["5E", "10B", "11B", "12B"])
    act(state, 0, HIT, HIT, HIT)
    assert state.to_act == [0] and view(state, 0)["my_total"] == 2.5
    act(state, 0, STAND)
    assert state.to_act == [1] and view(state, 0)["status"] == ["stood", "in"]


def test_the_stock_running_out_leaves_only_standing():
    state = table(match(), {0: "1O", 1: "2C"}, ["4E"], [])
    assert legal_actions(state, 0) == [STAND]
    with pytest.raises(IllegalAction, match="the stock is empty"):
        act(state, 0, HIT)


# -- the house ---------------------------------------------------------------------------------
def test_the_house_plays_by_itself_once_the_last_player_is_done():
    state = table(match(), {0: "6O", 1: "7C"}, ["2E"], ["3B", "1B"])
    act(state, 0, STAND)
    events = act(state, 1, STAND)
    assert [e["card"] for e in of_type(events, "house_card")] == ["1B", "3B"]  # 2, 3, then 6
    assert of_type(events, "house_stood") == [{"type": "house_stood", "total": 6}]
    assert state.finished and state.cards("house") == ["2E", "1B", "3B"]


def test_the_house_draws_below_4_and_stands_at_4():
    state = table(match(), {0: "6O", 1: "5C"}, ["3E"], ["7B", "1B"])
    events = act(state, 0, STAND) + act(state, 1, STAND)
    assert of_type(events, "house_stood") == [{"type": "house_stood", "total": 4}]
    assert state.cards("house") == ["3E", "1B"] and state.cards("stock") == ["7B"]


def test_the_house_goes_over_seven_and_a_half_and_every_player_not_bust_wins():
    state = table(match(players=3), {0: "6O", 1: "7C", 2: "1E"}, ["2C"], ["5E", "10C", "1B", "7O"])
    act(state, 0, STAND)
    act(state, 1, HIT)  # 7 + 7: bust
    events = act(state, 2, STAND)
    assert of_type(events, "house_busted") == [{"type": "house_busted", "total": 8.5}]
    assert of_type(events, "round_scored")[0]["outcomes"] == ["won", "lost", "won"]
    assert state.result is not None and state.result["winners"] == [0, 2]


def test_a_tie_goes_to_the_house():
    state = table(match(players=3), {0: "5O", 1: "6C", 2: "1E"}, ["5E"], ["12B", "2B", "1B", "11C"])
    act(state, 0, HIT, STAND)  # 5 + ½
    act(state, 1, STAND)
    events = act(state, 2, HIT, HIT, STAND)  # 1 + 1 + 2 = 4; the house: 5 + ½
    assert of_type(events, "house_stood") == [{"type": "house_stood", "total": 5.5}]
    assert of_type(events, "round_scored")[0]["outcomes"] == ["lost", "won", "lost"]
    assert state.result is not None and state.result["winners"] == [1]


def test_every_hand_is_shown_when_the_round_is_scored():
    state = table(match(), {0: "6O", 1: "5C"}, ["4E"], ["3B"])
    events = act(state, 0, STAND) + act(state, 1, STAND)
    shown = of_type(events, "hand_shown")
    assert [(e["seat"], e["cards"], e["total"]) for e in shown] == [(0, ["6O"], 6), (1, ["5C"], 5)]
    assert "visible_to" not in shown[0]
    assert view(state, 1)["zones"]["up:0"]["cards"] == ["6O"]


def test_the_houses_face_down_card_stays_hidden_until_the_house_plays():
    state, events = new_match(
        "siete-y-media", "base", 2, seed="hole", options={"house_hole_card": True}
    )
    assert of_type(events, "house_card_face_down") == [{"type": "house_card_face_down"}]
    hole = state.cards("house:hole")[0]
    assert f'"{hole}"' not in json.dumps([redact(e, s) for e in events for s in (0, 1, None)])
    for seat in (0, 1, None):
        seen = view(state, seat)
        assert seen["zones"]["house:hole"] == {"owner": None, "count": 1, "cards": [None]}
    table(state, {0: "6O", 1: "7C"}, ["2E"], ["3B"], hole=["1B"])
    for seat in (0, 1, None):
        seen = view(state, seat)
        assert seen["house_total"] == 2 and '"1B"' not in json.dumps(seen)
    events = act(state, 0, STAND) + act(state, 1, STAND)
    assert of_type(events, "house_revealed") == [
        {"type": "house_revealed", "card": "1B", "total": 3}
    ]
    assert [e["card"] for e in of_type(events, "house_card")] == ["3B"]
    assert of_type(events, "house_stood")[0]["total"] == 6


def test_the_houses_play_replays_from_the_seed():
    def run() -> list:
        state = match(players=3, seed="replay")
        log = []
        while not state.finished:
            seat = state.to_act[0]
            action = STAND if len(state.cards(f"up:{seat}")) else HIT
            log.append(apply(state, seat, action))
        return log

    assert run() == run()


@pytest.mark.parametrize("variant", ["base", "con-apuestas", "con-descarte"])
def test_the_house_always_turns_a_second_card(variant):
    """Two players stand on 6 and 6, the house shows a 7 and the stock's next card is a 3: the
    house turns it, reaches 10 and is out, so both players win."""
    state = table(match(variant), {0: "6O", 1: "6C"}, ["7E"], ["1B", "3B"])
    events = act(state, 0, STAND) + act(state, 1, STAND)
    while not of_type(events, "round_scored"):  # the variants' raise or discard phase
        events += act(state, state.to_act[0], KEEP)
    events = to_the_score(events)
    assert [e["card"] for e in of_type(events, "house_card")] == ["3B"]
    assert of_type(events, "house_busted") == [{"type": "house_busted", "total": 10}]
    assert of_type(events, "round_scored")[0]["outcomes"] == ["won", "won"]
    if variant != "con-apuestas":
        assert state.result is not None and state.result["winners"] == [0, 1]


def test_the_house_turns_a_second_card_also_when_its_first_is_worth_4():
    state = table(match(), {0: "5O", 1: "3C"}, ["4E"], ["7B", "2B"])
    events = act(state, 0, STAND) + act(state, 1, STAND)
    assert [e["card"] for e in of_type(events, "house_card")] == ["2B"]
    assert of_type(events, "house_stood") == [{"type": "house_stood", "total": 6}]
    assert state.result is not None and state.result["winners"] == []


def house_with_a_face_down_card() -> list[dict]:
    """A match dealt with the house's hole card, played to the house's reveal."""
    state, events = new_match(
        "siete-y-media", "base", 2, seed="hole", options={"house_hole_card": True}
    )
    table(state, {0: "6O", 1: "7C"}, ["2E"], ["3B"], hole=["1B"])
    return events + act(state, 0, STAND) + act(state, 1, STAND)


#: The events random matches do not meet (no variant deals the house a face-down card).
EVENT_SCENARIOS = {
    "house_card_face_down": house_with_a_face_down_card,
    "house_revealed": house_with_a_face_down_card,
}


def test_the_houses_face_down_card_is_its_second_card():
    state = match(house_hole_card=True)
    table(state, {0: "6O", 1: "6C"}, ["7E"], ["3B"], hole=["11B"])
    events = act(state, 0, STAND) + act(state, 1, STAND)
    assert of_type(events, "house_revealed") == [
        {"type": "house_revealed", "card": "11B", "total": 7.5}
    ]
    assert of_type(to_the_score(events), "house_card") == [] and state.cards("stock") == ["3B"]


def test_with_an_empty_stock_the_house_stands_on_its_first_card():
    state = table(match(), {0: "6O", 1: "5C"}, ["4E"], ["1B", "2B"])
    act(state, 0, HIT)  # 6 + 2
    events = act(state, 1, HIT, STAND)  # 5 + 1
    assert of_type(events, "house_card") == []
    assert of_type(events, "round_scored")[0]["outcomes"] == ["lost", "won"]


# -- the match ---------------------------------------------------------------------------------
def test_the_base_game_is_one_round():
    state = table(match(), {0: "6O", 1: "5C"}, ["7E"], ["10B"])
    assert state.options["until_a_winner"] is False and state.options["rounds"] == 1
    events = act(state, 0, STAND) + act(state, 1, STAND)  # the house: 7 + ½ beats both
    assert of_type(events, "round_scored")[0]["outcomes"] == ["lost", "lost"]
    assert state.finished and state.round == 1 and state.rounds == [[0, 0]]
    assert of_type(events, "round_started") == []


def test_a_match_the_house_wins_against_every_player_has_no_winner():
    state = table(match(players=3), {0: "6O", 1: "5C", 2: "7E"}, ["7O"], ["10B", "1C"])
    act(state, 0, STAND)
    act(state, 1, STAND)
    events = act(state, 2, HIT)  # 7 + 1: bust
    assert of_type(events, "house_stood") == [{"type": "house_stood", "total": 7.5}]
    expected = {"winners": [], "scores": [0, 0, 0], "rounds": [[0, 0, 0]], "reason": "house_won"}
    assert state.result == expected
    finished = of_type(events, "match_finished")
    assert finished == [{"type": "match_finished", "reason": "house_won", "result": expected}]
    assert view(state, None)["result"] == expected


def test_with_until_a_winner_the_house_winning_every_round_to_the_last_has_no_winner():
    state = table(match(until_a_winner=True, max_rounds=2), {0: "6O", 1: "5C"}, ["7E"], ["10B"])
    act(state, 0, STAND)
    act(state, 1, STAND)
    assert not state.finished and state.round == 2
    table(state, {0: "6O", 1: "5C"}, ["7E"], ["10B"])
    act(state, 0, STAND)
    act(state, 1, STAND)
    assert state.finished and state.result is not None
    assert state.result["winners"] == [] and state.result["reason"] == "house_won"
    assert state.result["rounds"] == [[0, 0], [0, 0]]


def test_con_apuestas_the_house_taking_every_chip_has_no_winner():
    state = table(match("con-apuestas"), {0: "6O", 1: "5C"}, ["7E"], ["10B"])
    state.data.chips = [0, 0]  # the last chip of each is the ante staked
    state.scores = [1, 1]
    act(state, 0, STAND)
    act(state, 1, STAND)  # nobody has a chip to raise; the house: 7 + ½ beats both
    assert state.finished and state.result is not None
    assert state.result["winners"] == [] and state.result["reason"] == "house_won"
    assert state.scores == [0, 0] and state.rounds == [[-1, -1]]


def test_with_until_a_winner_another_round_is_dealt_while_the_house_has_beaten_everyone():
    state = table(match(until_a_winner=True), {0: "6O", 1: "5C"}, ["7E"], ["10B"])
    events = act(state, 0, STAND) + act(state, 1, STAND)
    assert of_type(events, "round_scored")[0]["outcomes"] == ["lost", "lost"]
    assert not state.finished and state.round == 2
    assert state.rounds == [[0, 0]]
    assert state.data.first == 1  # the next round starts one seat to the left
    assert of_type(events, "round_started")[0] == {"type": "round_started", "round": 2, "first": 1}
    assert len(state.cards("hand:0")) == 1 and len(state.cards("house")) == 1
    check_state(state)


def test_the_match_lasts_the_rounds_asked_for():
    state = match(rounds=3, seed="three")
    while not state.finished:
        act(state, state.to_act[0], STAND)
    assert len(state.rounds) == 3 and state.result is not None
    assert max(state.scores) > 0  # this seed: somebody beat the house once
    assert state.result["winners"] == [s for s in (0, 1) if state.scores[s] == max(state.scores)]


# -- rules version 1 ---------------------------------------------------------------------------
def test_a_match_of_rules_version_1_still_plays_the_old_way():
    """Version 1: the house stood on a first card of 4 or more, rounds were dealt again while it
    had beaten everyone, and a match it won shared the win among the players."""
    state = match(rules_version=1)
    assert state.options["until_a_winner"] is True
    assert "house_second_card" not in state.options and "house_can_win" not in state.options
    table(state, {0: "6O", 1: "6C"}, ["7E"], ["1B", "3B"])
    events = act(state, 0, STAND) + act(state, 1, STAND)
    assert of_type(to_the_score(events), "house_card") == []  # it stands on its 7
    assert of_type(events, "house_stood") == [{"type": "house_stood", "total": 7}]
    assert of_type(events, "round_scored")[0]["outcomes"] == ["lost", "lost"]
    assert not state.finished and state.round == 2  # dealt again

    once = table(match(rules_version=1, until_a_winner=False), {0: "6O", 1: "5C"}, ["7E"], ["3B"])
    act(once, 0, STAND)
    act(once, 1, STAND)
    assert once.finished and once.result is not None
    assert once.result == {"winners": [0, 1], "scores": [0, 0], "rounds": [[0, 0]]}


# -- con-apuestas ------------------------------------------------------------------------------
def test_con_apuestas_every_player_pays_an_ante_of_one_chip():
    state = match("con-apuestas")
    assert state.data.chips == [9, 9] and state.data.stakes == [1, 1]
    assert view(state, None)["chips"] == [9, 9] and view(state, None)["stakes"] == [1, 1]
    assert state.scores == [10, 10]  # a score counts the chips staked too


def test_con_apuestas_players_may_raise_once_after_everyone_stands():
    state = table(
        match("con-apuestas", players=3), {0: "6O", 1: "7C", 2: "5E"}, ["2E"], ["7B", "1B", "4C"]
    )
    act(state, 0, STAND)
    act(state, 1, HIT)  # bust: no raise for seat 1
    events = act(state, 2, STAND)
    assert state.phase == "raise" and state.to_act == [0]
    assert of_type(events, "phase_started") == [{"type": "phase_started", "phase": "raise"}]
    assert legal_actions(state, 0) == [
        {"type": "raise", "chips": 1}, {"type": "raise", "chips": 2}, {"type": "raise", "chips": 3}, KEEP
    ]  # fmt: skip
    with pytest.raises(IllegalAction, match="a raise is at most 3 chips"):
        act(state, 0, {"type": "raise", "chips": 4})
    act(state, 0, {"type": "raise", "chips": 3})
    assert state.to_act == [2] and state.data.stakes == [4, 1, 1]
    with pytest.raises(NotYourTurn):  # one raise only
        act(state, 0, {"type": "raise", "chips": 1})
    events = act(state, 2, KEEP)  # the house: 2 + 1 + 7 = 10, bust
    assert of_type(events, "house_busted")
    assert of_type(events, "round_scored")[0]["points"] == [4, -1, 1]
    assert state.rounds == [[4, -1, 1]]
    assert state.scores == [14, 9, 11]  # 10 + the round's line (the next ante is staked)


def test_con_apuestas_a_win_pays_one_to_one_and_siete_y_media_three_to_one():
    state = table(match("con-apuestas"), {0: "7O", 1: "4C"}, ["5E"], ["12B", "10C"])
    act(state, 0, HIT, STAND)  # 7 + ½
    act(state, 1, HIT, STAND)  # 4 + ½: loses to 5
    act(state, 0, {"type": "raise", "chips": 2})
    events = act(state, 1, {"type": "raise", "chips": 1})
    assert of_type(events, "house_stood")[0]["total"] == 5
    assert of_type(events, "round_scored")[0]["points"] == [9, -2]  # 3 staked x 3; 2 lost
    assert state.scores == [19, 8]


def test_con_apuestas_the_raise_is_limited_by_the_chips_left():
    state = table(match("con-apuestas"), {0: "6O", 1: "5C"}, ["2E"], ["7B", "1B"])
    state.data.chips = [2, 9]
    act(state, 0, STAND)
    act(state, 1, STAND)
    assert [a["chips"] for a in legal_actions(state, 0) if a["type"] == "raise"] == [1, 2]
    with pytest.raises(IllegalAction, match="you have only 2 chips left"):
        act(state, 0, {"type": "raise", "chips": 3})


def test_con_apuestas_lasts_five_rounds_and_the_most_chips_wins():
    state = match("con-apuestas", seed="five")
    while not state.finished:
        seat = state.to_act[0]
        act(state, seat, STAND if state.phase == "play" else KEEP)
    assert len(state.rounds) == 5  # nobody can lose 10 chips in 5 rounds without raising
    assert state.result is not None
    assert state.result["winners"] == [s for s in (0, 1) if state.scores[s] == max(state.scores)]


def test_con_apuestas_a_player_without_chips_sits_out_and_the_only_one_left_wins():
    state = table(match("con-apuestas", players=3), {0: "6O", 1: "7C", 2: "5E"}, ["7E"], ["10B"])
    state.data.chips = [0, 5, 0]
    act(state, 0, STAND)
    act(state, 1, STAND)
    act(state, 2, STAND)
    assert state.phase == "raise" and state.to_act == [1]  # seats 0 and 2 have no chips to raise
    act(state, 1, KEEP)  # the house: 7 + ½ beats everyone
    assert state.finished and state.result is not None
    assert state.result["winners"] == [1] and state.scores == [0, 5, 0]


def test_con_apuestas_broke_players_are_not_dealt_in():
    state = table(match("con-apuestas", players=3), {0: "6O", 1: "7C", 2: "5E"}, ["7E"], ["10B"])
    state.data.chips = [0, 5, 4]
    act(state, 0, STAND)
    act(state, 1, STAND)
    act(state, 2, STAND)
    act(state, 1, KEEP)
    act(state, 2, KEEP)
    assert state.round == 2 and view(state, None)["status"][0] == "out"
    assert state.cards("hand:0") == [] and state.to_act[0] in (1, 2)
    assert view(state, 0)["my_total"] is None


# -- con-descarte ------------------------------------------------------------------------------
def test_con_descarte_allows_at_most_three_extra_cards():
    state = table(match("con-descarte"), {0: "1O", 1: "2C"}, ["4E"], ["5E", "10B", "11B", "12B"])
    act(state, 0, HIT, HIT, HIT)
    assert legal_actions(state, 0) == [STAND]
    with pytest.raises(IllegalAction, match="at most 3 cards after your first one"):
        act(state, 0, HIT)


def test_con_descarte_one_card_may_be_discarded_before_the_house_plays_and_repair_a_bust():
    state = table(match("con-descarte"), {0: "6O", 1: "2C"}, ["4E"], ["11B", "5B"])
    events = act(state, 0, HIT)  # 6 + 5: bust, the turn ends
    assert of_type(events, "busted") and state.to_act == [1]
    events = act(state, 1, STAND)
    assert state.phase == "discard" and state.to_act == [0]
    assert of_type(events, "phase_started") == [{"type": "phase_started", "phase": "discard"}]
    assert sorted(a.get("card", "") for a in legal_actions(state, 0)) == ["", "5B", "6O"]
    events = act(state, 0, {"type": "discard", "card": "6O"})  # the face-down card, now face up
    assert events[0] == {"type": "discarded", "seat": 0, "card": "6O", "face_down_card": True}
    assert view(state, 1)["zones"]["discard"]["cards"][-1] == "6O"
    assert state.to_act == [1]
    assert legal_actions(state, 1) == [KEEP]  # one card only: it must be kept
    with pytest.raises(IllegalAction, match="you have only one card"):
        act(state, 1, {"type": "discard", "card": "2C"})
    events = act(state, 1, KEEP)  # the house: 4 + ½, stands
    assert of_type(events, "round_scored")[0]["outcomes"] == ["won", "lost"]


def test_without_descarte_there_is_no_discard_phase():
    state = table(match(), {0: "6O", 1: "2C"}, ["4E"], ["3B", "1B"])
    act(state, 0, HIT, STAND)
    act(state, 1, STAND)
    assert state.finished


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "hit", "card": "1O"}, "hit has no field 'card'"),
        (
            {"type": "raise", "chips": 1},
            "raise is not possible in phase 'play'; possible now: hit, stand",
        ),
        ({"type": "discard", "card": "6O"}, "discard is not possible in phase 'play'"),
        ({"type": "double"}, "unknown action type 'double'"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(action, message):
    state = table(match("con-apuestas"), {0: "6O", 1: "2C"}, ["4E"], ["3B", "1B"])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        apply(state, 0, action)
    assert snapshot(state) == before


def test_bad_raises_are_refused_with_a_clear_message():
    state = table(match("con-apuestas"), {0: "6O", 1: "2C"}, ["4E"], ["3B", "1B"])
    act(state, 0, STAND)
    act(state, 1, STAND)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="chips must be at least 1"):
        act(state, 0, {"type": "raise", "chips": 0})
    with pytest.raises(IllegalAction, match="chips must be an integer"):
        act(state, 0, {"type": "raise", "chips": "2"})
    assert snapshot(state) == before


def test_no_view_changes_when_the_houses_face_down_card_is_swapped_with_a_stock_card():
    state = match(players=3, seed="swap", house_hole_card=True)
    while not state.finished and state.round == 1:
        other = state.clone()
        hole, stock = other.zones["house:hole"].cards, other.zones["stock"].cards
        hole[0], stock[0] = stock[0], hole[0]
        for seat in (0, 1, 2, None):
            assert view(other, seat) == view(state, seat)
        seat = state.to_act[0]
        act(state, seat, HIT if not state.cards(f"up:{seat}") else STAND)
