"""The lobby's own events, declared once for the lobby and the history service: seats taken
and left, bots, the start, a bot sitting in for a person and the person's return, an end the
lobby decides (a resignation, an abandonment), a rematch offered and a duplicate group's seed
revealed; and how a served entry reads. The entry kinds: ``shared.entry_kinds``.

The lobby's events are the first event of the log entries that change a match outside its
rules (docs/match-log.md); the specs' ``Event`` union has them beside every game's events,
and their sentences are said like a game's (``EventType.text``). ``entry_sentences`` says
every event of an entry, the lobby's and the game's, for one reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.engine import get_game
from shared.engine.core import reader, sentence
from shared.engine.events import Event, EventType
from shared.engine.fields import INT, SEAT, SEATS, STR, Field, choice
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
# The bots' levels in words (a game's own named strategies are said by their ids).
LEVELS = Words(
    {
        "random": ("al azar", "random"),
        "easy": ("fácil", "easy"),
        "medium": ("media", "medium"),
        "hard": ("difícil", "hard"),
    }
)
bot_added = EventType(
    "bot_added",
    "a bot takes a seat",
    seat=SEAT,
    player=PLAYER,
    strategy=Field("str", "the bot's strategy", words=LEVELS),
    says=Say(
        es="{seat}, un bot ({strategy}), se sienta a la mesa",
        en="{seat}, a bot ({strategy}), takes a seat",
    ),
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
# Why a bot sits in for a person: they left the running match, or kept missing their turns.
LEFT_THE_TABLE, MISSED_TURNS = SITTING_IN = ("left", "timeouts")
seat_sat_in = EventType(
    "seat_sat_in",
    "a bot of the match's sit_in level plays a running match's seat for its person, who "
    "left or kept missing turns; the seat stays theirs (they may take it back)",
    seat=SEAT,
    player=PLAYER,
    strategy=Field("str", "the strategy of the bot that plays the seat", words=LEVELS),
    reason=choice(*SITTING_IN),
)
seat_returned = EventType(
    "seat_returned",
    "a person takes back the seat a bot sat in for them",
    seat=SEAT,
    player=PLAYER,
    says=Say(es="{seat} vuelve a su asiento", en="{seat} takes their seat back"),
)
rematch_offered = EventType(
    "rematch_offered",
    "a rematch of a finished match is offered to its players",
    match=STR.about("the new match's id"),
    by=PLAYER,
    says=Say(es="Se propone la revancha", en="A rematch is offered"),
)

seed_revealed = EventType(
    "seed_revealed",
    "every table of the match's duplicate group has finished: the seed they shared is revealed",
    group=STR.about("the duplicate group's id"),
    seed_sha256=STR.about("the SHA-256 the group committed to at its creation"),
    says=Say(
        es="Todas las mesas del duplicado han terminado: se revela la semilla",
        en="Every table of the duplicate has finished: the seed is revealed",
    ),
)


@match_ended.sentence
def _ended_said(game: Any, event: Event) -> Say:
    if event["seat"] is None:
        return Say(es="La partida se da por terminada", en="The match is called off")
    return Say(es="{seat} {reason}: fin de la partida", en="{seat} {reason}: the match is over")


@seat_sat_in.sentence
def _sat_in_said(game: Any, event: Event) -> Say:
    if event["reason"] == "timeouts":
        return Say(
            es="{seat} no juega a tiempo: un bot ({strategy}) juega por su asiento",
            en="{seat} keeps missing turns: a bot ({strategy}) plays their seat",
        )
    return Say(
        es="{seat} deja la mesa: un bot ({strategy}) juega por su asiento",
        en="{seat} leaves the table: a bot ({strategy}) plays their seat",
    )


LOBBY_EVENTS: tuple[EventType, ...] = (
    match_created, seat_joined, seat_left, bot_added, match_started, seat_sat_in,
    seat_returned, match_ended, rematch_offered, seed_revealed,
)  # fmt: skip
LOBBY_EVENT_TABLE = {kind.type: kind for kind in LOBBY_EVENTS}


def entry_sentences(
    game_id: str, events: list[Event], lang: str, names: Sequence[str | None]
) -> list[str]:
    """Each of an entry's events (already redacted for its reader: ``shared.engine.redact``)
    as a sentence in ``lang``, the players named by ``names`` (by seat): the lobby's events
    by their declarations here, the game's by its own."""
    if not events:
        return []
    game = get_game(game_id)
    read = reader(game, lang, names)
    out = []
    for event in events:
        kind = LOBBY_EVENT_TABLE.get(event.get("type", ""))
        out.append(kind.text(game, event, read) if kind else sentence(game, event, read))
    return out


def names_at(entry: dict[str, Any], names: Sequence[str | None]) -> list[str | None]:
    """The players' names by seat as ``entry`` reads them, from ``names`` before it: a seat's
    entry (taken, left, a bot seated) names the player it is about, so a seat left reads
    with its leaver's name and a seat taken with the new player's."""
    seat, player = entry.get("seat"), entry.get("player")
    out = list(names)
    if isinstance(seat, int) and seat >= 0 and isinstance(player, dict):
        out.extend([None] * (seat + 1 - len(out)))
        out[seat] = player.get("name")
    return out
