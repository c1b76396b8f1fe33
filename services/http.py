"""What every Tapete service shares: the app factory, one error shape, health, metrics, JSON logs.

Errors always leave as ``{"error": {"code", "message", "details"?}}``. The engine's
refusals and the application layers' domain errors (``services/errors.py``) map to HTTP
statuses here, in one table, so every service agrees.
"""

from __future__ import annotations

import functools
import io
import logging
import re
import secrets
import time
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import flask_smorest
import marshmallow as ma
import prometheus_client
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask, Request, Response, g, has_request_context, jsonify, request
from flask.json.provider import JSONProvider
from marshmallow import missing
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as prom_multiprocess
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, UnsupportedMediaType
from werkzeug.middleware.proxy_fix import ProxyFix

from services import tracing
from services.errors import (
    BadRequest,
    Conflict,
    DomainError,
    Forbidden,
    NotFound,
    Rejected,
    TooManyRequests,
    Unauthorized,
    Unavailable,
    UpstreamRefused,
)
from services.logs import MAX_REQUEST_ID_LENGTH, REQUEST_ID_HEADER, json_logging
from services.settings import MissingSecret, Settings
from services.spec import Ref, component_ref
from shared import jsoncodec
from shared.engine import (
    BadSetup,
    EngineError,
    IllegalAction,
    InvalidState,
    UnknownGame,
    UnknownVariant,
)
from shared.engine.language import DEFAULT_LANGUAGE, LANGUAGES, Reader, choose_language

# Every refusal's HTTP status, the first type that matches (subclasses before their bases).
ERROR_STATUS: list[tuple[type[Exception], int]] = [
    # the engine's
    (UnknownGame, 404),
    (UnknownVariant, 400),
    (BadSetup, 400),
    (InvalidState, 400),
    (IllegalAction, 422),
    (EngineError, 400),
    # the application layers' (services/errors.py)
    (BadRequest, 400),
    (Unauthorized, 401),
    (Forbidden, 403),
    (NotFound, 404),
    (Conflict, 409),
    (Rejected, 422),
    (TooManyRequests, 429),
    (UpstreamRefused, 502),
    (Unavailable, 503),
]

HTTP_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
    422: "illegal_action", 429: "too_many_requests", 500: "internal", 503: "unavailable",
}  # fmt: skip

