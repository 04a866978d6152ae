"""One bot process with N tables against two sharded processes with N/2 each, over one
PostgreSQL database: how fast a play is acknowledged.

    .venv/bin/python bench/shards.py                       # 50 tables, 45 s per run, 2 rounds
    .venv/bin/python bench/shards.py --tables 20 --seconds 20 --rounds 1

Everything runs on this machine: a PostgreSQL server in a temporary directory (as the tests
start it, ``tests/postgres.py``), the project's fake Discord (``tests/fakediscord/``) in
this process, and the real bot processes (``python -m bot``). Each table is one human and
three computers in its own server, half the servers in each of two shards. The human plays
the first card the bot's autocomplete offers as soon as it is their turn; the figure is the
time from sending ``/shengji play`` to the bot's acknowledgement, over every play of the
run (p50, p90, p99, max). The layouts alternate (one, two, one, two, ...) so that both see
the same machine; the fake and this driver share the machine's cores with the bots.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from bot_driver import ROOT, percentiles, play_when_asked, start_table

from tests.bot.harness import FAST, World
from tests.fakediscord import BotProcess, FakeDiscord
from tests.postgres import PostgresServer, find_binaries

SHARDS = 2


async def run(layout: list[list[int]], tables: int, seconds: float, server: PostgresServer,
              work: Path) -> list[float]:
    """``layout``: the shards of each bot process. The acknowledgement times of the run."""
    url = await server.new_database()
    fake = FakeDiscord(ack_timeout=30.0)
    await fake.start()
    guilds = [fake.add_guild(f"Server {i}", shard=(i % SHARDS, SHARDS)) for i in range(tables)]
    channels = [fake.add_channel(g, "shengji") for g in guilds]
    users = [fake.add_user(f"P{i}", guilds=[g]) for i, g in enumerate(guilds)]
    bots = []
    for n, shards in enumerate(layout):
        env = {**FAST, "SHENGJI_DB": url, "SHENGJI_SHARD_COUNT": str(SHARDS),
               "SHENGJI_SHARDS": ",".join(map(str, shards)), "SHENGJI_TURN_TIMER": "600"}
        bots.append(BotProcess(fake, ["-m", "bot"], log_path=work / f"bot{len(layout)}-{n}.log",
                               cwd=ROOT, extra_env=env))
    try:
        for bot in bots:
            await bot.start()
        loop = asyncio.get_running_loop()
        end = loop.time() + 90
        while set(fake.shard_sessions()) != set(range(SHARDS)):
            assert loop.time() < end, "the bots did not connect"
            await asyncio.sleep(0.1)
        await fake.wait_until_ready(timeout=90)
        worlds = [World(fake, bots[0], g, c, url, work / "x.log", {})
                  for g, c in zip(guilds, channels)]
        gate = asyncio.Semaphore(4)
        await asyncio.gather(*(start_table(w, u, gate) for w, u in zip(worlds, users)))
        acks: list[float] = []
        until = loop.time() + seconds
        await asyncio.gather(*(play_when_asked(w, u, until, acks) for w, u in zip(worlds, users)))
        return acks
    finally:
        for bot in bots:
            await bot.stop()
        await fake.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    bindir = find_binaries()
    if bindir is None:
        sys.exit("PostgreSQL is needed (apt-get install postgresql)")
    server = PostgresServer(bindir)
    server.start()
    results: dict[str, list[float]] = {}
    try:
        with tempfile.TemporaryDirectory() as work:
            for _ in range(args.rounds):
                for label, layout in ((f"1 process x {args.tables} tables", [[0, 1]]),
                                      (f"2 processes x {args.tables // 2} tables", [[0], [1]])):
                    acks = await run(layout, args.tables, args.seconds, server, Path(work))
                    print(percentiles(label, acks), flush=True)
                    results.setdefault(label, []).extend(acks)
    finally:
        server.stop()
    print("all rounds:")
    for label, acks in results.items():
        print(percentiles(label, acks))


if __name__ == "__main__":
    asyncio.run(main())
