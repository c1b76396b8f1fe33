"""El Truco (rules/truco.txt, decisions in docs/games/truco.md): worked scenarios from fixed deals."""

from __future__ import annotations

import json
import random

import pytest

from shared.engine import (
    IllegalAction,
    State,
    apply,
    check_state,
    get_game,
    legal_actions,
    new_match,
    view,
)
from shared.games.truco import (
    STRENGTH,
    TrucoData,
    envido_points,
    flor_points,
    hand_winner,
    has_flor,
)
from tests.rigging import rig

E, RE, FE = "envido", "real-envido", "falta-envido"
MANO_33 = ["7O", "6O", "4B"]  # envido 33, no flor
PIE_29 = ["5C", "4C", "2E"]  # envido 29, no flor


def deal(mano_cards: list[str], pie_cards: list[str], **options) -> tuple[State, int, int]:
    """A fresh match whose first hand gives mano and pie these cards."""
    state, _ = new_match("truco", seed="fixed", options=options or None)
    mano = TrucoData.of(state).mano
    pie = 1 - mano
    rig(state, {f"hand:{mano}": mano_cards, f"hand:{pie}": pie_cards}, spill="deck")
    check_state(state)
    return state, mano, pie


def act(state: State, seat: int, kind: str, **fields) -> list[dict]:
    return apply(state, seat, {"type": kind, **fields})


def call(state: State, seat: int, name: str) -> list[dict]:
    return act(state, seat, "call", call=name)


def refused(state: State, seat: int, action: dict, reason: str) -> None:
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match=reason):
        apply(state, seat, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def winners(state: State) -> list[int]:
    assert state.finished and state.result is not None
    return state.result["winners"]


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# -- the rule text's own envido examples ------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (["5C", "6C", "2B"], 31),
        (["3C", "11C", "2B"], 23),
        (["2C", "5C", "6C"], 31),
        (["10O", "11O", "12O"], 20),
        (["2C", "3O", "6B"], 6),
    ],
)
def test_envido_points_match_the_rule_text_examples(cards, points):
    assert envido_points(cards) == points


def test_flor_counts_all_three_cards_plus_twenty():
    assert has_flor(["2C", "5C", "6C"]) and flor_points(["2C", "5C", "6C"]) == 33
    assert has_flor(["10O", "11O", "12O"]) and flor_points(["10O", "11O", "12O"]) == 20
    assert not has_flor(["5C", "6C", "2B"])


