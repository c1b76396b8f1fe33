"""The rules service through HTTP: every endpoint, and every kind of bad input gets a clear 4xx."""

from __future__ import annotations

import json
import logging

import pytest
import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from services.openapi_dump import OPENAPI_DIR, generated_spec
from services.rules.app import create_rules_app
from shared.engine import get_game
from shared.engine.language import card_phrase


@pytest.fixture(scope="module")
def client():
    return create_rules_app({"TESTING": True}).test_client()


def setup_match(client, players=2, seed="fixed", variant="base"):
    r = client.post(
        "/v1/games/brisca/setup", json={"variant": variant, "players": players, "seed": seed}
    )
    assert r.status_code == 200, r.json
    return r.json


def error_of(response, status, code):
    assert response.status_code == status, response.json
    err = response.json["error"]
    assert err["code"] == code and err["message"]
    return err


def test_catalog_lists_games_with_variants_and_options(client):
    games = {g["id"]: g for g in client.get("/v1/games").json["games"]}
    brisca = games["brisca"]
    assert brisca["players"] == {"min": 2, "max": 4}
    variants = {v["id"]: v for v in brisca["variants"]}
    assert set(variants) == {"base", "tute", "tute-parejas"}
    assert variants["tute-parejas"]["players"] == {"min": 4, "max": 4}
    assert brisca["options"]["arrastre"]["choices"] == ["follow", "montar"]


def test_catalog_lists_each_games_bot_strategies(client):
    games = {g["id"]: g for g in client.get("/v1/games").json["games"]}
    levels = ["random", "easy", "medium", "hard"]
    assert games["brisca"]["strategies"] == [*levels, "greedy"]
    assert all(games[g]["strategies"][:4] == levels for g in games)
    assert client.get("/v1/games/truco").json["strategies"] == levels


def test_game_detail_has_the_rule_text(client):
    r = client.get("/v1/games/brisca")
    assert r.status_code == 200 and "BRISCA" in r.json["rules"]


def test_setup_same_seed_same_deal(client):
    a, b = setup_match(client, seed="s"), setup_match(client, seed="s")
    assert a["state"] == b["state"] and a["to_act"] == b["to_act"]
    assert setup_match(client, seed="t")["state"]["zones"] != a["state"]["zones"]


def test_setup_deals_under_the_current_rules_version_or_a_recorded_one(client):
    brisca = client.get("/v1/games/brisca").json
    assert brisca["rules_version"] == 3
    body = {"variant": "tute-parejas", "players": 4, "seed": "v"}
    now = client.post("/v1/games/brisca/setup", json=body).json
    assert now["rules_version"] == 3 and now["state"]["options"]["claim_needs_pair"] is True
    assert now["state"]["options"]["deals_by_number"] is True
    before = client.post("/v1/games/brisca/setup", json={**body, "rules_version": 2}).json
    assert before["rules_version"] == 2 and "deals_by_number" not in before["state"]["options"]
    assert before["state"]["options"]["claim_needs_pair"] is True
    old = client.post("/v1/games/brisca/setup", json={**body, "rules_version": 1}).json
    assert old["rules_version"] == 1 and "claim_needs_pair" not in old["state"]["options"]
    seat = old["to_act"][0]
    action = client.post(
        "/v1/games/brisca/legal-actions", json={"state": old["state"], "seat": seat}
    ).json["actions"][0]
    r = client.post(
        "/v1/games/brisca/apply", json={"state": old["state"], "seat": seat, "action": action}
    )
    assert r.status_code == 200, r.json  # a running match of version 1 plays on under it
    assert "claim_needs_pair" not in r.json["state"]["options"]


def test_setup_events_keep_private_cards_for_their_seat(client):
    events = setup_match(client)["events"]
    dealt = [e for e in events if e["type"] == "dealt"]
    assert {e["seat"] for e in dealt} == {0, 1} and all(
        e["visible_to"] == [e["seat"]] for e in dealt
    )


