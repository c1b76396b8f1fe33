"""Liveness and readiness of the processes that serve no HTTP (the history consumer, the bot
dispatcher, the bot workers): two files in a folder that the process touches, and a check
an exec probe runs.

* ``alive``: touched every time the process's loop turns, waiting out a Redis outage
  included. Old: the loop is stuck (a call that never returns, a deadlock), and a restart
  is the cure, so the liveness probe checks it.
* ``ready``: touched when a Redis call has just succeeded. Old: Redis is unreachable from
  here; restarting would not help, so only the readiness probe checks it.

Touching is throttled to once per ``EVERY`` seconds, whatever the loop's pace.

    python -m shared.heartbeat /tmp/health/alive 60   # exit 0 if touched in the last 60 s
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

EVERY = 1.0
ALIVE = "alive"
READY = "ready"


class Heartbeat:
    """The files of one process; with no folder, nothing is written (``make run``, tests)."""

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = Path(folder) if folder else None
        self._last: dict[str, float] = {}
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)

    def alive(self) -> None:
        """The loop has turned."""
        self._touch(ALIVE)

    def ready(self) -> None:
        """Redis has answered (and so the loop has turned)."""
        self._touch(ALIVE)
        self._touch(READY)

    def _touch(self, name: str) -> None:
        if self.folder is None:
            return
        now = time.monotonic()
        if now - self._last.get(name, float("-inf")) < EVERY:
            return
        self._last[name] = now
        (self.folder / name).touch()


def age(path: str | Path) -> float:
    """Seconds since ``path`` was touched; infinite if it does not exist."""
    try:
        return time.time() - Path(path).stat().st_mtime
    except FileNotFoundError:
        return float("inf")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m shared.heartbeat FILE MAX_AGE_SECONDS", file=sys.stderr)
        return 2
    path, max_age = argv[0], float(argv[1])
    seconds = age(path)
    if seconds > max_age:
        print(f"{path}: last touched {seconds:.0f}s ago (limit {max_age:.0f}s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
