"""Solitario 4 Ases: worked scenarios from fixed deals, named after the rule they check."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from shared.engine import (
    IllegalAction,
    apply,
    check_state,
    legal_actions,
    new_match,
    rank,
    spanish_deck,
    view,
)
from shared.engine.language import Reader
from tests.rigging import rig

GAME = "solitario-4-ases"
REVEAL = {"type": "reveal"}
RENEW = {"type": "renew"}
SUITS = "OCEB"
RANKS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]


def deal(variant="base", order=(), options=None, rest_to="stock", **zones):
    """A match whose next reveals turn up ``order`` (first revealed first), zones as given.

    Every other card goes to ``rest_to``: under the ordered cards in the stock, or face up
    on the revealed pile (so the stock holds exactly ``order``).
    """
    state, _ = new_match(GAME, variant, seed="fixed", options=options)
    used = set(order).union(*zones.values())
    fixed = {c for name, z in state.zones.items() if name not in (*zones, "stock") for c in z.cards}
    rest = [c for c in spanish_deck(40) if c not in used and c not in fixed]
    stock = list(reversed(order))  # the top of the stock is the end of the list
    layout = {**zones, "stock": rest + stock if rest_to == "stock" else stock}
    if rest_to != "stock":
        layout[rest_to] = rest
    rig(state, layout)
    check_state(state)
    return state


def up(state, card, to):
    return apply(state, 0, {"type": "play", "card": card, "to": to})


def top(state):
    return state.cards("revealed")[-1]


def plays(state):
    return [a for a in legal_actions(state, 0) if a["type"] == "play"]


def refused(state, action, *words):
    """Assert ``action`` is refused with a message holding ``words`` and nothing changes."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    for word in words:
        assert word in str(err.value), (word, str(err.value))
    return str(err.value)


def play_greedily(state, limit=2000):
    """Move up whenever possible, else reveal, else renew: a deterministic player."""
    for _ in range(limit):
        if state.finished:
            return state
        actions = legal_actions(state, 0)
        action = next((a for a in actions if a["type"] == "play"), actions[0])
        apply(state, 0, action)
    raise AssertionError("the greedy player did not finish")


def suit_run(s):
    return [f"{r}{s}" for r in RANKS]


def in_pairs(cards):
    """Reveal order that makes ``cards`` come up in this order: each pair's second card is on top."""
    order = []
    for i in range(0, len(cards), 2):
        order.extend(reversed(cards[i : i + 2]))
    return order


# -- revealing -------------------------------------------------------------------------
def test_two_revealed_cards_stack_and_only_the_last_is_playable():
    # the text's example: 2 copas then 3 espadas are revealed; the 3 espadas is on top and must
    # go up before the 2 copas becomes available
    s = deal(order=["2C", "3E"], foundation1=["1E", "2E"], foundation2=["1C"])
    apply(s, 0, REVEAL)
    assert s.cards("revealed")[-2:] == ["2C", "3E"]
    assert plays(s) == [{"type": "play", "card": "3E", "to": "foundation1"}]
    refused(
        s, {"type": "play", "card": "2C", "to": "foundation2"}, "only the top", "the 3 of swords"
    )
    up(s, "3E", "foundation1")
    assert plays(s) == [{"type": "play", "card": "2C", "to": "foundation2"}]
    up(s, "2C", "foundation2")
    assert s.cards("foundation2") == ["1C", "2C"]


def test_one_card_is_revealed_when_one_is_left_in_hand():
    s = deal(order=["5C"], rest_to="revealed")
    assert len(s.cards("stock")) == 1
    events = apply(s, 0, REVEAL)
    assert events[0]["cards"] == ["5C"] and top(s) == "5C" and not s.cards("stock")


def test_reveal_option_sets_how_many_cards_a_reveal_turns():
    s = deal(order=["5C", "6C", "7C", "1O"], options={"reveal": 3})
    events = apply(s, 0, REVEAL)
    assert events[0]["cards"] == ["5C", "6C", "7C"] and top(s) == "7C"


