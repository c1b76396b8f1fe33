"""Solitario Pirámide: scenarios from fixed deals, named after the rule they check."""

from __future__ import annotations

import json
import random

import pytest

from shared.engine import (
    HIDDEN,
    Game,
    IllegalAction,
    apply,
    check_state,
    english_deck,
    get_game,
    legal_actions,
    new_match,
    view,
)
from shared.engine.kit.solitaire import pyramid, three_peaks
from shared.engine.language import ENGLISH_DECK, card_phrase
from tests.rigging import rig

GAME = "solitario-piramide"
DRAW = {"type": "draw"}


def deal(variant="base", slots=None, stock=(), waste=(), options=None):
    """A match whose layout holds exactly ``slots`` (slot -> card; every other slot empty, as if
    its card had gone out), with the stock (last card on top) and waste given; the other
    cards lie on the discard pile. Free cards are face up, as after play."""
    state, _ = new_match(GAME, variant, seed="fixed", options=options)
    slots = slots or {}
    layout = three_peaks() if variant == "tres-puntas" else pyramid(7)
    used = set(slots.values()) | set(stock) | set(waste)
    wanted = {name: [slots[name]] if name in slots else [] for name in layout.slots}
    wanted.update(stock=list(stock), waste=list(waste), discard=[])
    rig(state, wanted, spill="discard")
    state.zones["discard"].cards = [c for c in english_deck() if c not in used]
    layout.turn_up(state)
    check_state(state)
    return state


def remove(state, *cards):
    return apply(state, 0, {"type": "remove", "cards": list(cards)})


def removals(state):
    return sorted(sorted(a["cards"]) for a in legal_actions(state, 0) if a["type"] == "remove")


def refused(state, action, *words):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    for word in words:
        assert word in str(err.value), (word, str(err.value))