def test_card_ranking_follows_the_rule_text():
    order = ["1E", "1B", "7E", "7O", "3C", "2O", "1C", "12B", "11E", "10O", "7C", "6E", "5B", "4O"]
    strengths = [STRENGTH[c] for c in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(order)
    assert STRENGTH["1C"] == STRENGTH["1O"] and STRENGTH["3E"] == STRENGTH["3B"]
    assert STRENGTH["7C"] == STRENGTH["7B"] < STRENGTH["10B"]


# -- the envido stake table ---------------------------------------------------------------
STAKE_TABLE = [
    ((E,), 2, 1),
    ((RE,), 3, 1),
    ((FE,), "falta", 1),
    ((E, E), 4, 2),
    ((E, RE), 5, 2),
    ((E, FE), "falta", 2),
    ((RE, FE), "falta", 3),
    ((E, E, RE), 7, 4),
    ((E, E, FE), "falta", 4),
    ((E, RE, FE), "falta", 5),
    ((E, E, RE, FE), "falta", 7),
]


def call_chain(state: State, mano: int, chain: tuple[str, ...]) -> int:
    """Mano opens, the players alternate raising; returns the seat that made the last call."""
    seat = mano
    for name in chain:
        call(state, seat, name)
        seat = 1 - seat
    return 1 - seat


@pytest.mark.parametrize(("chain", "accepted", "_refused"), STAKE_TABLE)
def test_envido_chain_accepted_pays_the_table_to_the_better_points(chain, accepted, _refused):
    state, mano, pie = deal(MANO_33, PIE_29)
    state.scores = [0, 0]  # falta: the leader (0) lacks 15 to end the malas
    last = call_chain(state, mano, chain)
    assert state.to_act == [1 - last]
    events = act(state, 1 - last, "quiero")
    won = of_type(events, "envido_won")[0]
    assert won["seat"] == mano
    assert won["points"] == (15 if accepted == "falta" else accepted)
    assert (
        TrucoData.of(state).points[mano] == won["points"] and TrucoData.of(state).points[pie] == 0
    )
    assert state.to_act == [mano] and state.phase == "play"  # back to whoever was to play


@pytest.mark.parametrize(("chain", "_accepted", "refusal"), STAKE_TABLE)
def test_envido_chain_refused_pays_the_last_caller(chain, _accepted, refusal):
    state, mano, pie = deal(MANO_33, PIE_29)
    last = call_chain(state, mano, chain)
    events = act(state, 1 - last, "no-quiero")
    won = of_type(events, "envido_won")[0]
    assert (won["seat"], won["points"], won["declared"]) == (last, refusal, [None, None])
    assert TrucoData.of(state).points[last] == refusal and TrucoData.of(state).points[1 - last] == 0


def test_envido_raises_follow_the_standard_order():
    state, mano, pie = deal(MANO_33, PIE_29)
    call(state, mano, RE)
    refused(
        state,
        pie,
        {"type": "call", "call": E},
        "after real envido you may raise only with falta envido",
    )
    call(state, pie, FE)
    refused(state, mano, {"type": "call", "call": FE}, "raise only with nothing")
    state, mano, pie = deal(MANO_33, PIE_29)
    call(state, mano, E)
    call(state, pie, E)
    refused(
        state, mano, {"type": "call", "call": E}, "raise only with real envido and falta envido"
    )


# -- falta envido --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mano_score", "pie_score", "falta"),
    [(3, 10, 5), (0, 0, 15), (12, 20, 10), (15, 2, 15), (14, 2, 1)],
)
def test_falta_is_what_the_leader_lacks_for_the_malas_or_the_buenas(mano_score, pie_score, falta):
    state, mano, pie = deal(MANO_33, PIE_29)
    state.scores[mano], state.scores[pie] = mano_score, pie_score
    assert view(state, None)["falta_value"] == falta
    call(state, mano, FE)
    won = of_type(act(state, pie, "quiero"), "envido_won")[0]
    assert (won["seat"], won["points"]) == (mano, falta)


def test_falta_in_the_buenas_can_win_the_match_at_once():
    state, mano, pie = deal(MANO_33, PIE_29)
    state.scores[mano], state.scores[pie] = 22, 18
    call(state, mano, FE)
    events = act(state, pie, "quiero")
    assert state.finished and winners(state) == [mano]
    assert state.scores[mano] == 30 and state.rounds[-1][mano] == 8
    assert of_type(events, "match_finished")


# -- when the envido may be called ------------------------------------------------------------
def test_envido_is_first_the_truco_responder_may_call_it_before_answering():
    state, mano, pie = deal(MANO_33, PIE_29)
    call(state, mano, "truco")
    assert {"type": "call", "call": E} in legal_actions(state, pie)
    call(state, pie, E)
    assert state.to_act == [mano] and state.phase == "envido"
    act(state, mano, "quiero")
    assert state.to_act == [pie] and state.phase == "truco"
    actions = legal_actions(state, pie)
    assert {"type": "quiero"} in actions and {"type": "call", "call": "retruco"} in actions
    assert not any(a.get("call") in (E, RE, FE) for a in actions)
    refused(state, pie, {"type": "call", "call": E}, "already played this hand")


def test_pie_may_call_envido_after_mano_played_but_not_after_playing():
    state, mano, pie = deal(MANO_33, PIE_29)
    act(state, mano, "play", card="4B")
    assert {"type": "call", "call": E} in legal_actions(state, pie)
    call(state, pie, "truco")
    refused(state, mano, {"type": "call", "call": E}, "before you play your first card")


