"""The bot under load: K busy tables, and people asking it things all the while.

    .venv/bin/python bench/load.py                                # K = 1, 10, 25, 50; 60 s each
    .venv/bin/python bench/load.py --tables 1,10,25 --seconds 30
    .venv/bin/python bench/load.py --quick                        # K = 1 for 5 s: a smoke test
    .venv/bin/python bench/load.py --tables 25 --compare ../main  # and another checkout's bot

The real bot (``python -m bot``, its own process, a SQLite file) against the project's
fake Discord (``tests/fakediscord/``, in this process) at the real pace (pauses and the
table message's coalescing as configured by default; ``--pace fast`` for the tests'
pace). Each of K tables is started by its host in its own channel; at ``--probers``
tables (default 1) the host stays in seat 1, plays their turns at once (the first card
autocomplete offers) and every 200 ms asks ``/shengji status`` and ``/shengji hand`` at
the same time; at the others the host leaves, so four computers play and the host
watches. Printed per K, over the measured window (after every table has started):

* each command's acknowledgement time (p50/p90/p95/p99/max; ``hand`` is acknowledged
  before its picture is drawn, so "hand shown" is the time to the picture too);
* the bot's CPU (user + system seconds per wall second) of its main process and of its
  workers (pictures, computer players, and the fork server that starts them), and the
  share of the time its event loop waited, runnable, for a core;
* its memory (PSS: RSS with the pages the workers share split between them; main +
  workers), and the growth since before the tables, per table;
* hands per minute (hand results posted, all tables; a hand lasts about two minutes at
  normal pace, so give it ``--seconds 150`` or more), cards played per minute (from the
  bot's action log) and table pictures uploaded per second.

The fake and this driver run on the same machine as the bot and share its cores.
``--compare PATH`` runs another checkout's bot (``python -m bot`` in PATH, this
interpreter) right after this one's for each K, so that both see the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import sqlite3
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bot_driver import ROOT, Usage, percentiles, play_when_asked, start_table

from tests.bot.harness import FAST, World, table_message, wait_until
from tests.fakediscord import BotProcess, FakeDiscord, FakeInteraction, FakeUser
from tests.fakediscord.interactions import InteractionTimeout

PROBE_EVERY = 0.2
PACES = {"normal": {}, "fast": FAST}


@dataclass
class Probes:
    """Acknowledgement times (seconds; inf: never acknowledged) by command."""

    status: list[float] = field(default_factory=list)
    hand: list[float] = field(default_factory=list)
    hand_shown: list[float] = field(default_factory=list)
    play: list[float] = field(default_factory=list)


async def _timed(ix: FakeInteraction, sent: float, acks: list[float],
                 shown: list[float] | None = None) -> None:
    loop = asyncio.get_running_loop()
    try:
        await ix.wait_acked(timeout=30)
    except InteractionTimeout:
        acks.append(math.inf)
        return
    acks.append(loop.time() - sent)
    if shown is not None:
        try:
            if ix.response_type == 5:  # deferred: the picture comes after
                await ix.wait_done(timeout=30)
            shown.append(loop.time() - sent)
        except InteractionTimeout:
            shown.append(math.inf)


async def _probe(world: World, user: FakeUser, until: float, probes: Probes) -> None:
    """Every 200 ms (or as soon as both answered, when that takes longer), ``status`` and
    ``hand`` at once, as an impatient person at the table."""
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        sent = loop.time()
        status = await world.fake.slash(user, world.channel, "shengji", "status")
        hand = await world.fake.slash(user, world.channel, "shengji", "hand")
        await asyncio.gather(_timed(status, sent, probes.status),
                             _timed(hand, sent, probes.hand, probes.hand_shown))
        await asyncio.sleep(max(0.0, sent + PROBE_EVERY - loop.time()))


async def _leave(world: World, host: FakeUser) -> None:
    """The host leaves a started table: a computer takes the seat, the host watches."""
    ix = await world.fake.slash(host, world.channel, "shengji", "leave")
    await ix.wait_acked(timeout=60)
    await wait_until(lambda: "🤖" in table_message(world).content.split("\n")[1], timeout=60)


@dataclass(frozen=True)
class Figures:
    tables: int
    seconds: float
    probes: Probes
    before: Usage  # before any table
    start: Usage  # the measured window
    end: Usage
    hands: int
    plays: int
    uploads: int

    def lines(self) -> list[str]:
        wall = self.end.at - self.start.at
        main = (self.end.main_cpu - self.start.main_cpu) / wall
        workers = (self.end.workers_cpu - self.start.workers_cpu) / wall
        waited = (self.end.waited - self.start.waited) / wall
        memory = self.end.main_kib + self.end.workers_kib
        grown = memory - self.before.main_kib - self.before.workers_kib
        return [
            percentiles("status", self.probes.status, "asked"),
            percentiles("hand", self.probes.hand, "asked"),
            percentiles("hand shown (picture)", self.probes.hand_shown, "asked"),
            percentiles("play", self.probes.play, "plays"),
            f"bot CPU: main {main:.2f} s/s, workers {workers:.2f} s/s, "
            f"total {main + workers:.2f} s/s; the event loop waited for a core "
            f"{waited:.0%} of the time",
            f"bot memory (PSS): main {self.end.main_kib / 1024:.0f} MiB + workers "
            f"{self.end.workers_kib / 1024:.0f} MiB; "
            f"{grown / 1024 / self.tables:.2f} MiB per table (growth since before the tables)",
            f"hands per minute: {self.hands * 60 / wall:.1f} ({self.hands} hands in "
            f"{wall:.0f} s, all tables; a hand lasts about two minutes at normal pace); "
            f"plays per minute: {self.plays * 60 / wall:.0f}; "
            f"table pictures uploaded: {self.uploads / wall:.1f}/s",
        ]


def _results_posted(fake: FakeDiscord, after: int) -> int:
    return sum(r.kind == "channel_message" and "Attackers' total" in (r.content or "")
               for r in fake.records[after:])


def _plays(db: str) -> int:
    """Cards played so far, every table (read from the bot's action log)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as c:
        (count,), = c.execute(
            "SELECT count(*) FROM actions WHERE json_extract(action, '$.type') = 'Play'")
    return int(count)


def _uploads(fake: FakeDiscord, after: int) -> int:
    return sum(r.kind == "message_edit" and bool(r.attachments) for r in fake.records[after:])


async def run(tables: int, seconds: float, probers: int, pace: str, work: Path,
              checkout: Path = ROOT) -> Figures:
    fake = FakeDiscord(ack_timeout=30.0)  # a late answer is measured, not refused
    await fake.start()
    guild = fake.add_guild("Load")
    channels = [fake.add_channel(guild, f"table-{i}") for i in range(tables)]
    hosts = [fake.add_user(f"P{i}", guilds=[guild]) for i in range(tables)]
    run_dir = Path(tempfile.mkdtemp(dir=work))
    db = str(run_dir / "load.sqlite3")
    env = {**PACES[pace], "SHENGJI_DB": db, "SHENGJI_GUILD_ID": str(guild.id)}
    bot = BotProcess(fake, ["-m", "bot"], log_path=run_dir / "bot.log", cwd=checkout,
                     extra_env=env)
    try:
        await bot.start()
        await bot.wait_ready(timeout=90)
        assert bot.proc is not None
        pid = bot.proc.pid
        await asyncio.sleep(1.0)  # the picture worker warms up
        before = Usage.read(pid)
        worlds = [World(fake, bot, guild, c, db, bot.log_path, {}) for c in channels]
        gate = asyncio.Semaphore(4)
        await asyncio.gather(*(start_table(w, h, gate) for w, h in zip(worlds, hosts)))
        await asyncio.gather(*(_leave(w, h) for w, h in zip(worlds[probers:], hosts[probers:])))
        loop = asyncio.get_running_loop()
        probes = Probes()
        mark = fake.mark()
        played = _plays(db)
        start = Usage.read(pid)
        until = loop.time() + seconds
        await asyncio.gather(
            *(play_when_asked(w, h, until, probes.play)
              for w, h in zip(worlds[:probers], hosts[:probers])),
            *(_probe(w, h, until, probes) for w, h in zip(worlds[:probers], hosts[:probers])))
        end = Usage.read(pid)
        return Figures(tables, seconds, probes, before, start, end,
                       _results_posted(fake, mark), _plays(db) - played,
                       _uploads(fake, mark))
    finally:
        await bot.stop(timeout=30)
        with contextlib.suppress(Exception):
            await fake.stop()


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="1,10,25,50",
                        help="numbers of tables, comma-separated (default 1,10,25,50)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured, per K")
    parser.add_argument("--probers", type=int, default=1,
                        help="tables with a person who plays and probes (default 1)")
    parser.add_argument("--pace", choices=sorted(PACES), default="normal")
    parser.add_argument("--quick", action="store_true", help="K = 1 for 5 s (a smoke test)")
    parser.add_argument("--compare", type=Path, metavar="PATH",
                        help="also run the bot of this checkout, alternately")
    args = parser.parse_args(argv)
    counts = [1] if args.quick else [int(k) for k in args.tables.split(",")]
    seconds = 5.0 if args.quick else args.seconds
    checkouts = [ROOT] + ([args.compare.resolve()] if args.compare else [])
    with tempfile.TemporaryDirectory() as tmp:
        for tables in counts:
            probers = max(1, min(args.probers, tables))
            for checkout in checkouts:
                print(f"== {tables} table(s), {probers} with a person probing; {seconds:.0f} s "
                      f"at {args.pace} pace; the bot of {checkout}", flush=True)
                figures = await run(tables, seconds, probers, args.pace, Path(tmp), checkout)
                for line in figures.lines():
                    print("  " + line, flush=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
