"""gunicorn entry point: ``gunicorn services.history.wsgi:app`` (REDIS_URL, FEED_PARTITIONS)."""

from services.history.app import create_history_app

app = create_history_app()
