import os

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
