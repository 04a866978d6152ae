"""Ask the running bot for its memory figures (``kill -USR1``: ``ShengjiBot.log_memory``)."""

from __future__ import annotations

import asyncio
import re
import signal

from tests.bot.harness import World, answered, table_message, wait_until
from tests.fakediscord import FakeUser

# a fixed deal, and a turn timer that never runs out: the table waits for Alice's move
WAITS_FOR_ALICE = {"SHENGJI_SEED": "7", "SHENGJI_TURN_TIMER": "1000000"}

REPORT = re.compile(r"memory: ((?:\w+=-?\d+ ?)+)$", re.M)


async def memory_report(world: World, timeout: float = 30.0) -> dict[str, int]:
    """The figures of the bot's next memory log line (asked for now)."""
    assert world.bot.proc is not None
    before = len(REPORT.findall(world.bot.output()))
    world.bot.proc.send_signal(signal.SIGUSR1)
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        reports = REPORT.findall(world.bot.output())
        if len(reports) > before:
            return {key: int(value) for key, value in
                    (pair.split("=") for pair in reports[before].split())}
        if world.bot.returncode is not None or loop.time() > end:
            raise TimeoutError(f"no memory report from the bot\n{world.bot.describe()}")
        await asyncio.sleep(0.05)


async def wait_for_turn(world: World, user: FakeUser) -> None:
    """Until the table waits for ``user`` to play or bury (the computers move meanwhile)."""
    waiting = (f"{user.name} to play", f"{user.name} is burying")
    await wait_until(lambda: any(w in table_message(world).content for w in waiting),
                     timeout=60)


async def open_panel(world: World, user: FakeUser) -> list[str]:
    """``/shengji hand``; the panel's controls."""
    ix = await world.fake.slash(user, world.channel, "shengji", "hand")
    await answered(ix)
    return ix.message.custom_ids()
