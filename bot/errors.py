"""BotError: the one bot error, shown to the player in their language."""

from __future__ import annotations

from typing import Any


class BotError(Exception):
    """A user-facing refusal: ``key`` names a text in ``bot.text.catalogue``; ``params`` fill it.

    ``engine_message`` is set (the engine's code and parameters, for logs) when the
    refusal came from the rules; the reason shown is worded from ``code`` and
    ``engine_params`` (``bot.text.events.engine_reason``), never from the engine.
    """

    def __init__(self, key: str, engine_message: str | None = None, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.engine_message = engine_message
        self.params = params