def test_the_deal_puts_the_whole_deck_in_the_hidden_hand():
    s, _ = new_match(GAME, "base", seed="deal")
    assert len(s.cards("stock")) == 40 and not s.cards("revealed")
    assert legal_actions(s, 0) == [REVEAL]
    assert view(s, 0)["zones"]["stock"]["cards"] == [None] * 40
    apply(s, 0, REVEAL)
    assert view(s, None)["zones"]["revealed"]["cards"] == s.cards("revealed")


# -- foundations -------------------------------------------------------------------------
def test_any_1_starts_any_empty_foundation():
    s = deal(order=["5C", "1B"], foundation1=["1O"])
    apply(s, 0, REVEAL)
    assert {a["to"] for a in plays(s)} == {"foundation2", "foundation3", "foundation4"}
    up(s, "1B", "foundation4")
    assert s.cards("foundation4") == ["1B"]


def test_an_empty_foundation_takes_only_a_1():
    s = deal(order=["5C", "2O"])
    apply(s, 0, REVEAL)
    assert plays(s) == []
    refused(s, {"type": "play", "card": "2O", "to": "foundation1"}, "only a 1")


def test_foundations_build_up_in_the_same_suit():
    s = deal(order=["5C", "3O"], foundation1=["1O", "2O"], foundation2=["1E", "2E"])
    apply(s, 0, REVEAL)
    assert plays(s) == [{"type": "play", "card": "3O", "to": "foundation1"}]
    refused(
        s, {"type": "play", "card": "3O", "to": "foundation2"}, "takes only the 3 of swords next"
    )
    with pytest.raises(IllegalAction) as err:
        apply(s, 0, {"type": "play", "card": "3O", "to": "foundation2"})
    assert err.value.text(Reader("es")) == "La segunda base solo admite ahora el 3 de espadas"


def test_seven_is_followed_by_sota():
    run = ["1O", "2O", "3O", "4O", "5O", "6O", "7O"]
    s = deal(order=["5C", "10O"], foundation1=run)
    apply(s, 0, REVEAL)
    assert plays(s) == [{"type": "play", "card": "10O", "to": "foundation1"}]


def test_a_complete_foundation_takes_nothing_more():
    s = deal(order=["5C", "1E"], foundation1=suit_run("O"))
    apply(s, 0, REVEAL)
    refused(s, {"type": "play", "card": "1E", "to": "foundation1"}, "complete")


# -- renewing and the end ---------------------------------------------------------------------
def test_renewing_turns_the_revealed_pile_over_without_shuffling():
    s = deal(order=["5C", "1O", "6C"], rest_to="revealed")
    apply(s, 0, REVEAL)
    refused(s, RENEW, "not empty yet (1 left)")
    up(s, "1O", "foundation1")
    apply(s, 0, REVEAL)
    assert not s.cards("stock") and top(s) == "6C"
    pile = list(s.cards("revealed"))
    apply(s, 0, RENEW)
    assert s.cards("stock") == pile[::-1] and s.cards("stock")[-1] == pile[0]
    assert not s.cards("revealed") and s.data.passes == 2 and s.data.moved_this_pass == 0


def test_a_game_is_won_with_the_four_suits_ordered_from_1_to_rey():
    s = deal(order=in_pairs([c for su in SUITS for c in suit_run(su)]))
    play_greedily(s)
    assert s.finished and s.data.won is True
    assert s.result["winners"] == [0] and s.result["scores"] == [40] and s.result["won"] is True
    assert [len(s.cards(f"foundation{i}")) for i in range(1, 5)] == [10, 10, 10, 10]
    assert view(s, 0)["won"] is True and view(s, 0)["cards_up"] == 40


def test_a_pass_that_moves_nothing_up_loses_because_the_next_pass_would_repeat_it():
    # every 1 is revealed first of its pair, under an unplayable card (each 2 too): nothing moves
    order = ["1O", "5C", "1C", "5E", "1E", "5B", "1B", "5O"]
    s = deal(order=order)
    stock = list(s.cards("stock"))
    for _ in range(19):
        apply(s, 0, REVEAL)
        assert not s.finished and legal_actions(s, 0) == [REVEAL]
    events = apply(s, 0, REVEAL)  # the last reveal ends the pass with nothing moved
    assert s.finished and s.data.won is False
    assert s.result["winners"] == [] and s.result["scores"] == [0] and s.result["won"] is False
    assert "repeat" in s.result["reason"] and events[-1]["type"] == "match_finished"
    # turned over, the pile would be the very same stock: the next pass is identical
    assert s.cards("revealed")[::-1] == stock


