"""Cold storage for finished matches: immutable, compressed, content-addressed documents.

A document is stored as gzip of its bytes under the SHA-256 of those bytes, so the same
document is stored once, a stored one never changes, and a reader checks what it got.
Two backends behind one small interface:

* ``DirectoryStore``: files ``<root>/<first 2 hex>/<sha256>.gz`` (the default; any mounted
  volume or shared filesystem), written to a temporary name and renamed into place;
* ``S3Store``: objects ``<prefix><sha256>.gz`` in a bucket of any S3-compatible store,
  through boto3 (installed with the ``s3`` extra).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol


class ColdStore(Protocol):
    def put(self, data: bytes) -> str:
        """Store ``data``; its address (the SHA-256 hex of ``data``)."""
        ...

    def get(self, address: str) -> bytes:
        """The bytes stored at ``address``; KeyError if none, ValueError if they are altered."""
        ...


class CorruptDocument(ValueError):
    """What came back is not what was stored under that address."""


def address_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _checked(address: str, packed: bytes) -> bytes:
    data = gzip.decompress(packed)
    if address_of(data) != address:
        raise CorruptDocument(f"cold document {address} does not match its address")
    return data


def _check_address(address: str) -> None:
    if len(address) != 64 or any(c not in "0123456789abcdef" for c in address):
        raise KeyError(address)


class DirectoryStore:
    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def path(self, address: str) -> Path:
        _check_address(address)
        return self.root / address[:2] / f"{address}.gz"

    def put(self, data: bytes) -> str:
        address = address_of(data)
        path = self.path(address)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".incoming-")
            with os.fdopen(fd, "wb") as out:
                out.write(gzip.compress(data, mtime=0))
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)  # atomic: a reader sees all of it or nothing
        return address

    def get(self, address: str) -> bytes:
        try:
            packed = self.path(address).read_bytes()
        except FileNotFoundError:
            raise KeyError(address) from None
        return _checked(address, packed)


class S3Store:
    """A bucket of an S3-compatible store; ``endpoint_url`` None means AWS itself. Credentials
    come the usual boto3 way (environment, instance role...)."""

    def __init__(
        self, bucket: str, prefix: str = "", endpoint_url: str | None = None, client: Any = None
    ) -> None:
        if client is None:
            import boto3  # only where this backend is configured

            client = boto3.client("s3", endpoint_url=endpoint_url)
        self.client = client
        self.bucket = bucket
        self.prefix = prefix

    def key(self, address: str) -> str:
        _check_address(address)
        return f"{self.prefix}{address}.gz"

    def put(self, data: bytes) -> str:
        address = address_of(data)
        self.client.put_object(
            Bucket=self.bucket,
            Key=self.key(address),
            Body=gzip.compress(data, mtime=0),
            ContentType="application/gzip",
        )
        return address

    def get(self, address: str) -> bytes:
        try:
            reply = self.client.get_object(Bucket=self.bucket, Key=self.key(address))
        except self.client.exceptions.NoSuchKey:
            raise KeyError(address) from None
        return _checked(address, reply["Body"].read())
