"""Nervioso: the count, reaction windows decided by arrival order, penalties, win, loss and draw.

Races are scripted: the order of the ``apply`` calls is the server's arrival order,
and ``{"type": "timeout"}`` from seat None is the server's timer closing a window.
"""

from __future__ import annotations

import json

import pytest

from shared.engine import (
    BadSetup,
    IllegalAction,
    NotYourTurn,
    State,
    apply,
    check_state,
    legal_actions,
    new_match,
    spanish_deck,
    view,
)
from tests.rigging import rig

PLAY = {"type": "play"}
SLAP = {"type": "slap"}
TIMEOUT = {"type": "timeout"}

# Twelve cards that never equal the count when seats 0 and 1 alternate (counts 1..10, 1, 2).
NO_MATCH_0 = ["2O", "4O", "6O", "10O", "12O", "3O"]  # played on counts 1, 3, 5, 7, 9, 1
NO_MATCH_1 = ["1C", "5C", "7C", "11C", "1E", "3C"]  # played on counts 2, 4, 6, 8, 10, 2


def new(variant: str = "base", players: int = 2, **options) -> State:
    state, _ = new_match("nervioso", variant, players, seed="nervioso", options=options)
    return state


def deal(state: State, hands: dict[int, list[str]], pile: list[str] | None = None) -> State:
    """Hands listed top card first; every card not named lies at the bottom of the pile."""
    named = [c for cards in hands.values() for c in cards] + list(pile or [])
    rest = [c for c in spanish_deck(40) if c not in named]
    layout = {f"hand:{s}": list(reversed(hands.get(s, []))) for s in range(state.players)}
    layout["pile"] = rest + list(pile or [])
    rig(state, layout, spill="pile")
    check_state(state)
    state.to_act = list(range(state.players))  # the rigged pile holds cards: anyone may slap
    return state


def result(state: State) -> dict:
    assert state.finished and state.result is not None
    return state.result


def winners(state: State) -> list[int]:
    return result(state)["winners"]


def hand_size(state: State, seat: int) -> int:
    return len(state.cards(f"hand:{seat}"))


def said_sequence(state: State, plays: int) -> list:
    said = []
    for _ in range(plays):
        seat = state.data.turn
        events = apply(state, seat, PLAY)
        said.append(events[0]["said"])
    return said


def three_with_match() -> State:
    """Three players; seat 0 turns a 1 on count 1: a reaction window opens."""
    state = deal(new(players=3), {0: ["1O", "2O"], 1: ["5C", "6C"], 2: ["7E", "4E"]})
    apply(state, 0, PLAY)
    return state


# -- deal and turn order ---------------------------------------------------------------
def test_deck_is_dealt_evenly_and_leftovers_start_the_pile_face_up():
    state = new(players=3)
    assert [hand_size(state, s) for s in range(3)] == [13, 13, 13]
    assert len(state.cards("pile")) == 1
    spectator = view(state, None)
    assert spectator["zones"]["pile"]["cards"] == state.cards("pile")
    assert state.data.count == 1


def test_players_cannot_see_their_own_cards():
    state = new(players=2)
    own = view(state, 0)["zones"]["hand:0"]
    assert own["count"] == 20 and own["cards"] == [None] * 20


def test_leftover_cards_do_not_touch_the_count():
    state = deal(new(players=3), {0: ["2O"]}, pile=["1C"])
    events = apply(state, 0, PLAY)
    assert events[0]["said"] == 1 and not events[0]["match"]


def test_youngest_seat_plays_first():
    state = new(players=3, youngest_seat=2)
    assert state.data.turn == 2
    assert PLAY in legal_actions(state, 2)
    assert legal_actions(state, 0) == [SLAP]  # the leftover card can already be slapped


def test_youngest_seat_must_be_a_seat_of_the_match():
    with pytest.raises(BadSetup, match="youngest_seat"):
        new(players=2, youngest_seat=3)


