"""Whether the engine checks what games emit against what they declare.

With checking on, every event a game returns and every view it builds is compared with its
declarations (``events``, ``facts``, the view fields): an undeclared event type or field, a
missing field or a value of the wrong kind raises ``DeclarationError``. The tests turn it on
(``tests/conftest.py`` sets ``TAPETE_CHECK_DECLARATIONS=1``, which services started by the
tests inherit); production leaves it off, and then it costs one test of a flag per action.
"""

from __future__ import annotations

import os

ENV = "TAPETE_CHECK_DECLARATIONS"

ON: bool = os.environ.get(ENV, "") == "1"


def turn(on: bool) -> bool:
    """Turn checking on or off in this process; returns the previous setting."""
    global ON
    before, ON = ON, on
    return before
