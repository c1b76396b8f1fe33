"""Rules versions: a match recorded under an earlier version of a game's rules is set up,
replayed and verified under those rules, and one from an unknown (later) version is refused."""

from __future__ import annotations

import pytest

from shared.engine import (
    BadSetup,
    Game,
    InvalidState,
    Option,
    RulesChange,
    State,
    UnknownRulesVersion,
    Variant,
    all_games,
    check_rules_version,
    resolve_options,
)


class Toy(Game):
    """Version 1 had no option ``strict`` (it behaved as strict=False) and variant ``hard``
    had mode "a"; version 2 added ``strict``; version 3 moved ``hard`` to mode "b"."""

    id = "toy"
    rules_version = 3
    options = {
        "mode": Option("a", "a mode", choices=("a", "b")),
        "strict": Option(True, "the fixed rule", since=2),
    }
    variants = {
        "base": Variant("base", "base"),
        "hard": Variant("hard", "hard", {"mode": "b"}),
    }
    changes = (
        RulesChange(2, "the fixed rule", before={"strict": False}),
        RulesChange(3, "hard plays mode b", variants={"hard": {"mode": "a"}}),
    )


def toy_state(variant: str, options: dict) -> State:
    return State("toy", variant, options, 2, "seed")


def test_the_current_version_resolves_todays_defaults():
    assert resolve_options(Toy(), "hard", None) == {"mode": "b", "strict": True}
    assert resolve_options(Toy(), "hard", None, 3) == {"mode": "b", "strict": True}


def test_an_earlier_version_gets_the_option_values_it_implied():
    assert resolve_options(Toy(), "hard", None, 2) == {"mode": "a", "strict": True}
    assert resolve_options(Toy(), "base", None, 2) == {"mode": "a", "strict": True}


def test_an_option_added_later_is_left_out_of_an_earlier_versions_options():
    assert resolve_options(Toy(), "hard", None, 1) == {"mode": "a"}
    with pytest.raises(BadSetup, match="no option 'strict' in rules version 1"):
        resolve_options(Toy(), "base", {"strict": True}, 1)


def test_an_option_a_match_does_not_carry_takes_the_value_before_it_was_added():
    game = Toy()
    assert game.option(toy_state("base", {"mode": "a"}), "strict") is False
    assert game.option(toy_state("base", {"mode": "a", "strict": True}), "strict") is True


def test_a_later_version_than_the_engine_knows_is_refused_with_the_reason():
    with pytest.raises(UnknownRulesVersion, match="toy rules version 4 is unknown .* 1 to 3"):
        resolve_options(Toy(), "base", None, 4)
    with pytest.raises(BadSetup, match="positive integer"):
        check_rules_version(Toy(), "2")
    assert check_rules_version(Toy(), None) == 3


def test_the_version_table_must_be_whole():
    class Gap(Toy):
        changes = (RulesChange(3, "skips version 2"),)

    with pytest.raises(ValueError, match="one RulesChange per version"):
        Gap().check_versions()

    class Forgotten(Toy):
        changes = (RulesChange(2, "forgot strict's earlier value"), Toy.changes[1])

    with pytest.raises(ValueError, match="option strict, added in version 2"):
        Forgotten().check_versions()
    Toy().check_versions()


def test_every_registered_game_declares_a_whole_version_table():
    for game in all_games():
        game.check_versions()
        assert game.describe()["rules_version"] == game.rules_version


def test_a_state_without_an_option_added_later_is_accepted_but_not_one_without_an_original():
    from shared.engine import check_state, new_match

    state, _ = new_match("brisca", "base", 2, seed="versions")
    check_state(state)
    del state.options["deals"]
    with pytest.raises(InvalidState, match="incomplete"):
        check_state(state)
