"""How a match's deal seed is made from the server's seed and the seated players' seeds.

Two schemes, both replayable for ever (docs/match-log.md, "Seeds"):

* scheme 1 — the server's seed alone: the deal seed is the server's seed;
* scheme 2 — the server's seed combined with every seat's own seed: the deal seed is the
  SHA-256 (hex) of the compact JSON array ``["tapete-seed/2", server_seed, [seed_0, ...,
  seed_n-1]]``, a seat that gave no seed (a bot, or a person whose client sent none) being
  ``null`` there.

The server commits to ``sha256(server_seed)`` when the match is created, before any player
seed exists, and reveals the seed when the match ends; a seat's seed is public from its join.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence

SERVER_ONLY, COMBINED = 1, 2
SCHEMES = (SERVER_ONLY, COMBINED)
SCHEME_TAG = "tapete-seed/2"

# A player's seed: what any client can make and any language can hash the same way.
PLAYER_SEED = re.compile(r"[A-Za-z0-9._~-]{1,128}")
PLAYER_SEED_RULE = "1 to 128 characters: letters, digits, '.', '_', '~', '-'"


def commitment(server_seed: str) -> str:
    """What the server publishes before anyone else's seed is known: SHA-256 (hex)."""
    return hashlib.sha256(server_seed.encode()).hexdigest()


def is_player_seed(value: object) -> bool:
    return isinstance(value, str) and PLAYER_SEED.fullmatch(value) is not None


def scheme_for(player_seeds: Sequence[str | None]) -> int:
    """The scheme a match starts under: combined when some seat gave a seed; with none, the
    combination would add nothing, and the server's seed deals as it always did."""
    return COMBINED if any(seed is not None for seed in player_seeds) else SERVER_ONLY


def deal_seed(scheme: int, server_seed: str, player_seeds: Sequence[str | None] = ()) -> str:
    """The seed the rules deal and draw every chance from, under ``scheme``."""
    if scheme == SERVER_ONLY:
        return server_seed
    if scheme != COMBINED:
        raise ValueError(f"unknown seed scheme {scheme!r}; schemes: {list(SCHEMES)}")
    if not all(seed is None or is_player_seed(seed) for seed in player_seeds):
        raise ValueError(f"a player's seed must be {PLAYER_SEED_RULE}")
    document = [SCHEME_TAG, server_seed, list(player_seeds)]
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()
