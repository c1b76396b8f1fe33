"""Brisca, Tute and Tute en parejas: worked scenarios from fixed deals, named after the rule they check."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from shared.engine import (
    Game,
    IllegalAction,
    State,
    apply,
    check_state,
    get_game,
    legal_actions,
    new_match,
    view,
)
from shared.games.brisca import BriscaData
from tests.rigging import rig


def deal(variant="base", players=2, options=None, layout=None, leader=0, seed="fixed"):
    """A fresh deal with seat ``leader`` to lead and the given cards placed."""
    state, _ = new_match("brisca", variant, players, seed=seed, options=options)
    state.to_act = [leader]
    BriscaData.of(state).dealer = (leader - 1) % players
    if layout:
        rig(state, layout)
        if "trump" in layout and layout["trump"]:
            BriscaData.of(state).trump_card = layout["trump"][0]
            BriscaData.of(state).trump = layout["trump"][0][-1]
    check_state(state)
    return state


def play(state, seat, card):
    return apply(state, seat, {"type": "play", "card": card})


def cards_of(actions, kind="play"):
    return sorted(a["card"] for a in actions if a["type"] == kind)


def empty_stock(state):
    """Move the stock and the face-up trump onto seat 0's won pile (as if long since drawn)."""
    state.zones["won:0"].cards.extend(state.zones["stock"].cards + state.zones["trump"].cards)
    state.zones["stock"].cards.clear()
    state.zones["trump"].cards.clear()


# -- who wins a trick ------------------------------------------------------------------
def test_highest_trump_wins_the_trick():
    s = deal(layout={"hand:0": ["1O", "4C", "5C"], "hand:1": ["2B", "6C", "7C"], "trump": ["3B"]})
    play(s, 0, "1O")
    events = play(s, 1, "2B")
    assert [e for e in events if e["type"] == "trick_won"][0]["seat"] == 1
    assert sorted(s.cards("won:1")) == ["1O", "2B"]


def test_without_trumps_the_highest_card_of_the_suit_led_wins():
    s = deal(layout={"hand:0": ["12O", "4C", "5C"], "hand:1": ["3O", "6C", "7C"], "trump": ["3B"]})
    play(s, 0, "12O")
    events = play(s, 1, "3O")
    assert next(e for e in events if e["type"] == "trick_won")["seat"] == 1  # 3 beats R


def test_a_card_of_another_suit_never_wins_without_trump():
    s = deal(layout={"hand:0": ["2O", "4C", "5C"], "hand:1": ["1E", "6C", "7C"], "trump": ["3B"]})
    play(s, 0, "2O")
    events = play(s, 1, "1E")
    assert next(e for e in events if e["type"] == "trick_won")["seat"] == 0  # the leader wins


def test_card_strength_order_is_1_3_r_c_s_7_6_5_4_2():
    order = ["1O", "3O", "12O", "11O", "10O", "7O", "6O", "5O", "4O", "2O"]
    for higher, lower in pairwise(order):
        s = deal(
            layout={"hand:0": [lower, "4C", "5C"], "hand:1": [higher, "6C", "7C"], "trump": ["3B"]}
        )
        play(s, 0, lower)
        events = play(s, 1, higher)
        assert next(e for e in events if e["type"] == "trick_won")["seat"] == 1, (higher, lower)


# -- drawing --------------------------------------------------------------------------
def test_trick_winner_draws_first_and_the_face_up_trump_is_drawn_last():
    s = deal(layout={"hand:0": ["2O", "4C", "5C"], "hand:1": ["1O", "6C", "7C"], "trump": ["3B"]})
    # leave exactly one stock card so that the last draw takes the face-up trump
    s.zones["won:0"].cards.extend(s.zones["stock"].cards[:-1])
    del s.zones["stock"].cards[:-1]
    top = s.zones["stock"].cards[-1]
    play(s, 0, "2O")
    events = play(s, 1, "1O")
    drew = [(e["seat"], e["card"]) for e in events if e["type"] == "drew"]
    assert drew == [(1, top), (0, "3B")]
    assert s.to_act == [1] and not s.zones["trump"].cards
    assert next(e for e in events if e["type"] == "drew" and e["seat"] == 1)["visible_to"] == [1]


