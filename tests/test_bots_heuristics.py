"""The games' playout heuristics on rigged positions, and what the search learns per game."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from shared.bots import chinchon, raj, truco
from shared.bots.search import Budget, profile, rewards, search
from shared.engine import apply, get_game, legal_actions, new_match, rank, view
from shared.engine.kit.zones import hand
from shared.games import e_card
from shared.games.chinchon import Chinchon


def truco_envido_called(answer_cards: list[str]) -> tuple:
    """A Truco hand where seat 0 called envido and seat 1 (holding ``answer_cards``) answers."""
    state, _ = new_match("truco", "base", 2, seed="t1")
    caller = state.to_act[0]
    answerer = 1 - caller
    calling = ["1O", "2C", "5B"]  # no flor: the envido may be called
    held = state.cards(hand(caller)) + state.cards(hand(answerer)) + state.cards("deck")
    others = [c for c in held if c not in answer_cards + calling]
    state.zones[hand(caller)].cards = list(calling)
    state.zones[hand(answerer)].cards = list(answer_cards)
    state.zones["deck"].cards = others[: len(state.zones["deck"].cards)]
    apply(state, caller, {"type": "call", "call": "envido"})
    return state, answerer


@pytest.mark.parametrize(
    ("cards", "answer"),
    [(["6E", "7E", "4B"], "quiero"), (["12E", "11E", "4B"], "no-quiero")],
    ids=["33-accepts", "20-declines"],
)
def test_truco_heuristic_answers_an_envido_by_its_points(cards, answer):
    state, seat = truco_envido_called(cards)
    assert state.phase == "envido"
    chosen = truco.pick(state, seat, legal_actions(state, seat), random.Random(0))
    assert chosen == {"type": answer}


def test_truco_heuristic_wins_a_baza_with_its_cheapest_winner():
    state, _ = new_match("truco", "base", 2, seed="t1")
    leader = state.to_act[0]
    other = 1 - leader
    state.zones[hand(leader)].cards = ["3O", "4B", "5B"]
    state.zones[hand(other)].cards = ["1E", "2C", "4C"]
    apply(state, leader, {"type": "play", "card": "3O"})
    plays = [a for a in legal_actions(state, other) if a["type"] == "play"]
    assert truco.pick(state, other, plays, random.Random(0)) == {"type": "play", "card": "1E"}
    state.zones[hand(other)].cards = ["2C", "1O", "4B"]  # nothing beats a 3: the cheapest
    plays = [a for a in legal_actions(state, other) if a["type"] == "play"]
    assert truco.pick(state, other, plays, random.Random(0)) == {"type": "play", "card": "4B"}


def test_truco_heuristic_accepts_a_truco_with_strong_cards_only():
    assert truco.accepts_truco(["1E", "3O", "4B"], bazas_won=0)
    assert truco.accepts_truco(["7O", "4B"], bazas_won=1)
    assert not truco.accepts_truco(["12O", "4B", "5C"], bazas_won=0)


def test_raj_bids_in_proportion_to_the_prize():
    state, _ = new_match("raj", "dos-jugadores", 2, seed="bids")
    cards = state.cards(hand(0))  # ten cards of one suit, three removed unseen
    ordered = sorted(cards, key=rank)
    rng = random.Random(0)
    assert {raj.bid_for(11, cards, rng) for _ in range(30)} <= set(ordered[-2:])
    assert {raj.bid_for(-4, cards, rng) for _ in range(30)} <= set(ordered[:2])
    middling = {ordered.index(raj.bid_for(6, cards, rng)) for _ in range(30)}
    assert middling <= {3, 4, 5, 6}


def test_chinchon_heuristic_keeps_what_groups_and_throws_the_dearest_loner():
    rules = get_game("chinchon").rules_of(new_match("chinchon", "base", 2, seed="c")[0])
    assert isinstance(get_game("chinchon"), Chinchon)
    cards = ["5O", "5C", "5E", "1B", "2B", "3B", "12C", "7E"]
    assert chinchon.discard_for(rules, cards) == "12C"
    assert chinchon.takes_discard(["5O", "5C", "9B"], "5E")
    assert not chinchon.takes_discard(["5O", "12C", "1B"], "7E")


def test_a_rollout_by_the_chinchon_heuristic_closes_a_hand():
    from shared.bots.search import rollout

    for k in range(3):
        state, _ = new_match("chinchon", "base", 2, seed=f"close:{k}")
        rollout(state, random.Random(k), 300, scored=True)
        assert state.rounds, "no hand was scored in 300 actions"


def test_the_profile_of_a_game():
    assert profile("raj", "dos-jugadores", 2).whole  # a short match: playouts go to its end
    brisca = profile("brisca", "base", 2)
    assert (brisca.direction, brisca.whole) == (1, False)
    assert 10 <= brisca.scale <= 120  # a deal's margin, in card points
    assert profile("escoba", "desescoba", 2).direction == -1


def test_a_margin_is_measured_with_the_games_yardstick():
    """With a fixed scale, a hand won by 4 is worth more than one won by 1."""
    state, _ = new_match("truco", "base", 2, seed="r")
    origin = list(state.scores)
    state.scores = [origin[0] + 1, origin[1]]
    by_one = rewards(state, origin, 1, 4.0)
    state.scores = [origin[0] + 4, origin[1]]
    by_four = rewards(state, origin, 1, 4.0)
    assert by_one[0] == pytest.approx(0.625) and by_four[0] == pytest.approx(1.0)
    assert by_one[1] == pytest.approx(0.375) and by_four[1] == pytest.approx(0.0)


def test_the_search_sings_a_pareja_it_is_offered():
    """Tute: singing is free points; the prior of the playouts' heuristic makes it the pick."""
    state, _ = new_match("brisca", "tute", 2, seed="sing")
    seat = state.to_act[0]
    rng = random.Random(3)
    while not any(a["type"] == "sing" for a in legal_actions(state, state.to_act[0])):
        if state.finished:
            pytest.fail("no pareja was offered in this match")
        mover = state.to_act[0]
        apply(state, mover, rng.choice(legal_actions(state, mover)))
    seat = state.to_act[0]
    chosen = search(view(state, seat), random.Random(1), Budget(1000, math.inf))
    assert chosen["type"] == "sing"