def test_envido_is_closed_once_truco_is_accepted_or_the_first_baza_is_over():
    state, mano, pie = deal(MANO_33, PIE_29)
    call(state, mano, "truco")
    act(state, pie, "quiero")
    refused(state, mano, {"type": "call", "call": E}, "truco was accepted")
    state, mano, pie = deal(MANO_33, PIE_29)
    act(state, mano, "play", card="4B")
    act(state, pie, "play", card="2E")  # pie wins the first baza and leads
    refused(state, pie, {"type": "call", "call": E}, "only in the first baza")


# -- truco ----------------------------------------------------------------------------------
def test_truco_calls_are_strictly_sequential():
    state, mano, pie = deal(MANO_33, PIE_29)
    refused(state, mano, {"type": "call", "call": "retruco"}, "the next is truco")
    refused(state, mano, {"type": "call", "call": "vale-cuatro"}, "the next is truco")
    call(state, mano, "truco")
    refused(state, pie, {"type": "call", "call": "vale-cuatro"}, "the next is retruco")


def test_only_the_side_that_accepted_may_raise():
    state, mano, pie = deal(MANO_33, PIE_29)
    call(state, mano, "truco")
    act(state, pie, "quiero")
    assert state.to_act == [mano]
    refused(
        state, mano, {"type": "call", "call": "retruco"}, "only the side that accepted the truco"
    )
    act(state, mano, "play", card="4B")
    call(state, pie, "retruco")  # pie accepted the truco, so pie may raise on its turn
    act(state, mano, "quiero")
    assert (TrucoData.of(state).truco_level, TrucoData.of(state).truco_owner) == (2, mano)
    assert state.to_act == [pie]  # play returns to whoever was to play
    refused(
        state,
        pie,
        {"type": "call", "call": "vale-cuatro"},
        "only the side that accepted the retruco",
    )


def test_answering_with_a_raise_accepts_the_call():
    state, mano, pie = deal(MANO_33, PIE_29)
    call(state, mano, "truco")
    call(state, pie, "retruco")
    assert (TrucoData.of(state).truco_level, state.to_act) == (1, [mano])
    call(state, mano, "vale-cuatro")
    refused(state, pie, {"type": "call", "call": "vale-cuatro"}, "vale cuatro is the highest call")
    act(state, pie, "quiero")
    assert view(state, mano)["truco_value"] == 4 and state.to_act == [mano]


@pytest.mark.parametrize(
    ("raises", "points"),
    [(["truco"], 1), (["truco", "retruco"], 2), (["truco", "retruco", "vale-cuatro"], 3)],
)
def test_refusing_a_truco_call_pays_the_last_accepted_level(raises, points):
    state, mano, pie = deal(MANO_33, PIE_29)
    seat = mano
    for name in raises:
        call(state, seat, name)
        seat = 1 - seat
    events = act(state, seat, "no-quiero")
    ended = of_type(events, "hand_ended")[0]
    assert ended["seat"] == 1 - seat and ended["won"] == points
    assert state.rounds[0][1 - seat] == points and state.rounds[0][seat] == 0
    assert state.round == 2 and of_type(events, "dealt")


def test_a_hand_without_truco_is_worth_one_point_and_mano_alternates():
    state, mano, pie = deal(["1E", "1B", "4O"], ["5C", "6C", "7B"])
    act(state, mano, "play", card="1E")
    act(state, pie, "play", card="5C")
    act(state, mano, "play", card="1B")
    events = act(state, pie, "play", card="6C")
    assert of_type(events, "hand_ended")[0]["won"] == 1
    assert state.rounds == [[1 if s == mano else 0 for s in (0, 1)]]
    assert (
        TrucoData.of(state).mano == pie
        and TrucoData.of(state).dealer == mano
        and state.to_act == [pie]
    )
    assert len(state.cards("hand:0")) == len(state.cards("hand:1")) == 3
    check_state(state)


def test_a_truco_call_by_the_second_player_returns_the_turn_to_it():
    state, mano, pie = deal(MANO_33, PIE_29)
    act(state, mano, "play", card="4B")
    call(state, pie, "truco")
    assert state.to_act == [mano]
    act(state, mano, "quiero")
    assert state.to_act == [pie]
    refused(state, mano, {"type": "play", "card": "7O"}, "not to act")