def test_play_passes_clockwise_and_counterclockwise_on_option():
    clockwise = deal(new(players=3), {0: ["2O"], 1: ["3C"], 2: ["4E"]})
    apply(clockwise, 0, PLAY)
    assert clockwise.data.turn == 1
    counter = deal(new(players=3, direction="counterclockwise"), {0: ["2O"], 1: ["3C"], 2: ["4E"]})
    apply(counter, 0, PLAY)
    assert counter.data.turn == 2


def test_player_throws_the_top_card_of_their_hand():
    state = deal(new(), {0: ["7O", "2O"], 1: ["3C"]})
    events = apply(state, 0, PLAY)
    assert events[0]["card"] == "7O" and state.cards("pile")[-1] == "7O"
    assert state.cards("hand:0")[-1] == "2O"


# -- the count ---------------------------------------------------------------------------
def test_count_cycles_one_to_ten_and_starts_again():
    state = deal(new(), {0: NO_MATCH_0, 1: NO_MATCH_1})
    assert said_sequence(state, 12) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2]
    assert not state.data.window


def test_each_player_says_the_next_number_as_in_the_text_example():
    state = deal(new(players=3), {0: ["2O", "5O"], 1: ["3C"], 2: ["4E"]})
    plays = [apply(state, seat, PLAY)[0] for seat in (0, 1, 2)]
    assert [(p["seat"], p["said"]) for p in plays] == [(0, 1), (1, 2), (2, 3)]


