"""What the games send is what they declare, and the specs say it: every game and variant is
played at random, and each event (as every seat and a spectator see it), each view, each
legal action and each result is checked against that game's own components of the committed
rules spec (``<Game>Event``, ``<Game>View``), which ``services/spec.py`` generates from the
declarations (``make openapi``). Checking is on (``tests/conftest.py``), so the engine itself
also refuses an undeclared event or view field as it is made.

For every game, also: every declared event type is met, in a random match or in a rigged
scenario of the game's own tests (``EVENT_SCENARIOS`` in ``tests/games/test_<id>.py``); every
event says a sentence in both languages for every reader, without a placeholder left; every
seat's view has facts, and facts about every seat.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from services.openapi_dump import OPENAPI_DIR
from services.spec import game_events, game_view
from shared.engine import Event, get_game, legal_actions, new_match, redact, view
from shared.engine.core import VIEW_FIELDS, reader, sentence
from shared.engine.language import LANGUAGES, card_phrase
from tests.playouts import playout, variant_cases

VIEW_EVERY = 10  # views are large: one in this many steps is enough to cover every phase
NAMES = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gala", "Hugo"]
GAMES = sorted({g for g, _, _ in variant_cases()})
LEFT_OVER = ("{", "}", "None", "—")  # a placeholder or a value said as nothing


@cache
def components() -> dict[str, Any]:
    text = (OPENAPI_DIR / "rules.yaml").read_text(encoding="utf-8")
    spec = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml: 10x
    return spec["components"]


@cache
def validator(component: str) -> Draft202012Validator:
    schema = {"$ref": f"#/components/schemas/{component}", "components": components()}
    return Draft202012Validator(schema)


def check(component: str, value: Any, where: str) -> None:
    """``value`` is a ``component``; for a union, the member its discriminator names."""
    union = components()["schemas"][component]
    if "discriminator" in union:
        on = union["discriminator"]["propertyName"]
        target = union["discriminator"]["mapping"].get(value.get(on))
        assert target, f"{where}: {value!r} has a {on} the spec's {component} does not list"
        component = target.rsplit("/", 1)[1]
    errors = sorted(validator(component).iter_errors(value), key=str)
    assert not errors, f"{where}: {value!r} is no {component}: {errors[0].message}"


def kind(value: Any) -> str:
    """A value's JSON type, and for a list its items' types: what an event's shape is made of."""
    if isinstance(value, list):
        return "list:" + ",".join(sorted({type(item).__name__ for item in value}))
    return type(value).__name__


def check_said(game_id: str, event: Event, players: int) -> None:
    """The event says a sentence in every language for every reader, with nothing left over."""
    game = get_game(game_id)
    for seat in (None, *range(players)):
        seen = redact(event, seat)
        for lang in LANGUAGES:
            said = sentence(game, seen, reader(game, lang, NAMES[:players]))
            assert said.strip(), f"{game_id}: {event!r} says nothing in {lang}"
            assert not any(mark in said for mark in LEFT_OVER), f"{game_id}/{lang}: {said!r}"
            if seat is not None and "visible_to" in event and seat not in event["visible_to"]:
                for card in [event.get("card"), *(event.get("cards") or [])]:  # its secret
                    named = card_phrase(card, lang, game.deck_kind, article=False) if card else None
                    assert not named or named not in said, f"{game_id}: {said!r} names {card}"


def check_facts(game_id: str, seen: dict, players: int, where: str) -> None:
    facts = seen["facts"]
    assert facts, f"{where}: no facts"
    about = {f["seat"] for f in facts}
    assert set(range(players)) <= about, (
        f"{where}: no fact about seats {set(range(players)) - about}"
    )
    for fact in facts:
        assert fact["label"] and fact["text"], f"{where}: {fact!r}"
        assert not any(mark in fact["text"] for mark in ("{", "}", "None")), fact


