"""Duplicate deals without a process (shared/duplicate.py): for every game, variant and seat
count of the catalog, two tables dealt from one group seed hold the same cards at the same
seat, so rotating the entrants over the seats hands each of them every seat's cards; the
later deals of the games that deal each one alike; the rotation itself; and the deal-by-deal
comparison."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.duplicate import EVERY_DEAL_ALIKE, comparison, deals_of, rotated
from shared.engine import apply, new_match, seeds, view
from shared.engine.state import State
from shared.verify import seed_withheld
from tests.playouts import choose, variant_cases

GROUP_SEED = "ab" * 32  # a group's server seed, as secrets.token_hex(32) draws one


def cards_of(state: State, seat: int) -> dict[str, list[str]]:
    """Every zone the seat owns, by name, with its cards in order."""
    return {name: list(z.cards) for name, z in state.zones.items() if z.owner == seat}


@pytest.mark.parametrize(
    "case", variant_cases(all_counts=True), ids=lambda c: "/".join(map(str, c))
)
def test_two_tables_of_a_group_are_dealt_the_same_cards_by_seat(case: tuple[str, str, int]):
    game, variant, players = case
    deal_seed = seeds.deal_seed(seeds.SERVER_ONLY, GROUP_SEED)  # a duplicate table's scheme
    (first, dealt), (second, dealt_again) = (
        new_match(game, variant, players, deal_seed) for _ in range(2)
    )
    assert dealt == dealt_again  # the deal's events, each seat's private cards included
    assert first.to_json() == second.to_json()  # the whole deal, stock and table included
    for seat in range(players):
        assert cards_of(first, seat) == cards_of(second, seat)
        assert view(first, seat) == view(second, seat)
    seating = rotated(players, 2)
    for entrant in range(players):  # the rotated entrant holds, at table 1, the cards the
        seat = seating[1].index(entrant)  # entrant at that seat held at table 0
        assert cards_of(second, seat) == cards_of(first, seat)
        assert seating[0][seat] == (entrant + 1) % players or players == 1


def test_as_many_tables_as_seats_hand_every_entrant_every_seat_once():
    for players in range(1, 7):
        seating = rotated(players, players)
        for entrant in range(players):
            assert sorted(table.index(entrant) for table in seating) == list(range(players))
    assert rotated(2, 2) == [[0, 1], [1, 0]]  # the classic pair: the seats swapped


def table(match: str, entrants: list[int], result: dict[str, Any] | None) -> dict[str, Any]:
    seats = [{"seat": s, "name": f"p{e}", "bot": "easy"} for s, e in enumerate(entrants)]
    return {"match": match, "entrants": entrants, "seats": seats, "result": result}


def test_the_comparison_sets_each_seats_cards_side_by_side_deal_by_deal():
    tables = [
        table("m0", [0, 1], {"scores": [9, 4], "rounds": [[5, 1], [4, 3]]}),
        table("m1", [1, 0], {"scores": [12, 6], "rounds": [[3, 3], [2, 2], [7, 1]]}),
    ]
    out = comparison("escoba", tables)
    assert out["compared_deals"] == 2 and out["deals_played"] == [2, 3]
    first_seat = out["deals"][0]["seats"][0]
    assert [(c["entrant"], c["points"]) for c in first_seat["tables"]] == [(0, 5), (1, 3)]
    assert first_seat["spread"] == 2
    assert [d["same_cards"] for d in out["deals"]] == [True, True]
    assert [d["same_cards"] for d in comparison("truco", tables)["deals"]] == [True, False]
    # entrant 0: 5 + 4 at seat 0 of m0, then 3 + 2 at seat 1 of m1; entrant 1 the rest
    assert out["entrants"] == [{"entrant": 0, "points": 14}, {"entrant": 1, "points": 9}]


def test_a_game_of_one_deal_a_match_is_compared_by_its_final_scores():
    assert deals_of({"scores": [1, 0], "rounds": []}) == [[1, 0]]
    assert deals_of(None) == []
    out = comparison(
        "raj", [table("m0", [0, 1], {"scores": [1, 0]}), table("m1", [1, 0], {"scores": [0, 1]})]
    )
    assert out["compared_deals"] == 1
    assert out["entrants"] == [{"entrant": 0, "points": 2}, {"entrant": 1, "points": 0}]


def test_a_finished_duplicate_table_withholds_its_seed_until_its_reveal():
    created = {"version": 1, "kind": "match.created", "match": {"duplicate": {"group": "g"}}}
    finished = {"version": 2, "kind": "action", "finished": True}
    revealed = {"version": 3, "kind": "seed.revealed", "seed": GROUP_SEED}
    assert not seed_withheld([created])
    assert seed_withheld([created, finished])
    assert not seed_withheld([created, finished, revealed])
    plain = {**created, "match": {}}
    assert not seed_withheld([plain, finished])


def deals_dealt(game: str, seed: str, choices: int) -> list[dict[str, list[str]]]:
    """Each seat's cards at the start of each deal of a random match (``choices`` seeds its
    moves), the rules' score sheet counting the deals."""
    state, _ = new_match(game, "base", None, seed)
    rng = random.Random(choices)
    dealt = [{n: list(z.cards) for n, z in state.zones.items() if z.owner is not None}]
    while not state.finished:
        seat, action = choose(state, rng)
        before = len(state.rounds)
        apply(state, seat, action)
        if len(state.rounds) != before and not state.finished:
            dealt.append({n: list(z.cards) for n, z in state.zones.items() if z.owner is not None})
    return dealt


@pytest.mark.parametrize("game", sorted(EVERY_DEAL_ALIKE))
def test_later_deals_are_the_same_however_the_tables_played_the_deals_before(game: str):
    deal_seed = seeds.deal_seed(seeds.SERVER_ONLY, GROUP_SEED)
    first, second = deals_dealt(game, deal_seed, 1), deals_dealt(game, deal_seed, 2)
    both = min(len(first), len(second))
    assert both >= 2, f"{game}: a single deal played, nothing to compare"
    assert first[:both] == second[:both]
