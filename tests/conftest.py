pytest_plugins = [
    "tests.redis_fixtures",
    "tests.service_fixtures",
    "tests.history_fixtures",
    "tests.bots_fixtures",
]
