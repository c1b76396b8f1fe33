"""Sealed states: the rules service signs every state it hands out and accepts only its own.

The state travels through clients of this service (the lobby stores it), and it
holds every hidden card. An HMAC over its canonical JSON lets the service refuse a
forged or altered state with a 400 instead of playing on from it. The key comes
from ``TAPETE_STATE_KEY`` (a Kubernetes Secret in deployments); without it, a
fixed development key is used and a warning is logged. To rotate the key without
breaking running matches, put the old key(s) in ``TAPETE_STATE_KEYS_PREVIOUS``
(comma-separated): states signed with them are still accepted, and every state
the service returns is signed with the new key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
from typing import Any

from shared.engine import InvalidState

DEV_KEY = "tapete-development-key-not-for-production"
SIG = "sig"


def _key() -> bytes:
    key = os.environ.get("TAPETE_STATE_KEY")
    if not key:
        logging.getLogger("tapete.rules").warning(
            "TAPETE_STATE_KEY is not set: using the development key"
        )
        key = DEV_KEY
    return key.encode()


KEY = _key()
PREVIOUS_KEYS = [
    k.strip().encode()
    for k in os.environ.get("TAPETE_STATE_KEYS_PREVIOUS", "").split(",")
    if k.strip()
]


def canonical_json(doc: Any) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _digest(doc: dict, key: bytes | None = None) -> str:
    body = {k: v for k, v in doc.items() if k != SIG}
    return hmac.new(key or KEY, canonical_json(body), hashlib.sha256).hexdigest()


def seal(doc: dict) -> dict:
    """The state document with its signature."""
    return {**doc, SIG: _digest(doc)}


def unseal(doc: Any) -> dict:
    """The state document if its signature is ours; otherwise ``InvalidState`` saying why."""
    if not isinstance(doc, dict):
        raise InvalidState("state must be an object, as returned by setup or apply")
    sig = doc.get(SIG)
    if not isinstance(sig, str):
        raise InvalidState(
            "state has no signature: pass the state exactly as setup or apply returned it"
        )
    if not any(hmac.compare_digest(sig, _digest(doc, key)) for key in [KEY, *PREVIOUS_KEYS]):
        raise InvalidState(
            "state signature does not match: the state was altered or not issued here"
        )
    return {k: v for k, v in doc.items() if k != SIG}
