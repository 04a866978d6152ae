"""The bot's log format: a traceback in the log never shows a message that may name cards.

An unexpected error (a ``KeyError`` on a card, an ``AssertionError`` on a hand) carries its
values in its message, and a traceback prints it: one fault would put a player's hand in
the log. The formatter keeps the traceback (where it happened) and the exception's type,
and prints the message only for errors about the world outside the game (the network,
Discord, the database, the settings), whose messages an operator needs and which are
never built from cards. The engine's own error prints its code alone.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Iterator
from concurrent.futures.process import _RemoteTraceback
from types import TracebackType

import aiohttp
import discord

from bot.config import ConfigError
from bot.store import StoreError, postgres, sqlite
from engine.errors import EngineError

#: Errors whose message is kept: about the outside world, or (EngineError) a code alone.
OUTSIDE_ERRORS: tuple[type[BaseException], ...] = (
    OSError, discord.DiscordException, aiohttp.ClientError, *sqlite.DRIVER_ERRORS,
    *postgres.DRIVER_ERRORS, StoreError, ConfigError, EngineError)

WITHHELD = "(message withheld: it may name cards)"

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | \
    tuple[None, None, None]


class CardFreeFormatter(logging.Formatter):
    """A formatter whose tracebacks name every exception's type, but its message only for
    :data:`OUTSIDE_ERRORS` (in a chain and in an exception group alike)."""

    def formatException(self, ei: _ExcInfo) -> str:
        exc_type, exc, tb = ei
        if exc_type is None or exc is None:
            return super().formatException(ei)
        shown = traceback.TracebackException(exc_type, exc, tb)
        if not hasattr(shown, "_str"):  # (a Python whose TracebackException changed)
            return "Traceback (most recent call last):\n" + "".join(traceback.format_tb(tb)) \
                + f"{exc_type.__qualname__}: {WITHHELD}"
        for part, error in _chain(shown, exc):
            # DEP-WARN: ``_str`` is the message TracebackException prints (3.11-3.13)
            message: str = part._str  # type: ignore[attr-defined]
            if isinstance(error, _RemoteTraceback):  # a worker process's traceback, as text
                message = _remote_withheld(message)
            elif not isinstance(error, OUTSIDE_ERRORS) and message:
                message = WITHHELD
            part._str = message  # type: ignore[attr-defined]
        return "".join(shown.format()).rstrip("\n")


def _chain(shown: traceback.TracebackException, exc: BaseException
           ) -> Iterator[tuple[traceback.TracebackException, BaseException]]:
    """Each exception printed (the exception, its causes and contexts, a group's members)
    beside the exception it prints."""
    seen: set[int] = set()
    waiting = [(shown, exc)]
    while waiting:
        part, error = waiting.pop()
        if id(part) in seen:
            continue
        seen.add(id(part))
        yield part, error
        for linked, linked_error in ((part.__cause__, error.__cause__),
                                     (part.__context__, error.__context__)):
            if linked is not None and linked_error is not None:
                waiting.append((linked, linked_error))
        if part.exceptions and isinstance(error, BaseExceptionGroup):
            # (TracebackException keeps a group's first members, in order)
            waiting.extend(zip(part.exceptions, error.exceptions, strict=False))


#: An exception's line: its type's name (Python's ends so), then its message if any.
_EXCEPTION_LINE = re.compile(
    r"([A-Za-z_][\w.]*(?:Error|Exception|Group|Exit|Interrupt|Iteration|Warning))(:.*)?")


def _remote_withheld(text: str) -> str:
    """A worker process's traceback (``concurrent.futures``' text of it) with its frames and
    source lines kept and each exception's message withheld. A line that is neither a
    frame's, its source's nor an exception type's is left out: it may go on a message."""
    kept: list[str] = []
    in_frame = False
    for line in text.splitlines():
        if line.startswith('  File "'):
            kept.append(line)
            in_frame = True
            continue
        if in_frame and line.startswith("    "):  # the frame's source line and its marks
            kept.append(line)
            continue
        in_frame = False
        exception = _EXCEPTION_LINE.fullmatch(line)
        if line in ("", '"""', "Traceback (most recent call last):") or \
                line.startswith(("During handling of the above", "The above exception")):
            kept.append(line)
        elif exception:
            kept.append(f"{exception[1]}: {WITHHELD}" if exception[2] else line)
    return "\n".join(kept)


def configure(level: int = logging.INFO) -> None:
    """The process's logging: one stream handler on the root logger, card-free tracebacks."""
    logging.basicConfig(level=level, format=FORMAT)
    for handler in logging.getLogger().handlers:
        handler.setFormatter(CardFreeFormatter(FORMAT))
