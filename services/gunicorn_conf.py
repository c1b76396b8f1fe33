"""gunicorn settings shared by every service (override with GUNICORN_* environment variables)."""

from services.settings import Settings

_settings = Settings.from_env()

workers = _settings.gunicorn_workers
threads = _settings.gunicorn_threads
worker_class = "gthread"
timeout = _settings.gunicorn_timeout
graceful_timeout = _settings.gunicorn_graceful_timeout
keepalive = 5
accesslog = None  # the apps log each request as JSON themselves
errorlog = "-"
