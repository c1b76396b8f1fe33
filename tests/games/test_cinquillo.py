"""Cinquillo: the deal, the 5 de oros, rows by suit, passing, chips, points, extra plays."""

from __future__ import annotations

import json

import pytest

from shared.engine import (
    BadSetup,
    IllegalAction,
    MatchFinished,
    NotYourTurn,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    redact,
    view,
)
from tests.rigging import rig

ROWS = ("row:O", "row:C", "row:E", "row:B")


def match(variant: str = "base", players: int = 2, seed: str = "cinquillo", **options) -> State:
    state, _ = new_match("cinquillo", variant, players, seed=seed, options=options or None)
    return state


def table(state: State, hands: dict[int, list[str]], rows: dict[str, list[str]], to_act: int):
    """Rig the hands and the rows (others' cards go to the stock) and give the turn to ``to_act``."""
    layout = {f"hand:{s}": cards for s, cards in hands.items()}
    layout.update({f"row:{s}": cards for s, cards in rows.items()})
    rig(state, layout)
    state.to_act = [to_act]
    check_state(state)
    return state


def play(state: State, seat: int, card: str) -> list[dict]:
    return apply(state, seat, {"type": "play", "card": card})


def pass_turn(state: State, seat: int) -> list[dict]:
    return apply(state, seat, {"type": "pass"})


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def cards_played(state: State) -> list[str]:
    return sorted(a["card"] for a in legal_actions(state, state.to_act[0]) if a["type"] == "play")


# -- the deal --------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "sizes"), [(2, [20, 20]), (4, [10, 10, 10, 10])])
def test_the_whole_deck_is_dealt_evenly_to_two_or_four_players(players, sizes):
    state = match(players=players)
    assert [len(state.cards(f"hand:{s}")) for s in range(players)] == sizes
    assert state.cards("stock") == [] and all(state.cards(r) == [] for r in ROWS)


def test_with_three_players_the_holder_of_the_5_de_oros_takes_the_spare_card():
    for seed in ("a", "b", "c", "d"):
        state, events = new_match("cinquillo", "base", 3, seed=seed)
        holder = next(s for s in range(3) if "5O" in state.cards(f"hand:{s}"))
        sizes = [len(state.cards(f"hand:{s}")) for s in range(3)]
        assert sizes[holder] == 14 and sorted(sizes) == [13, 13, 14]
        spare = of_type(events, "spare_card")
        assert len(spare) == 1 and spare[0]["seat"] == holder
        assert spare[0]["visible_to"] == [holder]
        other = (holder + 1) % 3
        assert redact(spare[0], other)["card"] is None
        assert redact(spare[0], holder)["card"] in state.cards(f"hand:{holder}")


def test_a_spare_card_that_is_the_5_de_oros_goes_to_a_seat_drawn_by_chance():
    found = []
    for i in range(400):
        state, events = new_match("cinquillo", "base", 3, seed=f"spare{i}")
        spare = of_type(events, "spare_card")[0]
        if redact(spare, spare["seat"])["card"] == "5O":
            found.append((state, spare["seat"]))
    assert found, "no seed dealt the 5 de oros as the spare card"
    for state, seat in found:
        assert "5O" in state.cards(f"hand:{seat}") and state.to_act == [seat]
        assert len(state.cards(f"hand:{seat}")) == 14


# -- the opening -----------------------------------------------------------------------------
def test_the_holder_of_the_5_de_oros_opens_with_it_as_their_whole_turn():
    state = match(players=4, seed="open")
    holder = state.to_act[0]
    assert "5O" in state.cards(f"hand:{holder}")
    assert legal_actions(state, holder) == [{"type": "play", "card": "5O"}]
    assert view(state, None)["opener"] == holder
    other = next(c for c in state.cards(f"hand:{holder}") if c != "5O")
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="The 5 of coins must open the game"):
        play(state, holder, other)
    with pytest.raises(IllegalAction, match="you may pass only when no card can be placed"):
        pass_turn(state, holder)
    assert snapshot(state) == before
    events = play(state, holder, "5O")
    assert of_type(events, "played")[0] == {
        "type": "played", "seat": holder, "card": "5O", "row": "O", "span": [5, 5]
    }  # fmt: skip
    assert state.to_act == [(holder + 1) % 4]


