"""Ending a match: the result on the state and the ``match_finished`` event, said once."""

from __future__ import annotations

from typing import Any

from ..actions import Event
from ..core import finish
from ..events import EventType
from ..fields import BOOL, INTS, SEATS, STR, list_of, obj
from ..language import Say
from ..state import State

#: A finished match's result (``core.finish``; a solitaire adds whether it came out).
RESULT = obj(
    "how the match ended",
    winners=SEATS.about("the winning seats (none: a solitaire lost)"),
    scores=INTS.about("final points per seat"),
    rounds=list_of(INTS, "points per round"),
    won=BOOL.about("solitaires: whether it came out").maybe(),
    reason=STR.about("why it ended, where the game says").maybe(),
)

#: The end of the match and its result. A game that tells more (a reason, the loser) declares
#: ``MATCH_FINISHED.extend(reason=..., ...)`` and passes the fields to ``end_match``.
MATCH_FINISHED = EventType("match_finished", "the match is over: its result", result=RESULT)

WON_ALONE = Say(es="Fin de la partida: gana {seats}", en="The match is over: {seats} wins")
WON_TOGETHER = Say(es="Fin de la partida: ganan {seats}", en="The match is over: {seats} win")
NOBODY_WON = Say(es="Fin de la partida: nadie gana", en="The match is over: nobody wins")


@MATCH_FINISHED.sentence
def _finished_said(game: Any, event: Event) -> tuple[Say, dict[str, Any]]:
    winners = event["result"]["winners"]
    said = NOBODY_WON if not winners else WON_ALONE if len(winners) == 1 else WON_TOGETHER
    return said, {"seats": winners}


#: The kit's sentence of the end, for a game whose ``match_finished`` says more in some ends
#: (its own ``@match_finished.sentence`` falls back on this one).
finished_said = _finished_said


def end_match(state: State, winners: list[int] | None = None, **fields: Any) -> list[Event]:
    """Finish the match (without winners: the highest total, ties share) and announce it.

    ``fields`` (a reason, whether a solitaire was won…) go on the event before the result.
    """
    finish(state, winners)
    return [MATCH_FINISHED.emit(**fields, result=state.result)]


def highest(scores: list[int], seats: list[int] | None = None) -> list[int]:
    """The seats with the highest score (all of them on a tie)."""
    pool = range(len(scores)) if seats is None else seats
    best = max(scores[s] for s in pool)
    return [s for s in pool if scores[s] == best]


def lowest(scores: list[int], seats: list[int] | None = None) -> list[int]:
    """The seats with the lowest score (all of them on a tie): for games where points are bad."""
    pool = range(len(scores)) if seats is None else seats
    best = min(scores[s] for s in pool)
    return [s for s in pool if scores[s] == best]