def test_play_a_few_moves_through_legal_actions_apply_and_view(client):
    match = setup_match(client)
    state = match["state"]
    for _ in range(6):
        seat = state["to_act"][0]
        actions = client.post(
            "/v1/games/brisca/legal-actions", json={"state": state, "seat": seat}
        ).json["actions"]
        r = client.post(
            "/v1/games/brisca/apply", json={"state": state, "seat": seat, "action": actions[0]}
        )
        assert r.status_code == 200, r.json
        assert r.json["events"][0] == {"type": "played", "seat": seat, "card": actions[0]["card"]}
        state = r.json["state"]
        assert r.json["to_act"] == state["to_act"] and r.json["finished"] is False
        assert r.json["view"]["seat"] == seat and r.json["view"]["zones"][f"hand:{seat}"]["count"]
    view = client.post("/v1/games/brisca/view", json={"state": state, "seat": 0}).json
    assert view["seat"] == 0 and view["trump"] in "OCEB"
    assert all(c is not None for c in view["zones"]["hand:0"]["cards"])
    assert all(c is None for c in view["zones"]["hand:1"]["cards"])
    assert all(c is None for c in view["zones"]["stock"]["cards"])
    spectator = client.post("/v1/games/brisca/view", json={"state": state, "seat": None}).json
    assert spectator["legal_actions"] == [] and all(
        c is None for c in spectator["zones"]["hand:0"]["cards"]
    )


def test_every_answer_loads_back_through_its_documented_schema(client):
    from services.rules import schemas

    match = setup_match(client)
    schemas.SetupResponse().load(match)
    state = match["state"]
    seat = state["to_act"][0]
    body = {"state": state, "seat": seat}
    actions = client.post("/v1/games/brisca/legal-actions", json=body).json
    schemas.ActionsResponse().load(actions)
    seen = client.post("/v1/games/brisca/view", json=body).json
    assert not list(spec_validator("View").iter_errors(seen))
    applied = client.post(
        "/v1/games/brisca/apply", json={**body, "action": actions["actions"][0]}
    ).json
    schemas.ApplyResponse().load(applied)


def spec_validator(component: str) -> Draft202012Validator:
    spec = yaml.safe_load((OPENAPI_DIR / "rules.yaml").read_text(encoding="utf-8"))
    schema = {"$ref": f"#/components/schemas/{component}", "components": spec["components"]}
    return Draft202012Validator(schema)


def test_the_catalog_publishes_each_games_events_view_fields_and_facts(client):
    raj = client.get("/v1/games/raj").json
    assert {e["type"] for e in raj["events"]} == set(get_game("raj").event_table)
    bid = next(e for e in raj["events"] if e["type"] == "bid_committed")
    assert bid["visibility"] == "private" and set(bid["required"]) >= {"seat", "card"}
    assert raj["view"]["public"]["prize"]["anyOf"][0] == {"type": "integer"}
    assert "my_bid" in raj["view"]["private"] and raj["deck"] == "english"
    assert {f["id"] for f in raj["facts"]} >= {"prize", "score"}
    truco = client.get("/v1/games/truco").json
    assert "pending_call" in truco["view"]["public"]
    assert {e["type"] for e in truco["events"]} == set(get_game("truco").event_table)
    canasta = client.get("/v1/games/canasta").json
    assert canasta["view"]["public"]["pile_top"]["anyOf"][1] == {"type": "null"}
    assert {f["id"] for f in canasta["facts"]} >= {"points", "score"}


def brisca_in(client, lang_query="", headers=None, names=None):
    """A Brisca dealt and its first card played, through the service, in the language asked."""
    body = {"players": 2, "seed": "lang", **({"names": names} if names else {})}
    match = client.post(f"/v1/games/brisca/setup{lang_query}", json=body, headers=headers).json
    state, seat = match["state"], match["to_act"][0]
    card = next(c for c in state["zones"][f"hand:{seat}"]["cards"])
    request = {"state": state, "seat": seat, "action": {"type": "play", "card": card}}
    applied = client.post(
        f"/v1/games/brisca/apply{lang_query}",
        json={**request, **({"names": names} if names else {})},
        headers=headers,
    ).json
    return match, applied, seat


def test_sentences_and_facts_are_in_the_language_asked_with_the_players_names(client):
    match, applied, seat = brisca_in(client, "?lang=es", names=["Ana", "Beto"])
    name = ["Ana", "Beto"][seat]
    assert match["texts"][0].startswith("Reparto 1: da ") and "Ana" in match["texts"][0]
    assert applied["texts"][0].startswith(f"{name} juega el ")
    facts = {f["id"]: f for f in applied["view"]["facts"]}
    assert facts["trump"]["label"] == "Triunfo" and facts["trump"]["text"].startswith("Triunfo: ")
    assert facts["score"]["text"].endswith("en la partida")
    _, english, seat = brisca_in(client)  # no lang, no names: English, "Player N"
    assert english["texts"][0].startswith(f"Player {seat + 1} plays the ")
    assert {f["label"] for f in english["view"]["facts"]} >= {"Trump", "Stock"}
    _, spanish, _ = brisca_in(client, headers={"Accept-Language": "fr-CA, es;q=0.8, en;q=0.5"})
    assert " juega " in spanish["texts"][0]
    _, explicit, _ = brisca_in(client, "?lang=en", headers={"Accept-Language": "es"})
    assert " plays " in explicit["texts"][0]  # lang wins over the header


