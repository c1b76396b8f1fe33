"""The process supervisor of `make run`: every line of a Procfile as a process of its own,
their output prefixed with their name, a process that dies started again, everything
stopped on Ctrl-C or SIGTERM.

One process dying stops nothing else: it is started again after a pause that doubles with
each quick death (``BACKOFF_FIRST`` up to ``BACKOFF_MAX`` seconds) and starts over once it
has stayed up ``STABLE_AFTER`` seconds. Each process runs under ``sh -c`` in a session of
its own, so a stop (SIGTERM, then SIGKILL after ``--stop-timeout``) reaches whatever its
command started too, and when a process dies what is left of its group is killed (a
gunicorn master's orphaned workers would keep its port from the master started again). A Procfile line is ``name: command``; ``-c name=N`` runs N copies of
one (``name.1``, ``name.2``, ...), each with ``PROCESS_NAME`` and ``PROCESS_INDEX`` in its
environment.

    python -m shared.supervisor -f Procfile -c worker=2
    python -m shared.supervisor -f Procfile --ready http://127.0.0.1:8000/readyz \
        --announce "Open http://127.0.0.1:8080/ in a browser"

``--announce`` is said last, on a line of its own without a prefix, once every ``--ready``
URL answers 200 and the processes' start-up output has gone quiet: what a person should do
next is not buried in the start-up log.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
STABLE_AFTER = 10.0
STOP_TIMEOUT = 15.0
POLL_SECONDS = 0.1
QUIET_SECONDS = 1.0  # no output for this long: the start-up log is over
QUIET_LIMIT = 10.0  # a log that never goes quiet does not hold the announcement back longer
READY_TIMEOUT = 300.0  # the announcement gives up on URLs that never answer
COLOURS = (36, 33, 32, 35, 34, 31, 96, 93, 92, 95, 94, 91)
LINE = re.compile(r"^([A-Za-z0-9_-]+):\s*(.+)$")


def read_procfile(text: str) -> list[tuple[str, str]]:
    """``[(name, command)]`` in the file's order; blank lines and ``#`` comments skipped."""
    entries = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        found = LINE.match(line)
        if not found:
            raise ValueError(f"Procfile line {number} is not 'name: command': {raw!r}")
        entries.append((found.group(1), found.group(2)))
    return entries


@dataclass
class Child:
    """One supervised copy of a Procfile line, and its restart bookkeeping."""

    name: str  # web.1
    command: str
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    backoff: float = BACKOFF_FIRST
    due: float = 0.0  # when to start it (again), monotonic
    readers: list[threading.Thread] = field(default_factory=list)


