"""One move's trace across real processes, exported by OTLP (services/tracing.py).

The rules service, the lobby and a feed process under gunicorn (the feed on gevent) and the
history consumer, each with ``OTEL_EXPORTER_OTLP_ENDPOINT`` pointing at a small OTLP/HTTP
receiver in this test (it decodes OpenTelemetry's protobuf export requests). One move is
made; its spans must come back from all four processes in one trace, each hop the child of
the one before it: the rules service's request of the lobby's rules call (the
``traceparent`` header), the feed's delivery and the history's update of the lobby's request
(the ``traceparent`` field of the Redis stream entry). tests/test_tracing.py checks the same
links in one process, in more detail.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from tests.history_fixtures import Consumers
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import FEED_CONF, Http, Service, session
from tests.sse import Stream

MOVE = "POST /v1/matches/<match_id>/actions"


class Receiver(ThreadingHTTPServer):
    """OTLP over HTTP: POST /v1/traces with an ExportTraceServiceRequest; keeps every span
    as a dict (trace and span ids in hex, parent, name, its process's service.name)."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802
        request = ExportTraceServiceRequest.FromString(
            self.rfile.read(int(self.headers["Content-Length"]))
        )
        for resource in request.resource_spans:
            service = next(
                a.value.string_value
                for a in resource.resource.attributes
                if a.key == "service.name"
            )
            for scope in resource.scope_spans:
                with self.server.lock:
                    self.server.spans += [
                        {"trace": s.trace_id.hex(), "id": s.span_id.hex(),
                         "parent": s.parent_span_id.hex(), "name": s.name, "service": service}
                        for s in scope.spans
                    ]  # fmt: skip
        body = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


@pytest.fixture(scope="module")
def traced(redis_store: RedisStore, receiver: Receiver) -> Iterator[dict[str, Service]]:
    otel = {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url, "OTEL_BSP_SCHEDULE_DELAY": "200"}
    env = {**redis_store.env, **otel, "GUNICORN_WORKERS": "1"}
    rules = Service("rules", "services.rules.wsgi:app", env)
    rules.start()
    lobby = Service("lobby", "services.lobby.wsgi:app", {**env, "RULES_URL": rules.url})
    feed = Service("feed", "services.lobby.wsgi:app", {**env, "RULES_URL": rules.url}, FEED_CONF)
    consumers = Consumers(redis_store)
    try:
        lobby.start()
        feed.start()
        consumers.start("traced-consumer", **otel)
        yield {"lobby": lobby, "feed": feed}
    finally:
        consumers.stop_all()
        for service in (feed, lobby, rules):
            service.stop()


def test_one_move_is_one_trace_across_the_processes(
    traced: dict[str, Service], receiver: Receiver
) -> None:
    http = Http(session(), traced["lobby"].url)
    match, seated = http.seated_match()
    seat = match["to_act"][0]
    stream = Stream(f"{traced['feed'].url}/v1/matches/{match['id']}/stream", seated[0]["token"])
    messages = stream.messages()
    assert next(m for m in messages if m.event == "entry")  # the feed's reader runs now
    view = http.view(seated[seat], match["id"])
    reply = http.act(seated[seat], match["id"], view["view"]["legal_actions"][0], view["version"])
    assert reply.status == 200, reply.body
    stream.close()

    def found() -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        with receiver.lock:
            moves = [s for s in receiver.spans if s["name"] == MOVE]
            if not moves:
                return None
            trace = [s for s in receiver.spans if s["trace"] == moves[-1]["trace"]]
        names = {s["name"] for s in trace}
        done = {"feed deliver", "history update", "POST /v1/games/<game_id>/apply"} <= names
        return (moves[-1], trace) if done else None

    deadline = time.monotonic() + 60
    while (result := found()) is None:
        assert time.monotonic() < deadline, sorted({s["name"] for s in receiver.spans})
        time.sleep(0.2)
    move, trace = result
    by_id = {s["id"]: s for s in trace}
    [call] = [s for s in trace if s["name"] == "rules POST /v1/games/brisca/apply"]
    [served] = [s for s in trace if s["name"] == "POST /v1/games/<game_id>/apply"]
    assert (move["service"], call["service"], served["service"]) == ("lobby", "lobby", "rules")
    assert call["parent"] == move["id"] and served["parent"] == call["id"]
    delivered = [s for s in trace if s["name"] == "feed deliver"]
    [updated] = [s for s in trace if s["name"] == "history update"]
    assert delivered and all(s["parent"] == move["id"] for s in delivered)
    assert updated["parent"] == move["id"] and updated["service"] == "history-consumer"
    assert by_id[move["id"]]["parent"] == "", "the move's request starts the trace"
