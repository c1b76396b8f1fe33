"""La Granja: reveals, face-offs decided by arrival order, penalties, renewing, the win, variants.

Races are scripted: the order of the ``apply`` calls is the server's arrival order, and
``{"type": "timeout"}`` from seat None is the server's timer closing a window.
"""

from __future__ import annotations

import json

import pytest

from shared.engine import (
    BadSetup,
    IllegalAction,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    view,
)
from tests.rigging import rig

REVEAL = {"type": "reveal"}
TIMEOUT = {"type": "timeout"}


def noise(animal: str) -> dict:
    return {"type": "noise", "animal": animal}


def grab(animal: str) -> dict:
    return {"type": "grab", "animal": animal}


def new(variant: str = "base", players: int = 2, **options) -> State:
    state, _ = new_match("la-granja", variant, players, seed="granja", options=options)
    return state


def deal(
    state: State, hands: dict[int, list[str]], piles: dict[int, list[str]] | None = None
) -> State:
    """Hands listed top card first, piles bottom first; every other card is out of play."""
    layout = {f"hand:{s}": list(reversed(hands.get(s, []))) for s in range(state.players)}
    layout.update({f"pile:{s}": list((piles or {}).get(s, [])) for s in range(state.players)})
    rig(state, layout, spill="removed")
    check_state(state)
    return state


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def face_off_0_1() -> State:
    """Seat 0 shows a 5; seat 1 reveals another 5: a face-off of the perro and the gato."""
    state = deal(
        new(players=3), {0: ["2O"], 1: ["5C", "7C"], 2: ["6E", "8E"]}, {0: ["1B", "5O"], 2: ["9E"]}
    )
    state.data.turn = 1
    apply(state, 1, REVEAL)
    return state


# -- setup -------------------------------------------------------------------------------------
def test_the_deck_is_split_evenly_and_leftovers_leave_the_game_unseen():
    state = new(players=5)
    assert [len(state.cards(f"hand:{s}")) for s in range(5)] == [9] * 5
    assert len(state.cards("removed")) == 3
    assert view(state, 0)["zones"]["removed"]["cards"] == [None] * 3
    assert len(state.cards("removed")) + 45 == 48  # one 48-card Spanish deck


def test_players_cannot_see_their_own_cards():
    state = new()
    assert view(state, 0)["zones"]["hand:0"]["cards"] == [None] * 24


def test_each_player_is_a_different_animal():
    state = new(players=4)
    animals = view(state, None)["animals"]
    assert animals == ["perro", "gato", "cerdo", "pato"] and len(set(animals)) == 4
    assert view(state, None)["sounds"] == ["guau", "miau", "oinc", "cuac"]


def test_first_seat_must_be_a_seat_of_the_match():
    with pytest.raises(BadSetup, match="first_seat"):
        new(players=2, first_seat=4)


# -- revealing -----------------------------------------------------------------------------------
def test_revealing_puts_the_top_card_on_your_own_pile_and_passes_the_turn_left():
    state = deal(new(players=3), {0: ["7O", "2O"], 1: ["3C"], 2: ["4E"]})
    events = apply(state, 0, REVEAL)
    assert events[0] == {"type": "revealed", "seat": 0, "card": "7O"}
    assert state.cards("pile:0") == ["7O"] and state.cards("hand:0") == ["2O"]
    assert state.data.turn == 1 and state.phase == "play"


def test_the_direction_option_passes_the_turn_right_instead():
    state = deal(new(players=3, direction="counterclockwise"), {0: ["7O"], 1: ["3C"], 2: ["4E"]})
    apply(state, 0, REVEAL)
    assert state.data.turn == 2


def test_only_the_player_in_turn_reveals():
    state = deal(new(players=3), {0: ["7O"], 1: ["3C"], 2: ["4E"]})
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="Player 1's turn to reveal"):
        apply(state, 1, REVEAL)
    assert snapshot(state) == before
    assert REVEAL not in legal_actions(state, 1)


def test_cards_of_different_numbers_open_no_face_off():
    state = deal(new(players=3), {0: ["7O"], 1: ["3C"], 2: ["4E"]}, {1: ["7C"]})
    apply(state, 0, REVEAL)  # a 7 against seat 1's 7: that is a match
    assert state.phase == "reaction"
    other = deal(new(players=3), {0: ["6O"], 1: ["3C"], 2: ["4E"]}, {1: ["7C"]})
    apply(other, 0, REVEAL)
    assert other.phase == "play" and other.deadline is None


