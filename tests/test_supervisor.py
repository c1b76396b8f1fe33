"""The supervisor of `make run` (shared/supervisor.py) as a real process on a small Procfile:
a process that dies is started again with a growing pause while the others carry on, one
killed with SIGKILL comes back, output is prefixed with the process's name, and SIGTERM
stops everything, the processes' own children included."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from shared.redis_server import free_port
from shared.supervisor import parse_concurrency, read_procfile
from tests.service_fixtures import ROOT, wait_until


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has exited
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_procfile_lines_and_concurrency_are_read():
    text = "# comment\n\nweb: exec gunicorn app\nworker:  python -m w --x=1\n"
    assert read_procfile(text) == [("web", "exec gunicorn app"), ("worker", "python -m w --x=1")]
    with pytest.raises(ValueError, match="line 1"):
        read_procfile("no colon here")
    assert parse_concurrency(["worker=2,web=1", "x=3"]) == {"worker": 2, "web": 1, "x": 3}
    with pytest.raises(ValueError):
        parse_concurrency(["worker=0"])


def test_a_dead_process_restarts_with_backoff_while_the_others_carry_on(tmp_path: Path):
    pids = tmp_path / "pids"
    pids.mkdir()
    procfile = tmp_path / "Procfile"
    procfile.write_text(
        # steady: a shell that also starts a child of its own (stopped with it)
        f"steady: sleep 300 & echo $! > {pids}/child.$PROCESS_INDEX; echo $$ > {pids}/steady.$PROCESS_INDEX;"
        " echo steady up; wait\n"
        "flaky: echo flaky up; exit 3\n"
    )
    log = tmp_path / "out.log"
    with log.open("wb") as out:
        supervisor = subprocess.Popen(
            [sys.executable, "-m", "shared.supervisor", "-f", str(procfile), "-c", "steady=2",
             "--stop-timeout", "5"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        text = lambda: log.read_text()  # noqa: E731
        wait_until(
            lambda: len(re.findall(r"flaky\.1 +\| flaky up", text())) >= 4, what="four flaky starts"
        )
        # the pauses double: 0.5, 1, 2 s between the starts
        restarts = re.findall(
            r"flaky\.1 exited with code 3 after [\d.]+s; starting it again in ([\d.]+)s", text()
        )
        assert [float(pause) for pause in restarts[:3]] == [0.5, 1.0, 2.0]
        steady = int((pids / "steady.1").read_text())
        child = int((pids / "child.1").read_text())
        assert alive(steady) and (pids / "steady.2").exists()
        assert re.search(r"steady\.1 +\| steady up", text())
        assert re.search(r"steady\.2 +\| steady up", text())

        os.kill(steady, signal.SIGKILL)  # the shell alone: it comes back, new pid
        wait_until(lambda: int((pids / "steady.1").read_text()) != steady, what="steady again")
        assert re.search(r"steady\.1 exited with code -9 after", text())
        wait_until(lambda: not alive(child), timeout=5, what="the dead one's child to go too")
        again = int((pids / "steady.1").read_text())
        assert alive(again)

        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(15) == 0
        for pid in (again, *(int((pids / f"child.{i}").read_text()) for i in (1, 2))):
            wait_until(lambda pid=pid: not alive(pid), timeout=5, what=f"pid {pid} to end")
        assert "stopping steady.1" in text()
    finally:
        if supervisor.poll() is None:
            os.killpg(supervisor.pid, signal.SIGKILL)


def test_the_url_to_open_is_said_last_on_its_own_line_once_the_services_answer(tmp_path: Path):
    """Until the process serving the --ready URL answers, nothing is announced; then the
    announcement comes after the start-up output, unprefixed, between blank lines."""
    port = free_port()
    procfile = tmp_path / "Procfile"
    procfile.write_text(
        "chatty: for i in 1 2 3; do echo starting $i; sleep 0.3; done; sleep 300\n"
        f"web: sleep 1.5; echo web up; exec {sys.executable} -m http.server {port} --bind 127.0.0.1\n"
    )
    log = tmp_path / "out.log"
    announcement = "Open http://127.0.0.1:8080/ now"
    with log.open("wb") as out:
        supervisor = subprocess.Popen(
            [sys.executable, "-m", "shared.supervisor", "-f", str(procfile), "--stop-timeout", "5",
             "--ready", f"http://127.0.0.1:{port}/", "--announce", announcement],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        wait_until(lambda: announcement in log.read_text(), timeout=20, what="the announcement")
        lines = log.read_text().splitlines()
        at = lines.index(announcement)
        assert lines[at - 1] == "" and lines[at + 1] == ""
        before = "\n".join(lines[:at])
        assert "web up" in before and "starting 3" in before  # after the start-up output
    finally:
        supervisor.send_signal(signal.SIGTERM)
        supervisor.wait(15)


def test_make_run_supervises_the_projects_procfile():
    names = [name for name, _ in read_procfile((ROOT / "Procfile").read_text())]
    assert {"redis", "rules", "lobby", "history-consumer", "dispatcher", "worker"} <= set(names)
    makefile = (ROOT / "Makefile").read_text()
    assert "-m shared.supervisor -f Procfile" in makefile and "--announce" in makefile
