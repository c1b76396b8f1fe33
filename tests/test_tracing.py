"""One move's trace (services/tracing.py), in one process with an in-memory exporter.

The lobby app (Flask's test client) on the real Redis, calling a real rules app over HTTP
(werkzeug's server in a thread, with pycurl as in production), the lobby's own feed reader
delivering to a stream, and the history consumer's loop, all in this process, so one
exporter holds every span. The links cross as they do between processes: the rules call by
its ``traceparent`` header over a real connection, the feed and the consumer by the
``traceparent`` field of the Redis stream entry (their threads share no context with the
request). The OTLP export and gunicorn's processes: tests/test_tracing_live.py.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind
from werkzeug.serving import make_server

from services import tracing
from services.history.consumer import Consumer
from services.history.store import ReadModels
from services.lobby import application as lobby_application
from services.lobby.app import create_lobby_app
from services.lobby.application import Lobby
from services.lobby.feed import EntryReader
from services.lobby.rules_client import RulesClient
from services.logs import JsonLogFormatter
from services.rules.app import create_rules_app
from services.settings import Settings
from services.store import match_log
from shared import jsoncodec
from shared.feedgroup import GroupSettings
from shared.redis_server import free_port
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import Http, wait_until

MOVE = "POST /v1/matches/<match_id>/actions"


@pytest.fixture(scope="module")
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    assert tracing.setup("tapete-test", None, exporter)
    yield exporter
    tracing.stop()


@pytest.fixture(scope="module")
def rules_url(spans: InMemorySpanExporter) -> Iterator[str]:
    """The rules app served over HTTP from a thread of this process."""
    server = make_server("127.0.0.1", free_port(), create_rules_app(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def lobby(redis_store: RedisStore, redis_client: Any, rules_url: str) -> Iterator[Lobby]:
    client = lobby_application.redis_client(redis_store.url)
    service = Lobby(client, RulesClient(rules_url), match_log(redis_store.settings, client))
    yield service
    service.hub.stop()


def test_one_move_is_one_trace_from_the_lobby_to_the_rules_redis_the_feed_and_the_history(
    spans: InMemorySpanExporter, lobby: Lobby, redis_store: RedisStore
) -> None:
    http = Http(create_lobby_app({"TESTING": True}, service=lobby).test_client())
    match, seated = http.seated_match()
    reader = EntryReader(match["game"], 1)
    listener = lobby.hub.subscribe(match["id"], seated[1]["id"], reader)  # the feed's reader runs
    # It reads from what comes next once it has started: a first move, once delivered to the
    # subscriber, shows it is reading (however long the thread took to start).
    seat = match["to_act"][0]
    view = http.view(seated[seat], match["id"])
    first = http.act(seated[seat], match["id"], view["view"]["legal_actions"][0], view["version"])
    assert first.status == 200, first.body
    wait_until(lambda: bool(listener.items))
    seat = first.body["view"]["to_act"][0]
    view = http.view(seated[seat], match["id"])
    spans.clear()
    reply = http.act(seated[seat], match["id"], view["view"]["legal_actions"][0], view["version"])
    assert reply.status == 200, reply.body
    [move] = [s for s in spans.get_finished_spans() if s.name == MOVE]
    assert move.kind == SpanKind.SERVER and move.attributes["tapete.service"] == "lobby"
    trace_id = move.context.trace_id
    consumer = Consumer(
        ReadModels(lobby.client, lobby.log), GroupSettings(name="traced", block_ms=100)
    )
    consumer.ensure_groups()

    def in_the_trace() -> set[str]:
        return {s.name for s in spans.get_finished_spans() if s.context.trace_id == trace_id}

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not {"feed deliver", "history update"} <= in_the_trace():
        consumer.step()
    same_trace = [s for s in spans.get_finished_spans() if s.context.trace_id == trace_id]

    def children(parent: Any, **where: Any) -> list[Any]:
        return [
            s for s in same_trace
            if s.parent is not None and s.parent.span_id == parent.context.span_id
            and all(getattr(s, key) == value for key, value in where.items())
        ]  # fmt: skip

    [call] = [s for s in children(move) if s.name == "rules POST /v1/games/brisca/apply"]
    assert call.kind == SpanKind.CLIENT
    [served] = children(call)  # the rules service's request, by the traceparent header
    assert served.kind == SpanKind.SERVER and served.attributes["tapete.service"] == "rules"
    assert served.name == "POST /v1/games/<game_id>/apply"
    scripts = [s for s in children(move) if s.attributes.get("db.system") == "redis"]
    assert any("EVALSHA" in s.name for s in scripts), [s.name for s in scripts]  # the append
    # across Redis, by the feed entry: one per feed reader of this process (other tests'
    # lobbies may still be reading the feed)
    delivered = children(move, name="feed deliver")
    [updated] = children(move, name="history update")
    assert delivered and {s.kind for s in [*delivered, updated]} == {SpanKind.CONSUMER}
    assert any(s.attributes.get("db.system") == "redis" for s in children(updated))
    assert {s.context.trace_id for s in (call, served, *delivered, updated)} == {trace_id}


def test_the_feed_entry_carries_the_trace_only_while_tracing_is_on(
    spans: InMemorySpanExporter, lobby: Lobby, redis_store: RedisStore
) -> None:
    http = Http(create_lobby_app({"TESTING": True}, service=lobby).test_client())
    match, _ = http.seated_match()
    [(_id, fields)] = lobby.client.xrevrange(lobby.log.feed_key(0), count=1)
    assert set(fields) == {"match", "version", "kind", "event", "traceparent"}
    assert fields["match"] == match["id"] and jsoncodec.loads(fields["event"])
    plain = match_log(Settings(), lobby.client)  # what an untraced process writes
    tracing_was = list(tracing._on)
    tracing._on.clear()
    try:
        assert plain.notification_fields is not None and plain.notification_fields() == {}
        with tracing.continued("history update", [fields]):
            pass  # off: no span at all
    finally:
        tracing._on[:] = tracing_was
    spans.clear()
    with tracing.continued("history update", [{"match": "m", "version": "1"}]):
        pass  # an entry written without tracing (or by an older release): a trace of its own
    [alone] = spans.get_finished_spans()
    assert alone.parent is None


def test_log_lines_carry_the_trace_and_span_ids(spans: InMemorySpanExporter) -> None:
    formatter = JsonLogFormatter("lobby")
    record = logging.LogRecord("tapete.lobby", logging.INFO, __file__, 1, "request", None, None)
    assert "trace_id" not in jsoncodec.loads(formatter.format(record))
    with tracing.span("work") as current:
        line = jsoncodec.loads(formatter.format(record))
    assert line["trace_id"] == format(current.get_span_context().trace_id, "032x")
    assert line["span_id"] == format(current.get_span_context().span_id, "016x")


def test_tracing_is_off_unless_an_otlp_endpoint_is_set() -> None:
    assert Settings.from_env({}).otel_endpoint is None
    endpoint = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}
    assert Settings.from_env(endpoint).otel_endpoint == "http://collector:4318"
