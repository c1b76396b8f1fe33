"""The history service's verification of a finished match: ``shared.verify``'s, counted.

The verification itself is a pure function of the log, shared with the offline verifier
(``python -m shared.verify``); this module adds the service's metric of its outcomes.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import Counter

from shared.verify import engine_state_hash, verify

__all__ = ["VERIFIED", "counted", "engine_state_hash", "verify"]

# Verifications made by the history service (its /verify, and each archived match's report).
VERIFIED = Counter(
    "tapete_history_verify_total", "finished matches verified, by outcome (ok, failed)", ["outcome"]
)
for _outcome in ("ok", "failed"):  # both exist from the start: a first failure is an increase
    VERIFIED.labels(_outcome)


def counted(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` (``verify``'s), counted in ``VERIFIED`` by its outcome."""
    VERIFIED.labels("ok" if report["ok"] else "failed").inc()
    return report
