"""The store (bot/store.py) on real SQLite files: round-trips, the append-only action log and
its durability, corrupt rows, migrations, and that nothing else touches SQLite."""

from __future__ import annotations

import ast
import asyncio
import logging
import sqlite3
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.store import (
    HandRecord,
    MatchStatus,
    Migration,
    PlayerTotals,
    SeatRecord,
    SqliteStore,
    StoreError,
    TableRecord,
    bundled_migrations,
    open_store,
)

ROOT = Path(__file__).resolve().parents[2]
GUILD = 111_111_111_111_111_111
OTHER_GUILD = 222_222_222_222_222_222
CHANNEL = 333_333_333_333_333_333
ALICE, BOB, CAROL = 900_000_000_000_000_001, 900_000_000_000_000_002, 900_000_000_000_000_003
T0 = datetime(2024, 5, 1, 12, 0, 0, 123_000, tzinfo=timezone.utc)
RULES = {"preset": "classic", "players": 4, "decks": 2, "level_ranks": ["2", "3", "A"]}


class Clock:
    """Advances one second per reading, so times are distinct and exact to the millisecond."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def seats() -> list[SeatRecord]:
    return [SeatRecord("human", ALICE, "Alice"), SeatRecord("ai", None, "Bot 1", "easy"),
            SeatRecord("human", BOB, "Bob 张"), SeatRecord("ai", None, "Bot 2", "hard")]


def table(channel_id: int = CHANNEL, **changes: object) -> TableRecord:
    fields: dict[str, object] = dict(
        channel_id=channel_id, guild_id=GUILD, host_id=ALICE, message_id=444,
        preset="classic", options={"decks": 2, "hidden_bid": True},
        settings={"turn_timer": 60, "ranked": False},
        seats=[SeatRecord("human", ALICE, "Alice"), None, SeatRecord("ai", None, "Bot", "easy"),
               None],
        match_id=None, status="lobby", locale="zh")
    fields.update(changes)
    return TableRecord(**fields)  # type: ignore[arg-type]


def hand(match_id: int, hand_no: int, **changes: object) -> HandRecord:
    fields: dict[str, object] = dict(
        match_id=match_id, hand_no=hand_no, dealer=0, level="2", trump="S",
        defenders_team=0, attacker_points=85, kitty_multiplier=2, last_trick_team=1,
        winner_team=1, levels_gained=0, levels_before=["2", "2"], levels_after=["2", "2"],
        result={"trick_points": 75, "kitty": "5S 10H", "notes": []}, last_trick_seat=3)
    fields.update(changes)
    return HandRecord(**fields)  # type: ignore[arg-type]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "shengji.sqlite3"


@pytest.fixture
async def store(db_path: Path):
    store = await SqliteStore.open(db_path, clock=Clock())
    yield store
    await store.close()


def raw(path: Path) -> sqlite3.Connection:
    """A plain connection that bypasses the store (and its CHECKs) to damage rows."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA ignore_check_constraints=ON")
    return conn


# -- round-trips ---------------------------------------------------------------------------


async def test_table_round_trips_and_upserts_by_channel(store: SqliteStore) -> None:
    first = table()
    await store.save_table(first)
    assert await store.load_table(CHANNEL) == first
    match_id = await store.create_match(GUILD, CHANNEL, 7, RULES, seats())
    playing = table(status="playing", match_id=match_id, message_id=None,
                    seats=seats())
    await store.save_table(playing)
    other = table(CHANNEL + 1, guild_id=OTHER_GUILD, locale="en")
    await store.save_table(other)
    assert await store.load_table(CHANNEL) == playing
    assert await store.load_tables() == [playing, other]
    await store.delete_table(CHANNEL)
    await store.delete_table(CHANNEL)  # deleting twice is fine
    assert await store.load_table(CHANNEL) is None
    assert await store.load_tables() == [other]


