"""A database to test the store on (a SQLite file or a PostgreSQL database), ways to reach it
that bypass the store (to look at what it wrote, and to damage it), and a test clock."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import PostgresStore, SqliteStore, open_store


@dataclass
class Backend:
    """One database to test on, and ways to reach it that bypass the store."""

    dialect: str
    target: str  # SHENGJI_DB: a file path or a postgresql:// URL

    async def open(self, **options: Any) -> SqliteStore | PostgresStore:
        return await open_store(self.target, **options)

    async def raw(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One statement (``?`` placeholders) outside the store, with every check on."""
        return await self._run(sql, params, damage=False)

    async def damage(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """One statement past the schema's CHECKs, triggers and foreign keys: what a
        broken disk, a bug or a hand-edit could leave behind."""
        await self._run(sql, params, damage=True)

    async def table_names(self) -> set[str]:
        if self.dialect == "sqlite":
            sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
        else:
            sql = "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        return {r[0] for r in await self.raw(sql)}

    async def _run(self, sql: str, params: tuple[Any, ...], *, damage: bool
                   ) -> list[tuple[Any, ...]]:
        if self.dialect == "sqlite":
            return _sqlite_run(Path(self.target), sql, params, damage=damage)
        conn = await asyncpg.connect(self.target)
        try:
            count = iter(range(1, 100))
            numbered = "".join(f"${next(count)}" if c == "?" else c for c in sql)
            async with conn.transaction():
                if not damage:
                    return [tuple(r) for r in await conn.fetch(numbered, *params)]
                await conn.execute("SET LOCAL session_replication_role = replica")
                checks = await conn.fetch(
                    "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
                    "FROM pg_constraint WHERE contype = 'c' AND connamespace = "
                    "'public'::regnamespace")
                for table, name, _ in checks:
                    await conn.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
                await conn.execute(numbered, *params)
                for table, name, definition in checks:  # NOT VALID: keep the damage
                    await conn.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" '
                                       f"{definition} NOT VALID")
                return []
        finally:
            await conn.close()


def _sqlite_run(path: Path, sql: str, params: tuple[Any, ...], *, damage: bool
                ) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path, isolation_level=None) as conn:
        if not damage:
            conn.execute("PRAGMA foreign_keys=ON")
            return conn.execute(sql, params).fetchall()
        conn.execute("PRAGMA ignore_check_constraints=ON")
        triggers = conn.execute("SELECT name, sql FROM sqlite_master "
                                "WHERE type = 'trigger'").fetchall()
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(sql, params)
        for _, definition in triggers:
            conn.execute(definition)
        return []


def damage_pages(path: Path) -> None:
    """Random bytes over the file's pages after the first two (the header and the schema
    stay readable, so only a check of the pages notices)."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    assert len(data) > 6 * page, "the database is too small to damage in the middle"
    rng = random.Random(5)
    data[2 * page:len(data) - page] = rng.randbytes(len(data) - 3 * page)
    path.write_bytes(bytes(data))


T0 = datetime(2024, 5, 1, 12, 0, 0, 123_000, tzinfo=UTC)


class Clock:
    """Advances one second per reading, so times are distinct and exact to the millisecond."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


class StoreInFront:
    """The real store, of which a subclass changes some methods (a database that fails or
    is slow at one thing); everything else goes to the store."""

    def __init__(self, store: SqliteStore | PostgresStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)
