import os

import pytest

# The tests run in development mode (as `make run` does): a rules service they start without
# TAPETE_STATE_KEY seals with the development key instead of refusing to start.
os.environ.setdefault("TAPETE_DEV", "1")
# Every event, view and fact a game makes is checked against its declarations (loudly: a
# DeclarationError), here and in every service the tests start (shared/engine/checks.py).
os.environ.setdefault("TAPETE_CHECK_DECLARATIONS", "1")

pytest_plugins = [
    "tests.redis_fixtures",
    "tests.service_fixtures",
    "tests.history_fixtures",
    "tests.bots_fixtures",
]

# `make test` runs the suite in two processes at once: the engine's tests (marked `engine`
# here: they start no process and open no socket) at a lower CPU priority, and every other
# test in the order it always ran. The live tests keep the cores whenever they need them
# (their timings are what they were alone), and the engine's tests use the time the live
# ones spend waiting on processes, sockets and timers.
ENGINE_TESTS = (
    "tests/games/",
    "tests/test_all_games.py",
    "tests/test_bots.py",
    "tests/test_bots_heuristics.py",
    "tests/test_bots_search.py",
    "tests/test_corpus.py",
    "tests/test_declarations.py",
    "tests/test_duplicate_deals.py",
    "tests/test_event_types.py",
    "tests/test_jsoncodec.py",
    "tests/test_kit",
    "tests/test_language.py",
    "tests/test_rules_service.py",
    "tests/test_rules_versions.py",
    "tests/test_tournament.py",
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "engine: no process, no socket (tests/conftest.py)")


def pytest_itemcollected(item: pytest.Item) -> None:
    if item.nodeid.startswith(ENGINE_TESTS):
        item.add_marker(pytest.mark.engine)
