"""The web client in a real browser: Debian's Chromium driven by playwright-core (npm)
through web/tests/browser.mjs, against the live platform (gunicorn services, Redis, rq bot
workers, the history consumer) behind the gateway of `make run` (services/gateway.py).

Screenshots of the table (desktop and phone, in Spanish and in English), the result and a
replay are kept in var/artifacts/web/ (ignored by git). Chromium comes from apt (installed here when missing,
never a browser download); the app is built by web/build.sh when missing or stale.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from services.gateway import backend_for
from shared.verify import main as verify_main
from tests.apt import apt_install
from tests.bots_fixtures import BotProcesses
from tests.history_fixtures import ConsumerProcess
from tests.proxy_fixtures import GatewayProcess as Gateway
from tests.redis_fixtures import RedisStore
from tests.service_fixtures import ROOT, Service, stop_process

WEB = ROOT / "web"
ARTIFACTS = ROOT / "var" / "artifacts" / "web"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SCENARIOS_TIMEOUT = 900  # a hung browser, not a slow one: the run takes about a minute


def ensure_chromium() -> None:
    try:
        apt_install(["chromium"], CHROMIUM.exists)
    except (subprocess.SubprocessError, OSError) as exc:
        pytest.fail(f"no Chromium at {CHROMIUM} and apt-get could not install it: {exc}")


@pytest.fixture(scope="module")
def browser_ready() -> None:
    """Chromium installed and web/dist built (npm ci + build when stale)."""
    ensure_chromium()
    subprocess.run(["sh", str(WEB / "build.sh")], check=True, timeout=600)


@pytest.fixture(scope="module")
def platform(
    browser_ready: None,
    redis_store: RedisStore,
    rules_service: Service,
    lobby_service: Service,
    feed_service: Service,
    history_service: Service,
) -> Iterator[Gateway]:
    """Everything a person's browser reaches, on one origin: the gateway in front of the
    services, with bots playing and the history consumer verifying."""
    bots = BotProcesses(redis_store, lobby_service, rules_service)
    bots.dispatcher()
    bots.worker("web-worker-1")
    bots.worker("web-worker-2")
    consumer = ConsumerProcess("web-history", redis_store, {})
    gateway = Gateway(
        {
            "lobby": lobby_service.url,
            "rules": rules_service.url,
            "history": history_service.url,
            "feed": feed_service.url,
        }
    )
    yield gateway
    stop_process(gateway.process)
    consumer.stop()
    bots.stop_all()


@pytest.fixture(scope="module")
def scenarios(platform: Gateway) -> dict[str, dict[str, Any]]:
    """Every scenario of web/tests/browser.mjs, all at once in one Chromium (each in browser
    contexts of its own, on the one platform): each one's outcome, by name. WEB_SCENARIOS
    (comma-separated names) runs only those, for a developer's run of the tests naming them."""
    env = {
        **os.environ,
        "TAPETE_URL": platform.url,
        "CHROMIUM": str(CHROMIUM),
        "TAPETE_ARTIFACTS": str(ARTIFACTS),
    }
    for stale in ARTIFACTS.glob("*-failed-*.png"):  # a past run's failures
        stale.unlink()
    done = subprocess.run(
        ["node", "tests/browser.mjs", os.environ.get("WEB_SCENARIOS", "all")],
        cwd=WEB,
        env=env,
        capture_output=True,
        text=True,
        timeout=SCENARIOS_TIMEOUT,
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "scenarios.log").write_text(done.stderr + done.stdout)
    lines = done.stdout.strip().splitlines()
    assert lines, f"the browser scenarios did not run:\n{done.stderr[-4000:]}"
    return json.loads(lines[-1])


