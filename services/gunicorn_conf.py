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
limit_request_line = (
    8190  # bytes of the request line (gunicorn's maximum; nginx in front allows 8 KB too)
)
limit_request_fields = 50  # header fields (gunicorn's default: 100)
limit_request_field_size = 8190  # bytes of one header field
accesslog = None  # the apps log each request as JSON themselves
errorlog = "-"
# No control socket (gunicorn >= 25.1 opens one by default, the same path for every instance
# of a user: $HOME/.gunicorn/gunicorn.ctl). Several gunicorns share a host under `make run`
# and the tests, and the first to stop deleted the others' socket; nothing here uses gunicornc.
control_socket_disable = True


def child_exit(server, worker):
    """A worker gone (restarted, or stopped by a rolling restart): its share of the live
    gauges (``tapete_feed_subscribers``) leaves the multiprocess metrics with it."""
    if _settings.prometheus_multiproc_dir:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid, _settings.prometheus_multiproc_dir)
