"""The history/scoring service: read models from the match feed, logs, replays and verification."""