# -- face-offs -----------------------------------------------------------------------------------
def test_two_tops_of_the_same_number_open_a_face_off_between_those_two():
    state = face_off_0_1()
    assert state.phase == "reaction"
    assert state.deadline == {"kind": "reaction", "seconds": 3.0}
    assert view(state, 2)["face_off"] == {"seats": [0, 1], "calls": [], "own_animal": False}
    assert sorted(state.to_act) == [0, 1, 2]  # anyone may call: out of place, it costs cards
    assert legal_actions(state, None) == [TIMEOUT]


def test_numbers_match_whatever_the_suit():
    state = face_off_0_1()
    assert [state.cards(f"pile:{s}")[-1] for s in (0, 1)] == ["5O", "5C"]


def test_the_first_right_call_wins_and_the_loser_takes_the_winners_pile():
    state = face_off_0_1()
    events = apply(state, 1, noise("perro"))  # seat 1, the gato, calls seat 0's animal
    assert events[0]["right"] and events[0]["order"] == 1
    assert events[1] == {"type": "face_off_won", "seat": 1, "loser": 0, "cards": 1}
    assert state.cards("pile:1") == [] and state.cards("pile:0") == ["1B", "5O", "5C"]
    assert state.phase == "play" and state.deadline is None and state.data.turn == 2


def test_the_servers_arrival_order_decides_the_race():
    winners = []
    for order in ((0, 1), (1, 0)):
        state = face_off_0_1()
        right = {0: "gato", 1: "perro"}
        events = apply(state, order[0], noise(right[order[0]]))
        winners.append(events[1]["seat"])
        late = apply(state, order[1], noise(right[order[1]]))  # too late: the race is over
        assert late[0]["race"] is False and late[1]["type"] == "penalised"
    assert winners == [0, 1]


def test_the_right_call_is_the_rivals_animal_not_your_own():
    state = face_off_0_1()
    events = apply(state, 0, noise("perro"))  # seat 0 is the perro
    assert not events[0]["right"]
    assert events[1]["type"] == "penalised"


def test_a_wrong_call_costs_a_card_from_every_other_players_hand():
    state = face_off_0_1()
    hands = [len(state.cards(f"hand:{s}")) for s in range(3)]
    events = apply(state, 0, noise("cerdo"))
    assert events[1] == {
        "type": "penalised", "seat": 0, "reason": "a wrong sound", "given": [0, 1, 1]
    }  # fmt: skip
    assert [len(state.cards(f"hand:{s}")) for s in range(3)] == [
        hands[0] + 2, hands[1] - 1, hands[2] - 1
    ]  # fmt: skip
    assert state.phase == "reaction"  # the rival may still win
    events = apply(state, 1, noise("perro"))
    assert events[1]["type"] == "face_off_won" and events[1]["seat"] == 1


def test_a_player_makes_one_call_per_face_off_and_a_second_is_out_of_place():
    state = face_off_0_1()
    apply(state, 0, noise("cerdo"))
    events = apply(state, 0, noise("gato"))
    assert events[0]["race"] is False
    assert events[1]["reason"] == "a call outside the face-off"


def test_two_wrong_calls_close_the_face_off_undecided():
    state = face_off_0_1()
    apply(state, 0, noise("cerdo"))
    events = apply(state, 1, noise("gato"))
    assert "face_off_undecided" in kinds(events)
    assert state.phase == "play" and state.deadline is None
    assert state.cards("pile:0")[-1] == "5O" and state.cards("pile:1")[-1] == "5C"


def test_the_timeout_closes_an_undecided_face_off_and_the_pair_does_not_race_again():
    state = face_off_0_1()
    events = apply(state, None, TIMEOUT)
    assert events[0] == {"type": "face_off_timeout", "late": [0, 1]}
    assert events[1]["type"] == "face_off_undecided"
    assert state.phase == "play" and state.data.faced == [[0, 1]]
    apply(state, 2, REVEAL)  # the two 5s still show, but they have raced already
    assert state.phase == "play"


def test_a_call_with_no_face_off_is_penalised():
    state = deal(new(players=3), {0: ["7O", "1O"], 1: ["3C", "2C"], 2: ["4E", "6E"]})
    events = apply(state, 2, noise("perro"))
    assert events[0]["race"] is False
    assert events[1]["reason"] == "a call with no face-off" and events[1]["given"] == [1, 1, 0]
    assert len(state.cards("hand:2")) == 4


def test_a_call_from_a_player_outside_the_face_off_is_penalised():
    state = face_off_0_1()
    events = apply(state, 2, noise("gato"))
    assert events[1]["reason"] == "a call outside the face-off"
    assert state.phase == "reaction"


