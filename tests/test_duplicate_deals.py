"""Duplicate deals without a process (shared/duplicate.py): for every game, variant and seat
count of the catalog, two tables dealt from one group seed hold the same cards at the same
seat, so rotating the entrants over the seats hands each of them every seat's cards; the
later deals of the games that deal each one alike; the rotation itself; and the deal-by-deal
comparison."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.duplicate import comparison, deals_of, every_deal_alike, rotated
from shared.engine import apply, get_game, new_match, seeds, view
from shared.engine.state import DEALS_BY_NUMBER, HIDDEN, State
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


def table(
    match: str, entrants: list[int], result: dict[str, Any] | None, rules_version: int = 1
) -> dict[str, Any]:
    seats = [{"seat": s, "name": f"p{e}", "bot": "easy"} for s, e in enumerate(entrants)]
    return {
        "match": match, "entrants": entrants, "seats": seats, "result": result,
        "rules_version": rules_version,
    }  # fmt: skip


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
    assert [d["same_cards"] for d in out["deals"]] == [True, True]  # a fresh deck each deal
    assert [d["same_cards"] for d in comparison("truco", tables)["deals"]] == [True, False]
    # entrant 0: 5 + 4 at seat 0 of m0, then 3 + 2 at seat 1 of m1; entrant 1 the rest
    assert out["entrants"] == [{"entrant": 0, "points": 14}, {"entrant": 1, "points": 9}]


def test_later_deals_are_alike_from_the_rules_version_that_draws_chance_deal_by_deal():
    """``same_cards`` past the first deal from the tables' recorded rules versions: a group
    made before Truco's version 2 (or with a table dealt under it) keeps only its first."""

    def sheet(entrants: list[int], version: int) -> dict[str, Any]:
        return table("m", entrants, {"scores": [2, 1], "rounds": [[1, 0], [1, 1]]}, version)

    def alike(*versions: int, options: dict | None = None) -> list[bool]:
        tables = [sheet([t % 2, (t + 1) % 2], v) for t, v in enumerate(versions)]
        return [d["same_cards"] for d in comparison("truco", tables, options)["deals"]]

    assert alike(2, 2) == [True, True]
    assert alike(1, 1) == [True, False]  # recorded before the change
    assert alike(1, 2) == [True, False]
    assert alike(2, 2, options={DEALS_BY_NUMBER: False}) == [True, False]  # the old way asked
    assert alike(2, 2, options={DEALS_BY_NUMBER: True}) == [True, True]
    undealt = {**sheet([0, 1], 2), "rules_version": None}
    assert [d["same_cards"] for d in comparison("truco", [undealt, sheet([1, 0], 2)])["deals"]] == [
        True,
        False,
    ]
    assert every_deal_alike("escoba", {"rules_version": 1}, {})  # a fresh deck, no draw in play
    assert not every_deal_alike("palacio", {"rules_version": 1}, {})


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


MOVES = 300  # a playout's cap: several deals of every game that has them, a few seconds in all


def dealing(events: list[dict], opening: set[str]) -> list[dict]:
    """A deal's events: from its opening (the last event of the type the match's setup began
    with) on, of the types the setup emitted (so not what play does right after, such as the
    exchanges of Presidente), each with its cards (or dice) and the seat it names."""
    kinds = [e["type"] for e in events]
    first = max((i for i, kind in enumerate(kinds) if kind in opening), default=len(events))
    return [
        {k: v for k, v in e.items() if k in ("type", "seat") or "card" in k or "dice" in k}
        for e in events[first:]
    ]


def hidden(state: State) -> dict[str, list[str]]:
    """The cards nobody sees, zone by zone in order: the stock, sealed piles."""
    return {n: list(z.cards) for n, z in state.zones.items() if z.visibility == HIDDEN}


Deal = tuple[dict[int, list[str]], list[dict], dict[str, list[str]]]


def deals_of_a_playout(game: str, variant: str, players: int, choices: int) -> list[Deal]:
    """Each deal of a random match dealt from the group seed (``choices`` seeds its moves), the
    rules' score sheet counting the deals: each seat's hand (the cards of its first ``dealt``
    event), every other card the deal shows (turned up, the house's, cards beyond a hand) and
    the hidden cards once it is dealt."""
    deal_seed = seeds.deal_seed(seeds.SERVER_ONLY, GROUP_SEED)
    state, events = new_match(game, variant, players, deal_seed)
    opening, kinds = {events[0]["type"]}, {e["type"] for e in events}
    rng = random.Random(choices)
    deals = [([e for e in dealing(events, opening) if e["type"] in kinds], hidden(state))]
    for _ in range(MOVES):
        if state.finished:
            break
        seat, action = choose(state, rng)
        before = len(state.rounds)
        events = apply(state, seat, action)
        if len(state.rounds) != before and not state.finished:
            deals.append(
                ([e for e in dealing(events, opening) if e["type"] in kinds], hidden(state))
            )
    out = []
    for deal, unseen in deals:
        hands: dict[int, list[str]] = {}
        shown = []
        for event in deal:
            if event["type"] == "dealt" and "seat" in event and event["seat"] not in hands:
                hands[event["seat"]] = event["cards"]
            else:
                shown.append({k: v for k, v in event.items() if k != "seat"})
        out.append((hands, shown, unseen))
    return out


@pytest.mark.parametrize(
    "case", variant_cases(all_counts=True), ids=lambda c: "/".join(map(str, c))
)
def test_every_deal_two_tables_reach_is_dealt_the_same_however_they_played(
    case: tuple[str, str, int],
):
    """Two tables of a group, played at random with other choices: every deal both reach
    deals each seat the same hand and shows the same other cards, whatever was played before
    it, and the hidden cards (stock, piles) are the same too. A seat the rules leave out of a
    deal at one table (eliminated, out of chips) is not compared, and the other seats' cards
    do not move for it (``deal_by_place``); its own cards then lie under the stock."""
    game, variant, players = case
    first, second = (deals_of_a_playout(game, variant, players, c) for c in (1, 2))
    for number, (one, other) in enumerate(zip(first, second, strict=False), start=1):
        (hands, shown, unseen), (hands_again, shown_again, unseen_again) = one, other
        both = hands.keys() & hands_again.keys()
        assert both or not (hands or hands_again), f"deal {number}: no seat dealt at both"
        assert {s: hands[s] for s in both} == {s: hands_again[s] for s in both}, number
        assert shown == shown_again, f"deal {number}"
        if hands.keys() == hands_again.keys():
            assert unseen == unseen_again, f"deal {number}"
    assert get_game(game).deals_alike(get_game(game).rules_version) or len(first) == 1
