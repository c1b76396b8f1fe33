"""Stored matches replay identically: the same events and the same state hash at every step.

The corpus (``tests/corpus``) holds a seeded random match of every variant, at its smallest
and largest player count; the first seven games' were recorded before they moved to the kit;
a refactor of the engine or a game that changes any event or any byte of a state fails here,
so the matches already stored in the lobby and the history service keep verifying.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from shared import jsoncodec
from shared.engine import apply, new_match
from shared.eventstore import state_hash
from tests.playouts import variant_cases

FILES = sorted((Path(__file__).resolve().parent / "corpus").glob("*.json.gz"))


def as_json(value: object) -> object:
    return json.loads(jsoncodec.dumps(value))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name.removesuffix(".json.gz"))
def test_a_recorded_match_replays_to_the_same_events_and_states(path: Path):
    doc = json.loads(gzip.decompress(path.read_bytes()))
    state, events = new_match(
        doc["game"], doc["variant"], doc["players"], seed=doc["seed"], options=doc["options"]
    )
    assert as_json(events) == doc["setup_events"]
    for number, step in enumerate(doc["steps"], start=1):
        events = apply(state, step["seat"], step["action"])
        assert as_json(events) == step["events"], f"step {number}: events differ"
        assert state_hash(state.to_json()) == step["hash"], f"step {number}: state differs"
    assert state.finished


def test_the_corpus_covers_every_variant_at_its_smallest_and_largest_player_count():
    recorded = {p.name.removesuffix(".json.gz") for p in FILES}
    wanted = {f"{g}.{v}.{n}p" for g, v, n in variant_cases()}
    assert wanted <= recorded, f"record them: python -m tests.corpus.record ({wanted - recorded})"
