"""The store in a PostgreSQL database, through an asyncpg connection pool.

Chosen by ``SHENGJI_DB=postgresql://user:password@host/dbname`` (a Unix socket:
``postgresql://user@/dbname?host=/run/postgresql``). Several bot processes may share one
database: every check-then-write (the next ``seq``, the next hand, a match's status) first
locks the match's row (``SELECT ... FOR UPDATE``), so concurrent writers queue instead of
racing, and two processes starting at once migrate one after the other (an advisory lock).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import secrets
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store.migrations import Migration, bundled_migrations
from bot.store.records import StoreError, StoreUnreachable
from bot.store.sql import GameLogStore, utc_now
from bot.store.stats import PlayerStatsStore

log = logging.getLogger("bot.store")

URL_SCHEMES = ("postgresql://", "postgres://")
_MIGRATION_LOCK = 0x5368656E676A69  # "Shengji": the advisory lock held while migrating
#: The driver's errors (about the server, never built from a row's content)
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
#: What says the server cannot be reached now (no route, no name resolution, a refused
#: connection, no socket file yet, starting up or shutting down), as opposed to an answer
#: that will not change by trying again (a wrong password, no such database or role, a
#: malformed URL, a socket the bot may not open)
_UNREACHABLE = (TimeoutError, OSError, asyncpg.CannotConnectNowError,
                asyncpg.AdminShutdownError, asyncpg.CrashShutdownError,
                asyncpg.TooManyConnectionsError, asyncpg.PostgresConnectionError)


def _unreachable(exc: BaseException | None) -> bool:
    return isinstance(exc, _UNREACHABLE) and not isinstance(exc, PermissionError)


def _failed(doing: str, exc: BaseException) -> StoreError:
    """The store's error for a driver's: :class:`StoreUnreachable` where the server cannot be
    reached now (trying again later may work)."""
    return (StoreUnreachable if _unreachable(exc) else StoreError)(
        f"{doing}: {exc or type(exc).__name__}")


class _ReasonNotTraceback(logging.Filter):
    """asyncpg's pool logs a traceback each time it cannot reconnect to a server that is
    away (restarting, say): one line with the reason instead. The store says the rest, in
    words, for each thing it could not do."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if _unreachable(exc):
            record.msg, record.args = f"{record.getMessage()} ({exc or type(exc).__name__})", ()
            record.exc_info = record.exc_text = None
        return True


logging.getLogger("asyncpg.pool").addFilter(_ReasonNotTraceback())


@functools.lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    """``?`` placeholders (the store's queries) as PostgreSQL's ``$1, $2, ...``."""
    count = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


