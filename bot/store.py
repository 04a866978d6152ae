"""Persistence: tables, matches and their append-only action logs, hands, players, settings.

Everything the bot keeps goes through the :class:`Store` protocol, in plain records (JSON-able
dicts for rules, options and actions; no discord or engine objects). :class:`SqliteStore` is
the one backend today; a PostgreSQL one is planned, so nothing outside this module may import
``sqlite3``/``aiosqlite`` or depend on SQLite behaviour (``tests/bot/test_store.py`` checks it).

Guarantees the rest of the bot builds on:

* every write is one transaction, committed before the call returns (WAL, ``synchronous=NORMAL``:
  it survives the process being killed; an OS crash may lose the last commits);
* ``append_action`` refuses a gap or a duplicate ``seq``, so one action is never applied twice;
* a corrupt row raises :class:`StoreError` naming the table and key, and never shows card
  content; bulk loads (``load_tables``, ``unfinished_matches``) skip it with a WARNING.

The schema lives in ``bot/migrations/NNN_name.sql``, applied in order once each and recorded
in ``schema_version``; a database from a newer schema is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import json
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Literal, Protocol

import aiosqlite

log = logging.getLogger(__name__)

SeatKind = Literal["human", "ai"]
TableStatus = Literal["lobby", "playing", "finished"]
MatchStatus = Literal["playing", "finished", "abandoned"]

_SEAT_KINDS = ("human", "ai")
_TABLE_STATUSES = ("lobby", "playing", "finished")
_MATCH_STATUSES = ("playing", "finished", "abandoned")
_INT64 = (-(2**63), 2**63 - 1)


class StoreError(Exception):
    """Something the store could not do, said in words (no card or hand content)."""


# -- records -------------------------------------------------------------------------------


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise StoreError(message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_id(value: Any, name: str, *, optional: bool = False) -> None:
    if optional and value is None:
        return
    _check(_is_int(value) and _INT64[0] <= value <= _INT64[1],
           f"{name} must be a 64-bit integer")


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sits in a seat: a Discord user (``user_id``) or a computer player (``ai_level``)."""

    kind: SeatKind
    user_id: int | None
    name: str
    ai_level: str | None = None

    def __post_init__(self) -> None:
        _check(self.kind in _SEAT_KINDS, f"seat kind must be one of {_SEAT_KINDS}")
        if self.kind == "human":
            _check_id(self.user_id, "a human seat's user_id")
        else:
            _check(self.user_id is None, "a computer seat has no user_id")
        _check(isinstance(self.name, str), "a seat's name must be text")
        _check(self.ai_level is None or isinstance(self.ai_level, str),
               "a seat's ai_level must be text or None")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "user_id": self.user_id, "name": self.name,
                "ai_level": self.ai_level}

    @classmethod
    def from_dict(cls, data: Any) -> SeatRecord:
        _check(isinstance(data, dict), "a seat must be an object")
        return cls(kind=data["kind"], user_id=data.get("user_id"), name=data["name"],
                   ai_level=data.get("ai_level"))


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table in one channel: its lobby, options and (while playing) its match."""

    channel_id: int
    guild_id: int
    host_id: int
    message_id: int | None
    preset: str
    options: dict[str, Any]  # rule options over the preset (Ruleset.to_dict keys)
    settings: dict[str, Any]  # table settings (turn timer, ranked, ...)
    seats: list[SeatRecord | None]  # one per seat; None: empty
    match_id: int | None
    status: TableStatus
    locale: str

    def __post_init__(self) -> None:
        for name in ("channel_id", "guild_id", "host_id"):
            _check_id(getattr(self, name), name)
        _check_id(self.message_id, "message_id", optional=True)
        _check_id(self.match_id, "match_id", optional=True)
        _check(isinstance(self.preset, str), "preset must be text")
        _check(isinstance(self.options, dict), "options must be an object")
        _check(isinstance(self.settings, dict), "settings must be an object")
        _check(isinstance(self.seats, (list, tuple)), "seats must be a list")
        _check(all(s is None or isinstance(s, SeatRecord) for s in self.seats),
               "each seat must be a SeatRecord or None")
        object.__setattr__(self, "seats", list(self.seats))
        _check(self.status in _TABLE_STATUSES, f"table status must be one of {_TABLE_STATUSES}")
        _check(isinstance(self.locale, str), "locale must be text")


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match: what ``engine.record.GameRecord`` needs (seed, rules) plus who played it."""

    id: int
    guild_id: int
    channel_id: int
    seed: int
    rules: dict[str, Any]  # Ruleset.to_dict()
    seats: list[SeatRecord]
    status: MatchStatus
    winner_team: int | None
    started_at: datetime
    finished_at: datetime | None
    hands_played: int
    ranked: bool = False

    def __post_init__(self) -> None:
        _check(all(isinstance(s, SeatRecord) for s in self.seats),
               "each seat of a match must be a SeatRecord")
        object.__setattr__(self, "seats", list(self.seats))
        _check(self.status in _MATCH_STATUSES, f"match status must be one of {_MATCH_STATUSES}")


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One scored hand. Teams are numbered as the engine does (``Ruleset.seating.holder``);
    levels are per team (index = team) as rank labels, so per-player levels follow from the
    seats."""

    match_id: int
    hand_no: int  # 0-based, Game.hand_number
    dealer: int  # seat
    level: str  # the rank played, e.g. "2"
    trump: str | None  # trump suit label; None: no trump
    defenders_team: int  # the dealer's team (庄家)
    attacker_points: int  # final total, kitty included
    kitty_multiplier: int  # 0: the attackers did not capture the kitty
    last_trick_team: int
    winner_team: int | None  # the team that went up; None: nobody
    levels_gained: int  # how far winner_team went up (0 if nobody)
    levels_before: list[str]
    levels_after: list[str]
    result: dict[str, Any]  # the engine's HandResult as a dict the caller builds
    last_trick_seat: int | None = None  # who won the last trick (kitties captured per player)

    def __post_init__(self) -> None:
        for name in ("match_id", "hand_no", "dealer", "defenders_team", "attacker_points",
                     "kitty_multiplier", "last_trick_team", "levels_gained"):
            _check(_is_int(getattr(self, name)), f"hand {name} must be an integer")
        for name in ("winner_team", "last_trick_seat"):
            value = getattr(self, name)
            _check(value is None or _is_int(value), f"hand {name} must be an integer or None")
        _check(isinstance(self.level, str), "hand level must be text")
        _check(self.trump is None or isinstance(self.trump, str), "hand trump must be text")
        for name in ("levels_before", "levels_after"):
            value = getattr(self, name)
            _check(isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value),
                   f"hand {name} must be a list of rank labels")
            object.__setattr__(self, name, list(value))
        _check(isinstance(self.result, dict), "hand result must be an object")


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One line of a leaderboard: finished matches of one user in one server."""

    user_id: int
    name: str
    played: int  # finished matches (won or lost)
    won: int
    abandoned: int


