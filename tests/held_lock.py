"""A lock that another thread of this process holds while a worker pool starts, as the
bot's store thread or an executor's may hold one of theirs: a worker forked from the
process would have it copied locked, with no thread there to release it (a deadlock)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

_HELD = threading.Lock()


def lock_is_free() -> bool:
    """In the worker: can the lock be taken?"""
    if _HELD.acquire(timeout=2):
        _HELD.release()
        return True
    return False


@contextlib.contextmanager
def held_by_another_thread() -> Iterator[None]:
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        with _HELD:
            taken.set()
            done.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait(10)
    try:
        yield
    finally:
        done.set()
        holder.join()
