"""The short form of `make restart-drill` (bench/rolling.py): a lobby, a feed and a bot worker
restarted gracefully in turn — out of the balancer, SIGTERM, a new one ready — while clients
play, follow their matches on streams and bots play. No acknowledged move is lost or
repeated, no request is refused, no stream entry is missed or repeated, no stream is cut
without being told to reconnect, and every match finishes and verifies."""

from __future__ import annotations

from bench.rolling import run


def test_graceful_restarts_of_every_kind_lose_and_refuse_nothing_under_load():
    report = run(restarts=3, clients=2, bots_running=1, pause_s=0.3)
    print("\n" + "\n".join(report.lines()))
    assert sorted(name.rsplit("-", 1)[0] for name, _, _ in report.restarts) == [
        "feed", "lobby", "worker"
    ]  # fmt: skip
    assert report.moves.errors == []
    assert report.moves.acknowledged > 0 and report.moves.bot_moves > 0 and report.streams > 0
    assert (report.moves.lost, report.moves.duplicated) == (0, 0)
    assert report.refused == [] and report.cut == [] and report.forced == []
    assert (report.missed, report.repeated, report.unfinished_streams) == (0, 0, 0)
    assert report.moves.finished == report.moves.verified == report.moves.matches > 0
    assert report.moves.history_caught_up
    assert report.ok()