LeaderboardOrder = Literal["rating", "wins", "levels"]
LEADERBOARD_ORDERS: tuple[LeaderboardOrder, ...] = ("rating", "wins", "levels")


@dataclass(frozen=True, slots=True)
class HandStats:
    """What one hand adds to one user's totals (see migration 002 for the meanings)."""

    user_id: int
    defending: bool  # on the dealer's team
    won: bool  # the user's team went up
    levels_gained: int
    kitty_captured: bool


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating (mu, sigma) and how many ranked hands made it."""

    user_id: int
    mu: float
    sigma: float
    hands: int = 0

    @property
    def score(self) -> float:
        """The conservative estimate mu - 3 sigma: what leaderboards sort by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything one user did in one server: all matches, and the ranked part."""

    user_id: int
    name: str
    played: int  # finished matches, ranked and casual
    won: int
    abandoned: int
    ranked_played: int
    ranked_won: int
    hands_defending: int
    won_defending: int
    hands_attacking: int
    won_attacking: int
    levels_gained: int
    kitties_captured: int
    rating: Rating | None  # None: no ranked hand yet
    position: int | None  # place on the server's rating leaderboard


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a ranked leaderboard (ranked matches and hands only)."""

    position: int  # 1-based
    user_id: int
    name: str
    rating: Rating | None
    played: int
    won: int
    levels_gained: int


# -- the interface -------------------------------------------------------------------------


class Store(Protocol):
    """What the bot may ask of storage. Every method is one transaction."""

    async def close(self) -> None: ...

    # tables
    async def save_table(self, table: TableRecord) -> None: ...
    async def delete_table(self, channel_id: int) -> None: ...
    async def load_table(self, channel_id: int) -> TableRecord | None: ...
    async def load_tables(self) -> list[TableRecord]: ...

    # matches
    async def create_match(self, guild_id: int, channel_id: int, seed: int,
                           rules: dict[str, Any], seats: Sequence[SeatRecord], *,
                           ranked: bool = False) -> int: ...
    async def append_action(self, match_id: int, seq: int, action: dict[str, Any]) -> None: ...
    async def load_actions(self, match_id: int) -> list[dict[str, Any]]: ...
    async def record_hand(self, hand: HandRecord) -> None: ...
    async def finish_match(self, match_id: int, status: MatchStatus,
                           winner_team: int | None) -> None: ...
    async def load_match(self, match_id: int) -> MatchRecord | None: ...
    async def unfinished_matches(self) -> list[MatchRecord]: ...
    async def match_hands(self, match_id: int) -> list[HandRecord]: ...

    # per guild
    async def upsert_player(self, guild_id: int, user_id: int, name: str) -> None: ...
    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None: ...

    # queries (history, leaderboards)
    async def match_history(self, guild_id: int, *, user_id: int | None = None,
                            limit: int = 20, before_id: int | None = None
                            ) -> list[MatchRecord]: ...
    async def player_totals(self, guild_id: int, *, ranked: bool | None = None,
                            limit: int = 100) -> list[PlayerTotals]: ...

    # stats and ratings (bot/stats.py)
    async def stats_progress(self, match_id: int) -> int: ...
    async def pending_stats(self) -> list[int]: ...
    async def load_ratings(self, guild_id: int, user_ids: Sequence[int]
                           ) -> dict[int, Rating]: ...
    async def count_hand(self, match_id: int, hand_no: int, stats: Sequence[HandStats],
                         ratings: Sequence[Rating]) -> None: ...
    async def leaderboard(self, guild_id: int, order: LeaderboardOrder, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[LeaderboardRow], int]: ...
    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None: ...


