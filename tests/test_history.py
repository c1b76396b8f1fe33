"""The history service in process, on a real Redis, over logs the real lobby wrote.

Matches are played through the lobby's application layer against the real rules
service (a gunicorn process), so every entry has the lobby's exact format. The consumer
runs in process here (its loop step by step); tests/test_history_live.py runs it, the
lobby and the history service as real processes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
import redis
import yaml
from openapi_spec_validator import validate
from redis.crc import key_slot

from services.errors import Forbidden
from services.history import projections
from services.history.app import create_history_app
from services.history.application import History
from services.history.consumer import GROUP, Consumer, dead_key, plan
from services.history.replay import public_log
from services.history.store import leaderboard_key, player_key, ratings_key
from services.history.verify import engine_state_hash, verify
from services.lobby import application as lobby_application
from services.lobby.application import Lobby
from services.lobby.players import Player
from services.lobby.rules_client import RulesClient
from services.openapi_dump import OPENAPI_DIR, generated_spec
from shared.engine import State, get_game, new_match
from shared.eventstore import MatchLog, decode_entry, encode_entry
from shared.feedgroup import GroupSettings
from shared.verify import main as verify_main
from tests.corpus.logs import log_of
from tests.history_fixtures import forget_read_models, read_models
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import Http, Service, error_of

CORPUS = Path(__file__).resolve().parent / "corpus"


@pytest.fixture
def lobby(redis_client: redis.Redis, redis_store: RedisStore, rules_service: Service) -> Lobby:
    client = lobby_application.redis_client(redis_store.url, redis_store.settings.redis_cluster)
    return Lobby(client, RulesClient(rules_service.url), redis_store.log(client))


@pytest.fixture
def history(redis_client: redis.Redis, store_log: MatchLog) -> History:
    """On the session's store: its partitions (several on the cluster), as the services."""
    return History(redis_client, store_log)


@pytest.fixture
def http(history: History) -> Http:
    return Http(create_history_app({"TESTING": True}, service=history).test_client())


def seat_players(lobby: Lobby, count: int) -> list[Player]:
    return [lobby.register(f"P{i}")[0] for i in range(count)]


def play(
    lobby: Lobby,
    seated: list[Player],
    game: str = "brisca",
    variant: str = "base",
    seed: str = "",
    moves: int | None = None,
    player_seeds: list[str | None] | None = None,
) -> str:
    """A match of ``seated`` (seat i = seated[i], joining with ``player_seeds[i]``) played
    with random legal moves: its id.

    Stops after ``moves`` actions (None: at the end).
    """
    rng = random.Random(seed or f"{game}/{variant}")
    match = lobby.create_match(seated[0], game, variant, len(seated), {})
    for seat, player in enumerate(seated):
        lobby.join(player, match["id"], seat, (player_seeds or [None] * len(seated))[seat])
    played = 0
    while moves is None or played < moves:
        snap = lobby.load(match["id"])
        if snap.match["status"] == "finished":
            break
        seat = rng.choice(snap.match["to_act"])
        assert snap.state is not None
        legal = lobby.rules.view(game, snap.state, seat)["legal_actions"]
        lobby.submit_action(match["id"], seated[seat], rng.choice(legal), snap.version)
        played += 1
    return str(match["id"])


def open_match(lobby: Lobby, seated: list[Player]) -> dict[str, Any]:
    """A Brisca match not started yet, with ``seated`` in its seats (seat i = seated[i])."""
    match = lobby.create_match(seated[0], "brisca", "base", len(seated), {}, autostart=False)
    for seat, player in enumerate(seated):
        lobby.join(player, match["id"], seat)
    return match


def consume(history: History, **settings: Any) -> Consumer:
    """Run an in-process consumer until the feed has nothing new for it."""
    group = GroupSettings(name="test", block_ms=1, **settings)
    consumer = Consumer(history.models, group, history.archive)
    consumer.ensure_groups()
    while consumer.step():
        pass
    return consumer


def tamper(client: redis.Redis, match_id: str, version: int, change: Callable[[dict], Any]) -> None:
    """Edit one stored entry in place: the stream is rewritten with the same ids."""
    key = MatchLog(client).keys(match_id).log
    rows = cast(list, client.xrange(key))
    client.delete(key)
    for entry_id, fields in rows:
        if entry_id == f"0-{version}":
            entry = decode_entry(fields["entry"])
            change(entry)
            fields = {**fields, "entry": encode_entry(entry)}
        client.xadd(key, fields, id=entry_id)


def first_entry(entries: list[dict], test: Callable[[dict], bool]) -> dict:
    return next(e for e in entries if test(e))


def private_draw(entry: dict) -> bool:
    return any(e.get("visible_to") and e.get("card") for e in entry.get("events") or [])


# -- verification ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game, variant, players",
    [
        ("brisca", "base", 2),
        ("brisca", "tute-parejas", 4),
        ("raj", "base", 3),
        ("escoba", "base", 2),
        ("truco", "base", 2),
        ("solitario-4-ases", "base", 1),
    ],
)
def test_a_finished_match_verifies_every_event_and_state_hash(
    lobby: Lobby, history: History, game: str, variant: str, players: int
):
    match_id = play(lobby, seat_players(lobby, players), game, variant)
    report = history.verify(match_id)
    entries = history.log.entries(match_id)
    assert report["ok"], report["divergences"]
    assert report["divergences"] == [] and report["first_divergence"] is None
    assert report["checked"] == 1 + sum(e["kind"] == "action" for e in entries)
    assert report["seed"] == {
        "sha256": entries[players + 1]["seed_sha256"],
        "revealed": True,
        "matches": True,
    }
    assert report["rules_versions"] == [entries[0]["rules_version"]]