@pytest.mark.parametrize(("card", "count"), [("10E", 8), ("11E", 9), ("12E", 10), ("7E", 7)])
def test_figures_count_sota_8_caballo_9_rey_10(card, count):
    seat = (count - 1) % 2  # the seat that plays on this count
    hands = {0: NO_MATCH_0[: count // 2], 1: NO_MATCH_1[: (count - 1) // 2]}
    hands[seat] = hands[seat] + [card]
    state = deal(new(), hands)
    said_sequence(state, count - 1)
    events = apply(state, seat, PLAY)
    assert events[0]["said"] == count and events[0]["match"] and state.phase == "reaction"


def test_card_unequal_to_the_count_opens_no_window():
    state = deal(new(), {0: ["3O"], 1: ["4C"]})
    events = apply(state, 0, PLAY)
    assert not events[0]["match"] and state.phase == "play" and state.deadline is None


# -- reaction windows --------------------------------------------------------------------
def test_match_opens_a_reaction_window_for_every_seat():
    state = three_with_match()
    assert state.phase == "reaction"
    assert state.deadline == {"kind": "reaction", "seconds": 3.0}
    assert sorted(state.to_act) == [0, 1, 2]
    assert legal_actions(state, 0) == [SLAP]
    assert legal_actions(state, 1) == [SLAP, PLAY]  # next to play: may throw instead (a mistake)
    assert legal_actions(state, None) == [TIMEOUT]


def test_reaction_window_length_is_an_option():
    state = deal(new(reaction_seconds=1.5), {0: ["1O"]})
    apply(state, 0, PLAY)
    assert state.deadline == {"kind": "reaction", "seconds": 1.5}


def test_last_to_slap_takes_the_pile():
    state = three_with_match()
    pile = len(state.cards("pile"))
    for seat in (2, 0, 1):
        events = apply(state, seat, SLAP)
    assert events[0] == {"type": "slapped", "seat": 1, "match": True, "order": 3}
    assert events[1]["type"] == "took_pile" and events[1]["seat"] == 1
    assert hand_size(state, 1) == 2 + pile and state.cards("pile") == []
    assert state.deadline is None and state.phase == "play"


def test_arrival_order_decides_the_race_not_the_seat_number():
    takers = []
    for order in ((0, 1, 2), (2, 1, 0), (1, 2, 0)):
        state = three_with_match()
        for seat in order:
            apply(state, seat, SLAP)
        takers.append(state.data.turn)
    assert takers == [2, 0, 0]


def test_seat_that_slapped_leaves_to_act_until_the_window_closes():
    state = three_with_match()
    apply(state, 1, SLAP)
    assert sorted(state.to_act) == [0, 2]
    with pytest.raises(NotYourTurn):
        apply(state, 1, SLAP)


def test_timeout_gives_the_pile_to_the_seat_that_did_not_slap():
    state = three_with_match()
    apply(state, 0, SLAP)
    apply(state, 2, SLAP)
    events = apply(state, None, TIMEOUT)
    assert events[0] == {"type": "window_closed", "late": [1]}
    assert events[1]["seat"] == 1 and state.data.turn == 1


def test_several_non_reactors_first_in_turn_after_the_matching_player_takes():
    state = deal(new(players=4), {0: ["2O"], 1: ["2C"], 2: ["5E"], 3: ["6B"]})
    apply(state, 0, PLAY)
    apply(state, 1, PLAY)  # a 2 on count 2: seat 1 made the match
    apply(state, 2, SLAP)
    events = apply(state, None, TIMEOUT)
    assert events[0]["late"] == [3, 0, 1]
    assert events[1]["seat"] == 3


def test_nobody_slapping_gives_the_pile_to_the_next_player():
    state = three_with_match()
    events = apply(state, None, TIMEOUT)
    assert events[0]["late"] == [1, 2, 0] and events[1]["seat"] == 1


def test_random_non_reactor_option_draws_among_the_late_seats_reproducibly():
    takers = set()
    for _ in range(2):
        hands = {0: ["1O", "2O"], 1: ["3C"], 2: ["4E"], 3: ["5B"]}
        state = deal(new(players=4, non_reactor_taker="random"), hands)
        apply(state, 0, PLAY)
        apply(state, 1, SLAP)
        events = apply(state, None, TIMEOUT)
        assert events[1]["seat"] in (2, 3, 0)
        takers.add(events[1]["seat"])
    assert len(takers) == 1  # same seed, same draw


def test_taker_restarts_the_count_at_one():
    state = deal(new(), {0: NO_MATCH_0[:3] + ["7O"], 1: ["1C", "5C", "5E", "4B"]})
    for _ in range(3):
        apply(state, state.data.turn, PLAY)
    apply(state, 0, SLAP)  # false slap: seat 0 takes and restarts
    assert state.data.count == 1 and state.data.turn == 0
    assert state.to_act == [0]  # nothing on the table to slap
    events = apply(state, 0, PLAY)
    assert events[0]["said"] == 1


# -- penalties ---------------------------------------------------------------------------
def test_false_slap_is_legal_for_every_seat_and_takes_the_pile():
    state = deal(new(players=3), {0: ["3O"], 1: ["5C", "6C"], 2: ["7E"]})
    apply(state, 0, PLAY)
    assert all(SLAP in legal_actions(state, s) for s in range(3))
    pile = len(state.cards("pile"))
    events = apply(state, 2, SLAP)
    assert events[0] == {"type": "slapped", "seat": 2, "match": False}
    assert events[1]["reason"] == "false slap" and hand_size(state, 2) == 1 + pile
    assert state.data.turn == 2 and state.data.count == 1


def test_no_slap_on_an_empty_table():
    state = deal(new(players=3), {0: ["3O"], 1: ["5C"], 2: ["7E"]})
    apply(state, 0, PLAY)
    apply(state, 1, SLAP)
    assert state.cards("pile") == [] and state.to_act == [1]
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="no discard pile"):
        apply(state, 1, SLAP)
    with pytest.raises(NotYourTurn):
        apply(state, 0, SLAP)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_playing_instead_of_slapping_takes_the_pile_and_two_cards_from_each_hand():
    state = deal(new(players=3), {0: ["1O", "2O", "3O"], 1: ["5C", "6C"], 2: ["7E", "4E", "5E"]})
    apply(state, 0, PLAY)
    apply(state, 0, SLAP)
    pile = len(state.cards("pile"))
    events = apply(state, 1, PLAY)  # seat 1 is next and throws a card instead of slapping
    assert [e["type"] for e in events] == ["threw", "penalty", "took_pile"]
    assert events[0]["card"] == "5C"
    assert events[1]["taken"] == [2, 0, 2]
    assert hand_size(state, 0) == 0 and hand_size(state, 2) == 1
    assert hand_size(state, 1) == 2 + pile + 4
    assert state.cards("hand:2") == ["5E"]  # the two top cards went
    check_state(state)
    assert state.deadline is None and state.data.turn == 1 and state.data.count == 1


def test_penalty_takes_only_what_a_short_hand_holds():
    state = deal(new(players=3), {0: ["1O"], 1: ["5C", "6C"], 2: ["7E"]})
    apply(state, 0, PLAY)  # seat 0 is now empty
    events = apply(state, 1, PLAY)
    assert events[1]["taken"] == [0, 0, 1]
    assert hand_size(state, 2) == 0


def test_only_the_next_player_may_throw_instead_of_slapping():
    state = three_with_match()
    assert PLAY not in legal_actions(state, 2)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="only Player 2, next to play"):
        apply(state, 2, PLAY)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    apply(state, 1, SLAP)
    assert legal_actions(state, 1) == []  # having slapped, seat 1 waits for the window to close
    with pytest.raises(NotYourTurn):
        apply(state, 1, PLAY)