def duel_value(mine: tuple[str, ...], theirs: tuple[str, ...], best: bool) -> Fraction:
    """An E-Card duel against a uniformly random opponent: the best (or worst) chance to win
    over every strategy of ours, by the rules' own ``beats`` (two citizens draw and go on)."""
    if not mine:
        return Fraction(0)
    values = []
    for i, card in enumerate(mine):
        total = Fraction(0)
        for j, other in enumerate(theirs):
            if e_card.beats(card, other):
                total += 1
            elif not e_card.beats(other, card):
                rest = (mine[:i] + mine[i + 1 :], theirs[:j] + theirs[j + 1 :])
                total += duel_value(*rest, best)
        values.append(total / len(theirs))
    return max(values) if best else min(values)


def test_e_card_against_random_play_every_strategy_wins_half_the_rounds():
    """Why hard cannot reach 90% against random in E-Card: whatever it plays, the Emperor wins
    4/5 of duels and the Slave 1/5 against a random opponent, and a blind pile choice makes
    either side (or a hand holding both K and A, lost at once) equally likely: ½ a round."""
    emperor = (e_card.EMPEROR, "2S", "3S", "4S", "5S")
    slave = (e_card.SLAVE, "6S", "7S", "8S", "9S")
    for best in (True, False):
        assert duel_value(emperor, slave, best) == Fraction(4, 5)
        assert duel_value(slave, emperor, best) == Fraction(1, 5)
    both = Fraction(2 * math.comb(8, 3), math.comb(10, 5))  # one pile holds K and A
    assert both == Fraction(4, 9)
    per_round = both * Fraction(1, 2) + (1 - both) * (Fraction(4, 5) + Fraction(1, 5)) / 2
    assert per_round == Fraction(1, 2)
