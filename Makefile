# Tapete: `make run` starts the platform, `make test` installs everything and runs the suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: install test lint format run demo bench openapi clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,lint]'
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy shared services

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Every service in the foreground; Ctrl-C stops them all. Without REDIS_URL, an embedded
# Redis (valkey from PyPI) keeps its data in var/redis across restarts.
run: $(STAMP)
	mkdir -p var/redis
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho start -f Procfile

# A bot-only match against the running platform (`make run` in another terminal): its moves
# as they happen, the final scores and the history service's verification.
GAME     ?= brisca
VARIANT  ?= base
PLAYERS  ?=
STRATEGY ?= greedy
demo: $(STAMP)
	$(BIN)/python -m services.bots.demo --game $(GAME) --variant $(VARIANT) --strategy $(STRATEGY) $(if $(PLAYERS),--players $(PLAYERS))

openapi: $(STAMP)
	$(BIN)/python -m services.openapi_dump

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[bench]' || echo "open-spiel unavailable: reference line skipped"
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/lobby.py
	$(BIN)/python bench/history.py
	$(BIN)/python bench/redis_memory.py
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/feed.py
	$(BIN)/python bench/feed.py --feed-priority
	$(BIN)/python bench/slow_clients.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache

# The deployment files, checked without a cluster or Docker (tests/test_deploy.py): kustomize
# renders both overlays, kubernetes-validate, checkov, the Compose specification. The tools
# come from PyPI into .venv/deploy (deploy/install-tools.sh).
.PHONY: deploy-check
deploy-check: $(STAMP)
	bash deploy/install-tools.sh $(VENV)/deploy
	TAPETE_DEPLOY_TOOLS="$(CURDIR)/$(VENV)/deploy/bin" $(BIN)/python -m pytest tests/test_deploy.py
