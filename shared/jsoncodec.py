"""JSON in one place: orjson, and the canonical form that state seals and state hashes share.

orjson encodes and decodes several times faster than the standard library, which matters
because a move carries the whole match state through two services and Redis. It is also
stricter on input: NaN, Infinity, lone surrogates and nesting deeper than 1024 levels are
refused with a ``ValueError``, as a client's malformed body should be. On output, NaN and
infinities become ``null`` as in JavaScript's ``JSON.stringify``; no input can carry them
and the engine's arithmetic never makes them.

The canonical form is compact UTF-8 with sorted keys. For the ASCII-only documents the
engine produces it is byte for byte what ``json.dumps(sort_keys=True, separators=(",", ":"))``
wrote before, so seals and state hashes stored by earlier versions still check
(tests/test_all_games.py holds every game to that).
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

JSONDecodeError = orjson.JSONDecodeError  # a ValueError


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON; ``TypeError`` for what JSON cannot hold (e.g. ints over 64 bits).
    Number keys become strings, as the standard library writes them."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def dumps_text(value: Any) -> str:
    return dumps(value).decode()


def loads(data: str | bytes | bytearray | memoryview) -> Any:
    return orjson.loads(data)


def canonical(value: Any) -> bytes:
    """The one byte form of a document, for signing and hashing it."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def state_hash(state: dict[str, Any]) -> str:
    """SHA-256 hex of the canonical JSON, so any replay can check it reached the same state."""
    return hashlib.sha256(canonical(state)).hexdigest()
