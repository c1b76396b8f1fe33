"""Logs as one JSON object per line on stderr, and the request id that ties lines together
across services. No Flask here: the consumers, the dispatcher and the workers log the same
way as the HTTP services (``services/http.py``)."""

from __future__ import annotations

import logging
import sys

from services.tracing import current_ids
from shared import jsoncodec

REQUEST_ID_HEADER = "X-Request-ID"  # the lobby sends it along with every rules call
MAX_REQUEST_ID_LENGTH = 128  # a longer one is replaced by a fresh id (services/http.py)


class JsonLogFormatter(logging.Formatter):
    def __init__(self, service: str):
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        doc = {
            "time": round(record.created, 3),
            "level": record.levelname.lower(),
            "service": self.service,
            "message": record.getMessage(),
        }
        doc.update(getattr(record, "fields", {}))
        doc.update(current_ids())  # the trace this line belongs to, if any (services/tracing.py)
        if record.exc_info:
            doc["exception"] = self.formatException(record.exc_info)
        return jsoncodec.dumps_text(doc)


def json_logging(service: str, loggers: list[str], level: str) -> None:
    """Send these loggers' records, as ``service``'s JSON lines, to stderr, at ``level``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLogFormatter(service))
    for name in loggers:
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level)
        logger.propagate = False
