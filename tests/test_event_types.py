"""The specs' tables hold what the games really send: every game and variant is played at
random, and each event (as every seat and a spectator see it), each view, each legal action
and each result is checked against the committed lobby spec's JSON Schema components.

A game that emits a new event type or field, or lists an action its table does not
declare, fails here until ``services/event_types.py`` or its action table says so.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from services.openapi_dump import OPENAPI_DIR
from shared.engine import legal_actions, new_match, redact, view
from shared.engine.core import VIEW_FIELDS
from tests.playouts import playout, variant_cases

VIEW_EVERY = 10  # views are large: one in this many steps is enough to cover every phase


@cache
def components() -> dict[str, Any]:
    spec = yaml.safe_load((OPENAPI_DIR / "lobby.yaml").read_text(encoding="utf-8"))
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
            for reader in {None, *after.to_act}:
                check("View", view(after, reader), f"{game} view of seat {reader}")
            for actor in after.to_act:
                for legal in legal_actions(after, actor):
                    check("Action", legal, f"{game} legal action")
        state = after
    shapes = set()  # each shape of event once: its type, its fields and which are null
    for _, _, applied in steps:
        for event in applied:  # as the seats it names see it, and as everyone else does
            for seen in (event, redact(event, None)):
                shape = tuple(sorted((k, kind(v)) for k, v in seen.items()))
                if shape not in shapes:
                    shapes.add(shape)
                    check("Event", seen, f"{game} event")
    check("Result", state.result, f"{game} result")


def test_the_spec_view_declares_exactly_the_core_view_fields():
    """The names games may not take for their own view fields are the ones the spec reserves."""
    assert set(components()["schemas"]["View"]["properties"]) == VIEW_FIELDS
