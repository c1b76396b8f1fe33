"""The one chokepoint between a game module and the outside world.

Everything that is the same for every game lives here: resolving options,
setting up a match, checking that a seat may act and that its action is legal
(before anything changes), building each seat's view, redacting events, and
checking that cards are conserved. Services, bots and tests call only these.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any

from . import checks
from .errors import (
    BadSetup,
    EngineError,
    IllegalAction,
    InvalidState,
    MatchFinished,
    NotYourTurn,
    UnknownRulesVersion,
)
from .events import fallback_text
from .fields import DeclarationError, object_problem
from .game import _REGISTRY, Action, Event, Game, describe_action, get_game
from .language import DEFAULT_LANGUAGE, Reader, Say
from .state import TOP, State

# The core's refusals, in both languages.
BAD_VERSION = Say(
    es="rules_version debe ser un entero positivo, no {version}",
    en="rules_version must be a positive integer, not {version}",
)
NEWER_VERSION = Say(
    es="esta versión del motor no conoce la versión {version} de las reglas de {game}, solo "
    "de la 1 a la {known}: la partida se grabó con una versión más nueva",
    en="{game} rules version {version} is unknown to this engine, which knows versions 1 to "
    "{known}: the match was recorded by a newer release",
)
NO_OPTION = Say(
    es="{game} no tiene la opción '{name}'{when}; opciones: {options}",
    en="game {game} has no option '{name}'{when}; options: {options}",
)
PLAYER_COUNT = Say(
    es="{game}/{variant} es para {low} a {high} jugadores, no {players}",
    en="{game}/{variant} is for {low} to {high} players, not {players}",
)
BAD_SEAT = Say(
    es="el asiento debe ser un entero del 0 al {last}, no {value}",
    en="seat must be an integer from 0 to {last}, not {value}",
)
NOT_AN_ACTION = Say(
    es="una acción es un objeto con un 'type' de texto",
    en="an action is an object with a string 'type'",
)
FINISHED = Say(es="la partida ha terminado", en="the match is finished")
NOT_A_SERVER_ACTION = Say(
    es="{action} no es ahora una acción del servidor", en="{action} is not a server action now"
)
NOT_YOUR_TURN = Say(
    es="ahora no te toca: es el turno de {seats}",
    en="{seat} is not to act now; to act: {seats}",
)
NOBODY = Say(es="nadie", en="nobody")


def check_rules_version(game: Game, version: Any) -> int:
    """``version`` as a rules version of ``game`` this engine knows (None: the current one).

    A match recorded under a later version than this engine's (by a newer release) is refused:
    replaying it under other rules would give another match, not the one played."""
    if version is None:
        return game.rules_version
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise BadSetup(BAD_VERSION(version=repr(version)))
    if version > game.rules_version:
        raise UnknownRulesVersion(
            NEWER_VERSION(game=game.id, version=version, known=game.rules_version)
        )
    return version


def resolve_options(
    game: Game, variant: str, options: dict | None, rules_version: int | None = None
) -> dict:
    """The variant's options with the caller's overrides, each checked against the game's options.

    Under an earlier ``rules_version`` (a match recorded then), the options that version did
    not have are left out and the ones whose value it implied get that value (``RulesChange``)."""
    version = check_rules_version(game, rules_version)
    if version == game.rules_version:
        resolved = {name: opt.default for name, opt in game.options.items()}
        resolved.update(game.variant(variant).options)
    else:
        known = {name for name, opt in game.options.items() if opt.since <= version}
        resolved = {name: game.options[name].default for name in known}
        resolved.update(game.variant(variant).options)
        resolved.update(game.implied_options(variant, version))
        resolved = {name: value for name, value in resolved.items() if name in known}
    for name, value in (options or {}).items():
        if name not in game.options or game.options[name].since > version:
            when: Say | str = (
                Say(es=f" en la versión {version} de sus reglas", en=f" in rules version {version}")
                if name in game.options
                else ""
            )
            listed = ", ".join(sorted(resolved))
            raise BadSetup(NO_OPTION(game=game.id, name=name, when=when, options=listed))
        problem = game.options[name].check(name, value)
        if problem:
            raise BadSetup(problem)
        resolved[name] = value
    return resolved


def new_match(
    game_id: str,
    variant: str = "base",
    players: int | None = None,
    seed: str | None = None,
    options: dict | None = None,
    rules_version: int | None = None,
) -> tuple[State, list[Event]]:
    """A dealt match ready for its first action. The same seed always gives the same deal.

    ``rules_version`` (default: the game's current one) is the version a recorded match was
    played under: replay and verification deal it under the rules it was played by."""
    game = get_game(game_id)
    low, high = game.player_range(variant)
    players = low if players is None else players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise BadSetup(
            PLAYER_COUNT(game=game.id, variant=variant, low=low, high=high, players=repr(players))
        )
    state = State(
        game.id,
        variant,
        resolve_options(game, variant, options, rules_version),
        players,
        seed or secrets.token_hex(16),
    )
    state.data = game.new_data()
    events = game.setup(state)
    if checks.ON:
        check_events(game, state, events)
    return state, events


def check_seat(state: State, seat: Any, spectator_ok: bool = False) -> None:
    if seat is None and spectator_ok:
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise EngineError(BAD_SEAT(last=state.players - 1, value=repr(seat)))


def legal_actions(state: State, seat: int | None) -> list[Action]:
    """What ``seat`` may do now (None: the server's own actions, such as closing a window)."""
    game = _REGISTRY.get(state.game) or get_game(state.game)  # the registry's at once: hot
    if state.finished:
        return []
    if seat is None:
        return [] if not state.deadline and game.timeout_only else game.system_actions(state)
    if type(seat) is not int or seat not in state.to_act:  # seats to act are well-formed
        check_seat(state, seat)
        return []
    return game.legal_actions(state, seat)


def apply(state: State, seat: int | None, action: Action) -> list[Event]:
    """Apply ``action`` by ``seat`` in place and return the events; refuse it without changing anything."""
    game = _REGISTRY.get(state.game) or get_game(state.game)  # as in legal_actions
    kind_name = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind_name, str):
        raise IllegalAction(NOT_AN_ACTION)
    if state.finished:
        raise MatchFinished(FINISHED)
    if seat is None:
        allowed = game.system_actions(state)
        if action not in allowed:
            raise IllegalAction(NOT_A_SERVER_ACTION(action=describe_action(action)), allowed)
        events = game.apply(state, seat, action)
    else:
        if type(seat) is not int or seat not in state.to_act:  # seats to act are well-formed
            check_seat(state, seat)
            to_act = sorted(state.to_act)
            raise NotYourTurn(NOT_YOUR_TURN(seat=seat, seats=to_act if to_act else NOBODY))
        # The base's refusal and dispatch without their calls, the type found once.
        kind = game.action_table.get(kind_name) if game.table_rules else None
        if kind is None:  # an unknown type (refused), or a game with its own refusal or apply
            reason = game.refusal(state, seat, action)
        else:
            reason = kind.refused(game, state, seat, action)
        if reason is not None:
            raise IllegalAction(reason, game.legal_actions(state, seat), game.deck_kind)
        handler = kind._handler if kind is not None else None
        if handler is not None:
            events = handler(game, state, seat, action)
        else:  # a game's own apply, or the base's error for a type without a handler
            events = game.apply(state, seat, action)
    state.moves += 1
    if checks.ON:
        check_events(game, state, events)
    return events


VIEW_FIELDS = frozenset(
    {
        "game", "variant", "options", "players", "seat", "phase", "to_act", "legal_actions",
        "zones", "scores", "round", "rounds", "finished", "result", "deadline", "teams",
        "facts",
    }
)  # fmt: skip
"""The fields every view has from the core (``teams`` only in team games). A game's own view
fields must be named otherwise: one of the same name would silently replace the core's value."""


def game_view_fields(game: Game, state: State, seat: int | None) -> dict:
    """``game``'s own fields of ``seat``'s view; a game field named like a core field is refused."""
    fields = game.view_fields(state, seat)
    clash = VIEW_FIELDS.intersection(fields)
    if clash:
        raise TypeError(
            f"{game.id}: its view fields {sorted(clash)} have the names of the core's view fields; "
            "rename them (the core's fields: " + ", ".join(sorted(VIEW_FIELDS)) + ")"
        )
    if checks.ON:
        check_view_fields(game, state, seat, fields)
    return fields


def reader(game: Game, lang: str = DEFAULT_LANGUAGE, names: Sequence[str | None] = ()) -> Reader:
    """Who reads ``game``'s sentences: in ``lang``, with these names by seat, its deck's card names."""
    return Reader(lang, tuple(names), game.deck_kind)


def view(
    state: State,
    seat: int | None,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str | None] = (),
) -> dict:
    """What ``seat`` (None: a spectator) may see. Hidden cards are ``None``; nothing else is secret
    here. Its facts are said in ``lang`` with the players' ``names`` (by seat)."""
    check_seat(state, seat, spectator_ok=True)
    game = get_game(state.game)
    zones = {}
    for name, zone in state.zones.items():
        n = len(zone.cards)
        if zone.visible_to(seat):
            cards: list = list(zone.cards)
        elif zone.visibility == TOP and n:
            cards = [None] * (n - 1) + [zone.cards[-1]]
        else:
            cards = [None] * n
        zones[name] = {"owner": zone.owner, "count": n, "cards": cards}
    result = {
        "game": state.game,
        "variant": state.variant,
        "options": dict(state.options),
        "players": state.players,
        "seat": seat,
        "phase": state.phase,
        "to_act": sorted(state.to_act),
        "legal_actions": legal_actions(state, seat) if seat is not None else [],
        "zones": zones,
        "scores": list(state.scores),
        "round": state.round,
        "rounds": [list(r) for r in state.rounds],
        "finished": state.finished,
        "result": state.result,
        "deadline": state.deadline,
    }
    if state.teams:
        result["teams"] = [list(t) for t in state.teams]
    result.update(game_view_fields(game, state, seat))
    facts = game.facts(state, seat)
    if checks.ON:
        check_facts(game, state, facts)
    if facts:
        said = reader(game, lang, names)
        table = game.fact_table
        facts = [table[fact["id"]].say(fact, said) for fact in facts]
    result["facts"] = facts
    return result


