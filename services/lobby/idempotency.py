"""An action sent with an ``action_id``: a retry gets the first answer and writes nothing.

Three things travel together, as one ``Idempotent`` value: who the id belongs to (the
player's id, so one player's id never returns another's answer) and the id, the action's
fingerprint (so the same id sent with another action is refused, not answered as a retry),
and the answer itself, stored by the append that made the move.

Only each player's latest answer is kept (a client retries its last action only: it sends
the next one once it has an answer), until that player's next action, or for
``ANSWERS_KEPT_AFTER_FINISH`` seconds once the match is finished. An older id of the player,
or any id once a finished match's answers are gone, is refused: 409 ``action_id_expired``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from services.errors import Conflict
from shared.eventstore import KeptAnswer
from shared.jsoncodec import state_hash

from .players import Player

ANSWERS_KEPT_AFTER_FINISH = 3600  # seconds a finished match still answers retries


def action_fingerprint(action: dict[str, Any]) -> str:
    """What an action id was used for: a retry sends the same action, another request not."""
    return state_hash(action)


class Duplicate(Exception):
    """The action id was already answered: the first answer, nothing written."""

    def __init__(self, answer: dict[str, Any], fingerprint: str | None) -> None:
        super().__init__("duplicate action id")
        self.answer, self.fingerprint = answer, fingerprint


def expired(why: str) -> Conflict:
    """409 for an action id whose answer is no longer kept: the client reads the match."""
    return Conflict(
        f"this action_id's answer is no longer kept: {why}; read the match "
        "(GET /v1/matches/{id}) for where it is now, and use a new id for a new action",
        code="action_id_expired",
    )


OLDER = "you have acted since, and only your latest action's answer is kept"
GONE = (
    "the match is finished, and answers are kept only "
    f"{ANSWERS_KEPT_AFTER_FINISH // 60} minutes after its end"
)


@dataclass(frozen=True)
class Idempotent:
    """An action's id and whose it is (``owner``), its ``fingerprint``, and the ``answer``
    its append stores (None until the move is decided)."""

    owner: str
    action_id: str
    fingerprint: str
    answer: dict[str, Any] | None = None

    @classmethod
    def of(
        cls, player: Player | None, action_id: str | None, action: dict[str, Any]
    ) -> Idempotent | None:
        """The action's idempotency, if it came with an id (None: the system acting)."""
        if not action_id:
            return None
        return cls(player.id if player else "system", action_id, action_fingerprint(action))

    def answering(self, answer: dict[str, Any]) -> Idempotent:
        return replace(self, answer=answer)

    def recorded(self, kept: KeptAnswer, finished: bool) -> dict[str, Any] | None:
        """The first answer of a retry from what the match keeps of this id; None if the id
        is new (the caller's refusal stands); 409 ``action_id_expired`` if its answer is no
        longer kept (an older id of this player, or a finished match's answers gone)."""
        if kept.status == "latest":
            return self.first_answer(kept.answer, kept.fingerprint)
        if kept.status == "older":
            raise expired(OLDER)
        if kept.status == "gone" and finished:
            raise expired(GONE)
        return None

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
