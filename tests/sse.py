"""A small Server-Sent Events client for the tests and the feed bench's checks."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import requests


@dataclass
class Message:
    event: str
    id: str | None
    data: str

    @property
    def entry(self) -> dict[str, Any]:
        return json.loads(self.data)


class Stream:
    """One open stream; ``messages()`` yields events (comments and the retry hint are skipped)."""

    def __init__(
        self, url: str, token: str | None = None, last_id: int | None = None, timeout: float = 30
    ) -> None:
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        self.session = client = requests.Session()
        client.trust_env = False
        self.response = client.get(url, headers=headers, stream=True, timeout=(5, timeout))
        self.status = self.response.status_code
        self.heartbeats = 0
        self.retry: int | None = None
        self._messages = self._parse()

    def error(self) -> dict[str, Any]:
        return self.response.json()

    def messages(self) -> Iterator[Message]:
        """The stream's events, one iterator for the stream's whole life."""
        return self._messages

    def _parse(self) -> Iterator[Message]:
        event, ident, data = "message", None, []
        for line in self.response.iter_lines(decode_unicode=True):
            if line == "":
                if data:
                    yield Message(event, ident, "\n".join(data))
                event, ident, data = "message", None, []
            elif line.startswith(":"):
                self.heartbeats += 1
            else:
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "event":
                    event = value
                elif name == "id":
                    ident = value
                elif name == "data":
                    data.append(value)
                elif name == "retry":
                    self.retry = int(value)

    def entries_until(self, version: int) -> list[dict[str, Any]]:
        """Entries up to ``version`` (inclusive); fails if the stream ends before."""
        got: list[dict[str, Any]] = []
        for message in self.messages():
            if message.event == "entry":
                got.append(message.entry)
                if got[-1]["version"] >= version:
                    return got
        raise AssertionError(f"the stream ended after {[e['version'] for e in got]}")

    def close(self) -> None:
        """Close the stream and its connection (a server that is stopping waits for it)."""
        self.response.close()
        self.session.close()
