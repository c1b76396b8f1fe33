"""gunicorn settings of the feed process: the lobby app on gevent, for thousands of streams.

The same app as the lobby (``services.lobby.wsgi:app``), served by gevent's cooperative
worker: an open stream is a greenlet waiting on an event, not a thread, and the process's
one feed reader (``services/lobby/feed.py``) fans entries out to all of them. The Ingress
sends only ``/v1/matches/{id}/stream`` here; everything else goes to the threaded lobby.
"""

from gevent import monkey

monkey.patch_all()  # before anything imports ssl or sockets: gevent's own advice for gunicorn

import signal  # noqa: E402

from services.gunicorn_conf import (  # noqa: E402, F401
    _settings,
    accesslog,
    child_exit,
    control_socket_disable,
    errorlog,
    keepalive,
    timeout,
)

workers = _settings.feed_workers
worker_class = "gevent"
worker_connections = _settings.feed_max_streams
graceful_timeout = min(_settings.gunicorn_graceful_timeout, 10)


def post_worker_init(worker):
    """On SIGTERM, first tell every stream to reconnect (elsewhere), then stop as gunicorn does."""
    import gevent

    hub = worker.wsgi.extensions["lobby"].hub

    def stop(sig, frame):
        gevent.spawn(hub.stop)
        worker.handle_exit(sig, frame)

    signal.signal(signal.SIGTERM, stop)
