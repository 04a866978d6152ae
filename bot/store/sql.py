"""What both SQL backends share: the plumbing they must provide, migrations, the row codecs,
and the game log (tables, matches, the append-only action log, hands, players, settings).

Queries are written once, with ``?`` placeholders, in the SQL that SQLite and PostgreSQL both
speak; a backend supplies transactions and reads (``bot/store/sqlite.py``,
``bot/store/postgres.py``) and turns its driver's errors into :class:`StoreError`.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Protocol

from bot.store.migrations import Dialect, Migration
from bot.store.records import (
    FORMER_PLAYER,
    INT64,
    CorruptRow,
    GuildData,
    HandRecord,
    MatchRecord,
    MatchStatus,
    PlayerData,
    SeatChange,
    SeatRecord,
    StoreError,
    TableRecord,
    check,
    check_id,
    is_int,
)
from engine.errors import EngineError
from engine.rules import Ruleset

log = logging.getLogger("bot.store")

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def utc_now() -> datetime:
    return datetime.now(UTC)


def _to_ms(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def _from_ms(value: Any) -> datetime:
    check(is_int(value), "a time column is not an integer")
    return _EPOCH + timedelta(milliseconds=value)


def dumps(value: Any, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        raise StoreError(f"{what} cannot be stored as JSON") from None


def loads(text: Any, column: str) -> Any:
    if not isinstance(text, str):
        raise StoreError(f"column {column} is not text")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise StoreError(f"column {column} is not valid JSON") from None


def corrupt(table: str, key: str, exc: Exception) -> CorruptRow:
    # Only our own messages are shown: other exceptions may quote the row's content.
    reason = str(exc) if isinstance(exc, StoreError) else f"unreadable ({type(exc).__name__})"
    return CorruptRow(f"corrupt row in {table} ({key}): {reason}")


def _seat_list(data: Any, column: str, *, empty_allowed: bool) -> list[Any]:
    check(isinstance(data, list), f"column {column} is not a list")
    return [None if (s is None and empty_allowed) else SeatRecord.from_dict(s) for s in data]


_TABLE_COLUMNS = ("channel_id, guild_id, host_id, message_id, preset, options, settings, seats, "
                  "match_id, status, locale, moving_from")
MATCH_COLUMNS = ("id, guild_id, channel_id, seed, rules, seats, status, winner_team, "
                 "started_at, finished_at, hands_played, ranked")
_HAND_COLUMNS = ("match_id, hand_no, dealer, level, trump, defenders_team, attacker_points, "
                 "kitty_multiplier, last_trick_team, winner_team, levels_gained, levels_before, "
                 "levels_after, result, last_trick_seat, defenders, winner_side, bid, "
                 "seat_changes")


def _table_from_row(row: Sequence[Any]) -> TableRecord:
    try:
        return TableRecord(
            channel_id=row[0], guild_id=row[1], host_id=row[2], message_id=row[3],
            preset=row[4], options=loads(row[5], "options"),
            settings=loads(row[6], "settings"),
            seats=_seat_list(loads(row[7], "seats"), "seats", empty_allowed=True),
            match_id=row[8], status=row[9], locale=row[10], moving_from=row[11],
            updated_at=None if row[12] is None else _from_ms(row[12]))
    except (StoreError, KeyError, TypeError, ValueError, OverflowError, OSError) as exc:
        raise corrupt("tables", f"channel_id={row[0]}", exc) from None


def match_from_row(row: Sequence[Any]) -> MatchRecord:
    try:
        rules = loads(row[4], "rules")
        check(isinstance(rules, dict), "column rules is not an object")
        return MatchRecord(
            id=row[0], guild_id=row[1], channel_id=row[2], seed=row[3], rules=rules,
            seats=_seat_list(loads(row[5], "seats"), "seats", empty_allowed=False),
            status=row[6], winner_team=row[7], started_at=_from_ms(row[8]),
            finished_at=None if row[9] is None else _from_ms(row[9]), hands_played=row[10],
            ranked=bool(row[11]))
    except (StoreError, KeyError, TypeError, ValueError, OverflowError, OSError) as exc:
        raise corrupt("matches", f"id={row[0]}", exc) from None


def _hand_from_row(row: Sequence[Any]) -> HandRecord:
    try:
        result = loads(row[13], "result")
        defenders = None if row[15] is None else loads(row[15], "defenders")
        changes = None if row[18] is None else loads(row[18], "seat_changes")
        check(changes is None or isinstance(changes, list), "column seat_changes is not a list")
        return HandRecord(
            match_id=row[0], hand_no=row[1], dealer=row[2], level=row[3], trump=row[4],
            defenders_team=row[5], attacker_points=row[6], kitty_multiplier=row[7],
            last_trick_team=row[8], winner_team=row[9], levels_gained=row[10],
            levels_before=loads(row[11], "levels_before"),
            levels_after=loads(row[12], "levels_after"), result=result,
            last_trick_seat=row[14], defenders=defenders, winner_side=row[16], bid=row[17],
            seat_changes=None if changes is None
            else tuple(SeatChange.from_dict(c) for c in changes))
    except (StoreError, KeyError, TypeError, ValueError) as exc:
        raise corrupt("hands", f"match_id={row[0]}, hand_no={row[1]}", exc) from None


def skip_corrupt(rows: Sequence[Any], build: Callable[[Any], Any], what: str) -> list[Any]:
    """Bulk loads skip a corrupt row with a WARNING (naming its key, never its content)."""
    out = []
    for row in rows:
        try:
            out.append(build(row))
        except StoreError as exc:
            log.warning("skipped a %s: %s", what, exc)
    return out


class Tx(Protocol):
    """One open transaction: statements with ``?`` placeholders."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]: ...
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class SqlBackend(ABC):
    """The plumbing a backend provides, and the migrations it applies with it."""

    dialect: ClassVar[Dialect]
    # Appended to a read of the row a transaction is about to change: PostgreSQL locks it
    # (concurrent writers queue), SQLite's BEGIN IMMEDIATE already holds the whole file.
    FOR_UPDATE: ClassVar[str] = ""
    VERSION_TABLE: ClassVar[str]

    def __init__(self, name: str, clock: Callable[[], datetime]) -> None:
        self.name = name  # what messages call the database (never a password)
        self._clock = clock
        self.schema_version = 0
        self.shards: tuple[int, tuple[int, ...]] | None = None  # (count, ids) claimed

    async def claim_shards(self, shard_count: int, shard_ids: Sequence[int]) -> None:
        """Serve only the servers of these shards (``(guild_id >> 22) % shard_count``, as
        Discord routes them): bulk loads (``load_tables``, ``live_tables``, ``pending_stats``)
        see no other
        server. Refused (StoreError) while another live process holds one of them."""
        ids = tuple(sorted(set(shard_ids)))
        check(is_int(shard_count) and shard_count > 0, "the shard count must be at least 1")
        check(len(ids) > 0 and all(is_int(i) and 0 <= i < shard_count for i in ids),
              f"shard ids must be from 0 to {shard_count - 1}")
        check(self.shards is None, "this store has claimed its shards already")
        await self._hold_shards(shard_count, ids)
        self.shards = (shard_count, ids)

    @abstractmethod
    async def _hold_shards(self, shard_count: int, shard_ids: tuple[int, ...]) -> None:
        """Make sure no other live process serves one of these shards, until close()."""

    def _shard_filter(self, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
        """`` AND <column> in the claimed shards`` and its parameters (nothing: all)."""
        if self.shards is None:
            return "", ()
        count, ids = self.shards
        marks = ", ".join("?" * len(ids))
        return f" AND (({column} >> 22) % ?) IN ({marks})", (count, *ids)

    @abstractmethod
    def _transaction(self, doing: str) -> AbstractAsyncContextManager[Tx]:
        """One write transaction: committed on success, else rolled back; driver errors
        become StoreError("database error while <doing>: ...")."""

    @abstractmethod
    async def _fetch(self, doing: str, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    @abstractmethod
    async def _apply(self, tx: Tx, migration: Migration) -> None: ...

    @abstractmethod
    async def _table_names(self) -> set[str]:
        """The tables the database holds (ours or anyone's)."""

    @abstractmethod
    async def _columns(self, table: str) -> list[str]:
        """The table's columns, in order."""

    async def _lock_schema(self, tx: Tx) -> None:
        """Keep two processes from migrating at once (where BEGIN does not already)."""

    async def _after_bulk_insert(self, tx: Tx) -> None:
        """Rows were inserted with their ids: make new ids follow them."""

    @abstractmethod
    async def close(self) -> None: ...

    def _now(self) -> int:
        return _to_ms(self._clock())

    async def refuse_foreign_database(self) -> None:
        """Refuse a database that holds tables but not ours: another program's data is
        never migrated into (nor written to)."""
        names = await self._table_names()
        if names and "schema_version" not in names:
            shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
            raise StoreError(
                f"{self.name} is not a Shengji database: it holds other tables ({shown}) and "
                "no schema_version. Set SHENGJI_DB to the bot's own database, or to a new "
                "file or an empty database to start afresh.")

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply the missing migrations, each in its own transaction with its version row."""
        await self.refuse_foreign_database()
        known = migrations[-1].version if migrations else 0
        async with self._transaction("creating the schema_version table") as tx:
            await self._lock_schema(tx)
            await tx.execute(self.VERSION_TABLE)
        for migration in [None, *migrations]:  # None: only check the version
            async with self._transaction("applying migrations") as tx:
                await self._lock_schema(tx)
                rows = await tx.fetch("SELECT version, name FROM schema_version")
                applied: dict[int, str] = {row[0]: row[1] for row in rows}
                self.schema_version = max(applied, default=0)
                if self.schema_version > known:
                    raise StoreError(
                        f"the database {self.name} has schema version {self.schema_version}, "
                        f"newer than this bot knows ({known}); upgrade the bot or use a backup")
                if migration is None:
                    continue
                if migration.version in applied:
                    if applied[migration.version] != migration.name:
                        raise StoreError(
                            f"schema version {migration.version} of {self.name} is "
                            f"'{applied[migration.version]}', this bot expects "
                            f"'{migration.name}'")
                    continue
                await self._apply(tx, migration)
                await tx.execute("INSERT INTO schema_version VALUES (?, ?, ?)",
                                 (migration.version, migration.name, self._now()))
                self.schema_version = migration.version
                log.info("applied migration %03d_%s to %s", migration.version, migration.name,
                         self.name)


class GameLogStore(SqlBackend):
    """Tables, matches and their action logs, hands, players and server settings."""

    # -- tables --

    async def save_table(self, table: TableRecord) -> None:
        if not isinstance(table, TableRecord):
            raise StoreError("save_table needs a TableRecord")
        seats = dumps([None if s is None else s.to_dict() for s in table.seats], "seats")
        now = self._now()
        async with self._transaction(f"saving the table in channel {table.channel_id}") as tx:
            await tx.execute(
                f"INSERT INTO tables ({_TABLE_COLUMNS}, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
                "host_id = excluded.host_id, message_id = excluded.message_id, "
                "preset = excluded.preset, options = excluded.options, "
                "settings = excluded.settings, seats = excluded.seats, "
                "match_id = excluded.match_id, status = excluded.status, "
                "locale = excluded.locale, moving_from = excluded.moving_from, "
                "updated_at = excluded.updated_at",
                (table.channel_id, table.guild_id, table.host_id, table.message_id,
                 table.preset, dumps(table.options, "table options"),
                 dumps(table.settings, "table settings"), seats, table.match_id,
                 table.status, table.locale, table.moving_from, now, now))

    async def forget_table(self, channel_id: int) -> None:
        """The channel's table is no longer stored (its channel is gone); its match is."""
        check_id(channel_id, "channel_id")
        async with self._transaction(f"forgetting the table in channel {channel_id}") as tx:
            await tx.execute("DELETE FROM tables WHERE channel_id = ?", (channel_id,))

    async def load_tables(self) -> list[TableRecord]:
        """Every table (of the claimed shards' servers), by channel."""
        return await self._tables("")

    async def live_tables(self) -> list[TableRecord]:
        """The tables in a lobby or in play (of the claimed shards' servers), by channel."""
        return await self._tables(" AND status <> 'finished'")

    async def _tables(self, which: str) -> list[TableRecord]:
        shards, params = self._shard_filter()
        rows = await self._fetch("loading the tables",
                                 f"SELECT {_TABLE_COLUMNS}, updated_at FROM tables "
                                 f"WHERE TRUE{which}{shards} ORDER BY channel_id", params)
        return skip_corrupt(rows, _table_from_row, "table")

    async def load_table(self, channel_id: int) -> TableRecord | None:
        """The channel's table, if one is stored (``CorruptRow`` if it does not read)."""
        check_id(channel_id, "channel_id")
        rows = await self._fetch(f"loading the table in channel {channel_id}",
                                 f"SELECT {_TABLE_COLUMNS}, updated_at FROM tables "
                                 "WHERE channel_id = ?", (channel_id,))
        return _table_from_row(rows[0]) if rows else None

    # -- matches --

    async def create_match(self, guild_id: int, channel_id: int, seed: int,
                           rules: dict[str, Any], seats: Sequence[SeatRecord], *,
                           ranked: bool = False) -> int:
        check_id(guild_id, "guild_id")
        check_id(channel_id, "channel_id")
        check_id(seed, "a match seed")
        check(isinstance(rules, dict), "a match's rules must be an object")
        check(len(seats) > 0 and all(isinstance(s, SeatRecord) for s in seats),
              "a match needs a SeatRecord in every seat")
        seats_json = dumps([s.to_dict() for s in seats], "seats")
        # each seat's level holder as the engine seats them: its fixed team, or the seat
        # itself where levels are individual (matches.winner_team is a holder too)
        try:
            seating = Ruleset.from_dict(rules).seating
        except EngineError as e:
            raise StoreError(f"a match's rules must read as a ruleset ({e.code})") from None
        now = self._now()
        async with self._transaction(f"creating a match in channel {channel_id}") as tx:
            [(match_id,)] = await tx.fetch(
                "INSERT INTO matches (guild_id, channel_id, seed, rules, seats, ranked, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, seed, dumps(rules, "rules"), seats_json,
                 int(ranked), now))
            for seat, record in enumerate(seats):
                if record.user_id is not None:
                    await self._upsert_player(tx, guild_id, record.user_id, record.name, now)
                await tx.execute(
                    "INSERT INTO match_players (match_id, seat, guild_id, kind, user_id, name, "
                    "ai_level, team, ranked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (match_id, seat, guild_id, record.kind, record.user_id, record.name,
                     record.ai_level, seating.holder(seat), int(ranked)))
        return int(match_id)

    async def _match_status(self, tx: Tx, match_id: int) -> str:
        """The match's status, with its row locked until the transaction ends."""
        rows = await tx.fetch(f"SELECT status FROM matches WHERE id = ?{self.FOR_UPDATE}",
                              (match_id,))
        if not rows:
            raise StoreError(f"there is no match {match_id}")
        return str(rows[0][0])

    async def append_action(self, match_id: int, seq: int, action: dict[str, Any]) -> None:
        check(is_int(seq) and seq >= 0, "seq must be an integer from 0")
        check(isinstance(action, dict), "an action must be an object")
        text = dumps(action, "the action")
        async with self._transaction(f"appending action {seq} of match {match_id}") as tx:
            status = await self._match_status(tx, match_id)
            if status != "playing":
                raise StoreError(f"match {match_id} is {status}; no more actions are stored")
            rows = await tx.fetch("SELECT MAX(seq) FROM actions WHERE match_id = ?",
                                  (match_id,))
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
                check(seq == index, f"seq {index} is missing")
                action = loads(text, "action")
                check(isinstance(action, dict), "column action is not an object")
            except StoreError as exc:
                raise corrupt("actions", f"match_id={match_id}, seq={seq}", exc) from None
            actions.append(action)
        return actions

    async def record_hand(self, hand: HandRecord) -> None:
        if not isinstance(hand, HandRecord):
            raise StoreError("record_hand needs a HandRecord")
        values = (hand.match_id, hand.hand_no, hand.dealer, hand.level, hand.trump,
                  hand.defenders_team, hand.attacker_points, hand.kitty_multiplier,
                  hand.last_trick_team, hand.winner_team, hand.levels_gained,
                  dumps(hand.levels_before, "levels_before"),
                  dumps(hand.levels_after, "levels_after"),
                  dumps(hand.result, "the hand result"), hand.last_trick_seat,
                  None if hand.defenders is None else dumps(list(hand.defenders), "defenders"),
                  hand.winner_side, hand.bid,
                  None if hand.seat_changes is None
                  else dumps([c.to_dict() for c in hand.seat_changes], "seat_changes"),
                  self._now())
        doing = f"recording hand {hand.hand_no} of match {hand.match_id}"
        async with self._transaction(doing) as tx:
            status = await self._match_status(tx, hand.match_id)
            if status != "playing":
                raise StoreError(f"match {hand.match_id} is {status}; no more hands are stored")
            # Hand numbers are the engine's (Game.hand_number): each after the last stored;
            # a deal nobody bid on (three-bid) is dealt again under the next number, so
            # only a number not after the last is refused.
            rows = await tx.fetch("SELECT MAX(hand_no) FROM hands WHERE match_id = ?",
                                  (hand.match_id,))
            last = rows[0][0]
            if last is not None and hand.hand_no <= last:
                raise StoreError(f"hand {hand.hand_no} of match {hand.match_id} is already "
                                 f"stored: the last stored is {last}")
            await tx.execute(f"INSERT INTO hands ({_HAND_COLUMNS}, recorded_at) "
                             f"VALUES ({', '.join('?' * len(values))})", values)
            await tx.execute("UPDATE matches SET hands_played = hands_played + 1 WHERE id = ?",
                             (hand.match_id,))

    async def amend_hand(self, hand: HandRecord) -> None:
        """The stored hand ``hand.match_id``/``hand.hand_no`` takes ``hand``'s levels after
        and result: the level moves that followed its scoring (RULES §5 level transfer and
        kitty penalties). Its other fields, and the stats counted from it, stay."""
        if not isinstance(hand, HandRecord):
            raise StoreError("amend_hand needs a HandRecord")
        values = (dumps(hand.levels_after, "levels_after"), dumps(hand.result, "the hand result"),
                  None if hand.seat_changes is None
                  else dumps([c.to_dict() for c in hand.seat_changes], "seat_changes"),
                  hand.match_id, hand.hand_no)
        doing = f"amending hand {hand.hand_no} of match {hand.match_id}"
        async with self._transaction(doing) as tx:
            rows = await tx.fetch("SELECT 1 FROM hands WHERE match_id = ? AND hand_no = ?",
                                  (hand.match_id, hand.hand_no))
            if not rows:
                raise StoreError(f"hand {hand.hand_no} of match {hand.match_id} is not stored")
            await tx.execute("UPDATE hands SET levels_after = ?, result = ?, seat_changes = ? "
                             "WHERE match_id = ? AND hand_no = ?", values)

    async def finish_match(self, match_id: int, status: MatchStatus,
                           winner_team: int | None) -> None:
        if status == "finished":
            check(is_int(winner_team), "a finished match needs a winner_team")
        elif status == "abandoned":
            check(winner_team is None, "an abandoned match has no winner_team")
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
            # A user in two seats of one match (testing alone) counts once. Rows go in user
            # order, so two matches ending at once lock shared rows in the same order.
            await tx.execute(
                "INSERT INTO player_stats (guild_id, user_id, ranked, played, won, abandoned) "
                "SELECT guild_id, user_id, ranked, "
                "MAX(CASE WHEN outcome <> 'abandoned' THEN 1 ELSE 0 END), "
                "MAX(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END), "
                "MAX(CASE WHEN outcome = 'abandoned' THEN 1 ELSE 0 END) FROM match_players "
                "WHERE match_id = ? AND user_id IS NOT NULL GROUP BY guild_id, user_id, ranked "
                "ORDER BY user_id "
                "ON CONFLICT (guild_id, user_id, ranked) DO UPDATE SET "
                "played = player_stats.played + excluded.played, "
                "won = player_stats.won + excluded.won, "
                "abandoned = player_stats.abandoned + excluded.abandoned", (match_id,))

    async def load_match(self, match_id: int) -> MatchRecord | None:
        rows = await self._fetch(f"loading match {match_id}",
                                 f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?",
                                 (match_id,))
        return match_from_row(rows[0]) if rows else None

    async def match_hands(self, match_id: int) -> list[HandRecord]:
        rows = await self._fetch(f"loading the hands of match {match_id}",
                                 f"SELECT {_HAND_COLUMNS} FROM hands WHERE match_id = ? "
                                 "ORDER BY hand_no", (match_id,))
        return [_hand_from_row(row) for row in rows]

    async def match_history(self, guild_id: int, *, user_id: int | None = None,
                            limit: int = 20, before_id: int | None = None
                            ) -> list[MatchRecord]:
        """Ended (finished or abandoned) matches, newest first; ``before_id`` pages on."""
        before = INT64[1] if before_id is None else before_id
        columns = ", ".join(f"m.{c.strip()}" for c in MATCH_COLUMNS.split(","))
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
        return skip_corrupt(rows, match_from_row, "match")

    # -- per guild --

    @staticmethod
    async def _upsert_player(tx: Tx, guild_id: int, user_id: int, name: str, now: int) -> None:
        await tx.execute(
            "INSERT INTO players (guild_id, user_id, name, first_seen, last_seen) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
            "name = excluded.name, last_seen = excluded.last_seen",
            (guild_id, user_id, name, now, now))

    async def upsert_player(self, guild_id: int, user_id: int, name: str) -> None:
        check_id(guild_id, "guild_id")
        check_id(user_id, "user_id")
        check(isinstance(name, str), "a player's name must be text")
        async with self._transaction(f"saving player {user_id}") as tx:
            await self._upsert_player(tx, guild_id, user_id, name, self._now())

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = await self._fetch(f"loading the settings of server {guild_id}",
                                 "SELECT settings FROM guild_settings WHERE guild_id = ?",
                                 (guild_id,))
        if not rows:
            return {}
        try:
            settings = loads(rows[0][0], "settings")
            check(isinstance(settings, dict), "column settings is not an object")
        except StoreError as exc:
            raise corrupt("guild_settings", f"guild_id={guild_id}", exc) from None
        return settings

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        check_id(guild_id, "guild_id")
        check(isinstance(settings, dict), "server settings must be an object")
        text = dumps(settings, "server settings")
        async with self._transaction(f"saving the settings of server {guild_id}") as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at", (guild_id, text, self._now()))

    # -- a server's data, counted and erased --

    async def guild_data(self, guild_id: int) -> GuildData:
        check_id(guild_id, "guild_id")
        async with self._transaction(f"counting what is stored of server {guild_id}") as tx:
            return await _guild_data(tx, guild_id)

    async def erase_guild(self, guild_id: int) -> GuildData:
        """Deletes everything stored of the server (its matches with their actions, hands
        and seats, its finished tables, its players' stats and ratings, its settings) and
        returns what was there; unless a table of it is in a lobby or in play: then
        nothing is deleted, and the answer names their channels (``live_channels``)."""
        check_id(guild_id, "guild_id")
        async with self._transaction(f"erasing the data of server {guild_id}") as tx:
            found = await _guild_data(tx, guild_id)
            if found.live_channels:
                return found
            of_matches = "WHERE match_id IN (SELECT id FROM matches WHERE guild_id = ?)"
            for sql in (f"DELETE FROM actions {of_matches}",
                        f"DELETE FROM hands {of_matches}",
                        f"DELETE FROM match_players {of_matches}",
                        "DELETE FROM tables WHERE guild_id = ?",
                        "DELETE FROM matches WHERE guild_id = ?",
                        "DELETE FROM player_stats WHERE guild_id = ?",
                        "DELETE FROM player_ratings WHERE guild_id = ?",
                        "DELETE FROM match_players WHERE guild_id = ?",
                        "DELETE FROM players WHERE guild_id = ?",
                        "DELETE FROM guild_settings WHERE guild_id = ?"):
                await tx.execute(sql, (guild_id,))
        log.info("erased the data of server %s: %d match(es), %d player(s)%s", guild_id,
                 found.matches, found.players, ", its settings" if found.settings else "")
        return found

    async def player_data(self, guild_id: int, user_id: int) -> PlayerData:
        check_id(guild_id, "guild_id")
        check_id(user_id, "user_id")
        async with self._transaction(f"counting what is stored of player {user_id}") as tx:
            return await _player_data(tx, guild_id, user_id)

    async def erase_player(self, guild_id: int, user_id: int) -> PlayerData:
        """Erases one player's record in one server (name, stats, rating) and takes them
        out of its matches and ended tables: their seats in a match become a former
        player's (``FORMER_PLAYER``, no name), so that the others' history and exports
        stay whole; their seats at an ended table become empty, and a table they hosted
        has the former player as its host. Returns what was there; unless they sit at (or
        host) a table in a lobby or in play there: then nothing changes, and the answer
        names those channels."""
        check_id(guild_id, "guild_id")
        check_id(user_id, "user_id")
        check(user_id != FORMER_PLAYER, "that user id stands for a former player")
        async with self._transaction(f"erasing the data of player {user_id}") as tx:
            found = await _player_data(tx, guild_id, user_id)
            if found.live_channels:
                return found
            await self._upsert_player(tx, guild_id, FORMER_PLAYER, "", self._now())
            former = SeatRecord("human", FORMER_PLAYER, "").to_dict()
            for match_id, seats in await tx.fetch(
                    "SELECT id, seats FROM matches WHERE id IN (SELECT match_id FROM "
                    "match_players WHERE guild_id = ? AND user_id = ?)", (guild_id, user_id)):
                changed = _seats_without(seats, user_id, former, ("matches", f"id={match_id}"))
                if changed is not None:
                    await tx.execute("UPDATE matches SET seats = ? WHERE id = ?",
                                     (changed, match_id))
            await tx.execute("UPDATE match_players SET user_id = ?, name = '' "
                             "WHERE guild_id = ? AND user_id = ?",
                             (FORMER_PLAYER, guild_id, user_id))
            for channel_id, seats in await tx.fetch(
                    "SELECT channel_id, seats FROM tables WHERE guild_id = ? "
                    "AND status = 'finished'", (guild_id,)):
                changed = _seats_without(seats, user_id, None,
                                         ("tables", f"channel_id={channel_id}"))
                if changed is not None:
                    await tx.execute("UPDATE tables SET seats = ? WHERE channel_id = ?",
                                     (changed, channel_id))
            await tx.execute("UPDATE tables SET host_id = ? WHERE guild_id = ? AND host_id = ? "
                             "AND status = 'finished'", (FORMER_PLAYER, guild_id, user_id))
            for table in ("player_stats", "player_ratings", "players"):
                await tx.execute(f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?",
                                 (guild_id, user_id))
        log.info("erased the data of player %s in server %s: %d match(es)", user_id,
                 guild_id, found.matches)
        return found