async def open_store(database: str | Path) -> Store:
    """The store for a setting: a file path (SQLite). ``postgresql://`` is not built yet."""
    text = str(database)
    if text.startswith(("postgres://", "postgresql://")):
        raise StoreError("the PostgreSQL store is not available yet; use a SQLite file path")
    return await SqliteStore.open(text)


# -- migrations ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The script split into complete statements (triggers stay whole)."""
        out: list[str] = []
        buffer = ""
        for line in self.sql.splitlines(keepends=True):
            buffer += line
            if sqlite3.complete_statement(buffer):
                out.append(buffer.strip())
                buffer = ""
        rest = "\n".join(ln for ln in buffer.splitlines() if not ln.strip().startswith("--"))
        if rest.strip():
            raise StoreError(f"migration {self.version:03d}_{self.name} ends with an "
                             "incomplete statement")
        return out


_MIGRATION_FILE = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


def bundled_migrations() -> list[Migration]:
    """``bot/migrations/NNN_name.sql`` in order; versions must run 1, 2, 3... without gaps."""
    found: list[Migration] = []
    for entry in importlib.resources.files("bot.migrations").iterdir():
        match = _MIGRATION_FILE.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise StoreError(f"bot/migrations must be numbered 1..n without gaps, found {versions}")
    return found


