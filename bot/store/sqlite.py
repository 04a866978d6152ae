"""The store in one SQLite file, through one aiosqlite connection (the default backend).

Durability: WAL with ``synchronous=NORMAL``, so a write survives the process being killed
(an OS crash may lose the last commits). At start-up the file must be a Shengji database or
nothing: an empty (0-byte) file, a file that fails ``PRAGMA quick_check`` and another
program's database are refused with a message that says what to do, and never taken as a
new, empty database.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite

from bot.store.migrations import Migration, bundled_migrations
from bot.store.records import StoreError
from bot.store.sql import GameLogStore, log, utc_now
from bot.store.stats import PlayerStatsStore

#: The driver's errors (about the file, a statement or a lock, never a row's content)
DRIVER_ERRORS = (sqlite3.Error,)


def split_statements(migration: Migration) -> list[str]:
    """A migration's script split into complete statements (triggers stay whole)."""
    out: list[str] = []
    buffer = ""
    for line in migration.sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    rest = "\n".join(ln for ln in buffer.splitlines() if not ln.strip().startswith("--"))
    if rest.strip():
        raise StoreError(f"migration {migration.version:03d}_{migration.name} ends with an "
                         "incomplete statement")
    return out


async def _begin(db: aiosqlite.Connection) -> None:
    """BEGIN, even for a caller cancelled meanwhile: aiosqlite runs the statement in its
    thread whatever happens to the awaiting task, so a cancel that let go of the lock at
    that moment would leave the connection inside a transaction (and every later write
    failing). Wait for it, undo it, then let the cancel through."""
    begin = asyncio.ensure_future(db.execute("BEGIN IMMEDIATE"))
    try:
        await asyncio.shield(begin)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await begin
            if db.in_transaction:
                await db.execute("ROLLBACK")
        raise


class _SqliteTx:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(await self._db.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self._db.execute(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)


class SqliteStore(GameLogStore, PlayerStatsStore):
    """aiosqlite runs statements on its own thread, but a transaction belongs to the
    connection, so one ``asyncio.Lock`` keeps a coroutine's statements from landing inside
    another's transaction. ``BEGIN IMMEDIATE`` takes SQLite's write lock before reading, which
    also keeps checks such as the next ``seq`` correct when several processes share the file.
    """

    dialect = "sqlite"
    VERSION_TABLE: ClassVar[str] = (
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
        "name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT")

    def __init__(self, db: aiosqlite.Connection, path: str,
                 clock: Callable[[], datetime]) -> None:
        super().__init__(path, clock)
        self._db: aiosqlite.Connection | None = db
        self._path = path
        self._lock = asyncio.Lock()
        self._file_lock: int | None = None  # the descriptor holding <path>.lock

    @classmethod
    async def open(cls, path: str | Path, *, migrations: Sequence[Migration] | None = None,
                   clock: Callable[[], datetime] = utc_now) -> SqliteStore:
        """Open (creating if needed) the database at ``path``, check it and bring its schema
        up to date."""
        text = str(path)
        if text != ":memory:":
            file = Path(text)
            if file.exists() and file.is_file() and file.stat().st_size == 0:
                raise StoreError(
                    f"{text} is empty (0 bytes), so it holds no Shengji database: it may have "
                    "been truncated. Restore it from a backup, or delete it to start afresh "
                    "with no tables, matches or stats.")
            file.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = await aiosqlite.connect(text, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {text}: {exc}") from None
        store = cls(db, text, clock)
        try:
            # checks first: switching to WAL writes to the file, which must be ours
            await store._check_integrity()
            await store.refuse_foreign_database()
            await store._configure()
            await store.migrate(bundled_migrations("sqlite") if migrations is None
                                else migrations)
        except BaseException:
            await db.close()
            raise
        return store

    async def _hold_shards(self, shard_count: int, shard_ids: tuple[int, ...]) -> None:
        # One process serves a SQLite file, whatever its shards: an exclusive lock on
        # <file>.lock, which the OS lets go of when the process ends, however it ends.
        if self._path == ":memory:":
            return
        lock_path = f"{self._path}.lock"
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(
                f"another live bot process is serving {self._path} (it holds {lock_path}). "
                "A SQLite database is served by one process only: stop the other one, or "
                "move to PostgreSQL to run several (docs/deploy.md)") from None
        self._file_lock = fd

    async def close(self) -> None:
        if self._file_lock is not None:
            os.close(self._file_lock)  # lets go of the lock
            self._file_lock = None
        if self._db is not None:
            db, self._db = self._db, None
            async with self._lock:
                await db.close()

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _configure(self) -> None:
        db = self._conn()
        try:
            async with db.execute("PRAGMA journal_mode=WAL") as cursor:
                row = await cursor.fetchone()
            if self._path != ":memory:" and (row is None or str(row[0]).lower() != "wal"):
                log.warning("the database %s did not switch to WAL mode", self._path)
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            raise self._unusable(exc) from None

    async def _check_integrity(self) -> None:
        """``PRAGMA quick_check``: damaged pages are found now, not as errors mid-game."""
        db = self._conn()
        try:
            await db.execute("PRAGMA busy_timeout=5000")
            rows = list(await db.execute_fetchall("PRAGMA quick_check(5)"))
        except sqlite3.DatabaseError as exc:
            raise self._unusable(exc) from None
        problems = [str(r[0]) for r in rows]
        if problems != ["ok"]:
            raise self._damaged("PRAGMA quick_check: " + "; ".join(problems))

    def _unusable(self, exc: sqlite3.DatabaseError) -> StoreError:
        if "malformed" in str(exc):
            return self._damaged(str(exc))
        return StoreError(f"{self._path} is not a usable SQLite database: {exc}")

    def _damaged(self, problem: str) -> StoreError:
        return StoreError(
            f"{self._path} is damaged ({problem}). Stop every bot process using it and "
            "restore it from a backup; `sqlite3 FILE .recover` may save what is left.")

    async def _table_names(self) -> set[str]:
        rows = await self._fetch("reading the list of tables",
                                 "SELECT name FROM sqlite_master WHERE type = 'table' "
                                 "AND name NOT LIKE 'sqlite_%'")
        return {str(r[0]) for r in rows}

    async def _columns(self, table: str) -> list[str]:
        rows = await self._fetch(f"reading the columns of {table}",
                                 "SELECT name FROM pragma_table_info(?) ORDER BY cid", (table,))
        return [str(r[0]) for r in rows]

    async def _apply(self, tx: Any, migration: Migration) -> None:
        for statement in split_statements(migration):
            await tx.execute(statement)

    # -- plumbing --

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    @contextlib.asynccontextmanager
    async def _transaction(self, doing: str) -> AsyncIterator[_SqliteTx]:
        async with self._lock:
            db = self._conn()
            try:
                await _begin(db)
                try:
                    yield _SqliteTx(db)
                except BaseException:
                    if db.in_transaction:
                        await db.execute("ROLLBACK")
                    raise
                await db.execute("COMMIT")
            except sqlite3.Error as exc:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise StoreError(f"database error while {doing}: {exc}") from None

    async def _fetch(self, doing: str, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._lock:
            try:
                return list(await self._conn().execute_fetchall(sql, params))
            except sqlite3.Error as exc:
                raise StoreError(f"database error while {doing}: {exc}") from None