def test_a_sentence_never_names_a_card_its_reader_may_not_see(client):
    match = client.post("/v1/games/brisca/setup?lang=es", json={"players": 2, "seed": "p"}).json
    dealt = [
        t for e, t in zip(match["events"], match["texts"], strict=True) if e["type"] == "dealt"
    ]
    assert dealt == ["Jugador 1 recibe 3 cartas", "Jugador 2 recibe 3 cartas"] or dealt == [
        "Jugador 2 recibe 3 cartas",
        "Jugador 1 recibe 3 cartas",
    ]  # the spectator's sentences: counted, not named
    state = match["state"]
    for _ in range(2):  # a whole trick: both seats draw from the stock, each its own card
        seat = state["to_act"][0]
        card = state["zones"][f"hand:{seat}"]["cards"][0]
        body = {"state": state, "seat": seat, "action": {"type": "play", "card": card}}
        applied = client.post("/v1/games/brisca/apply?lang=es", json=body).json
        state = applied["state"]
    drew = [(e, t) for e, t in zip(applied["events"], applied["texts"], strict=True)
            if e["type"] == "drew"]  # fmt: skip
    assert len(drew) == 2
    for event, text in drew:
        if event["seat"] == seat:
            assert text.endswith(card_phrase(event["card"], "es", "spanish"))
        else:
            assert text == f"Jugador {event['seat'] + 1} roba una carta"


def test_a_refusal_is_a_sentence_in_the_language_asked_and_keeps_its_code(client):
    state = setup_match(client)["state"]
    other = 1 - state["to_act"][0]
    body = {"state": state, "seat": other, "action": {"type": "play", "card": "1O"}}
    spanish = error_of(
        client.post("/v1/games/brisca/apply?lang=es", json=body), 422, "not_your_turn"
    )
    assert spanish["message"] == f"ahora no te toca: es el turno de Jugador {2 - other}"
    english = error_of(client.post("/v1/games/brisca/apply", json=body), 422, "not_your_turn")
    assert "is not to act now" in english["message"]
    seat = state["to_act"][0]
    held = state["zones"][f"hand:{seat}"]["cards"]
    missing = next(c for c in ("1O", "1C", "1E", "1B", "3O", "3C") if c not in held)
    body = {"state": state, "seat": seat, "action": {"type": "play", "card": missing}}
    refused = error_of(
        client.post("/v1/games/brisca/apply?lang=es", json=body), 422, "illegal_action"
    )
    assert refused["message"] == f"No tienes {card_phrase(missing, 'es', 'spanish')} en la mano"


def test_a_language_it_does_not_speak_or_a_bad_name_is_a_400(client):
    state = setup_match(client)["state"]
    body = {"state": state, "seat": 0}
    error_of(client.post("/v1/games/brisca/view?lang=fr", json=body), 400, "bad_request")
    long_name = {**body, "names": ["x" * 41, "Beto"]}
    error_of(client.post("/v1/games/brisca/view", json=long_name), 400, "bad_request")
    assert (
        client.post("/v1/games/brisca/view", json={**body, "names": [None, "Beto"]}).status_code
        == 200
    )


def test_illegal_action_is_422_with_reason_and_legal_actions(client):
    state = setup_match(client)["state"]
    seat = state["to_act"][0]
    r = client.post(
        "/v1/games/brisca/apply",
        json={"state": state, "seat": seat, "action": {"type": "play", "card": "5X"}},
    )
    err = error_of(r, 422, "illegal_action")
    assert "card must be a card code" in err["message"] and err["details"]["legal_actions"]


def test_action_out_of_turn_is_422_not_your_turn(client):
    state = setup_match(client)["state"]
    other = 1 - state["to_act"][0]
    r = client.post(
        "/v1/games/brisca/apply",
        json={"state": state, "seat": other, "action": {"type": "play", "card": "1O"}},
    )
    error_of(r, 422, "not_your_turn")


