"""What stands in front of the services: Debian's nginx with the project's proxy configuration
(deploy/nginx/tapete.conf.template), for tests/test_proxy.py and bench/slow_clients.py, and
the gateway of `make run` (services/gateway.py) as its own process; slow clients for both.

nginx is installed where missing (`apt-get install -y nginx`); without apt the caller is
skipped with the reason, except where TAPETE_REQUIRE_NGINX or CI is set (CI): there it fails.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from string import Template

import pytest

from shared.redis_server import free_port
from tests.apt import apt_install
from tests.service_fixtures import ROOT, stop_process

TEMPLATE = ROOT / "deploy" / "nginx" / "tapete.conf.template"


def nginx_binary() -> str:
    """nginx's path, installed with apt if missing; skip (or fail on CI) if it cannot be."""

    def found() -> str | None:
        return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")

    reason = "nginx is not installed and apt-get could not install it"
    try:
        apt_install(["nginx"], lambda: found() is not None)
    except (subprocess.SubprocessError, OSError) as exc:
        reason += f": {exc}"
    path = found()
    if path:
        return path
    if os.environ.get("TAPETE_REQUIRE_NGINX") or os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def render(upstreams: dict[str, str]) -> str:
    """The template with its ${NAME}s filled in; nginx's own $variables stay as they are."""
    text = Template(TEMPLATE.read_text(encoding="utf-8")).safe_substitute(upstreams)
    missing = re.findall(r"\$\{([A-Z_]+)\}", text)
    assert not missing, f"template variables left unset: {missing}"
    return text


class Proxy:
    """nginx in the foreground on a free port, with a minimal main file around our site file."""

    def __init__(self, binary: str, upstreams: dict[str, str]) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tapete-nginx-"))
        self.dir.chmod(0o777)  # the workers run as nobody when the master is root
        (self.dir / "tapete.conf").write_text(render({**upstreams, "PROXY_PORT": str(self.port)}))
        temp = " ".join(
            f"{kind}_temp_path {self.dir / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.dir / "nginx.conf").write_text(
            f"worker_processes 1;\npid {self.dir / 'nginx.pid'};\n"
            f"error_log {self.dir / 'error.log'} warn;\n"
            "events { worker_connections 4096; }\n"
            f"http {{ access_log off; {temp} include {self.dir / 'tapete.conf'}; }}\n"
        )
        command = [binary, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")]
        command += ["-e", str(self.dir / "error.log"), "-g", "daemon off;"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"nginx did not start: {self.log()}") from None
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        path = self.dir / "error.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else "(no log)"

    def stop(self) -> None:
        stop_process(self.process, timeout=5)
        shutil.rmtree(self.dir, ignore_errors=True)


class GatewayProcess:
    """``python -m services.gateway`` on a free port in front of ``upstreams`` (name: URL),
    serving ``static`` (default: web/dist); ``stop`` ends it."""

    def __init__(self, upstreams: dict[str, str], static: Path | None = None, **env: str) -> None:
        self.port = free_port()
        env = {**os.environ, **{f"{k.upper()}_URL": v for k, v in upstreams.items()}, **env}
        command = [sys.executable, "-m", "services.gateway", "--port", str(self.port)]
        command += ["--static", str(static)] if static else []
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # its imports take seconds on a busy machine
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                assert self.process.poll() is None, "the gateway exited at start"
                assert time.monotonic() < deadline, "the gateway did not start"
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        stop_process(self.process, timeout=5)


class SlowClients:
    """``count`` connections to ``port`` that each send part of a request's headers, then one
    more byte a second (a thread drips them), never the end of the headers; ``close`` ends them."""

    def __init__(self, port: int, count: int) -> None:
        self.sockets = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.send(b"POST /v1/matches HTTP/1.1\r\nHost: tapete\r\nX-Slow: ")
            self.sockets.append(sock)
        self._stop = threading.Event()
        self._dripper = threading.Thread(target=self._drip, daemon=True)
        self._dripper.start()

    def _drip(self) -> None:
        while not self._stop.wait(1.0):
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.send(b"x")

    def still_open(self) -> int:
        """How many the server has not closed."""
        return sum(1 for sock in self.sockets if still_open(sock))

    def close(self) -> None:
        self._stop.set()
        self._dripper.join()
        for sock in self.sockets:
            sock.close()


def still_open(sock: socket.socket) -> bool:
    """True while the peer has not closed the connection (nothing to read, no EOF)."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)
