"""Pure read-model updates: fold match-log entries into summaries, score sheets and ratings.

No I/O here. The consumer loads the current summary, asks ``project`` what the new
entries change, and writes the answer atomically (``store.py``). Every function is a
pure function of its arguments, so replaying the same entries from the same summary
always gives the same read models: that is what makes a redelivered notification a
no-op and a rebuilt read model equal to a live one.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from shared.bots.names import player_name
from shared.endings import ABANDONED
from shared.engine import new_match
from shared.entry_kinds import ACTION, BOT_ADDED, CREATED, ENDED, JOINED, LEFT, STARTED
from shared.verify import rules_version_of

Entry = dict[str, Any]
Summary = dict[str, Any]

OPEN, RUNNING, FINISHED = "open", "running", "finished"

# One model for every game: Plackett-Luce handles teams and any number of them.
MODEL = PlackettLuce()
WIN_RANK, LOSS_RANK = 1, 2


class BadEntry(ValueError):
    """An entry the projections cannot fold: the log is not what the lobby writes."""


@dataclass
class Update:
    """What a run of entries changes: the new summary and the side effects to write with it."""

    summary: Summary
    joined: dict[str, float] = field(default_factory=dict)  # player id -> score in their index
    left: set[str] = field(default_factory=set)
    finished: bool = False  # these entries finished the match: write its sheet and ratings


# -- summaries -----------------------------------------------------------------------------
def project(summary: Summary | None, entries: list[Entry]) -> Update:
    """Fold ``entries`` (the next versions, oldest first) into ``summary`` (None: a new match)."""
    if not entries:
        raise BadEntry("nothing to project")
    current = copy.deepcopy(summary) if summary else None
    update = Update(summary={})
    for entry in entries:
        expected = (current["version"] if current else 0) + 1
        if entry.get("version") != expected:
            raise BadEntry(f"expected version {expected}, got {entry.get('version')!r}")
        was_finished = current is not None and current["status"] == FINISHED
        current = fold(current, entry)
        _track_seats(update, current, entry)
        if current["status"] == FINISHED and not was_finished:
            update.finished = True
    assert current is not None
    update.summary = current
    return update


def fold(summary: Summary | None, entry: Entry) -> Summary:
    """The summary after one entry. Unknown kinds only advance the version (forward-compatible)."""
    kind = entry.get("kind")
    if summary is None:
        if kind != CREATED or not isinstance(entry.get("match"), dict):
            raise BadEntry(f"a match log starts with {CREATED}, not {kind!r}")
        return _new_summary(entry)
    out = copy.deepcopy(summary)
    out["version"] = entry["version"]
    if kind in (JOINED, BOT_ADDED):
        seat, who = _seat_and_player(out, entry)
        bot = entry.get("strategy") if kind == BOT_ADDED else None
        out["seats"][seat] = {
            "seat": seat,
            "player": who["id"],
            "name": who.get("name"),
            "bot": bot,
        }
    elif kind == LEFT:
        seat, _ = _seat_and_player(out, entry)
        out["seats"][seat] = _free_seat(seat)
    elif kind == STARTED:
        out["status"] = RUNNING
        out["started"] = entry.get("time")
        out["seed_sha256"] = entry.get("seed_sha256")
        setup = entry.get("setup") or {}
        out["options"] = setup.get("options", out["options"])
        out["rules_version"] = rules_version_of(setup)
    out["moves"] += kind == ACTION
    # the entry that ends the match: an action, a resignation or abandonment, or a deal
    if kind in (STARTED, ACTION, ENDED) and entry.get("finished"):
        out["status"] = FINISHED
        out["finished"] = entry.get("time")
        out["result"] = entry.get("result")
        out["seed"] = entry.get("seed")
    status = entry.get("status")
    if status in (OPEN, RUNNING, FINISHED) and out["status"] != FINISHED:
        out["status"] = status
    return out


def _new_summary(entry: Entry) -> Summary:
    doc = entry["match"]
    try:
        players = int(doc["players"])
        return {
            "id": str(doc["id"]),
            "game": str(doc["game"]),
            "variant": str(doc["variant"]),
            "players": players,
            "options": dict(doc.get("options") or {}),
            "status": OPEN,
            "version": entry["version"],
            "created": doc.get("created") or entry.get("time"),
            "created_by": doc.get("created_by"),
            "started": None,
            "finished": None,
            "seats": [_free_seat(seat) for seat in range(players)],
            "seed_sha256": None,
            "seed": None,
            "result": None,
            "moves": 0,
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise BadEntry(f"{CREATED} without a usable match document: {exc}") from exc


def _free_seat(seat: int) -> dict[str, Any]:
    return {"seat": seat, "player": None, "name": None, "bot": None}


def _seat_and_player(summary: Summary, entry: Entry) -> tuple[int, dict[str, Any]]:
    seat, who = entry.get("seat"), entry.get("player")
    if not (isinstance(seat, int) and 0 <= seat < summary["players"]) or not isinstance(who, dict):
        raise BadEntry(f"{entry.get('kind')} at version {entry['version']} has no valid seat")
    return seat, who


def _track_seats(update: Update, summary: Summary, entry: Entry) -> None:
    """Which player indexes gain or lose this match (a player who left and came back stays)."""
    kind = entry.get("kind")
    who = entry.get("player") or {}
    if kind in (JOINED, BOT_ADDED):
        update.joined[who["id"]] = created_score(summary)
        update.left.discard(who["id"])
    elif kind == LEFT and who.get("id") not in seated_players(summary):
        update.left.add(who["id"])
        update.joined.pop(who["id"], None)


def seated_players(summary: Summary) -> list[str]:
    return [s["player"] for s in summary["seats"] if s["player"] is not None]


def created_score(summary: Summary) -> float:
    """A player's matches are listed newest first by creation time."""
    try:
        return datetime.fromisoformat(str(summary["created"]).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


# -- score sheets --------------------------------------------------------------------------
def teams_of(summary: Summary) -> list[list[int]]:
    """The seats of each side: the engine's teams from a re-deal with the revealed seed.

    The log does not record teams; the deal that fixed them is exactly reproducible, so
    the engine tells. Games without teams: every seat is its own side.
    """
    if summary.get("seed"):
        state, _ = new_match(
            summary["game"], summary["variant"], summary["players"], summary["seed"],
            summary["options"], summary.get("rules_version", 1),
        )  # fmt: skip
        if state.teams:
            return [sorted(team) for team in state.teams]
    return [[seat] for seat in range(summary["players"])]


def final_sheet(summary: Summary, teams: list[list[int]]) -> dict[str, Any]:
    """The score sheet of a finished match, from its result: one row per round."""
    result = summary.get("result") or {}
    return _sheet(
        summary,
        teams,
        rounds=result.get("rounds") or [],
        totals=result.get("scores") or [0] * summary["players"],
        winners=result.get("winners"),
        round_number=len(result.get("rounds") or []),
    )


def live_sheet(match: dict[str, Any], state: dict[str, Any] | None, version: int) -> dict[str, Any]:
    """The sheet of a match still being played, from the lobby's snapshot (public fields only)."""
    players = int(match["players"])
    summary = {**match, "version": version, "players": players}
    state = state or {}
    teams = state.get("teams") or [[seat] for seat in range(players)]
    return _sheet(
        summary,
        [sorted(team) for team in teams],
        rounds=state.get("rounds") or [],
        totals=state.get("scores") or [0] * players,
        winners=(match.get("result") or {}).get("winners"),
        round_number=int(state.get("round") or 0),
    )


def _sheet(
    summary: Summary,
    teams: list[list[int]],
    rounds: list[list[int]],
    totals: list[int],
    winners: list[int] | None,
    round_number: int,
) -> dict[str, Any]:
    team_of = {seat: index for index, team in enumerate(teams) for seat in team}
    return {
        "match": summary["id"],
        "game": summary["game"],
        "variant": summary["variant"],
        "status": summary["status"],
        "version": summary["version"],
        "seats": [
            {**{k: s.get(k) for k in ("seat", "player", "name", "bot")}, "team": team_of.get(i)}
            for i, s in enumerate(summary["seats"])
        ],
        "teams": teams,
        "round": round_number,
        "rounds": [list(row) for row in rounds],
        "totals": list(totals),
        "winners": winners,
    }


# -- ratings -------------------------------------------------------------------------------
def new_rating(player: dict[str, Any]) -> dict[str, Any]:
    return {
        "player": player["player"],
        "name": player.get("name"),
        "bot": player.get("bot"),
        "is_bot": player.get("bot") is not None,
        "mu": MODEL.mu,
        "sigma": MODEL.sigma,
        "matches": 0,
        "wins": 0,
    }


def rate(
    summary: Summary, teams: list[list[int]], current: dict[str, dict[str, Any] | None]
) -> dict[str, dict[str, Any]]:
    """Every seated player's rating record after this finished match (a bot is one player,
    on its own row, however many seats it held: ``is_bot`` marks it).

    Sides that hold a winner rank first, every other side shares second place: the
    result names winners for every game, while what a score means (higher or lower is
    better) differs per game. A match of fewer than two sides (a solitaire) counts in
    matches and wins but moves no rating.
    """
    result = summary.get("result") or {}
    winners = set(result.get("winners") or [])
    seats = summary["seats"]
    records: dict[str, dict[str, Any]] = {}
    for seat in seats:
        player = seat["player"]
        if player in records:  # a bot in several seats: one match, won if any seat won
            continue
        held = {s["seat"] for s in seats if s["player"] == player}
        base = current.get(player) or new_rating(seat)
        records[player] = {
            **base,
            # a bot's line is its strategy's player, whichever seat names it played under
            "name": seat.get("name") if seat.get("bot") is None else player_name(seat["bot"]),
            "bot": seat.get("bot"),
            "is_bot": seat.get("bot") is not None,
            "matches": base["matches"] + 1,
            "wins": base["wins"] + bool(held & winners),
        }
    sides_of: dict[str, set[int]] = {}
    for index, team in enumerate(teams):
        for member in team:
            sides_of.setdefault(seats[member]["player"], set()).add(index)
    # No rating moves when nobody was to blame for an abandoned match, or when one player
    # (a bot) sat on two sides: such a match says nothing of anyone's skill.
    unrated = result.get("reason") == ABANDONED and result.get("seat") is None
    unrated = unrated or any(len(sides) > 1 for sides in sides_of.values())
    if len(teams) >= 2 and not unrated:
        sides = [[seats[s]["player"] for s in team] for team in teams]
        before = [
            [MODEL.rating(mu=records[p]["mu"], sigma=records[p]["sigma"]) for p in side]
            for side in sides
        ]
        ranks = [float(WIN_RANK if winners & set(team) else LOSS_RANK) for team in teams]
        after = MODEL.rate(before, ranks=ranks)
        for side, ratings in zip(sides, after, strict=True):
            for player, rating in zip(side, ratings, strict=True):
                records[player].update(mu=rating.mu, sigma=rating.sigma)
    return records


def ordinal(record: dict[str, Any]) -> float:
    """The leaderboard's sort key: a conservative skill estimate (mu - 3 sigma)."""
    return float(MODEL.rating(mu=record["mu"], sigma=record["sigma"]).ordinal())
