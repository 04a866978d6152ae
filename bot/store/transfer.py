"""``shengji-bot migrate-db SOURCE TARGET``: copy everything from one store to another (a
SQLite file to PostgreSQL, or back), into an empty target, in one transaction.

Stop the bot first: the copy reads the source while it runs, and refuses to finish (leaving
the target empty) if the source changed meanwhile. Both ends are brought to the current
schema before the copy, so a row is copied column by column, parents before children (the
foreign keys and the action log's no-gap trigger hold throughout). Row counts per table are
compared before the copy commits.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.store import is_postgres_url, open_store
from bot.store.postgres import redacted
from bot.store.records import StoreError
from bot.store.sql import SqlBackend, Tx

log = logging.getLogger(__name__)

# Every table but schema_version, parents first, each with its primary key (read in key
# order, a chunk at a time). A table a later migration adds must be added here: copying
# refuses a schema it does not know.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("players", ("guild_id", "user_id")),
    ("guild_settings", ("guild_id",)),
    ("matches", ("id",)),
    ("match_players", ("match_id", "seat")),
    ("player_stats", ("guild_id", "user_id", "ranked")),
    ("player_ratings", ("guild_id", "user_id")),
    ("tables", ("channel_id",)),
    ("actions", ("match_id", "seq")),
    ("hands", ("match_id", "hand_no")),
)
CHUNK = 2000
# not data: the schema's own record, SQLite's counters, which live process serves a shard
NOT_COPIED = {"schema_version", "sqlite_sequence", "shard_leases"}


async def _count(store: SqlBackend, table: str) -> int:
    rows = await store._fetch(f"counting the rows of {table}", f"SELECT COUNT(*) FROM {table}")
    return int(rows[0][0])


async def _counts(store: SqlBackend) -> dict[str, int]:
    return {table: await _count(store, table) for table, _ in TABLES}


async def copy_store(source: SqlBackend, target: SqlBackend) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; the rows copied per table."""
    for store in (source, target):
        extra = await store._table_names() - {table for table, _ in TABLES} - NOT_COPIED
        if extra:
            raise StoreError(f"{store.name} holds tables migrate-db does not know "
                             f"({', '.join(sorted(extra))}); nothing was copied")
    if source.schema_version != target.schema_version:
        raise StoreError(f"the source has schema version {source.schema_version} and the "
                         f"target {target.schema_version}; nothing was copied")
    filled = {t: n for t, n in (await _counts(target)).items() if n}
    if filled:
        shown = ", ".join(f"{t}: {n}" for t, n in filled.items())
        raise StoreError(f"the target {target.name} is not empty (rows in {shown}); migrate-db "
                         "only copies into an empty database, so nothing was copied")
    columns = {table: await source._columns(table) for table, _ in TABLES}
    for table, _ in TABLES:
        if columns[table] != await target._columns(table):
            raise StoreError(f"the columns of {table} differ between the source and the "
                             "target; nothing was copied")
    before = await _counts(source)
    copied: dict[str, int] = {}
    # (inside the transaction, only ``tx`` may touch the target: a SQLite store's other
    # calls would wait for the transaction's own lock)
    async with target._transaction("copying the data") as tx:
        for table, key in TABLES:
            copied[table] = await _copy_table(source, tx, table, columns[table], key)
        await target._after_bulk_insert(tx)
        for table, _ in TABLES:
            [(stored,)] = await tx.fetch(f"SELECT COUNT(*) FROM {table}")
            if not before[table] == copied[table] == int(stored):
                raise StoreError(
                    f"{table}: {before[table]} rows in the source, {copied[table]} read, "
                    f"{stored} in the target; nothing was copied")
        if await _counts(source) != before:
            raise StoreError("the source changed while it was copied (stop the bot first); "
                             "nothing was copied")
    return copied


async def _copy_table(source: SqlBackend, tx: Tx, table: str, columns: Sequence[str],
                      key: Sequence[str]) -> int:
    names = ", ".join(columns)
    order = ", ".join(key)
    marks = ", ".join("?" * len(columns))
    at = [columns.index(k) for k in key]
    insert = f"INSERT INTO {table} ({names}) VALUES ({marks})"
    last: tuple[Any, ...] | None = None
    total = 0
    while True:
        after = "" if last is None else f"WHERE ({order}) > ({', '.join('?' * len(key))}) "
        rows = await source._fetch(
            f"reading {table}", f"SELECT {names} FROM {table} {after}ORDER BY {order} LIMIT ?",
            (*(last or ()), CHUNK))
        if not rows:
            return total
        await tx.executemany(insert, rows)
        total += len(rows)
        last = tuple(rows[-1][i] for i in at)


def _shown(database: str) -> str:
    return redacted(database)


async def migrate_db(source: str, target: str) -> dict[str, int]:
    """Open both stores (the source must exist), copy, close; the rows copied per table."""
    if source == target:
        raise StoreError("SOURCE and TARGET are the same database")
    if not is_postgres_url(source) and not Path(source).is_file():
        raise StoreError(f"there is no SQLite file {source}")
    opened: list[SqlBackend] = []
    try:
        from_store = await open_store(source)
        opened.append(from_store)
        to_store = await open_store(target)
        opened.append(to_store)
        return await copy_store(from_store, to_store)
    finally:
        for store in opened:
            await store.close()


def command(argv: Sequence[str]) -> int:
    """The ``migrate-db`` command line; 0 when copied, 2 when refused (with the reason)."""
    parser = argparse.ArgumentParser(
        prog="shengji-bot migrate-db",
        description="Copy everything from one Shengji database to another, empty one: a "
                    "SQLite file to PostgreSQL (postgresql://user:password@host/dbname) or "
                    "back. Stop the bot first.")
    parser.add_argument("source", help="the database to copy from (a file or a URL)")
    parser.add_argument("target", help="the empty database to copy into")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        copied = asyncio.run(migrate_db(args.source, args.target))
    except StoreError as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return 2
    for table, count in copied.items():
        print(f"{table:>15}: {count} rows")
    print(f"copied {sum(copied.values())} rows from {_shown(args.source)} to "
          f"{_shown(args.target)} in {time.perf_counter() - started:.1f} s; the row counts "
          "of every table match")
    return 0
