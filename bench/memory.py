"""Does the bot's memory grow with every ``/shengji hand``, or level off?

Run: .venv/bin/python bench/memory.py [--opens N] [--every K]
Starts the real bot against the fake Discord (tests/fakediscord, in this process; the bot
is its own process), seats a player with three computers, lets the hand be dealt until
the table waits for the player (a full hand and the panel's menus), and opens the hand
panel N times. Every K opens the bot logs its memory figures (``kill -USR1``) and a row is
printed: the process's RSS; what Python holds (allocated blocks); what glibc malloc has
handed out and what it keeps freed in its arenas; threads; and the structures that hold
something per panel (our open panels; the views discord.py keeps, for dispatch or until
their timeout). A leak grows the
Python or malloc-in-use columns without bound; allocator caching grows "malloc free"
while threads appear, then stops. The last lines compare the two halves of the run.
Set MALLOC_ARENA_MAX=2 in the environment to see glibc with fewer arenas.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bot.harness import create_and_start, running_bot  # noqa: E402
from tests.bot.memory_probe import (  # noqa: E402
    WAITS_FOR_ALICE,
    memory_report,
    open_panel,
    wait_for_turn,
)

COLUMNS = (("opens", "opens"), ("rss_kib", "RSS KiB"), ("python_blocks", "py blocks"),
           ("malloc_used_kib", "malloc used KiB"), ("malloc_free_kib", "malloc free KiB"),
           ("threads", "threads"), ("panels", "panels"), ("kept_views", "views kept"))


def row(figures: dict[str, int]) -> str:
    return " ".join(f"{figures[key]:>{len(title)}}" for key, title in COLUMNS)


def growth(label: str, start: dict[str, int], end: dict[str, int]) -> str:
    opens = end["opens"] - start["opens"]
    rss = end["rss_kib"] - start["rss_kib"]
    used = end["malloc_used_kib"] - start["malloc_used_kib"]
    blocks = end["python_blocks"] - start["python_blocks"]
    return (f"{label} (opens {start['opens']}-{end['opens']}): RSS {rss:+d} KiB "
            f"({rss * 1024 / opens:+.0f} B an open), malloc in use {used:+d} KiB, "
            f"python blocks {blocks:+d}")


async def main(opens: int, every: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with running_bot(Path(tmp), env=WAITS_FOR_ALICE) as world:
            alice = world.fake.add_user("Alice")
            await create_and_start(world, alice)
            await wait_for_turn(world, alice)  # from here only the panel opens change anything

            async def figures(done: int) -> dict[str, int]:
                report = await memory_report(world)
                return {**report, "opens": done,
                        "kept_views": report["views"] + report["message_views"]
                        + report["view_timeouts"]}

            print(" ".join(title for _key, title in COLUMNS))
            rows = [await figures(0)]
            print(row(rows[-1]), flush=True)
            for i in range(1, opens + 1):
                await open_panel(world, alice)
                if i % every == 0 or i == opens:
                    rows.append(await figures(i))
                    print(row(rows[-1]), flush=True)
            middle = rows[len(rows) // 2]
            print(growth("first half ", rows[0], middle))
            print(growth("second half", middle, rows[-1]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=600)
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(main(args.opens, args.every))
