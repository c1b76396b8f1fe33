"""The short form of `make chaos` (bench/chaos.py): the whole platform under the project's
supervisor, client moves and bot matches going on, and one process of each kind killed with
SIGKILL in turn — Redis, a lobby worker, the lobby master, an rq worker, the bot dispatcher,
the history consumer. No acknowledged move is lost, none is duplicated, every match
finishes and verifies, the history read models catch up, and the platform recovers from
every fault."""

from __future__ import annotations

from bench.chaos import FAULTS, run


def test_the_platform_recovers_from_every_kill_under_load_and_loses_no_move():
    report = run(rounds=1, clients=2, bots_running=2, pause_s=0.5)
    print("\n" + "\n".join(report.lines()))
    assert [fault.kind for fault in report.faults] == list(FAULTS)
    assert report.errors == []
    assert report.acknowledged > 0 and report.bot_moves > 0
    assert report.retried_calls > 0  # the faults did hit the clients
    assert (report.lost, report.duplicated) == (0, 0)
    assert report.finished == report.verified == report.matches > 0
    assert report.history_caught_up
    for fault in report.faults:
        assert fault.recovery_s is not None, f"{fault.kind}: not recovered"
    assert report.ok()
