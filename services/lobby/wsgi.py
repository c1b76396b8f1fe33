"""gunicorn entry point: ``gunicorn services.lobby.wsgi:app`` (REDIS_URL, RULES_URL)."""

from services.http import gunicorn_app
from services.lobby.app import create_lobby_app

app = gunicorn_app(create_lobby_app)
