"""The Procfile's Redis (`python -m shared.redis_server`): it outlives its clients on a stop."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis

from shared.redis_server import free_port
from tests.service_fixtures import ROOT


def wait_for_ping(client: redis.Redis, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if client.ping():
                return
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.05)


def port_is_free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def test_a_stopped_server_serves_its_connected_clients_a_moment_then_stops(tmp_path: Path):
    port = free_port()
    command = [sys.executable, "-m", "shared.redis_server", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--data", str(tmp_path)],
        cwd=ROOT,
        start_new_session=True,  # as the supervisor starts each process, and stops it with killpg
        stdout=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port, socket_timeout=2)
    try:
        wait_for_ping(client)
        client.set("kept", "yes")
        os.killpg(server.pid, signal.SIGTERM)  # what `make run` sends every process on Ctrl-C
        time.sleep(0.5)
        assert client.get("kept") == b"yes"  # a client still connected is still served
        client.close()
        assert server.wait(timeout=5) == 0
        assert port_is_free(port)  # the server process went with it
    finally:
        client.close()
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