# -- the deal ----------------------------------------------------------------------------------
def test_the_deal_is_28_cards_in_7_rows_covered_face_down_and_a_24_card_stock():
    s, events = new_match(GAME, "base", seed="deal")
    rows = [[f"pyramid:{r}:{i}" for i in range(1, r + 1)] for r in range(1, 8)]
    assert [len(row) for row in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert len(s.cards("stock")) == 24 and events[0] == {"type": "deal", "layout": 28, "stock": 24}
    seen = view(s, 0)
    for row in rows[:6]:
        assert all(seen["zones"][slot]["cards"] == [None] for slot in row)
    assert [seen["zones"][slot]["cards"][0] for slot in rows[6]] == seen["free"]
    check_state(s)


def test_revelada_deals_every_card_face_up():
    s, _ = new_match(GAME, "revelada", seed="deal")
    seen = view(s, 0)
    assert all(seen["zones"][slot]["cards"] == s.cards(slot) for slot in pyramid(7).slots)
    assert len(seen["free"]) == 7 and len(s.cards("stock")) == 24


def test_tres_puntas_deals_rows_of_3_6_9_10_and_11_and_a_13_card_stock():
    s, events = new_match(GAME, "tres-puntas", seed="deal")
    counts = [sum(1 for z in s.zones if z.startswith(f"pyramid:{r}:")) for r in range(1, 6)]
    assert counts == [3, 6, 9, 10, 11] and len(s.cards("stock")) == 13
    assert events[0]["layout"] == 39 and len(view(s, 0)["free"]) == 11
    assert sum(1 for z in s.zones.values() if z.visibility == HIDDEN) == 28 + 1  # with the stock


# -- pairs -----------------------------------------------------------------------------------
def test_the_text_values_pair_j_with_2_q_with_a_and_the_k_goes_alone():
    bottom = {f"pyramid:7:{i}": c for i, c in enumerate(["JS", "2H", "QD", "AC", "KS"], 1)}
    s = deal(slots=bottom, stock=["9C"])
    assert removals(s) == [["2H", "JS"], ["AC", "QD"], ["KS"]]
    remove(s, "KS")
    assert s.cards("discard")[-1] == "KS" and not s.cards("pyramid:7:5")


def test_every_pair_summing_13_goes_out_together():
    cards = ["3S", "10H", "4D", "9C", "5S", "8H", "6D"]
    bottom = {f"pyramid:7:{i}": c for i, c in enumerate(cards, 1)}
    s = deal(slots=bottom, waste=["7C"])
    assert removals(s) == [["10H", "3S"], ["4D", "9C"], ["5S", "8H"], ["6D", "7C"]]


def test_three_cards_never_make_13():
    # the text's example: 5 + 5 + 3 = 13 is not valid
    bottom = {"pyramid:7:1": "5S", "pyramid:7:2": "5H", "pyramid:7:3": "3D"}
    s = deal(slots=bottom, stock=["9C"])
    assert removals(s) == []
    refused(s, {"type": "remove", "cards": ["5S", "5H", "3D"]}, "never more")
    refused(s, {"type": "remove", "cards": ["5S", "3D"]}, "add up to 8, not 13")
    refused(s, {"type": "remove", "cards": ["5S"]}, "only a K goes out alone")
    refused(s, {"type": "remove", "cards": ["5S", "5S"]}, "two different cards")


def test_a_covered_card_is_not_free_not_even_to_pair_with_the_card_on_it():
    s = deal(slots={"pyramid:6:1": "8S", "pyramid:7:1": "5H", "pyramid:7:2": "JC"}, stock=["9C"])
    assert removals(s) == []
    refused(
        s,
        {"type": "remove", "cards": ["5H", "8S"]},
        "The 8 of spades is not free",
        "free now: the 5 of hearts and the jack of clubs",
    )


def test_a_refusal_does_not_tell_whether_an_unseen_card_is_in_the_pyramid():
    s, _ = new_match(GAME, "base", seed="deal")
    hidden = s.cards("pyramid:1:1")[0]
    elsewhere = s.cards("stock")[0]
    messages = []
    for card in (hidden, elsewhere):
        with pytest.raises(IllegalAction) as err:
            remove(s, card)
        messages.append(str(err.value).replace(card_phrase(card, "en", ENGLISH_DECK, False), "X"))
    assert messages[0] == messages[1]


def test_a_card_freed_is_turned_face_up():
    slots = {"pyramid:6:1": "8S", "pyramid:7:1": "5H", "pyramid:7:2": "KC"}
    s = deal(slots=slots, stock=["9C"])
    assert view(s, 0)["zones"]["pyramid:6:1"]["cards"] == [None]
    assert remove(s, "KC")[0]["turned"] == []  # the 5H still lies on the 8S
    assert view(s, 0)["zones"]["pyramid:6:1"]["cards"] == [None] and removals(s) == []
    s = deal(slots={**slots, "pyramid:7:1": "QH", "pyramid:7:2": "AD"}, stock=["9C"])
    events = remove(s, "QH", "AD")
    assert events[0] == {"type": "removed", "seat": 0, "cards": ["QH", "AD"], "turned": ["8S"]}
    assert view(s, 0)["zones"]["pyramid:6:1"]["cards"] == ["8S"]


# -- the stock and the waste -----------------------------------------------------------------
def test_drawing_is_refused_while_a_pyramid_card_can_go_out():
    s = deal(slots={"pyramid:7:1": "KS", "pyramid:7:2": "4H"}, stock=["9C", "2D"])
    assert DRAW not in legal_actions(s, 0)
    refused(s, DRAW, "The king of spades can still go out")
    s = deal(slots={"pyramid:7:1": "9S", "pyramid:7:2": "5H"}, stock=["9C"], waste=["4D"])
    refused(s, DRAW, "The 9 of spades and the 4 of diamonds can still go out")


def test_with_draw_any_time_the_stock_may_be_drawn_while_a_pair_is_there():
    s = deal(slots={"pyramid:7:1": "KS"}, stock=["9C", "2D"], options={"draw_any_time": True})
    assert DRAW in legal_actions(s, 0)
    assert apply(s, 0, DRAW)[0] == {"type": "drawn", "seat": 0, "card": "2D"}


def test_the_waste_top_pairs_with_a_free_pyramid_card():
    # the text: the stock's top card is turned; if it makes 13 with a pyramid card both go out
    s = deal(slots={"pyramid:7:1": "9S", "pyramid:7:2": "6H"}, stock=["QC", "4D"])
    assert legal_actions(s, 0) == [DRAW]
    apply(s, 0, DRAW)
    assert removals(s) == [["4D", "9S"]]
    remove(s, "4D", "9S")
    assert s.cards("waste") == [] and s.cards("discard")[-2:] == ["4D", "9S"]


def test_only_the_top_waste_card_is_available():
    # the text: a new card lies on the other; the one below is used only after the top one
    s = deal(slots={"pyramid:7:1": "5S", "pyramid:7:2": "2H"}, stock=["9C"], waste=["8D", "3C"])
    assert removals(s) == []
    refused(s, {"type": "remove", "cards": ["5S", "8D"]}, "The 8 of diamonds is not free")
    apply(s, 0, DRAW)  # the 8D under the 3C is out of reach for good
    assert s.cards("waste")[-1] == "9C" and s.finished and s.result["winners"] == []


def test_a_king_on_the_waste_goes_out_alone_and_frees_the_card_under_it():
    s = deal(slots={"pyramid:7:1": "5S", "pyramid:7:2": "2H"}, stock=["9C"], waste=["8D", "KC"])
    assert removals(s) == [["KC"]]
    remove(s, "KC")
    assert removals(s) == [["5S", "8D"]]


def test_the_stock_is_used_once_and_the_game_is_lost_when_nothing_can_go_out():
    s = deal(slots={"pyramid:7:1": "5S", "pyramid:7:2": "2H"}, stock=["9C", "3D"])
    apply(s, 0, DRAW)
    assert not s.finished
    events = apply(s, 0, DRAW)
    assert s.finished and s.result["winners"] == [] and legal_actions(s, 0) == []
    assert events[-1]["won"] is False and events[-1]["cards_left"] == 2
    assert s.result["scores"] == [26] and view(s, 0)["won"] is False
    refused(s, DRAW, "finished")


def test_taking_the_top_of_the_pyramid_last_wins():
    s = deal(slots={"pyramid:1:1": "KH", "pyramid:2:1": "6S", "pyramid:2:2": "7D"}, stock=["9C"])
    remove(s, "6S", "7D")
    assert view(s, 0)["free"] == ["KH"] and not s.finished
    events = remove(s, "KH")
    assert s.finished and s.result == {"winners": [0], "scores": [28], "rounds": [[28]]}
    assert events[-1]["won"] is True and events[-1]["reason"] == "the pyramid is cleared"


# -- tres puntas -------------------------------------------------------------------------------
def test_tres_puntas_peaks_are_freed_by_their_two_cards_of_the_second_row():
    slots = {
        "pyramid:1:1": "KH", "pyramid:1:3": "KD", "pyramid:2:1": "6S", "pyramid:2:2": "7D",
        "pyramid:3:2": "QS", "pyramid:5:1": "AC",
    }  # fmt: skip
    s = deal("tres-puntas", slots=slots, stock=["9C"])
    # the middle card of a peak's three in row 3 lies on both of its second-row cards
    assert view(s, 0)["free"] == ["KD", "QS", "AC"]
    events = remove(s, "QS", "AC")
    assert events[0]["turned"] == ["6S", "7D"] and view(s, 0)["free"] == ["KD", "6S", "7D"]
    events = remove(s, "6S", "7D")
    assert events[0]["turned"] == ["KH"] and view(s, 0)["free"] == ["KH", "KD"]


def test_tres_puntas_is_won_with_all_39_cards_out():
    s = deal("tres-puntas", slots={"pyramid:5:11": "KH"}, stock=["9C"])
    remove(s, "KH")
    assert s.finished and s.result["scores"] == [39] and s.result["winners"] == [0]


# -- bad input -----------------------------------------------------------------------------------
def test_bad_actions_are_refused_with_a_reason_and_change_nothing():
    s = deal(slots={"pyramid:7:1": "5S"}, stock=["9C"])
    refused(s, {"type": "play", "card": "5S"}, "unknown action type 'play'", "remove, draw")
    refused(s, {"type": "remove"}, "needs the field 'cards'")
    refused(s, {"type": "remove", "cards": "5S"}, "cards must be a list of card codes")
    refused(s, {"type": "draw", "cards": []}, "draw has no field 'cards'")


def test_in_revelada_a_covered_card_is_seen_but_still_not_free():
    slots = {"pyramid:6:1": "8S", "pyramid:7:1": "5H", "pyramid:7:2": "JC"}
    s = deal("revelada", slots=slots, stock=["9C"])
    assert view(s, 0)["zones"]["pyramid:6:1"]["cards"] == ["8S"]
    assert removals(s) == [] and view(s, 0)["free"] == ["5H", "JC"]
    refused(s, {"type": "remove", "cards": ["5H", "8S"]}, "The 8 of spades is not free")


# -- the one-pass listing ------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["base", "tres-puntas", "revelada", "draw-any-time"])
def test_the_listing_in_one_pass_is_the_action_tables_listing(variant):
    """The game lists its removals and the draw with the free cards found once; that is exactly
    what each action type's own listing gives (the shared suite checks those against the
    refusals), and the match ends exactly when nothing is left to do."""
    game = get_game(GAME)
    options = {"draw_any_time": True} if variant == "draw-any-time" else None
    for seed in range(40):
        s, _ = new_match(GAME, "base" if options else variant, 1, f"one-pass {seed}", options)
        rng = random.Random(seed)
        while not s.finished:
            listed = legal_actions(s, 0)
            assert listed == Game.legal_actions(game, s, 0)
            apply(s, 0, rng.choice(listed))
        assert s.result is not None


# -- the free cards found once per move ------------------------------------------------------------
@pytest.mark.parametrize("variant", ["base", "tres-puntas", "revelada"])
def test_the_free_cards_kept_from_move_to_move_are_the_ones_found_afresh(variant):
    """A move hands the next one the free cards it leaves: after every move they are the ones
    the layout's own scan finds, and a clone (which keeps none: they are not in the state)
    finds the same; the face-down cards turned are those a full scan would turn."""
    game = get_game(GAME)
    layout = game._layout(new_match(GAME, variant, 1, "layout")[0])
    for seed in range(20):
        s, _ = new_match(GAME, variant, 1, f"kept {seed}")
        rng = random.Random(seed)
        while not s.finished:
            apply(s, 0, rng.choice(legal_actions(s, 0)))
            assert game._free(s) == layout.free(s) == game._free(s.clone())
            assert "free_at" not in json.dumps(s.to_json())
            assert all(s.zones[slot].visibility != HIDDEN for slot, _card in layout.free(s))
