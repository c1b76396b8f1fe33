"""The rules service: the engine's pure functions over HTTP. It owns no data.

Every state it returns is sealed (signed); every state it accepts must carry
its seal and pass the engine's consistency checks before any rule runs.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, g
from flask.views import MethodView

from services.http import Blueprint, ErrorSchema, create_app, direct, request_language
from services.settings import Settings
from services.spec import add_component, game_events
from shared.bots import catalog_entry
from shared.engine import (
    InvalidState,
    State,
    all_games,
    apply,
    check_rules_version,
    check_seat,
    check_state,
    get_game,
    legal_actions,
    new_match,
    view,
)
from shared.engine.core import sentences
from shared.engine.undo import undoable

from . import schemas, seal
from .seal import seal_and_hash, unseal

blp = Blueprint(
    "games", __name__, url_prefix="/v1/games", description="Catalog and rules of every game"
)


def sealed(state: State) -> dict:
    """The answer's ``state`` (sealed) and ``state_hash`` (what the match log records)."""
    doc, digest = seal_and_hash(state.to_json(copy_data=False))
    return {"state": doc, "state_hash": digest}


def load_state(game_id: str, doc: dict) -> State:
    """The client's state, checked: sealed by us, well-formed, of this game, cards conserved."""
    state = State.from_json(unseal(doc), copy_data=False)
    get_game(game_id)
    if state.game != game_id:
        raise InvalidState(f"this state is a {state.game} match, not {game_id}")
    check_state(state)
    return state


def readers(body: dict[str, Any]) -> tuple[str, list]:
    """The answer's language and the players' names by seat (errors are said with them too)."""
    g.names = body.get("names") or ()
    return request_language(), list(g.names)


@blp.route("")
class Catalog(MethodView):
    @blp.response(200, schemas.Catalog)
    @blp.doc(operationId="listGames")
    def get(self):
        """The catalog: every game with its players, variants, options and bot strategies."""
        return {"games": [catalog_entry(g) for g in all_games()]}


@blp.route("/<game_id>")
class GameDetail(MethodView):
    @blp.response(200, schemas.GameDetail)
    @blp.alt_response(404, schema=ErrorSchema, description="no such game")
    @blp.doc(operationId="getGame")
    def get(self, game_id: str):
        """One game's catalog entry with its rule text."""
        game = get_game(game_id)
        return {**catalog_entry(game), "rules": game.rules_text()}


@blp.route("/<game_id>/setup")
class Setup(MethodView):
    @blp.arguments(schemas.SetupRequest(), required=False)  # every field has a default
    @blp.arguments(schemas.Language(), location="query", as_kwargs=True)
    @blp.response(200, schemas.SetupResponse)
    @blp.alt_response(404, schema=ErrorSchema, description="no such game")
    @blp.doc(operationId="setupMatch")
    def post(self, body: dict, game_id: str, lang: str | None = None):
        """Deal a new match. The same seed gives the same deal."""
        lang, names = readers(body)
        version = check_rules_version(get_game(game_id), body["rules_version"])
        state, events = new_match(
            game_id, body["variant"], body["players"], body["seed"], body["options"], version
        )
        return direct(
            {
                **sealed(state),
                "rules_version": version,
                "to_act": state.to_act,
                "events": events,
                "texts": sentences(game_id, events, None, lang, names),
                "finished": state.finished,  # a deal may end the match (99: a trío dealt)
                "result": state.result,
                "deadline": state.deadline,
            }
        )


@blp.route("/<game_id>/legal-actions")
class LegalActions(MethodView):
    @blp.arguments(schemas.StateSeatRequest())
    @blp.arguments(schemas.Language(), location="query", as_kwargs=True)
    @blp.response(200, schemas.ActionsResponse)
    @blp.alt_response(404, schema=ErrorSchema, description="no such game")
    @blp.doc(operationId="listLegalActions")
    def post(self, body: dict, game_id: str, lang: str | None = None):
        """Every action a seat may take now (seat null: the server's own, such as a timeout)."""
        readers(body)
        state = load_state(game_id, body["state"])
        if body["seat"] is not None:
            check_seat(state, body["seat"])
        return direct({"actions": legal_actions(state, body["seat"])})


@blp.route("/<game_id>/apply")
class Apply(MethodView):
    @blp.arguments(schemas.ApplyRequest())
    @blp.arguments(schemas.Language(), location="query", as_kwargs=True)
    @blp.response(200, schemas.ApplyResponse)
    @blp.alt_response(
        422, schema=ErrorSchema, description="illegal action: reason and legal actions"
    )
    @blp.alt_response(404, schema=ErrorSchema, description="no such game")
    @blp.doc(operationId="applyAction")
    def post(self, body: dict, game_id: str, lang: str | None = None):
        """Apply one action; an illegal one is refused with 422, its reason (a sentence in the
        answer's language) and the legal actions."""
        lang, names = readers(body)
        state = load_state(game_id, body["state"])
        seat = body["seat"]
        before = state.clone() if state.players == 1 else None  # a solitaire's move: undoable?
        events = apply(state, seat, body["action"])
        return direct(
            {
                **sealed(state),
                "events": events,
                "texts": sentences(game_id, events, seat, lang, names),
                "to_act": state.to_act,
                "finished": state.finished,
                "result": state.result,
                "deadline": state.deadline,
                "view": view(state, seat, lang, names),
                "undoable": before is not None and undoable(before, state),
            }
        )


@blp.route("/<game_id>/view")
class View(MethodView):
    @blp.arguments(schemas.StateSeatRequest())
    @blp.arguments(schemas.Language(), location="query", as_kwargs=True)
    @blp.response(200, schemas.View)
    @blp.alt_response(404, schema=ErrorSchema, description="no such game")
    @blp.doc(operationId="viewMatch")
    def post(self, body: dict, game_id: str, lang: str | None = None):
        """What one seat (null: a spectator) may see of the match, its facts in the answer's
        language with the players' names."""
        lang, names = readers(body)
        return direct(view(load_state(game_id, body["state"]), body["seat"], lang, names))


def create_rules_app(config: dict | None = None, settings: Settings | None = None) -> Flask:
    """The rules app, sealing with the key of ``settings`` (default: the environment's); no
    usable key outside development mode raises ``MissingSecret``: the service does not start."""
    settings = (settings or Settings.from_env()).with_secrets("rules")
    app = create_app(
        "rules", "Tapete rules service", [blp], config=config, settings=settings, port=8001
    )
    seal.use_keys(settings.state_key or "", settings.state_keys_previous)
    spec = app.extensions["tapete_api"].spec
    add_component(spec, "View")  # the view endpoint documents it by name
    for game in all_games():  # each game's events exactly, for a client that knows its game
        add_component(spec, game_events(game))
    return app
