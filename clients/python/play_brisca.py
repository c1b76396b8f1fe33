"""Play one Brisca match against a bot through the lobby, with the client that
openapi-python-client generates from openapi/lobby.yaml (package ``tapete_lobby``).

    openapi-python-client generate --path openapi/lobby.yaml --meta none \\
        --output-path build/tapete_lobby
    PYTHONPATH=build python clients/python/play_brisca.py http://127.0.0.1:8000

It registers a player, creates a two-seat match, sits at seat 0 with a seed of its own
for the deal, seats a bot at seat 1
(the match deals itself once full), then plays the first of its legal actions whenever
its seat is to act, long-polling the match's events in between. Then it reads the match's
entries in Spanish, from the long-poll and from the stream (each Server-Sent Event parsed
into the spec's own model), and a Raj and a Truco table's own view fields (the prize, the
call awaiting an answer) and facts. It prints what it read, then the result, and exits 0.
Every payload is a generated, typed model: no cast, no dictionary lookups.
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import TypeVar

from tapete_lobby import AuthenticatedClient, Client
from tapete_lobby.api.matches import (
    add_bot,
    create_match,
    get_match,
    join_match,
    poll_events,
    resign_match,
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
    PollEventsLang,
    RajView,
    StaleVersionError,
    StreamEntryEvent,
    StreamFinishedEvent,
    TrucoView,
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


def register(base_url: str) -> AuthenticatedClient:
    """A new player, and the client that acts as them."""
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    me = expect(
        register_player.sync(client=anonymous, body=NewPlayer(name="python client")),
        PlayerCreated,
    )
    return AuthenticatedClient(base_url=base_url, token=me.token, timeout=None)


def play(client: AuthenticatedClient) -> MatchOut:
    """One whole match; the finished match as the lobby shows it."""
    match = expect(
        create_match.sync(client=client, body=NewMatch(game=NewMatchGame.BRISCA, players=2)),
        MatchOut,
    )
    # the player's own share of the deal's seed (docs/match-log.md, "Seeds")
    seed = secrets.token_hex(16)
    expect(join_match.sync(match.id, client=client, body=Join(seat=0, seed=seed)), MatchOut)
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


def against_bots(client: AuthenticatedClient, game: NewMatchGame, players: int) -> MatchOut:
    """A match of ``game`` where this player sits at seat 0 and bots at the others: dealt."""
    match = expect(
        create_match.sync(client=client, body=NewMatch(game=game, players=players)), MatchOut
    )
    expect(join_match.sync(match.id, client=client, body=Join(seat=0)), MatchOut)
    for seat in range(1, players):
        bot = NewBot(seat=seat, strategy=NewBotStrategy.RANDOM)
        match = expect(add_bot.sync(match.id, client=client, body=bot), MatchOut)
    return match


def read_tables(client: AuthenticatedClient) -> list[str]:
    """What a Raj and a Truco table show, read from each game's own typed view: the prize
    being bid for, the call awaiting an answer, and the facts. Both matches are resigned."""
    lines = []
    raj = against_bots(client, NewMatchGame.RAJ, 3)
    if not isinstance(raj.view, RajView):  # the view of a Raj match is a RajView
        raise Refused(f"not a Raj view: {raj.view!r}")
    prize: int | None = raj.view.prize
    lines.append(f"raj: prize {prize}; " + "; ".join(fact.text for fact in raj.view.facts))
    truco = against_bots(client, NewMatchGame.TRUCO, 2)
    if not isinstance(truco.view, TrucoView):
        raise Refused(f"not a Truco view: {truco.view!r}")
    pending = truco.view.pending_call
    call = f"{pending.call.value} by seat {pending.seat}" if pending is not None else "none"
    lines.append(f"truco: pending call {call}; " + "; ".join(f.text for f in truco.view.facts))
    for match in (raj, truco):
        expect(resign_match.sync(match.id, client=client), MatchOut)
    return lines


def read_entries(client: AuthenticatedClient, match_id: str) -> list[str]:
    """The finished match's entries in Spanish: each entry's sentences, from the long-poll
    and from the stream, whose events are parsed into the spec's ``StreamEntryEvent``."""
    page = expect(poll_events.sync(match_id, client=client, lang=PollEventsLang.ES), EventsPage)
    polled = [sentence for entry in page.entries for sentence in entry.sentences]
    streamed: list[str] = []
    answer = client.get_httpx_client().get(f"/v1/matches/{match_id}/stream?lang=es")
    for block in answer.text.split("\n\n"):
        lines = [line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")]
        event = {key: value for key, value in lines if key in ("event", "id", "data", "retry")}
        if event.get("event") == "entry":
            entry = StreamEntryEvent.from_dict({**event, "data": json.loads(event["data"])})
            streamed.extend(entry.data.sentences)
        elif event.get("event") == "finished":
            finished = {**event, "retry": int(event["retry"]), "data": json.loads(event["data"])}
            StreamFinishedEvent.from_dict(finished)
    if streamed != polled:
        raise Refused("the stream and the long-poll say the entries differently")
    return [f"{len(polled)} sentences, the first: {polled[0]}; the last: {polled[-1]}"]


def main() -> int:
    base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    client = register(base_url)
    match = play(client)
    for line in read_entries(client, match.id) + read_tables(client):
        print(line)
    result = match.result
    if result is None:
        print("finished without a result", file=sys.stderr)
        return 1
    print(f"match {match.id} finished: scores {result.scores}, winners {result.winners}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