def test_a_card_moved_up_after_the_stock_ran_out_counts_for_the_pass():
    s = deal(order=["5C", "1O"], rest_to="revealed")
    apply(s, 0, REVEAL)
    assert not s.finished and legal_actions(s, 0) == [
        {"type": "play", "card": "1O", "to": f"foundation{i}"} for i in range(1, 5)
    ]
    up(s, "1O", "foundation1")
    assert legal_actions(s, 0) == [RENEW]
    apply(s, 0, RENEW)
    assert s.data.passes == 2 and len(s.cards("stock")) == 39 and not s.finished


def test_a_pass_with_a_move_up_is_renewed_and_the_next_idle_pass_loses():
    # pass 1 moves the 1 and 2 de oros, a whole pair, so pass 2 turns up the same pairs as
    # pass 1 did for every other card: each 1 and 2 stays under an unplayable card
    order = ["2O", "1O", "1C", "5C", "1E", "5E", "1B", "5B", "3O", "5O"]
    s = deal(order=order)
    play_greedily(s)
    assert s.finished and s.result["won"] is False and "repeat" in s.result["reason"]
    assert s.data.passes == 2 and s.result["scores"] == [2]
    assert s.cards("foundation1") == ["1O", "2O"]


def test_passing_over_a_playable_card_in_a_pass_that_moves_nothing_loses():
    s = deal(order=["5C", "1O", "6C", "7C"], rest_to="revealed")
    apply(s, 0, REVEAL)
    assert top(s) == "1O" and plays(s)
    apply(s, 0, REVEAL)  # the 1 de oros is passed over: nothing went up in this pass
    assert s.finished and s.result["won"] is False and "moved no card" in s.result["reason"]


def test_idle_pass_option_lets_a_pass_over_a_playable_card_be_renewed():
    options = {"idle_pass": "no-card-movable"}
    s = deal(order=["5C", "1O", "6C", "7C"], options=options, rest_to="revealed")
    apply(s, 0, REVEAL)
    apply(s, 0, REVEAL)
    assert not s.finished and legal_actions(s, 0) == [RENEW]
    apply(s, 0, RENEW)
    assert s.data.passes == 2 and s.data.movable_this_pass is False


def test_idle_pass_option_still_loses_a_pass_where_no_card_could_go_up():
    options = {"idle_pass": "no-card-movable"}
    s = deal(order=["1O", "5C", "1C", "5E", "1E", "5B", "1B", "5O"], options=options)
    for _ in range(20):
        apply(s, 0, REVEAL)
    assert s.finished and s.result["won"] is False and "could go up" in s.result["reason"]


# -- revelados ----------------------------------------------------------------------------------
def test_revelados_starts_with_the_four_1s_up_and_36_cards_in_hand():
    s, events = new_match(GAME, "revelados", seed="r")
    assert [s.cards(f"foundation{i}") for i in range(1, 5)] == [["1O"], ["1C"], ["1E"], ["1B"]]
    assert len(s.cards("stock")) == 36 and 1 not in {rank(c) for c in s.cards("stock")}
    assert any(e["type"] == "aces_placed" for e in events)
    check_state(s)


def test_revelados_plays_by_the_base_rules():
    s = deal("revelados", order=["5C", "2E"])
    apply(s, 0, REVEAL)
    assert plays(s) == [{"type": "play", "card": "2E", "to": "foundation3"}]


# -- con reserva --------------------------------------------------------------------------------
def test_reserve_takes_the_top_revealed_card_into_the_empty_slot():
    s = deal("con-reserva", order=["3C", "4O"])
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "reserve", "card": "4O"})
    assert s.cards("reserve") == ["4O"] and top(s) == "3C"
    apply(s, 0, REVEAL)
    refused(s, {"type": "reserve", "card": top(s)}, "already holds the 4 of coins")


