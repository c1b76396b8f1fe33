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


FREEZE_EVERY_S = 1.0  # how often what the worker holds is set aside from the collector
FULL_COLLECTION_EVERY_S = 600.0  # how often it is collected whole nonetheless


def post_worker_init(worker):
    """On SIGTERM, first tell every stream to reconnect (elsewhere), then stop as gunicorn does;
    and keep the cyclic garbage collector to the young objects (``freeze_what_lives``)."""
    import gevent

    hub = worker.wsgi.extensions["lobby"].hub

    def stop(sig, frame):
        gevent.spawn(hub.stop)
        worker.handle_exit(sig, frame)

    signal.signal(signal.SIGTERM, stop)
    gevent.spawn(freeze_what_lives, gevent.sleep)


def freeze_what_lives(sleep, every=FREEZE_EVERY_S, full_every=FULL_COLLECTION_EVERY_S):
    """Every ``every`` s, move every object the worker holds into the collector's permanent
    generation (``gc.freeze``, which costs nothing): an open stream is a few hundred objects
    (its greenlet, request, socket, buffer) that live as long as it does, and with thousands
    of them each full collection scanned them all, again and again, and took most of the
    worker's time (measured: 83% of it at 10,000 deliveries a second, the streams stalled
    for seconds). Objects frozen are still freed when no longer referenced; only the cycles
    among them wait for the full collection every ``full_every`` s."""
    import gc
    import time

    collected = time.monotonic()
    while True:
        sleep(every)
        if time.monotonic() - collected >= full_every:
            gc.unfreeze()
            gc.collect()
            collected = time.monotonic()
        gc.freeze()
