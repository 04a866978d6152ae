"""Pictures are drawn in a worker process, a player's hand before waiting table refreshes;
table edits coalesce longer under load; and the load benchmark runs and prints its
figures (a smoke test: nothing is timed)."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.table_data import Seat, Table, TableSettings
from bot.ui.publisher import MAX_STRETCH, WAITING_PER_STRETCH, DiscordPublisher, Postbox
from bot.ui.render import PictureWorkers, ThreadPictures
from engine.game import Game
from engine.rules import ruleset
from engine.simulate import random_action
from tests.held_lock import held_by_another_thread, lock_is_free

ROOT = Path(__file__).resolve().parents[2]


def _slow(name: str) -> str:
    time.sleep(0.2)  # the worker is busy while the others queue
    return name


def _named(name: str) -> tuple[str, int]:
    return name, os.getpid()


async def test_a_worker_does_not_inherit_a_lock_another_thread_holds() -> None:
    with held_by_another_thread():
        workers = PictureWorkers(1)
        try:
            assert await asyncio.wait_for(workers.draw(True, lock_is_free), timeout=60)
        finally:
            workers.close()


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


def _table(channel_id: int, *, person_to_act: bool) -> Table:
    """A table in play whose game waits for seat 0's decision; seat 0 a person or not."""
    game = Game(ruleset("classic"), seed=channel_id)
    rng = random.Random(channel_id)
    seats: list[Seat | None] = [Seat("ai", None, f"C{i}", "easy") for i in range(4)]
    table = Table(channel_id, 1, 10, "classic", {}, TableSettings(), seats, status="playing",
                  game=game)
    while table.actor() is None:
        action = random_action(game, rng, declare_chance=0.0)
        assert action is not None
        game.apply(action)
    actor = table.actor()
    assert actor is not None
    if person_to_act:
        seats[actor] = Seat("human", 10, "Host")
    return table


async def test_table_edits_wait_longer_while_many_wait_but_not_where_a_person_is_to_act(
        ) -> None:
    async def nothing(*_: object) -> None:
        pass

    publisher = DiscordPublisher(Postbox(None), message_posted=nothing,  # type: ignore[arg-type]
                                 redrawn=nothing, channel_gone=nothing,
                                 pictures=ThreadPictures(),
                                 edit_interval=1.0)
    computers, person = _table(1, person_to_act=False), _table(2, person_to_act=True)
    try:
        publisher.schedule(computers)
        publisher.schedule(person)
        assert publisher._interval(computers) == pytest.approx(1 + 2 / WAITING_PER_STRETCH)
        for channel in range(3, 3 + WAITING_PER_STRETCH):
            publisher.schedule(_table(channel, person_to_act=False))
        assert publisher._interval(computers) == pytest.approx(
            1 + (2 + WAITING_PER_STRETCH) / WAITING_PER_STRETCH)
        for channel in range(100, 100 + 5 * WAITING_PER_STRETCH):
            publisher.schedule(_table(channel, person_to_act=False))
        assert publisher._interval(computers) == MAX_STRETCH  # no longer than that
        assert publisher._interval(person) == 1.0  # they watch: as soon as ever
    finally:
        await publisher.close()  # (the redraws waiting are dropped, none ran)
