"""Pytest plugin: the rules service and the lobby as REAL gunicorn processes on free ports.

Session fixtures, started once: `rules_service`, and `lobby_service` on the session's Redis
(`redis_url`) and that rules service. `Service.restart()` stops and starts one again on the
same port, as a deployment would. Each process logs to a file shown when it fails to start.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from shared.redis_server import free_port

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "services" / "gunicorn_conf.py"
START_TIMEOUT_SECONDS = 30.0
STOP_TIMEOUT_SECONDS = 15.0
TEST_STATE_KEY = "tapete-test-state-key"


class Service:
    """One gunicorn master with its workers, serving `app` on 127.0.0.1:`port`."""

    def __init__(self, name: str, app: str, env: dict[str, str]) -> None:
        self.name, self.app = name, app
        self.port = free_port()
        self.env = {**os.environ, "GUNICORN_WORKERS": "2", "GUNICORN_THREADS": "16", **env}
        self.log_path = Path(tempfile.mkstemp(prefix=f"tapete-{name}-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start and return once /readyz answers 200."""
        command = [sys.executable, "-m", "gunicorn", "--config", str(GUNICORN_CONF)]
        command += ["--bind", f"127.0.0.1:{self.port}", self.app]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start:\n{self.log_tail()}")
            try:
                if requests.get(f"{self.url}/readyz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{self.name} not ready in time:\n{self.log_tail()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM: gunicorn finishes the requests in flight, then exits."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture(scope="session")
def rules_service() -> Iterator[Service]:
    service = Service("rules", "services.rules.wsgi:app", {"TAPETE_STATE_KEY": TEST_STATE_KEY})
    service.start()
    yield service
    service.stop()


@pytest.fixture(scope="session")
def lobby_service(redis_url: str, rules_service: Service) -> Iterator[Service]:
    env = {"REDIS_URL": redis_url, "RULES_URL": rules_service.url}
    service = Service("lobby", "services.lobby.wsgi:app", env)
    service.start()
    yield service
    service.stop()
