"""Pictures are drawn in a worker process, a player's hand before waiting table refreshes;
and the load benchmark runs and prints its figures (a smoke test: nothing is timed)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.ui.render import PictureWorkers

ROOT = Path(__file__).resolve().parents[2]


def _slow(name: str) -> str:
    time.sleep(0.2)  # the worker is busy while the others queue
    return name


def _named(name: str) -> tuple[str, int]:
    return name, os.getpid()


async def test_a_hand_waiting_for_the_worker_goes_before_the_table_refreshes() -> None:
    workers = PictureWorkers(1)
    try:
        done: list[str] = []

        async def draw(urgent: bool, render, name: str) -> None:  # type: ignore[no-untyped-def]
            await workers.draw(urgent, render, name)
            done.append(name)

        busy = asyncio.create_task(draw(False, _slow, "first table"))
        await asyncio.sleep(0)  # it has the worker
        waiting = [asyncio.create_task(draw(False, _named, "table A")),
                   asyncio.create_task(draw(False, _named, "table B")),
                   asyncio.create_task(draw(True, _named, "hand"))]
        await asyncio.gather(busy, *waiting)
        assert done == ["first table", "hand", "table A", "table B"]
        name, pid = await workers.draw(True, _named, "where")
        assert name == "where" and pid != os.getpid()  # drawn in another process
    finally:
        workers.close()


async def test_a_picture_given_up_while_waiting_does_not_keep_the_worker() -> None:
    workers = PictureWorkers(1)
    try:
        busy = asyncio.create_task(workers.draw(False, _slow, "busy"))
        await asyncio.sleep(0)
        given_up = asyncio.create_task(workers.draw(True, _named, "gone"))
        await asyncio.sleep(0)
        assert workers.waiting == 1
        given_up.cancel()
        assert await busy == "busy"
        # the worker is free again: the next picture does not wait forever
        name, _ = await asyncio.wait_for(workers.draw(False, _named, "next"), timeout=30)
        assert name == "next" and workers.waiting == 0
    finally:
        workers.close()


async def test_pictures_are_drawn_again_after_the_worker_died() -> None:
    workers = PictureWorkers(1)
    try:
        _, pid = await workers.draw(True, _named, "before")
        os.kill(pid, signal.SIGKILL)
        name, again = await asyncio.wait_for(workers.draw(True, _named, "after"), timeout=60)
        assert name == "after" and again != pid
    finally:
        workers.close()


def test_the_load_benchmark_prints_its_figures(tmp_path: Path) -> None:
    """``bench/load.py --quick``: one table for a few seconds through the real bot."""
    run = subprocess.run([sys.executable, "bench/load.py", "--quick"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    for command in ("status", "hand", "hand shown (picture)"):
        line = re.search(rf"^  {re.escape(command)} +asked +(\d+) +p50 .* p99 +[\d.]+ ms", out,
                         re.M)
        assert line, f"no figures for {command}:\n{out}"
        assert int(line.group(1)) >= 2
    assert re.search(r"bot CPU: main [\d.]+ s/s, workers [\d.]+ s/s", out), out
    assert re.search(r"event loop waited for a core \d+% of the time", out), out
    assert re.search(r"MiB per table", out), out
    assert re.search(r"hands per minute: [\d.]+", out), out
