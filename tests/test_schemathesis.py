"""Schemathesis checks each live service against its committed spec.

It generates requests from ``openapi/<service>.yaml`` (valid and invalid ones, a bounded
number per operation) and checks every answer: no 5xx, only documented statuses and
content types, bodies matching their schemas, invalid input refused and valid input
accepted. The lobby runs with a real player's bearer token. Its SSE stream is left out:
it never ends, so it has no body to check (tests/test_feed_live.py tests it).

The specs say what each service takes as far as JSON Schema can: a join's body is optional
(no body: any free seat), a player's name is printable (a pattern), a rules state carries
the service's seal (``sig``), the stream's events are ``StreamEvent``s. One check is still
left out, positive_data_acceptance ("a request valid by the schema is accepted"), since
what makes a request valid remains partly beyond a schema, and schemathesis's valid-looking
requests are rightly refused there with a 400 and a reason:

* only the rules service can make a seal: a state with a made-up ``sig`` is refused;
* a variant and an option belong to their game (in the path or the body's ``game``), which a
  schema for all games at once cannot tie together;
* JSON Schema counts ``557.0`` an integer, and the services refuse a number with a fraction
  where an integer belongs (their types are strict, as the engine's are);
* a name's pattern lists the characters refused in the Basic Multilingual Plane only (every
  regex dialect reads it alike): an unassigned character, or a format or private-use one
  beyond that plane, is refused though the pattern admits it.

Every other check runs, negative_data_rejection ("invalid input is refused") included.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import requests

from services.openapi_dump import OPENAPI_DIR
from tests.service_fixtures import Service

BIN = Path(sys.executable).parent
EXAMPLES = 8  # per operation and phase: enough to find what the specs get wrong, in seconds
MAX_SECONDS = 25  # per service: the three runs fit the suite's time budget


def schemathesis(spec: str, service: Service, workdir: Path, *options: str) -> None:
    command = [
        str(BIN / "schemathesis"), "run", str(OPENAPI_DIR / f"{spec}.yaml"),
        "--url", service.url, "--max-examples", str(EXAMPLES), "--max-time", str(MAX_SECONDS),
        "--phases", "examples,coverage,fuzzing", "--seed", "1", "--no-shrink",
        "--generation-database", "none", "--request-timeout", "30", "--continue-on-failure",
        "--warnings", "off", "--exclude-checks", "positive_data_acceptance", *options,
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=workdir, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, f"{done.stdout[-8000:]}\n{done.stderr[-2000:]}"


def test_rules_service_conforms_to_its_spec(rules_service: Service, tmp_path: Path) -> None:
    schemathesis("rules", rules_service, tmp_path)


def test_history_service_conforms_to_its_spec(history_service: Service, tmp_path: Path) -> None:
    schemathesis("history", history_service, tmp_path)


def test_lobby_conforms_to_its_spec(lobby_service: Service, tmp_path: Path) -> None:
    player = requests.post(f"{lobby_service.url}/v1/players", json={"name": "st"}, timeout=10)
    token = player.json()["token"]
    schemathesis(
        "lobby",
        lobby_service,
        tmp_path,
        "--header", f"Authorization: Bearer {token}",
        "--exclude-operation-id", "streamMatch",
    )  # fmt: skip
