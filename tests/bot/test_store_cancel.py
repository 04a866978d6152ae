"""A write cancelled while its BEGIN runs must not wedge the store (the statement still
runs in aiosqlite's thread, so the connection is left inside a transaction)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.store import SqliteStore


async def test_a_cancelled_write_leaves_the_store_usable(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "s.sqlite3")
    try:
        for _ in range(20):  # cancel writes at many points, BEGIN among them
            task = asyncio.ensure_future(store.upsert_player(1, 2, "Ann"))
            await asyncio.sleep(0)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await store.upsert_player(1, 3, "Bea")  # no "transaction within a transaction"
        await store.set_guild_settings(1, {"preset": "classic"})
        assert await store.guild_settings(1) == {"preset": "classic"}
    finally:
        await store.close()