def test_unknown_action_shape_is_refused(client):
    state = setup_match(client)["state"]
    seat = state["to_act"][0]
    for action in ({}, {"type": 3}, {"type": "dance"}):
        r = client.post(
            "/v1/games/brisca/apply", json={"state": state, "seat": seat, "action": action}
        )
        assert r.status_code == 422, r.json
    r = client.post("/v1/games/brisca/apply", json={"state": state, "seat": seat, "action": "play"})
    error_of(r, 400, "bad_request")


@pytest.mark.parametrize(
    "path, body, status, code",
    [
        ("/v1/games/nope/setup", {"players": 2}, 404, "unknown_game"),
        ("/v1/games/brisca/setup", {"variant": "nope"}, 400, "unknown_variant"),
        ("/v1/games/brisca/setup", {"players": 5}, 400, "bad_setup"),
        ("/v1/games/brisca/setup", {"players": 1}, 400, "bad_setup"),
        ("/v1/games/brisca/setup", {"players": "2"}, 400, "bad_request"),
        ("/v1/games/brisca/setup", {"players": True}, 400, "bad_request"),
        ("/v1/games/brisca/setup", {"variant": "tute-parejas", "players": 2}, 400, "bad_setup"),
        ("/v1/games/brisca/setup", {"options": {"colour": "red"}}, 400, "bad_setup"),
        ("/v1/games/brisca/setup", {"options": {"deals": "four"}}, 400, "bad_setup"),
        ("/v1/games/brisca/setup", {"options": {"arrastre": "strict"}}, 400, "bad_setup"),
        ("/v1/games/brisca/setup", {"surprise": 1}, 400, "bad_request"),
        ("/v1/games/brisca/setup", {"rules_version": 99}, 400, "unknown_rules_version"),
        ("/v1/games/brisca/setup", {"rules_version": 0}, 400, "bad_setup"),
        ("/v1/games/brisca/setup", {"rules_version": "1"}, 400, "bad_request"),
        (
            "/v1/games/brisca/setup",
            {"rules_version": 1, "options": {"claim_needs_pair": True}},
            400,
            "bad_setup",
        ),
        ("/v1/games/brisca/setup", [], 400, "bad_request"),
    ],
)
def test_bad_setup_input(client, path, body, status, code):
    error_of(client.post(path, json=body), status, code)


def test_malformed_json_is_400(client):
    r = client.post("/v1/games/brisca/apply", data="{not json", content_type="application/json")
    error_of(r, 400, "bad_request")


def test_a_body_nested_too_deeply_is_400(client):
    deep = '{"state": ' + "[" * 100_000 + "]" * 100_000 + ', "seat": 0}'
    r = client.post("/v1/games/brisca/view", data=deep, content_type="application/json")
    error_of(r, 400, "bad_request")


def test_unknown_game_detail_is_404(client):
    error_of(client.get("/v1/games/nope"), 404, "unknown_game")


@pytest.mark.parametrize("endpoint", ["legal-actions", "view", "apply"])
def test_forged_truncated_or_wrong_typed_state_is_400(client, endpoint):
    state = setup_match(client)["state"]
    seat = state["to_act"][0]
    forged = json.loads(json.dumps(state))
    hand = forged["zones"][f"hand:{seat}"]["cards"]
    hand[0], forged["zones"]["stock"]["cards"][0] = forged["zones"]["stock"]["cards"][0], hand[0]
    truncated = {k: v for k, v in state.items() if k != "zones"}
    unsigned = {k: v for k, v in state.items() if k != "sig"}
    body: dict = {"seat": seat}
    if endpoint == "apply":
        body["action"] = {"type": "play", "card": "1O"}
    not_ascii = {**state, "sig": "\u00c5" + state["sig"][1:]}  # was a 500 (compare_digest)
    for bad in (forged, truncated, unsigned, {"sig": state["sig"]}, not_ascii):
        r = client.post(f"/v1/games/brisca/{endpoint}", json={**body, "state": bad})
        error_of(r, 400, "invalid_state")
    r = client.post(f"/v1/games/brisca/{endpoint}", json={**body, "state": "abc"})
    error_of(r, 400, "bad_request")
    # a genuine, correctly sealed Brisca state sent to another game's endpoint is refused
    r = client.post(f"/v1/games/raj/{endpoint}", json={**body, "state": state})
    err = error_of(r, 400, "invalid_state")
    assert err["message"] == "this state is a brisca match, not raj"


