"""Typed errors: each says, in words a player understands, why something was refused."""


class EngineError(ValueError):
    """Base of every refusal by the rules engine; ``code`` is the API error code."""

    code = "bad_request"


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

    def __init__(self, message: str, legal: list[dict] | None = None):
        super().__init__(message)
        self.legal = legal or []


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class MatchFinished(IllegalAction):
    code = "match_finished"