DEALT_TRIO_SEED = "trio-29"  # 99 for two: seat 1 is dealt three cards of one number


def test_a_match_its_deal_ends_finishes_at_its_start_and_verifies(
    lobby: Lobby, history: History, http: Http
):
    """99 ends at the deal when a hand is a trío: the start is also the end. The lobby must
    not leave such a match running with nobody to act (seen in the web client's catalog)."""
    rigged = Lobby(lobby.client, lobby.rules, lobby.log, new_seed=lambda: DEALT_TRIO_SEED)
    seated = seat_players(rigged, 2)
    created = rigged.create_match(seated[0], "noventa-y-nueve", "base", 2, {})
    for seat, player in enumerate(seated):
        joined = rigged.join(player, created["id"], seat)
    match_id = created["id"]
    assert joined["status"] == "finished" and joined["to_act"] == []
    match = rigged.load(match_id).match
    assert match["result"]["winners"] == [1] and match["seed"] == DEALT_TRIO_SEED
    start = history.log.entries(match_id)[-1]
    assert start["kind"] == "match.started" and start["status"] == "finished"
    assert start["finished"] is True and start["result"] == match["result"]
    assert start["seed"] == DEALT_TRIO_SEED
    report = history.verify(match_id)
    assert report["ok"], report["divergences"]
    assert report["seed"]["matches"] is True and report["checked"] == 1
    consume(history)
    summary = history.models.summary(match_id)
    assert summary is not None and summary["status"] == "finished"
    assert summary["result"] == match["result"] and summary["seed"] == DEALT_TRIO_SEED
    assert summary["moves"] == 0
    mine = http.get(f"/v1/players/{seated[1].id}/matches").body["matches"]
    assert [(m["id"], m["won"]) for m in mine] == [(match_id, True)]


def test_the_engine_hashes_a_state_as_the_lobby_does(lobby: Lobby):
    """Hash the engine's to_json(); the lobby hashes the sealed state without its seal."""
    match_id = play(lobby, seat_players(lobby, 2), moves=3)
    snap = lobby.load(match_id)
    assert snap.state is not None and "sig" in snap.state
    state = State.from_json({k: v for k, v in snap.state.items() if k != "sig"})
    assert engine_state_hash(state) == lobby.log.entries(match_id)[-1]["state_hash"]


def test_a_tampered_event_fails_verify_at_that_entry(lobby: Lobby, history: History, http: Http):
    match_id = play(lobby, seat_players(lobby, 2))
    entries = history.log.entries(match_id)
    target = first_entry(entries, lambda e: e["kind"] == "action" and private_draw(e))
    index = next(i for i, e in enumerate(target["events"]) if e.get("visible_to"))
    honest = target["events"][index]["card"]
    forged = "1O" if honest != "1O" else "1C"

    def swap_card(entry: dict) -> None:
        entry["events"][index]["card"] = forged

    tamper(history.client, match_id, target["version"], swap_card)
    reply = http.get(f"/v1/matches/{match_id}/verify")
    assert reply.status == 200
    report = reply.body
    assert report["ok"] is False and report["first_divergence"] == target["version"]
    [divergence] = report["divergences"]
    assert divergence["check"] == "events" and divergence["version"] == target["version"]
    assert divergence["message"] == f"event {index} differs"
    assert divergence["recorded"]["card"] == forged and divergence["replayed"]["card"] == honest
    assert report["checked"] == 1 + sum(e["kind"] == "action" for e in entries)  # it went on


def test_a_tampered_action_fails_verify_and_stops_the_replay(lobby: Lobby, history: History):
    match_id = play(lobby, seat_players(lobby, 2))
    entries = history.log.entries(match_id)
    target = [e for e in entries if e["kind"] == "action"][5]

    def other_card(entry: dict) -> None:
        entry["action"] = {
            "type": "play",
            "card": "12B" if entry["action"]["card"] != "12B" else "1O",
        }

    tamper(history.client, match_id, target["version"], other_card)
    report = history.verify(match_id)
    assert report["ok"] is False and report["first_divergence"] == target["version"]
    assert report["divergences"][-1]["check"] in ("action", "state_hash")
    assert report["checked"] < 1 + sum(e["kind"] == "action" for e in entries)


def test_a_tampered_state_hash_and_result_are_reported(lobby: Lobby, history: History):
    match_id = play(lobby, seat_players(lobby, 2))
    last = history.log.entries(match_id)[-1]

    def forge(entry: dict) -> None:
        entry["result"] = {**entry["result"], "winners": [0, 1]}
        entry["state_hash"] = "0" * 64

    tamper(history.client, match_id, last["version"], forge)
    report = history.verify(match_id)
    assert {d["check"] for d in report["divergences"]} == {"result", "state_hash"}
    assert {d["version"] for d in report["divergences"]} == {last["version"]}


def dealt_state_hash(history: History, match_id: str) -> str:
    start = next(e for e in history.log.entries(match_id) if e["kind"] == "match.started")
    return str(start["state_hash"])


