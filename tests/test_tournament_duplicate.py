"""A duplicate tournament's seating and matchpoints (shared/duplicate.py, shared/swiss.py),
worked by hand on fixed rounds."""

from __future__ import annotations

import pytest

from shared import duplicate, swiss
from shared.tournament_log import replay, standings_of

ESCOBA = 2  # Escoba's rules version: each of its deals a fresh deck, alike at every table


def table(
    match: str,
    seats: list[str | None],
    deals: list[list[int]],
    *no_shows: int,
    version: int = ESCOBA,
) -> dict:
    return {"match": match, "seats": seats, "deals": deals, "no_shows": list(no_shows),
            "rules_version": version, "options": {}}  # fmt: skip


def test_each_table_is_turned_by_its_number() -> None:
    assert duplicate.turned([["a", "b"], ["c", "d"], ["e", "f"]]) == [
        ["a", "b"], ["d", "c"], ["e", "f"],
    ]  # fmt: skip
    assert duplicate.turned([["a", "b", "c"], ["d", "e", "f"], ["g", "h", None]]) == [
        ["a", "b", "c"], ["f", "d", "e"], ["h", None, "g"],
    ]  # fmt: skip
    assert duplicate.turned([]) == []


def test_a_duplicate_round_pairs_by_standing_then_turns_the_tables() -> None:
    lines = swiss.standings(["a", "b", "c", "d"], [], {}, duplicate_game="escoba")
    paired = swiss.pair_round(lines, 2, 1, duplicate_round=True)
    assert [t["seats"] for t in paired["tables"]] == [["a", "b"], ["d", "c"]]
    assert [t["seats"] for t in swiss.pair_round(lines, 2, 1)["tables"]] == [
        ["a", "b"], ["c", "d"],
    ]  # fmt: skip


def test_two_tables_each_seat_against_the_same_cards() -> None:
    """Deal 1: seat 0 made 3 (a) and 1 (d), seat 1 made 1 (b) and 3 (c); deal 2 is a tie at
    both seats: a and c beat one table and tie one, b and d tie one only."""
    scored, average = duplicate.matchpoints("escoba", [
        table("m1", ["a", "b"], [[3, 1], [2, 2]]),
        table("m2", ["d", "c"], [[1, 3], [2, 2]]),
    ])  # fmt: skip
    assert scored == {"a": 1.5, "b": 0.5, "c": 1.5, "d": 0.5}
    assert average == 1.0  # two deals, one other table: half a matchpoint a deal


def test_four_tables_rank_each_seat_over_the_four_who_held_it() -> None:
    """One deal. Seat 0: 5, 3, 3, 1 (p1 beats three; p4 and p5 beat one, tie one); seat 1:
    0, 2, 4, 2 (p6 beats three; p3 and p7 beat one, tie one)."""
    scored, average = duplicate.matchpoints("escoba", [
        table("m1", ["p1", "p2"], [[5, 0]]),
        table("m2", ["p4", "p3"], [[3, 2]]),
        table("m3", ["p5", "p6"], [[3, 4]]),
        table("m4", ["p8", "p7"], [[1, 2]]),
    ])  # fmt: skip
    assert scored == {
        "p1": 3.0, "p2": 0.0, "p3": 1.5, "p4": 1.5, "p5": 1.5, "p6": 3.0, "p7": 1.5, "p8": 0.0,
    }  # fmt: skip
    assert average == 1.5 and sum(scored.values()) == 8 * average


def test_ties_everywhere_score_the_average() -> None:
    scored, average = duplicate.matchpoints("escoba", [
        table(f"m{t}", [f"x{t}", f"y{t}"], [[2, 2], [1, 0]]) for t in range(3)
    ])  # fmt: skip
    assert set(scored.values()) == {average} == {2.0}


def test_only_deals_dealt_alike_count_a_no_show_scores_none_a_filler_nobody() -> None:
    """Under Brisca's rules version 2 the later deals differ from table to table: its first
    deal alone is compared."""
    scored, average = duplicate.matchpoints("brisca", [
        table("m1", ["a", None], [[50, 70], [0, 120]], version=2),
        table("m2", ["d", "c"], [[60, 60], [120, 0]], 1, version=2),
    ])  # fmt: skip
    assert average == 0.5
    assert scored == {"a": 0.0, "d": 1.0, "c": 0.0}  # c beat the filler, but was a no-show


