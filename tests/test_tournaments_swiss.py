"""Tournament pairings and standings (shared/swiss.py), on fixed inputs."""

from __future__ import annotations

import itertools
import random

import pytest

from shared import swiss
from shared.tournament_log import fold, replay


def won(*seats: int) -> dict:
    """A finished match's outcome: its winning seats, nobody absent."""
    return {"winners": list(seats), "no_shows": []}


def play_rounds(entrants: list[str], rounds: int, seed: int) -> tuple[list[dict], dict]:
    """Pair and play ``rounds`` Swiss rounds with random winners: (the rounds, the results)."""
    rng, log, results = random.Random(seed), [], {}
    for number in range(1, rounds + 1):
        lines = swiss.standings(entrants, log, results)
        paired = swiss.pair_round(lines, 2, number)
        for table in paired["tables"]:
            table["match"] = f"r{number}t{table['table']}"
            results[table["match"]] = won(rng.randrange(2))
        log.append(paired)
    return log, results


def meetings(log: list[dict]) -> list[frozenset[str]]:
    return [frozenset(t["seats"]) for paired in log for t in paired["tables"]]


def test_sixteen_players_four_rounds_never_meet_twice() -> None:
    entrants = [f"p{i:02}" for i in range(16)]
    for seed in range(30):
        log, results = play_rounds(entrants, 4, seed)
        met = meetings(log)
        assert len(met) == len(set(met)) == 32
        lines = swiss.standings(entrants, log, results)
        assert sum(line.points for line in lines) == 32
        assert all(line.played == 4 for line in lines)


def test_round_one_pairs_by_registration_and_alternates_seats() -> None:
    lines = swiss.standings(["a", "b", "c", "d"], [], {})
    assert swiss.pair_round(lines, 2, 1)["tables"] == [
        {"table": 1, "seats": ["a", "b"]},
        {"table": 2, "seats": ["c", "d"]},
    ]
    assert swiss.pair_round(lines, 2, 2)["tables"][0]["seats"] == ["b", "a"]


def test_score_groups_meet_first() -> None:
    rounds = [
        {"tables": [{"match": "m1", "seats": ["a", "b"]}, {"match": "m2", "seats": ["c", "d"]}]}
    ]
    lines = swiss.standings(["a", "b", "c", "d"], rounds, {"m1": won(0), "m2": won(0)})
    assert [line.entrant for line in lines] == ["a", "c", "b", "d"]
    assert swiss.swiss_pairs(lines) == ([("a", "c"), ("b", "d")], None)


def test_a_repeat_is_avoided_across_score_groups() -> None:
    """a and b both won and already met: each meets someone of the other group instead."""
    rounds = [
        {"tables": [{"match": "m1", "seats": ["a", "c"]}, {"match": "m2", "seats": ["b", "d"]}]},
        {"tables": [{"match": "m3", "seats": ["a", "b"]}, {"match": "m4", "seats": ["c", "d"]}]},
    ]
    lines = swiss.standings(
        ["a", "b", "c", "d"], rounds, {"m1": won(0), "m2": won(0), "m3": won(), "m4": won()}
    )
    pairs, bye = swiss.swiss_pairs(lines)
    assert bye is None
    assert {frozenset(p) for p in pairs} == {frozenset("ad"), frozenset("bc")}


def test_repeats_only_when_unavoidable() -> None:
    """Three rounds of four players use up every pairing: a fourth must repeat, and does."""
    entrants = ["a", "b", "c", "d"]
    log, results = play_rounds(entrants, 3, seed=1)
    assert len(set(meetings(log))) == 6
    pairs, _ = swiss.swiss_pairs(swiss.standings(entrants, log, results))
    assert len(pairs) == 2


def test_odd_count_bye_goes_to_the_lowest_without_one_and_scores_a_win() -> None:
    entrants = ["a", "b", "c", "d", "e"]
    first = swiss.pair_round(swiss.standings(entrants, [], {}), 2, 1)
    assert first["byes"] == ["e"]
    log, results = [first], {}
    for table in first["tables"]:
        table["match"] = f"m{table['table']}"
        results[table["match"]] = won(0)
    lines = swiss.standings(entrants, log, results)
    assert next(line for line in lines if line.entrant == "e").points == swiss.BYE
    second = swiss.pair_round(lines, 2, 2)
    assert second["byes"] and second["byes"] != ["e"]
    byes = [b for r in play_rounds(entrants, 5, seed=3)[0] for b in r["byes"]]
    assert sorted(byes) == entrants  # five rounds, five players: each sits out once


def test_withdrawn_are_not_paired_but_keep_their_line() -> None:
    lines = swiss.standings(["a", "b", "c"], [], {}, withdrawn=["b"])
    assert swiss.swiss_pairs(lines) == ([("a", "c")], None)
    assert [line.entrant for line in lines] == ["a", "b", "c"]


def test_draws_and_buchholz() -> None:
    rounds = [
        {"tables": [{"match": "m1", "seats": ["a", "b"]}, {"match": "m2", "seats": ["c", "d"]}]}
    ]
    lines = swiss.standings(["a", "b", "c", "d"], rounds, {"m1": won(0, 1), "m2": won(1)})
    by = {line.entrant: line for line in lines}
    assert (by["a"].points, by["b"].points, by["d"].points, by["c"].points) == (0.5, 0.5, 1, 0)
    assert by["c"].buchholz == 1 and by["d"].buchholz == 0
    assert [line.entrant for line in lines] == ["d", "a", "b", "c"]


