"""Awaiting work that must not stop halfway when its caller is cancelled (the bot closing)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable


async def to_the_end(work: Awaitable[None]) -> bool:
    """Await ``work`` to its end even when the caller is cancelled meanwhile (a store
    write the store may have taken already, or a step whose second half the first one
    needs); True if a cancel came, for the caller to raise once it is safe."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while not task.done():
        try:
            await asyncio.wait([task])  # (a cancel stops the waiting, not the work)
        except asyncio.CancelledError:
            cancelled = True
    task.result()
    return cancelled
