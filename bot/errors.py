"""BotError: the one bot error, shown to the player in their language."""

from __future__ import annotations

from typing import Any


class BotError(Exception):
    """A user-facing refusal: ``key`` names a text in ``bot.text.catalogue``; ``params`` fill it.

    ``engine`` carries the engine's own English reason when the refusal came from the
    rules (it names only what the acting player may know).
    """

    def __init__(self, key: str, engine_message: str | None = None, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.engine_message = engine_message
        self.params = params
