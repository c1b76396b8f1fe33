"""The streaming feed as deployed: the lobby app on gevent, real gunicorn, real Redis.

Every variant's match streamed to each seat and a spectator exactly as the long-poll shows
it; resuming after 100 random cuts; tickets; a feed process killed or stopped mid-match;
the limits: a player's cap of open streams across feed processes, the tickets' rate limit,
and a client that reads nothing cut off (raw sockets).
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
import requests
import yaml
from jsonschema import Draft202012Validator
from prometheus_client import CollectorRegistry, Histogram

from services.lobby.feed import GOODBYE, HEARTBEAT, EntryReader, Tally, changes_readers
from services.lobby.tickets import TICKET_KEY
from services.openapi_dump import OPENAPI_DIR
from shared.engine import all_games
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import (
    Http,
    Service,
    children_of,
    error_of,
    feed_process,
    session,
    wait_until,
)
from tests.sse import Stream

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(ROOT, "k8s", "base", "feed.yaml"), encoding="utf-8") as manifest:
    FEED_GRACE_S = next(  # the feed pod's termination grace: its SIGTERM must end within it
        doc["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
        for doc in yaml.safe_load_all(manifest)
        if doc and doc.get("kind") == "Deployment"
    )


@pytest.fixture
def http(lobby_service: Service) -> Http:
    return Http(session(), lobby_service.url)


def stream_url(feed: Service, match_id: str, ticket: str | None = None) -> str:
    return f"{feed.url}/v1/matches/{match_id}/stream" + (f"?ticket={ticket}" if ticket else "")


def log_as_seen_by(http: Http, player: dict[str, Any], match_id: str) -> list[dict[str, Any]]:
    """The long-poll's entries for this caller: what the stream must deliver, entry for entry."""
    return http.events(player, match_id).body["entries"]