def scenario(scenarios: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    """The result of one scenario, which must have passed (skipped where WEB_SCENARIOS, a
    comma-separated list of them, left it out: to run a few while working on them)."""
    if name not in scenarios:
        pytest.skip(f"the {name} scenario was not run (WEB_SCENARIOS)")
    outcome = scenarios[name]
    assert outcome["ok"], f"the {name} scenario failed:\n{outcome['error']}"
    return outcome["result"]


def verified(gateway: Gateway, match_id: str) -> bool:
    """The history service's verification of a finished match: every entry replayed through
    the rules and the revealed seed matching its commitment."""
    answer = requests.get(f"{gateway.url}/v1/matches/{match_id}/verify", timeout=10).json()
    return answer["ok"] is True and answer["seed"]["matches"] is True


def test_a_person_plays_a_whole_brisca_against_a_bot_then_a_rematch_and_resigns(
    platform: Gateway, scenarios: dict[str, dict[str, Any]]
) -> None:
    brisca = scenario(scenarios, "brisca")
    assert brisca["moves"] >= 20  # one deal of 40 cards: 20 of them are this player's
    assert "Finished" in brisca["result"]
    assert "Verified by the history service" in brisca["result"]
    assert verified(platform, brisca["match"])
    assert brisca["rematch"] != brisca["match"]  # then resigned: the bot wins it
    assert "winner: Bruno (bot, easy)" in brisca["resigned"], brisca["resigned"]  # seat 1's bot
    # the last trick opened again after four moves: its two cards, by Ana and by the bot
    trick = brisca["lastTrick"]
    assert len(trick) == 2 and {c["by"] for c in trick} == {"Ana (you)", "Bruno (bot, easy)"}
    for shot in ("table-desktop.png", "table-phone.png", "result-desktop.png"):
        assert (ARTIFACTS / shot).stat().st_size > 10_000, shot


def test_a_bots_card_stays_in_sight_before_the_trick_clears(
    scenarios: dict[str, dict[str, Any]],
) -> None:
    """Brisca against a bot at a person's pace (1 s): each of the bot's cards is in the page
    at least 0.8 s before the trick clears, and each bot move came at least the pace after
    the entry before it."""
    pace = scenario(scenarios, "pace")
    assert len(pace["bot_cards"]) >= 3, pace
    assert all(card["seconds"] >= 0.8 for card in pace["bot_cards"]), pace["bot_cards"]
    assert all(gap >= 1.0 for gap in pace["bot_answer_seconds"]), pace["bot_answer_seconds"]


def test_a_person_leaves_a_running_match_to_a_bot_and_takes_the_seat_back(
    platform: Gateway, scenarios: dict[str, dict[str, Any]]
) -> None:
    sitin = scenario(scenarios, "sitin")
    assert sitin["note"] == "A bot (random) is playing your seat."
    assert sitin["named"] >= 1 and sitin["by_bot"] >= 1  # the bot played her seat
    log = requests.get(f"{platform.url}/v1/matches/{sitin['match']}/log", timeout=10).json()
    kinds = [entry["kind"] for entry in log["entries"]]
    assert kinds.count("seat.sat_in") == 1 and kinds.count("seat.returned") == 1, kinds


def test_a_running_match_is_watched_live_with_no_hidden_card_in_the_page(
    scenarios: dict[str, dict[str, Any]],
) -> None:
    spectate = scenario(scenarios, "spectate")  # fails on a hidden card or a missed move
    assert spectate["checks"] >= 3, spectate


def test_the_ui_speaks_spanish_from_the_browser_and_english_once_switched(
    scenarios: dict[str, dict[str, Any]],
) -> None:
    spanish = scenario(scenarios, "spanish")
    assert spanish["turn"].startswith("Te toca"), spanish
    assert any(" de " in name for name in spanish["spanish"]), spanish
    assert any(" of " in name for name in spanish["english"]), spanish
    assert spanish["spanishHeaders"] == ["es"] and spanish["englishHeaders"] == ["en"]
    for shot in ("table-es.png", "table-en.png"):
        assert (ARTIFACTS / shot).stat().st_size > 10_000, shot


def test_quick_match_seats_two_people_together_a_third_with_a_bot_and_a_fourth_cancels(
    platform: Gateway, scenarios: dict[str, dict[str, Any]]
) -> None:
    quick = scenario(scenarios, "quick")  # fails if Ana and Beto are seated apart
    lobby = requests.Session()
    token = lobby.post(f"{platform.url}/v1/players", json={"name": "Eva"}, timeout=10).json()[
        "token"
    ]
    headers = {"Authorization": f"Bearer {token}"}
    met = lobby.get(
        f"{platform.url}/v1/matches/{quick['match']}", headers=headers, timeout=10
    ).json()
    assert met["game"] == "escoba" and [s["name"] for s in met["seats"]] in (
        ["Ana", "Beto"],
        ["Beto", "Ana"],
    )
    with_bot = lobby.get(
        f"{platform.url}/v1/matches/{quick['with_bot']}", headers=headers, timeout=10
    ).json()
    assert with_bot["game"] == "truco" and sorted(bool(s["bot"]) for s in with_bot["seats"]) == [
        False,
        True,
    ]
    assert "Buscando jugadores" in quick["waiting"] and quick["cancelled"]


def test_a_duplicate_groups_page_compares_its_tables_deal_by_deal(
    platform: Gateway, scenarios: dict[str, dict[str, Any]]
) -> None:
    duplicate = scenario(scenarios, "duplicate")  # fails without the comparison or a verify
    assert duplicate["rows"] >= 2 and len(duplicate["seed"]) == 64  # a deal's two seats
    assert "Duplicate table 2 of 2" in duplicate["table"]
    assert duplicate["spanish"] == "Reparto a reparto"
    for match_id in duplicate["matches"]:
        assert verified(platform, match_id)


def test_a_tournament_page_shows_its_rounds_and_standings_and_takes_registrations(
    platform: Gateway, scenarios: dict[str, dict[str, Any]]
) -> None:
    shown = scenario(scenarios, "tournament")  # fails unless round one finished on the page
    assert shown["standings"] == 4
    standings = requests.get(
        f"{platform.url}/v1/tournaments/{shown['played']}/standings", timeout=10
    ).json()
    assert standings["round"] >= 1 and standings["matches"] >= 2
    assert standings["duplicate"] and standings["standings"][0]["matchpoints"] > 0
    assert sum(line["points"] for line in standings["standings"]) >= 2  # round one's two
    assert re.fullmatch(r"[0-9a-f]{16}", shown["group"])  # the page linked round one's group


def test_no_screen_scrolls_sideways_on_a_phone(scenarios: dict[str, dict[str, Any]]) -> None:
    phone = scenario(scenarios, "phone")  # fails naming each screen wider than 390 px
    assert phone["screens"] > 30, phone


def test_a_person_plays_a_truco_with_calls_shown_pending_on_the_table(
    platform: Gateway, scenarios: dict[str, dict[str, Any]]
) -> None:
    truco = scenario(scenarios, "truco")
    assert {"envido", "truco"} <= set(truco["calls"]), truco  # clicked as buttons
    # a call awaiting its answer was on the table in the game's words, naming who called
    assert any("waiting for the answer" in said for said in truco["pending"]), truco["pending"]
    assert "Finished" in truco["result"] and "Verified by the history service" in truco["result"]
    assert verified(platform, truco["match"])


def test_every_variant_is_created_from_its_page_deals_shows_its_facts_and_takes_a_move(
    platform: Gateway, scenarios: dict[str, dict[str, Any]]
) -> None:
    catalog = requests.get(f"{platform.url}/v1/games", timeout=10).json()["games"]
    expected = {(g["id"], v["id"]) for g in catalog for v in g["variants"]}
    found = scenario(scenarios, "catalog")
    assert {(r["game"], r["variant"]) for r in found["results"]} == expected
    for result in found["results"]:
        assert result["moved"] >= 1 and result["cards"] > 0, result
        # created on its page as the form comes: as the lobby has it, that game and variant,
        # no option changed, the creator seated (the scenario fails naming an invalid input)
        assert result["served"] == [result["game"], result["variant"], {}, True], result
    # the table shows the facts its game declares: Raj's prize being bid for, from the deal
    for raj in (r for r in found["results"] if r["game"] == "raj"):
        prize = [text for fact, text in raj["facts"] if fact == "prize"]
        assert prize and prize[0].startswith("Bidding for"), raj["facts"]


def test_two_people_play_and_neither_page_holds_the_others_hidden_cards(
    platform: Gateway, scenarios: dict[str, dict[str, Any]]
) -> None:
    duel = scenario(scenarios, "duel")
    # Played to the end (a deal of 40 cards), both hands checked against the other page at
    # each move; the one who clicked out of turn read the server's reason.
    assert duel["moves"] >= 30 and duel["checks"] > 100, duel
    assert "Refused" in duel["refusal"] and "not to act" in duel["refusal"], duel
    assert verified(platform, duel["match"])
    # the other's moves were announced to a screen reader; a rematch reached the other live
    assert all(duel["announced"]) and duel["rematch"] != duel["match"], duel


def test_a_match_page_rides_out_reads_that_fail(scenarios: dict[str, dict[str, Any]]) -> None:
    outage = scenario(scenarios, "outage")  # its reads cut off three in a row, again and again
    assert outage["moved"] >= 3 and outage["aborted"] >= 6, outage


def test_the_replay_ends_on_the_final_state_of_the_match(
    scenarios: dict[str, dict[str, Any]],
) -> None:
    replay = scenario(scenarios, "replay")  # of the Brisca's match; fails if the states differ
    assert replay["match"] == scenario(scenarios, "brisca")["match"]
    assert replay["at"] == replay["versions"] and len(replay["seed_sha256"]) == 64
    assert replay["cards"] > 0, replay  # the compared final state shows cards
    # The export downloaded from the replay's link verifies offline, with the engine alone.
    assert verify_main([replay["export"]]) == 0


def test_a_solitaire_move_is_taken_back_and_the_export_from_its_result_verifies(
    scenarios: dict[str, dict[str, Any]],
) -> None:
    undo = scenario(scenarios, "undo")  # fails if the table after the undo is not the earlier
    assert undo["undos"] == [undo["undo_version"]], undo  # the one undo, logged where clicked
    assert (ARTIFACTS / "undo-desktop.png").stat().st_size > 10_000
    # The export downloaded from the result screen verifies offline, its undo replayed.
    assert verify_main([undo["export"]]) == 0


def test_the_gateway_streams_the_feed_and_serves_the_app(platform: Gateway) -> None:
    index = requests.get(f"{platform.url}/some/screen", timeout=5)
    assert index.ok and "<title>Tapete</title>" in index.text  # the app's own routes
    assert requests.get(f"{platform.url}/v1/nothing", timeout=5).status_code == 404
    assert backend_for("/v1/matches/m1/stream") == "feed"
