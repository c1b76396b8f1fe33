"""The shedding kit: a hidden stock, a discard pile that shows its top, and restocking."""

from __future__ import annotations

from shared.engine import HIDDEN, OWNER, TOP, State, english_deck, redact
from shared.engine.kit import shedding


def table(players: int = 2, hand_size: int = 3, seed: str = "shed") -> tuple[State, list[dict]]:
    state = State("ciruela", "base", {}, players, seed)
    events = shedding.new_table(state, english_deck(), hand_size)
    return state, events


def test_a_new_table_deals_hands_and_turns_up_a_starter():
    state, events = table(3, 4)
    for s in range(3):
        zone = state.zones[f"hand:{s}"]
        assert (len(zone.cards), zone.owner, zone.visibility) == (4, s, OWNER)
    assert state.zones["stock"].visibility == HIDDEN
    assert state.zones["discard"].visibility == TOP
    assert len(state.cards("discard")) == 1 and len(state.cards("stock")) == 52 - 12 - 1
    assert sorted(state.all_cards()) == sorted(english_deck())
    dealt = [e for e in events if e["type"] == "dealt"]
    assert [e["visible_to"] for e in dealt] == [[0], [1], [2]]
    assert events[-1] == {"type": "turned_up", "card": shedding.top(state)}


def test_the_deal_may_start_at_any_seat_and_the_same_seed_gives_the_same_table():
    a = State("ciruela", "base", {}, 2, "same")
    b = State("ciruela", "base", {}, 2, "same")
    shedding.new_table(a, english_deck(), 3, seats=[1, 0])
    shedding.new_table(b, english_deck(), 3, seats=[1, 0])
    assert a.to_json() == b.to_json()


def test_a_draw_takes_the_top_of_the_stock_seen_only_by_the_drawer():
    state, _ = table()
    top = state.cards("stock")[-1]
    events = shedding.draw(state, 1)
    assert state.cards("hand:1")[-1] == top
    assert events == [{"type": "drew", "seat": 1, "card": top, "visible_to": [1]}]
    assert redact(events[0], 0)["card"] is None


def test_restocking_shuffles_the_discard_pile_but_keeps_its_top():
    state, _ = table()
    state.zones["discard"].cards += state.zones["stock"].cards[:10]
    state.zones["stock"].cards = state.zones["stock"].cards[10:]
    pile = list(state.cards("discard"))
    events = shedding.restock(state)
    assert state.cards("discard") == [pile[-1]]
    assert sorted(state.cards("stock")[:10]) == sorted(pile[:-1])
    assert events == [{"type": "restocked", "count": 10}]


def test_a_draw_from_an_empty_stock_restocks_first():
    state, _ = table()
    state.zones["discard"].cards = state.cards("stock") + state.cards("discard")
    state.zones["stock"].cards = []
    keep = shedding.top(state)
    events = shedding.draw(state, 0)
    assert [e["type"] for e in events] == ["restocked", "drew"]
    assert events[0]["count"] == 52 - 6 - 1
    assert state.cards("discard") == [keep]
    assert len(state.cards("stock")) == 52 - 6 - 2


def test_with_an_empty_stock_and_only_the_top_discard_nothing_can_be_drawn():
    state, _ = table()
    state.zones["hand:0"].cards += state.cards("stock")
    state.zones["stock"].cards = []
    assert not shedding.can_draw(state)
    before = state.to_json()
    assert shedding.draw(state, 0) == []
    assert state.to_json() == before


def test_a_discard_goes_face_up_on_top_of_the_pile():
    state, _ = table()
    card = state.cards("hand:0")[0]
    shedding.discard(state, 0, card)
    assert shedding.top(state) == card and card not in state.cards("hand:0")
