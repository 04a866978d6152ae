"""The open hand panels: who has one in which channel, and how to redraw it.

A panel is an ephemeral message that only an interaction can edit (for up to 15
minutes); the registry keeps one redraw per (channel, user). A redraw says whether the
panel is still alive; one that cannot be drawn any more (expired, deleted, the player
gone from the table) is forgotten, and one panel's failure never stops the others.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.errors import BotError

log = logging.getLogger(__name__)

Redraw = Callable[[], Awaitable[bool]]  # False: the panel is done (it said so)


class PanelRegistry:
    def __init__(self) -> None:
        self._panels: dict[tuple[int, int], Redraw] = {}

    def __len__(self) -> int:
        return len(self._panels)

    def keep(self, channel_id: int, user_id: int, redraw: Redraw) -> None:
        """``user_id``'s panel at the table in ``channel_id`` (replacing an older one)."""
        self._panels[(channel_id, user_id)] = redraw

    def is_current(self, channel_id: int, user_id: int, redraw: Redraw) -> bool:
        """``redraw`` is still the way to draw the user's panel (a redraw that was
        replaced while it ran must not paint an older state over the newer one)."""
        return self._panels.get((channel_id, user_id)) is redraw

    async def redraw(self, channel_id: int) -> None:
        """Redraw every open panel of the table in ``channel_id``."""
        for (channel, user), redraw in list(self._panels.items()):
            if channel != channel_id:
                continue
            try:
                alive = await redraw()
            except (discord.HTTPException, BotError) as exc:
                # expired, deleted, or the player is no longer at this table
                log.debug("hand panel of %s in %s dropped: %r", user, channel, exc)
                alive = False
            except Exception:  # one panel must not stop the others
                log.exception("could not refresh a hand panel in %s", channel)
                alive = False
            if not alive and self._panels.get((channel, user)) is redraw:
                del self._panels[(channel, user)]  # (unless a newer panel replaced it)
