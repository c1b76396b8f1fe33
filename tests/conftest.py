import os

import pytest

# The tests run in development mode (as `make run` does): a rules service they start without
# TAPETE_STATE_KEY seals with the development key instead of refusing to start.
os.environ.setdefault("TAPETE_DEV", "1")

pytest_plugins = [
    "tests.redis_fixtures",
    "tests.service_fixtures",
    "tests.history_fixtures",
    "tests.bots_fixtures",
]

# `make test` runs the suite in two processes (pytest-xdist, `--dist loadgroup`): the engine's
# tests, which start no process and open no socket, in one, at a lower CPU priority; every
# other test in the other, in the order it always ran. The live tests keep the cores whenever
# they need them (their timings are what they were alone), and the engine's tests use the time
# the live ones spend waiting on processes, sockets and timers.
ENGINE_TESTS = (
    "tests/games/",
    "tests/test_all_games.py",
    "tests/test_bots.py",
    "tests/test_bots_heuristics.py",
    "tests/test_bots_search.py",
    "tests/test_corpus.py",
    "tests/test_declarations.py",
    "tests/test_event_types.py",
    "tests/test_jsoncodec.py",
    "tests/test_kit",
    "tests/test_language.py",
    "tests/test_rules_service.py",
    "tests/test_rules_versions.py",
    "tests/test_tournament.py",
)
ENGINE_NICENESS = 10  # CPU weight about a tenth of the live tests' while both run


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        engine = item.nodeid.startswith(ENGINE_TESTS)
        item.add_marker(pytest.mark.xdist_group("engine" if engine else "live"))


_niced: list[bool] = []


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The process running the engine's group yields the CPU to the live one's (under xdist)."""
    group = item.get_closest_marker("xdist_group")
    engine = group is not None and group.args == ("engine",)
    if engine and not _niced and os.environ.get("PYTEST_XDIST_WORKER"):
        os.nice(ENGINE_NICENESS)
        _niced.append(True)
