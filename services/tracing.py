"""Traces across the services with OpenTelemetry: one trace per move, from the lobby through
the rules service and Redis to the feed and the history consumer.

Off unless ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) is
set: then each process exports its spans there by OTLP over HTTP (the exporter reads the
other ``OTEL_EXPORTER_OTLP_*`` variables itself). Off, nothing is instrumented and every
helper here returns at its first test, so tracing costs nothing when it is not wanted.

Where the trace goes, all at the edges of the code:

* an HTTP service's requests (Flask's instrumentation, in ``services/http.py``'s factory);
  a caller's ``traceparent`` header makes the request a child of the caller's span;
* the lobby's rules calls (``services/lobby/rules_client.py``): a client span, and the
  ``traceparent`` header that makes the rules service's span its child;
* every Redis command (redis-py's instrumentation) and the bot workers' HTTP calls
  (requests' instrumentation);
* across Redis: the feed notification of an append carries the ``traceparent`` of the span
  that wrote it (``notification_fields``, given to the match log by ``services/store.py``),
  and the feed's delivery and the history consumer's update continue that trace
  (``continued``). A notification without the field (written with tracing off, or by an
  older release) starts a trace of its own.

The JSON log lines carry the current span's ``trace_id`` and ``span_id`` (``services/logs.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from opentelemetry import context, propagate, trace
from opentelemetry.trace import Link, SpanKind

TRACEPARENT = "traceparent"
HIDDEN_PATHS = "healthz,readyz,metrics"  # probes and scrapes make no spans

_on: list[Any] = []  # not empty once this process traces: [its tracer provider]
tracer = trace.get_tracer("tapete")


def enabled() -> bool:
    return bool(_on)


def setup(service: str, endpoint: str | None, exporter: Any = None) -> bool:
    """Trace this process as ``service`` when an OTLP ``endpoint`` is configured (or a test
    gives an ``exporter``); once per process, the first call decides. Whether it traces."""
    if _on or (endpoint is None and exporter is None):
        return enabled()
    from opentelemetry.instrumentation.redis import RedisInstrumentor
    from opentelemetry.instrumentation.requests import RequestsInstrumentor
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    provider = TracerProvider(resource=Resource.create({SERVICE_NAME: service}))
    if exporter is None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    else:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    RedisInstrumentor().instrument(tracer_provider=provider)
    RequestsInstrumentor().instrument(tracer_provider=provider)
    _on.append(provider)
    return True


def stop() -> None:
    """Stop tracing this process (the tests that turned it on): instrumentations removed,
    spans in hand exported."""
    if not _on:
        return
    from opentelemetry.instrumentation.redis import RedisInstrumentor
    from opentelemetry.instrumentation.requests import RequestsInstrumentor

    RedisInstrumentor().uninstrument()
    RequestsInstrumentor().uninstrument()
    _on.pop().force_flush()


def instrument_app(app: Any, service: str) -> None:
    """Spans for the Flask app's requests, each marked with the service that served it."""
    if not _on:
        return
    from opentelemetry.instrumentation.flask import FlaskInstrumentor

    def named(span: Any, _environ: Any) -> None:
        if span.is_recording():
            span.set_attribute("tapete.service", service)

    FlaskInstrumentor().instrument_app(
        app, request_hook=named, excluded_urls=HIDDEN_PATHS, tracer_provider=_on[0]
    )


def span(name: str, client: bool = False) -> contextlib.AbstractContextManager[Any]:
    """A span around a piece of work (a client call with ``client``), or nothing when off."""
    if not _on:
        return contextlib.nullcontext()
    return tracer.start_as_current_span(name, kind=SpanKind.CLIENT if client else SpanKind.INTERNAL)


def headers() -> list[str]:
    """The current span's ``traceparent`` as HTTP header lines (none when off)."""
    if not _on:
        return []
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return [f"{name}: {value}" for name, value in carrier.items()]


def notification_fields() -> dict[str, str]:
    """The current span's ``traceparent``, for a feed notification (nothing when off)."""
    if not _on:
        return {}
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return {TRACEPARENT: carrier[TRACEPARENT]} if TRACEPARENT in carrier else {}


def continued(
    name: str, notifications: Sequence[Mapping[str, Any]]
) -> contextlib.AbstractContextManager[Any]:
    """A consumer's span for work on ``notifications``: a child of the last one's writer
    (the move it tells of), linked to the others' (several moves handled at once); a trace
    of its own when none carries a ``traceparent``. Nothing when off."""
    if not _on:
        return contextlib.nullcontext()
    writers = [
        propagate.extract({TRACEPARENT: fields[TRACEPARENT]})
        for fields in notifications
        if isinstance(fields.get(TRACEPARENT), str)
    ]
    found = [c for c in writers if trace.get_current_span(c).get_span_context().is_valid]
    links = [Link(trace.get_current_span(c).get_span_context()) for c in found[:-1]]
    parent = found[-1] if found else context.Context()
    return tracer.start_as_current_span(name, parent, SpanKind.CONSUMER, links=links)


def current_ids() -> dict[str, str]:
    """The current span's ``trace_id`` and ``span_id`` in hex, for a log line (none when no
    span is current)."""
    found = trace.get_current_span().get_span_context()
    if not found.is_valid:
        return {}
    return {"trace_id": format(found.trace_id, "032x"), "span_id": format(found.span_id, "016x")}