class Supervisor:
    def __init__(
        self,
        entries: Sequence[tuple[str, str]],
        concurrency: dict[str, int] | None = None,
        stop_timeout: float = STOP_TIMEOUT,
        out: IO[str] = sys.stdout,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        concurrency = concurrency or {}
        unknown = set(concurrency) - {name for name, _ in entries}
        if unknown:
            raise ValueError(f"no such process in the Procfile: {', '.join(sorted(unknown))}")
        self.children: list[Child] = []
        for name, command in entries:
            for index in range(1, concurrency.get(name, 1) + 1):
                env = {**os.environ, "PROCESS_NAME": name, "PROCESS_INDEX": str(index)}
                self.children.append(Child(f"{name}.{index}", command, env))
        self.stop_timeout = stop_timeout
        self.out = out
        self.clock = clock
        self.stopping = threading.Event()
        self.width = max(len(name) for name in ["supervisor", *(c.name for c in self.children)])
        self.colour = out.isatty()
        self._write_lock = threading.Lock()
        self.last_output = self.clock()

    # -- output ----------------------------------------------------------------------------
    def say(self, name: str, text: str) -> None:
        """One line, prefixed with the time and the process's name."""
        prefix = f"{time.strftime('%H:%M:%S')} {name.ljust(self.width)} | "
        if self.colour:
            names = [child.name for child in self.children]
            code = COLOURS[names.index(name) % len(COLOURS)] if name in names else 1
            prefix = f"\033[{code}m{prefix}\033[0m"
        with self._write_lock:
            self.out.write(prefix + text + "\n")
            self.out.flush()
            self.last_output = self.clock()

    def announce(self, text: str, ready: Sequence[str], timeout: float = READY_TIMEOUT) -> bool:
        """Say ``text`` on its own lines, unprefixed, once every URL of ``ready`` answers 200
        and the output has been quiet for ``QUIET_SECONDS`` (or has not, for ``QUIET_LIMIT``);
        False if the URLs never answered."""
        deadline = self.clock() + timeout
        waiting = list(ready)
        while waiting:
            if self.stopping.is_set() or self.clock() > deadline:
                return False
            waiting = [url for url in waiting if not _answers(url)]
            self.stopping.wait(POLL_SECONDS * 3)
        noisy_until = self.clock() + QUIET_LIMIT
        while self.clock() - self.last_output < QUIET_SECONDS and self.clock() < noisy_until:
            self.stopping.wait(POLL_SECONDS)
        with self._write_lock:
            self.out.write(f"\n{text}\n\n")
            self.out.flush()
        return True

    def _pump(self, name: str, stream: IO[bytes]) -> None:
        for raw in iter(stream.readline, b""):
            self.say(name, raw.decode(errors="replace").rstrip("\n"))
        stream.close()

    # -- processes -------------------------------------------------------------------------
    def start(self, child: Child) -> None:
        child.process = subprocess.Popen(
            ["/bin/sh", "-c", child.command],
            env=child.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a stop reaches its children
        )
        child.started = self.clock()
        assert child.process.stdout is not None
        reader = threading.Thread(
            target=self._pump, args=(child.name, child.process.stdout), daemon=True
        )
        reader.start()
        child.readers = [reader]
        self.say("supervisor", f"{child.name} started (pid {child.process.pid})")

    def check(self, child: Child) -> None:
        """Start a child that is due; note a death and when to start it again."""
        now = self.clock()
        if child.process is None:
            if now >= child.due:
                self.start(child)
            return
        code = child.process.poll()
        if code is None:
            return
        _signal_group(child, signal.SIGKILL)  # what it started dies with it (a port is free)
        for reader in child.readers:
            reader.join(0.2)  # its last lines before the note of its death
        lived = now - child.started
        if lived >= STABLE_AFTER:
            child.backoff = BACKOFF_FIRST
        child.due = now + child.backoff
        self.say(
            "supervisor",
            f"{child.name} exited with code {code} after {lived:.1f}s; "
            f"starting it again in {child.backoff:.1f}s",
        )
        child.backoff = min(child.backoff * 2, BACKOFF_MAX)
        child.process = None

    def run(self) -> int:
        """Supervise until ``stopping`` is set, then stop every process."""
        try:
            while not self.stopping.is_set():
                for child in self.children:
                    self.check(child)
                self.stopping.wait(POLL_SECONDS)
        finally:
            self.say("supervisor", "stopping everything")
            self.stop_all()
        return 0

    def stop_all(self) -> None:
        """SIGTERM to every process group; SIGKILL to what is left after ``stop_timeout``."""
        running = [c for c in self.children if c.process is not None and c.process.poll() is None]
        for child in running:
            self.say("supervisor", f"stopping {child.name}")
            _signal_group(child, signal.SIGTERM)
        deadline = self.clock() + self.stop_timeout
        for child in running:
            assert child.process is not None
            try:
                child.process.wait(max(deadline - self.clock(), 0.01))
            except subprocess.TimeoutExpired:
                self.say("supervisor", f"{child.name} did not stop in time: SIGKILL")
        for child in running:
            _signal_group(child, signal.SIGKILL)  # whatever is left of the group
            assert child.process is not None
            child.process.wait()
            for reader in child.readers:
                reader.join(1.0)


def _signal_group(child: Child, signum: int) -> None:
    if child.process is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.process.pid, signum)


def _answers(url: str) -> bool:
    """Whether ``url`` answers 200 now."""
    try:
        with urllib.request.urlopen(url, timeout=1) as answer:  # noqa: S310 (our own URLs)
            return bool(answer.status == 200)
    except OSError:  # refused, reset, timed out, or an HTTP error status
        return False


def parse_concurrency(values: Sequence[str]) -> dict[str, int]:
    """``["worker=2", "web=1"]`` -> ``{"worker": 2, "web": 1}``; commas also separate."""
    counts = {}
    for value in (v for item in values for v in item.split(",") if v):
        name, _, count = value.partition("=")
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"concurrency is name=N with N >= 1, not {value!r}")
        counts[name.strip()] = int(count)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.supervisor", description=__doc__)
    parser.add_argument("-f", "--procfile", default="Procfile")
    parser.add_argument("-c", "--concurrency", action="append", default=[], help="name=N")
    parser.add_argument("--stop-timeout", type=float, default=STOP_TIMEOUT)
    parser.add_argument("--ready", action="append", default=[], help="a URL to answer 200 first")
    parser.add_argument("--announce", help="said last, once the --ready URLs answer")
    args = parser.parse_args(argv)
    supervisor = Supervisor(
        read_procfile(Path(args.procfile).read_text()),
        parse_concurrency(args.concurrency),
        args.stop_timeout,
    )

    def stop(signum: int, _frame: FrameType | None) -> None:
        supervisor.stopping.set()  # no output here: the main thread may hold the output lock

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    if args.announce:
        threading.Thread(
            target=supervisor.announce, args=(args.announce, args.ready), daemon=True
        ).start()
    return supervisor.run()


if __name__ == "__main__":
    raise SystemExit(main())