def test_any_card_may_be_played_while_the_stock_lasts():
    s = deal(layout={"hand:0": ["2O", "4C", "5C"], "hand:1": ["1O", "6E", "7E"], "trump": ["3B"]})
    play(s, 0, "2O")
    assert cards_of(legal_actions(s, 1)) == ["1O", "6E", "7E"]


# -- arrastre ----------------------------------------------------------------------------
def test_must_follow_suit_once_the_stock_is_empty():
    s = deal(layout={"hand:0": ["2O", "4C", "5C"], "hand:1": ["1O", "6B", "7E"], "trump": ["3B"]})
    empty_stock(s)
    play(s, 0, "2O")
    assert cards_of(legal_actions(s, 1)) == ["1O"]
    with pytest.raises(IllegalAction, match="follow the suit led"):
        play(s, 1, "6B")


def test_following_suit_need_not_beat_by_default():
    s = deal(layout={"hand:0": ["1O", "4C", "5C"], "hand:1": ["2O", "3O", "7E"], "trump": ["3B"]})
    empty_stock(s)
    play(s, 0, "1O")
    assert cards_of(legal_actions(s, 1)) == ["2O", "3O"]


def test_must_trump_when_unable_to_follow_once_the_stock_is_empty():
    s = deal(layout={"hand:0": ["2O", "4C", "5C"], "hand:1": ["6B", "7E", "4E"], "trump": ["3B"]})
    empty_stock(s)
    play(s, 0, "2O")
    assert cards_of(legal_actions(s, 1)) == ["6B"]


def test_any_card_when_unable_to_follow_or_trump():
    s = deal(layout={"hand:0": ["2O", "4C", "5C"], "hand:1": ["6C", "7E", "4E"], "trump": ["3B"]})
    empty_stock(s)
    play(s, 0, "2O")
    assert cards_of(legal_actions(s, 1)) == ["4E", "6C", "7E"]


def test_montar_option_demands_beating_the_best_card_where_able():
    layout = {"hand:0": ["4O", "4C", "5C"], "hand:1": ["2O", "3O", "7E"], "trump": ["3B"]}
    s = deal(options={"arrastre": "montar"}, layout=layout)
    empty_stock(s)
    play(s, 0, "4O")
    assert cards_of(legal_actions(s, 1)) == ["3O"]


# -- exchanges ------------------------------------------------------------------------
def won_a_trick(state, seat):
    BriscaData.of(state).tricks_won[seat] = 1


def test_seven_of_trumps_takes_the_face_up_card_after_winning_a_trick():
    s = deal(layout={"hand:0": ["7B", "4C", "5C"], "trump": ["1B"]})
    won_a_trick(s, 0)
    events = apply(s, 0, {"type": "exchange", "card": "7B"})
    assert events == [{"type": "exchanged", "seat": 0, "gave": "7B", "took": "1B"}]
    assert "1B" in s.cards("hand:0") and s.cards("trump") == ["7B"]
    assert s.to_act == [0]  # the exchange does not end the turn


def test_exchange_is_refused_before_winning_a_trick():
    s = deal(layout={"hand:0": ["7B", "4C", "5C"], "trump": ["1B"]})
    assert not [a for a in legal_actions(s, 0) if a["type"] == "exchange"]
    with pytest.raises(IllegalAction, match="won a trick"):
        apply(s, 0, {"type": "exchange", "card": "7B"})


def test_two_of_trumps_takes_the_face_up_seven_even_when_turned_up_originally():
    s = deal(layout={"hand:0": ["2B", "4C", "5C"], "trump": ["7B"]})
    won_a_trick(s, 0)
    apply(s, 0, {"type": "exchange", "card": "2B"})
    assert "7B" in s.cards("hand:0") and s.cards("trump") == ["2B"]


def test_two_of_trumps_cannot_take_a_face_up_card_other_than_the_seven():
    s = deal(layout={"hand:0": ["2B", "4C", "5C"], "trump": ["1B"]})
    won_a_trick(s, 0)
    with pytest.raises(IllegalAction, match="7 of trumps"):
        apply(s, 0, {"type": "exchange", "card": "2B"})


def test_exchange_is_refused_once_the_face_up_card_has_been_drawn():
    s = deal(layout={"hand:0": ["7B", "4C", "5C"], "trump": ["1B"]})
    won_a_trick(s, 0)
    empty_stock(s)
    with pytest.raises(IllegalAction, match="no longer on the table"):
        apply(s, 0, {"type": "exchange", "card": "7B"})