# -- rows ------------------------------------------------------------------------------------
def test_the_rule_texts_example_of_the_cards_that_may_follow_the_table():
    """5 de oros and 5+6 de copas on the table: 4 de oros, 6 de oros, 4 de copas, 7 de copas."""
    state = match()
    table(
        state,
        {0: ["4O", "6O", "4C", "7C", "3O", "10C", "2B"], 1: ["1E"]},
        {"O": ["5O"], "C": ["5C", "6C"]},
        to_act=0,
    )
    assert cards_played(state) == ["4C", "4O", "6O", "7C"]
    with pytest.raises(
        IllegalAction, match="The 3 of coins cannot be placed: the coins row takes the 4 or the 6"
    ):
        play(state, 0, "3O")


def test_a_5_opens_the_row_of_its_suit():
    state = match()
    table(state, {0: ["5E", "4E", "6B"], 1: ["1E"]}, {"O": ["5O"]}, to_act=0)
    assert cards_played(state) == ["5E"]
    play(state, 0, "5E")
    assert state.cards("row:E") == ["5E"]
    assert view(state, 1)["rows"] == {"O": [5, 5], "C": None, "E": [5, 5], "B": None}


def test_rows_grow_down_to_the_1_and_up_to_the_rey_and_the_sota_follows_the_7():
    state = match()
    table(
        state,
        {0: ["10B", "1B", "12B", "3E"], 1: ["1E", "2E"]},
        {"O": ["5O"], "B": ["5B", "4B", "3B", "2B", "6B", "7B"]},
        to_act=0,
    )
    assert cards_played(state) == ["10B", "1B"]
    with pytest.raises(
        IllegalAction, match="The king of clubs cannot be placed.*takes the ace or the jack"
    ):
        play(state, 0, "12B")
    play(state, 0, "10B")
    assert view(state, 0)["rows"]["B"] == [2, 10]


def test_a_row_built_down_to_the_1_grows_only_upwards():
    state = match()
    table(
        state,
        {0: ["6E", "7O"], 1: ["2B"]},
        {"O": ["5O"], "E": ["5E", "4E", "3E", "2E", "1E"]},
        to_act=0,
    )
    assert cards_played(state) == ["6E"]
    assert view(state, 1)["rows"]["E"] == [1, 5]


# -- passing ---------------------------------------------------------------------------------
def test_a_player_may_pass_only_when_no_card_can_be_placed():
    state = match()
    table(state, {0: ["4O", "12C"], 1: ["12B", "1C"]}, {"O": ["5O"]}, to_act=0)
    before = snapshot(state)
    with pytest.raises(
        IllegalAction,
        match="you may pass only when no card can be placed; you can place the 4 of coins",
    ):
        pass_turn(state, 0)
    assert snapshot(state) == before
    assert {"type": "pass"} not in legal_actions(state, 0)
    play(state, 0, "4O")
    assert legal_actions(state, 1) == [{"type": "pass"}]
    events = pass_turn(state, 1)
    assert events == [{"type": "passed", "seat": 1, "paid": 0, "pot": 0, "extra_play": False}]
    assert state.to_act == [0]


def test_play_goes_to_the_left_clockwise_by_default_and_the_direction_is_an_option():
    state = match(players=4, seed="dir")
    holder = state.to_act[0]
    play(state, holder, "5O")
    assert state.to_act == [(holder + 1) % 4]
    state = match(players=4, seed="dir", direction="counterclockwise")
    play(state, holder, "5O")
    assert state.to_act == [(holder - 1) % 4]


# -- the end ---------------------------------------------------------------------------------
def test_the_first_player_without_cards_wins():
    state = match()
    table(state, {0: ["4O"], 1: ["12B", "1C", "3E"]}, {"O": ["5O"]}, to_act=0)
    events = play(state, 0, "4O")
    assert state.finished
    assert state.result == {"winners": [0], "scores": [3, 0], "rounds": [[3, 0]]}
    won = of_type(events, "round_won")[0]
    assert won["seat"] == 0 and won["points"] == 3 and won["cards_left"] == [0, 3]
    assert of_type(events, "match_finished")
    with pytest.raises(MatchFinished):
        play(state, 1, "12B")


def test_a_random_match_of_four_players_ends_with_one_winner_and_every_card_conserved():
    state = match(players=4, seed="whole")
    while not state.finished:
        seat = state.to_act[0]
        apply(state, seat, legal_actions(state, seat)[0])
        check_state(state)
    assert state.result is not None and len(state.result["winners"]) == 1
    winner = state.result["winners"][0]
    assert state.cards(f"hand:{winner}") == []


