"""Sealed states: the rules service signs every state it hands out and accepts only its own.

The state travels through clients of this service (the lobby stores it), and it
holds every hidden card. An HMAC over its canonical JSON lets the service refuse a
forged or altered state with a 400 instead of playing on from it. The rules app sets
the key at its creation (``use_keys``) from ``TAPETE_STATE_KEY`` (a Kubernetes Secret
in deployments), which ``Settings.with_secrets`` checked: without a usable one the service
does not start, unless in development mode (``TAPETE_DEV=1``: ``make run``, the tests),
where the development key, known to anyone who reads the source, is used with a warning.
To rotate the key without breaking running matches, put the old key(s) in
``TAPETE_STATE_KEYS_PREVIOUS`` (comma-separated): states signed with them are still
accepted, and every state the service returns is signed with the new key.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any

from services.settings import DEV_STATE_KEY
from shared.engine import InvalidState
from shared.jsoncodec import canonical

SIG = "sig"


KEY = DEV_STATE_KEY.encode()  # what this process seals with (the rules app's use_keys sets it)
PREVIOUS_KEYS: list[bytes] = []  # also accepted, during a rotation


def use_keys(key: str, previous: Sequence[str] = ()) -> None:
    """Seal with ``key`` and also accept states sealed with one of ``previous``."""
    global KEY, PREVIOUS_KEYS
    if not key:
        raise ValueError("a state key is needed (Settings.with_secrets gives one)")
    KEY = key.encode()
    PREVIOUS_KEYS = [k.encode() for k in previous]


def seal(doc: dict) -> dict:
    """The state document with its signature."""
    return seal_and_hash(doc)[0]


def seal_and_hash(doc: dict) -> tuple[dict, str]:
    """The sealed document and its state hash (``shared.eventstore.state_hash`` of ``doc``),
    both from one canonical encoding: the lobby records the hash in the match log."""
    state = {k: v for k, v in doc.items() if k != SIG}
    body = canonical(state)
    sig = hmac.new(KEY, body, hashlib.sha256).hexdigest()
    return {**state, SIG: sig}, hashlib.sha256(body).hexdigest()


def unseal(doc: Any) -> dict:
    """The state document if its signature is ours; otherwise ``InvalidState`` saying why."""
    if not isinstance(doc, dict):
        raise InvalidState("state must be an object, as returned by setup or apply")
    sig = doc.get(SIG)
    if not isinstance(sig, str):
        raise InvalidState(
            "state has no signature: pass the state exactly as setup or apply returned it"
        )
    state = {k: v for k, v in doc.items() if k != SIG}
    body = canonical(state)
    for key in [KEY, *PREVIOUS_KEYS]:
        if hmac.compare_digest(sig, hmac.new(key, body, hashlib.sha256).hexdigest()):
            return state
    raise InvalidState("state signature does not match: the state was altered or not issued here")
