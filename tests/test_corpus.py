"""Stored matches replay identically: the same events and the same state hash at every step.

The corpus (``tests/corpus``) holds a seeded random match of every variant, at its smallest
and largest player count; the first seven games' were recorded before they moved to the kit;
a refactor of the engine or a game that changes any event or any byte of a state fails here,
so the matches already stored in the lobby and the history service keep verifying.

Each file was recorded under one rules version of its game (``rules_version``; the files
without it came before versions existed: version 1) and replays under that version. A change
of behaviour bumps the game's version and records the new version's files beside the old
ones (``python -m tests.corpus.record``), which must keep replaying as they were recorded.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared import jsoncodec
from shared.engine import EngineError, State, Variant, all_games, apply, get_game, new_match
from shared.engine.state import DEALS_BY_NUMBER
from shared.jsoncodec import state_hash
from tests.corpus.record import choices_digest, name_for
from tests.playouts import every_choice, variant_cases

FILES = sorted((Path(__file__).resolve().parent / "corpus").glob("*.json.gz"))


def as_json(value: object) -> object:
    return json.loads(jsoncodec.dumps(value))


def load(path: Path) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()))


def replay(doc: dict) -> None:
    """Deal and apply the recorded match under its rules version; assert every event and hash
    (and, in the files that record it, what every seat could do before each step)."""
    version = doc.get("rules_version", 1)
    state, events = new_match(
        doc["game"], doc["variant"], doc["players"], seed=doc["seed"], rules_version=version
    )  # with no options, as recorded: its variant's options under its rules version
    assert state.options == doc["options"], (
        f"rules version {version} of {doc['game']}/{doc['variant']} gives other options than"
        " the recorded ones: a default changed without a version bump?"
    )
    assert as_json(events) == doc["setup_events"]
    for number, step in enumerate(doc["steps"], start=1):
        if "legal" in step:  # recorded since rules versions: what was possible before the step
            assert choices_digest(every_choice(state)) == step["legal"], f"step {number}: legal"
        events = apply(state, step["seat"], step["action"])
        assert as_json(events) == step["events"], f"step {number}: events differ"
        assert state_hash(state.to_json()) == step["hash"], f"step {number}: state differs"
    assert state.finished


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name.removesuffix(".json.gz"))
def test_a_recorded_match_replays_to_the_same_events_and_states(path: Path):
    replay(load(path))


def test_the_corpus_covers_every_variant_at_its_smallest_and_largest_player_count():
    """Under every game's current rules version: a version bump comes with its recordings."""
    recorded = {p.name.removesuffix(".json.gz") for p in FILES}
    wanted = {name_for(g, v, n, get_game(g).rules_version) for g, v, n in variant_cases()}
    assert wanted <= recorded, f"record them: python -m tests.corpus.record ({wanted - recorded})"


# -- a change of behaviour without a version bump fails here ---------------------------------
def failing(game: str, version: int) -> Iterator[str]:
    """The recordings of ``game`` under ``version`` that no longer replay, one by one."""
    for path in FILES:
        doc = load(path)
        if doc["game"] == game and doc.get("rules_version", 1) == version:
            try:
                replay(doc)
            except (AssertionError, EngineError):
                yield path.name


@pytest.mark.parametrize(
    "game, option, value, version",
    [
        ("brisca", "claim_needs_pair", True, 1),  # the fix applied to the matches before it
        ("brisca", "claim_needs_pair", False, 2),  # the fix undone
        ("chinchon", "natural_one_of_oros", True, 1),
        ("chinchon", "natural_one_of_oros", False, 2),
        ("siete-y-media", "house_second_card", True, 1),
        ("siete-y-media", "house_second_card", False, 2),
        ("siete-y-media", "house_can_win", True, 1),
        ("siete-y-media", "house_can_win", False, 2),
        ("ladrones-de-tumbas", "draw_after_play", False, 1),
        ("ladrones-de-tumbas", "draw_after_play", True, 2),
        ("ciruela", "ace_discards_all", True, 1),
        ("ciruela", "ace_discards_all", False, 2),
    ],
)
def test_a_rule_changed_without_a_version_bump_fails_the_corpus(
    monkeypatch, game, option, value, version
):
    """Each rules change, made in the code for every match instead of as a new version: some
    recording of the version it breaks no longer replays (events, hash, or what was legal)."""
    rules = type(get_game(game))
    original = rules.option
    monkeypatch.setattr(
        rules,
        "option",
        lambda self, state, name: value if name == option else original(self, state, name),
    )
    assert next(failing(game, version), None)


@pytest.mark.parametrize("version", [1, 2])
def test_a_default_changed_without_a_version_bump_fails_the_corpus(monkeypatch, version):
    """Desescoba's default, changed for every match (or changed back), instead of as a version."""
    escoba = type(get_game("escoba"))
    desescoba = escoba.variants["desescoba"]
    if version == 1:  # the new default with no version to keep the old one
        monkeypatch.setattr(escoba, "changes", ())
        monkeypatch.setattr(escoba, "rules_version", 1)
    else:  # the old default back, as if the change had never been made
        options = {**desescoba.options, "mandatory_capture": "played-card"}
        variant = Variant(desescoba.id, desescoba.description, options, desescoba.players)
        monkeypatch.setitem(escoba.variants, "desescoba", variant)
    assert list(failing("escoba", version)) == [
        f"escoba.desescoba.{n}p{'.v2' if version == 2 else ''}.json.gz" for n in (12, 2)
    ]


@pytest.mark.parametrize("version", [1, 2])
def test_siete_y_medias_one_round_default_changed_without_a_version_fails_the_corpus(
    monkeypatch, version
):
    """``until_a_winner``'s new default given to the matches before it (its earlier value left
    out of the version table), or its old default back for the matches of version 2."""
    rules = type(get_game("siete-y-media"))
    if version == 1:
        change, *later = rules.changes
        before = {k: v for k, v in change.before.items() if k != "until_a_winner"}
        changed = (dataclasses.replace(change, before=before), *later)
        monkeypatch.setattr(rules, "changes", changed)
    else:
        old = dataclasses.replace(rules.options["until_a_winner"], default=True)
        monkeypatch.setitem(rules.options, "until_a_winner", old)
    assert next(failing("siete-y-media", version), None)


DEALT_BY_NUMBER = sorted(g.id for g in all_games() if DEALS_BY_NUMBER in g.options)


@pytest.mark.parametrize("game", DEALT_BY_NUMBER)
@pytest.mark.parametrize("by_deal", [True, False])
def test_chance_by_deal_without_its_version_fails_the_corpus(monkeypatch, game, by_deal):
    """Chance drawn deal by deal (``State.by_deal``) given to the matches before the version
    that adopted it, or taken from the matches of that version: some recording fails."""
    since = get_game(game).options[DEALS_BY_NUMBER].since
    monkeypatch.setattr(State, "by_deal", lambda self: by_deal)
    assert next(failing(game, since - 1 if by_deal else since), None)
