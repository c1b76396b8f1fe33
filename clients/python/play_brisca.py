"""Play one Brisca match against a bot through the lobby, with the client that
openapi-python-client generates from openapi/lobby.yaml (package ``tapete_lobby``).

    openapi-python-client generate --path openapi/lobby.yaml --meta none \\
        --output-path build/tapete_lobby
    PYTHONPATH=build python clients/python/play_brisca.py http://127.0.0.1:8000

It registers a player, creates a two-seat match, sits at seat 0, seats a bot at seat 1
(the match deals itself once full), then plays the first of its legal actions whenever
its seat is to act, long-polling the match's events in between. It prints the result and
exits 0 once the match is finished. Every payload is a generated, typed model.
"""

from __future__ import annotations

import sys
from typing import TypeVar

from tapete_lobby import AuthenticatedClient, Client
from tapete_lobby.api.matches import (
    add_bot,
    create_match,
    get_match,
    join_match,
    poll_events,
    submit_action,
)
from tapete_lobby.api.players import register_player
from tapete_lobby.models import (
    ActionResult,
    Error,
    EventsPage,
    Join,
    MatchOut,
    MatchOutStatus,
    NewAction,
    NewBot,
    NewBotStrategy,
    NewMatch,
    NewMatchGame,
    NewPlayer,
    PlayerCreated,
    StaleVersionError,
)

T = TypeVar("T")
MAX_TURNS = 500  # a Brisca match has 40 cards: far fewer turns


class Refused(Exception):
    """The lobby answered with its error shape where the script expected success."""


def expect(answer: T | Error | None, kind: type[T]) -> T:
    """The answer as ``kind``, or stop with the lobby's error code and message."""
    if isinstance(answer, kind):
        return answer
    if isinstance(answer, Error):
        raise Refused(f"{answer.error.code}: {answer.error.message}")
    raise Refused(f"unexpected answer: {answer!r}")


def play(base_url: str) -> MatchOut:
    """One whole match; the finished match as the lobby shows it."""
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    me = expect(
        register_player.sync(client=anonymous, body=NewPlayer(name="python client")),
        PlayerCreated,
    )
    client = AuthenticatedClient(base_url=base_url, token=me.token, timeout=None)
    match = expect(
        create_match.sync(client=client, body=NewMatch(game=NewMatchGame.BRISCA, players=2)),
        MatchOut,
    )
    expect(join_match.sync(match.id, client=client, body=Join(seat=0)), MatchOut)
    bot = NewBot(seat=1, strategy=NewBotStrategy.GREEDY)
    match = expect(add_bot.sync(match.id, client=client, body=bot), MatchOut)
    for _ in range(MAX_TURNS):
        if match.status == MatchOutStatus.FINISHED:
            return match
        view = match.view
        if view is not None and view.seat in view.to_act and view.legal_actions:
            action = NewAction(action=view.legal_actions[0], expected_version=match.version)
            answer = submit_action.sync(match.id, client=client, body=action)
            if isinstance(answer, Error) and isinstance(answer.error, StaleVersionError):
                pass  # the bot moved first: read the match again
            else:
                expect(answer, ActionResult)
        else:
            page = poll_events.sync(match.id, client=client, after=match.version, wait=10)
            expect(page, EventsPage)
        match = expect(get_match.sync(match.id, client=client), MatchOut)
    raise Refused(f"the match did not finish in {MAX_TURNS} turns")


def main() -> int:
    base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    match = play(base_url)
    result = match.result
    if result is None:
        print("finished without a result", file=sys.stderr)
        return 1
    print(f"match {match.id} finished: scores {result.scores}, winners {result.winners}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
