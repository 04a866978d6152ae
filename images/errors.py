"""The images layer's one error type."""

from __future__ import annotations


class RenderError(Exception):
    """A picture was asked for with inputs that do not describe one, or it cannot be drawn
    (a font file is missing). The bot turns it into a ``BotError``."""
