"""The lobby's own events, declared once: seats taken and left, bots, the start, an end the
lobby decides (a resignation, an abandonment) and a rematch offered.

They are the first event of the log entries that change a match outside its rules
(docs/match-log.md); the specs' ``Event`` union has them beside every game's events, and
their sentences are said like a game's (``EventType.text``).
"""

from __future__ import annotations

from typing import Any

from shared.engine.events import Event, EventType
from shared.engine.fields import INT, SEAT, SEATS, STR, choice
from shared.engine.language import Say, Words

PLAYER = STR.about("the player id")

match_created = EventType(
    "match_created",
    "the match is created, its seats free",
    game=STR,
    variant=STR,
    players=INT,
    says=Say(
        es="Nueva partida de {game} ({variant}) para {players} jugadores",
        en="New {game} match ({variant}) for {players} players",
    ),
)
seat_joined = EventType(
    "seat_joined",
    "a player takes a seat",
    seat=SEAT,
    player=PLAYER,
    name=STR.about("the player's name"),
    says=Say(es="{name} se sienta a la mesa", en="{name} takes a seat"),
)
seat_left = EventType(
    "seat_left",
    "a player leaves a seat before the start",
    seat=SEAT,
    player=PLAYER,
    says=Say(es="{seat} deja la mesa", en="{seat} leaves the table"),
)
bot_added = EventType(
    "bot_added",
    "a bot takes a seat",
    seat=SEAT,
    player=PLAYER,
    strategy=STR.about("the bot's strategy"),
    says=Say(es="Un bot ({strategy}) se sienta a la mesa", en="A bot ({strategy}) takes a seat"),
)
match_started = EventType(
    "match_started",
    "every seat is taken: the match is dealt",
    seed_sha256=STR.about("the SHA-256 of the seed, published before the first move"),
    to_act=SEATS,
    says=Say(es="Empieza la partida", en="The match begins"),
)
ENDINGS = Words({"resigned": ("se rinde", "resigns"), "abandoned": ("abandona", "abandons")})
match_ended = EventType(
    "match_ended",
    "the lobby ends the match: a seat resigned or abandoned it",
    reason=choice("resigned", "abandoned", words=ENDINGS),
    seat=SEAT.or_null("the seat that resigned or abandoned"),
    winners=SEATS,
)
rematch_offered = EventType(
    "rematch_offered",
    "a rematch of a finished match is offered to its players",
    match=STR.about("the new match's id"),
    by=PLAYER,
    says=Say(es="Se propone la revancha", en="A rematch is offered"),
)


@match_ended.sentence
def _ended_said(game: Any, event: Event) -> Say:
    if event["seat"] is None:
        return Say(es="La partida se da por terminada", en="The match is called off")
    return Say(es="{seat} {reason}: fin de la partida", en="{seat} {reason}: the match is over")


LOBBY_EVENTS: tuple[EventType, ...] = (
    match_created, seat_joined, seat_left, bot_added, match_started, match_ended,
    rematch_offered,
)  # fmt: skip