# -- pardas ---------------------------------------------------------------------------------
def test_parda_first_baza_the_second_decides_and_the_same_player_leads():
    state, mano, pie = deal(["3E", "4C", "5O"], ["3C", "1E", "6B"])
    act(state, mano, "play", card="3E")
    events = act(state, pie, "play", card="3C")
    assert of_type(events, "baza")[0]["parda"] and state.to_act == [mano]
    act(state, mano, "play", card="4C")
    events = act(state, pie, "play", card="1E")
    assert of_type(events, "hand_ended")[0]["seat"] == pie and state.rounds[0][pie] == 1


def test_first_baza_won_and_second_parda_ends_the_hand_at_once():
    state, mano, pie = deal(["1E", "2C", "4O"], ["4C", "2E", "5B"])
    act(state, mano, "play", card="1E")
    act(state, pie, "play", card="4C")
    act(state, mano, "play", card="2C")
    events = act(state, pie, "play", card="2E")
    ended = of_type(events, "hand_ended")
    assert ended and ended[0]["seat"] == mano and state.round == 2


def test_three_pardas_give_the_hand_to_mano():
    state, mano, pie = deal(["3E", "2C", "12O"], ["3C", "2E", "12B"])
    for mine, theirs in (("3E", "3C"), ("2C", "2E"), ("12O", "12B")):
        assert state.to_act == [mano]
        act(state, mano, "play", card=mine)
        events = act(state, pie, "play", card=theirs)
    assert of_type(events, "hand_ended")[0]["seat"] == mano


def test_parda_third_baza_goes_to_the_winner_of_the_first():
    state, mano, pie = deal(["1E", "4C", "3O"], ["5C", "1B", "3B"])
    act(state, mano, "play", card="1E")
    act(state, pie, "play", card="5C")
    act(state, mano, "play", card="4C")
    act(state, pie, "play", card="1B")
    act(state, pie, "play", card="3B")  # pie won the second baza and leads the third
    events = act(state, mano, "play", card="3O")
    assert of_type(events, "hand_ended")[0]["seat"] == mano


@pytest.mark.parametrize(
    ("bazas", "winner"),
    [
        ([0], None), ([0, 0], 0), ([0, None], 0), ([None, 1], 1), ([None, None], None),
        ([0, 1], None), ([0, 1, 1], 1), ([1, 0, None], 1), ([None, None, 0], 0),
        ([None, None, None], "mano"),
    ],
)  # fmt: skip
def test_hand_winner_by_bazas(bazas, winner):
    for mano in (0, 1):
        assert hand_winner(bazas, mano) == (mano if winner == "mano" else winner)


# -- flor -----------------------------------------------------------------------------------
def test_flor_is_mandatory_as_the_first_action():
    state, mano, pie = deal(["1C", "2C", "3C"], PIE_29)
    assert legal_actions(state, mano) == [{"type": "flor"}]
    refused(state, mano, {"type": "play", "card": "1C"}, "singing it is mandatory")
    act(state, mano, "flor")
    assert {"type": "play", "card": "1C"} in legal_actions(state, mano)
    refused(state, mano, {"type": "flor"}, "already sang")
    refused(state, mano, {"type": "call", "call": E}, "flor cancels the envido")


def flor_against_a_pending_envido() -> tuple[State, int, int, list[dict]]:
    state, mano, pie = deal(MANO_33, ["1C", "2C", "3C"])
    call(state, mano, E)
    assert legal_actions(state, pie) == [{"type": "flor"}]
    return state, mano, pie, act(state, pie, "flor")


def test_flor_cancels_a_pending_envido_and_scores_three():
    state, mano, pie, events = flor_against_a_pending_envido()
    assert of_type(events, "envido_cancelled") and state.to_act == [mano]
    assert TrucoData.of(state).points == [0, 0]
    assert {"type": "call", "call": E} not in legal_actions(state, mano)
    act(state, mano, "play", card="4B")
    events = act(state, pie, "play", card="1C")
    won = of_type(events, "flor_won")[0]
    assert (won["seat"], won["points"], won["declared"]) == (pie, 3, [None, None])


