"""``shengji-bot migrate-db SOURCE TARGET``: a SQLite file to PostgreSQL and back, through
the real command; everything the bot reads is the same on every copy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.store import (
    HandRecord,
    HandStats,
    Rating,
    SeatChange,
    SeatRecord,
    TableRecord,
    open_store,
)
from tests.bot.backends import Clock
from tests.bot.harness import ROOT
from tests.postgres import PostgresServer

GUILDS = (111, 222)


def _seats(guild: int) -> list[SeatRecord]:
    return [SeatRecord("human", guild + 1, f"Ann {guild}"), SeatRecord("ai", None, "Bot", "easy"),
            SeatRecord("human", guild + 2, "Bea 张"), SeatRecord("ai", None, "Bot", "hard")]


def _hand(match_id: int, hand_no: int) -> HandRecord:
    return HandRecord(match_id=match_id, hand_no=hand_no, dealer=hand_no % 4, level="2",
                      trump="S", defenders_team=0, attacker_points=85, kitty_multiplier=2,
                      last_trick_team=1, winner_team=1, levels_gained=1,
                      levels_before=["2", "2"], levels_after=["2", "3"],
                      result={"notes": ["kitty ×2"], "trick_points": 75}, last_trick_seat=3,
                      defenders=(0, 2), winner_side="attackers", bid=None,
                      seat_changes=tuple(SeatChange("2", after, gained, reasons)
                                         for after, gained, reasons in (
                                             ("2", 0, ("none",)), ("3", 1, ("took_over",)),
                                             ("2", 0, ("none",)), ("3", 1, ("took_over",)))))


async def fill(database: str) -> None:
    """Every kind of row: players, settings, tables, finished, abandoned and running matches
    with their action logs, hands, counted stats and ratings, in two servers."""
    store = await open_store(database, clock=Clock())
    try:
        for guild in GUILDS:
            await store.set_guild_settings(guild, {"default_preset": "changzhu",
                                                   "turn_timer": 45})
            await store.upsert_player(guild, guild + 9, "Lurker")
            for n, outcome in enumerate(("finished", "abandoned", "playing")):
                match = await store.create_match(guild, guild * 10 + n, 2**40 + n,
                                                 {"preset": "classic", "decks": 2},
                                                 _seats(guild), ranked=n != 1)
                for seq in range(30):
                    await store.append_action(match, seq, {"type": "Play", "seat": seq % 4,
                                                           "cards": "10S 10S"})
                await store.record_hand(_hand(match, 0))
                if outcome != "playing":
                    await store.count_hand(match, 0, [HandStats(guild + 1, True, False, 0,
                                                                False),
                                                      HandStats(guild + 2, True, False, 0,
                                                                True)],
                                           [Rating(guild + 1, 24.5 - n, 8.1),
                                            Rating(guild + 2, 25.5, 8.0)])
                    await store.finish_match(match, outcome, 1 if outcome == "finished"
                                             else None)
                await store.save_table(TableRecord(
                    channel_id=guild * 10 + n, guild_id=guild, host_id=guild + 1,
                    message_id=None if n else 99, preset="classic", options={"decks": 2},
                    settings={"turn_timer": 60}, seats=[*_seats(guild)[:3], None],
                    match_id=match, status="lobby" if outcome != "playing" else "playing",
                    locale="zh"))
    finally:
        await store.close()


async def snapshot(database: str) -> dict[str, Any]:
    """Everything the bot reads, through the store."""
    store = await open_store(database)
    try:
        out: dict[str, Any] = {"tables": await store.load_tables(),
                               "pending": await store.pending_stats()}
        for match_id in range(1, 7):
            match = await store.load_match(match_id)
            out[f"match {match_id}"] = match and (match, await store.load_actions(match_id),
                                                  await store.match_hands(match_id),
                                                  await store.stats_progress(match_id))
        for guild in GUILDS:
            out[f"guild {guild}"] = (
                await store.guild_settings(guild), await store.match_history(guild),
                [await store.leaderboard(guild, order) for order in ("rating", "wins",
                                                                     "levels")],
                [await store.player_stats(guild, user) for user in (guild + 1, guild + 2,
                                                                    guild + 9)])
        return out
    finally:
        await store.close()


def migrate(source: str, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "migrate-db", source, target],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


async def test_sqlite_to_postgresql_and_back_keeps_everything(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    source = str(tmp_path / "old.sqlite3")
    await fill(source)
    expected = await snapshot(source)
    assert expected["match 6"][0] is not None and expected["guild 222"][2][0][1] == 2

    url = await postgres_server.new_database(empty=True)
    run = migrate(source, url)
    assert run.returncode == 0, run.stderr
    assert "actions: 180 rows" in run.stdout and "the row counts of every table match" in \
        run.stdout
    assert await snapshot(url) == expected

    back = str(tmp_path / "back" / "new.sqlite3")
    run = migrate(url, back)
    assert run.returncode == 0, run.stderr
    assert await snapshot(back) == expected

    # both copies go on numbering matches after the ones they were given
    for database in (url, back):
        store = await open_store(database)
        try:
            assert await store.create_match(1, 1, 1, {}, _seats(1)) == 7
        finally:
            await store.close()


async def test_a_target_that_is_not_empty_is_refused_and_left_as_it_was(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    source = str(tmp_path / "a.sqlite3")
    await fill(source)
    url = await postgres_server.new_database()
    store = await open_store(url)
    await store.upsert_player(5, 6, "Already here")
    await store.close()
    before = await snapshot(url)
    run = migrate(source, url)
    assert run.returncode == 2
    assert "is not empty (rows in players: 1)" in run.stderr and "nothing was copied" in run.stderr
    assert "Traceback" not in run.stderr
    assert await snapshot(url) == before


def test_a_missing_source_is_refused_not_created(tmp_path: Path) -> None:
    run = migrate(str(tmp_path / "typo.sqlite3"), str(tmp_path / "new.sqlite3"))
    assert run.returncode == 2 and "there is no SQLite file" in run.stderr
    assert not (tmp_path / "typo.sqlite3").exists() and not (tmp_path / "new.sqlite3").exists()
