"""Typed errors: each says, in words a player understands, why something was refused.

An error's message is a sentence in Spanish and English (``language.Message``; a plain
string for the few that only a developer meets, such as a malformed state). ``str(error)``
is the default language; ``error.text(reader)`` is the reader's, with the players' names
and the game's card names.
"""

from __future__ import annotations

from .language import Reader, Say, text_of


class EngineError(ValueError):
    """Base of every refusal by the rules engine; ``code`` is the API error code."""

    code = "bad_request"

    def __init__(self, message: str | Say = "", deck: str | None = None):
        super().__init__(message)
        self.message = message
        #: The deck whose card names the message uses (the game's; None: the default).
        self.deck = deck

    def text(self, reader: Reader | None = None) -> str:
        if reader is not None and self.deck and reader.deck != self.deck:
            reader = Reader(reader.lang, reader.names, self.deck)
        elif reader is None and self.deck:
            reader = Reader(deck=self.deck)
        return text_of(self.message, reader)

    def __str__(self) -> str:
        return self.text()


class UnknownGame(EngineError):
    code = "unknown_game"


class UnknownVariant(EngineError):
    code = "unknown_variant"


class BadSetup(EngineError):
    """Player count or options out of what the game and variant allow."""

    code = "bad_setup"


class UnknownRulesVersion(BadSetup):
    """A match recorded under a rules version this engine does not know (a newer release's)."""

    code = "unknown_rules_version"


class InvalidState(EngineError):
    """A state that is malformed, truncated, forged or inconsistent."""

    code = "invalid_state"


class IllegalAction(EngineError):
    """An action the rules do not allow now; ``legal`` lists what the seat may do instead."""

    code = "illegal_action"

    def __init__(
        self,
        message: str | Say,
        legal: list[dict] | None = None,
        deck: str | None = None,
    ):
        super().__init__(message, deck)
        self.legal = legal or []


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class MatchFinished(IllegalAction):
    code = "match_finished"
