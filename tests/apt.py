"""Debian packages the tests need (nginx, Chromium), installed once even when several test
processes ask at the same time (`make test` runs them under pytest-xdist): apt holds a lock
of its own and refuses a second install, so the processes take turns on a file lock first."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from collections.abc import Callable

LOCK = "/tmp/tapete-apt.lock"


def apt_install(packages: list[str], installed: Callable[[], bool], timeout: int = 600) -> None:
    """Install `packages` unless `installed()` already holds; retried once after an
    `apt-get update` (a fresh machine's package lists may be stale or empty). Raises
    OSError or subprocess.SubprocessError when apt is missing or fails."""
    if installed():
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        raise OSError("needs apt-get and root")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "RUNLEVEL": "1"}
    command = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if installed():  # another test process installed them while this one waited
            return
        if subprocess.run(command, env=env, capture_output=True, timeout=timeout).returncode:
            subprocess.run(["apt-get", "update", "-q"], env=env, check=True, capture_output=True,
                           timeout=timeout)  # fmt: skip
            subprocess.run(command, env=env, check=True, capture_output=True, timeout=timeout)
