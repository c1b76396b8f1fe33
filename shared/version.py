"""The version of the code that made something: the installed ``tapete`` package's, named in
the log beside what the rules (``rules_version``) and the bots (``strategy_version``) did."""

from __future__ import annotations

from importlib import metadata


def _package_version() -> str:
    try:
        return metadata.version("tapete")
    except metadata.PackageNotFoundError:
        return "unknown"


TAPETE_VERSION = _package_version()