# -- con-pago --------------------------------------------------------------------------------
def test_con_pago_gives_ten_chips_and_every_pass_pays_one_to_the_pot():
    state = match("con-pago")
    assert view(state, None)["chips"] == [10, 10] and state.scores == [10, 10]
    table(state, {0: ["4O", "3O"], 1: ["12B", "1C"]}, {"O": ["5O"]}, to_act=0)
    play(state, 0, "4O")
    events = pass_turn(state, 1)
    assert events[0] == {"type": "passed", "seat": 1, "paid": 1, "pot": 1, "extra_play": False}
    assert view(state, 0)["chips"] == [10, 9] and view(state, 0)["pot"] == 1


def test_con_pago_the_winner_takes_every_chip_on_the_table():
    state = match("con-pago")
    table(state, {0: ["4O", "3O", "2O"], 1: ["12B", "1C"]}, {"O": ["5O"]}, to_act=0)
    play(state, 0, "4O")
    pass_turn(state, 1)
    play(state, 0, "3O")
    pass_turn(state, 1)
    events = play(state, 0, "2O")
    assert of_type(events, "round_won")[0]["pot"] == 2
    assert state.result == {"winners": [0], "scores": [12, 8], "rounds": [[2, -2]]}
    assert view(state, 1)["pot"] == 0


def test_a_broke_player_passes_without_paying_by_default():
    state = match("con-pago")
    table(state, {0: ["4O", "3O"], 1: ["12B", "1C"]}, {"O": ["5O"]}, to_act=0)
    state.data.chips = [10, 0]
    play(state, 0, "4O")
    events = pass_turn(state, 1)
    assert events[0]["paid"] == 0 and state.data.chips == [10, 0] and not state.finished
    assert state.to_act == [0]


def broke_players_eliminated() -> tuple[State, list[dict]]:
    """Con-pago with broke players out: seat 1 is eliminated, then seat 2, and seat 0 wins."""
    state = match("con-pago", players=3, broke="eliminated")
    table(
        state,
        {0: ["4O", "3O", "2O"], 1: ["12B", "1C"], 2: ["11B", "1B"]},
        {"O": ["5O"]},
        to_act=0,
    )
    state.data.chips = [10, 0, 1]
    events = play(state, 0, "4O")
    events += pass_turn(state, 1)
    events += pass_turn(state, 2)  # pays its last chip
    events += play(state, 0, "3O")
    events += pass_turn(state, 2)  # broke now: out, and seat 0 is the last one standing
    return state, events


#: The events random matches do not meet (no variant eliminates broke players).
EVENT_SCENARIOS = {"eliminated": lambda: broke_players_eliminated()[1]}


def test_a_broke_player_who_must_pass_may_be_eliminated_instead():
    state, events = broke_players_eliminated()
    assert of_type(events, "eliminated") == [
        {"type": "eliminated", "seat": 1},
        {"type": "eliminated", "seat": 2},
    ]
    assert view(state, 0)["eliminated"] == [1, 2] and of_type(events, "passed") == [
        {"type": "passed", "seat": 2, "paid": 1, "pot": 1, "extra_play": False}
    ]
    assert state.finished and state.result is not None and state.result["winners"] == [0]
    assert of_type(events, "round_won")[0]["last_standing"] is True


def test_chips_and_a_points_target_together_are_a_bad_setup():
    with pytest.raises(BadSetup, match="do not combine"):
        match("con-pago", target=20)


# -- con-puntaje -----------------------------------------------------------------------------
def test_con_puntaje_the_winner_scores_a_point_per_card_left_in_the_other_hands():
    state = match("con-puntaje", players=3)
    table(
        state,
        {0: ["4O"], 1: ["12B", "1C", "3E"], 2: ["11B", "1B"]},
        {"O": ["5O"]},
        to_act=0,
    )
    events = play(state, 0, "4O")
    assert of_type(events, "round_won")[0]["points"] == 5
    assert state.scores == [5, 0, 0] and state.rounds == [[5, 0, 0]]
    assert not state.finished and state.round == 2


def test_con_puntaje_deals_a_new_round_opened_by_the_holder_of_the_5_de_oros():
    state = match("con-puntaje", players=3)
    table(state, {0: ["4O"], 1: ["12B"], 2: ["11B"]}, {"O": ["5O"]}, to_act=0)
    events = play(state, 0, "4O")
    assert of_type(events, "round_started") == [
        {"type": "round_started", "round": 2, "opener": state.to_act[0]}
    ]
    holder = state.to_act[0]
    assert "5O" in state.cards(f"hand:{holder}")
    assert sorted(len(state.cards(f"hand:{s}")) for s in range(3)) == [13, 13, 14]
    assert all(state.cards(r) == [] for r in ROWS)
    assert legal_actions(state, holder) == [{"type": "play", "card": "5O"}]
    check_state(state)


