pytest_plugins = []