def test_each_exchange_happens_at_most_once_a_deal():
    s = deal(layout={"hand:0": ["7B", "2B", "5C"], "trump": ["1B"]})
    won_a_trick(s, 0)
    apply(s, 0, {"type": "exchange", "card": "7B"})
    apply(s, 0, {"type": "exchange", "card": "2B"})  # the 2 takes the 7 just put face up
    assert s.cards("trump") == ["2B"]
    assert not [a for a in legal_actions(s, 0) if a["type"] == "exchange"]
    with pytest.raises(IllegalAction, match="once a deal"):
        apply(s, 0, {"type": "exchange", "card": "7B"})


def test_exchange_only_on_ones_own_turn():
    s = deal(layout={"hand:1": ["7B", "4C", "5C"], "trump": ["1B"]})
    won_a_trick(s, 1)
    with pytest.raises(IllegalAction, match="not to act"):
        apply(s, 1, {"type": "exchange", "card": "7B"})


# -- decks, deals and the match ----------------------------------------------------------
def play_deal(state, rng):
    start = state.round
    while not state.finished and state.round == start:
        seat = state.to_act[0]
        plays = [a for a in legal_actions(state, seat) if a["type"] == "play"]
        apply(state, seat, rng.choice(plays))


def test_three_players_play_without_the_two_of_bastos():
    s, _ = new_match("brisca", "base", 3, seed="three")
    assert len(s.all_cards()) == 39 and "2B" not in s.all_cards()
    play_deal(s, random.Random(3))
    assert sum(s.rounds[0]) == 120
    assert sum(len(s.cards(f"won:{p}")) for p in range(3)) == 0  # a new deal began


def test_three_players_may_remove_every_two_instead():
    s, _ = new_match(
        "brisca", "base", 3, seed="three", options={"three_player_removal": "all-twos"}
    )
    assert len(s.all_cards()) == 36 and not [c for c in s.all_cards() if c.startswith("2")]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_brisca_deal_shares_out_120_points(players):
    s, _ = new_match("brisca", "base", players, seed=f"deal{players}")
    rng = random.Random(players)
    while not s.finished:
        play_deal(s, rng)
    assert len(s.rounds) == 4 and all(sum(r) == 120 for r in s.rounds)


def test_match_is_four_deals_with_the_scores_summed():
    s, _ = new_match("brisca", "base", 2, seed="match")
    rng = random.Random(7)
    while not s.finished:
        play_deal(s, rng)
    totals = [sum(r[p] for r in s.rounds) for p in range(2)]
    assert s.result["scores"] == totals and s.result["rounds"] == s.rounds
    best = max(totals)
    assert (
        s.result["winners"] == [p for p in range(2) if totals[p] == best] or totals[0] == totals[1]
    )


def test_the_next_deal_is_led_by_the_winner_of_the_last_trick():
    s, _ = new_match("brisca", "base", 2, seed="lead")
    rng = random.Random(1)
    last = None
    while s.round == 1:
        seat = s.to_act[0]
        events = apply(s, seat, rng.choice(legal_actions(s, seat)))
        last = next((e["seat"] for e in events if e["type"] == "trick_won"), last)
    assert s.to_act == [last] and BriscaData.of(s).dealer == 1 - last


def test_a_later_deal_gives_each_seat_the_same_cards_whoever_leads_it():
    """Rules version 3: two matches of one seed whose first deals were played differently
    (different winners of the last trick, so different leaders) deal the second alike."""
    hands, leaders = [], set()
    for choice in range(8):
        s, _ = new_match("brisca", "base", 2, seed="lead")
        rng = random.Random(choice)
        while s.round == 1:
            seat = s.to_act[0]
            apply(s, seat, rng.choice(legal_actions(s, seat)))
        hands.append([s.cards(f"hand:{p}") for p in range(2)] + [BriscaData.of(s).trump_card])
        leaders.add(s.to_act[0])
    assert leaders == {0, 1}  # both seats led a second deal in some match
    assert all(h == hands[0] for h in hands)


