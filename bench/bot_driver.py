"""What the bot benchmarks share: tables started and played through the fake Discord, the
bot process's CPU, memory and scheduling read from ``/proc``, and percentile lines.

Not a benchmark itself: ``bench/load.py``, ``bench/shards.py`` and ``bench/memory.py``
use it.
"""

from __future__ import annotations

import asyncio
import math
import os
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bot.harness import World, act_when_asked, has_table, table_message, wait_until  # noqa: E402
from tests.fakediscord import FakeUser  # noqa: E402
from tests.fakediscord.interactions import InteractionTimeout  # noqa: E402

LATE = 3.0  # Discord's limit: an interaction not acknowledged by then has failed


async def start_table(world: World, host: FakeUser, gate: asyncio.Semaphore,
                      preset: str = "classic") -> None:
    """``host`` opens a table and starts it with three computers (a few at a time: a burst
    of fifty would measure the start, not the play)."""
    async with gate:
        ix = await world.fake.slash(host, world.channel, "shengji", "create", preset=preset)
        await ix.wait_acked(timeout=60)
        await wait_until(lambda: has_table(world), timeout=60)
        start = table_message(world).button("Start")
        click = await world.fake.click(host, table_message(world), start["custom_id"])
        await click.wait_acked(timeout=60)


async def play_when_asked(world: World, user: FakeUser, until: float,
                          acks: list[float]) -> None:
    """Play ``user``'s seat (seat 1) as a quick person would until ``until`` (loop time):
    the first card the bot's autocomplete offers as soon as it is their turn, and bury or
    swap when asked. ``acks``: each play's acknowledgement time (inf: never)."""
    loop = asyncio.get_running_loop()
    name = f"1. {user.name}"
    while loop.time() < until:
        try:
            status = table_message(world).content
        except LookupError:
            status = ""
        if f"{name} to play" in status:
            try:
                choices = await world.fake.autocomplete(user, world.channel, "shengji", "play",
                                                        focused="cards", value="", timeout=30)
            except InteractionTimeout:
                continue
            if choices:
                sent = loop.time()
                ix = await world.fake.slash(user, world.channel, "shengji", "play",
                                            cards=choices[0]["value"])
                try:
                    await ix.wait_acked(timeout=30)
                except InteractionTimeout:
                    acks.append(math.inf)  # not acknowledged at all
                    continue
                acks.append(loop.time() - sent)
        elif "burying" in status or "may swap" in status:
            await act_when_asked(world, user, name)
        await asyncio.sleep(0.05)


def percentiles(label: str, seconds: list[float], what: str = "plays") -> str:
    """p50/p90/p95/p99/max over ``seconds``; one never acknowledged counts as infinitely
    late, and those past Discord's 3 s are counted."""
    ms = sorted(s * 1000 for s in seconds)
    if len(ms) < 2:
        return f"{label:<28} {what} {len(ms):>5}  (too few to say)"
    q = statistics.quantiles(ms, n=100, method="inclusive")
    late = sum(m > LATE * 1000 for m in ms)
    return (f"{label:<28} {what} {len(ms):>5}  p50 {q[49]:8.1f} ms  p90 {q[89]:8.1f} ms  "
            f"p95 {q[94]:8.1f} ms  p99 {q[98]:8.1f} ms  max {ms[-1]:8.1f} ms  "
            f"over 3 s: {late}")


# -- the bot process, from /proc ----------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def pss_kib(pid: int) -> int:
    """The process's proportional share of memory: pages it shares with other processes
    (the workers share the fork server's, copy-on-write) are split between them, so the
    sum over processes is what they take together."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return rss_kib(pid)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process has used (its own, not its children's)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def run_delay(pid: int) -> float:
    """Seconds the process's main thread (the event loop) has waited, runnable, for a CPU."""
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[1]) / 1e9


def descendants(pid: int) -> list[int]:
    """The process's descendants: the bot's fork server and the picture and
    computer-player workers it started."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                continue
    found: list[int] = []
    below = {pid}
    while below:
        below = {child for child, parent in parents.items() if parent in below}
        found += sorted(below)
    return found


@dataclass(frozen=True)
class Usage:
    """A reading of the bot process and its workers."""

    at: float  # loop time
    main_cpu: float
    workers_cpu: float
    main_kib: int  # proportional set size (see pss_kib)
    workers_kib: int
    waited: float  # run delay of the main thread

    @classmethod
    def read(cls, pid: int) -> Usage:
        workers = descendants(pid)
        cpu, memory = 0.0, 0
        for child in workers:
            try:
                cpu += cpu_seconds(child)
                memory += pss_kib(child)
            except OSError:
                pass  # (it just ended)
        return cls(asyncio.get_running_loop().time(), cpu_seconds(pid), cpu, pss_kib(pid),
                   memory, run_delay(pid))