class Follower(threading.Thread):
    """Reads one stream in the background until ``until()`` gives a version it has reached."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.stream = Stream(url, token)
        self.entries: list[dict[str, Any]] = []
        self.final: int | None = None

    def run(self) -> None:
        try:
            for message in self.stream.messages():
                if message.event == "entry":
                    self.entries.append(message.entry)
                    if self.final is not None and self.entries[-1]["version"] >= self.final:
                        return
        except (AttributeError, requests.RequestException):
            if self.final is None:  # closed by finish(); anything else is a failure
                raise

    def finish(self, version: int, timeout: float = 20) -> list[dict[str, Any]]:
        self.final = version
        deadline = time.monotonic() + timeout
        while (not self.entries or self.entries[-1]["version"] < version) and self.is_alive():
            assert time.monotonic() < deadline, "the stream did not deliver the last entry"
            time.sleep(0.02)
        self.stream.close()
        return self.entries


def every_game() -> list[tuple[str, str, int]]:
    """Each game's base variant at its smallest count (the engine's suite covers every variant's
    views; here the point is that the stream carries exactly those views, game by game)."""
    return [(game.id, "base", game.player_range("base")[0]) for game in all_games()]


Streamed = dict[str, Any]


@pytest.fixture(scope="module")
def streamed(lobby_service: Service, feed_service: Service) -> dict[tuple, Streamed]:
    """Every game played to its end while each seat and a spectator follow its stream."""

    def play(setup: tuple[str, str, int]) -> Streamed:
        game, variant, players = setup
        http = Http(session(), lobby_service.url)
        seated = [http.player(f"P{i}") for i in range(players)]
        spectator = http.player("Spectator")
        match = http.match(seated[0], game=game, variant=variant, players=players)
        followers = [
            Follower(stream_url(feed_service, match["id"]), p["token"])
            for p in [*seated, spectator]
        ]
        for follower in followers:
            follower.start()
        for seat, player in enumerate(seated[:-1]):
            match = http.join(player, match["id"], seat=seat)
        seated_at = match["version"] + 1  # the last join: every seat is known from here on
        match = http.join(seated[-1], match["id"], seat=players - 1)
        final, _moves = http.play_to_the_end(match, seated, random.Random(f"{game}/{variant}"))
        got = [f.finish(final["version"]) for f in followers]
        want = [log_as_seen_by(http, p, match["id"]) for p in [*seated, spectator]]
        return {"got": got, "want": want, "players": players, "seated_at": seated_at}

    setups = every_game()
    with ThreadPoolExecutor(min(len(setups), 16)) as pool:
        return dict(zip(setups, pool.map(play, setups), strict=True))


@pytest.mark.parametrize("setup", every_game(), ids=lambda s: f"{s[0]}/{s[1]}/{s[2]}p")
def test_every_seat_and_a_spectator_stream_exactly_the_log_as_they_may_see_it(streamed, setup):
    result = streamed[setup]
    for who, (got, want) in enumerate(zip(result["got"], result["want"], strict=True)):
        seat = who if who < result["players"] else None
        assert [e["version"] for e in got] == [e["version"] for e in want], seat
        assert [e["kind"] for e in got] == [e["kind"] for e in want], seat
        # before its join a player streams as a spectator; from then on exactly its seat's log
        since = result["seated_at"] - 1
        assert got[since:] == want[since:], f"seat {seat}: the stream differs from the long-poll"
        for entry in got:
            for event in entry["events"]:
                hidden = event.get("visible_to") is not None and seat not in event["visible_to"]
                if hidden:
                    assert event.get("card") is None and not any(event.get("cards") or []), event


def test_only_a_seats_entry_changes_how_a_stream_reads_the_next_ones():
    """The hub says most entries once per kind of reader without following them reader by
    reader (``changes_readers``): an entry that seats or unseats someone, or names a player,
    is followed; a play is not, and following it would change nothing."""
    joined = {"version": 2, "seat": 1, "player": {"id": "p2", "name": "Bea"},
              "events": [{"type": "seat_joined", "player": "p2", "seat": 1}]}  # fmt: skip
    played = {"version": 9, "seat": 0, "events": [{"type": "card_played", "seat": 0}]}
    assert changes_readers(joined) and not changes_readers(played)
    reader = EntryReader("brisca", None, "en", ("Ana",))
    reader.follow(joined, "p2")
    assert (reader.seat, reader.names) == (1, ("Ana", "Bea"))
    before = reader.key()
    reader.follow(played, "p2")
    assert reader.key() == before


# -- resuming ------------------------------------------------------------------------------
def test_a_client_cut_a_hundred_times_ends_with_exactly_the_log(http: Http, feed_service: Service):
    match, seated = http.seated_match("brisca", 2)
    match_id, rng = match["id"], random.Random(11)
    done = threading.Event()

    def play() -> None:
        mover = Http(session(), http.base_url)
        to_act = match["to_act"]
        while to_act:
            time.sleep(0.03)
            view = mover.view(seated[to_act[0]], match_id)
            reply = mover.act(
                seated[to_act[0]], match_id, rng.choice(view["view"]["legal_actions"]),
                view["version"],
            )  # fmt: skip
            assert reply.status == 200, reply.body
            to_act = reply.body["view"]["to_act"]
        done.set()

    player = threading.Thread(target=play, daemon=True)
    player.start()
    got: list[dict[str, Any]] = []
    cuts = 0
    while cuts < 100 or player.is_alive():
        stream = Stream(
            stream_url(feed_service, match_id), seated[0]["token"], last_id=len(got), timeout=1
        )
        wanted = rng.randint(0, 3)
        try:
            for message in stream.messages():
                if wanted == 0:
                    break
                if message.event == "entry":
                    got.append(message.entry)
                    wanted -= 1
        except requests.ConnectionError:  # a second without news: also a cut
            pass
        stream.close()
        cuts += 1
    assert done.is_set(), "the moves stopped before the match ended"
    final = http.view(seated[0], match_id)["version"]
    if len(got) < final:
        stream = Stream(stream_url(feed_service, match_id), seated[0]["token"], last_id=len(got))
        got += stream.entries_until(final)
        stream.close()
    assert got == log_as_seen_by(http, seated[0], match_id)


def test_after_in_the_query_resumes_and_last_event_id_wins_over_it(
    http: Http, feed_service: Service
):
    match, seated = http.seated_match("brisca", 2)
    log = log_as_seen_by(http, seated[0], match["id"])
    url = stream_url(feed_service, match["id"])
    stream = Stream(f"{url}?after=1", seated[0]["token"])
    assert stream.entries_until(len(log)) == log[1:]
    stream.close()
    stream = Stream(f"{url}?after=1", seated[0]["token"], last_id=2)
    assert stream.entries_until(len(log)) == log[2:]
    stream.close()


# -- tickets -------------------------------------------------------------------------------
def ticket_for(http: Http, player: dict[str, Any], match_id: str) -> str:
    reply = http.post(f"/v1/matches/{match_id}/stream-ticket", player["token"])
    assert reply.status == 200, reply.body
    assert reply.body["stream"] == f"/v1/matches/{match_id}/stream?ticket={reply.body['ticket']}"
    return reply.body["ticket"]


def test_a_ticket_opens_the_stream_once_as_its_player(http: Http, feed_service: Service):
    match, seated = http.seated_match("brisca", 2)
    ticket = ticket_for(http, seated[1], match["id"])
    stream = Stream(stream_url(feed_service, match["id"], ticket))
    assert stream.status == 200
    log = log_as_seen_by(http, seated[1], match["id"])
    assert stream.entries_until(len(log)) == log  # seat 1's own cards, nobody else's
    stream.close()
    again = Stream(stream_url(feed_service, match["id"], ticket))
    assert again.status == 401 and again.error()["error"]["code"] == "invalid_ticket"


def test_a_ticket_for_another_match_or_an_expired_one_is_refused(
    http: Http, feed_service: Service, redis_url: str
):
    match, seated = http.seated_match("brisca", 2)
    other, _ = http.seated_match("brisca", 2)
    ticket = ticket_for(http, seated[0], match["id"])
    wrong = Stream(stream_url(feed_service, other["id"], ticket))
    assert wrong.status == 403 and wrong.error()["error"]["code"] == "ticket_mismatch"
    ticket = ticket_for(http, seated[0], match["id"])
    store = redis.Redis.from_url(redis_url)
    [key] = [k for k in store.scan_iter(TICKET_KEY.format(digest="*")) if store.pttl(k) > 1000]
    store.pexpire(key, 1)
    time.sleep(0.05)
    expired = Stream(stream_url(feed_service, match["id"], ticket))
    assert expired.status == 401 and expired.error()["error"]["code"] == "invalid_ticket"


def test_a_stream_without_a_token_or_ticket_is_refused(http: Http, feed_service: Service):
    match, _ = http.seated_match("brisca", 2)
    refused = Stream(stream_url(feed_service, match["id"]))
    assert refused.status == 401 and refused.error()["error"]["code"] == "unauthorized"
    unknown = Stream(stream_url(feed_service, "0123456789abcdef"), http.player()["token"])
    assert unknown.status == 404 and unknown.error()["error"]["code"] == "not_found"
    reply = session().get(
        stream_url(feed_service, match["id"]),
        headers={"Authorization": f"Bearer {http.player()['token']}", "Last-Event-ID": "x"},
        timeout=5,
    )
    assert reply.status_code == 400 and "Last-Event-ID" in reply.json()["error"]["message"]


def test_a_ticket_for_an_unknown_match_is_404(http: Http):
    reply = http.post("/v1/matches/0123456789abcdef/stream-ticket", http.player()["token"])
    error_of(reply, 404)


# -- processes that go away ---------------------------------------------------------------
def test_a_killed_feed_process_loses_nothing_for_a_client_that_resumes_elsewhere(
    http: Http, redis_store: RedisStore, rules_service: Service
):
    first = feed_process(redis_store, rules_service)
    second = feed_process(redis_store, rules_service)
    first.start()
    second.start()
    try:
        match, seated = http.seated_match("brisca", 2)
        stream = Stream(stream_url(first, match["id"]), seated[0]["token"])
        got = stream.entries_until(match["version"])
        assert first.process is not None
        for pid in children_of(first.process.pid) + [first.process.pid]:
            os.kill(pid, signal.SIGKILL)
        first.process.wait()
        first.process = None
        rng = random.Random(5)
        for _ in range(6):  # moves made while the client has no stream
            view = http.view(seated[0], match["id"])
            mover = seated[view["to_act"][0]]
            view = http.view(mover, match["id"])
            http.act(mover, match["id"], rng.choice(view["view"]["legal_actions"]), view["version"])
        final = http.view(seated[0], match["id"])["version"]
        resumed = Stream(stream_url(second, match["id"]), seated[0]["token"], last_id=len(got))
        got += resumed.entries_until(final)
        resumed.close()
        assert got == log_as_seen_by(http, seated[0], match["id"])
    finally:
        first.stop()
        second.stop()


def test_a_stopping_feed_process_tells_its_streams_to_reconnect(
    http: Http, redis_store: RedisStore, rules_service: Service
):
    feed = feed_process(redis_store, rules_service)
    feed.start()
    try:
        match, seated = http.seated_match("brisca", 2)
        stream = Stream(stream_url(feed, match["id"]), seated[0]["token"])
        stream.entries_until(match["version"])
        assert feed.process is not None
        started = time.monotonic()
        feed.process.send_signal(signal.SIGTERM)
        events = [m.event for m in stream.messages()]
        assert events == ["reconnect"] and stream.retry is not None
        # within the pod's grace; the process's own graceful timeout is 10 s, and a loaded
        # machine adds to the exit after it
        assert feed.process.wait(FEED_GRACE_S) == 0
        assert time.monotonic() - started < FEED_GRACE_S
    finally:
        feed.process = None if feed.process and feed.process.poll() is not None else feed.process
        feed.stop()


def test_the_feed_reports_its_subscribers_and_delivery_latency(http: Http, feed_service: Service):
    match, seated = http.seated_match("brisca", 2)
    follower = Follower(stream_url(feed_service, match["id"]), seated[0]["token"])
    follower.start()
    view = http.view(seated[match["to_act"][0]], match["id"])
    reply = http.act(
        seated[match["to_act"][0]], match["id"], view["view"]["legal_actions"][0], view["version"]
    )
    follower.finish(reply.body["version"])

    def delivered() -> bool:  # the hub adds its deliveries to the histogram every second
        text = session().get(f"{feed_service.url}/metrics", timeout=5).text
        assert "tapete_feed_subscribers" in text
        count = [
            line
            for line in text.splitlines()
            if line.startswith("tapete_feed_delivery_seconds_count")
        ]
        return bool(count) and float(count[0].split()[-1]) >= 1

    wait_until(delivered, timeout=10, what="a delivery in the histogram")


def test_a_tally_adds_to_the_histogram_what_observing_each_delay_would():
    registry = CollectorRegistry()
    buckets = (0.001, 0.01, 0.1, 1)
    observed = Histogram("observed", "each delay", buckets=buckets, registry=registry)
    tallied = Histogram("tallied", "the same, tallied", buckets=buckets, registry=registry)
    tally = Tally(tallied)
    for delay in (0.0, 0.0005, 0.001, 0.003, 0.1, 0.2, 7.0):
        observed.observe(delay)
        tally.add(delay)
    assert registry.get_sample_value("tallied_count") == 0  # nothing until the flush
    tally.flush()
    tally.flush()  # nothing twice
    for le in ("0.001", "0.01", "0.1", "1.0", "+Inf"):
        assert registry.get_sample_value("tallied_bucket", {"le": le}) == (
            registry.get_sample_value("observed_bucket", {"le": le})
        )
    assert registry.get_sample_value("tallied_sum") == pytest.approx(
        registry.get_sample_value("observed_sum")
    )


# -- what the spec says of the stream ----------------------------------------------------------
def sse_events(text: str) -> list[dict[str, Any]]:
    """The events of a stream's body as an SSE parser hands them over: each block's event
    name, id and retry, and its data parsed as JSON (blocks without data are no event)."""
    events = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in fields:
            event = {"event": fields["event"], "data": json.loads(fields["data"])}
            event.update({k: fields[k] for k in ("id",) if k in fields})
            event.update({k: int(fields[k]) for k in ("retry",) if k in fields})
            events.append(event)
    return events


def stream_event_schema() -> Draft202012Validator:
    spec = yaml.safe_load((OPENAPI_DIR / "lobby.yaml").read_text(encoding="utf-8"))
    body = spec["paths"]["/v1/matches/{match_id}/stream"]["get"]["responses"]["200"]["content"]
    items = body["text/event-stream"]["schema"]["contentSchema"]["items"]
    return Draft202012Validator({**items, "components": spec["components"]})


def test_every_event_of_a_stream_is_a_stream_event_of_the_spec(http: Http, feed_service: Service):
    match, seated = http.seated_match("brisca", 2)
    resigned = http.post(f"/v1/matches/{match['id']}/resign", seated[1]["token"])
    assert resigned.status == 200, resigned.body
    reply = session().get(
        stream_url(feed_service, match["id"]),
        headers={"Authorization": f"Bearer {seated[0]['token']}"},
        timeout=10,
    )  # the stream of a finished match ends after its finished event
    events = sse_events(reply.text) + sse_events(GOODBYE.decode())
    assert [e["event"] for e in events] == ["entry"] * resigned.body["version"] + [
        "finished", "reconnect"
    ]  # fmt: skip
    validator = stream_event_schema()
    for event in events:
        errors = sorted(validator.iter_errors(event), key=str)
        assert not errors, f"{event['event']}: {errors[0].message}"
    assert events[-2]["data"]["result"]["reason"] == "resigned"


# -- limits --------------------------------------------------------------------------------
LIMITED = {
    "FEED_STREAMS_PER_PLAYER": "3",
    "LIMIT_STREAM_TICKETS": "5/minute",
    "FEED_HEARTBEAT_SECONDS": "1",  # also the time a client has to take each write
    "FEED_BUFFER": "8",
    "FEED_SEND_BUFFER": "4096",  # so that a client reading nothing blocks a write soon
}


@pytest.fixture(scope="module")
def limited(redis_store: RedisStore, rules_service: Service) -> Iterator[list[Service]]:
    """Two feed processes on the session's Redis, with low stream limits."""
    processes = [feed_process(redis_store, rules_service, **LIMITED) for _ in range(2)]
    for process in processes:
        process.start()
    yield processes
    for process in processes:
        process.stop()


