"""Duplicate groups: several tables of one setup dealt the same cards, their seed revealed
only once every table has finished, their results compared deal by deal (docs/lobby.md,
"Duplicate deals"; the pure part is ``shared.duplicate``).

A group draws one server seed and commits to it at once (its SHA-256, in the group and in
every table's created match); each table is a match created with that seed, its seats kept
for the group's players and bots, dealing itself when full. The group's record (one key,
written before any table) holds the seating and the seed, never shown: a lobby that stops
while opening the tables leaves a group the next read finishes opening. A table's finishing entry
does not reveal the seed: the tables still playing hold the same cards. Once the last
table finishes, every table gets a ``seed.revealed`` entry (docs/match-log.md), each table
then verifying like any match. The reveal runs right after the finishing append
(``MatchStore.when_finished``) and again on every read of the group, so a lobby that
stops in between leaves a group the next read reveals.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from services.errors import BadRequest, Conflict, Forbidden, NotFound
from shared.duplicate import MAX_TABLES, MIN_TABLES, comparison, group_of, rotated
from shared.engine import seeds
from shared.entry_kinds import SEED_REVEALED
from shared.eventstore import VersionConflict
from shared.verify import finishing_entry, rules_version_of, started_entry

from . import match as rules_of
from .match import FINISHED, OPEN
from .matchstore import SYSTEM, Snapshot, actor, iso_time
from .players import Player
from .seats import Seats

GROUP_KEY = "tapete:duplicate:{id}"  # the group (JSON, written once); its tables are matches
GROUP_ID = re.compile(r"[0-9a-f]{16}")
ME = "me"  # POST /v1/duplicates: the caller's place among the entrants
# What a step of opening a table meets when another lobby took it first: nothing to do.
RACED = ("seat_taken", "already_seated", "match_not_open", "match_full", "busy")

Entrant = Player | str  # a person, or a bot's strategy


class Duplicates:
    """Duplicate groups on the lobby's store, their tables opened through ``seats``."""

    def __init__(self, seats: Seats) -> None:
        self.seats = seats
        self.store = seats.store
        self.store.when_finished.append(self.table_finished)

    # -- the use cases ---------------------------------------------------------------------
    def open_rotated(
        self,
        player: Player,
        game: str,
        variant: str,
        players: int | None,
        options: dict[str, Any],
        tables: int,
        entrants: Sequence[str] | None,
        bot_level: str,
        turn_timeout: float | None = None,
        bot_pace: float | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/duplicates``: ``entrants`` (by their seat at the first table: a bot's
        strategy or ``"me"``; None: ``bot_level`` everywhere) rotated over the seats of
        ``tables`` tables (``shared.duplicate.rotated``). The caller plays their seat at the
        first table only; at the others a bot of ``bot_level`` holds their cards, so that no
        person sees the same cards twice."""
        if player.bot:
            raise Forbidden("a bot seat's token cannot open a duplicate group")
        count = self.seats.checked_setup(game, variant, players, options)
        entrants = list(entrants) if entrants is not None else [bot_level] * count
        if len(entrants) != count:
            raise BadRequest(
                f"seats must name one entrant for each of the {count} seats",
                code="bad_seats",
            )
        if entrants.count(ME) > 1:
            raise BadRequest(f"{ME!r} may be one entrant only", code="bad_seats")
        _check_tables(tables)
        seating = rotated(count, tables)
        who: list[list[Entrant]] = [
            [
                player if entrants[e] == ME and t == 0 else bot_level if entrants[e] == ME
                else entrants[e]
                for e in table
            ]
            for t, table in enumerate(seating)
        ]  # fmt: skip
        return self.open_group(
            player, game, variant, count, options, who, seating, turn_timeout, bot_pace
        )

    def open_group(
        self,
        creator: Player,
        game: str,
        variant: str,
        players: int | None,
        options: dict[str, Any],
        tables: Sequence[Sequence[Entrant]],
        entrants: Sequence[Sequence[int]] | None = None,
        turn_timeout: float | None = None,
        bot_pace: float | None = None,
        tournament: dict[str, Any] | None = None,
        sit_in: str | None = rules_of.DEFAULT_SIT_IN,
        committed: Callable[[dict[str, Any]], Any] | None = None,
    ) -> dict[str, Any]:
        """A duplicate group of ``tables`` (each, by seat, the person or bot strategy sitting
        there), all dealt the same cards: what a tournament round or ``open_rotated`` opens.
        ``entrants``: by table and seat, the entrant the comparison credits (None: rotated).
        Everything is checked before anything is written; a person sits at one table of the
        group at most (they would see the same cards twice).

        A tournament's round: ``tournament`` (``{id, round}``; each table's match names its
        table, from 1) and its ``sit_in``; the tournament's limits bound it, not the
        creator's cap. ``committed(group)`` is called once the group's record is written and
        before any table is opened, with its ``id``, ``seed_sha256`` and ``matches``: the
        tournament appends its round there, so the commitment is in its log before any card
        is dealt; if it raises, the record is deleted and nothing is opened."""
        count = self.seats.checked_setup(game, variant, players, options)
        _check_tables(len(tables))
        entrants = [list(t) for t in entrants] if entrants else rotated(count, len(tables))
        people: list[str] = []
        for table in tables:
            if len(table) != count:
                raise BadRequest(f"each table seats {count} players", code="bad_seats")
            for sitter in table:
                if isinstance(sitter, Player):
                    people.append(sitter.id)
                else:
                    rules_of.check_bot_strategy({"game": game}, sitter)
        if len(set(people)) != len(people):
            raise BadRequest(
                "a person may sit at one table of a duplicate group only: they would see "
                "the same cards twice",
                code="seated_twice",
            )
        rules_of.check_sit_in({"game": game}, sit_in)
        if tournament is None:
            self.seats.check_room_for_a_match(creator)
        seed, group_id = self.seats.new_seed(), secrets.token_hex(8)
        match_ids = [secrets.token_hex(8) for _ in tables]
        group = {
            "id": group_id, "game": game, "variant": variant, "players": count,
            "options": options, "created": iso_time(self.store.clock()),
            "created_by": creator.id, "creator_name": creator.name,
            "seed_sha256": seeds.commitment(seed), "seed": seed,  # the seed: never shown
            "matches": match_ids, "entrants": entrants,
            "seating": [[_sitter(s) for s in table] for table in tables],
            "turn_timeout": turn_timeout, "bot_pace": bot_pace,
            "tournament": tournament, "sit_in": sit_in,
        }  # fmt: skip
        key = GROUP_KEY.format(id=group_id)
        self.store.client.set(key, json.dumps(group), nx=True)
        if committed is not None:
            try:
                committed({k: group[k] for k in ("id", "seed_sha256", "matches")})
            except Exception:
                self.store.client.delete(key)
                raise
        self._open_tables(group)
        return self.get(group_id)

    def get(self, group_id: str) -> dict[str, Any]:
        """The group, its tables and, once every table has finished, the deal-by-deal
        comparison, from the tables' logs; a group whose tables have all finished but lack
        their reveal (its lobby stopped in between) is revealed now."""
        group = self._group(group_id)
        if not group.get("opened"):  # its lobby may have stopped while opening it
            self._open_tables(group)
        snaps = [self.store.load(match_id) for match_id in group["matches"]]
        done = all(snap.match["status"] == FINISHED for snap in snaps)
        if done and any(not snap.match.get("seed") for snap in snaps):
            snaps = [self._reveal(snap.id, group_id) for snap in snaps]
        tables = []
        for t, snap in enumerate(snaps):
            entries = self.store.log.entries(snap.id)
            setup = (started_entry(entries) or {}).get("setup")
            tables.append({
                "table": t, "match": snap.id, "status": snap.match["status"],
                "seats": snap.match["seats"], "entrants": group["entrants"][t],
                "rules_version": rules_version_of(setup) if setup is not None else None,
                "result": finishing_entry(entries).get("result") if done else None,
            })  # fmt: skip
        revealed = done and all(snap.match.get("seed") for snap in snaps)
        return {
            **{k: group[k] for k in ("id", "game", "variant", "players", "options", "created")},
            "created_by": group["created_by"],
            "seed_sha256": group["seed_sha256"],
            "seed": snaps[0].match.get("seed") if revealed else None,
            "status": FINISHED if revealed else "playing",
            "tables": tables,
            "comparison": comparison(group["game"], tables, group["options"]) if revealed else None,
        }

    # -- the reveal ------------------------------------------------------------------------
    def table_finished(self, snap: Snapshot) -> None:
        """A table has just finished: once the last of its group has, reveal every table."""
        group = group_of(snap.match)
        if group is None:
            return
        others = [m for m in group["matches"] if m != snap.id]
        if all(self.store.load(m).match["status"] == FINISHED for m in others):
            for match_id in group["matches"]:
                self._reveal(match_id, group["group"])

    def _reveal(self, match_id: str, group_id: str) -> Snapshot:
        """The ``seed.revealed`` entry of a finished table (once: a revealed one is left)."""

        def change(snap: Snapshot) -> Snapshot:
            if snap.match.get("seed") or snap.match["status"] != FINISHED:
                return snap
            event = {
                "type": "seed_revealed", "group": group_id,
                "seed_sha256": snap.match["seed_sha256"],
            }  # fmt: skip
            entry = {
                "kind": SEED_REVEALED, "actor": actor(SYSTEM, None), "events": [event],
                "group": group_id, "seed": snap.seed,
            }  # fmt: skip
            revealed = {**snap.match, "seed": snap.seed}
            return self.store.append(snap, revealed, entry, snap.state, snap.seed)

        return self.store.command(match_id, change)

    # -- the parts -------------------------------------------------------------------------
    def _open_tables(self, group: dict[str, Any]) -> None:
        """Open every table missing or not yet full, then mark the group opened: a table
        gone later (archived by the history service) is never opened again."""
        for table, match_id in enumerate(group["matches"]):
            if not self.store.exists(match_id) or self.store.load(match_id).match["status"] == OPEN:
                self._open_table(group, table)
        opened = json.dumps({**group, "opened": True})
        self.store.client.set(GROUP_KEY.format(id=group["id"]), opened)

    def _open_table(self, group: dict[str, Any], table: int) -> None:
        """One table, as the group's record says: created with the group's seed, its bots
        seated, then its persons; the last seat taken deals it. Each step already done is
        skipped (and one another lobby does meanwhile), so a group whose lobby stopped
        while opening it is opened by the next read, its tables once each."""
        match_id, sitters = group["matches"][table], group["seating"][table]
        creator = Player(group["created_by"], group["creator_name"])
        duplicate = {
            "group": group["id"], "table": table, "matches": group["matches"],
            "seed_sha256": group["seed_sha256"],
            "people": [[s["player"] for s in seated if "player" in s] for seated in group["seating"]],
        }  # fmt: skip
        store, where = self.store, group.get("tournament")
        try:
            if not store.exists(match_id):
                self.seats.create_match(
                    creator, group["game"], group["variant"], group["players"],
                    group["options"], turn_timeout=group["turn_timeout"],
                    bot_pace=group["bot_pace"], match_id=match_id, duplicate=duplicate,
                    people=[s.get("player") for s in sitters], seed=group["seed"],
                    sit_in=group.get("sit_in", rules_of.DEFAULT_SIT_IN),
                    tournament={**where, "table": table + 1} if where else None,
                )  # fmt: skip
            for seat, sitter in enumerate(sitters):
                if "bot" in sitter and store.load(match_id).match["seats"][seat]["player"] is None:
                    self.seats.add_bot(creator, match_id, seat, sitter["bot"])
            for seat, sitter in enumerate(sitters):
                person = Player(sitter["player"], sitter["name"]) if "player" in sitter else None
                if person and rules_of.seat_of(store.load(match_id).match, person.id) is None:
                    self.seats.join(person, match_id, seat)
        except VersionConflict:  # another lobby created it first
            return
        except Conflict as raced:
            if raced.code not in RACED:
                raise

    def _group(self, group_id: str) -> dict[str, Any]:
        raw = (
            self.store.client.get(GROUP_KEY.format(id=group_id))
            if GROUP_ID.fullmatch(group_id)
            else None
        )
        if not raw:
            raise NotFound(f"no duplicate group {group_id!r}")
        return dict(json.loads(raw))


def _sitter(sitter: Entrant) -> dict[str, Any]:
    """A seat of the group's record: a person, or a bot's strategy."""
    if isinstance(sitter, Player):
        return {"player": sitter.id, "name": sitter.name}
    return {"bot": sitter}


def _check_tables(tables: int) -> None:
    if not MIN_TABLES <= tables <= MAX_TABLES:
        raise BadRequest(
            f"a duplicate group has {MIN_TABLES} to {MAX_TABLES} tables, not {tables}",
            code="bad_tables",
        )