def test_a_giver_with_an_empty_hand_gives_nothing():
    state = deal(new(players=3), {0: ["7O"], 1: [], 2: ["4E"]}, {1: ["3C"]})
    events = apply(state, 2, noise("perro"))
    assert events[1]["given"] == [1, 0, 0]


def test_no_reveal_while_a_face_off_is_open():
    state = face_off_0_1()
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="reveal is not possible in phase 'reaction'"):
        apply(state, 2, REVEAL)
    assert snapshot(state) == before


def test_three_tops_alike_race_in_pairs_in_seat_order():
    state = deal(new(players=3), {0: ["2O"], 1: ["6C"], 2: ["5E", "7E"]}, {0: ["5O"], 1: ["5C"]})
    state.data.turn, state.data.faced = 2, [[0, 1]]
    apply(state, 2, REVEAL)
    assert state.data.window["racers"] == [0, 2]
    apply(state, 0, noise("cerdo"))  # the perro beats the cerdo; seat 2 takes seat 0's pile
    assert state.data.window["racers"] == [1, 2]  # seat 2 now shows seat 0's 5 against seat 1


# -- renewing and the end ------------------------------------------------------------------------
def test_an_empty_hand_is_renewed_from_its_own_pile_at_the_start_of_the_turn():
    state = deal(new(players=2), {0: [], 1: ["3C"]}, {0: ["6O", "7O", "2O"]})
    events = apply(state, 0, REVEAL)
    assert events[0] == {"type": "renewed", "seat": 0, "cards": 3}
    assert len(state.cards("hand:0")) == 2 and len(state.cards("pile:0")) == 1


def test_winning_a_face_off_with_an_empty_hand_wins_the_match():
    state = deal(new(players=3), {0: [], 1: ["5C", "7C"], 2: ["6E"]}, {0: ["5O"]})
    state.data.turn = 1
    apply(state, 1, REVEAL)
    events = apply(state, 0, noise("gato"))
    assert events[-1]["type"] == "match_finished" and events[-1]["reason"] == "no cards left"
    assert state.result["winners"] == [0] and state.result["scores"] == [1, 0, 0]


def test_a_player_left_with_no_cards_by_a_penalty_wins():
    state = deal(new(players=3), {0: ["7O"], 1: ["3C"], 2: ["4E", "5E"]})
    apply(state, 2, noise("perro"))
    assert state.finished and state.result["winners"] == [0, 1]


def test_the_step_limit_ends_the_match_and_the_fewest_cards_win():
    state = deal(new(players=2, max_steps=50), {0: ["7O", "1O"], 1: ["3C", "2C", "4C"]})
    state.data.steps = 49
    events = apply(state, 0, REVEAL)
    assert events[-1]["reason"] == "step limit reached"
    assert state.result["winners"] == [0]


# -- variants --------------------------------------------------------------------------------------
def test_peluche_a_revealed_rey_passes_every_animal_to_the_right():
    state = deal(new("peluche", players=3), {0: ["12O"], 1: ["3C"], 2: ["4E"]})
    events = apply(state, 0, REVEAL)
    assert events[1] == {"type": "animals_passed", "animals": ["gato", "cerdo", "perro"]}


def test_base_a_rey_passes_nothing():
    state = deal(new(players=3), {0: ["12O"], 1: ["3C"], 2: ["4E"]})
    apply(state, 0, REVEAL)
    assert state.data.animals == ["perro", "gato", "cerdo"]


def test_peluche_a_face_off_calls_the_animal_the_rival_holds_now():
    state = deal(new("peluche", players=3), {0: ["12O"], 1: ["5C"], 2: ["4E"]}, {2: ["5E"]})
    apply(state, 0, REVEAL)  # animals now gato, cerdo, perro
    apply(state, 1, REVEAL)  # seat 1's 5 against seat 2's 5
    events = apply(state, 1, noise("perro"))  # seat 2 holds the perro now
    assert events[0]["right"] and events[1]["seat"] == 1


def test_simultanea_cards_are_revealed_together_once_everyone_is_ready():
    state = deal(new("simultanea", players=3), {0: ["7O"], 1: ["3C"], 2: ["4E"]})
    assert state.phase == "reveal" and state.deadline["kind"] == "commit"
    assert apply(state, 1, REVEAL) == [{"type": "ready", "seat": 1}]
    with pytest.raises(IllegalAction, match="already revealed"):
        apply(state, 1, REVEAL)
    apply(state, 0, REVEAL)
    assert state.cards("pile:1") == []  # nothing is shown before the last is ready
    events = apply(state, 2, REVEAL)
    assert [e["card"] for e in events if e["type"] == "revealed"] == ["7O", "3C", "4E"]
    assert state.phase == "reveal" and state.data.ready == []