# prometheus_client's global registry: metrics defined anywhere (the lobby's moves, also when a
# bot worker makes a move in process) land in one place that every /metrics endpoint serves.
REGISTRY = prometheus_client.REGISTRY
REQUESTS = Counter(
    "tapete_http_requests_total",
    "HTTP requests",
    ["service", "method", "endpoint", "status"],
    registry=REGISTRY,
)
LATENCY = Histogram(
    "tapete_http_request_seconds",
    "HTTP request latency",
    ["service", "method", "endpoint"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
    registry=REGISTRY,
)
REFUSALS = Counter(
    "tapete_http_refusals_total",
    "answers in the error shape, by status and error code",
    ["service", "status", "code"],
    registry=REGISTRY,
)


# Where webargs found a problem, as the error message names it.
INPUT_LOCATIONS = {"json": "request body", "query": "query", "headers": "headers"}

HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


# The labelled children, found once: prometheus_client checks and locks on every labels() call.
# Every label is bounded (our services, HTTP_METHODS, the routes, the statuses), and so are these.
@functools.cache
def counted(service: str, method: str, endpoint: str, status: int) -> Any:
    return REQUESTS.labels(service, method, endpoint, str(status))


@functools.cache
def refused(service: str, status: int, code: str) -> Any:
    return REFUSALS.labels(service, str(status), code)  # codes: the ones this source names


@functools.cache
def timed(service: str, method: str, endpoint: str) -> Any:
    return LATENCY.labels(service, method, endpoint)


class ErrorSchema(ma.Schema):
    """Every refusal: ``{"error": {"code", "message", "details"?}}``, the body a union on
    ``code`` whose ``details`` each code types (``services/spec.py``)."""

    error = Ref("ErrorBody", required=True)


class _Parser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400  # malformed input is a 400; 422 means an illegal move

    def load_json(self, req: Request, schema: ma.Schema) -> Any:
        """The body through ``shared.jsoncodec`` (webargs would use the slower ``json``).

        A body sent as anything but JSON is a 415, not a 400 for fields it seems to lack;
        no body at all is an empty one (the schema's defaults apply).
        """
        data = req.get_data(cache=True)
        if not data:
            return missing
        if not is_json_request(req):
            raise UnsupportedMediaType("send the body as JSON, with Content-Type: application/json")
        try:
            return jsoncodec.loads(data)
        except ValueError as exc:
            self._handle_invalid_json_error(exc, req)  # type: ignore[arg-type]


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = _Parser()


class RefPlugin(MarshmallowPlugin):
    """apispec's marshmallow plugin documenting ``Ref`` fields by reference (``services/spec.py``)
    from the start, before flask-smorest converts its error schema."""

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        assert self.converter is not None
        self.converter.add_attribute_function(component_ref)


class Api(flask_smorest.Api):
    ERROR_SCHEMA = ErrorSchema

    def _register_pagination_header(self) -> None:
        """No view pages through flask-smorest: its pagination schema would be an unused
        component of every spec."""

    def handle_http_exception(self, error: HTTPException):  # type: ignore[override]
        data = getattr(error, "data", None) or {}
        details = data.get("errors") or data.get("messages")
        where, problems = "request body", details
        if (
            isinstance(details, dict)
            and len(details) == 1
            and next(iter(details)) in INPUT_LOCATIONS
        ):
            location = next(iter(details))
            where, problems = INPUT_LOCATIONS[location], details[location]
            if location == "json":
                details = problems
        message = data.get("message") or error.description or HTTPStatus(error.code or 500).phrase
        if details and not data.get("message"):
            message = f"the {where} is invalid: " + _first_problem(problems)
        response, status = error_response(
            error.code or 500, HTTP_CODES.get(error.code or 500, "error"), message, details
        )
        for name, value in error.get_headers():  # e.g. a 405's Allow
            if name.lower() != "content-type":
                response.headers[name] = value
        return response, status


def _first_problem(details: Any, path: str = "") -> str:
    if isinstance(details, dict) and details:
        key, value = next(iter(details.items()))
        return _first_problem(value, f"{path}.{key}" if path else str(key))
    if isinstance(details, list) and details:
        return _first_problem(details[0], path)
    return f"{path}: {details}" if path else str(details)


def direct(payload: dict) -> Response:
    """A hot endpoint's answer as JSON, skipping its response schema's dump (which cost the
    rules service more than the rules themselves). The schema still documents the shape, and
    the services' tests load such answers back through it."""
    return jsonify(payload)


def error_response(
    status: int, code: str, message: str, details: Any = None
) -> tuple[Response, int]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    if has_request_context():
        g.error_code = code  # counted by code when the answer leaves (create_app)
    return jsonify({"error": body}), status


def status_of(exc: EngineError | DomainError) -> int:
    """The HTTP status of a refusal, from ``ERROR_STATUS``."""
    return next(status for kind, status in ERROR_STATUS if isinstance(exc, kind))


def request_language() -> str:
    """The language of the answer: the request's ``lang`` query parameter (one of
    ``LANGUAGES``), else the best of its ``Accept-Language`` header, else ``DEFAULT_LANGUAGE``."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    explicit = request.args.get("lang")
    chosen = choose_language(
        explicit if explicit in LANGUAGES else None, request.headers.get("Accept-Language")
    )
    return chosen or DEFAULT_LANGUAGE


def request_reader() -> Reader:
    """Who reads this answer: its language and the players' names a view set (``g.names``)."""
    names = g.get("names", ()) if has_request_context() else ()
    return Reader(request_language(), tuple(names or ()))


def refusal_response(exc: EngineError | DomainError) -> tuple[Response, int]:
    """An engine error or a domain error in the one error shape, with its status (and, for
    a rate limit, ``Retry-After``). An engine error's message is a sentence in the request's
    language (``request_language``)."""
    if isinstance(exc, DomainError):
        response, status = error_response(status_of(exc), exc.code, exc.message, exc.details)
        if isinstance(exc, TooManyRequests):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response, status
    details = {"legal_actions": exc.legal} if isinstance(exc, IllegalAction) else None
    return error_response(status_of(exc), exc.code, exc.text(request_reader()), details)


class OrjsonProvider(JSONProvider):
    """Flask's JSON through ``shared.jsoncodec``: request bodies in, every answer out."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return jsoncodec.dumps_text(obj)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return jsoncodec.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        body = jsoncodec.dumps(self._prepare_response_obj(args, kwargs))
        return Response(body, mimetype="application/json")


class SyncFlask(Flask):
    """Flask for views that are all synchronous, as ours are: it skips the coroutine check
    Flask makes on every call, which flask-smorest's stacked decorators repeat about fifteen
    times a request."""

    def ensure_sync(self, func: Callable) -> Callable:  # type: ignore[override]
        return func


class Cors:
    """Cross-origin access for browser clients on the configured origins (``CORS_ORIGINS``).

    A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) is answered here, before
    any view or token check: a browser never sends credentials with it. An origin that is
    not allowed gets the same answer without the ``Access-Control-Allow-*`` headers, so
    the browser refuses the call, and the server says nothing more.
    """

    METHODS = "GET, POST, DELETE, OPTIONS"
    HEADERS = f"Authorization, Content-Type, Last-Event-ID, {REQUEST_ID_HEADER}"
    EXPOSED = f"{REQUEST_ID_HEADER}, Retry-After, Location"
    MAX_AGE = "600"

    def __init__(self, origins: tuple[str, ...]) -> None:
        self.any = "*" in origins
        self.origins = frozenset(origins)

    def allowed(self, origin: str | None) -> bool:
        return bool(origin) and (self.any or origin in self.origins)

    def preflight(self, req: Request) -> Response | None:
        if req.method != "OPTIONS" or "Access-Control-Request-Method" not in req.headers:
            return None
        response = Response(status=204)
        if self.allowed(req.headers.get("Origin")):
            response.headers["Access-Control-Allow-Methods"] = self.METHODS
            response.headers["Access-Control-Allow-Headers"] = self.HEADERS
            response.headers["Access-Control-Max-Age"] = self.MAX_AGE
        return response

    def allow(self, req: Request, response: Response) -> None:
        origin = req.headers.get("Origin")
        if self.origins:
            response.vary.add("Origin")
        if self.allowed(origin):
            response.headers["Access-Control-Allow-Origin"] = origin or ""
            response.headers["Access-Control-Expose-Headers"] = self.EXPOSED


def request_log_level(status: int, seconds: float, slow_seconds: float) -> int:
    """Which requests get a log line at INFO: refusals, failures and slow ones. A plain success
    is logged at DEBUG only: the metrics count every request, and a line per move cost the
    services about a tenth of their CPU."""
    if status >= 500:
        return logging.WARNING
    if status >= 400 or seconds >= slow_seconds:
        return logging.INFO
    return logging.DEBUG


# A caller's request id is kept if it is 1 to 128 visible ASCII characters; any other is
# replaced by a fresh one, so a log line or a header passed downstream stays small and plain.
REQUEST_ID = re.compile(rf"[!-~]{{1,{MAX_REQUEST_ID_LENGTH}}}")


def accepted_request_id(sent: str | None) -> str:
    """The caller's ``X-Request-ID`` if it is acceptable (``REQUEST_ID``), else a new one."""
    return (
        sent if sent and REQUEST_ID.fullmatch(sent) else secrets.token_hex(16)
    )  # as uuid4().hex, 5x cheaper