async def test_match_round_trips_until_finished(store: SqliteStore) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 2**62 + 5, RULES, seats(), ranked=True)
    match = await store.load_match(match_id)
    assert match is not None
    assert (match.id, match.guild_id, match.channel_id, match.seed, match.rules, match.seats,
            match.status, match.winner_team, match.finished_at, match.hands_played,
            match.ranked) == (match_id, GUILD, CHANNEL, 2**62 + 5, RULES, seats(), "playing",
                              None, None, 0, True)
    assert match.started_at.tzinfo is not None and match.started_at > T0
    assert await store.unfinished_matches() == [match]

    await store.finish_match(match_id, "finished", 1)
    done = await store.load_match(match_id)
    assert done is not None and done.status == "finished" and done.winner_team == 1
    assert done.finished_at is not None and done.finished_at > done.started_at
    assert await store.unfinished_matches() == []
    with pytest.raises(StoreError, match="already finished"):
        await store.finish_match(match_id, "abandoned", None)
    assert await store.load_match(match_id + 1) is None


async def test_hands_round_trip_in_order_and_count(store: SqliteStore) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 1, RULES, seats())
    hands = [hand(match_id, 0),
             hand(match_id, 1, dealer=3, trump=None, defenders_team=1, attacker_points=40,
                  kitty_multiplier=0, last_trick_team=1, winner_team=1, levels_gained=1,
                  levels_after=["2", "3"], last_trick_seat=None)]
    for record in hands:
        await store.record_hand(record)
    assert await store.match_hands(match_id) == hands
    match = await store.load_match(match_id)
    assert match is not None and match.hands_played == 2


@pytest.mark.parametrize("hand_no, message", [(1, "already stored"), (3, "gap")],
                         ids=["duplicate", "gap"])
async def test_hand_numbers_follow_each_other(store: SqliteStore, hand_no: int,
                                              message: str) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 1, RULES, seats())
    await store.record_hand(hand(match_id, 0))
    await store.record_hand(hand(match_id, 1))
    with pytest.raises(StoreError, match=message):
        await store.record_hand(hand(match_id, hand_no))
    assert [h.hand_no for h in await store.match_hands(match_id)] == [0, 1]


async def test_guild_settings_round_trip_per_guild(store: SqliteStore) -> None:
    assert await store.guild_settings(GUILD) == {}
    settings = {"default_preset": "changzhu", "options": {"decks": 3}, "turn_timer": 90,
                "ai_in_ranked": False}
    await store.set_guild_settings(GUILD, settings)
    await store.set_guild_settings(OTHER_GUILD, {"turn_timer": 30})
    assert await store.guild_settings(GUILD) == settings
    await store.set_guild_settings(GUILD, {"turn_timer": 45})
    assert await store.guild_settings(GUILD) == {"turn_timer": 45}
    assert await store.guild_settings(OTHER_GUILD) == {"turn_timer": 30}


async def test_players_history_and_totals(store: SqliteStore) -> None:
    await store.upsert_player(GUILD, CAROL, "Carol")
    won = await store.create_match(GUILD, CHANNEL, 1, RULES, seats(), ranked=True)
    await store.finish_match(won, "finished", 0)  # Alice (seat 0) and Bob (seat 2)
    lost = await store.create_match(GUILD, CHANNEL, 2, RULES, seats(), ranked=True)
    await store.finish_match(lost, "finished", 1)
    renamed = [SeatRecord("human", CAROL, "Carol"), SeatRecord("human", ALICE, "Alice 2"),
               SeatRecord("ai", None, "Bot", "easy"), SeatRecord("ai", None, "Bot", "easy")]
    casual = await store.create_match(GUILD, CHANNEL, 3, RULES, renamed)
    await store.finish_match(casual, "finished", 1)  # Alice (seat 1) wins
    dropped = await store.create_match(GUILD, CHANNEL, 4, RULES, seats(), ranked=True)
    await store.finish_match(dropped, "abandoned", None)
    await store.create_match(GUILD, CHANNEL, 5, RULES, seats())  # still playing: not counted
    await store.create_match(OTHER_GUILD, CHANNEL, 6, RULES, seats())

    # the latest name counts: Alice was "Alice 2" in one match only
    assert await store.player_totals(GUILD, ranked=True) == [
        PlayerTotals(ALICE, "Alice", 2, 1, 1), PlayerTotals(BOB, "Bob 张", 2, 1, 1)]
    assert await store.player_totals(GUILD) == [
        PlayerTotals(ALICE, "Alice", 3, 2, 1), PlayerTotals(BOB, "Bob 张", 2, 1, 1),
        PlayerTotals(CAROL, "Carol", 1, 0, 0)]
    assert [m.id for m in await store.match_history(GUILD)] == [dropped, casual, lost, won]
    assert [m.id for m in await store.match_history(GUILD, user_id=CAROL)] == [casual]
    assert [m.id for m in await store.match_history(GUILD, limit=2, before_id=casual)] == \
        [lost, won]
    assert await store.match_history(OTHER_GUILD) == []


