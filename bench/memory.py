"""Does the bot's memory grow with every ``/shengji hand``, or level off?

Run: .venv/bin/python bench/memory.py [--opens N] [--every K]
Starts the real bot against the fake Discord (tests/fakediscord), seats a player with
three computers, and opens the hand panel N times, printing the bot process's RSS every
K opens. Each open registers a panel refresh; a leak would grow without bound, a cache
levels off.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from bot_driver import rss_kib

from tests.bot.harness import create_and_start, running_bot


async def main(opens: int, every: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # slow clocks: the game waits, so only the panel opens change anything
        async with running_bot(Path(tmp), env={"SHENGJI_PAUSE_SCALE": "1000"}) as world:
            alice = world.fake.add_user("Alice")
            await create_and_start(world, alice)
            assert world.bot.proc is not None
            pid = world.bot.proc.pid
            print(f"{'opens':>6} {'RSS KiB':>9} {'Δ since last':>13}")
            last = rss_kib(pid)
            print(f"{0:>6} {last:>9} {'':>13}")
            for i in range(1, opens + 1):
                ix = await world.fake.slash(alice, world.channel, "shengji", "hand")
                await ix.wait_acked()
                if i % every == 0:
                    now = rss_kib(pid)
                    print(f"{i:>6} {now:>9} {now - last:>+13}")
                    last = now


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=600)
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(main(args.opens, args.every))
