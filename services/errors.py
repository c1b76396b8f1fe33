"""Why a service refuses a request, as typed domain errors: a machine code, a message, details.

The application layers (the lobby's, ``services/lobby/application.py`` and the concerns it
puts together, and ``services/history/application.py``) raise these and know nothing of
HTTP, so a bot worker or a timer can call them in process and tell a refusal by its type.
``services/http.py`` maps each type to its HTTP status in one table, beside the engine's
errors, and answers with the one error shape.
"""

from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    """A refusal: ``code`` (machine-readable, the type's default unless given), ``message``
    (for people) and optional ``details``."""

    default_code: ClassVar[str] = "error"

    def __init__(self, message: str, *, code: str | None = None, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.details = details


class BadRequest(DomainError):
    """What was asked cannot be served as asked (a seat or option out of range, an unknown game)."""

    default_code = "bad_request"


class Unauthorized(DomainError):
    """No caller could be identified (no token, or an unknown one)."""

    default_code = "unauthorized"


class Forbidden(DomainError):
    """The caller is known but may not do this (not seated, not their turn, not their match)."""

    default_code = "forbidden"


class NotFound(DomainError):
    """No such thing (a match, a player, a game)."""

    default_code = "not_found"


class Conflict(DomainError):
    """The thing's current state does not allow it (a stale version, a taken seat, a finished match)."""

    default_code = "conflict"


class Rejected(DomainError):
    """The rules refused the action (illegal, not this seat's turn): passed on with their code."""

    default_code = "illegal_action"


class TooManyRequests(DomainError):
    """The caller went over a rate limit; ``retry_after``: whole seconds until it may again."""

    default_code = "too_many_requests"

    def __init__(self, message: str, retry_after: int, *, code: str | None = None) -> None:
        super().__init__(message, code=code, details={"retry_after": retry_after})
        self.retry_after = retry_after


class UpstreamRefused(DomainError):
    """A service behind this one refused what this one sent it (a defect, not the caller's)."""

    default_code = "upstream_refused"


class Unavailable(DomainError):
    """A service or store this one needs does not answer; the caller may try again."""

    default_code = "unavailable"