@pytest.mark.parametrize("seat", [2, -1, "0", 1.5, True])
def test_seat_out_of_range_or_wrong_type_is_400(client, seat):
    state = setup_match(client)["state"]
    r = client.post("/v1/games/brisca/view", json={"state": state, "seat": seat})
    error_of(r, 400, "bad_request")


def test_probes_and_metrics(client):
    assert client.get("/healthz").json == {"status": "ok"}
    assert client.get("/readyz").status_code == 200
    setup_match(client)
    metrics = client.get("/metrics").data.decode()
    assert 'tapete_http_requests_total{endpoint="/v1/games/<game_id>/setup"' in metrics
    assert "tapete_http_request_seconds_bucket" in metrics


def test_request_id_is_echoed(client):
    r = client.get("/v1/games", headers={"X-Request-ID": "abc123"})
    assert r.headers["X-Request-ID"] == "abc123"


def test_refusals_are_logged_at_info_and_plain_successes_at_debug(client):
    lines: list[logging.LogRecord] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = lines.append  # type: ignore[method-assign]
    log = logging.getLogger("tapete.rules")
    log.addHandler(handler)
    level_before = log.level
    log.setLevel(logging.DEBUG)
    try:
        state = setup_match(client)["state"]
        seat = state["to_act"][0]
        body = {"state": state, "seat": seat, "action": {"type": "play", "card": "5X"}}
        client.post("/v1/games/brisca/apply", json=body, headers={"X-Request-ID": "bad-move"})
    finally:
        log.removeHandler(handler)
        log.setLevel(level_before)
    levels = {r.fields["path"]: (r.levelno, r.fields) for r in lines}  # type: ignore[attr-defined]
    assert levels["/v1/games/brisca/setup"][0] == logging.DEBUG
    level, fields = levels["/v1/games/brisca/apply"]
    assert level == logging.INFO and fields["status"] == 422 and fields["request_id"] == "bad-move"


def test_committed_openapi_spec_matches_the_code_and_validates():
    committed = (OPENAPI_DIR / "rules.yaml").read_text(encoding="utf-8")
    assert committed == generated_spec("rules"), "run `make openapi` and commit openapi/rules.yaml"
    validate(yaml.safe_load(committed))


def test_a_state_signed_with_a_previous_key_is_accepted_during_rotation(client, monkeypatch):
    from services.rules import seal

    old_state = setup_match(client)["state"]
    monkeypatch.setattr(seal, "PREVIOUS_KEYS", [seal.KEY])
    monkeypatch.setattr(seal, "KEY", b"the-new-key")
    seat = old_state["to_act"][0]
    r = client.post("/v1/games/brisca/view", json={"state": old_state, "seat": seat})
    assert r.status_code == 200
    action = r.json["legal_actions"][0]
    r = client.post(
        "/v1/games/brisca/apply", json={"state": old_state, "seat": seat, "action": action}
    )
    assert r.status_code == 200
    monkeypatch.setattr(seal, "PREVIOUS_KEYS", [])
    assert seal.unseal(r.json["state"])  # the answer is signed with the new key alone
    r = client.post("/v1/games/brisca/view", json={"state": old_state, "seat": seat})
    error_of(r, 400, "invalid_state")


def test_the_spec_says_a_state_carries_the_services_seal_and_one_without_it_is_refused(client):
    spec = yaml.safe_load((OPENAPI_DIR / "rules.yaml").read_text(encoding="utf-8"))
    state = setup_match(client)["state"]
    unsealed = {k: v for k, v in state.items() if k != "sig"}
    for request in ("StateSeatRequest", "ApplyRequest"):
        schema = {"$ref": f"#/components/schemas/{request}", "components": spec["components"]}
        described = spec["components"]["schemas"][request]["properties"]["state"]
        assert described["required"] == ["sig"] and "seal" in described["description"]
        body = {"state": unsealed, "seat": 0, "action": {"type": "play", "card": "1O"}}
        if request == "StateSeatRequest":
            del body["action"]
        assert not Draft202012Validator(schema).is_valid(body)
        assert Draft202012Validator(schema).is_valid({**body, "state": state})
    error_of(client.post("/v1/games/brisca/view", json={"state": unsealed, "seat": 0}), 400,
             "invalid_state")  # fmt: skip
