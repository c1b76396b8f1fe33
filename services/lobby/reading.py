"""What a caller reads of matches: one match and its view, a page of the list, the entries
after a version (the long-poll), the stream and its tickets, and a bot seat's token.
"""

from __future__ import annotations

import json
from typing import Any

from services.errors import BadRequest
from services.lobby_events import names_at
from shared.engine import DEFAULT_LANGUAGE

from . import feed, listing
from . import match as rules_of
from .match import FINISHED, OPEN
from .matchstore import MatchStore, Snapshot
from .players import Player
from .tickets import Tickets


class Reading:
    """Reads: none of them changes a match."""

    def __init__(self, store: MatchStore, tickets: Tickets, hub: feed.Hub, heartbeat: float):
        """``heartbeat``: the streams' heartbeat interval (feed.py)."""
        self.store = store
        self.tickets = tickets
        self.hub = hub
        self.heartbeat = heartbeat

    def get_match(self, player: Player, match_id: str) -> dict[str, Any]:
        return self.store.presented(self.watched(player, match_id), player)

    def watched(self, player: Player, match_id: str) -> Snapshot:
        """The match, unless it is a duplicate table hidden from ``player`` (403
        ``duplicate_table_hidden``): every read of its play comes through here."""
        snap = self.store.load(match_id)
        rules_of.check_not_hidden(snap.match, player)
        return snap

    def list_matches(
        self,
        player: Player,
        *,
        status: str | None = None,
        game: str | None = None,
        mine: bool = False,
        free_seats: bool = False,
        limit: int = 50,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        """One page of matches passing the filters, newest first, and the next page's cursor.

        Reads the top of each shard of one index (``listing.py``), then the page's match
        documents only.
        """
        if free_seats and status not in (None, OPEN):
            raise BadRequest("free_seats lists open matches only", code="bad_filter")
        store = self.store
        scope = listing.scope_of(player.id if mine else None)
        index = (scope, game or listing.ANY, listing.FREE if free_seats else status or listing.ANY)
        shards = range(store.listing_shards)
        keys = [listing.key(*index, shard) for shard in shards]
        ids, following = listing.page_ids(store.client, keys, limit, cursor)
        pipe = store.client.pipeline(transaction=False)
        for match_id in ids:
            pipe.hget(store.log.keys(match_id).snapshot, "match")
        found = []
        for match_id, raw in zip(ids, pipe.execute(), strict=True):
            doc = json.loads(raw) if raw else None
            filed = keys[listing.shard_of(match_id, store.listing_shards)]
            if doc is None or filed not in listing.keys_of(doc, store.listing_shards):
                # the index lagged behind the log: repair it now
                listing.unfile(store.client, filed, match_id)
                if doc is not None:
                    listing.refile(store.client, None, doc, store.listing_shards)
                continue
            found.append(doc)
        return {"matches": found, "next": following}

    def events(
        self, player: Player, match_id: str, after: int, wait: float, lang: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """Entries after version ``after`` as the caller may see them, waiting up to ``wait``s,
        their sentences in ``lang``."""
        snap = self.watched(player, match_id)
        finished = snap.match["status"] == FINISHED
        # a finished match has nothing more to wait for: the poll answers at once
        entries = self.store.log.wait(match_id, after, 0 if finished else wait)
        seat = rules_of.seat_for(snap.match, player)
        last = entries[-1] if entries else None
        game, names = snap.match["game"], rules_of.seat_names(snap.match)
        shown = []
        for entry in entries:
            names = names_at(entry, names)
            shown.append(rules_of.public_entry(entry, seat, game, lang, names))
        return {
            "match": match_id,
            "version": last["version"] if last else snap.version,
            "status": last["status"] if last else snap.match["status"],
            "finished": (last["status"] if last else snap.match["status"]) == FINISHED,
            "entries": shown,
        }

    def stream_ticket(self, player: Player, match_id: str) -> dict[str, Any]:
        """A single-use ticket to open this match's stream without a token in the URL."""
        self.watched(player, match_id)
        ticket = self.tickets.issue(player, match_id)
        return {
            "ticket": ticket,
            "expires_in": self.tickets.seconds,
            "stream": f"/v1/matches/{match_id}/stream?ticket={ticket}",
        }

    def open_stream(
        self,
        player: Player,
        match_id: str,
        after: int,
        sock: Any = None,
        lang: str = DEFAULT_LANGUAGE,
    ) -> feed.Stream:
        """The match's entries after ``after`` redacted for the caller, then live (SSE bytes),
        their sentences in ``lang``, on the connection ``sock`` (the WSGI server's: a client
        that stops reading is cut off). 429 ``too_many_streams`` past the player's cap of
        open streams."""
        snap = self.watched(player, match_id)
        reader = feed.EntryReader(
            snap.match["game"], rules_of.seat_for(snap.match, player), lang,
            rules_of.seat_names(snap.match),
        )  # fmt: skip
        return feed.stream(self.hub, match_id, player.id, reader, after, self.heartbeat, sock)

    def bot_token(self, match_id: str, seat: int) -> str | None:
        """The token a bot worker uses to act for a bot seat (never shown to clients), or
        None if no bot plays that seat (seated, or sitting in for its person). Derived, never
        stored (players.py)."""
        seats = self.store.load(match_id).match["seats"]
        if not 0 <= seat < len(seats) or rules_of.bot_of(seats[seat]) is None:
            return None
        return self.store.players.bot_seat_token(match_id, seat)