def read_unsized_body(limit: int) -> None:
    """Read a body sent without Content-Length (chunked) here, up to ``limit`` bytes, and
    refuse it with 413 past that, as a sized one is; the views then read it as a sized one.
    Without this a chunked body over the limit reached the parser cut short."""
    environ = request.environ
    if environ.get("CONTENT_LENGTH") or not environ.get("wsgi.input_terminated"):
        return
    data = environ["wsgi.input"].read(limit + 1)
    if len(data) > limit:
        raise RequestEntityTooLarge()
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))


def request_id() -> str:
    """The id of the request being served, carried to downstream services."""
    return getattr(g, "request_id", "") or "-"


def gunicorn_app(factory: Callable[[], Flask]) -> Flask:
    """The app a gunicorn worker serves (the ``wsgi`` modules). A missing or unusable secret
    (``MissingSecret``) becomes gunicorn's ``AppImportError``: gunicorn prints its one line and
    stops (exit 4, "App failed to load") instead of a traceback per worker; a plain exit
    would only have it start the worker again, and again."""
    try:
        return factory()
    except MissingSecret as exc:
        from gunicorn.errors import AppImportError

        raise AppImportError(str(exc)) from None


def create_app(
    service: str,
    title: str,
    blueprints: list[flask_smorest.Blueprint],
    ready: Callable[[], bool] | None = None,
    config: dict | None = None,
    settings: Settings | None = None,
    port: int | None = None,
) -> Flask:
    """A Flask app with the API spec, the error shape, probes, metrics and request logging;
    ``settings`` (default: from the environment) gives the log level and slow threshold;
    ``port`` is the service's own under ``make run``, the spec's server."""
    settings = settings or Settings.from_env()
    slow_seconds = settings.slow_request_ms / 1000
    app = SyncFlask(service)
    app.config.update(
        API_TITLE=title,
        API_VERSION="1.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        API_SPEC_OPTIONS={
            "info": {
                "description": f"{title}: see docs/ and docs/clients.md",
                "contact": {"name": "the Tapete maintainers"},
            },
            "servers": [
                {"url": f"http://127.0.0.1:{port}", "description": "make run, on this machine"}
            ]
            if port
            else [],
        },
    )
    app.config.update(config or {})
    if settings.forwarded_hops:  # the client's address, as the proxies in front saw it
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.forwarded_hops)  # type: ignore[method-assign]
    app.json = OrjsonProvider(app)  # keys keep their order: "type" stays first in actions
    tracing.setup(service, settings.otel_endpoint)  # off without an OTLP endpoint
    tracing.instrument_app(app, service)
    api = Api(app, spec_kwargs={"marshmallow_plugin": RefPlugin()})
    for blp in blueprints:
        api.register_blueprint(blp)
    app.extensions["tapete_api"] = api
    log = logging.getLogger(f"tapete.{service}")
    if not log.handlers:
        json_logging(service, [log.name], settings.log_level)

    cors = Cors(settings.cors_origins)

    @app.before_request
    def _start() -> Response | None:
        g.request_id = accepted_request_id(request.headers.get(REQUEST_ID_HEADER))
        g.started = time.perf_counter()
        read_unsized_body(app.config["MAX_CONTENT_LENGTH"])
        return cors.preflight(request)  # before any blueprint's check of the token

    @app.after_request
    def _finish(response: Response) -> Response:
        elapsed = time.perf_counter() - g.get("started", time.perf_counter())
        endpoint = request.url_rule.rule if request.url_rule else "unmatched"
        method = request.method if request.method in HTTP_METHODS else "other"
        counted(service, method, endpoint, response.status_code).inc()
        timed(service, method, endpoint).observe(elapsed)
        if response.status_code >= 400:
            refused(service, response.status_code, g.get("error_code", "other")).inc()
        response.headers[REQUEST_ID_HEADER] = request_id()
        cors.allow(request, response)
        level = request_log_level(response.status_code, elapsed, slow_seconds)
        if log.isEnabledFor(level) and endpoint not in ("/healthz", "/readyz", "/metrics"):
            log.log(
                level,
                "request",
                extra={"fields": {"request_id": request_id(), "method": request.method, "path": request.path,
                                  "status": response.status_code, "ms": round(elapsed * 1000, 2)}},
            )  # fmt: skip
        return response

    @app.errorhandler(DomainError)
    @app.errorhandler(EngineError)
    def _refused(exc: EngineError | DomainError):
        return refusal_response(exc)

    @app.errorhandler(RecursionError)
    def _too_deep(exc: RecursionError):  # a body nested deeper than Python recurses
        return error_response(400, "bad_request", "the request body is nested too deeply")

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        if isinstance(exc, HTTPException):
            return api.handle_http_exception(exc)
        log.exception("unhandled error", extra={"fields": {"request_id": request_id()}})
        return error_response(
            500, "internal", "internal error; the request changed nothing it should not"
        )

    @app.get("/healthz")
    def _healthz():
        return {"status": "ok"}

    @app.get("/readyz")
    def _readyz():
        if ready is not None and not ready():
            return error_response(503, "unavailable", "not ready: a dependency does not answer")
        return {"status": "ready"}

    @app.get("/metrics")
    def _metrics():
        registry = REGISTRY
        if settings.prometheus_multiproc_dir:
            registry = CollectorRegistry()
            prom_multiprocess.MultiProcessCollector(registry)
        return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)

    return app