def test_flor_against_flor_pays_six_to_the_better_flor():
    state, mano, pie = deal(["1C", "2C", "3C"], ["4O", "5O", "6O"])
    act(state, mano, "flor")
    act(state, mano, "play", card="1C")
    events = act(state, pie, "flor")
    won = of_type(events, "flor_won")[0]
    assert (won["seat"], won["points"]) == (pie, 6)
    assert won["declared"][mano] == 26 and won["declared"][pie] == 35


def test_flor_tie_goes_to_mano_and_pie_says_son_buenas():
    state, mano, pie = deal(["1C", "2C", "3C"], ["1O", "2O", "3O"])
    act(state, mano, "flor")
    act(state, mano, "play", card="3C")
    won = of_type(act(state, pie, "flor"), "flor_won")[0]
    assert won["seat"] == mano and won["points"] == 6
    assert won["declared"][mano] == 26 and won["declared"][pie] is None


def test_without_the_flor_option_three_of_a_suit_play_envido():
    state, mano, pie = deal(["2C", "5C", "6C"], ["4E", "5E", "1B"], flor=False)
    assert view(state, mano)["envido_points"] == 31 and view(state, mano)["flor_points"] is None
    refused(state, mano, {"type": "flor"}, "without flor")
    call(state, mano, E)
    won = of_type(act(state, pie, "quiero"), "envido_won")[0]
    assert (won["seat"], won["declared"][mano]) == (mano, 31)


# -- what each side sees ------------------------------------------------------------------------
def test_views_show_only_the_seats_own_envido_and_flor():
    state, mano, pie = deal(["2C", "5C", "6C"], ["4E", "5E", "1B"])
    assert (view(state, mano)["envido_points"], view(state, mano)["flor_points"]) == (31, 33)
    assert (view(state, pie)["envido_points"], view(state, pie)["flor_points"]) == (29, None)
    spectator = view(state, None)
    assert spectator["envido_points"] is None and spectator["flor_points"] is None
    assert spectator["zones"][f"hand:{mano}"]["cards"] == [None, None, None]


def test_accepted_envido_reveals_mano_and_the_winner_only():
    state, mano, pie = deal(MANO_33, PIE_29)
    call(state, mano, E)
    won = of_type(act(state, pie, "quiero"), "envido_won")[0]
    assert won["declared"][mano] == 33 and won["declared"][pie] is None  # "son buenas"
    state, mano, pie = deal(PIE_29, MANO_33)
    call(state, mano, E)
    won = of_type(act(state, pie, "quiero"), "envido_won")[0]
    assert won["seat"] == pie and won["declared"][mano] == 29 and won["declared"][pie] == 33


def test_envido_tie_goes_to_mano():
    state, mano, pie = deal(["7O", "6O", "4B"], ["7C", "6C", "2E"])
    call(state, mano, RE)
    won = of_type(act(state, pie, "quiero"), "envido_won")[0]
    assert (won["seat"], won["points"]) == (mano, 3)


# -- reaching 30 -------------------------------------------------------------------------------
def test_envido_reaching_thirty_ends_the_match_mid_hand_before_the_truco():
    state, mano, pie = deal(MANO_33, PIE_29)
    state.scores[mano], state.scores[pie] = 28, 29  # pie would reach 30 with the truco
    call(state, mano, E)
    act(state, pie, "quiero")
    assert state.finished and winners(state) == [mano]
    assert state.rounds[-1][mano] == 2 and state.rounds[-1][pie] == 0
    assert legal_actions(state, pie) == []


def test_truco_points_reaching_thirty_end_the_match_with_the_hand():
    state, mano, pie = deal(["4C", "5O", "6E"], ["1E", "1B", "7E"])
    state.scores[pie] = 28
    act(state, mano, "play", card="4C")
    call(state, pie, "truco")
    act(state, mano, "quiero")
    act(state, pie, "play", card="1E")
    act(state, pie, "play", card="1B")
    act(state, mano, "play", card="5O")
    assert state.finished and winners(state) == [pie] and state.scores[pie] == 30


