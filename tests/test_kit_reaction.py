"""Reaction windows: opening, arrival order, the last reaction, the timeout."""

from __future__ import annotations

from shared.engine import State, apply, legal_actions, new_match
from shared.engine.kit import reaction
from tests.rigging import rig


def state(players: int = 3) -> State:
    return State("nervioso", "base", {}, players, "kit-reaction")


def test_opening_a_window_sets_the_phase_the_seats_and_the_servers_timer():
    s = state()
    reaction.open_window(s, 2.5, [2, 0])
    assert s.phase == "reaction" and s.to_act == [2, 0]
    assert s.deadline == {"kind": "reaction", "seconds": 2.5}
    assert reaction.is_open(s)


def test_a_window_may_use_its_own_phase_name():
    s = state()
    reaction.open_window(s, 1.0, range(3), phase="face-off")
    assert s.phase == "face-off" and s.to_act == [0, 1, 2]


def test_a_commit_deadline_is_not_a_reaction_window():
    s = state()
    s.deadline = {"kind": "commit", "seconds": 60.0}
    assert not reaction.is_open(s)
    s.deadline = None
    assert not reaction.is_open(s)


def test_reactions_are_recorded_in_arrival_order_not_seat_order():
    s = state()
    reaction.open_window(s, 3.0, range(3))
    arrivals: list = []
    assert reaction.react(s, 2, arrivals) == 1
    assert reaction.react(s, 0, arrivals) == 2
    assert arrivals == [2, 0] and s.to_act == [1]


def test_a_reaction_may_record_what_was_done_and_keep_the_seat_to_act():
    s = state()
    reaction.open_window(s, 3.0, range(3))
    arrivals: list = []
    reaction.react(s, 1, arrivals, entry={"seat": 1, "animal": "gato"}, leave=False)
    assert arrivals == [{"seat": 1, "animal": "gato"}] and s.to_act == [0, 1, 2]
    seat_of = lambda a: a["seat"]  # noqa: E731
    assert reaction.reacted(arrivals, seat_of) == [1]
    assert reaction.late([0, 1, 2], arrivals, seat_of) == [0, 2]


def test_the_window_closes_on_the_last_racers_reaction():
    racers = [0, 2]
    arrivals: list = []
    s = state()
    reaction.open_window(s, 3.0, range(3))
    reaction.react(s, 2, arrivals)
    assert not reaction.everyone_reacted(racers, arrivals)
    reaction.react(s, 0, arrivals)
    assert reaction.everyone_reacted(racers, arrivals)


def test_on_a_timeout_the_late_racers_come_in_the_order_asked():
    arrivals = [1]
    assert reaction.late([2, 0, 1], arrivals) == [2, 0]
    assert reaction.late([0, 1, 2], arrivals) == [0, 2]


def test_the_first_accepted_reaction_wins_the_race():
    arrivals = [{"seat": 0, "ok": False}, {"seat": 2, "ok": True}, {"seat": 1, "ok": True}]
    assert reaction.first(arrivals, lambda a: a["ok"])["seat"] == 2
    assert reaction.first(arrivals[:1], lambda a: a["ok"]) is None


def test_closing_stops_the_servers_timer():
    s = state()
    reaction.open_window(s, 3.0, range(3))
    reaction.close_window(s)
    assert s.deadline is None and not reaction.is_open(s)


def test_through_the_engine_the_server_offers_a_timeout_only_while_a_window_is_open():
    s, _ = new_match("nervioso", "base", 2, seed="kit-reaction")
    rig(s, {"hand:0": ["2O", "1O"]}, spill="pile")  # seat 0 throws a 1 on count 1: a match
    s.to_act = [0, 1]
    assert legal_actions(s, None) == []
    apply(s, 0, {"type": "play"})
    assert reaction.is_open(s)
    assert legal_actions(s, None) == [{"type": "timeout"}]
    apply(s, None, {"type": "timeout"})
    assert not reaction.is_open(s) and s.deadline is None and s.phase == "play"