def sentence(game: Game, event: Event, read: Reader) -> str:
    """``event`` (already redacted for its reader) as a sentence in ``read``'s words."""
    kind = game.event_table.get(event.get("type", ""))
    if kind is None:  # an event its game does not declare: checking refuses it in the tests
        return fallback_text(event, read)
    return kind.text(game, event, read)


def sentences(
    game_id: str,
    events: list[Event],
    seat: int | None,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str | None] = (),
) -> list[str]:
    """Each event as ``seat`` (None: a spectator) reads it: redacted for the seat first, so a
    sentence never names a card the seat may not see."""
    game = get_game(game_id)
    read = reader(game, lang, names)
    return [sentence(game, redact(event, seat), read) for event in events]


# -- checking what a game emits against what it declares (``checks.ON``: the tests) ----------
def check_events(game: Game, state: State, events: list[Event]) -> None:
    """Every event is of a type ``game`` declares, with exactly its declared fields."""
    table = game.event_table
    for event in events:
        kind = table.get(event.get("type"))  # type: ignore[arg-type]
        if kind is None:
            raise DeclarationError(
                f"{game.id} emitted an event of type {event.get('type')!r}, which it does not "
                f"declare (it declares: {', '.join(sorted(table)) or 'none'}): {event!r}"
            )
        problem = kind.problem(event, state.players)
        if problem:
            raise DeclarationError(f"{game.id}: {problem}: {event!r}")