def _owner_is_gone(owner: str) -> bool:
    """A lease's owner (``host:pid:token``) is a process of this machine that has ended."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdecimal():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def redacted(url: str) -> str:
    """The URL as messages may show it: without its password (other settings: as they are)."""
    try:
        parts = urlsplit(url)
        password = parts.password if url.startswith(URL_SCHEMES) else None
    except ValueError:
        return url
    if password is None:
        return url
    netloc = parts.netloc.replace(f":{password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


class _PostgresTx:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return [tuple(r) for r in await self.conn.fetch(_numbered(sql), *params)]

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.conn.execute(_numbered(sql), *params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(_numbered(sql), rows)


class PostgresStore(GameLogStore, PlayerStatsStore):
    dialect = "postgres"
    FOR_UPDATE: ClassVar[str] = " FOR UPDATE"
    VERSION_TABLE: ClassVar[str] = (
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
        "name TEXT NOT NULL, applied_at BIGINT NOT NULL)")

    # A shard's lease is free once its heartbeat is this old (renewed every third of it),
    # or at once when its owner is a process of this machine that has ended.
    LEASE_SECONDS: ClassVar[float] = 15.0

    def __init__(self, pool: asyncpg.Pool, name: str, clock: Callable[[], datetime]) -> None:
        super().__init__(name, clock)
        self._pool: asyncpg.Pool | None = pool
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._heartbeat: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, *, migrations: Sequence[Migration] | None = None,
                   clock: Callable[[], datetime] = utc_now,
                   pool_size: int = 5) -> PostgresStore:
        """Connect to the database at ``url`` and bring its schema up to date."""
        name = redacted(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size,
                                             timeout=15, command_timeout=60)
        except (TimeoutError, *DRIVER_ERRORS, ValueError) as exc:
            raise _failed(f"cannot connect to the PostgreSQL database {name}", exc) from None
        store = cls(pool, name, clock)
        try:
            await store.migrate(bundled_migrations("postgres") if migrations is None
                                else migrations)
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
            with contextlib.suppress(StoreError):
                async with self._transaction("letting go of the shards") as tx:
                    await tx.execute("DELETE FROM shard_leases WHERE owner = ?", (self.owner,))
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    _DB_NOW = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"  # one clock for all

    async def _hold_shards(self, shard_count: int, shard_ids: tuple[int, ...]) -> None:
        stale_ms = int(self.LEASE_SECONDS * 1000)
        async with self._transaction("claiming the shards") as tx:
            await tx.execute("LOCK TABLE shard_leases IN SHARE ROW EXCLUSIVE MODE")
            rows = await tx.fetch(f"SELECT shard_id, shard_count, owner, {self._DB_NOW} - "
                                  "heartbeat_at FROM shard_leases ORDER BY shard_id")
            for shard_id, count, owner, age_ms in rows:
                if age_ms >= stale_ms or _owner_is_gone(owner):
                    continue
                seen = f"{owner}, seen {max(age_ms, 0) / 1000:.0f} s ago"
                if count != shard_count:
                    raise StoreError(
                        f"another live process ({seen}) serves shard {shard_id} of "
                        f"{count}, and this one was started with SHENGJI_SHARD_COUNT="
                        f"{shard_count}: every process of one database must use the same "
                        "count")
                if shard_id in shard_ids:
                    raise StoreError(
                        f"shard {shard_id} of {count} is served by another live process "
                        f"({seen}): stop it, or start this one with other SHENGJI_SHARDS "
                        f"(a lease is free {self.LEASE_SECONDS:.0f} s after its process "
                        "stops renewing it)")
            await tx.execute("DELETE FROM shard_leases WHERE shard_count <> ? OR shard_id IN "
                             f"({', '.join('?' * len(shard_ids))})", (shard_count, *shard_ids))
            await tx.executemany("INSERT INTO shard_leases (shard_id, shard_count, owner, "
                                 f"heartbeat_at) VALUES (?, ?, ?, {self._DB_NOW})",
                                 [(i, shard_count, self.owner) for i in shard_ids])
        log.info("serving shards %s of %d as %s", ", ".join(map(str, shard_ids)), shard_count,
                 self.owner)
        self._heartbeat = asyncio.get_running_loop().create_task(self._renew(len(shard_ids)))

    async def _renew(self, held: int) -> None:
        while True:
            await asyncio.sleep(self.LEASE_SECONDS / 3)
            try:
                async with self._transaction("renewing the shard leases") as tx:
                    rows = await tx.fetch(f"UPDATE shard_leases SET heartbeat_at = {self._DB_NOW}"
                                          " WHERE owner = ? RETURNING shard_id", (self.owner,))
            except StoreError as exc:
                log.warning("could not renew the shard leases: %s", exc)
                continue
            if len(rows) < held:
                log.error("another process took over shards of this one (%d of %d leases "
                          "left): two processes may now act on the same tables", len(rows),
                          held)

    async def __aenter__(self) -> PostgresStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _table_names(self) -> set[str]:
        rows = await self._fetch("reading the list of tables",
                                 "SELECT tablename FROM pg_tables "
                                 "WHERE schemaname = current_schema()")
        return {str(r[0]) for r in rows}

    async def _columns(self, table: str) -> list[str]:
        rows = await self._fetch(f"reading the columns of {table}",
                                 "SELECT column_name FROM information_schema.columns WHERE "
                                 "table_schema = current_schema() AND table_name = ? "
                                 "ORDER BY ordinal_position", (table,))
        return [str(r[0]) for r in rows]

    async def _after_bulk_insert(self, tx: Any) -> None:
        # an identity column does not see ids inserted explicitly: new matches follow them
        await tx.execute("SELECT setval(pg_get_serial_sequence('matches', 'id'), "
                         "COALESCE(MAX(id), 0) + 1, false) FROM matches")

    async def _lock_schema(self, tx: Any) -> None:
        await tx.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))

    async def _apply(self, tx: Any, migration: Migration) -> None:
        await tx.conn.execute(migration.sql)  # one script, run as it is written

    # -- plumbing --

    def _live(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is closed")
        return self._pool

    @contextlib.asynccontextmanager
    async def _transaction(self, doing: str) -> AsyncIterator[_PostgresTx]:
        pool = self._live()
        try:
            async with pool.acquire() as conn, conn.transaction():
                yield _PostgresTx(conn)
        except DRIVER_ERRORS as exc:
            raise _failed(f"database error while {doing}", exc) from None

    async def _fetch(self, doing: str, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        pool = self._live()
        try:
            return [tuple(r) for r in await pool.fetch(_numbered(sql), *params)]
        except DRIVER_ERRORS as exc:
            raise _failed(f"database error while {doing}", exc) from None
