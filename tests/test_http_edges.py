"""Edges of HTTP every service shares (services/http.py): bodies without a length, request ids,
405's Allow, and an action with a field its type does not have."""

from __future__ import annotations

import socket

import pytest

from services.logs import MAX_REQUEST_ID_LENGTH
from tests.service_fixtures import Http, Service, error_of, session
from tests.test_limits import http, lobby  # noqa: F401  (fixtures: the lobby in process)

MAX_BODY = 4 * 1024 * 1024  # the services' MAX_CONTENT_LENGTH


def chunked_post(url: str, path: str, size: int) -> tuple[int, bytes]:
    """POST a JSON body of about ``size`` bytes in chunks, with no Content-Length; (status, body)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
        sock.sendall(head.encode())
        body = b'{"name": "' + b"x" * (size - 13) + b'"}'
        try:
            for start in range(0, len(body), 64 * 1024):
                chunk = body[start : start + 64 * 1024]
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may answer and close before the whole body is sent
        answer = b""
        while data := sock.recv(65536):
            answer += data
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]


def test_a_chunked_body_over_the_limit_is_413_too_large(lobby_service: Service):
    status, body = chunked_post(lobby_service.url, "/v1/players", MAX_BODY + 1024)
    assert status == 413 and b'"too_large"' in body


def test_a_chunked_body_under_the_limit_is_read_whole(lobby_service: Service):
    status, body = chunked_post(lobby_service.url, "/v1/players", 30)
    assert status == 201 and b'"token"' in body


@pytest.mark.parametrize("sent", ["x" * (MAX_REQUEST_ID_LENGTH + 1), "a b", "é"])
def test_an_unacceptable_request_id_is_replaced(http: Http, sent: str):  # noqa: F811
    reply = http.get("/healthz", headers={"X-Request-ID": sent})
    kept = reply.headers["X-Request-ID"]
    assert kept != sent and 0 < len(kept) <= MAX_REQUEST_ID_LENGTH


def test_a_request_id_up_to_the_limit_is_kept(lobby_service: Service):
    sent = "r" * MAX_REQUEST_ID_LENGTH
    reply = session().get(f"{lobby_service.url}/healthz", headers={"X-Request-ID": sent})
    assert reply.headers["X-Request-ID"] == sent


def test_405_says_which_methods_are_allowed(http: Http):  # noqa: F811
    reply = http.call("DELETE", "/v1/players")
    error_of(reply, 405, "method_not_allowed")
    assert set(reply.headers["Allow"].replace(" ", "").split(",")) >= {"POST", "OPTIONS"}


def test_an_action_with_an_unknown_field_is_refused_naming_it(http: Http):  # noqa: F811
    match, seated = http.seated_match()
    mover = seated[match["to_act"][0]]
    legal = http.view(mover, match["id"])["view"]["legal_actions"][0]
    reply = http.act(mover, match["id"], {**legal, "bogus": 1}, match["version"])
    assert "bogus" in error_of(reply, 422, "illegal_action")["message"]
    assert http.view(mover, match["id"])["version"] == match["version"]


def test_a_request_with_too_many_header_fields_is_refused_by_gunicorn(lobby_service: Service):
    headers = {f"X-Filler-{i}": "x" for i in range(60)}
    assert session().get(f"{lobby_service.url}/healthz", headers=headers).status_code == 431
    assert (
        session().get(f"{lobby_service.url}/healthz", headers=dict(list(headers.items())[:40])).ok
    )