# -- winning, losing, drawing --------------------------------------------------------------
def test_player_without_cards_wins_on_a_correct_slap_that_is_not_last():
    state = deal(new(players=3), {0: ["1O"], 1: ["4C"], 2: ["5E"]})
    apply(state, 0, PLAY)  # seat 0 plays its last card, a match
    events = apply(state, 0, SLAP)
    assert winners(state) == [0]
    assert events[-1]["type"] == "match_finished"
    assert result(state)["scores"] == [1, 0, 0]


def test_player_without_cards_who_slaps_last_takes_the_pile_and_plays_on():
    state = deal(new(players=3), {0: ["1O"], 1: ["4C"], 2: ["5E"]})
    apply(state, 0, PLAY)
    apply(state, 2, SLAP)
    apply(state, 1, SLAP)
    apply(state, 0, SLAP)
    assert not state.finished
    assert hand_size(state, 0) > 0 and state.data.turn == 0


def test_player_without_cards_who_does_not_slap_takes_the_pile():
    state = deal(new(players=3), {0: ["1O"], 1: ["4C"], 2: ["5E"]})
    apply(state, 0, PLAY)
    apply(state, 1, SLAP)
    apply(state, 2, SLAP)
    apply(state, None, TIMEOUT)
    assert not state.finished and state.data.turn == 0


def test_player_with_cards_does_not_win_by_slapping_first():
    state = three_with_match()
    apply(state, 1, SLAP)
    assert not state.finished


def test_player_without_cards_does_not_win_by_a_false_slap():
    state = deal(new(players=3), {0: ["2O"], 1: ["4C"], 2: ["5E"]})
    apply(state, 0, PLAY)  # no match, seat 0 is empty
    apply(state, 0, SLAP)
    assert not state.finished and hand_size(state, 0) > 0


def test_players_without_cards_are_skipped_in_turn():
    state = deal(new(players=3), {0: ["2O", "3O"], 1: [], 2: ["4E"]})
    apply(state, 0, PLAY)
    assert state.data.turn == 2
    apply(state, 2, PLAY)
    assert state.data.turn == 0


def test_player_who_ends_up_with_every_card_loses():
    state = deal(new(players=3), {0: ["2O", "3O"], 1: [], 2: []})
    apply(state, 0, PLAY)  # no match; the rest of the deck lies in the pile
    apply(state, 0, SLAP)
    assert hand_size(state, 0) == 40
    assert winners(state) == [1, 2]