def test_a_tie_is_broken_by_the_higher_score_in_the_last_deal():
    s, _ = new_match("brisca", "base", 2, seed="tie", options={"deals": 2})
    s.rounds, s.scores, s.round = [[109, 11]], [109, 11], 2
    rig(s, {"hand:0": ["1O"], "hand:1": ["2O"], "trump": []}, spill="won:1")
    s.zones["won:1"].cards.extend(s.zones["stock"].cards)  # seat 1 took every other card
    s.zones["stock"].cards.clear()
    s.to_act = [0]
    play(s, 0, "1O")
    play(s, 1, "2O")  # deal 2: seat 0 takes 11, seat 1 holds 109 -> totals 120 : 120
    assert s.finished and s.result["scores"] == [120, 120]
    assert s.result["winners"] == [1]


# -- Tute -----------------------------------------------------------------------------
def test_tute_deals_six_cards_and_counts_aces_and_threes_as_ten():
    s, _ = new_match("brisca", "tute", 2, seed="tute")
    assert all(len(s.cards(f"hand:{p}")) == 6 for p in range(2))
    rng = random.Random(2)
    while not s.finished:
        seat = s.to_act[0]
        apply(s, seat, rng.choice(legal_actions(s, seat)))
    for r in s.rounds:  # 80 in A and 3, 10 for the last trick, plus the cantes sung
        assert sum(r) >= 90 and (sum(r) - 90) % 20 == 0


def sung_after_a_trick() -> tuple[State, list[dict]]:
    layout = {"hand:0": ["12O", "11O", "1C", "4E", "5E", "6E"], "hand:1": ["2C", "3E", "7E", "4B", "5B", "6B"],
              "trump": ["3B"]}  # fmt: skip
    s = deal("tute", layout=layout)
    assert not [a for a in legal_actions(s, 0) if a["type"] == "sing"]  # not at the start
    play(s, 0, "1C")
    play(s, 1, "2C")  # seat 0 wins the trick
    assert {"type": "sing", "suit": "O"} in legal_actions(s, 0)
    return s, apply(s, 0, {"type": "sing", "suit": "O"})


def test_cante_only_right_after_winning_a_trick():
    s, events = sung_after_a_trick()
    assert events[0]["points"] == 20 and events[0]["shown"] == ["12O", "11O"]
    assert not [a for a in legal_actions(s, 0) if a["type"] == "sing"]  # one cante per trick


def test_cante_in_trumps_is_worth_40():
    layout = {"hand:0": ["12B", "11B", "1C", "4E", "5E", "6E"], "hand:1": ["2C", "3E", "7E", "4O", "5O", "6O"],
              "trump": ["3B"]}  # fmt: skip
    s = deal("tute", layout=layout)
    play(s, 0, "1C")
    play(s, 1, "2C")
    assert apply(s, 0, {"type": "sing", "suit": "B"})[0]["points"] == 40


def test_the_chance_to_sing_passes_once_the_winner_leads():
    layout = {"hand:0": ["12O", "11O", "1C", "4E", "5E", "6E"], "hand:1": ["2C", "3E", "7E", "4B", "5B", "6B"],
              "trump": ["3B"]}  # fmt: skip
    s = deal("tute", layout=layout)
    play(s, 0, "1C")
    play(s, 1, "2C")
    play(s, 0, "4E")
    with pytest.raises(IllegalAction):
        apply(s, 0, {"type": "sing", "suit": "O"})


def test_last_trick_is_worth_ten_in_tute():
    s = deal("tute", layout={"hand:0": ["4O"], "hand:1": ["5O"], "trump": []}, leader=0)
    s.zones["won:1"].cards.extend(s.zones["stock"].cards + s.cards("trump"))
    s.zones["stock"].cards.clear()
    s.zones["trump"].cards.clear()
    s.zones["won:1"].cards.extend(s.cards("hand:0")[1:])
    play(s, 0, "4O")
    play(s, 1, "5O")
    assert s.rounds[0] == [0, 90]  # 80 card points + 10 de últimas to the last trick's winner


def test_tute_option_four_kings_take_the_deal():
    layout = {"hand:0": ["12O", "12C", "12E", "12B", "1C", "4E"], "hand:1": ["2C", "3E", "7E", "4B", "5B", "6B"],
              "trump": ["3B"]}  # fmt: skip
    s = deal("tute", options={"tute_wins_deal": True}, layout=layout)
    play(s, 0, "1C")
    play(s, 1, "2C")
    events = apply(s, 0, {"type": "sing", "suit": "tute"})
    assert s.rounds[0] == [90, 0]
    assert next(e for e in events if e["type"] == "deal_ended")["tute"] == 0
    check_state(s)


