"""BotError: the one bot error, shown to the player in their language."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError


class BotError(Exception):
    """A user-facing refusal: ``key`` names a text in ``bot.text.catalogue``; ``params`` fill it.
    A refusal that came from the rules (:meth:`refused`) carries the engine's ``code`` and
    ``engine_params``; the reason shown is worded from them
    (``bot.text.events.engine_reason``), never from the engine.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    @classmethod
    def refused(cls, key: str, error: EngineError) -> BotError:
        """The rules refused: ``key``'s text, with the engine's reason in it."""
        return cls(key, code=error.code, engine_params=error.params)

    @property
    def from_rules(self) -> bool:
        return "engine_params" in self.params
