"""The engine's one error type: a stable code and its parameters, no prose.

Every refused action raises :class:`EngineError` and leaves the game untouched. The
bot words ``code`` + ``params`` in the player's language (``bot/text``); the engine
writes no sentences. Parameters are plain data (numbers, strings, cards, tuples of
them) and only ever name what the acting seat may know. A code with several rules
behind it (``bad_declaration``, ``bad_option``) names the one broken in ``rule``.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """A rule was broken or an input could not be understood."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        """The code and parameters, for test failures and the scenario runner: never for
        logs or players (a parameter may name a player's cards)."""
        given = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code}({given})"

    def __str__(self) -> str:
        return self.code  # what a traceback in a log shows: no cards

    def __repr__(self) -> str:  # the parameters' names only, as in __str__
        return f"EngineError({self.code!r}, {sorted(self.params)!r})"
