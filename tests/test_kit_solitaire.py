"""The solitaire kit: covered layouts, columns, foundations, the stock, and the end."""

from __future__ import annotations

from shared.engine import HIDDEN, PUBLIC, TOP, State, english_deck
from shared.engine.kit.solitaire import (
    adjacent,
    builds_on,
    column_names,
    deal_columns,
    draw,
    end_solitaire,
    exposed,
    foundation_names,
    may_renew,
    pyramid,
    successors,
    three_peaks,
    turn_over,
)
from shared.engine.kit.tables import SPANISH_SEQUENCE_40


def blank() -> State:
    return State("test", "base", {}, 1, "kit")


# -- layouts --------------------------------------------------------------------------------
def test_a_pyramid_of_7_rows_has_28_slots_each_under_the_two_below():
    layout = pyramid(7)
    assert len(layout) == 28 and layout.slots[0] == "pyramid:1:1"
    assert layout.covered_by["pyramid:1:1"] == ("pyramid:2:1", "pyramid:2:2")
    assert layout.covered_by["pyramid:6:3"] == ("pyramid:7:3", "pyramid:7:4")
    assert layout.covered_by["pyramid:7:7"] == ()


def test_only_the_bottom_row_is_free_and_face_up_after_the_deal():
    state, cards = blank(), english_deck()
    layout = pyramid(7)
    layout.deal(state, cards, face_up=False)
    assert len(cards) == 24 and layout.count(state) == 28
    assert [slot for slot, _ in layout.free(state)] == [f"pyramid:7:{i}" for i in range(1, 8)]
    assert {state.zones[s].visibility for s in layout.slots[:21]} == {HIDDEN}
    assert {state.zones[s].visibility for s in layout.slots[21:]} == {PUBLIC}


def test_a_card_is_freed_and_turned_up_when_both_cards_on_it_are_gone():
    state, cards = blank(), english_deck()
    layout = pyramid(7)
    layout.deal(state, cards, face_up=False)
    under = state.cards("pyramid:6:1")[0]
    state.zones["pyramid:7:1"].cards.clear()
    assert not layout.is_free(state, "pyramid:6:1") and layout.turn_up(state) == []
    state.zones["pyramid:7:2"].cards.clear()
    assert layout.is_free(state, "pyramid:6:1")
    assert layout.turn_up(state) == [under] and state.zones["pyramid:6:1"].visibility == PUBLIC
    assert layout.slot_of(state, under) == "pyramid:6:1" and layout.count(state) == 26


def test_a_face_up_deal_shows_every_card():
    state, cards = blank(), english_deck()
    pyramid(7).deal(state, cards, face_up=True)
    assert all(state.zones[s].visibility == PUBLIC for s in pyramid(7).slots)


def test_three_peaks_rows_of_3_6_9_10_11_make_39_cards():
    layout = three_peaks()
    assert len(layout) == 39 and len(english_deck()) - len(layout) == 13
    cover = layout.covered_by
    assert [cover[f"pyramid:1:{p}"] for p in (1, 2, 3)] == [
        ("pyramid:2:1", "pyramid:2:2"), ("pyramid:2:3", "pyramid:2:4"),
        ("pyramid:2:5", "pyramid:2:6"),
    ]  # fmt: skip
    # a peak's two second-row cards share the middle card of its three in row 3
    assert cover["pyramid:2:1"] == ("pyramid:3:1", "pyramid:3:2")
    assert cover["pyramid:2:2"] == ("pyramid:3:2", "pyramid:3:3")
    assert cover["pyramid:2:6"] == ("pyramid:3:8", "pyramid:3:9")
    assert cover["pyramid:3:9"] == ("pyramid:4:9", "pyramid:4:10")
    assert cover["pyramid:4:10"] == ("pyramid:5:10", "pyramid:5:11")
    state, cards = blank(), english_deck()
    layout.deal(state, cards, face_up=False)
    assert len(layout.free(state)) == 11


# -- columns ----------------------------------------------------------------------------------
def test_columns_are_dealt_in_order_and_only_their_tops_are_exposed():
    state, cards = blank(), english_deck()
    names = column_names(3)
    deal_columns(state, names, [2, 1, 0], cards, TOP)
    assert names == ("column:1", "column:2", "column:3")
    assert state.cards("column:1") == ["AS", "2S"] and state.cards("column:2") == ["3S"]
    assert exposed(state, names) == [("column:1", "2S"), ("column:2", "3S")]
    assert state.zones["column:1"].visibility == TOP and len(cards) == 49


# -- building --------------------------------------------------------------------------------
def test_adjacent_ranks_ignore_suits_and_may_wrap_king_to_ace():
    assert adjacent("3S", "2H", wrap=False) and adjacent("3S", "4D", wrap=False)
    assert not adjacent("3S", "3H", wrap=True) and not adjacent("3S", "5H", wrap=True)
    assert adjacent("KS", "AH", wrap=True) and not adjacent("KS", "AH", wrap=False)


def test_foundations_start_with_the_first_rank_and_build_up_by_suit():
    next_rank = successors(SPANISH_SEQUENCE_40)
    assert next_rank[7] == 10 and next_rank[11] == 12 and 12 not in next_rank
    assert foundation_names(2) == ("foundation1", "foundation2")
    assert builds_on("1O", [], next_rank) and not builds_on("2O", [], next_rank)
    assert builds_on("10O", ["6O", "7O"], next_rank)  # 7 -> Sota
    assert not builds_on("10C", ["7O"], next_rank)
    assert builds_on("10C", ["7O"], next_rank, suits="other-suit")
    assert not builds_on("1C", ["12C"], next_rank)  # a full pile takes nothing


# -- stock and waste ---------------------------------------------------------------------------
def test_drawing_stacks_the_cards_and_turning_over_restores_the_stock_order():
    state = blank()
    state.zone("stock", None, HIDDEN).cards = ["5O", "4O", "3O", "2O", "1O"]  # 1O on top
    state.zone("waste", None, PUBLIC)
    assert draw(state, "stock", "waste", 2) == ["1O", "2O"]
    assert draw(state, "stock", "waste", 5) == ["3O", "4O", "5O"]
    assert state.cards("waste")[-1] == "5O" and not may_renew(state, "waste", "stock", 1, 1)
    assert may_renew(state, "stock", "waste", 1, None)
    assert not may_renew(state, "stock", "waste", 1, 1)  # a single pass
    turn_over(state, "waste", "stock")
    assert state.cards("stock") == ["5O", "4O", "3O", "2O", "1O"] and not state.cards("waste")


# -- the end -------------------------------------------------------------------------------------
def test_a_won_solitaire_has_seat_0_as_winner_and_a_lost_one_nobody():
    state = blank()
    won = end_solitaire(state, True, 34, reason="cleared")
    assert state.finished and state.result == {"winners": [0], "scores": [34], "rounds": [[34]]}
    assert won[0]["type"] == "match_finished" and won[0]["won"] is True
    assert won[0]["reason"] == "cleared"
    lost = blank()
    end_solitaire(lost, False, 3)
    assert lost.result["winners"] == [] and lost.to_act == [] and lost.phase == "finished"
