"""Persistence: tables, matches and their append-only action logs, hands, players, settings,
stats and ratings.

Everything the bot keeps goes through the :class:`Store` protocol, in plain records
(``records.py``). Two backends hold it: :class:`SqliteStore` (one file, the default) and
:class:`PostgresStore` (one database shared by several bot processes), chosen by
:func:`open_store`. Nothing outside this package may import ``sqlite3``, ``aiosqlite`` or
``asyncpg``, or depend on one backend's behaviour (``tests/bot/test_store.py`` checks it, and
runs every store test on both).

Guarantees the rest of the bot builds on, on both backends:

* every write is one transaction, committed before the call returns;
* ``append_action`` refuses a gap or a duplicate ``seq``, so one action is never applied twice;
* a corrupt row raises :class:`StoreError` naming the table and key, and never shows card
  content; bulk loads (``load_tables``, ``live_tables``, ``match_history``) skip it with a
  WARNING;
* a database that is not a Shengji database, or a damaged SQLite file, is refused at start.

The schema lives in ``bot/migrations/<dialect>/NNN_name.sql``, applied in order once each and
recorded in ``schema_version``; a database from a newer schema is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from bot.store.migrations import Migration, bundled_migrations
from bot.store.postgres import URL_SCHEMES, PostgresStore
from bot.store.records import (
    FORMER_PLAYER,
    LEADERBOARD_ORDERS,
    CorruptRow,
    GuildData,
    HandRecord,
    HandStats,
    LeaderboardOrder,
    LeaderboardRow,
    MatchRecord,
    MatchStatus,
    PlayerData,
    PlayerStats,
    Rating,
    SeatChange,
    SeatKind,
    SeatRecord,
    Store,
    StoreError,
    StoreUnreachable,
    TableRecord,
    TableStatus,
    WinnerSide,
)
from bot.store.sql import utc_now
from bot.store.sqlite import SqliteStore

__all__ = [
    "FORMER_PLAYER", "LEADERBOARD_ORDERS", "CorruptRow", "GuildData", "HandRecord",
    "HandStats", "LeaderboardOrder", "LeaderboardRow", "MatchRecord", "MatchStatus",
    "Migration", "PlayerData", "PlayerStats", "PostgresStore", "Rating", "SeatChange",
    "SeatKind", "SeatRecord", "SqliteStore",
    "Store", "StoreError", "StoreUnreachable", "TableRecord", "TableStatus", "WinnerSide",
    "bundled_migrations", "is_postgres_url", "open_store",
]


def is_postgres_url(database: str | Path) -> bool:
    return str(database).startswith(URL_SCHEMES)


async def open_store(database: str | Path, *, migrations: Sequence[Migration] | None = None,
                     clock: Callable[[], datetime] = utc_now) -> SqliteStore | PostgresStore:
    """The store for a ``SHENGJI_DB`` setting: a ``postgresql://`` (or ``postgres://``) URL
    opens PostgreSQL; anything else is the path of a SQLite file."""
    if is_postgres_url(database):
        return await PostgresStore.open(str(database), migrations=migrations, clock=clock)
    return await SqliteStore.open(database, migrations=migrations, clock=clock)
