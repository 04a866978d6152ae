"""Reliability through the real bot process (issue "Reliability")."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.bot.harness import create_and_start, running_bot, wait_until

pytestmark = pytest.mark.asyncio


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except FileNotFoundError:
        return []


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux /proc")
@pytest.mark.parametrize("stop", ["SIGKILL", "SIGTERM"])
async def test_a_hard_computers_worker_process_ends_with_the_bot(tmp_path: Path, stop: str
                                                                 ) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        made = await fake.slash(alice, world.channel, "shengji", "create")
        await made.wait_acked()
        for _ in range(3):
            added = await fake.slash(alice, world.channel, "shengji", "addbot", level="hard")
            await added.wait_acked()
        await create_and_start(world, alice, create=False)
        proc = world.bot.proc
        assert proc is not None
        await wait_until(lambda: _children(proc.pid), timeout=60)  # a decision was asked
        workers = _children(proc.pid)
        if stop == "SIGKILL":
            proc.kill()
            await proc.wait()
        else:
            assert await world.bot.stop(timeout=20) == 0
        for _ in range(200):
            if not any(_running(w) for w in workers):
                break
            await asyncio.sleep(0.05)
        assert not any(_running(w) for w in workers), "a worker outlived the bot"
    fake.assert_clean()
