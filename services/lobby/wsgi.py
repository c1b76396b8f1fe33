"""gunicorn entry point: ``gunicorn services.lobby.wsgi:app`` (REDIS_URL, RULES_URL)."""

from services.lobby.app import create_lobby_app

app = create_lobby_app()
