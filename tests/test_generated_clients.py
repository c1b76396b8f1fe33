"""Clients nobody here wrote play a whole match: the specs are good enough to type them.

From the committed ``openapi/lobby.yaml``, openapi-python-client generates a Python client
and openapi-typescript generates TypeScript types used through openapi-fetch (both pinned:
``pyproject.toml``, ``clients/typescript/package-lock.json``). Each hand-written play script
(``clients/python/play_brisca.py``, ``clients/typescript/src/play-brisca.ts``) type-checks
strictly against what was generated (``mypy --strict``, ``tsc --strict``) and plays Brisca
against a bot through the running platform: gunicorn rules and lobby, the bot dispatcher and
an rq worker on a real Redis; then reads the entries' sentences from the long-poll and the
stream, and a Raj and a Truco view's own fields, all as the spec types them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from tests.bots_fixtures import BotProcesses
from tests.service_fixtures import Service

ROOT = Path(__file__).resolve().parent.parent
LOBBY_SPEC = ROOT / "openapi" / "lobby.yaml"
PYTHON_CLIENT = ROOT / "clients" / "python"
TS_CLIENT = ROOT / "clients" / "typescript"
BIN = Path(sys.executable).parent
PLAY_TIMEOUT = 120


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 300):
    """Run a step; on failure, fail the test with its output."""
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def platform(lobby_service: Service, bot_processes: BotProcesses) -> Service:
    """The lobby with a bot dispatcher and a worker answering the bots' turns."""
    bot_processes.dispatcher().wait_for_log("dispatching")
    bot_processes.worker("clients-worker").wait_for_log("working on")
    return lobby_service


def finished(lobby: Service, output: str) -> dict:
    """The match the script reports finished, as the lobby answers it, checked,
    after what it read with the spec's types: the entries' Spanish sentences (the long-poll's
    and the stream's alike), a Raj view's prize and a Truco view's pending call, with facts."""
    read = output.strip().splitlines()
    assert "sentences, the first: Nueva partida de brisca (base) para 2 jugadores" in read[-4]
    # the facts name the player by name: the script registers as "python/typescript client"
    assert read[-3].startswith("raj: prize ") and " client: 0 points" in read[-3], read[-3]
    assert read[-2].startswith("truco: pending call ") and " client: 0 of 30" in read[-2]
    line = read[-1]
    assert line.startswith("match ") and " finished: " in line, output
    match_id = line.split()[1]
    token = requests.post(f"{lobby.url}/v1/players", json={"name": "checker"}, timeout=5).json()
    match = requests.get(
        f"{lobby.url}/v1/matches/{match_id}",
        headers={"Authorization": f"Bearer {token['token']}"},
        timeout=5,
    ).json()
    assert match["status"] == "finished" and match["game"] == "brisca", match
    assert [seat["bot"] for seat in match["seats"]] == [None, "greedy"]
    return match


def test_python_client_generated_by_openapi_python_client_plays_brisca(
    platform: Service, tmp_path: Path
) -> None:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(LOBBY_SPEC),
         "--meta", "none", "--output-path", str(tmp_path / "tapete_lobby")],
        cwd=tmp_path, env=env,
    )  # fmt: skip
    script = PYTHON_CLIENT / "play_brisca.py"
    typed = {**env, "MYPYPATH": str(tmp_path)}
    strict = ["--config-file", str(PYTHON_CLIENT / "mypy.ini")]  # strict; see its comment
    run([str(BIN / "mypy"), *strict, str(script)], cwd=tmp_path, env=typed, timeout=900)
    played = run(
        [sys.executable, str(script), platform.url],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(tmp_path)},
        timeout=PLAY_TIMEOUT,
    )
    match = finished(platform, played.stdout)
    assert len(match["seats"][0]["seed"]) == 32  # its player's own seed: secrets.token_hex(16)


@pytest.mark.skipif(shutil.which("npm") is None, reason="Node.js and npm are not installed")
def test_typescript_client_generated_by_openapi_typescript_plays_brisca(platform: Service) -> None:
    run(["npm", "ci", "--no-audit", "--no-fund"], cwd=TS_CLIENT)
    run(["npm", "run", "generate"], cwd=TS_CLIENT)
    run(["npm", "run", "build"], cwd=TS_CLIENT)  # tsc, strict
    played = run(["npm", "run", "--silent", "play", "--", platform.url], cwd=TS_CLIENT,
                 timeout=PLAY_TIMEOUT)  # fmt: skip
    match = finished(platform, played.stdout)
    assert len(match["seats"][0]["seed"]) == 32  # its player's own seed: randomBytes(16), hex