async def _guild_data(tx: Tx, guild_id: int) -> GuildData:
    counts = await tx.fetch(
        "SELECT (SELECT COUNT(*) FROM matches WHERE guild_id = ?), "
        "(SELECT COUNT(*) FROM players WHERE guild_id = ? AND user_id <> ?), "
        "(SELECT COUNT(*) FROM guild_settings WHERE guild_id = ?)",
        (guild_id, guild_id, FORMER_PLAYER, guild_id))
    live = await tx.fetch("SELECT channel_id FROM tables WHERE guild_id = ? "
                          "AND status <> 'finished' ORDER BY channel_id", (guild_id,))
    matches, players, settings = (int(n) for n in counts[0])
    return GuildData(matches, players, settings > 0, tuple(int(r[0]) for r in live))


async def _player_data(tx: Tx, guild_id: int, user_id: int) -> PlayerData:
    counts = await tx.fetch(
        "SELECT (SELECT COUNT(DISTINCT match_id) FROM match_players "
        "WHERE guild_id = ? AND user_id = ?), "
        "(SELECT COUNT(*) FROM players WHERE guild_id = ? AND user_id = ?)",
        (guild_id, user_id, guild_id, user_id))
    live = {int(channel_id) for channel_id, host_id, seats in await tx.fetch(
        "SELECT channel_id, host_id, seats FROM tables WHERE guild_id = ? "
        "AND status <> 'finished'", (guild_id,))
        if host_id == user_id or _seats_without(seats, user_id, None) is not None}
    live.update(int(row[0]) for row in await tx.fetch(
        "SELECT channel_id FROM matches WHERE status = 'playing' AND id IN (SELECT match_id "
        "FROM match_players WHERE guild_id = ? AND user_id = ?)", (guild_id, user_id)))
    matches, record = (int(n) for n in counts[0])
    return PlayerData(matches, record > 0, tuple(sorted(live)))


def _seats_without(seats: Any, user_id: int, instead: dict[str, Any] | None,
                   row: tuple[str, str] | None = None) -> str | None:
    """A stored seats list with the user's seats replaced by ``instead``, as JSON; None
    where the user sits in none, or where the list does not read (nothing of it can be
    shown either; logged naming ``row``, its table and key, where given)."""
    try:
        data = loads(seats, "seats")
        check(isinstance(data, list), "column seats is not a list")
    except StoreError as exc:
        if row is not None:
            log.warning("%s: its seats are left as they are", corrupt(*row, exc))
        return None
    changed = [instead if isinstance(s, dict) and s.get("kind") == "human"
               and s.get("user_id") == user_id else s for s in data]
    return None if changed == data else dumps(changed, "seats")