async def test_user_in_two_seats_counts_one_match(store: SqliteStore) -> None:
    alone = [SeatRecord("human", ALICE, "Alice"), SeatRecord("ai", None, "Bot", "easy"),
             SeatRecord("human", ALICE, "Alice"), SeatRecord("ai", None, "Bot", "easy")]
    match_id = await store.create_match(GUILD, CHANNEL, 1, RULES, alone)
    await store.finish_match(match_id, "finished", 0)
    assert await store.player_totals(GUILD) == [PlayerTotals(ALICE, "Alice", 1, 1, 0)]


# -- the action log ------------------------------------------------------------------------


def action(seq: int) -> dict[str, object]:
    return {"type": "Play", "seat": seq % 4, "cards": f"{seq % 9 + 2}S"}


async def test_actions_survive_close_and_reopen(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    for seq in range(20):
        await store.append_action(match_id, seq, action(seq))
    await store.close()
    store = await SqliteStore.open(db_path)
    try:
        assert await store.load_actions(match_id) == [action(s) for s in range(20)]
        await store.append_action(match_id, 20, {"type": "NextHand"})
        assert len(await store.load_actions(match_id)) == 21
    finally:
        await store.close()


async def test_actions_survive_sigkill_right_after_append(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    await store.close()
    count = 40
    code = textwrap.dedent(f"""
        import asyncio, os
        from bot.store import SqliteStore

        async def main():
            store = await SqliteStore.open({str(db_path)!r})
            for seq in range({count}):
                await store.append_action({match_id}, seq, {{"type": "Deal", "count": seq}})
            os.kill(os.getpid(), 9)

        asyncio.run(main())
    """)
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", code, cwd=ROOT)
    assert await asyncio.wait_for(process.wait(), 30) == -9
    store = await SqliteStore.open(db_path)
    try:
        assert await store.load_actions(match_id) == [{"type": "Deal", "count": s}
                                                      for s in range(count)]
    finally:
        await store.close()


@pytest.mark.parametrize("seq, message", [(2, "already stored"), (0, "already stored"),
                                          (4, "gap"), (100, "gap")],
                         ids=["duplicate-last", "duplicate-first", "gap-of-one", "far-gap"])
async def test_seq_must_be_the_next_one(store: SqliteStore, seq: int, message: str) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    for s in range(3):
        await store.append_action(match_id, s, action(s))
    with pytest.raises(StoreError, match=message):
        await store.append_action(match_id, seq, {"type": "EndDeal"})
    assert await store.load_actions(match_id) == [action(s) for s in range(3)]
    await store.append_action(match_id, 3, action(3))  # the next one still goes in


async def test_log_refuses_gaps_even_past_the_store(store: SqliteStore, db_path: Path) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    with raw(db_path) as conn, pytest.raises(sqlite3.IntegrityError, match="seq"):
        conn.execute("INSERT INTO actions VALUES (?, 5, '{}', 0)", (match_id,))


@pytest.mark.parametrize("finish, winner", [("finished", 0), ("abandoned", None)])
async def test_ended_or_missing_match_takes_no_actions(store: SqliteStore, finish: MatchStatus,
                                                       winner: int | None) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    await store.append_action(match_id, 0, action(0))
    await store.finish_match(match_id, finish, winner)
    with pytest.raises(StoreError, match=f"is {finish}"):
        await store.append_action(match_id, 1, action(1))
    with pytest.raises(StoreError, match="no match"):
        await store.append_action(match_id + 1, 0, action(0))


async def test_concurrent_tables_interleave_safely(store: SqliteStore) -> None:
    ids = [await store.create_match(GUILD, CHANNEL + i, i, RULES, seats()) for i in range(5)]

    async def play(match_id: int) -> None:
        for seq in range(30):
            await store.append_action(match_id, seq, action(seq))
            if seq % 10 == 0:
                await store.save_table(table(CHANNEL + match_id, match_id=match_id,
                                             status="playing"))

    await asyncio.gather(*(play(m) for m in ids))
    for match_id in ids:
        assert await store.load_actions(match_id) == [action(s) for s in range(30)]
    assert len(await store.load_tables()) == 5


async def test_two_clicks_store_one_action(store: SqliteStore) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    results = await asyncio.gather(*(store.append_action(match_id, 0, action(i))
                                     for i in range(5)), return_exceptions=True)
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, StoreError) for r in results if r is not None)
    assert len(await store.load_actions(match_id)) == 1