def test_simultanea_the_timeout_reveals_for_the_slow():
    state = deal(new("simultanea", players=3), {0: ["7O"], 1: ["3C"], 2: ["4E"]})
    apply(state, 0, REVEAL)
    events = apply(state, None, TIMEOUT)
    assert events[0] == {"type": "reveal_timeout", "late": [1, 2]}
    assert all(state.cards(f"pile:{s}") for s in range(3))


def test_simultanea_one_pair_calls_the_rivals_animal():
    state = deal(new("simultanea", players=3), {0: ["7O"], 1: ["7C"], 2: ["4E"]})
    for s in range(3):
        apply(state, s, REVEAL)
    assert state.data.window == {"racers": [0, 1], "calls": [], "own": False}
    events = apply(state, 0, noise("gato"))
    assert events[0]["right"]


def test_simultanea_a_crowded_face_off_is_won_by_calling_your_own_animal_against_all():
    state = deal(new("simultanea", players=4), {0: ["7O"], 1: ["7C"], 2: ["4E"], 3: ["4B"]})
    for s in range(4):
        apply(state, s, REVEAL)
    assert state.data.window == {"racers": [0, 1, 2, 3], "calls": [], "own": True}
    wrong = apply(state, 3, noise("cerdo"))  # seat 3 calls its rival's animal: wrong here
    assert not wrong[0]["right"]
    events = apply(state, 2, noise("cerdo"))  # seat 2, the cerdo, calls its own animal
    assert events[0]["right"]
    assert events[1] == {"type": "face_off_won", "seat": 2, "loser": 3, "cards": 1}


def test_totem_a_face_off_is_won_by_grabbing_the_totem():
    state = deal(new("totem", players=3), {0: ["2O"], 1: ["5C", "7C"], 2: ["6E"]}, {0: ["5O"]})
    state.data.turn = 1
    apply(state, 1, REVEAL)
    assert {"type": "grab", "animal": "perro"} in legal_actions(state, 1)
    assert not [a for a in legal_actions(state, 1) if a["type"] == "noise"]
    with pytest.raises(IllegalAction, match="grabbing it"):
        apply(state, 1, noise("perro"))
    events = apply(state, 1, grab("perro"))
    assert events[0]["how"] == "grab" and events[1]["type"] == "face_off_won"


def test_totem_the_first_grab_decides_the_face_off_even_when_its_call_is_wrong():
    state = deal(
        new("totem", players=3),
        {0: ["2O", "3O"], 1: ["5C", "7C"], 2: ["6E", "8E"]},
        {0: ["5O"], 2: ["9E"]},
    )
    state.data.turn = 1
    apply(state, 1, REVEAL)
    events = apply(state, 1, grab("gato"))  # seat 1 grabs first but calls its own animal
    assert [e["type"] for e in events] == ["called", "penalised", "face_off_undecided"]
    assert state.phase == "play" and state.deadline is None
    late = apply(state, 0, grab("gato"))  # the totem is gone: seat 0's grab is out of place
    assert late[0]["race"] is False


def test_totem_a_grab_with_no_face_off_is_penalised():
    state = deal(new("totem", players=3), {0: ["2O", "1O"], 1: ["5C"], 2: ["6E"]})
    events = apply(state, 1, grab("perro"))
    assert events[1]["reason"] == "a call with no face-off"


def test_there_is_no_totem_to_grab_outside_the_totem_variant():
    state = face_off_0_1()
    with pytest.raises(IllegalAction, match="no totem"):
        apply(state, 1, grab("perro"))


# -- bad input -------------------------------------------------------------------------------------
def test_an_animal_nobody_is_is_refused_and_changes_nothing():
    state = face_off_0_1()
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="nobody at this table is the cow"):
        apply(state, 0, noise("vaca"))
    with pytest.raises(IllegalAction, match="animal must be one of"):
        apply(state, 0, noise("dragon"))
    with pytest.raises(IllegalAction, match="noise needs the field 'animal'"):
        apply(state, 0, {"type": "noise"})
    assert snapshot(state) == before


def test_the_server_has_no_timeout_to_send_when_no_window_is_open():
    state = deal(new(players=2), {0: ["7O"], 1: ["3C"]})
    assert legal_actions(state, None) == []
    with pytest.raises(IllegalAction, match="not a server action"):
        apply(state, None, TIMEOUT)