def test_con_puntaje_ends_when_a_player_reaches_twenty_points():
    state = match("con-puntaje")
    state.scores = [18, 7]
    state.rounds = [[18, 0], [0, 7]]
    table(state, {0: ["4O"], 1: ["12B", "1C"]}, {"O": ["5O"]}, to_act=0)
    play(state, 0, "4O")
    assert state.finished and state.scores == [20, 7]
    assert state.result is not None and state.result["winners"] == [0]


# -- doble-turno -----------------------------------------------------------------------------
def test_doble_turno_a_1_or_a_rey_gives_another_play():
    state = match("doble-turno")
    table(
        state,
        {0: ["1O", "12C", "6O", "3E"], 1: ["2B", "3B"]},
        {"O": ["5O", "4O", "3O", "2O"], "C": ["5C", "6C", "7C", "10C", "11C"]},
        to_act=0,
    )
    events = play(state, 0, "1O")
    assert of_type(events, "extra_play") == [{"type": "extra_play", "seat": 0}]
    assert state.to_act == [0] and view(state, 1)["extra_play"] is True
    events = play(state, 0, "12C")  # chained: a Rey on the extra play gives one more
    assert of_type(events, "extra_play") and state.to_act == [0]
    play(state, 0, "6O")
    assert state.to_act == [1] and view(state, 1)["extra_play"] is False


def test_doble_turno_without_a_card_to_place_the_turn_ends_and_nothing_is_paid():
    state = match("doble-turno", chips=10)
    table(
        state,
        {0: ["1O", "3E"], 1: ["2B", "3B"]},
        {"O": ["5O", "4O", "3O", "2O"]},
        to_act=0,
    )
    events = play(state, 0, "1O")
    assert of_type(events, "extra_play_lost") == [{"type": "extra_play_lost", "seat": 0}]
    assert state.to_act == [1] and state.data.chips == [10, 10] and state.data.pot == 0


def test_doble_turno_the_extra_play_must_be_taken_unless_the_option_allows_declining():
    layout = {0: ["1O", "6O", "3E"], 1: ["2B", "3B"]}
    rows = {"O": ["5O", "4O", "3O", "2O"]}
    state = table(match("doble-turno"), layout, rows, to_act=0)
    play(state, 0, "1O")
    with pytest.raises(IllegalAction, match="you must take your extra play"):
        pass_turn(state, 0)
    state = table(match("doble-turno", extra_play_optional=True), layout, rows, to_act=0)
    play(state, 0, "1O")
    events = pass_turn(state, 0)
    assert events == [{"type": "passed", "seat": 0, "paid": 0, "pot": 0, "extra_play": True}]
    assert state.to_act == [1]


def test_without_doble_turno_a_1_ends_the_turn():
    state = match()
    table(state, {0: ["1O", "6O"], 1: ["2B"]}, {"O": ["5O", "4O", "3O", "2O"]}, to_act=0)
    events = play(state, 0, "1O")
    assert not of_type(events, "extra_play") and state.to_act == [1]


# -- views and bad input ---------------------------------------------------------------------
def test_nobody_sees_another_players_hand():
    state = match(players=3)
    for seat in (0, 1, 2, None):
        zones = view(state, seat)["zones"]
        for other in range(3):
            shown = zones[f"hand:{other}"]["cards"]
            assert (None not in shown) if other == seat else shown == [None] * len(shown)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "play", "card": "12B"}, "card 12B is not in your hand"),
        ({"type": "play"}, "play needs the field 'card'"),
        ({"type": "play", "card": "4O", "row": "O"}, "play has no field 'row'"),
        ({"type": "play", "card": "8O"}, "card 8O is not in your hand"),
        ({"type": "pass", "card": "4O"}, "pass has no field 'card'"),
        ({"type": "draw"}, "unknown action type 'draw'"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(action, message):
    state = match()
    table(state, {0: ["4O", "3O"], 1: ["12B", "1C"]}, {"O": ["5O"]}, to_act=0)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        apply(state, 0, action)
    assert snapshot(state) == before


def test_a_seat_out_of_turn_is_refused():
    state = match()
    table(state, {0: ["4O", "3O"], 1: ["6O", "1C"]}, {"O": ["5O"]}, to_act=0)
    with pytest.raises(NotYourTurn):
        play(state, 1, "6O")