def test_a_match_dealt_with_two_players_seeds_verifies_and_either_seed_changes_the_deal(
    lobby: Lobby, history: History
):
    """Scheme 2: the deal seed combines the server's seed, committed at creation, with each
    seat's; the start names both seeds, and the same server seed with one seat's seed changed
    deals another match."""
    server_seed = "s" * 64
    rigged = Lobby(lobby.client, lobby.rules, lobby.log, new_seed=lambda: server_seed)
    seated = seat_players(rigged, 2)
    deals = {}
    for seeds_given in (["ana-1", "ben-1"], ["ana-2", "ben-1"], ["ana-1", "ben-2"]):
        match_id = play(rigged, seated, moves=4, player_seeds=list(seeds_given))
        entries = history.log.entries(match_id)
        start = next(e for e in entries if e["kind"] == "match.started")
        assert start["seed_scheme"] == 2 and start["player_seeds"] == seeds_given
        assert entries[0]["match"]["seed_sha256"] == start["seed_sha256"]
        deals[tuple(seeds_given)] = start["state_hash"]
    assert len(set(deals.values())) == 3
    finished = play(rigged, seated, player_seeds=["ana-1", "ben-1"])
    report = history.verify(finished)
    assert report["ok"], report["divergences"]
    assert dealt_state_hash(history, finished) == deals[("ana-1", "ben-1")]


def test_a_match_nobody_gave_a_seed_is_dealt_by_the_server_seed_alone(
    lobby: Lobby, history: History
):
    """Scheme 1, as before: the start names no scheme and the deal is the server's seed's."""
    rigged = Lobby(lobby.client, lobby.rules, lobby.log, new_seed=lambda: "alone")
    match_id = play(rigged, seat_players(rigged, 2))
    start = next(e for e in history.log.entries(match_id) if e["kind"] == "match.started")
    assert "seed_scheme" not in start and "player_seeds" not in start
    state, _ = new_match("brisca", "base", 2, seed="alone")
    assert start["state_hash"] == engine_state_hash(state)
    assert history.verify(match_id)["ok"]


def test_a_finished_match_exports_as_one_document_the_offline_verifier_accepts(
    lobby: Lobby, history: History, http: Http, tmp_path: Path, capsys
):
    seated = seat_players(lobby, 2)
    running = play(lobby, seated, moves=2, player_seeds=["a", "b"])
    refused = http.get(f"/v1/matches/{running}/export")
    error_of(refused, 409, "match_not_finished")
    match_id = play(lobby, seated, player_seeds=["ana-seed", None])
    reply = http.get(f"/v1/matches/{match_id}/export")
    assert reply.status == 200, reply.body
    doc = reply.body
    assert doc["format"] == "tapete-match/1" and doc["match"] == match_id
    assert doc["game"]["id"] == "brisca" and "random" in doc["game"]["strategies"]
    assert doc["seeds"] == {
        "scheme": 2, "server": lobby.load(match_id).seed,
        "sha256": lobby.load(match_id).match["seed_sha256"], "players": ["ana-seed", None],
    }  # fmt: skip
    assert doc["entries"] == history.log.entries(match_id)
    file = tmp_path / "match.json"
    file.write_text(json.dumps(doc))
    assert verify_main([str(file)]) == 0
    replayed = len(doc["entries"]) - 3  # the deal and every action: not the creation, the joins
    assert capsys.readouterr().out.startswith(f"ok: {replayed} entries replayed")


def test_a_players_seed_changed_in_the_log_fails_verify(lobby: Lobby, history: History):
    """A seat's seed at the start that its join did not give, or a join's seed changed."""
    match_id = play(lobby, seat_players(lobby, 2), player_seeds=["mine", None])
    start = next(e for e in history.log.entries(match_id) if e["kind"] == "match.started")
    tamper(history.client, match_id, start["version"], lambda e: e.update(player_seeds=["x", None]))
    [divergence] = history.verify(match_id)["divergences"]
    assert divergence["check"] == "seed" and divergence["version"] == start["version"]
    assert divergence["recorded"] == ["x", None] and divergence["replayed"] == ["mine", None]


def test_a_bad_player_seed_is_refused_and_changes_nothing(lobby: Lobby):
    from services.errors import BadRequest

    ana = seat_players(lobby, 1)[0]
    match = lobby.create_match(ana, "brisca", "base", 2, {})
    for bad in ("", "x" * 129, "no spaces", "ñ"):
        with pytest.raises(BadRequest) as refused:
            lobby.join(ana, match["id"], 0, bad)
        assert refused.value.code == "bad_seed"
    assert lobby.load(match["id"]).version == 1


def test_a_seed_that_does_not_match_its_published_hash_fails_verify(lobby: Lobby, history: History):
    match_id = play(lobby, seat_players(lobby, 2))
    last = history.log.entries(match_id)[-1]
    tamper(history.client, match_id, last["version"], lambda e: e.update(seed="f" * 64))
    report = history.verify(match_id)
    assert report["ok"] is False and report["checked"] == 0
    assert report["seed"]["matches"] is False
    [divergence] = report["divergences"]
    assert divergence["check"] == "seed" and divergence["kind"] == "match.started"
    assert divergence["replayed"] == hashlib.sha256(b"f" * 64).hexdigest()


