"""The Tapete rules engine: pure functions over JSON-native match states, no I/O.

Use ``new_match``, ``legal_actions``, ``apply`` and ``view``; games register
themselves in ``shared.games``. See docs/engine.md for the design.
"""

from . import checks, seeds
from .actions import CARD, CARDS, SEAT, ActionType, Field, choice
from .cards import ENGLISH_SUITS, JOKER, SPANISH_SUITS, english_deck, rank, spanish_deck, suit
from .core import (
    apply,
    check_rules_version,
    check_seat,
    check_state,
    finish,
    legal_actions,
    new_match,
    record_round,
    redact,
    resolve_options,
    sentences,
    view,
)
from .data import GameData
from .errors import (
    BadSetup,
    EngineError,
    IllegalAction,
    InvalidState,
    MatchFinished,
    NotYourTurn,
    UnknownGame,
    UnknownRulesVersion,
    UnknownVariant,
)
from .events import EventType
from .facts import FactType
from .fields import DeclarationError
from .game import (
    Action,
    Event,
    Game,
    Option,
    RulesChange,
    Variant,
    all_games,
    get_game,
    register,
)
from .language import DEFAULT_LANGUAGE, LANGUAGES, Reader, Say
from .state import HIDDEN, OWNER, PUBLIC, TOP, State, Zone

__all__ = [
    "ENGLISH_SUITS", "JOKER", "SPANISH_SUITS", "english_deck", "rank", "spanish_deck", "suit",
    "apply", "check_rules_version", "check_seat", "check_state", "finish", "legal_actions", "new_match",
    "record_round", "redact", "resolve_options", "sentences", "view", "checks", "seeds",
    "BadSetup", "EngineError", "IllegalAction", "InvalidState", "MatchFinished", "NotYourTurn",
    "UnknownGame", "UnknownRulesVersion", "UnknownVariant",
    "Action", "Event", "Game", "Option", "RulesChange", "Variant", "all_games", "get_game", "register",
    "HIDDEN", "OWNER", "PUBLIC", "TOP", "State", "Zone",
    "CARD", "CARDS", "SEAT", "ActionType", "Field", "choice", "GameData",
    "EventType", "FactType", "DeclarationError", "DEFAULT_LANGUAGE", "LANGUAGES", "Reader", "Say",
]  # fmt: skip
