"""AiPool: decisions in worker processes keep an asyncio event loop responsive.

Several tables of hard players run at once on one loop while a trivial coroutine ticks
every 50 ms. The test asserts the decisions are legal (the game accepts them) and that
the loop kept ticking; the latency figure itself is printed by
``bench/ai_eval.py --latency`` (speed is never asserted in tests).
"""

from __future__ import annotations

import asyncio
import os
import signal
import time

from engine.actions import Bury, Deal, EndDeal
from engine.ai import AiPool
from engine.game import Burying, Dealing, Game, HandOver, Playing, Swapping
from engine.rules import ruleset
from engine.views import seat_view
from tests.held_lock import held_by_another_thread, lock_is_free

TABLES = 3
DECISIONS = 5  # card plays per table (a whole hand would make the test slow)


async def _table(pool: AiPool, seed: int) -> int:
    loop = asyncio.get_running_loop()
    game = Game(ruleset("classic"), seed, dealer=seed % 4)
    plays = 0
    while plays < DECISIONS and not isinstance(game.phase, HandOver):
        phase = game.phase
        action = None
        if isinstance(phase, Dealing):
            # declarations are cheap: ask only the seat about to receive a card
            action = await pool.choose(seat_view(game, phase.next_seat), "hard", seed,
                                       loop=loop)
            if action is None:
                action = Deal(4) if phase.stock else EndDeal()
        else:
            seat = (phase.taker if isinstance(phase, Burying) else
                    phase.declarer if isinstance(phase, Swapping) else phase.turn)  # type: ignore[union-attr]
            action = await pool.choose(seat_view(game, seat), "hard", seed, loop=loop)
            plays += isinstance(phase, Playing)
        game.apply(action)  # an illegal decision would raise EngineError
    return plays


async def _run() -> tuple[list[int], list[float]]:
    lags: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.05)
            lags.append(time.perf_counter() - start - 0.05)

    with AiPool(2) as pool:
        tick = asyncio.create_task(ticker())
        plays = await asyncio.gather(*(_table(pool, 40 + t) for t in range(TABLES)))
        stop.set()
        await tick
    return plays, lags


def test_hard_tables_in_a_pool_leave_the_loop_ticking() -> None:
    plays, lags = asyncio.run(_run())
    assert plays == [DECISIONS] * TABLES
    assert len(lags) >= 3  # the loop ran the ticker throughout
    print(f"max tick lag {max(lags) * 1000:.1f} ms over {len(lags)} ticks")


def test_submit_gives_a_future() -> None:
    game = Game(ruleset("classic"), 1, dealer=0)
    with AiPool(1) as pool:
        assert pool.submit(seat_view(game, 0), "easy", 0).result() is None  # nothing dealt


def _wait_gone(pid: int) -> None:
    """Until the process has ended (its parent is the fork server, not this process)."""
    for _ in range(400):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except FileNotFoundError:
            return
        time.sleep(0.05)
    raise AssertionError(f"worker {pid} still runs")


def test_a_worker_killed_is_replaced_and_the_decision_made() -> None:
    """Was: a worker process that died (SIGKILL, out of memory) broke the pool for good:
    every later search decision of every table raised BrokenProcessPool."""
    game = Game(ruleset("classic"), 3, dealer=0)
    while isinstance(game.phase, Dealing):
        phase = game.phase
        game.apply(Deal(4) if phase.stock else EndDeal())
    view = seat_view(game, 0)  # the dealer buries: a search decision

    async def run() -> tuple[object, object]:
        loop = asyncio.get_running_loop()
        with AiPool(1) as pool:
            first = await pool.choose(view, "normal", 1, loop=loop)
            for pid in pool.worker_pids():
                os.kill(pid, signal.SIGKILL)
                _wait_gone(pid)
            again = await pool.choose(view, "normal", 1, loop=loop)
        return first, again

    first, again = asyncio.run(run())
    assert isinstance(first, Bury) and again == first


def test_a_worker_does_not_inherit_a_lock_another_thread_holds() -> None:
    with held_by_another_thread(), AiPool(1) as pool:
        assert pool.submit_task(lock_is_free).result(timeout=60)