def test_a_missing_version_is_reported():
    entries = [{"version": 1, "kind": "match.created"}, {"version": 3, "kind": "seat.joined"}]
    report = verify(entries)
    assert report["ok"] is False
    assert report["divergences"][0]["check"] == "sequence"
    assert report["divergences"][0]["version"] == 2


# -- rules versions ---------------------------------------------------------------------------
def corpus(name: str) -> dict[str, Any]:
    return json.loads(gzip.decompress((CORPUS / f"{name}.json.gz").read_bytes()))


@pytest.mark.parametrize(
    "name",
    [
        "brisca.tute-parejas.4p", "escoba.desescoba.2p", "chinchon.con-comodin.2p.v1-natural-one",
        "siete-y-media.base.2p", "siete-y-media.con-apuestas.2p.v1-house-won",
        "ladrones-de-tumbas.base.2p", "ciruela.base.2p",
    ],
)  # fmt: skip
def test_a_match_logged_before_a_rules_change_still_verifies_under_its_version(name: str):
    """Logs without a recorded rules version are version 1's, the rules they were played by."""
    entries = log_of(corpus(name))
    report = verify(entries)
    assert report["ok"], report["divergences"]
    assert verify(log_of(corpus(name), rules_version=1))["ok"]


@pytest.mark.parametrize(
    "name",
    [
        "brisca.tute-parejas.4p", "escoba.desescoba.2p", "siete-y-media.base.2p",
        "ladrones-de-tumbas.base.2p", "ciruela.base.2p",
    ],
)  # fmt: skip
def test_a_match_logged_before_a_rules_change_diverges_under_the_new_version(name: str):
    """So the recorded version is what makes it verify: dealt under version 2, the match
    carries version 2's options and its state differs from the deal on."""
    report = verify(log_of(corpus(name), rules_version=2))
    assert not report["ok"] and report["first_divergence"] == 2
    assert report["divergences"][0]["check"] == "state_hash"


def test_a_match_of_an_unknown_later_rules_version_is_refused_with_the_reason():
    report = verify(log_of(corpus("brisca.tute-parejas.4p"), rules_version=99))
    assert not report["ok"] and report["checked"] == 0
    [divergence] = report["divergences"]
    assert divergence["check"] == "rules" and divergence["kind"] == "match.started"
    assert "brisca rules version 99 is unknown to this engine" in divergence["message"]


def test_the_lobby_records_the_rules_version_and_replay_refuses_an_unknown_one(
    lobby: Lobby, history: History, http: Http
):
    match_id = play(lobby, seat_players(lobby, 2), "escoba", "desescoba", moves=2)
    entries = history.log.entries(match_id)
    start = next(e for e in entries if e["kind"] == "match.started")
    assert start["setup"]["rules_version"] == get_game("escoba").rules_version == 2
    tamper(history.client, match_id, start["version"], lambda e: e["setup"].update(rules_version=7))
    error = error_of(http.get(f"/v1/matches/{match_id}/replay"), 409, "unknown_rules_version")
    assert "escoba rules version 7 is unknown" in error["message"]


def test_verify_is_for_finished_matches(lobby: Lobby, http: Http):
    match_id = play(lobby, seat_players(lobby, 2), moves=4)
    error = error_of(http.get(f"/v1/matches/{match_id}/verify"), 409, "match_not_finished")
    assert error["details"] == {"status": "running"}
    error_of(http.get("/v1/matches/nope/verify"), 404, "not_found")
    error_of(http.get("/v1/matches/no%20such!/verify"), 404, "not_found")


# -- the log ----------------------------------------------------------------------------------
def test_a_running_matchs_log_redacts_every_hidden_card_and_action(
    lobby: Lobby, history: History, http: Http
):
    match_id = play(lobby, seat_players(lobby, 2), moves=12)
    raw = history.log.entries(match_id)
    snap = lobby.load(match_id)
    reply = http.get(f"/v1/matches/{match_id}/log")
    assert reply.status == 200
    log = reply.body
    assert log["revealed"] is False and log["seed"] is None and log["status"] == "running"
    assert log["seed_sha256"] == snap.match["seed_sha256"]
    assert [e["version"] for e in log["entries"]] == [e["version"] for e in raw]
    text = json.dumps(log)
    assert snap.seed is not None and snap.seed not in text
    for shown, entry in zip(log["entries"], raw, strict=True):
        assert shown["action"] is None
        for out, event in zip(shown["events"], entry["events"], strict=True):
            if event.get("visible_to") is not None:
                assert out.get("card") is None and set(out.get("cards") or [None]) == {None}
            else:
                assert out == event
    assert snap.state is not None
    public = {c for e in raw for ev in e["events"] if "visible_to" not in ev for c in _cards(ev)}
    hands = {c for s in (0, 1) for c in snap.state["zones"][f"hand:{s}"]["cards"]}
    assert hands - public, "the test needs some card that was never public"
    for card in hands - public:
        assert f'"{card}"' not in text


def _cards(event: dict) -> list[str]:
    found = [event.get("card")] + list(event.get("cards") or [])
    found += [str(v) for k, v in event.items() if k == "trump_card"]
    return [c for c in found if isinstance(c, str)]


