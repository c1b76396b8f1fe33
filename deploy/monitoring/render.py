"""Write prometheusrule.yaml, the Prometheus Operator's PrometheusRule, from tapete.rules.yml.

The plain rules file is the one source of the alerts: Prometheus reads it as it is (Compose,
any Prometheus), the operator reads the same groups wrapped in a PrometheusRule (the
Kubernetes component in this folder). `make monitoring` runs this after a change to the
rules; tests/test_monitoring.py fails while the two differ.

    python deploy/monitoring/render.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
RULES = HERE / "tapete.rules.yml"
TARGET = HERE / "prometheusrule.yaml"
HEADER = (
    "# Generated from tapete.rules.yml by render.py (`make monitoring`): edit that file, not this.\n"
    "# The Prometheus Operator loads it; label it as your Prometheus' ruleSelector asks\n"
    "# (kube-prometheus-stack: release: <its release name>).\n"
)


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (the longer expressions) as literal blocks, as in the rules file."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def prometheus_rule(rules: dict[str, Any]) -> dict[str, Any]:
    """The rules file's groups as a PrometheusRule object."""
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {"name": "tapete", "labels": {"app.kubernetes.io/name": "tapete-alerts"}},
        "spec": {"groups": rules["groups"]},
    }


def render() -> str:
    rules = yaml.safe_load(RULES.read_text())
    body = yaml.dump(prometheus_rule(rules), Dumper=_Dumper, sort_keys=False, width=200)
    return HEADER + body


def main() -> int:
    TARGET.write_text(render())
    print(f"wrote {TARGET.relative_to(HERE.parent.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