def test_flor_reaching_thirty_wins_even_if_the_truco_goes_the_other_way():
    state, mano, pie = deal(["1E", "1B", "7O"], ["4C", "5C", "6C"])
    state.scores[pie], state.scores[mano] = 27, 29
    act(state, mano, "play", card="1E")
    act(state, pie, "flor")
    events = act(state, pie, "play", card="4C")
    assert state.finished and winners(state) == [pie]
    assert of_type(events, "flor_won") and not of_type(events, "hand_ended")


# -- irse al mazo ---------------------------------------------------------------------------
def test_folding_is_off_by_default():
    state, mano, _pie = deal(MANO_33, PIE_29)
    refused(state, mano, {"type": "fold"}, "option fold is off")


def fold_after_an_accepted_truco() -> tuple[int, list[dict]]:
    """Mano calls truco, pie accepts, mano plays, pie goes to the deck (option fold)."""
    state, mano, pie = deal(MANO_33, PIE_29, fold=True)
    call(state, mano, "truco")
    act(state, pie, "quiero")
    act(state, mano, "play", card="4B")
    return mano, act(state, pie, "fold")


#: The event types random matches rarely show, from rigged deals (the shared suite checks that
#: every declared event type is met: tests/test_event_types.py).
EVENT_SCENARIOS = {
    "folded": lambda: fold_after_an_accepted_truco()[1],
    "envido_cancelled": lambda: flor_against_a_pending_envido()[3],
}


def test_folding_pays_the_current_truco_level_to_the_opponent():
    mano, events = fold_after_an_accepted_truco()
    ended = of_type(events, "hand_ended")[0]
    assert (ended["seat"], ended["won"]) == (mano, 2)


def test_folding_waits_for_the_envido_answer():
    state, mano, pie = deal(MANO_33, PIE_29, fold=True)
    call(state, mano, E)
    refused(state, pie, {"type": "fold"}, "fold is not possible in phase 'envido'")


# -- bad input -----------------------------------------------------------------------------
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    state, mano, pie = deal(MANO_33, PIE_29)
    refused(state, mano, {"type": "play", "card": "1E"}, "not in your hand")
    refused(state, mano, {"type": "quiero"}, "quiero is not possible in phase 'play'")
    refused(state, mano, {"type": "call", "call": "contra-flor"}, "call must be one of")
    refused(state, mano, {"type": "play"}, "play needs the field 'card'")
    refused(state, mano, {"type": "dance"}, "unknown action type")
    refused(state, mano, {"type": "flor"}, "do not hold a flor")
    refused(state, pie, {"type": "play", "card": "5C"}, "not to act")
    call(state, mano, "truco")
    refused(state, pie, {"type": "play", "card": "5C"}, "play is not possible in phase 'truco'")


def test_folding_while_answering_a_truco_pays_like_a_refusal():
    state, mano, pie = deal(MANO_33, PIE_29, fold=True)
    call(state, mano, "truco")
    call(state, pie, "retruco")
    ended = of_type(act(state, mano, "fold"), "hand_ended")[0]
    assert (ended["seat"], ended["won"]) == (pie, 2)


# -- the legal list and the reasons come from one predicate ------------------------------------
@pytest.mark.parametrize("options", [{"fold": True}, {"flor": False}])
def test_listed_actions_are_exactly_those_without_a_refusal(options):
    game = get_game("truco")
    rng = random.Random(7)
    for match in range(15):
        state, _ = new_match("truco", seed=f"agree-{match}", options=options)
        while not state.finished:
            seat = state.to_act[0]
            listed = legal_actions(state, seat)
            probes = [{"type": t} for t in ("quiero", "no-quiero", "flor", "fold")]
            probes += [
                {"type": "call", "call": c} for c in (E, RE, FE, "truco", "retruco", "vale-cuatro")
            ]
            probes += [
                {"type": "play", "card": c} for c in state.cards("hand:0") + state.cards("hand:1")
            ]
            for probe in probes:
                assert (game.refusal(state, seat, probe) is None) == (probe in listed), probe
            apply(state, seat, rng.choice(listed))
        assert max(state.scores) >= 30 and sum(map(sum, state.rounds)) == sum(state.scores)