def test_a_finished_matchs_log_reveals_everything(lobby: Lobby, history: History, http: Http):
    match_id = play(lobby, seat_players(lobby, 2))
    log = http.get(f"/v1/matches/{match_id}/log").body
    raw = history.log.entries(match_id)
    assert log["revealed"] is True and log["status"] == "finished"
    # every field, private events and actions included; and each entry's sentences
    assert [{k: v for k, v in e.items() if k != "sentences"} for e in log["entries"]] == raw
    assert all(len(e["sentences"]) == len(e["events"]) for e in log["entries"])
    assert log["seed"] == lobby.load(match_id).seed
    assert hashlib.sha256(log["seed"].encode()).hexdigest() == log["seed_sha256"]


def test_an_open_matchs_log_has_nothing_to_hide(lobby: Lobby, http: Http):
    ana, ben = seat_players(lobby, 2)
    match = lobby.create_match(ana, "brisca", "base", 2, {})
    lobby.join(ana, match["id"], 1)
    log = http.get(f"/v1/matches/{match['id']}/log").body
    assert [e["kind"] for e in log["entries"]] == ["match.created", "seat.joined"]
    assert log["status"] == "open" and log["seed"] is None
    assert log["seed_sha256"] == match["seed_sha256"]  # the commitment made at creation


def test_the_log_says_each_entry_in_the_language_asked_for_naming_the_players(
    lobby: Lobby, http: Http
):
    ana, beto = lobby.register("Ana")[0], lobby.register("Beto")[0]
    match_id = play(lobby, [ana, beto], moves=1)
    spanish = http.get(f"/v1/matches/{match_id}/log?lang=es").body["entries"]
    english = http.get(f"/v1/matches/{match_id}/log", headers={"Accept-Language": "en"})
    assert spanish[1]["sentences"] == ["Ana se sienta a la mesa"]
    assert english.body["entries"][2]["sentences"] == ["Beto takes a seat"]
    [move] = spanish[-1]["sentences"]
    assert move.startswith(("Ana juega", "Beto juega")), move
    dealt = [s for e in spanish for s in e["sentences"] if " recibe " in s]
    assert dealt and all(s.endswith("recibe 3 cartas") for s in dealt)  # a spectator's
    reply = http.get(f"/v1/matches/{match_id}/log?lang=fr")
    assert "lang" in json.dumps(error_of(reply, 400, "bad_request"))


def test_a_replays_facts_are_said_in_the_language_asked_for(lobby: Lobby, http: Http):
    ana, beto = lobby.register("Ana")[0], lobby.register("Beto")[0]
    match_id = play(lobby, [ana, beto], moves=2)
    reply = http.get(f"/v1/matches/{match_id}/replay?lang=es")
    facts = [fact["text"] for fact in reply.body["view"]["facts"]]
    assert any(f.startswith("Ana lleva") for f in facts), facts
    assert any(f.startswith("Beto lleva") for f in facts), facts
    english = http.get(f"/v1/matches/{match_id}/replay", headers={"Accept-Language": "en"})
    assert any(fact["text"].startswith("Trump") for fact in english.body["view"]["facts"])


# -- replay -----------------------------------------------------------------------------------
def test_a_spectator_replay_is_the_lobbys_spectator_view(lobby: Lobby, http: Http):
    match_id = play(lobby, seat_players(lobby, 2), moves=7)
    snap = lobby.load(match_id)
    assert snap.state is not None
    names = [seat["name"] for seat in snap.match["seats"]]  # the facts name the players
    spectator = lobby.rules.view("brisca", snap.state, None, names)
    reply = http.get(f"/v1/matches/{match_id}/replay")
    assert reply.status == 200
    assert reply.body["version"] == snap.version and reply.body["seat"] is None
    assert reply.body["view"] == spectator
    assert all(c is None for s in (0, 1) for c in reply.body["view"]["zones"][f"hand:{s}"]["cards"])


def test_a_seat_replay_of_a_finished_match_shows_that_seats_hand_at_each_version(
    lobby: Lobby, history: History, http: Http
):
    ana, ben = seat_players(lobby, 2)
    match_id = play(lobby, [ana, ben])
    entries = history.log.entries(match_id)
    started = first_entry(entries, lambda e: e["kind"] == "match.started")
    dealt = [e for e in started["events"] if e.get("visible_to") == [1]]
    view = http.get(f"/v1/matches/{match_id}/replay?version={started['version']}&seat=1").body
    assert view["status"] == "running" and view["view"]["seat"] == 1
    hand = view["view"]["zones"]["hand:1"]["cards"]
    assert None not in hand and sorted(hand) == sorted(c for e in dealt for c in _cards(e))
    assert set(view["view"]["zones"]["hand:0"]["cards"]) == {None}
    before = http.get(f"/v1/matches/{match_id}/replay?version=2&seat=0").body
    assert before == {"match": match_id, "version": 2, "seat": 0, "status": "open", "view": None}


def test_a_seat_replay_of_a_running_match_is_refused(lobby: Lobby, http: Http):
    match_id = play(lobby, seat_players(lobby, 2), moves=2)
    error_of(http.get(f"/v1/matches/{match_id}/replay?seat=0"), 403, "match_running")
    error_of(http.get(f"/v1/matches/{match_id}/replay?version=4&seat=1"), 403, "match_running")


