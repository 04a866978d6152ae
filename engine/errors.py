"""The engine's one error type: a stable code, its parameters, and English text.

Every refused action raises :class:`EngineError` and leaves the game untouched. The
bot translates ``code`` + ``params`` into the player's language; ``message`` is the
English fallback. Messages only ever name what the acting seat may know.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """A rule was broken or an input could not be understood."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __repr__(self) -> str:
        return f"EngineError({self.code!r}, {self.message!r})"
