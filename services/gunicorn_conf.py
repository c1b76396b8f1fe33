"""gunicorn settings shared by every service (override with GUNICORN_* environment variables)."""

from services.settings import Settings

_settings = Settings.from_env()

workers = _settings.gunicorn_workers
threads = _settings.gunicorn_threads
worker_class = "gthread"
timeout = _settings.gunicorn_timeout
graceful_timeout = _settings.gunicorn_graceful_timeout
keepalive = 5
# What one request may make a worker read before it is refused (431, 400); the proxy in front
# (deploy/nginx) bounds how slowly it may arrive, which gunicorn's threads cannot.
limit_request_line = 4094  # bytes of the request line
limit_request_fields = 50  # header fields (gunicorn's default: 100)
limit_request_field_size = 8190  # bytes of one header field
accesslog = None  # the apps log each request as JSON themselves
errorlog = "-"
