"""``AiPool``: computer players' decisions in worker processes, away from an event loop.

A search decision takes up to about a second of CPU; run in the bot's event loop it
would stall every table. ``AiPool`` is a :class:`WorkerPool` (the bot's pictures use one
too): ``submit`` returns a ``concurrent.futures.Future``; ``choose`` is a coroutine for
asyncio. (The engine may not import asyncio, so ``choose`` takes the running loop:
``await pool.choose(view, level, seed, loop=asyncio.get_running_loop())``, or the caller
wraps ``submit`` with ``asyncio.wrap_future``.)
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from engine.actions import Action
from engine.ai.player import Level, choose
from engine.views import SeatView

log = logging.getLogger(__name__)


class _Loop(Protocol):
    def run_in_executor(self, executor: Any, func: Any, *args: Any) -> Any: ...


def _work(view: SeatView, level: str, seed: int) -> Action | None:
    return choose(view, level, seed)


def _warm() -> None:
    """Import and build the engine's tables in a worker before the first real decision,
    and end the worker with the process that started it."""
    import engine.ai.search  # noqa: F401

    end_with_parent()


def worker_pool(workers: int | None, initializer: Callable[[], None]) -> ProcessPoolExecutor:
    """Worker processes started by the fork server: never forked from the calling process,
    which by then runs threads (a store's, an executor's) that may hold a lock the fork
    would copy locked into the worker for good. (Python's own default from 3.14.)"""
    return ProcessPoolExecutor(max_workers=workers, initializer=initializer,
                               mp_context=multiprocessing.get_context("forkserver"))


def end_with_parent() -> None:
    """In a worker process: end it when the process that started it is gone (even by
    SIGKILL, when nothing could shut the pool down)."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True,
                         name="exit-with-parent").start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # ready when the parent has exited
    os._exit(0)


class WorkerPool:
    """:func:`worker_pool`'s processes, started anew when one has died (killed, out of
    memory): a ``ProcessPoolExecutor`` whose worker died refuses every task after, so
    :meth:`run` replaces it once and asks the task again. ``warm``, if given, is the
    first task of every new pool (it also starts the workers at once)."""

    def __init__(self, workers: int | None, initializer: Callable[[], None], *,
                 warm: Callable[[], None] | None = None) -> None:
        self._workers = workers
        self._initializer = initializer
        self._warm = warm
        self._executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        executor = worker_pool(self._workers, self._initializer)
        if self._warm is not None:
            executor.submit(self._warm)
        return executor

    def submit_task(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        return self._executor.submit(fn, *args)

    async def run(self, loop: _Loop, fn: Callable[..., Any], *args: Any, **kwargs: Any
                  ) -> Any:
        """``fn(*args, **kwargs)`` in a worker, awaited on ``loop``."""
        task = functools.partial(fn, *args, **kwargs)
        executor = self._executor
        try:
            return await loop.run_in_executor(executor, task)
        except BrokenProcessPool:
            if self._executor is executor:  # (not replaced by another task already)
                log.warning("a worker process died: starting new ones")
                executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._start()
            return await loop.run_in_executor(self._executor, task)

    def worker_pids(self) -> list[int]:
        """The worker processes running now (for tests and diagnostics)."""
        processes = self._executor._processes or {}  # DEP-WARN: the executor's own record
        return [p.pid for p in processes.values() if p.pid is not None]

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


class AiPool(WorkerPool):
    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers, _warm)

    def submit(self, view: SeatView, level: Level | str = Level.HARD, seed: int = 0
               ) -> Future[Action | None]:
        return self.submit_task(_work, view, Level(level).value, seed)

    async def choose(self, view: SeatView, level: Level | str = Level.HARD, seed: int = 0, *,
                     loop: _Loop) -> Action | None:
        """The decision, made in a worker (asked again once in a new pool if the worker
        died, so that one lost worker does not end the computer players' search)."""
        result: Action | None = await self.run(loop, _work, view, Level(level).value, seed)
        return result

    def __enter__(self) -> AiPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
