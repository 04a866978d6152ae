"""How fast a table answers while its computer players think.

Four ``hard`` computers play at one table (search in a worker process, as the bot runs
them); every 50 ms a player's command that needs the table's lock is timed (a refused
``join``: the lock is taken, the refusal comes back). The table's lock is never held
through a computer's thinking, so these stay short while decisions take hundreds of
milliseconds; the decision times are printed beside them.

    .venv/bin/python bench/table_answers.py --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai import EngineDeciders
from bot.errors import BotError
from bot.store import SqliteStore
from bot.table_data import Table, TableSettings
from bot.tables import TableService
from engine.ai import AiPool


class Quiet:
    async def table_changed(self, table: Table, events: object) -> None:
        pass

    async def tell_seat(self, table: Table, seat: int, events: object) -> None:
        pass


class Timed(EngineDeciders):
    def __init__(self, pool: AiPool) -> None:
        super().__init__(pool)
        self.times: list[float] = []

    async def decide(self, game, seat, level, seed):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        action = await super().decide(game, seat, level, seed)
        self.times.append((time.perf_counter() - start) * 1000)
        return action


def _figures(samples: list[float]) -> str:
    samples = sorted(samples)
    p95 = samples[max(0, int(len(samples) * 0.95) - 1)]
    return (f"p50 {statistics.median(samples):.1f} ms, p95 {p95:.1f} ms, "
            f"max {samples[-1]:.1f} ms over {len(samples)}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "bench.sqlite3")
        deciders = Timed(AiPool(workers=1))
        settings = TableSettings(turn_timer=60, deal_pause=0, last_chance=0, hand_pause=0,
                                 ai_pause=0)
        service = TableService(store, Quiet(), deciders, default_settings=settings, seed=1)
        try:
            await service.create(channel_id=1, guild_id=1, user_id=10, name="Host",
                                 preset="classic", options={})
            for seat in (1, 2, 3):
                await service.add_ai(1, 10, seat, "hard")
            await service.start(1, 10)
            await service.leave(1, 10)  # a computer takes the host's seat too
            answers: list[float] = []
            end = time.perf_counter() + args.seconds
            while time.perf_counter() < end:
                start = time.perf_counter()
                with contextlib.suppress(BotError):
                    await service.join(1, 99, "Probe")
                answers.append((time.perf_counter() - start) * 1000)
                await asyncio.sleep(0.05)
            print(f"a command on the table: {_figures(answers)}")
            print(f"a hard computer's decision: {_figures(deciders.times)}")
        finally:
            await service.close()
            deciders.close()
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