def test_every_card_discarded_without_a_match_is_a_draw_shared_by_all():
    state = deal(new(players=3), {0: ["2O"], 1: [], 2: []})
    events = apply(state, 0, PLAY)
    assert events[-1]["reason"] == "all cards discarded"
    assert winners(state) == [0, 1, 2]


def test_last_card_matching_keeps_the_window_open_for_the_empty_hands():
    state = deal(new(players=2), {0: ["1O"], 1: []})
    apply(state, 0, PLAY)
    assert state.phase == "reaction" and state.data.turn is None
    assert legal_actions(state, 0) == [SLAP]
    apply(state, 1, SLAP)
    assert winners(state) == [1]


def test_play_limit_ends_the_match_as_a_shared_draw():
    state = deal(new(max_passes=1), {0: ["2O", "3O"], 1: ["4C"]})
    state.data.plays = 39  # one card short of one pass through the deck
    events = apply(state, 0, PLAY)
    assert events[-1]["reason"] == "play limit reached"
    assert winners(state) == [0, 1]


# -- variants ------------------------------------------------------------------------------
def test_contando_figuras_names_sota_caballo_rey():
    state = deal(new("contando-figuras"), {0: NO_MATCH_0, 1: NO_MATCH_1})
    said = said_sequence(state, 12)
    assert said == [1, 2, 3, 4, 5, 6, 7, "sota", "caballo", "rey", 1, 2]


def test_contando_figuras_matches_the_named_figure():
    state = deal(new("contando-figuras"), {0: ["10O"]})
    state.data.count = 8
    assert view(state, 0)["next_word"] == "sota"
    events = apply(state, 0, PLAY)
    assert events[0]["said"] == "sota" and events[0]["match"]


def test_666_count_six_is_silent_and_the_next_player_goes_on_at_seven():
    state = deal(new("666"), {0: NO_MATCH_0, 1: NO_MATCH_1})
    assert said_sequence(state, 8) == [1, 2, 3, 4, 5, None, 7, 8]


def test_666_six_on_the_silent_count_opens_no_window():
    hands = {0: ["2O", "4O", "1O", "2E"], 1: ["1C", "5C", "6C", "3E"]}  # a 6 on count 6
    silent = deal(new("666"), hands)
    base = deal(new(), hands)
    for state in (silent, base):
        said_sequence(state, 6)
    assert silent.phase == "play" and base.phase == "reaction"


def test_666_option_lets_a_six_on_the_silent_count_match():
    hands = {0: ["2O", "4O", "1O", "2E"], 1: ["1C", "5C", "6C", "3E"]}
    state = deal(new("666", silent_six_is_match=True), hands)
    said_sequence(state, 6)
    assert state.phase == "reaction"


# -- views and bad input -------------------------------------------------------------------
def test_view_shows_the_count_and_the_race_so_far():
    state = three_with_match()
    apply(state, 2, SLAP)
    seen = view(state, 1)
    assert seen["window"] == {"player": 0, "slaps": [2]}
    assert seen["said"] == 1 and seen["count"] == 2 and seen["turn"] == 1
    assert seen["deadline"] == {"kind": "reaction", "seconds": 3.0}
    assert seen["legal_actions"] == [SLAP, PLAY]


def test_play_takes_no_card_parameter():
    state = new()
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="play has no field 'card'; fields: none"):
        apply(state, 0, {"type": "play", "card": "1O"})
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    state = deal(new(players=3), {0: ["3O"], 1: ["5C"], 2: ["7E"]})
    apply(state, 0, PLAY)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="Player 2's turn"):
        apply(state, 2, PLAY)
    with pytest.raises(IllegalAction, match="unknown action type 'shout'"):
        apply(state, 2, {"type": "shout"})
    with pytest.raises(IllegalAction, match="not a server action"):
        apply(state, None, TIMEOUT)  # no window is open
    assert json.dumps(state.to_json(), sort_keys=True) == before
