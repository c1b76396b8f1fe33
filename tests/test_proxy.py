"""The proxy in front of the public services (deploy/nginx/tapete.conf.template): Debian's
nginx, run with the project's configuration in front of real gunicorn services, routes the
public paths as the Kubernetes Ingress does and keeps slow clients away from the services.
nginx is installed by the set-up where missing (tests/proxy_fixtures.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
import requests
import yaml

from services.gateway import SECURITY_HEADERS
from shared.redis_server import free_port
from tests.proxy_fixtures import TEMPLATE, Proxy, SlowClients, nginx_binary
from tests.service_fixtures import ROOT, Http, Service, session

INGRESS = ROOT / "k8s" / "base" / "ingress.yaml"
FEED_INGRESS = ROOT / "k8s" / "base" / "feed.yaml"
SLOW_CLIENTS = 500
ANSWER_WITHIN_S = 5.0  # each request while the slow clients drip


@pytest.fixture(scope="module")
def proxy(
    lobby_service: Service, feed_service: Service, history_service: Service, rules_service: Service
) -> Iterator[Proxy]:
    address = lambda service: f"127.0.0.1:{service.port}"  # noqa: E731
    upstreams = {
        "LOBBY_UPSTREAM": address(lobby_service),
        "FEED_UPSTREAM": address(feed_service),
        "HISTORY_UPSTREAM": address(history_service),
        "RULES_UPSTREAM": address(rules_service),
        "WEB_UPSTREAM": f"127.0.0.1:{free_port()}",  # no web app here: 502
        "RESOLVER": "127.0.0.1",
    }
    running = Proxy(nginx_binary(), upstreams)
    yield running
    running.stop()


def ingress_paths() -> set[str]:
    """Every path regex of the Ingress objects (the API's and the feed's)."""
    paths = set()
    for doc in [*yaml.safe_load_all(INGRESS.read_text()), *yaml.safe_load_all(FEED_INGRESS.read_text())]:  # fmt: skip
        if doc and doc.get("kind") == "Ingress":
            for rule in doc["spec"]["rules"]:
                paths |= {p["path"] for p in rule["http"]["paths"]}
    return paths


def test_the_proxy_routes_the_same_paths_as_the_ingress():
    locations = set(re.findall(r"location ~ \^(\S+) \{", TEMPLATE.read_text()))
    assert locations == ingress_paths()


def test_each_public_path_reaches_its_service_through_the_proxy(proxy: Proxy):
    http = Http(session(), proxy.url)
    ana, bea = http.player("Ana"), http.player("Bea")
    assert "brisca" in {g["id"] for g in http.get("/v1/games").body["games"]}  # rules
    match = http.match(ana, players=2)
    http.join(ana, match["id"])
    started = http.join(bea, match["id"])
    board = http.get("/v1/leaderboards/brisca")
    assert board.status == 200, board.body  # history's (the lobby has no such path)
    stream = session().get(
        f"{proxy.url}/v1/matches/{match['id']}/stream?after={started['version']}",
        headers={"Authorization": f"Bearer {ana['token']}"},
        stream=True,
        timeout=10,
    )
    assert stream.status_code == 200
    assert stream.headers["Content-Type"].startswith("text/event-stream")  # the feed
    stream.close()
    assert requests.get(f"{proxy.url}/", timeout=5).status_code == 502  # the web app's path


def test_the_proxy_sends_the_web_app_s_security_headers_once_on_every_answer(proxy: Proxy):
    added = re.findall(r'^\s*add_header (\S+) "?(.*?)"? always;$', TEMPLATE.read_text(), re.M)
    assert added == list(SECURITY_HEADERS)  # the gateway's, word for word
    for path in ("/v1/games", "/", "/v1/nothing"):  # the rules', the web app's (502), nobody's
        reply = requests.get(f"{proxy.url}{path}", timeout=5)
        for name, value in SECURITY_HEADERS:
            assert reply.raw.headers.getlist(name) == [value], (path, name)


def test_a_body_over_the_limit_is_refused_by_the_proxy(proxy: Proxy):
    reply = session().post(f"{proxy.url}/v1/players", data=b"x" * (4 * 1024 * 1024 + 1), timeout=10)
    assert reply.status_code == 413


def test_500_slow_header_clients_leave_moves_and_health_answering(
    proxy: Proxy, lobby_service: Service, history_service: Service
):
    slow = SlowClients(proxy.port, SLOW_CLIENTS)
    try:
        time.sleep(1.5)  # every slow client has sent, and dripped, part of its headers
        client = session()
        http = Http(client, proxy.url)
        match, seated = http.seated_match()
        version, to_act = match["version"], match["to_act"]
        for _ in range(6):  # moves through the proxy, each answered promptly
            mover = seated[to_act[0]]
            legal = http.view(mover, match["id"])["view"]["legal_actions"][0]
            started = time.monotonic()
            reply = http.act(mover, match["id"], legal, version)
            assert reply.status == 200 and time.monotonic() - started < ANSWER_WITHIN_S
            version, to_act = reply.body["version"], reply.body["view"]["to_act"]
        for service in (lobby_service, history_service):
            started = time.monotonic()
            health = client.get(f"{service.url}/healthz", timeout=ANSWER_WITHIN_S)
            assert health.status_code == 200 and time.monotonic() - started < ANSWER_WITHIN_S
        assert slow.still_open() == SLOW_CLIENTS  # they were all still dripping meanwhile
    finally:
        slow.close()