# -- corrupt rows --------------------------------------------------------------------------


SECRET = "BJ BJ AS AS KS"  # card text that must never reach a log line or an error


@pytest.mark.parametrize("column, value", [
    ("seats", '[{"kind": "human", "cards": "' + SECRET),
    ("seats", '{"cards": "' + SECRET + '"}'),
    ("seats", '[{"kind": "alien", "user_id": 1, "name": "' + SECRET + '"}]'),
    ("options", '"' + SECRET + '"'),
    ("status", SECRET),
], ids=["truncated-json", "seats-not-a-list", "bad-seat-kind", "options-not-object",
        "bad-status"])
async def test_corrupt_table_is_skipped_with_a_warning(store: SqliteStore, db_path: Path,
                                                       caplog: pytest.LogCaptureFixture,
                                                       column: str, value: str) -> None:
    for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2):
        await store.save_table(table(channel))
    with raw(db_path) as conn:
        conn.execute(f"UPDATE tables SET {column} = ? WHERE channel_id = ?",
                     (value, CHANNEL + 1))
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        loaded = await store.load_tables()
    assert [t.channel_id for t in loaded] == [CHANNEL, CHANNEL + 2]
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "tables" in warning.getMessage() and str(CHANNEL + 1) in warning.getMessage()
    assert "BJ" not in caplog.text
    with pytest.raises(StoreError, match=rf"tables \(channel_id={CHANNEL + 1}\)") as info:
        await store.load_table(CHANNEL + 1)
    assert "BJ" not in str(info.value)


async def test_corrupt_action_names_its_row_not_its_cards(store: SqliteStore,
                                                          db_path: Path) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    for seq in range(3):
        await store.append_action(match_id, seq, action(seq))
    with raw(db_path) as conn:
        conn.execute("DROP TRIGGER actions_append_only")
        conn.execute("UPDATE actions SET action = ? WHERE seq = 1",
                     ('{"type": "Play", "cards": "' + SECRET,))
    with pytest.raises(StoreError, match=rf"actions \(match_id={match_id}, seq=1\)") as info:
        await store.load_actions(match_id)
    assert "BJ" not in str(info.value)


async def test_corrupt_match_is_skipped_at_start_up(store: SqliteStore, db_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    good = await store.create_match(GUILD, CHANNEL, 1, RULES, seats())
    bad = await store.create_match(GUILD, CHANNEL, 2, RULES, seats())
    with raw(db_path) as conn:
        conn.execute("UPDATE matches SET rules = 'not json' WHERE id = ?", (bad,))
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        assert [m.id for m in await store.unfinished_matches()] == [good]
    assert f"matches (id={bad})" in caplog.text
    with pytest.raises(StoreError, match="not valid JSON"):
        await store.load_match(bad)


async def test_corrupt_guild_settings_raise_a_store_error(store: SqliteStore,
                                                          db_path: Path) -> None:
    await store.set_guild_settings(GUILD, {"turn_timer": 60})
    with raw(db_path) as conn:
        conn.execute("UPDATE guild_settings SET settings = '[1, 2'")
    with pytest.raises(StoreError, match=f"guild_settings \\(guild_id={GUILD}\\)"):
        await store.guild_settings(GUILD)


# -- records refuse nonsense ---------------------------------------------------------------


@pytest.mark.parametrize("build", [
    lambda: SeatRecord("human", None, "Nobody"),
    lambda: SeatRecord("ai", ALICE, "Bot"),
    lambda: SeatRecord("robot", None, "Bot"),  # type: ignore[arg-type]
    lambda: table(status="paused"),
    lambda: table(seats=[{"kind": "human"}]),
    lambda: hand(1, 0, levels_after="2 3"),
], ids=["human-without-id", "ai-with-id", "unknown-kind", "table-status", "seat-dict",
        "levels-not-list"])
def test_records_refuse_nonsense(build) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StoreError):
        build()