def test_a_reserved_card_cannot_go_up_directly():
    s = deal("con-reserva", order=["5C", "4O"], foundation1=["1O", "2O", "3O"])
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "reserve", "card": "4O"})
    refused(s, {"type": "play", "card": "4O", "to": "foundation1"}, "reserved", "release")
    assert plays(s) == []


def test_a_reserved_card_returns_onto_a_revealed_card_of_its_number_and_is_then_playable():
    # the text's example: the 4 de oros goes back when the top revealed card is another 4
    s = deal("con-reserva", order=["5C", "4O", "6E", "4B"], foundation1=["1O", "2O", "3O"])
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "reserve", "card": "4O"})
    assert {"type": "release", "card": "4O"} not in legal_actions(s, 0)  # top is 5C
    refused(s, {"type": "release", "card": "4O"}, "onto a revealed 4", "the 5 of cups")
    apply(s, 0, REVEAL)
    assert top(s) == "4B"
    apply(s, 0, {"type": "release", "card": "4O"})
    assert top(s) == "4O" and not s.cards("reserve")
    assert plays(s) == [{"type": "play", "card": "4O", "to": "foundation1"}]


def test_undoing_a_reserve_or_a_release_at_once_is_refused():
    s = deal("con-reserva", order=["4B", "4O", "7E", "4C"])
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "reserve", "card": "4O"})
    assert top(s) == "4B" and {"type": "release", "card": "4O"} not in legal_actions(s, 0)
    refused(s, {"type": "release", "card": "4O"}, "undo")
    apply(s, 0, REVEAL)
    apply(s, 0, {"type": "release", "card": "4O"})  # onto the 4 de copas: a real move
    assert s.cards("revealed")[-2:] == ["4C", "4O"]
    refused(s, {"type": "reserve", "card": "4O"}, "undo")


def test_reserve_refusals_say_why():
    s = deal("con-reserva", order=["5C", "4O"])
    apply(s, 0, REVEAL)
    refused(s, {"type": "release", "card": "4O"}, "reserve slot is empty")
    refused(s, {"type": "reserve", "card": "5C"}, "only the top revealed card, the 4 of coins")
    apply(s, 0, {"type": "reserve", "card": "4O"})
    refused(s, {"type": "release", "card": "5C"}, "the reserved card is the 4 of coins")


def test_the_reserve_is_only_in_con_reserva():
    s = deal(order=["5C", "4O"])
    apply(s, 0, REVEAL)
    refused(s, {"type": "reserve", "card": "4O"}, "no reserve")


def test_the_game_is_lost_when_only_the_reserved_card_is_left():
    piles = {f"foundation{i}": suit_run(x) for i, x in enumerate(SUITS, start=1)}
    piles["foundation4"] = piles["foundation4"][:-2]  # up to the Sota de bastos
    s = deal("con-reserva", order=["11B"], reserve=["12B"], **piles)
    assert s.cards("stock") == ["11B"] and not s.cards("revealed")
    apply(s, 0, REVEAL)
    refused(s, {"type": "play", "card": "12B", "to": "foundation4"}, "reserved")
    up(s, "11B", "foundation4")
    assert s.finished and s.result["won"] is False and s.result["scores"] == [39]
    assert "reserved card" in s.result["reason"]


# -- mezclado ------------------------------------------------------------------------------------
def test_mezclado_renewal_costs_a_token_and_shuffles():
    s = deal("mezclado", order=["5C", "6C"], rest_to="revealed")
    assert s.data.tokens == 5
    apply(s, 0, REVEAL)
    pile = list(s.cards("revealed"))
    assert legal_actions(s, 0) == [RENEW]  # no card went up, yet a token may still be spent
    events = apply(s, 0, RENEW)
    assert s.data.tokens == 4 and events[0]["shuffled"] is True
    assert Counter(s.cards("stock")) == Counter(pile) and s.cards("stock") != pile[::-1]
    assert view(s, 0)["tokens"] == 4 and view(s, 0)["zones"]["stock"]["cards"] == [None] * 40


def test_mezclado_without_tokens_and_with_an_empty_hand_is_lost():
    s = deal("mezclado", order=["5C", "6C"], rest_to="revealed")
    s.data.tokens = 0
    apply(s, 0, REVEAL)
    assert s.finished and s.result["won"] is False and "token" in s.result["reason"]


