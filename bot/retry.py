"""Trying again, at start, what cannot be reached yet (Discord, the PostgreSQL server): a
machine whose network or database comes up after the bot, an outage. One pace for both,
and a stop asked meanwhile ends the wait at once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator


class Stopped(Exception):
    """A stop was asked while waiting to try again."""


#: Seconds before the first try again, doubled each time up to the last.
RETRY_WAITS = (1, 60)


def waits() -> Iterator[int]:
    """1, 2, 4, ... seconds, then a minute each time."""
    wait, longest = RETRY_WAITS
    while True:
        yield wait
        wait = min(2 * wait, longest)


async def stopped_within(stopping: asyncio.Event, seconds: float) -> bool:
    """Wait ``seconds``: True as soon as ``stopping`` is set, False when the time is up."""
    try:
        await asyncio.wait_for(stopping.wait(), seconds)
    except TimeoutError:
        return False
    return True


def reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