# -- Tute en parejas ----------------------------------------------------------------------
def test_tute_parejas_deals_all_forty_cards_and_shows_the_last_card_dealt_as_trump():
    """By place (rules version 3) the last card dealt is the last seat's; by turn from the
    leader (version 2) it was the dealer's."""
    for seed in ("parejas", "parejas-2", "parejas-3"):
        old, _ = new_match("brisca", "tute-parejas", 4, seed=seed, rules_version=2)
        dealer = BriscaData.of(old).dealer
        assert BriscaData.of(old).trump_card == old.cards(f"hand:{dealer}")[-1]
        by_place, _ = new_match("brisca", "tute-parejas", 4, seed=seed)
        assert BriscaData.of(by_place).trump_card == by_place.cards("hand:3")[-1]
    s, _ = new_match("brisca", "tute-parejas", 4, seed="parejas")
    assert all(len(s.cards(f"hand:{p}")) == 10 for p in range(4))
    assert not s.cards("stock") and not s.cards("trump")
    assert view(s, None)["trump_card"] == BriscaData.of(s).trump_card and s.teams == [
        [0, 2],
        [1, 3],
    ]


def test_tute_parejas_arrastre_applies_from_the_first_trick():
    s, _ = new_match("brisca", "tute-parejas", 4, seed="parejas")
    leader = s.to_act[0]
    led = s.cards(f"hand:{leader}")[0]
    play(s, leader, led)
    nxt = s.to_act[0]
    same = [c for c in s.cards(f"hand:{nxt}") if c[-1] == led[-1]]
    if same:
        assert cards_of(legal_actions(s, nxt)) == sorted(same)


def pareja_deal(rey: int, caballo: int, rules_version: int | None = None):
    """Tute en parejas (seed "claim") with the rey de oros in seat ``rey``'s hand and the
    caballo in seat ``caballo``'s, the other cards dealt as they came; oros are not trumps.
    Seat ``rey`` leads."""
    s, _ = new_match("brisca", "tute-parejas", 4, seed="claim", rules_version=rules_version)
    hands = [list(s.cards(f"hand:{p}")) for p in range(4)]
    pool = iter(c for h in hands for c in h if c not in ("12O", "11O"))
    held = {rey: "12O", caballo: "11O"}
    layout = {
        f"hand:{p}": ([held[p]] if p in held else [])
        + [next(pool) for _ in range(10 - (p in held))]
        for p in (rey, caballo, *(p for p in range(4) if p not in held))
    }
    rig(s, layout, spill="won:0")
    s.to_act = [rey]
    BriscaData.of(s).trump = "B" if BriscaData.of(s).trump == "O" else BriscaData.of(s).trump
    return s


def claimed_pareja():
    """Seat 0 leads the rey de oros; seat 2, its partner, holding the caballo, claims the pareja."""
    s = pareja_deal(rey=0, caballo=2)
    play(s, 0, "12O")
    seat = s.to_act[0]
    play(s, seat, cards_of(legal_actions(s, seat))[0])
    assert {"type": "claim", "suit": "O"} in legal_actions(s, 2)
    return s, apply(s, 2, {"type": "claim", "suit": "O"})


#: The event types random matches rarely show, from rigged deals (the shared suite checks that
#: every declared event type is met: tests/test_event_types.py).
EVENT_SCENARIOS = {
    "claimed": lambda: claimed_pareja()[1],
    "sang": lambda: sung_after_a_trick()[1],
}


def test_partner_may_claim_the_pareja_when_a_rey_or_caballo_is_played():
    s, events = claimed_pareja()
    assert events == [{"type": "claimed", "seat": 2, "suit": "O", "points": 20}]
    assert not [a for a in legal_actions(s, 2) if a["type"] == "claim"]


def test_partners_share_their_points():
    s, _ = new_match("brisca", "tute-parejas", 4, seed="share")
    rng = random.Random(4)
    while not s.finished:
        seat = s.to_act[0]
        apply(s, seat, rng.choice(legal_actions(s, seat)))
    for r in s.rounds:
        assert r[0] == r[2] and r[1] == r[3]
    assert s.result["winners"] in ([0, 2], [1, 3], [0, 1, 2, 3])


