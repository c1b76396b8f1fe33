"""Write each service's generated OpenAPI spec to openapi/<service>.yaml (``make openapi``).

A test compares these committed files with what the code generates, so the
published contract cannot drift from the code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import yaml
from flask import Flask

OPENAPI_DIR = Path(__file__).resolve().parent.parent / "openapi"


def app_factories() -> dict[str, Callable[[], Flask]]:
    from services.history.app import create_history_app
    from services.lobby.app import create_lobby_app
    from services.rules.app import create_rules_app

    factories: dict[str, Callable[[], Flask]] = {
        "rules": create_rules_app,
        "lobby": create_lobby_app,
        "history": create_history_app,
    }
    return factories


def generated_spec(service: str) -> str:
    app = app_factories()[service]()
    with app.app_context():
        spec = app.extensions["tapete_api"].spec.to_dict()
    return yaml.safe_dump(spec, sort_keys=True, allow_unicode=True)


def main() -> int:
    OPENAPI_DIR.mkdir(exist_ok=True)
    for service in app_factories():
        path = OPENAPI_DIR / f"{service}.yaml"
        path.write_text(generated_spec(service), encoding="utf-8")
        print(f"wrote {path.relative_to(OPENAPI_DIR.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
