"""The hand panel holds nothing per open: many ``/shengji hand`` keep one panel, and no
view stays alive in discord.py (bench/memory.py measures the process; README, Memory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import create_and_start, running_bot
from tests.bot.memory_probe import WAITS_FOR_ALICE, memory_report, open_panel, wait_for_turn

OPENS = 30


@pytest.mark.asyncio
async def test_many_panel_opens_keep_nothing_per_open(tmp_path: Path) -> None:
    async with running_bot(tmp_path, env=WAITS_FOR_ALICE) as world:
        alice = world.fake.add_user("Alice")
        await create_and_start(world, alice)
        await wait_for_turn(world, alice)
        for _ in range(OPENS):
            controls = await open_panel(world, alice)
            assert controls  # a panel with its menus (the views discord.py could keep)
        report = await memory_report(world)
    assert report["panels"] == 1  # the newest panel of Alice at this table
    assert report["views"] == 0 and report["message_views"] == 0
    # before: every panel's view lived 15 minutes in discord.py, one per open
    assert report["view_timeouts"] == 0
