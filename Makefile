# Tapete: `make run` starts the platform, `make test` installs everything and runs the suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: install test lint format run demo bench chaos openapi clean tournament ladder

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing Tapete and its dependencies into $(VENV) (the first time takes a few minutes)..."
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e '.[test,lint]'
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

# Each set in two pytest-xdist workers (a test file stays in one worker, with its own
# embedded Redis and services); against a REDIS_URL the tests share (and flush), one process.
XDIST ?= $(if $(REDIS_URL),-p no:xdist,-n 2 --dist loadfile)
test: $(STAMP)
	@# two sets at once: the engine's tests (marked in tests/conftest.py), niced, beside
	@# the live ones; each lists its slowest tests, to keep CI's time in view
	@mkdir -p var
	@nice -n 10 $(BIN)/python -m pytest $(XDIST) -m engine --durations=15 > var/engine-tests.log 2>&1 & \
	engine=$$!; \
	$(BIN)/python -m pytest $(XDIST) -m "not engine" --durations=30; live=$$?; \
	wait $$engine; engine_status=$$?; \
	echo "== the engine's tests, run beside the live ones (var/engine-tests.log):"; \
	cat var/engine-tests.log; \
	exit $$(( live != 0 || engine_status != 0 ))

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy shared services
	cd tools/openapi-lint && npm ci --no-audit --no-fund --loglevel=error && npm run --silent lint

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Every service in the foreground, under the project's supervisor (shared/supervisor.py): a
# process that dies is started again (with a growing pause), the others carry on; Ctrl-C
# stops them all. Without REDIS_URL, an embedded Redis (valkey from PyPI) keeps its data in
# var/redis across restarts. TAPETE_DEV=1: a development machine (a secret left unset is its
# development key, written in the source: docs/operations.md, "Secrets"). The ports are the
# Procfile's *_PORT variables; browser pages served from DEV_ORIGINS (a web client's
# development server) may call the services (CORS_ORIGINS, if set, wins). The web client is
# built first when missing or stale (web/build.sh, with Node.js and npm) and served with the
# API by the gateway; once every service answers, the supervisor prints the one URL to open
# last, on a line of its own (GATEWAY_PORT, 8080).
WORKERS ?= 1
DEV_ORIGINS ?= http://localhost:5173,http://127.0.0.1:5173
RULES_PORT   ?= 8001
FEED_PORT    ?= 8003
GATEWAY_PORT ?= 8080
READY_URLS = $(foreach port,$(LOBBY_PORT) $(RULES_PORT) $(HISTORY_PORT) $(FEED_PORT),--ready http://127.0.0.1:$(port)/readyz) --ready http://127.0.0.1:$(GATEWAY_PORT)/healthz
run: $(STAMP)
	mkdir -p var/redis
	@if command -v npm >/dev/null; then sh web/build.sh; else echo "npm not found: the web client is not built (install Node.js and npm for it; the API still runs)"; fi
	@if [ -f web/dist/index.html ]; then open="Tapete is ready: open http://127.0.0.1:$(GATEWAY_PORT)/ in a browser"; \
	else open="Tapete's API is ready at http://127.0.0.1:$(GATEWAY_PORT)/v1/games (no web client: it needs Node.js and npm)"; fi; \
	TAPETE_DEV=1 CORS_ORIGINS="$${CORS_ORIGINS-$(DEV_ORIGINS)}" PATH="$(CURDIR)/$(BIN):$$PATH" \
		$(BIN)/python -m shared.supervisor -f Procfile -c worker=$(WORKERS) $(READY_URLS) --announce "$$open"

# A bot-only match against the running platform (`make run` in another terminal): its moves
# as they happen, the final scores and the history service's verification.
GAME     ?= brisca
VARIANT  ?= base
PLAYERS  ?=
STRATEGY ?= greedy
# The same ports as `make run` (its Procfile's defaults, or the *_PORT variables you gave it).
LOBBY_PORT   ?= 8000
HISTORY_PORT ?= 8002
DEMO_LOBBY   ?= $(or $(LOBBY_URL),http://127.0.0.1:$(LOBBY_PORT))
DEMO_HISTORY ?= $(or $(HISTORY_URL),http://127.0.0.1:$(HISTORY_PORT))
demo: $(STAMP)
	$(BIN)/python -m services.bots.demo --game $(GAME) --variant $(VARIANT) --strategy $(STRATEGY) $(if $(PLAYERS),--players $(PLAYERS)) --lobby $(DEMO_LOBBY) --history $(DEMO_HISTORY)

openapi: $(STAMP)
	TAPETE_DEV=1 $(BIN)/python -m services.openapi_dump

bench: export TAPETE_DEV = 1
bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[bench]' || echo "open-spiel unavailable: reference line skipped"
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/lobby.py
	$(BIN)/python bench/lobby.py --listing
	$(BIN)/python bench/history.py
	$(BIN)/python bench/redis_memory.py
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/bots.py --levels hard
	$(BIN)/python bench/feed.py
	$(BIN)/python bench/slow_clients.py
	$(BIN)/python bench/matchmaking.py
	$(BIN)/python bench/shuffle.py

# Fault drills under load (bench/chaos.py): SIGKILL of Redis, a lobby worker, the lobby master,
# an rq worker, the dispatcher and the history consumer while bot matches and client moves
# run; prints moves acknowledged, lost, duplicated and the recovery time of each fault.
# `make test` runs its short form (tests/test_chaos.py).
ROUNDS ?= 3
chaos: $(STAMP)
	$(BIN)/python bench/chaos.py --rounds $(ROUNDS)

# Rolling restarts under load (bench/rolling.py): every lobby, feed and bot worker process
# restarted gracefully in turn, RESTARTS times in all, while clients play and stream; prints
# moves lost or duplicated, requests refused, stream entries missed or repeated. `make test`
# runs its short form (tests/test_rolling_restarts.py).
RESTARTS ?= 100
.PHONY: restart-drill
restart-drill: $(STAMP)
	$(BIN)/python bench/rolling.py --restarts $(RESTARTS)

# Backup and restore under load (bench/backup_drill.py, services/backup.py): a backup taken
# while matches are played and archived, restored into fresh servers from the AOF and from
# the snapshot, every match checked. `make test` runs its short form (tests/test_backup.py).
.PHONY: backup-drill
backup-drill: $(STAMP)
	$(BIN)/python bench/backup_drill.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache

# The deployment files, checked without a cluster or Docker (tests/test_deploy.py): kustomize
# renders both overlays, kubernetes-validate, checkov, the Compose specification; and the
# monitoring (tests/test_monitoring.py): the dashboard, the alerting rules through promtool.
# The tools come from PyPI into .venv/deploy, promtool from Debian (deploy/install-tools.sh).
.PHONY: deploy-check monitoring
deploy-check: $(STAMP)
	bash deploy/install-tools.sh $(VENV)/deploy
	TAPETE_DEPLOY_TOOLS="$(CURDIR)/$(VENV)/deploy/bin" $(BIN)/python -m pytest tests/test_deploy.py tests/test_monitoring.py

# The PrometheusRule, generated from the plain rules file (deploy/monitoring/render.py).
monitoring: $(STAMP)
	$(BIN)/python deploy/monitoring/render.py

# A tournament between two bot strategies (shared/bots/tournament.py): N matches, seats
# rotated and deals paired, in parallel over the cores; A's score with a 95% interval.
A ?= hard
B ?= easy
N ?= 400
tournament: $(STAMP)
	$(BIN)/python -m shared.bots.tournament --game $(GAME) --variant $(VARIANT) -a $(A) -b $(B) -n $(N)

# The bots' ladder (shared/bots/ladder.py): every level against those below it in eight
# 2-player games, each row until settled or capped; the table goes into docs/bots.md.
# MINUTES=N stops starting matches after N minutes.
ladder: $(STAMP)
	$(BIN)/python -m shared.bots.ladder --write docs/bots.md $(if $(MINUTES),--minutes $(MINUTES))