def test_a_duplicate_table_a_person_of_its_group_could_watch_is_not_shown(lobby: Lobby, http: Http):
    """Ana plays table 0 of a duplicate group, bots table 1: this service does not know who
    asks, so table 1's log, replays and live scores are refused to all; the lobby refuses
    them to Ana alone. Table 0 (nobody of the group plays elsewhere) is shown as ever."""
    ana, eva = lobby.register("Ana")[0], lobby.register("Eva")[0]
    group = lobby.open_duplicate(ana, "escoba", "base", 2, {}, 2, ["me", "random"], "easy")
    mine, other = (table["match"] for table in group["tables"])
    assert lobby.load(other).match["status"] == "running"  # its bots do not play in here
    for path in ("log", "replay", "replay?seat=0", "scores"):
        error_of(http.get(f"/v1/matches/{other}/{path}"), 403, "duplicate_table_hidden")
    for path in ("log", "replay", "scores"):
        assert http.get(f"/v1/matches/{mine}/{path}").status == 200, path
    with pytest.raises(Forbidden) as refused:
        lobby.get_match(ana, other)
    assert refused.value.code == "duplicate_table_hidden"
    assert refused.value.details == {"group": group["id"], "table": 1}
    assert lobby.get_match(eva, other)["id"] == other
    assert lobby.get_match(ana, mine)["view"]["seat"] == 0


@pytest.mark.parametrize(
    "query, status, code",
    [
        ("version=0", 400, "bad_request"),
        ("version=999", 400, "bad_version"),
        ("version=abc", 400, "bad_request"),
        ("seat=2", 400, "bad_seat"),
        ("seat=-1", 400, "bad_request"),
        ("seat=x", 400, "bad_request"),
    ],
)
def test_replay_refuses_bad_input(lobby: Lobby, http: Http, query: str, status: int, code: str):
    match_id = play(lobby, seat_players(lobby, 2), moves=1)
    error_of(http.get(f"/v1/matches/{match_id}/replay?{query}"), status, code)


def test_a_log_that_does_not_replay_is_409_not_500(lobby: Lobby, history: History, http: Http):
    match_id = play(lobby, seat_players(lobby, 2), moves=3)
    version = history.log.entries(match_id)[-1]["version"]
    tamper(history.client, match_id, version, lambda e: e.update(action={"type": "fly"}))
    error = error_of(http.get(f"/v1/matches/{match_id}/replay"), 409, "log_diverges")
    assert error["details"] == {"version": version}
    error_of(http.get("/v1/matches/nope/replay"), 404, "not_found")


# -- read models ------------------------------------------------------------------------------
def test_the_consumer_builds_summaries_sheets_histories_and_leaderboards(
    lobby: Lobby, history: History, http: Http
):
    ana, ben, cai, dora = seat_players(lobby, 4)
    pairs = play(lobby, [ana, ben, cai, dora], "brisca", "tute-parejas")
    duel = play(lobby, [ana, ben], seed="duel")
    running = play(lobby, [cai, ana], moves=5)
    consume(history)

    summary = history.models.summary(pairs)
    assert summary is not None
    result = lobby.load(pairs).match["result"]
    assert summary["status"] == "finished" and summary["result"] == result
    assert summary["version"] == history.log.entries(pairs)[-1]["version"]
    assert [s["player"] for s in summary["seats"]] == [ana.id, ben.id, cai.id, dora.id]
    assert summary["seed"] == lobby.load(pairs).seed

    sheet = http.get(f"/v1/matches/{pairs}/scores").body
    assert sheet["teams"] == [[0, 2], [1, 3]]
    assert sheet["rounds"] == result["rounds"] and sheet["totals"] == result["scores"]
    assert sheet["winners"] == result["winners"] and sheet["status"] == "finished"
    assert [s["team"] for s in sheet["seats"]] == [0, 1, 0, 1]

    live = http.get(f"/v1/matches/{running}/scores").body
    assert live["status"] == "running" and live["winners"] is None and live["round"] == 1

    mine = http.get(f"/v1/players/{ana.id}/matches").body
    assert [m["id"] for m in mine["matches"]] == [running, duel, pairs]  # newest first
    assert [m["seat"] for m in mine["matches"]] == [1, 0, 0]
    assert mine["matches"][0]["won"] is None
    assert mine["matches"][2]["won"] == (0 in result["winners"])
    page = http.get(f"/v1/players/{ana.id}/matches?limit=1&before={_created(history, duel)}")
    assert [m["id"] for m in page.body["matches"]] == [pairs]

    board = http.get("/v1/leaderboards/brisca").body
    assert board["game"] == "brisca"
    rows = {row["player"]: row for row in board["players"]}
    assert set(rows) == {ana.id, ben.id, cai.id, dora.id}
    assert rows[ana.id]["matches"] == 2 and rows[cai.id]["matches"] == 1
    assert [row["rank"] for row in board["players"]] == [1, 2, 3, 4]
    ratings = [row["rating"] for row in board["players"]]
    assert ratings == sorted(ratings, reverse=True)
    for row in board["players"]:
        assert row["rating"] == pytest.approx(row["mu"] - 3 * row["sigma"])
    winners_team = {[ana, ben, cai, dora][s].id for s in result["winners"]}
    assert all(rows[p]["wins"] >= 1 for p in winners_team)


def _created(history: History, match_id: str) -> float:
    summary = history.models.summary(match_id)
    assert summary is not None
    return projections.created_score(summary)


