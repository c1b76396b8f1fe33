"""Why the lobby refuses a request, as data the HTTP layer turns into the one error shape.

The application layer raises these without knowing about Flask, so a bot worker or a
timer can call it directly; ``app.py`` maps them to ``{"error": {...}}`` responses.
"""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A request the lobby refuses: HTTP ``status``, machine ``code``, a message, details."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def unauthorized(
    message: str = "send Authorization: Bearer <token> (POST /v1/players gives one)",
) -> Refused:
    return Refused(401, "unauthorized", message)


def forbidden(code: str, message: str) -> Refused:
    return Refused(403, code, message)


def not_found(message: str) -> Refused:
    return Refused(404, "not_found", message)


def conflict(code: str, message: str, details: Any = None) -> Refused:
    return Refused(409, code, message, details)


def bad_request(code: str, message: str, details: Any = None) -> Refused:
    return Refused(400, code, message, details)