def test_brisca_partnership_option_with_four_players():
    s, _ = new_match("brisca", "base", 4, seed="teams", options={"partnerships": True})
    assert s.teams == [[0, 2], [1, 3]]
    rng = random.Random(5)
    while not s.finished:
        seat = s.to_act[0]
        apply(s, seat, rng.choice(legal_actions(s, seat)))
    assert all(r[0] + r[1] == 120 and r[0] == r[2] for r in s.rounds)


# -- refusals -------------------------------------------------------------------------------
def refused(state, seat, action, reason):
    before = state.to_json()
    with pytest.raises(IllegalAction, match=reason):
        apply(state, seat, action)
    assert state.to_json() == before


def test_bad_actions_are_refused_with_a_reason_and_change_nothing():
    s = deal(layout={"hand:0": ["1O", "4C", "5C"], "hand:1": ["2B", "6C", "7C"], "trump": ["3B"]})
    refused(s, 0, {"type": "dance"}, "unknown action type 'dance'; brisca has actions play")
    refused(s, 0, {"type": "play"}, "play needs the field 'card'")
    refused(s, 0, {"type": "play", "card": "2B"}, "card 2B is not in your hand")
    refused(
        s, 0, {"type": "sing", "suit": "X"}, r"suit must be one of \['O', 'C', 'E', 'B', 'tute'\]"
    )
    refused(s, 0, {"type": "sing", "suit": "O"}, "without cantes")
    refused(s, 0, {"type": "claim", "suit": "O"}, "after your partner plays")


def test_a_cante_needs_the_rey_and_the_caballo_in_hand():
    layout = {"hand:0": ["12O", "11C", "1C", "4E", "5E", "6E"], "hand:1": ["2C", "3E", "7E", "4B", "5B", "6B"],
              "trump": ["3B"]}  # fmt: skip
    s = deal("tute", layout=layout)
    refused(s, 0, {"type": "sing", "suit": "O"}, "right after winning a trick")
    play(s, 0, "1C")
    play(s, 1, "2C")
    refused(s, 0, {"type": "sing", "suit": "O"}, "needs the king and the knight of coins")
    refused(s, 0, {"type": "sing", "suit": "tute"}, "only with option tute_wins_deal")


# -- rules version 2: a claim needs the pareja's other card --------------------------------
def claim_after_the_other_card_is_played(rules_version=None):
    """Seat 2 plays the rey de oros and seat 3 the caballo: seat 0, partner of seat 2, holds
    neither."""
    s = pareja_deal(rey=2, caballo=3, rules_version=rules_version)
    play(s, 2, "12O")
    play(s, 3, "11O")
    assert s.to_act == [0]
    return s


def test_tute_en_parejas_a_partner_claims_a_pareja_only_holding_its_other_card():
    s = claim_after_the_other_card_is_played()
    assert "claim_needs_pair" in s.options
    assert not [a for a in legal_actions(s, 0) if a["type"] == "claim"]
    refused(
        s,
        0,
        {"type": "claim", "suit": "O"},
        r"needs the pareja's other card \(king or knight\) in your hand",
    )


def test_tute_en_parejas_a_match_of_rules_version_1_claims_without_the_other_card():
    s = claim_after_the_other_card_is_played(rules_version=1)
    assert "claim_needs_pair" not in s.options  # the option did not exist: same states, same hashes
    assert {"type": "claim", "suit": "O"} in legal_actions(s, 0)
    events = apply(s, 0, {"type": "claim", "suit": "O"})
    assert events == [{"type": "claimed", "seat": 0, "suit": "O", "points": 20}]


# -- the one-call listing ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("base", 2, None),
        ("base", 3, None),
        ("tute", 2, {"tute_wins_deal": True}),
        ("tute-parejas", 4, {"arrastre": "montar"}),
    ],
)
def test_the_listing_in_one_call_is_the_action_tables_listing(variant, players, options):
    """Brisca lists its four action types in one call, calling a type's own listing only when
    its first condition holds; that is exactly what the action table's listing gives (each
    type's own, which the shared suite checks against the refusals)."""
    game = get_game("brisca")
    for seed in range(12):
        s, _ = new_match("brisca", variant, players, f"one-call {seed}", options)
        rng = random.Random(seed)
        while not s.finished:
            seat = s.to_act[0]
            listed = legal_actions(s, seat)
            assert listed == Game.legal_actions(game, s, seat)
            apply(s, seat, rng.choice(listed))