async def test_store_refuses_what_sqlite_cannot_hold(store: SqliteStore) -> None:
    with pytest.raises(StoreError, match="64-bit"):
        await store.create_match(GUILD, CHANNEL, 2**64, RULES, seats())
    with pytest.raises(StoreError, match="JSON"):
        await store.set_guild_settings(GUILD, {"when": datetime.now()})
    with pytest.raises(StoreError, match="FOREIGN KEY"):
        await store.save_table(table(match_id=12345))  # foreign keys are enforced
    assert await store.load_tables() == []


# -- the file and its schema ---------------------------------------------------------------


async def test_database_uses_wal_and_foreign_keys(store: SqliteStore, db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"schema_version", "players", "guild_settings", "tables", "matches",
            "match_players", "actions", "hands"} <= tables


def applied(path: Path) -> list[tuple[int, str, int]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT * FROM schema_version ORDER BY version").fetchall()


async def test_migrations_apply_once(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    await store.close()
    first = applied(db_path)
    assert [(v, n) for v, n, _ in first] == [(m.version, m.name) for m in bundled_migrations()]
    store = await SqliteStore.open(db_path, clock=lambda: T0 + timedelta(days=1))
    await store.close()
    assert applied(db_path) == first


async def test_next_migration_applies_on_reopen(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    await store.save_table(table())
    await store.close()
    extra = Migration(len(bundled_migrations()) + 1, "ratings", textwrap.dedent("""
        -- a later migration: a table, an index, a trigger
        CREATE TABLE ratings (guild_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
                              mu REAL NOT NULL, sigma REAL NOT NULL,
                              PRIMARY KEY (guild_id, user_id)) STRICT;
        CREATE INDEX ratings_rank ON ratings (guild_id, mu DESC);
        CREATE TRIGGER ratings_positive BEFORE INSERT ON ratings WHEN NEW.sigma <= 0
        BEGIN SELECT RAISE(ABORT, 'sigma'); END;
    """))
    store = await SqliteStore.open(db_path, migrations=[*bundled_migrations(), extra])
    assert store.schema_version == extra.version
    assert await store.load_table(CHANNEL) == table()
    await store.close()
    assert applied(db_path)[-1][:2] == (extra.version, "ratings")
    with pytest.raises(StoreError, match="newer than this bot"):
        await SqliteStore.open(db_path)


async def test_failed_migration_leaves_nothing_behind(db_path: Path) -> None:
    broken = Migration(len(bundled_migrations()) + 1, "broken",
                       "CREATE TABLE half (x INTEGER);\nCREATE TABLE oops (;\n")
    with pytest.raises(StoreError, match="migrations"):
        await SqliteStore.open(db_path, migrations=[*bundled_migrations(), broken])
    with sqlite3.connect(db_path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "half" not in names and "matches" in names
    assert [v for v, _, _ in applied(db_path)] == [m.version for m in bundled_migrations()]


@pytest.mark.parametrize("change, message", [
    ("INSERT INTO schema_version VALUES (999, 'future', 0)", "schema version 999, newer"),
    ("UPDATE schema_version SET name = 'other' WHERE version = 1", "expects 'initial'"),
], ids=["newer", "renamed"])
async def test_foreign_schema_is_refused(db_path: Path, change: str, message: str) -> None:
    store = await SqliteStore.open(db_path)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(change)
    with pytest.raises(StoreError, match=message):
        await SqliteStore.open(db_path)


async def test_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are not the tables you are looking for" * 100)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        await SqliteStore.open(path)


async def test_open_store_picks_sqlite_for_a_path(db_path: Path) -> None:
    store = await open_store(str(db_path))
    try:
        assert await store.load_tables() == []
    finally:
        await store.close()
    with pytest.raises(StoreError, match="PostgreSQL"):
        await open_store("postgresql://localhost/shengji")


def test_bundled_migrations_are_numbered_and_split() -> None:
    migrations = bundled_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    statements = migrations[0].statements()
    trigger = next(s for s in statements if "CREATE TRIGGER actions_no_gap" in s)
    assert trigger.endswith("END;")


# -- nothing else depends on SQLite --------------------------------------------------------


def test_only_the_store_imports_sqlite() -> None:
    bad = []
    for package in ("bot", "cogs", "images", "engine"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "bot" / "store.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                bad += [f"{path.relative_to(ROOT)} imports {n}" for n in names
                        if n.split(".")[0] in ("sqlite3", "aiosqlite")]
    assert not bad, "\n".join(bad)
