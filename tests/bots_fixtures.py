"""Pytest plugin: the bot dispatcher and rq workers as REAL processes.

`bot_processes` starts them for one test module (`bot_processes.worker(name)`,
`bot_processes.dispatcher()`), each killable with SIGKILL and pausable with SIGSTOP, on the
session's Redis, lobby and rules service; whatever is left is stopped at the end of the
module. Each worker runs in its own process group, so rq's scheduler (a child process that
a SIGKILL of the worker alone would leave behind) goes with it. Short timings make the
watchdog and the timers quick enough for tests.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_fixtures import RedisStore
from tests.service_fixtures import ROOT, Service

# Lost jobs redone after a second, then every two; stale pending notifications taken over
# after 300 ms.
TEST_BOTS_ENV = {
    "BOTS_RETRY_AFTER_S": "1",
    "BOTS_RETRY_MAX_S": "2",
    "BOTS_SWEEP_EVERY_S": "0.1",
    "BOTS_MIN_IDLE_MS": "300",
    "BOTS_CLAIM_EVERY_S": "0.1",
    "BOTS_MAX_DELIVERIES": "3",
    "BOTS_BLOCK_MS": "100",
    "BOTS_MAINTENANCE_S": "5",
    "LOG_LEVEL": "INFO",
}
STOP_TIMEOUT_SECONDS = 30.0  # a graceful stop, job in hand: within k8s' 60 s grace for workers, with room for a loaded CI (15 s was missed once on the cluster, at 16 s)


class BotProcess:
    """`python -m services.bots.<module>` in a process group of its own."""

    def __init__(self, module: str, name: str, env: dict[str, str]) -> None:
        self.name, self.env = name, env
        self.log_path = Path(tempfile.mkstemp(prefix=f"tapete-{name}-", suffix=".log")[1])
        command = [sys.executable, "-m", f"services.bots.{module}"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )

    def alive(self) -> bool:
        return self.process.poll() is None

    def pause(self) -> None:
        """SIGSTOP: frozen where it is, job in hand included."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL to the process alone: no chance to finish or clean up anything."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def terminate(self) -> int:
        """SIGTERM, as an orchestrator stops it; its exit status."""
        self.process.terminate()
        try:
            return self.process.wait(STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(f"{self.name} still running:\n{self.log_tail(80)}") from exc

    def children(self, timeout: float = 20.0) -> list[int]:
        """The pids of its child processes (a worker's: rq's scheduler), once it has one."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [int(pid) for pid in _children_of(self.process.pid)]
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{self.name} started no child process:\n{self.log_tail()}")

    def stop(self) -> None:
        """Whatever is left of its process group: SIGTERM, then SIGKILL."""
        try:
            os.killpg(self.process.pid, signal.SIGCONT)
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                break
            self.process.poll()
            time.sleep(0.05)
        else:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.poll()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def wait_for_log(self, text: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log_text():
            if not self.alive():
                raise AssertionError(f"{self.name} exited:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} never logged {text!r}:\n{self.log_tail()}")
            time.sleep(0.05)


def _children_of(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:  # it has exited
        return []


class BotProcesses:
    def __init__(self, store: RedisStore, lobby: Service, rules: Service) -> None:
        self.env = {
            **os.environ,
            **TEST_BOTS_ENV,
            **store.env,
            "LOBBY_URL": lobby.url,
            "RULES_URL": rules.url,
        }
        self.started: list[BotProcess] = []

    def dispatcher(self, name: str = "dispatcher", **env: str) -> BotProcess:
        return self._start("dispatcher", name, {"BOTS_DISPATCHER_NAME": name, **env})

    def worker(self, name: str = "worker", **env: str) -> BotProcess:
        return self._start("worker", name, {"BOTS_WORKER_NAME": name, **env})

    def _start(self, module: str, name: str, env: dict[str, str]) -> BotProcess:
        process = BotProcess(module, name, {**self.env, **env})
        self.started.append(process)
        return process

    def stop_all(self) -> None:
        for process in self.started:
            process.stop()
        self.started.clear()


@pytest.fixture(scope="module")
def bot_processes(
    redis_store: RedisStore, lobby_service: Service, rules_service: Service
) -> Iterator[BotProcesses]:
    running = BotProcesses(redis_store, lobby_service, rules_service)
    yield running
    running.stop_all()