def test_a_redelivered_notification_changes_nothing_and_rates_once(lobby: Lobby, history: History):
    ana, ben = seat_players(lobby, 2)
    match_id = play(lobby, [ana, ben])
    consume(history)
    before = read_models(history.client)
    rating = history.models.rating("brisca", ana.id)
    assert rating is not None
    assert rating["matches"] == 1
    # The same notifications again, as after a crash before XACK, and a direct catch-up.
    feed = history.log.feed_key(0)
    for _, fields in cast(list, history.client.xrange(feed)):
        history.client.xadd(feed, fields)
    consume(history)
    assert history.models.catch_up(match_id) is None
    assert read_models(history.client) == before


CRASH_POINTS = {  # where a consumer dies in the middle of an update: the steps it did
    "before any step": [],
    "after the players' indexes": ["index_players"],
    "after the ratings": ["index_players", "rate"],
}


@pytest.mark.cluster  # each step in its own slot of a real cluster, too
@pytest.mark.parametrize("crash", list(CRASH_POINTS))
def test_a_consumer_that_crashed_between_steps_leaves_the_read_models_of_a_clean_run(
    lobby: Lobby, history: History, crash: str
):
    ana, ben = seat_players(lobby, 2)
    match_id = play(lobby, [ana, ben])
    models = history.models
    plan = models.plan(match_id)  # the whole match in one update: players, finish, ratings
    assert plan is not None and plan.finished and plan.before == 0
    for step in CRASH_POINTS[crash]:
        assert getattr(models, step)(plan)  # each step did something the first time
    assert models.summary(match_id) is None  # the crash: no summary, nothing acknowledged

    consume(history)  # the notifications come again; each step finds its marker
    survived = read_models(history.client)
    assert models.rate(plan) is False  # rated once, whichever run did it
    models.index_players(plan)
    assert models.commit(plan) is False  # the summary moved on: this plan is stale
    assert models.catch_up(match_id) is None
    assert read_models(history.client) == survived
    ratings = [models.rating("brisca", p.id) for p in (ana, ben)]
    assert [r and r["matches"] for r in ratings] == [1, 1]  # twice would say 2
    for player in (ana, ben):
        listed = history.player_matches(player.id, 10, None)["matches"]
        assert [m["id"] for m in listed] == [match_id]

    forget_read_models(history.log)  # the same feed again, by a consumer that never crashes
    consume(history)
    assert read_models(history.client) == survived


@pytest.mark.cluster
def test_a_stale_update_cannot_put_back_a_player_a_newer_one_took_out(
    lobby: Lobby, history: History, http: Http
):
    ana, ben, cai = seat_players(lobby, 3)
    match = open_match(lobby, [ana, cai])
    stale = history.models.plan(match["id"])  # a consumer that stalls with Cai seated
    assert stale is not None and cai.id in stale.update.joined
    lobby.leave(cai, match["id"])
    lobby.join(ben, match["id"], 1)
    consume(history)  # another consumer takes the notifications over and applies them all
    assert http.get(f"/v1/players/{cai.id}/matches").body["matches"] == []

    assert history.models.index_players(stale) == 0  # the stalled one wakes up: no effect
    assert history.models.commit(stale) is False
    assert http.get(f"/v1/players/{cai.id}/matches").body["matches"] == []
    [shown] = http.get(f"/v1/players/{ben.id}/matches").body["matches"]
    assert shown["seat"] == 1


@pytest.mark.cluster
def test_each_read_model_is_in_the_slot_of_what_it_is_about(lobby: Lobby, history: History):
    """A match's summary and sheet beside its log, a player's index in the player's slot, a
    game's ratings in the game's: no slot takes every update."""
    players = seat_players(lobby, 4)
    matches = [play(lobby, players[:2], seed="one"), play(lobby, players[2:], "escoba")]
    consume(history)
    models = history.models

    def slot(key: str) -> int:
        return int(key_slot(key.encode()))

    for match_id in matches:
        beside = slot(history.log.keys(match_id).log)
        assert slot(models.summary_key(match_id)) == slot(models.sheet_key(match_id)) == beside
    of_players = {slot(player_key(p.id)) for p in players}
    of_games = {slot(ratings_key(g)) for g in ("brisca", "escoba")}
    assert len(of_players) == 4 and len(of_games) == 2
    assert {slot(leaderboard_key(g)) for g in ("brisca", "escoba")} == of_games
    of_matches = {slot(history.log.feed_key(history.log.partition(m))) for m in matches}
    assert set(map(slot, read_models(history.client))) == of_matches | of_players | of_games


def test_a_player_who_leaves_before_the_start_loses_the_match_from_their_history(
    lobby: Lobby, history: History, http: Http
):
    ana, ben, cai = seat_players(lobby, 3)
    match = open_match(lobby, [ana, cai])
    lobby.leave(cai, match["id"])
    lobby.join(ben, match["id"], 1)
    consume(history)
    assert http.get(f"/v1/players/{cai.id}/matches").body["matches"] == []
    [shown] = http.get(f"/v1/players/{ben.id}/matches").body["matches"]
    assert shown["seat"] == 1 and shown["status"] == "open"


