"""Quick match's pairing (services/lobby/pairing.py), from fixed queues."""

from __future__ import annotations

from services.lobby.pairing import BASE_WINDOW, WIDENING_PER_S, Request, tables


def request(player: str, rating: float = 10, since: float = 0, **kw) -> Request:
    fields = {"game": "brisca", "variant": "base", "players": 2, **kw}
    return Request(id=f"q-{player}", player=player, rating=rating, since=since, **fields)


def seated(formed) -> list[set[str]]:
    return [{r.player for r in table.requests} for table in formed]


def test_only_requests_for_the_same_game_variant_count_and_options_sit_together():
    queue = [
        request("a"),
        request("b", game="tute"),
        request("c", variant="tres-cartas"),
        request("d", players=4),
        request("e", options={"stakes": 2}),
        request("f", options={"stakes": 2}),
    ]
    assert seated(tables(queue, now=0)) == [{"e", "f"}]


def test_the_window_widens_with_the_wait_and_both_sides_must_accept():
    gap = BASE_WINDOW + 5 * WIDENING_PER_S  # accepted after 5 s of waiting, not before
    old, new = request("old", 10, since=0), request("new", 10 + gap, since=5)
    assert tables([old, new], now=5) == []  # the newcomer's window is still the base one
    assert seated(tables([old, new], now=10)) == [{"old", "new"}]


def test_the_longest_waiter_goes_first_and_takes_the_nearest_rating():
    queue = [
        request("first", 10, since=0),
        request("far", 10 + BASE_WINDOW * 0.9, since=1),
        request("near", 10 + BASE_WINDOW * 0.1, since=2),
    ]
    formed = tables(queue, now=3)
    assert seated(formed) == [{"first", "near"}]
    assert formed[0].requests[0].player == "first"


def test_a_player_is_never_seated_twice():
    queue = [
        request("a", since=0),
        request("a", since=1),  # the same player's second request
        request("b", since=2),
        request("c", since=3),
    ]
    queue[1] = Request(**{**queue[1].__dict__, "id": "q-a-2"})
    formed = tables(queue, now=4)
    players = [r.player for table in formed for r in table.requests]
    assert sorted(players) == sorted(set(players))
    assert seated(formed) == [{"a", "b"}]


def test_a_full_table_of_four_needs_every_member_to_accept_every_other():
    step = BASE_WINDOW * 0.6
    queue = [
        request("a", 10, since=0, players=4),
        request("b", 10 + step, since=0, players=4),
        request("c", 10 - step, since=0, players=4),  # 1.2 windows from b: outside its window
        request("d", 10 + step / 3, since=0, players=4),
    ]
    assert tables(queue, now=0) == []
    later = BASE_WINDOW * 0.2 / WIDENING_PER_S + 0.01  # windows of 1.2 base: all accept all
    formed = tables(queue, now=later)
    assert seated(formed) == [{"a", "b", "c", "d"}]


def test_after_the_bot_wait_free_seats_take_bots_with_only_people_who_accept_them():
    queue = [
        request("waits", since=0, players=4, bots_after=30),
        request("also", since=10, players=4, bots_after=60),
        request("never", since=10, players=4),  # no bot wait: people only
    ]
    assert tables(queue, now=29) == []
    formed = tables(queue, now=30)
    assert seated(formed) == [{"waits", "also"}]
    assert formed[0].bots == 2


def test_a_request_without_a_bot_wait_keeps_waiting_alone():
    assert tables([request("alone", since=0)], now=10_000) == []
