"""gunicorn entry point: ``gunicorn services.history.wsgi:app`` (REDIS_URL, FEED_PARTITIONS)."""

from services.history.app import create_history_app
from services.http import gunicorn_app

app = gunicorn_app(create_history_app)