def feed_metric(feed: Service, name: str) -> float:
    text = session().get(f"{feed.url}/metrics", timeout=5).text
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


def test_a_player_holds_at_most_its_cap_of_open_streams_across_feed_processes(
    http: Http, limited: list[Service]
):
    first, second = limited
    match, seated = http.seated_match("brisca", 2)
    me, other = seated
    url = {feed: stream_url(feed, match["id"]) for feed in limited}
    held = [Stream(url[first], me["token"]), Stream(url[second], me["token"])]
    held.append(Stream(url[first], me["token"]))
    assert [stream.status for stream in held] == [200, 200, 200]
    for feed in limited:  # the fourth, on either process
        refused = Stream(url[feed], me["token"])
        assert refused.status == 429 and refused.error()["error"]["code"] == "too_many_streams"
        assert refused.response.headers["Retry-After"] == "1"  # a heartbeat: a closed one
        refused.close()  # is noticed at its next write
    theirs = Stream(url[second], other["token"])
    assert theirs.status == 200  # the cap is each player's
    theirs.close()

    held.pop().close()
    reopened: list[Stream] = []

    def room_again() -> bool:
        stream = Stream(url[second], me["token"])
        if stream.status != 200:
            stream.close()
            return False
        reopened.append(stream)
        return True

    wait_until(room_again, timeout=10, what="the closed stream's slot to be free again")
    for stream in held + reopened:
        stream.close()