def test_tables_by_standing_fill_with_bots() -> None:
    lines = swiss.standings([f"p{i}" for i in range(7)], [], {})
    paired = swiss.pair_round(lines, 3, 1)
    assert [t["seats"] for t in paired["tables"]] == [
        ["p0", "p1", "p2"], ["p3", "p4", "p5"], ["p6", None, None],
    ]  # fmt: skip
    assert paired["byes"] == []


def test_rounds_for() -> None:
    assert [swiss.rounds_for(n) for n in (2, 3, 4, 5, 8, 9, 16)] == [1, 2, 2, 3, 3, 4, 4]


def test_eight_players_three_rounds_every_seed_has_no_repeat() -> None:
    entrants = [f"p{i}" for i in range(8)]
    for seed in itertools.islice(itertools.count(), 40):
        met = meetings(play_rounds(entrants, 3, seed)[0])
        assert len(met) == len(set(met))


def test_seat_points() -> None:
    assert swiss.seat_points([1], 2) == [0, 1]
    assert swiss.seat_points([], 2) == swiss.seat_points([0, 1], 2) == [0.5, 0.5]
    assert swiss.seat_points([0, 2], 4) == [1, 0, 1, 0]  # partners
    assert swiss.seat_points([0], 1) == [1] and swiss.seat_points([], 1) == [0]


def test_the_tournament_document_is_folded_from_its_log() -> None:
    """Registration, a withdrawal before the start (gone) and after it (kept, marked), the
    rounds and their recorded results, the end."""
    setup = {"id": "t", "game": "brisca", "rounds": None}
    log = [
        {"kind": "tournament.created", "tournament": setup},
        *({"kind": "tournament.registered", "entrant": {"id": e, "name": e, "bot": None}} for e in "abc"),
        {"kind": "tournament.withdrawn", "entrant": "c"},
        {"kind": "tournament.registered", "entrant": {"id": "d", "name": "d", "bot": "random"}},
        {"kind": "round.paired", "rounds": 2, "results": {},
         "paired": {"round": 1, "tables": [{"table": 1, "match": "m1", "seats": ["a", "b"]}], "byes": ["d"]}},
        {"kind": "tournament.withdrawn", "entrant": "b"},
        {"kind": "tournament.finished", "time": "2026-12-03T10:00:00.000Z", "results": {"m1": won(0)}},
    ]  # fmt: skip
    doc = replay([{**entry, "version": n} for n, entry in enumerate(log, 1)])
    assert doc is not None
    assert [e["id"] for e in doc["entrants"]] == ["a", "b", "d"] and doc["withdrawn"] == ["b"]
    assert doc["status"] == "finished" and doc["rounds"] == 2 and doc["version"] == len(log)
    assert doc["results"] == {"m1": won(0)}
    lines = swiss.standings(["a", "b", "d"], doc["rounds_paired"], doc["results"], doc["withdrawn"])
    assert [(s.entrant, s.points) for s in lines] == [("a", 1), ("d", 1), ("b", 0)]
    with pytest.raises(ValueError):  # a log starts with tournament.created
        fold(None, {"kind": "round.paired", "version": 1})


def test_a_no_show_loses_whatever_the_result_says() -> None:
    """Seat 1 never moved while the server played for it: a loss, and a win for seat 0 even
    where the bot playing seat 1 won; two no-shows both lose."""
    assert swiss.seat_points([1], 2, no_shows=[1]) == [1, 0]
    assert swiss.seat_points([0], 2, no_shows=[1]) == [1, 0]
    assert swiss.seat_points([0, 1], 2, no_shows=[0, 1]) == [0, 0]
    assert swiss.seat_points([0, 2], 4, no_shows=[2]) == [1, 0, 0, 0]


def entry(kind: str, seat: int | None = None, **fields) -> dict:
    return {"kind": kind, "seat": seat, "status": "running", **fields}


def test_the_outcome_of_a_match_from_its_log() -> None:
    ana, bea = {"id": "ana", "name": "Ana"}, {"id": "bea", "name": "Bea"}
    setup = {"game": "brisca", "variant": "base", "players": 2, "options": {}, "rules_version": 3}
    log = [
        entry("match.created"),
        entry("match.started", setup=setup),
        entry("seat.joined", 0, player=ana, actor={"player": "ana", "seat": 0, "system": False}),
        entry("seat.joined", 1, player=bea, actor={"player": "bea", "seat": 1, "system": False}),
        entry("action", actor={"player": "ana", "seat": 0, "system": False}),
        entry("action", actor={"player": "bea", "seat": 1, "system": True}),  # a turn timer
        entry("action", actor={"player": "ana", "seat": 0, "system": False}),
    ]
    assert swiss.match_outcome(log) is None  # not finished
    ended = {**log[-1], "status": "finished", "result": {"winners": [1], "rounds": [[2, 5]]}}
    assert swiss.match_outcome([*log[:-1], ended]) == {
        "winners": [1], "no_shows": [1], "deals": [[2, 5]],  # each deal's points, by seat
        "rules_version": 3, "options": {},  # which deals were alike: the setup's
    }  # fmt: skip
    moved = entry("action", actor={"player": "bea", "seat": 1, "system": False})
    assert swiss.match_outcome([*log[:-1], moved, ended])["no_shows"] == []
