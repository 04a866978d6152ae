"""One table's publishing, in the order its changes were made.

A change is put in the outbox while the table's lock is held, so batches queue in the
order the table changed; the lock is then released and the actor awaits ``flush()``,
which delivers every queued batch, oldest first, one at a time. Whoever flushes first
delivers the others' batches too, so two actors' lines never interleave, and an actor
whose ``flush()`` returns knows its own batch is out (a refused DM's note is then kept
for its answer).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence

from engine.actions import Event

log = logging.getLogger(__name__)

Deliver = Callable[[Sequence[Event]], Awaitable[None]]


class Outbox:
    def __init__(self, deliver: Deliver, name: str) -> None:
        self._deliver = deliver
        self._name = name
        self._pending: deque[list[Event]] = deque()
        self._lock = asyncio.Lock()

    def put(self, events: Sequence[Event]) -> None:
        """Queue a batch (an empty one: the table changed without events)."""
        self._pending.append(list(events))

    async def flush(self) -> None:
        """Deliver every queued batch; a failed delivery is logged and the game goes on."""
        async with self._lock:
            while self._pending:
                batch = self._pending.popleft()
                try:
                    await self._deliver(batch)
                except Exception:  # the game goes on when a message fails
                    log.exception("publishing to %s failed", self._name)
