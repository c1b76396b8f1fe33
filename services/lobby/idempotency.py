"""An action sent with an ``action_id``: a retry gets the first answer and writes nothing.

Three things travel together, as one ``Idempotent`` value: the key the answer is kept under
(the player's id and the action id, so one player's id never returns another's answer),
the action's fingerprint (so the same id sent with another action is refused, not answered
as a retry), and the answer itself, stored by the append that made the move.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from services.errors import Conflict
from shared.jsoncodec import state_hash

from .players import Player


def action_fingerprint(action: dict[str, Any]) -> str:
    """What an action id was used for: a retry sends the same action, another request not."""
    return state_hash(action)


class Duplicate(Exception):
    """The action id was already answered: the first answer, nothing written."""

    def __init__(self, answer: dict[str, Any], fingerprint: str | None) -> None:
        super().__init__("duplicate action id")
        self.answer, self.fingerprint = answer, fingerprint


@dataclass(frozen=True)
class Idempotent:
    """An action's id as the match log keeps it (``key``), its ``fingerprint``, and the
    ``answer`` its append stores (None until the move is decided)."""

    key: str
    fingerprint: str
    answer: dict[str, Any] | None = None

    @classmethod
    def of(
        cls, player: Player | None, action_id: str | None, action: dict[str, Any]
    ) -> Idempotent | None:
        """The action's idempotency, if it came with an id (None: the system acting)."""
        if not action_id:
            return None
        return cls(f"{player.id if player else 'system'}:{action_id}", action_fingerprint(action))

    def answering(self, answer: dict[str, Any]) -> Idempotent:
        return replace(self, answer=answer)

    def stored(self) -> tuple[str, dict[str, Any] | None, str]:
        """What the append stores: key, answer and fingerprint."""
        return self.key, self.answer, self.fingerprint

    def recorded(self, raw: str | bytes | None) -> dict[str, Any] | None:
        """The first answer of a retry from its stored record (the match log's ``actions``
        hash: ``{"answer", "fingerprint"}``), or None if this id was never answered."""
        if not raw:
            return None
        record = json.loads(raw)
        return self.first_answer(record["answer"], record.get("fingerprint"))

    def first_answer(self, answer: Any, fingerprint: str | None) -> dict[str, Any]:
        """The stored answer of a retry; 409 when the id was first used for another action
        (answers stored before fingerprints were kept have none, and count as the same)."""
        if fingerprint is not None and fingerprint != self.fingerprint:
            raise Conflict(
                "this action_id was already used for another action; use a new id for a new action",
                code="action_id_reused",
            )
        return answer

    def replayed(self, duplicate: Duplicate) -> dict[str, Any]:
        """The answer of an append found to be a retry (``Duplicate``)."""
        return self.first_answer(duplicate.answer, duplicate.fingerprint)