def test_mezclado_without_tokens_the_revealed_pile_may_still_go_up():
    s = deal("mezclado", order=["5C", "1O"], rest_to="revealed")
    s.data.tokens = 0
    apply(s, 0, REVEAL)
    assert not s.finished
    up(s, "1O", "foundation1")
    assert s.finished and s.result["won"] is False and s.result["scores"] == [1]


def test_mezclado_read_literally_loses_as_soon_as_the_hand_is_empty_without_tokens():
    options = {"play_out_without_renewal": False}
    s = deal("mezclado", order=["5C", "1O"], options=options, rest_to="revealed")
    s.data.tokens = 0
    apply(s, 0, REVEAL)
    assert s.finished and s.result["won"] is False


# -- pintados ------------------------------------------------------------------------------------
def test_pintados_builds_each_next_card_in_a_different_suit():
    s = deal("pintados", order=["5C", "2O", "7C", "2E"], foundation1=["1E"], foundation2=["1O"])
    apply(s, 0, REVEAL)
    # the text's example: the 2 de oros may go on the 1 de espadas, never on the 1 de oros
    assert plays(s) == [{"type": "play", "card": "2O", "to": "foundation1"}]
    refused(s, {"type": "play", "card": "2O", "to": "foundation2"}, "other than coins")
    up(s, "2O", "foundation1")
    apply(s, 0, REVEAL)
    assert plays(s) == [{"type": "play", "card": "2E", "to": "foundation2"}]


def test_pintados_is_won_with_four_full_piles_of_mixed_suits():
    piles = [
        [f"{r}{'OC'[i % 2]}" for i, r in enumerate(RANKS)],
        [f"{r}{'CO'[i % 2]}" for i, r in enumerate(RANKS)],
        [f"{r}{'EB'[i % 2]}" for i, r in enumerate(RANKS)],
        [f"{r}{'BE'[i % 2]}" for i, r in enumerate(RANKS)],
    ]
    s = deal("pintados", order=in_pairs([c for pile in piles for c in pile]))
    play_greedily(s)
    assert s.finished and s.result["won"] is True and s.result["scores"] == [40]


# -- refusals -----------------------------------------------------------------------------------
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    s = deal(order=["5C", "6C", "1O"], rest_to="revealed")
    refused(s, RENEW, "not empty yet (3 left)")
    refused(s, {"type": "fly"}, "unknown action type", "reveal, renew, play, reserve, release")
    refused(s, {"type": "play", "card": top(s), "to": "foundation9"}, "to must be one of")
    refused(s, {"type": "play", "card": "2O", "to": "foundation1"}, "only the top")
    refused(s, {"type": "play"}, "needs the field 'card'")
    refused(s, {"type": "play", "card": top(s)}, "needs the field 'to'")
    refused(s, {"type": "reveal", "card": top(s)}, "reveal has no field 'card'")
    apply(s, 0, REVEAL)
    apply(s, 0, REVEAL)
    assert not s.cards("stock") and top(s) == "1O" and not s.finished
    refused(s, REVEAL, "hand is empty")
    refused(s, RENEW, "moved no card")


def test_actions_after_the_end_are_refused():
    s = deal(order=["5C", "6C"], rest_to="revealed")
    apply(s, 0, REVEAL)
    assert s.finished and legal_actions(s, 0) == []
    refused(s, REVEAL, "finished")


def test_legal_actions_are_fresh_objects_a_caller_may_change():
    s = deal(order=["5C", "1O"])
    listed = legal_actions(s, 0)
    listed[0]["type"] = "renew"
    listed[0]["extra"] = True
    assert legal_actions(s, 0) == [REVEAL]
    apply(s, 0, REVEAL)
    listed = legal_actions(s, 0)
    listed[0]["to"] = "foundation9"
    assert plays(s)[0]["to"] == "foundation1"


def test_the_state_data_keeps_its_json_shape():
    s, _ = new_match(GAME, "mezclado", seed="shape")
    assert s.to_json()["data"] == {
        "passes": 1, "moved_this_pass": 0, "movable_this_pass": False, "tokens": 5,
        "last": None, "won": None, "reason": None,
    }  # fmt: skip