def test_every_deal_counts_under_rules_that_deal_each_alike() -> None:
    """Brisca's rules version 3 deals each deal from (seed, deal number): both deals count;
    the same round asking for the old chance (deals_by_number off) compares the first only."""
    tables = [
        table("m1", ["a", "b"], [[50, 70], [0, 120]], version=3),
        table("m2", ["d", "c"], [[60, 60], [120, 0]], version=3),
    ]
    scored, average = duplicate.matchpoints("brisca", tables)
    assert average == 1.0  # two deals, one other table
    # seat 0's cards: d beat a in both deals; seat 1's: b beat c in both
    assert scored == {"a": 0.0, "b": 2.0, "c": 0.0, "d": 2.0}
    off = [{**t, "options": {"deals_by_number": False}} for t in tables]
    assert duplicate.matchpoints("brisca", off)[1] == 0.5


def round_of(*tables: dict, byes: tuple[str, ...] = (), group: bool = True) -> tuple[dict, dict]:
    paired = {
        "round": 1, "byes": list(byes), "group": {"id": "g1", "seed_sha256": "0" * 64} if group
        else None, "tables": [{"table": n, "match": t["match"], "seats": t["seats"]}
                              for n, t in enumerate(tables, 1)],
    }  # fmt: skip
    results = {
        t["match"]: {"winners": t["winners"], "no_shows": [], "deals": t["deals"],
                     "rules_version": ESCOBA, "options": {}}
        for t in tables
    }  # fmt: skip
    return paired, results


def test_the_standings_rank_by_matchpoints_then_buchholz() -> None:
    """a wins 6-2, c wins 3-1. Matchpoints: a 2 (beat d twice), b 1, c 1, d 0: b, who lost,
    ranks above c, who won, on Buchholz (b met a: 2; c met d: 0)."""
    paired, results = round_of(
        {"match": "m1", "seats": ["a", "b"], "deals": [[3, 1], [3, 1]], "winners": [0]},
        {"match": "m2", "seats": ["d", "c"], "deals": [[1, 3], [0, 0]], "winners": [1]},
    )
    lines = swiss.standings(["a", "b", "c", "d"], [paired], results, duplicate_game="escoba")
    assert [(s.entrant, s.matchpoints, s.buchholz, s.points) for s in lines] == [
        ("a", 2.0, 1.0, 1.0), ("b", 1.0, 2.0, 0.0), ("c", 1.0, 0.0, 1.0), ("d", 0.0, 1.0, 0.0),
    ]  # fmt: skip
    plain = swiss.standings(["a", "b", "c", "d"], [paired], results)
    assert [s.entrant for s in plain] == ["a", "c", "b", "d"]
    assert all(s.matchpoints is None for s in plain)
    # the next round pairs by that order: a-b have met, so a-c and b-d
    assert [t["seats"] for t in swiss.pair_round(lines, 2, 2, True)["tables"]] == [
        ["c", "a"], ["b", "d"],
    ]  # fmt: skip


def test_a_bye_scores_the_average_and_a_round_counts_once_finished() -> None:
    paired, results = round_of(
        {"match": "m1", "seats": ["a", "b"], "deals": [[3, 1], [3, 1]], "winners": [0]},
        {"match": "m2", "seats": ["d", "c"], "deals": [[1, 3], [0, 0]], "winners": [1]},
        byes=("e",),
    )
    scored = swiss.round_matchpoints("escoba", paired, results)
    assert scored == {"a": 2.0, "b": 1.0, "c": 1.0, "d": 0.0, "e": 1.0}
    assert swiss.round_matchpoints("escoba", paired, {"m1": results["m1"]}) is None
    assert swiss.round_matchpoints(None, paired, results) is None
    assert swiss.round_matchpoints("escoba", {**paired, "group": None}, results) is None
    lines = swiss.standings(list("abcde"), [paired], {"m1": results["m1"]}, (), "escoba")
    assert {s.entrant: s.matchpoints for s in lines} == dict.fromkeys("abcde", 0.0)


@pytest.mark.parametrize("duplicate_flag", [True, False])
def test_the_log_says_how_the_standings_rank(duplicate_flag: bool) -> None:
    setup = {"id": "t", "name": "T", "game": "escoba", "duplicate": duplicate_flag}
    paired, results = round_of(
        {"match": "m1", "seats": ["a", "b"], "deals": [[3, 1], [3, 1]], "winners": [0]},
        {"match": "m2", "seats": ["d", "c"], "deals": [[1, 3], [0, 0]], "winners": [1]},
    )
    entries = [{"version": 1, "kind": "tournament.created", "tournament": setup}]
    for n, name in enumerate("abcd", 2):
        entrant = {"id": name, "name": name.upper(), "bot": "random"}
        entries.append({"version": n, "kind": "tournament.registered", "entrant": entrant})
    entries.append({"version": 6, "kind": "round.paired", "paired": paired, "rounds": 2})
    doc = replay(entries)
    assert doc is not None
    ranked = [line["entrant"] for line in standings_of(doc, results)]
    assert ranked == (["a", "b", "c", "d"] if duplicate_flag else ["a", "c", "b", "d"])