def test_a_poison_notification_is_dead_lettered_and_does_not_block_the_group(
    lobby: Lobby, history: History
):
    ana, ben = seat_players(lobby, 2)
    feed = history.log.feed_key(0)
    history.client.xadd(feed, {"match": "ghost", "version": "3", "kind": "action"})
    history.client.xadd(feed, {"note": "no match id at all"})
    match_id = play(lobby, [ana, ben], moves=3)
    settings = GroupSettings(name="t", block_ms=1, min_idle_ms=0, max_deliveries=2, claim_every_s=0)
    consumer = Consumer(history.models, settings)
    consumer.ensure_groups()
    for _ in range(6):
        consumer.step()
    dead = cast(list, history.client.xrange(dead_key(0)))
    assert [fields.get("match") for _, fields in dead] == ["ghost", None]
    assert "NoSuchMatch" in dead[0][1]["error"] and "KeyError" in dead[1][1]["error"]
    assert all(int(fields["deliveries"]) == 3 for _, fields in dead)
    assert history.client.xpending(feed, GROUP)["pending"] == 0
    summary = history.models.summary(match_id)
    assert (
        summary is not None and summary["version"] == history.log.entries(match_id)[-1]["version"]
    )


def test_a_consumer_takes_over_what_a_dead_one_left_pending(lobby: Lobby, history: History):
    match_id = play(lobby, seat_players(lobby, 2), moves=6)
    dead = Consumer(history.models, GroupSettings(name="dead", block_ms=1))
    dead.ensure_groups()
    feed = history.log.feed_key(0)
    history.client.xreadgroup(GROUP, "dead", {feed: ">"}, count=5)  # read, then "crash"
    alive = consume(history, min_idle_ms=0, claim_every_s=0)
    assert alive.settings.name == "test"
    assert history.client.xpending(feed, GROUP)["pending"] == 0
    summary = history.models.summary(match_id)
    assert (
        summary is not None and summary["version"] == history.log.entries(match_id)[-1]["version"]
    )


def test_the_consumer_loop_outlives_a_flushed_redis(lobby: Lobby, history: History):
    """FLUSHALL drops the group under a running consumer: it creates it again and goes on."""
    consumer = Consumer(history.models, GroupSettings(name="loop", block_ms=20))
    thread = threading.Thread(target=consumer.run, daemon=True)
    thread.start()
    try:
        first = play(lobby, seat_players(lobby, 2), moves=2)
        _wait(lambda: history.models.summary(first) is not None)
        history.client.flushall()
        second = play(lobby, seat_players(lobby, 2), moves=2)
        last = history.log.entries(second)[-1]["version"]
        _wait(lambda: (history.models.summary(second) or {}).get("version") == last)
    finally:
        consumer.stopping = True
        thread.join(5)
    assert not thread.is_alive()


def _wait(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_batch_updates_each_match_once_in_the_order_of_its_last_notification():
    """A match's last notification is its finish, if any: ratings keep the feed's order."""
    batch = [
        ("1-0", {"match": "a", "version": "5"}),
        ("1-1", {"match": "b", "version": "9"}),
        ("1-2", {"nothing": "here"}),
        ("1-3", {"match": "a", "version": "6"}),
    ]
    groups, malformed = plan(batch)
    assert list(groups.items()) == [("b", (9, ["1-1"])), ("a", (6, ["1-0", "1-3"]))]
    assert [message_id for message_id, _ in malformed] == ["1-2"]


def test_projections_apply_only_the_next_versions():
    with pytest.raises(projections.BadEntry):
        projections.project(None, [{"version": 1, "kind": "seat.joined"}])
    created = {"version": 1, "kind": "match.created", "match": {"id": "m", "game": "brisca",
               "variant": "base", "players": 2, "created": "2025-01-01T00:00:00.000Z"}}  # fmt: skip
    update = projections.project(None, [created])
    with pytest.raises(projections.BadEntry):
        projections.project(update.summary, [{"version": 3, "kind": "seat.joined"}])


# -- the HTTP surface -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path, status",
    [
        ("/v1/leaderboards/no-such-game", 404),
        ("/v1/leaderboards/brisca?limit=0", 400),
        ("/v1/leaderboards/brisca?limit=201", 400),
        ("/v1/players/bad%20id!/matches", 404),
        ("/v1/players/abc/matches?limit=x", 400),
        ("/v1/players/abc/matches?before=soon", 400),
        ("/v1/matches/nope/scores", 404),
        ("/v1/matches/nope/log", 404),
        ("/v1/matches/a%2Fb/log", 404),
    ],
)
def test_bad_input_is_a_4xx_in_the_one_error_shape(http: Http, path: str, status: int):
    error_of(http.get(path), status)


def test_empty_answers_for_a_player_and_a_game_without_matches(http: Http):
    assert http.get("/v1/players/abc/matches").body == {"player": "abc", "matches": []}
    assert http.get("/v1/leaderboards/raj").body == {"game": "raj", "players": []}


def test_probes_and_metrics(http: Http):
    assert http.get("/healthz").body == {"status": "ok"}
    assert http.get("/readyz").body == {"status": "ready"}
    metrics = http.client.get("/metrics")
    assert metrics.status_code == 200 and b"tapete_http_requests_total" in metrics.data


def test_the_public_log_is_the_only_view_of_entries():
    """While running, nothing but whitelisted fields: a future secret field stays in."""
    entry = {"version": 1, "kind": "action", "events": [], "secret": "x", "seed": "s"}
    shown = {"version": 1, "kind": "action", "events": [], "action": None, "sentences": []}
    assert public_log([entry]) == [shown]


def test_committed_openapi_spec_matches_the_code_and_validates():
    committed = (OPENAPI_DIR / "history.yaml").read_text(encoding="utf-8")
    assert committed == generated_spec("history"), "run `make openapi`, commit openapi/history.yaml"
    validate(yaml.safe_load(committed))