def scenarios(game_id: str) -> dict[str, Callable[[], list[Event]]]:
    """The game's rigged scenarios for the event types random matches rarely meet."""
    module = importlib.import_module(f"tests.games.test_{game_id.replace('-', '_')}")
    return dict(getattr(module, "EVENT_SCENARIOS", {}))


@pytest.mark.parametrize(("game", "variant", "players"), variant_cases())
def test_a_random_match_sends_only_what_the_spec_declares(
    game: str, variant: str, players: int
) -> None:
    state, events = new_match(game, variant, players, seed="spec")
    steps = [(None, {"type": "deal"}, events)]
    for step, (after, seat, action, applied) in enumerate(playout(game, variant, players, "spec")):
        steps.append((seat, action, applied))
        if step % VIEW_EVERY == 0 or after.finished:
            check("Action", action, f"{game} action")
            for reader_seat in {None, *after.to_act}:
                seen = view(after, reader_seat, "es", NAMES[:players])
                # its game's member; its legal actions are each checked against their own
                # member below (the union's oneOf over every action type, per action, was
                # most of this test's time)
                if reader_seat is not None:  # a spectator's view lists none
                    assert seen["legal_actions"] == legal_actions(after, reader_seat)
                listed = {**seen, "legal_actions": []}
                check("View", listed, f"{game} view of seat {reader_seat}")
                check_facts(game, seen, players, f"{game} view of seat {reader_seat}")
            for actor in after.to_act:
                for legal in legal_actions(after, actor):
                    check("Action", legal, f"{game} legal action")
        state = after
    shapes = set()  # each shape of event once: its type, its fields and which are null
    for _, _, applied in steps:
        for event in applied:  # as the seats it names see it, and as everyone else does
            for seen_event in (event, redact(event, None)):
                shape = tuple(sorted((k, kind(v)) for k, v in seen_event.items()))
                if shape not in shapes:
                    shapes.add(shape)
                    check(game_events(get_game(game)), seen_event, f"{game} event")
                    check("Event", seen_event, f"{game} event")
                    check_said(game, seen_event, players)
    check("Result", state.result, f"{game} result")


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_event_type_is_met_in_a_match_or_a_rigged_scenario(game: str) -> None:
    met: set[str] = set()
    for game_id, variant, players in variant_cases(all_counts=True):
        if game_id != game:
            continue
        for seed in ("met-1", "met-2"):
            _, events = new_match(game, variant, players, seed=seed)
            met.update(e["type"] for e in events)
            for _, _, _, applied in playout(game, variant, players, seed):
                met.update(e["type"] for e in applied)
    for type_, scenario in scenarios(game).items():
        events = scenario()
        assert type_ in {e["type"] for e in events}, (
            f"{game}: its {type_} scenario does not emit it"
        )
        for event in events:
            check(game_events(get_game(game)), redact(event, None), f"{game} rigged event")
            check_said(game, event, get_game(game).player_range("base")[1])
        met.update(e["type"] for e in events)
    declared = set(get_game(game).event_table)
    assert declared <= met, (
        f"{game} never emits {sorted(declared - met)} in random matches: give each a rigged "
        f"scenario in EVENT_SCENARIOS of tests/games/test_{game.replace('-', '_')}.py"
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_its_view_and_facts(game: str) -> None:
    declared = get_game(game)
    assert declared.public_view is not None, f"{game}: public_view is not declared"
    assert declared.fact_table, f"{game}: no facts declared"
    assert declared.deck_kind, f"{game}: deck_kind is not declared"
    assert all(e.says is not None or e._sentence is not None for e in declared.event_table.values())


def test_the_spec_view_declares_exactly_the_core_view_fields():
    """The names games may not take for their own view fields are the ones the spec reserves
    (every view schema has them, and ``turn_deadline`` and ``may_undo``, which the lobby adds)."""
    for game in {g for g, _, _ in variant_cases()}:
        properties = set(components()["schemas"][game_view(get_game(game))]["properties"])
        own = set(get_game(game).public_view or {}) | set(get_game(game).private_view)
        assert properties - own == VIEW_FIELDS | {"turn_deadline", "may_undo"}, game
