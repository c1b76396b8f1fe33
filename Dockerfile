# syntax=docker/dockerfile:1
# One image for every Tapete process; the command picks the process (docker-compose.yml, k8s/):
#   gunicorn --config python:services.gunicorn_conf --bind 0.0.0.0:8001 services.rules.wsgi:app
#   gunicorn ... --bind 0.0.0.0:8000 services.lobby.wsgi:app
#   gunicorn ... --bind 0.0.0.0:8002 services.history.wsgi:app
#   python -m services.history.consumer | python -m services.bots.dispatcher | python -m services.bots.worker
#   python -m services.gateway --static /opt/tapete/web   (the web client)
# The project is installed as a package (its version is what log entries record as
# rules_version), so the gunicorn settings are loaded as the module services.gunicorn_conf.
# -- web: the web client (web/), built from the locked npm packages into static files ---------
# Its API client is generated from openapi/*.yaml and it bundles docs/games/*.md and the
# original rule texts, shared/games/rules/*.txt.
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY openapi /src/openapi
COPY docs/games /src/docs/games
COPY shared/games/rules /src/shared/games/rules
COPY web ./
RUN npm run build

# -- build: the project and its dependencies in a virtualenv without pip ---------------------
# Both stages on the same base: the venv's python is a link to the base image's python.
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
RUN python -m venv --without-pip /opt/tapete
WORKDIR /src
# Dependencies first, in their own layer: a code change does not reinstall them.
COPY pyproject.toml ./
RUN python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))' > requirements.txt \
 && pip --python /opt/tapete/bin/python install --only-binary=:all: -r requirements.txt
COPY shared ./shared
COPY services ./services
RUN pip --python /opt/tapete/bin/python install --no-deps . \
 && /opt/tapete/bin/python -c 'import services.rules.app, services.lobby.app, services.history.app, services.bots.dispatcher, services.bots.worker'

# -- runtime: the virtualenv on a clean base; no compiler, no pip in the venv, not root ------
FROM python:3.11-slim-bookworm AS runtime
RUN groupadd --system --gid 10001 tapete \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin tapete
COPY --from=build /opt/tapete /opt/tapete
# The web app, served by `python -m services.gateway --static /opt/tapete/web` (k8s/base/web.yaml).
COPY --from=web /src/web/dist /opt/tapete/web
# HOME=/tmp: the one writable place, for whatever writes under $HOME (gunicorn runs without
# its control socket, services/gunicorn_conf.py).
ENV PATH=/opt/tapete/bin:$PATH \
    HOME=/tmp \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
WORKDIR /opt/tapete
# Numeric, so Kubernetes can check runAsNonRoot without reading /etc/passwd.
USER 10001:10001
EXPOSE 8000 8001 8002
CMD ["gunicorn", "--config", "python:services.gunicorn_conf", "--bind", "0.0.0.0:8000", "services.lobby.wsgi:app"]
