"""The open hand panels: who has one in which channel, and how to redraw it.

A panel is an ephemeral message that only its interaction can edit (for up to 15
minutes); the registry keeps one redraw per (channel, user) and forgets a panel that
can no longer be edited.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

log = logging.getLogger(__name__)

Redraw = Callable[[], Awaitable[None]]


class PanelRegistry:
    def __init__(self) -> None:
        self._panels: dict[tuple[int, int], Redraw] = {}

    def keep(self, channel_id: int, user_id: int, redraw: Redraw) -> None:
        """``user_id``'s panel at the table in ``channel_id`` (replacing an older one)."""
        self._panels[(channel_id, user_id)] = redraw

    async def redraw(self, channel_id: int) -> None:
        """Redraw every open panel of the table in ``channel_id``."""
        for key, redraw in list(self._panels.items()):
            if key[0] != channel_id:
                continue
            try:
                await redraw()
            except discord.HTTPException:
                self._panels.pop(key, None)  # expired or deleted
