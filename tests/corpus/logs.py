"""A recorded corpus match as the lobby would have logged it, for the verifiers' tests."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from shared.engine import apply, new_match
from shared.verify import engine_state_hash


def log_of(doc: dict[str, Any], **setup: Any) -> list[dict[str, Any]]:
    """A recorded corpus match as the lobby would have logged it (under seed scheme 1, its
    seed the server's), with ``setup`` added to its match.started setup (nothing: a log from
    before rules versions were recorded)."""
    seed = doc["seed"]
    digest = hashlib.sha256(seed.encode()).hexdigest()
    match = {"game": doc["game"], "variant": doc["variant"], "players": doc["players"]}
    entries: list[dict[str, Any]] = [{"version": 1, "kind": "match.created", "match": match}]
    played = doc.get("rules_version", 1)  # what made the recording, whatever ``setup`` claims
    state, _ = new_match(doc["game"], doc["variant"], doc["players"], seed, rules_version=played)
    entries.append(
        {
            "version": 2,
            "kind": "match.started",
            "setup": {**match, "options": {}, **setup},
            "seed_sha256": digest,
            "events": [{"type": "match_started", "seed_sha256": digest}, *doc["setup_events"]],
            "state_hash": engine_state_hash(state),
        }
    )
    for number, step in enumerate(doc["steps"], start=3):
        apply(state, step["seat"], step["action"])  # the result to record at the end
        entry = {"version": number, "kind": "action", "actor": {"seat": step["seat"]}}
        entry.update(action=step["action"], events=step["events"], state_hash=step["hash"])
        entries.append(entry)
    entries[-1].update(finished=True, seed=seed, result=json.loads(json.dumps(state.result)))
    return entries