def test_stream_tickets_are_rate_limited_per_player(http: Http, limited: list[Service]):
    feed = Http(session(), limited[0].url)  # the lobby's app: it issues tickets too
    match, seated = http.seated_match("brisca", 2)
    path = f"/v1/matches/{match['id']}/stream-ticket"
    replies = [feed.post(path, seated[0]["token"]) for _ in range(6)]
    assert [reply.status for reply in replies] == [200] * 5 + [429]
    error = error_of(replies[-1], 429, "too_many_requests")
    assert int(replies[-1].headers["Retry-After"]) == error["details"]["retry_after"] > 0
    assert feed.post(path, seated[1]["token"]).status == 200  # another player's own count


def silent_stream(feed: Service, match_id: str, token: str) -> socket.socket:
    """A stream opened on a raw socket whose client then reads nothing (a small receive
    buffer: little of what the server sends fits in it)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", feed.port))
    request = (
        f"GET /v1/matches/{match_id}/stream HTTP/1.1\r\nHost: feed\r\n"
        f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
    )
    sock.sendall(request.encode())
    return sock


def drained(sock: socket.socket, timeout: float = 5) -> bytes:
    """Everything the server sent, once the client reads again, up to the connection's end
    (or ``timeout`` s of silence)."""
    sock.settimeout(timeout)
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    sock.close()
    return got


def test_an_idle_stream_gets_a_heartbeat_each_interval(http: Http, limited: list[Service]):
    """No entry for seconds: the stream writes a comment every heartbeat (1 s here, up to
    the hub's watch's second late), so its client and the proxies between see it alive."""
    match, seated = http.seated_match("brisca", 2)
    sock = socket.create_connection(("127.0.0.1", limited[0].port))
    sock.sendall(
        f"GET /v1/matches/{match['id']}/stream HTTP/1.1\r\nHost: feed\r\n"
        f"Authorization: Bearer {seated[0]['token']}\r\n\r\n".encode()
    )
    time.sleep(4.5)
    beats = drained(sock, timeout=0.5).count(HEARTBEAT)
    assert 2 <= beats <= 5, beats


def test_a_stream_whose_client_reads_nothing_is_closed_long_before_its_match_ends(
    http: Http, limited: list[Service]
):
    """A client that reads nothing, on a match played to its end: its stream is cut off
    once a write has waited on it past a heartbeat or its buffer is full, so the server
    holds no more for it than its buffer and the kernel's bytes, and the stream ends."""
    feed = limited[0]
    cut_before = feed_metric(feed, "tapete_feed_cut_total")
    match, seated = http.seated_match("brisca", 2)
    silent = silent_stream(feed, match["id"], seated[0]["token"])
    final, _ = http.play_to_the_end(match, seated, random.Random(3))
    wait_until(
        lambda: feed_metric(feed, "tapete_feed_subscribers") == 0,
        timeout=10, what="the silent stream to end",
    )  # fmt: skip
    got = drained(silent).decode(errors="replace")
    versions = [int(line[4:]) for line in got.splitlines() if line.startswith("id: ")]
    print(f"\nsilent client: {len(got)} bytes, entries 1-{max(versions)} of {final['version']}")
    assert "event: finished" not in got and max(versions) < final["version"] // 2
    assert feed_metric(feed, "tapete_feed_cut_total") > cut_before