# -- SQLite --------------------------------------------------------------------------------


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _to_ms(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def _from_ms(value: Any) -> datetime:
    _check(_is_int(value), "a time column is not an integer")
    return _EPOCH + timedelta(milliseconds=value)


def _dumps(value: Any, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        raise StoreError(f"{what} cannot be stored as JSON") from None


def _loads(text: Any, column: str) -> Any:
    if not isinstance(text, str):
        raise StoreError(f"column {column} is not text")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise StoreError(f"column {column} is not valid JSON") from None


def _corrupt(table: str, key: str, exc: Exception) -> StoreError:
    # Only our own messages are shown: other exceptions may quote the row's content.
    reason = str(exc) if isinstance(exc, StoreError) else f"unreadable ({type(exc).__name__})"
    return StoreError(f"corrupt row in {table} ({key}): {reason}")


def _seat_list(data: Any, column: str, *, empty_allowed: bool) -> list[Any]:
    _check(isinstance(data, list), f"column {column} is not a list")
    return [None if (s is None and empty_allowed) else SeatRecord.from_dict(s) for s in data]


_TABLE_COLUMNS = ("channel_id, guild_id, host_id, message_id, preset, options, settings, seats, "
                  "match_id, status, locale")
_MATCH_COLUMNS = ("id, guild_id, channel_id, seed, rules, seats, status, winner_team, "
                  "started_at, finished_at, hands_played, ranked")
_HAND_COLUMNS = ("match_id, hand_no, dealer, level, trump, defenders_team, attacker_points, "
                 "kitty_multiplier, last_trick_team, winner_team, levels_gained, levels_before, "
                 "levels_after, result, last_trick_seat")


def _table_from_row(row: Sequence[Any]) -> TableRecord:
    try:
        return TableRecord(
            channel_id=row[0], guild_id=row[1], host_id=row[2], message_id=row[3],
            preset=row[4], options=_loads(row[5], "options"),
            settings=_loads(row[6], "settings"),
            seats=_seat_list(_loads(row[7], "seats"), "seats", empty_allowed=True),
            match_id=row[8], status=row[9], locale=row[10])
    except (StoreError, KeyError, TypeError, ValueError) as exc:
        raise _corrupt("tables", f"channel_id={row[0]}", exc) from None


def _match_from_row(row: Sequence[Any]) -> MatchRecord:
    try:
        rules = _loads(row[4], "rules")
        _check(isinstance(rules, dict), "column rules is not an object")
        return MatchRecord(
            id=row[0], guild_id=row[1], channel_id=row[2], seed=row[3], rules=rules,
            seats=_seat_list(_loads(row[5], "seats"), "seats", empty_allowed=False),
            status=row[6], winner_team=row[7], started_at=_from_ms(row[8]),
            finished_at=None if row[9] is None else _from_ms(row[9]), hands_played=row[10],
            ranked=bool(row[11]))
    except (StoreError, KeyError, TypeError, ValueError, OverflowError, OSError) as exc:
        raise _corrupt("matches", f"id={row[0]}", exc) from None


def _hand_from_row(row: Sequence[Any]) -> HandRecord:
    try:
        result = _loads(row[13], "result")
        return HandRecord(
            match_id=row[0], hand_no=row[1], dealer=row[2], level=row[3], trump=row[4],
            defenders_team=row[5], attacker_points=row[6], kitty_multiplier=row[7],
            last_trick_team=row[8], winner_team=row[9], levels_gained=row[10],
            levels_before=_loads(row[11], "levels_before"),
            levels_after=_loads(row[12], "levels_after"), result=result,
            last_trick_seat=row[14])
    except (StoreError, KeyError, TypeError, ValueError) as exc:
        raise _corrupt("hands", f"match_id={row[0]}, hand_no={row[1]}", exc) from None


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


class SqliteStore(Store):
    """The store in one SQLite file, through one aiosqlite connection.

    aiosqlite runs statements on its own thread, but a transaction belongs to the connection,
    so one ``asyncio.Lock`` keeps a coroutine's statements from landing inside another's
    transaction. ``BEGIN IMMEDIATE`` takes SQLite's write lock before reading, which also keeps
    checks such as the next ``seq`` correct when several processes share the file.
    """

    def __init__(self, db: aiosqlite.Connection, path: str,
                 clock: Callable[[], datetime]) -> None:
        self._db: aiosqlite.Connection | None = db
        self._path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self.schema_version = 0

    # -- lifecycle --

    @classmethod
    async def open(cls, path: str | Path, *, migrations: Sequence[Migration] | None = None,
                   clock: Callable[[], datetime] = _utc_now) -> SqliteStore:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        text = str(path)
        if text != ":memory:":
            Path(text).parent.mkdir(parents=True, exist_ok=True)
        try:
            db = await aiosqlite.connect(text, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {text}: {exc}") from None
        store = cls(db, text, clock)
        try:
            await store._configure()
            await store._migrate(bundled_migrations() if migrations is None else migrations)
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
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
            await db.execute("PRAGMA busy_timeout=5000")
        except sqlite3.Error as exc:
            raise StoreError(f"{self._path} is not a usable SQLite database: {exc}") from None

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply the missing migrations, each in its own transaction with its version row."""
        known = migrations[-1].version if migrations else 0
        async with self._transaction("creating the schema_version table") as tx:
            await tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT")
        for migration in [None, *migrations]:  # None: only check the version
            async with self._transaction("applying migrations") as tx:
                applied = {v: n for v, n in await tx.execute_fetchall(
                    "SELECT version, name FROM schema_version")}
                self.schema_version = max(applied, default=0)
                if self.schema_version > known:
                    raise StoreError(
                        f"the database {self._path} has schema version {self.schema_version}, "
                        f"newer than this bot knows ({known}); upgrade the bot or use a backup")
                if migration is None:
                    continue
                if migration.version in applied:
                    if applied[migration.version] != migration.name:
                        raise StoreError(
                            f"schema version {migration.version} of {self._path} is "
                            f"'{applied[migration.version]}', this bot expects "
                            f"'{migration.name}'")
                    continue
                for statement in migration.statements():
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version VALUES (?, ?, ?)",
                                 (migration.version, migration.name, self._now()))
                self.schema_version = migration.version
                log.info("applied migration %03d_%s to %s", migration.version, migration.name,
                         self._path)

    # -- plumbing --

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    def _now(self) -> int:
        return _to_ms(self._clock())

    @contextlib.asynccontextmanager
    async def _transaction(self, doing: str) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction under the lock: committed on success, else rolled back."""
        async with self._lock:
            db = self._conn()
            try:
                await _begin(db)
                try:
                    yield db
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

    # -- tables --

    async def save_table(self, table: TableRecord) -> None:
        if not isinstance(table, TableRecord):
            raise StoreError("save_table needs a TableRecord")
        seats = _dumps([None if s is None else s.to_dict() for s in table.seats], "seats")
        now = self._now()
        async with self._transaction(f"saving the table in channel {table.channel_id}") as tx:
            await tx.execute(
                f"INSERT INTO tables ({_TABLE_COLUMNS}, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
                "host_id = excluded.host_id, message_id = excluded.message_id, "
                "preset = excluded.preset, options = excluded.options, "
                "settings = excluded.settings, seats = excluded.seats, "
                "match_id = excluded.match_id, status = excluded.status, "
                "locale = excluded.locale, updated_at = excluded.updated_at",
                (table.channel_id, table.guild_id, table.host_id, table.message_id,
                 table.preset, _dumps(table.options, "table options"),
                 _dumps(table.settings, "table settings"), seats, table.match_id,
                 table.status, table.locale, now, now))

    async def delete_table(self, channel_id: int) -> None:
        async with self._transaction(f"deleting the table in channel {channel_id}") as tx:
            await tx.execute("DELETE FROM tables WHERE channel_id = ?", (channel_id,))

    async def load_table(self, channel_id: int) -> TableRecord | None:
        rows = await self._fetch(f"loading the table in channel {channel_id}",
                                 f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ?",
                                 (channel_id,))
        return _table_from_row(rows[0]) if rows else None

    async def load_tables(self) -> list[TableRecord]:
        rows = await self._fetch("loading the tables",
                                 f"SELECT {_TABLE_COLUMNS} FROM tables ORDER BY channel_id")
        tables = []
        for row in rows:
            try:
                tables.append(_table_from_row(row))
            except StoreError as exc:
                log.warning("skipped a table: %s", exc)
        return tables

    # -- matches --

    async def create_match(self, guild_id: int, channel_id: int, seed: int,
                           rules: dict[str, Any], seats: Sequence[SeatRecord], *,
                           ranked: bool = False) -> int:
        _check_id(guild_id, "guild_id")
        _check_id(channel_id, "channel_id")
        _check_id(seed, "a match seed")
        _check(isinstance(rules, dict), "a match's rules must be an object")
        _check(len(seats) > 0 and all(isinstance(s, SeatRecord) for s in seats),
               "a match needs a SeatRecord in every seat")
        seats_json = _dumps([s.to_dict() for s in seats], "seats")
        now = self._now()
        async with self._transaction(f"creating a match in channel {channel_id}") as tx:
            cursor = await tx.execute(
                "INSERT INTO matches (guild_id, channel_id, seed, rules, seats, ranked, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, seed, _dumps(rules, "rules"), seats_json,
                 int(ranked), now))
            match_id = cursor.lastrowid
            assert match_id is not None
            for seat, record in enumerate(seats):
                if record.user_id is not None:
                    await self._upsert_player(tx, guild_id, record.user_id, record.name, now)
                # Partners sit opposite: the team is seat % 2, as engine.teams.Seating.holder.
                await tx.execute(
                    "INSERT INTO match_players (match_id, seat, guild_id, kind, user_id, name, "
                    "ai_level, team, ranked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (match_id, seat, guild_id, record.kind, record.user_id, record.name,
                     record.ai_level, seat % 2, int(ranked)))
        return match_id

    async def _match_status(self, tx: aiosqlite.Connection, match_id: int) -> str:
        rows = list(await tx.execute_fetchall("SELECT status FROM matches WHERE id = ?",
                                              (match_id,)))
        if not rows:
            raise StoreError(f"there is no match {match_id}")
        return str(rows[0][0])

    async def append_action(self, match_id: int, seq: int, action: dict[str, Any]) -> None:
        _check(_is_int(seq) and seq >= 0, "seq must be an integer from 0")
        _check(isinstance(action, dict), "an action must be an object")
        text = _dumps(action, "the action")
        async with self._transaction(f"appending action {seq} of match {match_id}") as tx:
            status = await self._match_status(tx, match_id)
            if status != "playing":
                raise StoreError(f"match {match_id} is {status}; no more actions are stored")
            rows = list(await tx.execute_fetchall(
                "SELECT MAX(seq) FROM actions WHERE match_id = ?", (match_id,)))
            expected = 0 if rows[0][0] is None else rows[0][0] + 1
            if seq < expected:
                raise StoreError(f"action {seq} of match {match_id} is already stored")
            if seq > expected:
                raise StoreError(f"action {seq} of match {match_id} would leave a gap: the "
                                 f"next is {expected}")
            await tx.execute("INSERT INTO actions (match_id, seq, action, created_at) "
                             "VALUES (?, ?, ?, ?)", (match_id, seq, text, self._now()))

    async def load_actions(self, match_id: int) -> list[dict[str, Any]]:
        rows = await self._fetch(f"loading the actions of match {match_id}",
                                 "SELECT seq, action FROM actions WHERE match_id = ? "
                                 "ORDER BY seq", (match_id,))
        actions: list[dict[str, Any]] = []
        for index, (seq, text) in enumerate(rows):
            try:
                _check(seq == index, f"seq {index} is missing")
                action = _loads(text, "action")
                _check(isinstance(action, dict), "column action is not an object")
            except StoreError as exc:
                raise _corrupt("actions", f"match_id={match_id}, seq={seq}", exc) from None
            actions.append(action)
        return actions

    async def record_hand(self, hand: HandRecord) -> None:
        if not isinstance(hand, HandRecord):
            raise StoreError("record_hand needs a HandRecord")
        values = (hand.match_id, hand.hand_no, hand.dealer, hand.level, hand.trump,
                  hand.defenders_team, hand.attacker_points, hand.kitty_multiplier,
                  hand.last_trick_team, hand.winner_team, hand.levels_gained,
                  _dumps(hand.levels_before, "levels_before"),
                  _dumps(hand.levels_after, "levels_after"),
                  _dumps(hand.result, "the hand result"), hand.last_trick_seat, self._now())
        doing = f"recording hand {hand.hand_no} of match {hand.match_id}"
        async with self._transaction(doing) as tx:
            status = await self._match_status(tx, hand.match_id)
            if status != "playing":
                raise StoreError(f"match {hand.match_id} is {status}; no more hands are stored")
            rows = list(await tx.execute_fetchall(
                "SELECT hands_played FROM matches WHERE id = ?", (hand.match_id,)))
            expected = rows[0][0]
            if hand.hand_no != expected:
                state = "is already stored" if hand.hand_no < expected else "would leave a gap"
                raise StoreError(f"hand {hand.hand_no} of match {hand.match_id} {state}: the "
                                 f"next is {expected}")
            await tx.execute(f"INSERT INTO hands ({_HAND_COLUMNS}, recorded_at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
            await tx.execute("UPDATE matches SET hands_played = hands_played + 1 WHERE id = ?",
                             (hand.match_id,))

    async def finish_match(self, match_id: int, status: MatchStatus,
                           winner_team: int | None) -> None:
        if status == "finished":
            _check(_is_int(winner_team), "a finished match needs a winner_team")
        elif status == "abandoned":
            _check(winner_team is None, "an abandoned match has no winner_team")
        else:
            raise StoreError("finish_match takes status 'finished' or 'abandoned'")
        async with self._transaction(f"finishing match {match_id}") as tx:
            current = await self._match_status(tx, match_id)
            if current != "playing":
                raise StoreError(f"match {match_id} is already {current}")
            await tx.execute("UPDATE matches SET status = ?, winner_team = ?, finished_at = ? "
                             "WHERE id = ?", (status, winner_team, self._now(), match_id))
            await tx.execute(
                "UPDATE match_players SET outcome = CASE WHEN ? = 'abandoned' THEN 'abandoned' "
                "WHEN team = ? THEN 'won' ELSE 'lost' END WHERE match_id = ?",
                (status, winner_team, match_id))
            # A user in two seats of one match (testing alone) counts once.
            await tx.execute(
                "INSERT INTO player_stats (guild_id, user_id, ranked, played, won, abandoned) "
                "SELECT guild_id, user_id, ranked, MAX(outcome <> 'abandoned'), "
                "MAX(outcome = 'won'), MAX(outcome = 'abandoned') FROM match_players "
                "WHERE match_id = ? AND user_id IS NOT NULL GROUP BY user_id "
                "ON CONFLICT (guild_id, user_id, ranked) DO UPDATE SET "
                "played = played + excluded.played, won = won + excluded.won, "
                "abandoned = abandoned + excluded.abandoned", (match_id,))

    async def load_match(self, match_id: int) -> MatchRecord | None:
        rows = await self._fetch(f"loading match {match_id}",
                                 f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?",
                                 (match_id,))
        return _match_from_row(rows[0]) if rows else None

    async def unfinished_matches(self) -> list[MatchRecord]:
        rows = await self._fetch("loading the unfinished matches",
                                 f"SELECT {_MATCH_COLUMNS} FROM matches "
                                 "WHERE status = 'playing' ORDER BY id")
        return self._skip_corrupt(rows, _match_from_row, "match")

    async def match_hands(self, match_id: int) -> list[HandRecord]:
        rows = await self._fetch(f"loading the hands of match {match_id}",
                                 f"SELECT {_HAND_COLUMNS} FROM hands WHERE match_id = ? "
                                 "ORDER BY hand_no", (match_id,))
        return [_hand_from_row(row) for row in rows]

    @staticmethod
    def _skip_corrupt(rows: Sequence[Any], build: Callable[[Any], Any], what: str) -> list[Any]:
        out = []
        for row in rows:
            try:
                out.append(build(row))
            except StoreError as exc:
                log.warning("skipped a %s: %s", what, exc)
        return out

    # -- per guild --

    @staticmethod
    async def _upsert_player(tx: aiosqlite.Connection, guild_id: int, user_id: int, name: str,
                             now: int) -> None:
        await tx.execute(
            "INSERT INTO players (guild_id, user_id, name, first_seen, last_seen) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
            "name = excluded.name, last_seen = excluded.last_seen",
            (guild_id, user_id, name, now, now))

    async def upsert_player(self, guild_id: int, user_id: int, name: str) -> None:
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        _check(isinstance(name, str), "a player's name must be text")
        async with self._transaction(f"saving player {user_id}") as tx:
            await self._upsert_player(tx, guild_id, user_id, name, self._now())

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = await self._fetch(f"loading the settings of server {guild_id}",
                                 "SELECT settings FROM guild_settings WHERE guild_id = ?",
                                 (guild_id,))
        if not rows:
            return {}
        try:
            settings = _loads(rows[0][0], "settings")
            _check(isinstance(settings, dict), "column settings is not an object")
        except StoreError as exc:
            raise _corrupt("guild_settings", f"guild_id={guild_id}", exc) from None
        return settings  # type: ignore[no-any-return]

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        _check_id(guild_id, "guild_id")
        _check(isinstance(settings, dict), "server settings must be an object")
        text = _dumps(settings, "server settings")
        async with self._transaction(f"saving the settings of server {guild_id}") as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at", (guild_id, text, self._now()))

    # -- queries --

    async def match_history(self, guild_id: int, *, user_id: int | None = None,
                            limit: int = 20, before_id: int | None = None
                            ) -> list[MatchRecord]:
        """Ended (finished or abandoned) matches, newest first; ``before_id`` pages on."""
        before = _INT64[1] if before_id is None else before_id
        columns = ", ".join(f"m.{c.strip()}" for c in _MATCH_COLUMNS.split(","))
        if user_id is None:
            sql = (f"SELECT {columns} FROM matches m WHERE m.guild_id = ? AND m.id < ? "
                   "AND m.status <> 'playing' ORDER BY m.id DESC LIMIT ?")
            params: tuple[Any, ...] = (guild_id, before, limit)
        else:
            sql = (f"SELECT {columns} FROM match_players p JOIN matches m ON m.id = p.match_id "
                   "WHERE p.guild_id = ? AND p.user_id = ? AND p.match_id < ? "
                   "AND m.status <> 'playing' ORDER BY p.match_id DESC LIMIT ?")
            params = (guild_id, user_id, before, limit)
        rows = await self._fetch(f"loading the match history of server {guild_id}", sql, params)
        return self._skip_corrupt(rows, _match_from_row, "match")

    async def player_totals(self, guild_id: int, *, ranked: bool | None = None,
                            limit: int = 100) -> list[PlayerTotals]:
        """Matches played (won or lost), won and abandoned per user, most wins first.

        ``ranked`` None counts ranked and casual matches together."""
        ranked_filter = "" if ranked is None else "AND s.ranked = ? "
        params: list[Any] = [guild_id] + ([] if ranked is None else [int(ranked)]) + [limit]
        rows = await self._fetch(
            f"loading the leaderboard of server {guild_id}",
            "SELECT s.user_id, p.name, SUM(s.played), SUM(s.won), SUM(s.abandoned) "
            "FROM player_stats s JOIN players p "
            "ON p.guild_id = s.guild_id AND p.user_id = s.user_id "
            f"WHERE s.guild_id = ? {ranked_filter}"
            "GROUP BY s.user_id ORDER BY 4 DESC, 3 ASC, s.user_id LIMIT ?", params)
        return [PlayerTotals(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]))
                for r in rows]


    # -- stats and ratings --

    async def stats_progress(self, match_id: int) -> int:
        """How many hands of the match are counted in player stats and ratings."""
        rows = await self._fetch(f"loading the stats progress of match {match_id}",
                                 "SELECT stats_hands FROM matches WHERE id = ?", (match_id,))
        if not rows:
            raise StoreError(f"there is no match {match_id}")
        return int(rows[0][0])

    async def pending_stats(self) -> list[int]:
        """Matches with stored hands not yet counted (oldest first)."""
        rows = await self._fetch("loading the matches with uncounted hands",
                                 "SELECT id FROM matches WHERE stats_hands < hands_played "
                                 "ORDER BY id")
        return [int(r[0]) for r in rows]

    async def load_ratings(self, guild_id: int, user_ids: Sequence[int]
                           ) -> dict[int, Rating]:
        wanted = sorted({u for u in user_ids})
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = await self._fetch(
            f"loading ratings in server {guild_id}",
            f"SELECT user_id, mu, sigma, hands FROM player_ratings WHERE guild_id = ? "
            f"AND user_id IN ({marks})", (guild_id, *wanted))
        return {int(r[0]): Rating(int(r[0]), float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def count_hand(self, match_id: int, hand_no: int, stats: Sequence[HandStats],
                         ratings: Sequence[Rating]) -> None:
        """Add one stored hand to the players' totals and store their new ratings, once.

        ``hand_no`` must be the next uncounted hand of the match; ``ratings`` are the new
        values (their ``hands`` is ignored: each counts one more hand)."""
        _check(all(isinstance(h, HandStats) for h in stats), "stats must be HandStats")
        _check(all(isinstance(r, Rating) and r.sigma > 0 for r in ratings),
               "ratings must be Ratings with a positive sigma")
        now = self._now()
        async with self._transaction(f"counting hand {hand_no} of match {match_id}") as tx:
            rows = list(await tx.execute_fetchall(
                "SELECT guild_id, ranked, stats_hands, hands_played FROM matches WHERE id = ?",
                (match_id,)))
            if not rows:
                raise StoreError(f"there is no match {match_id}")
            guild_id, ranked, counted, played = rows[0]
            if hand_no != counted:
                raise StoreError(f"hand {hand_no} of match {match_id} cannot be counted: "
                                 f"the next to count is {counted}")
            if hand_no >= played:
                raise StoreError(f"hand {hand_no} of match {match_id} is not stored yet")
            for h in stats:
                await tx.execute(
                    "INSERT INTO player_stats (guild_id, user_id, ranked, hands_defending, "
                    "won_defending, hands_attacking, won_attacking, levels_gained, "
                    "kitties_captured) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, user_id, ranked) DO UPDATE SET "
                    "hands_defending = hands_defending + excluded.hands_defending, "
                    "won_defending = won_defending + excluded.won_defending, "
                    "hands_attacking = hands_attacking + excluded.hands_attacking, "
                    "won_attacking = won_attacking + excluded.won_attacking, "
                    "levels_gained = levels_gained + excluded.levels_gained, "
                    "kitties_captured = kitties_captured + excluded.kitties_captured",
                    (guild_id, h.user_id, ranked, int(h.defending), int(h.defending and h.won),
                     int(not h.defending), int(not h.defending and h.won), h.levels_gained,
                     int(h.kitty_captured)))
            for r in ratings:
                await tx.execute(
                    "INSERT INTO player_ratings (guild_id, user_id, mu, sigma, score, hands, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?) "
                    "ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, score = excluded.score, hands = hands + 1, "
                    "updated_at = excluded.updated_at",
                    (guild_id, r.user_id, r.mu, r.sigma, r.score, now))
            await tx.execute("UPDATE matches SET stats_hands = stats_hands + 1 WHERE id = ?",
                             (match_id,))

    _LEADERBOARDS: dict[str, tuple[str, str]] = {
        # order: (FROM ..., ORDER BY ...); every query is confined to one guild
        "rating": ("player_ratings r JOIN players p ON p.guild_id = r.guild_id "
                   "AND p.user_id = r.user_id LEFT JOIN player_stats s ON s.guild_id = "
                   "r.guild_id AND s.user_id = r.user_id AND s.ranked = 1 "
                   "WHERE r.guild_id = ?", "r.score DESC, r.user_id"),
        "wins": ("player_stats s JOIN players p ON p.guild_id = s.guild_id "
                 "AND p.user_id = s.user_id LEFT JOIN player_ratings r ON r.guild_id = "
                 "s.guild_id AND r.user_id = s.user_id WHERE s.guild_id = ? AND s.ranked = 1",
                 "s.won DESC, s.played, s.user_id"),
        "levels": ("player_stats s JOIN players p ON p.guild_id = s.guild_id "
                   "AND p.user_id = s.user_id LEFT JOIN player_ratings r ON r.guild_id = "
                   "s.guild_id AND r.user_id = s.user_id WHERE s.guild_id = ? "
                   "AND s.ranked = 1", "s.levels_gained DESC, s.user_id"),
    }

    async def leaderboard(self, guild_id: int, order: LeaderboardOrder, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[LeaderboardRow], int]:
        """One page of the server's ranked leaderboard, and how many players it has."""
        _check(order in self._LEADERBOARDS, f"order must be one of {LEADERBOARD_ORDERS}")
        _check(_is_int(offset) and offset >= 0 and _is_int(limit) and limit > 0,
               "offset and limit must be whole numbers")
        source, sort = self._LEADERBOARDS[order]
        doing = f"loading the {order} leaderboard of server {guild_id}"
        rows = await self._fetch(
            doing, "SELECT p.user_id, p.name, r.mu, r.sigma, r.hands, COALESCE(s.played, 0), "
            f"COALESCE(s.won, 0), COALESCE(s.levels_gained, 0) FROM {source} "
            f"ORDER BY {sort} LIMIT ? OFFSET ?", (guild_id, limit, offset))
        total = await self._fetch(doing, f"SELECT COUNT(*) FROM {source}", (guild_id,))
        out = []
        for i, r in enumerate(rows):
            rating = None if r[2] is None else Rating(int(r[0]), float(r[2]), float(r[3]),
                                                      int(r[4]))
            out.append(LeaderboardRow(offset + i + 1, int(r[0]), str(r[1]), rating,
                                      int(r[5]), int(r[6]), int(r[7])))
        return out, int(total[0][0])

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One user's totals in one server (None: never seen there)."""
        doing = f"loading the stats of user {user_id} in server {guild_id}"
        rows = await self._fetch(
            doing, "SELECT p.name, COALESCE(SUM(s.played), 0), COALESCE(SUM(s.won), 0), "
            "COALESCE(SUM(s.abandoned), 0), COALESCE(SUM(s.played * s.ranked), 0), "
            "COALESCE(SUM(s.won * s.ranked), 0), COALESCE(SUM(s.hands_defending), 0), "
            "COALESCE(SUM(s.won_defending), 0), COALESCE(SUM(s.hands_attacking), 0), "
            "COALESCE(SUM(s.won_attacking), 0), COALESCE(SUM(s.levels_gained), 0), "
            "COALESCE(SUM(s.kitties_captured), 0) FROM players p LEFT JOIN player_stats s "
            "ON s.guild_id = p.guild_id AND s.user_id = p.user_id "
            "WHERE p.guild_id = ? AND p.user_id = ? GROUP BY p.user_id", (guild_id, user_id))
        if not rows:
            return None
        row = rows[0]
        rating = (await self.load_ratings(guild_id, [user_id])).get(user_id)
        position = None
        if rating is not None:
            ahead = await self._fetch(
                doing, "SELECT COUNT(*) FROM player_ratings WHERE guild_id = ? AND "
                "(score > ? OR (score = ? AND user_id < ?))",
                (guild_id, rating.score, rating.score, user_id))
            position = int(ahead[0][0]) + 1
        return PlayerStats(user_id, str(row[0]), *(int(v) for v in row[1:]), rating=rating,
                           position=position)
