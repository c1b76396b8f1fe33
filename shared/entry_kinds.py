"""The kinds of a match log's entries, in the order a match meets them (docs/match-log.md):
one place for the lobby that writes them, the history service that reads them and the
offline verifier, which needs nothing but the engine."""

(
    CREATED, JOINED, LEFT, BOT_ADDED, STARTED, ACTION, SAT_IN, RETURNED, ENDED, REMATCH_OFFERED,
    SEED_REVEALED,
) = ENTRY_KINDS = (
    "match.created", "seat.joined", "seat.left", "bot.added", "match.started", "action",
    "seat.sat_in", "seat.returned", "match.ended", "rematch.offered", "seed.revealed",
)  # fmt: skip

# A tournament's own log (shared/tournament_log.py, docs/lobby.md "Tournaments"): its
# matches are ordinary matches whose document names the tournament, round and table.
(
    TOURNAMENT_CREATED, REGISTERED, WITHDRAWN, ROUND_PAIRED, TOURNAMENT_FINISHED,
) = TOURNAMENT_KINDS = (
    "tournament.created", "tournament.registered", "tournament.withdrawn", "round.paired",
    "tournament.finished",
)  # fmt: skip