def test_a_slow_reader_is_dropped_with_a_reconnect_and_never_delays_the_others(
    http: Http, redis_store: RedisStore, rules_service: Service
):
    """A client that reads nothing while its match is played, then reads again (within the
    time a write may wait on it): its stream falls its buffer behind, ends with a
    ``reconnect`` event, and resumes from its last id with exactly the log; the other
    seat's stream, on the same match and process, keeps up all along."""
    feed = feed_process(
        redis_store, rules_service,
        FEED_BUFFER="4", FEED_HEARTBEAT_SECONDS="30", FEED_SEND_BUFFER="4096",
    )  # fmt: skip
    feed.start()
    try:
        match, seated = http.seated_match("brisca", 2)
        slow = silent_stream(feed, match["id"], seated[0]["token"])
        prompt = Follower(stream_url(feed, match["id"]), seated[1]["token"])
        prompt.start()
        final, _ = http.play_to_the_end(match, seated, random.Random(7))
        moved = time.monotonic()
        caught_up = prompt.finish(final["version"], timeout=5)
        print(f"\nthe prompt stream had the last entry {time.monotonic() - moved:.2f} s after it")
        assert caught_up == log_as_seen_by(http, seated[1], match["id"])
        assert time.monotonic() - moved < 2, "the slow reader delayed the other stream"
        text = drained(slow).decode(errors="replace")
        versions = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
        assert versions == list(range(1, len(versions) + 1)) and len(versions) < final["version"]
        after_the_last = text.rsplit(f"id: {versions[-1]}\n", 1)[1]
        assert GOODBYE.decode() in after_the_last and "event: finished" not in text
        assert feed_metric(feed, "tapete_feed_dropped_total") >= 1
        resumed = Stream(stream_url(feed, match["id"]), seated[0]["token"], last_id=versions[-1])
        rest = resumed.entries_until(final["version"])
        resumed.close()
        log = log_as_seen_by(http, seated[0], match["id"])
        assert [e["version"] for e in rest] == list(range(versions[-1] + 1, final["version"] + 1))
        assert rest == log[versions[-1] :]
    finally:
        feed.stop()