def check_view_fields(game: Game, state: State, seat: int | None, fields: dict) -> None:
    """The game's view fields are the declared ones, each of its declared kind."""
    if game.public_view is None:
        return  # not declared yet
    declared = dict(game.public_view)
    if seat is not None:
        declared.update(game.private_view)
    else:
        declared.update({name: f.but(nullable=True) for name, f in game.private_view.items()})
    problem = object_problem(declared, fields, state.players)
    if problem:
        raise DeclarationError(f"{game.id}: the view of seat {seat} {problem}")


def check_facts(game: Game, state: State, facts: list) -> None:
    """Every fact is of a kind ``game`` declares, its seat and value as declared."""
    for fact in facts:
        kind = game.fact_table.get(str(fact.get("id"))) if isinstance(fact, dict) else None
        if kind is None:
            raise DeclarationError(f"{game.id} shows a fact it does not declare: {fact!r}")
        problem = kind.problem(fact, state.players)
        if problem:
            raise DeclarationError(f"{game.id}: {problem}")


def redact(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it: a private event's ``card``/``cards`` become null for others.

    Games put every secret of an event under ``card`` or ``cards`` and name who may
    see them in ``visible_to``; everything else in an event is public.
    """
    visible_to = event.get("visible_to")
    if visible_to is None or (seat is not None and seat in visible_to):
        return event
    out = dict(event)
    if "card" in out:
        out["card"] = None
    if "cards" in out:
        out["cards"] = [None] * len(out["cards"])
    return out


def check_state(state: State) -> None:
    """Refuse a state that no sequence of legal actions could have produced in its shape.

    Checks the game and variant, the options, and that the zones hold exactly the
    match's deck: a forged or truncated state fails here, before any rule runs.
    """
    game = get_game(state.game)
    game.variant(state.variant)
    low, high = game.player_range(state.variant)
    if not low <= state.players <= high:
        raise InvalidState(f"state.players must be from {low} to {high}")
    try:
        expected = resolve_options(game, state.variant, state.options)
    except BadSetup as exc:
        raise InvalidState(f"state.options: {exc}") from None
    # A match of an earlier rules version lacks the options added since (Option.since).
    if any(game.options[name].since == 1 for name in expected if name not in state.options):
        raise InvalidState("state.options are incomplete")
    if sorted(state.all_cards()) != sorted(game.deck(state)):  # faster than Counters
        have, want = Counter(state.all_cards()), Counter(game.deck(state))
        extra, missing = sorted((have - want).elements()), sorted((want - have).elements())
        raise InvalidState(f"cards are not conserved: extra {extra}, missing {missing}")


# -- helpers every game uses -------------------------------------------------------------
def record_round(state: State, points: list[int]) -> None:
    """Write one round's points on the score sheet and add them to the running totals."""
    state.rounds.append(list(points))
    state.scores = [total + p for total, p in zip(state.scores, points, strict=True)]


def finish(state: State, winners: list[int] | None = None) -> None:
    """End the match. Without explicit winners, the highest total wins and ties share the win."""
    if winners is None:
        best = max(state.scores)
        winners = [s for s in range(state.players) if state.scores[s] == best]
    state.finished = True
    state.to_act = []
    state.deadline = None
    state.phase = "finished"
    state.result = {
        "winners": sorted(winners),
        "scores": list(state.scores),
        "rounds": [list(r) for r in state.rounds],
    }
