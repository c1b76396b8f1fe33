"""Instructions a command executes, counted by valgrind's callgrind: figures that a machine
busy with other work does not skew, for comparing two versions of the code (the
``*_instructions.py`` benchmarks). Needs valgrind."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping, Sequence


def instructions(command: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[int, str]:
    """The instructions ``command`` (a program and its arguments) executed, its children
    left out, and what it printed."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return int(re.findall(r"Collected : (\d+)", run.stderr)[-1]), run.stdout
