"""The store (bot/store/), one contract for both backends: every test that takes ``backend``
or ``store`` runs on a real SQLite file and on a real PostgreSQL database (tests/postgres.py).
Round-trips, the append-only action log and its durability, corrupt rows, migrations, the
start-up checks of a SQLite file, and that nothing else touches a database driver."""

from __future__ import annotations

import ast
import asyncio
import logging
import sqlite3
import sys
import textwrap
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.stats.settings import ServerSettings, ServerSettingsService
from bot.store import (
    FORMER_PLAYER,
    GuildData,
    HandRecord,
    HandStats,
    MatchStatus,
    Migration,
    PlayerData,
    PostgresStore,
    Rating,
    SeatChange,
    SeatRecord,
    SqliteStore,
    StoreError,
    StoreUnreachable,
    TableRecord,
    bundled_migrations,
    open_store,
)
from bot.store.sqlite import split_statements
from tests.bot.backends import T0, Backend, Clock, damage_pages
from tests.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[2]
GUILD = 111_111_111_111_111_111
OTHER_GUILD = 222_222_222_222_222_222
CHANNEL = 333_333_333_333_333_333
ALICE, BOB, CAROL = 900_000_000_000_000_001, 900_000_000_000_000_002, 900_000_000_000_000_003
RULES = {"preset": "classic", "players": 4, "decks": 2, "level_ranks": ["2", "3", "A"]}


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


Store = SqliteStore | PostgresStore


@pytest.fixture
async def store(backend: Backend):  # type: ignore[no-untyped-def]
    store = await backend.open(clock=Clock())
    yield store
    await store.close()


# -- round-trips ---------------------------------------------------------------------------


async def test_table_round_trips_and_upserts_by_channel(store: Store) -> None:
    first = table()
    await store.save_table(first)
    assert await store.load_tables() == [first]
    match_id = await store.create_match(GUILD, CHANNEL, 7, RULES, seats())
    playing = table(status="playing", match_id=match_id, message_id=None,
                    seats=seats())
    await store.save_table(playing)
    other = table(CHANNEL + 1, guild_id=OTHER_GUILD, locale="en")
    await store.save_table(other)
    assert await store.load_tables() == [playing, other]
    # who is away is kept with the table's seats (the match's seats never say it)
    away = [SeatRecord("human", ALICE, "Alice", away=True), *seats()[1:]]
    await store.save_table(replace(playing, seats=away))
    assert (await store.load_tables())[0].seats == away
    assert [s.away for s in (await store.load_match(match_id)).seats] == [False] * 4
    # a nudge's move of the table message, kept until it is over
    moving = replace(playing, seats=away, message_id=555, moving_from=444)
    await store.save_table(moving)
    assert (await store.load_tables())[0] == moving
    await store.save_table(replace(moving, moving_from=None))
    assert (await store.load_tables())[0].moving_from is None


async def test_finished_tables_are_read_one_channel_at_a_time_and_can_be_forgotten(
        store: Store) -> None:
    lobby = table()
    finished = table(CHANNEL + 1, status="finished")
    await store.save_table(lobby)
    await store.save_table(finished)
    assert await store.live_tables() == [lobby]
    assert await store.load_tables() == [lobby, finished]
    assert await store.load_table(CHANNEL + 1) == finished
    assert await store.load_table(CHANNEL + 2) is None
    await store.forget_table(CHANNEL + 1)
    assert await store.load_table(CHANNEL + 1) is None
    assert await store.load_tables() == [lobby]


def test_an_away_flag_that_does_not_read_is_not_away() -> None:
    base = {"kind": "human", "user_id": ALICE, "name": "Alice"}
    assert SeatRecord.from_dict({**base, "away": True}).away
    assert SeatRecord.from_dict(base).to_dict() == {**base, "ai_level": None}
    for damaged in ("yes", 1, None, [True]):
        assert not SeatRecord.from_dict({**base, "away": damaged}).away


async def test_match_round_trips_until_finished(store: Store) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 2**62 + 5, RULES, seats(), ranked=True)
    match = await store.load_match(match_id)
    assert match is not None
    assert (match.id, match.guild_id, match.channel_id, match.seed, match.rules, match.seats,
            match.status, match.winner_team, match.finished_at, match.hands_played,
            match.ranked) == (match_id, GUILD, CHANNEL, 2**62 + 5, RULES, seats(), "playing",
                              None, None, 0, True)
    assert match.started_at.tzinfo is not None and match.started_at > T0

    await store.finish_match(match_id, "finished", 1)
    done = await store.load_match(match_id)
    assert done is not None and done.status == "finished" and done.winner_team == 1
    assert done.finished_at is not None and done.finished_at > done.started_at
    with pytest.raises(StoreError, match="already finished"):
        await store.finish_match(match_id, "abandoned", None)
    assert await store.load_match(match_id + 1) is None


async def test_hands_round_trip_in_order_and_count(store: Store) -> None:
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


async def test_an_amended_hand_takes_only_its_levels_after_and_result(store: Store) -> None:
    """The level moves after a hand (``TableService`` amends its record): the levels
    after, the seats' changes and the result change; nothing else, no other hand, and
    no count. A hand not stored is refused, and nothing changes."""
    match_id = await store.create_match(GUILD, CHANNEL, 1, RULES, seats())
    first = hand(match_id, 0, defenders=(0, 2), winner_side="attackers",
                 seat_changes=(SeatChange("2", "2", 0, ("none",)),) * 4)
    second = hand(match_id, 1)
    await store.record_hand(first)
    await store.record_hand(second)
    amended = replace(first, levels_after=["3", "2"], result={"lines": ["moved"]},
                      seat_changes=(SeatChange("2", "3", 0, ("none",)),) * 4,
                      attacker_points=5, dealer=2, last_trick_seat=0)
    await store.amend_hand(amended)
    expected = replace(first, levels_after=["3", "2"], result={"lines": ["moved"]},
                       seat_changes=amended.seat_changes)
    assert await store.match_hands(match_id) == [expected, second]
    match = await store.load_match(match_id)
    assert match is not None and match.hands_played == 2
    with pytest.raises(StoreError, match=f"hand 2 of match {match_id} is not stored"):
        await store.amend_hand(hand(match_id, 2))
    assert await store.match_hands(match_id) == [expected, second]


@pytest.mark.parametrize("hand_no", [1, 0], ids=["duplicate", "earlier"])
async def test_a_hand_number_must_follow_the_last_stored(store: Store, hand_no: int) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 1, RULES, seats())
    await store.record_hand(hand(match_id, 0))
    await store.record_hand(hand(match_id, 1))
    with pytest.raises(StoreError, match="already stored"):
        await store.record_hand(hand(match_id, hand_no))
    assert [h.hand_no for h in await store.match_hands(match_id)] == [0, 1]


async def test_a_deal_dealt_again_leaves_its_number_unused(store: Store) -> None:
    """Hand numbers are the engine's: a three-bid deal nobody bid on is dealt again under
    the next number, so the scored hands may skip one; they are counted in order."""
    match_id = await store.create_match(GUILD, CHANNEL, 1, RULES, seats())
    await store.record_hand(hand(match_id, 0))
    await store.record_hand(hand(match_id, 2))
    assert [h.hand_no for h in await store.match_hands(match_id)] == [0, 2]
    match = await store.load_match(match_id)
    assert match is not None and match.hands_played == 2
    with pytest.raises(StoreError, match="the next to count is 0"):
        await store.count_hand(match_id, 2, [], [])
    await store.count_hand(match_id, 0, [], [])
    with pytest.raises(StoreError, match="the next to count is 2"):
        await store.count_hand(match_id, 1, [], [])
    await store.count_hand(match_id, 2, [], [])
    assert await store.stats_progress(match_id) == 2


async def test_guild_settings_round_trip_per_guild(store: Store) -> None:
    assert await store.guild_settings(GUILD) == {}
    settings = {"default_preset": "changzhu", "options": {"decks": 3}, "turn_timer": 90,
                "ai_in_ranked": False}
    await store.set_guild_settings(GUILD, settings)
    await store.set_guild_settings(OTHER_GUILD, {"turn_timer": 30})
    assert await store.guild_settings(GUILD) == settings
    await store.set_guild_settings(GUILD, {"turn_timer": 45})
    assert await store.guild_settings(GUILD) == {"turn_timer": 45}
    assert await store.guild_settings(OTHER_GUILD) == {"turn_timer": 30}


async def test_players_history_and_totals(store: Store) -> None:
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

    # (name, played, won, abandoned, ranked played, ranked won); the latest name counts:
    # Alice was "Alice 2" in one match only
    assert [await totals(store, GUILD, user) for user in (ALICE, BOB, CAROL)] == [
        ("Alice", 3, 2, 1, 2, 1), ("Bob 张", 2, 1, 1, 2, 1), ("Carol", 1, 0, 0, 0, 0)]
    assert await store.player_stats(OTHER_GUILD, CAROL) is None
    assert [m.id for m in await store.match_history(GUILD)] == [dropped, casual, lost, won]
    assert [m.id for m in await store.match_history(GUILD, user_id=CAROL)] == [casual]
    assert [m.id for m in await store.match_history(GUILD, limit=2, before_id=casual)] == \
        [lost, won]
    assert await store.match_history(OTHER_GUILD) == []


#: Every table that holds a server's rows, and how a row names its server.
_BY_GUILD = {
    "players": "guild_id = ?", "guild_settings": "guild_id = ?", "matches": "guild_id = ?",
    "match_players": "guild_id = ?", "player_stats": "guild_id = ?",
    "player_ratings": "guild_id = ?", "tables": "guild_id = ?",
    "actions": "match_id IN (SELECT id FROM matches WHERE guild_id = ?)",
    "hands": "match_id IN (SELECT id FROM matches WHERE guild_id = ?)",
}


async def _rows_of(backend: Backend, guild_id: int) -> dict[str, int]:
    return {name: (await backend.raw(f"SELECT COUNT(*) FROM {name} WHERE {where}",
                                     (guild_id,)))[0][0]
            for name, where in _BY_GUILD.items()}


async def _a_server_that_played(store: Store, guild_id: int, channel_id: int) -> int:
    """A finished ranked match with an action, a counted hand (stats, ratings), server
    settings and the match's ended table; the match's id."""
    match_id = await store.create_match(guild_id, channel_id, 1, RULES, seats(), ranked=True)
    await store.append_action(match_id, 0, action(0))
    await store.record_hand(hand(match_id, 0))
    await store.count_hand(match_id, 0, [HandStats(ALICE, True, True, 1, False),
                                         HandStats(BOB, True, True, 1, True)],
                           [Rating(ALICE, 26.0, 8.0, 1), Rating(BOB, 26.0, 8.0, 1)])
    await store.finish_match(match_id, "finished", 0)
    await store.set_guild_settings(guild_id, {"turn_timer": 45})
    await store.save_table(table(channel_id, guild_id=guild_id, status="finished",
                                 match_id=match_id, seats=seats()))
    return match_id


async def test_erasing_a_server_deletes_its_rows_and_no_other_servers(
        store: Store, backend: Backend) -> None:
    await _a_server_that_played(store, GUILD, CHANNEL)
    await store.upsert_player(GUILD, CAROL, "Carol")
    kept = await _a_server_that_played(store, OTHER_GUILD, CHANNEL + 1)
    others = await _rows_of(backend, OTHER_GUILD)
    assert all(others.values()), others  # (every table has a row of each server)
    assert await store.guild_data(GUILD) == GuildData(1, 3, True, ())

    # a table open in the server: nothing is erased, and its channel is named
    await store.save_table(table(CHANNEL + 2))
    before = await _rows_of(backend, GUILD)
    assert await store.erase_guild(GUILD) == GuildData(1, 3, True, (CHANNEL + 2,))
    assert await _rows_of(backend, GUILD) == before

    await store.save_table(table(CHANNEL + 2, status="finished"))
    assert await store.erase_guild(GUILD) == GuildData(1, 3, True, ())
    assert set((await _rows_of(backend, GUILD)).values()) == {0}
    assert await _rows_of(backend, OTHER_GUILD) == others
    found = await store.guild_data(GUILD)
    assert found == GuildData(0, 0, False, ()) and found.empty
    assert await store.erase_guild(GUILD) == found  # (nothing left: nothing to do)
    # the server plays again from nothing, and the other server's match is whole
    assert await store.player_stats(GUILD, ALICE) is None
    assert await store.leaderboard(GUILD, "rating") == ([], 0)
    assert await store.load_actions(kept) == [action(0)]
    await _a_server_that_played(store, GUILD, CHANNEL)
    assert (await totals(store, GUILD, ALICE))[1:3] == (1, 1)


async def test_erasing_a_player_takes_them_out_of_the_servers_rows_and_keeps_the_matches(
        store: Store, backend: Backend) -> None:
    first = await _a_server_that_played(store, GUILD, CHANNEL)  # Alice (seat 0), Bob (2)
    second = await store.create_match(GUILD, CHANNEL, 2, RULES, seats())
    await store.finish_match(second, "abandoned", None)
    elsewhere = await _a_server_that_played(store, OTHER_GUILD, CHANNEL + 1)
    assert await store.player_data(GUILD, ALICE) == PlayerData(2, True, ())

    # she sits at a table in a lobby, or in a match in play (even one without a table):
    # nothing changes, and the channels are named
    await store.save_table(table(CHANNEL + 2))  # (Alice's lobby)
    playing = await store.create_match(GUILD, CHANNEL + 3, 3, RULES, seats())
    before = await _rows_of(backend, GUILD)
    assert await store.erase_player(GUILD, ALICE) == PlayerData(3, True,
                                                                (CHANNEL + 2, CHANNEL + 3))
    assert await _rows_of(backend, GUILD) == before
    # (she hosts the lobby without a seat in it)
    bobs = [None, SeatRecord("human", BOB, "Bob 张"), None, None]
    await store.save_table(table(CHANNEL + 2, seats=bobs))
    await store.finish_match(playing, "abandoned", None)
    assert (await store.erase_player(GUILD, ALICE)).live_channels == (CHANNEL + 2,)
    await store.save_table(table(CHANNEL + 2, seats=bobs, host_id=BOB))

    assert await store.erase_player(GUILD, ALICE) == PlayerData(3, True, ())
    assert await store.player_data(GUILD, ALICE) == PlayerData(0, False, ())
    assert await store.player_stats(GUILD, ALICE) is None
    assert await store.load_ratings(GUILD, [ALICE]) == {}
    assert await store.match_history(GUILD, user_id=ALICE) == []
    # the matches are whole, her seat a former player's; Bob's record is his
    match = await store.load_match(first)
    assert match is not None
    assert match.seats == [SeatRecord("human", FORMER_PLAYER, ""), *seats()[1:]]
    assert [m.id for m in await store.match_history(GUILD, user_id=BOB)] == \
        [playing, second, first]
    assert (await totals(store, GUILD, BOB))[:4] == ("Bob 张", 1, 1, 2)
    ended = await store.load_table(CHANNEL)
    assert ended is not None and ended.seats[0] is None and ended.host_id == FORMER_PLAYER
    assert ended.seats[1:] == seats()[1:]
    for name, where in _BY_GUILD.items():  # (her id is in no row of the server)
        rows = await backend.raw(f"SELECT * FROM {name} WHERE {where}", (GUILD,))
        assert not [r for r in rows if str(ALICE) in repr(r)], name
    # a former player is no player of the server, and another server's Alice is untouched
    assert (await store.guild_data(GUILD)).players == 1
    assert (await totals(store, OTHER_GUILD, ALICE))[:3] == ("Alice", 1, 1)
    assert (await store.load_match(elsewhere)).seats == seats()  # type: ignore[union-attr]
    assert await store.erase_player(GUILD, ALICE) == PlayerData(0, False, ())
    with pytest.raises(StoreError, match="a former player"):
        await store.erase_player(GUILD, FORMER_PLAYER)
    # the server's erase takes the former players' seats too
    await store.save_table(table(CHANNEL + 2, status="finished"))
    assert (await store.erase_guild(GUILD)).matches == 3
    assert set((await _rows_of(backend, GUILD)).values()) == {0}


async def totals(store: Store, guild_id: int, user_id: int) -> tuple[object, ...]:
    stats = await store.player_stats(guild_id, user_id)
    assert stats is not None
    return (stats.name, stats.played, stats.won, stats.abandoned, stats.ranked_played,
            stats.ranked_won)


async def test_user_in_two_seats_counts_one_match(store: Store) -> None:
    alone = [SeatRecord("human", ALICE, "Alice"), SeatRecord("ai", None, "Bot", "easy"),
             SeatRecord("human", ALICE, "Alice"), SeatRecord("ai", None, "Bot", "easy")]
    match_id = await store.create_match(GUILD, CHANNEL, 1, RULES, alone)
    await store.finish_match(match_id, "finished", 0)
    assert await totals(store, GUILD, ALICE) == ("Alice", 1, 1, 0, 0, 0)


# -- the action log ------------------------------------------------------------------------


def action(seq: int) -> dict[str, object]:
    return {"type": "Play", "seat": seq % 4, "cards": f"{seq % 9 + 2}S"}


async def test_actions_survive_close_and_reopen(backend: Backend) -> None:
    store = await backend.open()
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    for seq in range(20):
        await store.append_action(match_id, seq, action(seq))
    await store.close()
    store = await backend.open()
    try:
        assert await store.load_actions(match_id) == [action(s) for s in range(20)]
        await store.append_action(match_id, 20, {"type": "NextHand"})
        assert len(await store.load_actions(match_id)) == 21
    finally:
        await store.close()


async def test_actions_survive_sigkill_right_after_append(backend: Backend) -> None:
    store = await backend.open()
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    await store.close()
    count = 40
    code = textwrap.dedent(f"""
        import asyncio, os
        from bot.store import open_store

        async def main():
            store = await open_store({backend.target!r})
            for seq in range({count}):
                await store.append_action({match_id}, seq, {{"type": "Deal", "count": seq}})
            os.kill(os.getpid(), 9)

        asyncio.run(main())
    """)
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", code, cwd=ROOT)
    assert await asyncio.wait_for(process.wait(), 30) == -9
    store = await backend.open()
    try:
        assert await store.load_actions(match_id) == [{"type": "Deal", "count": s}
                                                      for s in range(count)]
    finally:
        await store.close()


@pytest.mark.parametrize("seq, message", [(2, "already stored"), (0, "already stored"),
                                          (4, "gap"), (100, "gap")],
                         ids=["duplicate-last", "duplicate-first", "gap-of-one", "far-gap"])
async def test_seq_must_be_the_next_one(store: Store, seq: int, message: str) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    for s in range(3):
        await store.append_action(match_id, s, action(s))
    with pytest.raises(StoreError, match=message):
        await store.append_action(match_id, seq, {"type": "EndDeal"})
    assert await store.load_actions(match_id) == [action(s) for s in range(3)]
    await store.append_action(match_id, 3, action(3))  # the next one still goes in


async def test_log_refuses_gaps_and_changes_even_past_the_store(store: Store,
                                                               backend: Backend) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    with pytest.raises(Exception, match="seq must follow"):
        await backend.raw("INSERT INTO actions VALUES (?, 5, '{}', 0)", (match_id,))
    await store.append_action(match_id, 0, action(0))
    with pytest.raises(Exception, match="append-only"):
        await backend.raw("UPDATE actions SET action = '{}' WHERE match_id = ?", (match_id,))
    assert await store.load_actions(match_id) == [action(0)]


@pytest.mark.parametrize("finish, winner", [("finished", 0), ("abandoned", None)])
async def test_ended_or_missing_match_takes_no_actions(store: Store, finish: MatchStatus,
                                                       winner: int | None) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    await store.append_action(match_id, 0, action(0))
    await store.finish_match(match_id, finish, winner)
    with pytest.raises(StoreError, match=f"is {finish}"):
        await store.append_action(match_id, 1, action(1))
    with pytest.raises(StoreError, match="no match"):
        await store.append_action(match_id + 1, 0, action(0))


async def test_concurrent_tables_interleave_safely(store: Store) -> None:
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


async def test_two_clicks_store_one_action(store: Store) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    results = await asyncio.gather(*(store.append_action(match_id, 0, action(i))
                                     for i in range(5)), return_exceptions=True)
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, StoreError) for r in results if r is not None)
    assert len(await store.load_actions(match_id)) == 1


# -- corrupt rows --------------------------------------------------------------------------


SECRET = "BJ BJ AS AS KS"  # card text that must never reach a log line or an error


def on_backends(fields: str, cases: dict[str, tuple[object, ...]], *,
                broken_json: tuple[str, ...] = ()) -> pytest.MarkDecorator:
    """Damage cases crossed with the backends; PostgreSQL's json columns cannot hold broken
    JSON, so the ``broken_json`` cases are SQLite's alone."""
    params = [pytest.param(name, *case, id=f"{name}-{key}") for key, case in cases.items()
              for name in ("sqlite", "postgres") if name == "sqlite" or key not in broken_json]
    return pytest.mark.parametrize(f"backend, {fields}", params, indirect=["backend"])


@on_backends("column, value", {
    "truncated-json": ("seats", '[{"kind": "human", "cards": "' + SECRET),
    "seats-not-a-list": ("seats", '{"cards": "' + SECRET + '"}'),
    "bad-seat-kind": ("seats", '[{"kind": "alien", "user_id": 1, "name": "' + SECRET + '"}]'),
    "options-not-object": ("options", '"' + SECRET + '"'),
    "bad-status": ("status", SECRET),
}, broken_json=("truncated-json",))
async def test_corrupt_table_is_skipped_with_a_warning(store: Store, backend: Backend,
                                                       caplog: pytest.LogCaptureFixture,
                                                       column: str, value: str) -> None:
    for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2):
        await store.save_table(table(channel))
    await backend.damage(f"UPDATE tables SET {column} = ? WHERE channel_id = ?",
                         (value, CHANNEL + 1))
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        loaded = await store.load_tables()
    assert [t.channel_id for t in loaded] == [CHANNEL, CHANNEL + 2]
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert f"tables (channel_id={CHANNEL + 1})" in warning.getMessage()
    assert "BJ" not in caplog.text


@on_backends("value, reason", {
    "truncated-json": ('{"type": "Play", "cards": "' + SECRET, "not valid JSON"),
    "not-an-object": ('"' + SECRET + '"', "not an object"),
}, broken_json=("truncated-json",))
async def test_corrupt_action_names_its_row_not_its_cards(store: Store, backend: Backend,
                                                          value: str, reason: str) -> None:
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    for seq in range(3):
        await store.append_action(match_id, seq, action(seq))
    await backend.damage("UPDATE actions SET action = ? WHERE seq = 1", (value,))
    with pytest.raises(StoreError, match=rf"actions \(match_id={match_id}, seq=1\)") as info:
        await store.load_actions(match_id)
    assert reason in str(info.value) and "BJ" not in str(info.value)


async def test_corrupt_match_is_named_and_skipped_in_history(
        store: Store, backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    good = await store.create_match(GUILD, CHANNEL, 1, RULES, seats())
    bad = await store.create_match(GUILD, CHANNEL, 2, RULES, seats())
    for match_id in (good, bad):
        await store.finish_match(match_id, "abandoned", None)
    await backend.damage("UPDATE matches SET rules = ? WHERE id = ?", (f'["{SECRET}"]', bad))
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        assert [m.id for m in await store.match_history(GUILD)] == [good]
    assert f"matches (id={bad})" in caplog.text and "BJ" not in caplog.text
    with pytest.raises(StoreError, match="rules is not an object"):
        await store.load_match(bad)


async def test_corrupt_guild_settings_raise_a_store_error(store: Store,
                                                          backend: Backend) -> None:
    await store.set_guild_settings(GUILD, {"turn_timer": 60})
    await backend.damage("UPDATE guild_settings SET settings = '[1, 2]'")
    with pytest.raises(StoreError, match=f"guild_settings \\(guild_id={GUILD}\\)"):
        await store.guild_settings(GUILD)


async def test_a_server_whose_settings_cannot_be_read_gets_the_defaults_until_saved(
        store: Store, backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    """Was: every new table of that server (and its settings command) answered "something
    went wrong", since the corrupt row's error reached the user."""
    settings = ServerSettingsService(store)
    await settings.update(GUILD, options="level_ranks=K,A", turn_timer=60)
    await backend.damage("UPDATE guild_settings SET settings = '[1, 2]'")
    with caplog.at_level(logging.WARNING):
        assert await settings.get(GUILD) == ServerSettings()
    assert f"guild_settings (guild_id={GUILD})" in caplog.text
    assert (await settings.update(GUILD, turn_timer=30)).turn_timer == 30  # saved anew
    assert await settings.get(GUILD) == ServerSettings(turn_timer=30)


# -- records refuse nonsense ---------------------------------------------------------------


@pytest.mark.parametrize("build", [
    lambda: SeatRecord("human", None, "Nobody"),
    lambda: SeatRecord("ai", ALICE, "Bot"),
    lambda: SeatRecord("robot", None, "Bot"),  # type: ignore[arg-type]
    lambda: SeatRecord("ai", None, "Bot", "easy", away=True),
    lambda: table(status="paused"),
    lambda: table(seats=[{"kind": "human"}]),
    lambda: hand(1, 0, levels_after="2 3"),
], ids=["human-without-id", "ai-with-id", "unknown-kind", "ai-away", "table-status", "seat-dict",
        "levels-not-list"])
def test_records_refuse_nonsense(build) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StoreError):
        build()


async def test_store_refuses_what_the_database_cannot_hold(store: Store) -> None:
    with pytest.raises(StoreError, match="64-bit"):
        await store.create_match(GUILD, CHANNEL, 2**64, RULES, seats())
    with pytest.raises(StoreError, match="JSON"):
        await store.set_guild_settings(GUILD, {"when": datetime.now()})
    with pytest.raises(StoreError, match=r"(?i)foreign key"):
        await store.save_table(table(match_id=12345))  # foreign keys are enforced
    assert await store.load_tables() == []


# -- the schema and its migrations ---------------------------------------------------------


async def applied(backend: Backend) -> list[tuple[int, str, int]]:
    return await backend.raw("SELECT version, name, applied_at FROM schema_version "
                             "ORDER BY version")


async def test_both_dialects_hold_the_same_schema(tmp_path: Path,
                                                  postgres_server: PostgresServer) -> None:
    """The same migrations (versions, names) make the same tables, columns and order."""
    assert [(m.version, m.name) for m in bundled_migrations("sqlite")] == \
        [(m.version, m.name) for m in bundled_migrations("postgres")]
    lite = Backend("sqlite", str(tmp_path / "schema.sqlite3"))
    pg = Backend("postgres", await postgres_server.new_database(empty=True))
    for each in (lite, pg):
        await (await each.open()).close()
    columns: dict[str, dict[str, list[tuple[str, bool]]]] = {}
    for each in (lite, pg):
        columns[each.dialect] = {}
        for name in sorted(await each.table_names() - {"sqlite_sequence"}):
            if each.dialect == "sqlite":
                rows = [(r[1], bool(r[3])) for r in
                        await each.raw(f"PRAGMA table_info({name})")]
            else:
                rows = [(r[0], r[1] == "NO") for r in await each.raw(
                    "SELECT column_name, is_nullable FROM information_schema.columns "
                    "WHERE table_schema = 'public' AND table_name = ? "
                    "ORDER BY ordinal_position", (name,))]
            columns[each.dialect][name] = rows
    # SQLite reports a lone INTEGER PRIMARY KEY as nullable; PostgreSQL does not
    for table_name, column in (("guild_settings", "guild_id"), ("matches", "id"),
                               ("tables", "channel_id"), ("schema_version", "version")):
        columns["sqlite"][table_name] = [(c, True if c == column else n)
                                         for c, n in columns["sqlite"][table_name]]
    assert columns["sqlite"] == columns["postgres"]


async def test_migrations_apply_once(empty_backend: Backend) -> None:
    await (await empty_backend.open()).close()
    first = await applied(empty_backend)
    assert [(v, n) for v, n, _ in first] == \
        [(m.version, m.name)
         for m in bundled_migrations(empty_backend.dialect)]  # type: ignore[arg-type]
    await (await empty_backend.open(clock=lambda: T0 + timedelta(days=1))).close()
    assert await applied(empty_backend) == first


LATER_MIGRATION = {  # a table, an index and a trigger, in each dialect
    "sqlite": """
        CREATE TABLE ratings (guild_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
                              mu REAL NOT NULL, sigma REAL NOT NULL,
                              PRIMARY KEY (guild_id, user_id)) STRICT;
        CREATE INDEX ratings_rank ON ratings (guild_id, mu DESC);
        CREATE TRIGGER ratings_positive BEFORE INSERT ON ratings WHEN NEW.sigma <= 0
        BEGIN SELECT RAISE(ABORT, 'sigma'); END;
    """,
    "postgres": """
        CREATE TABLE ratings (guild_id BIGINT NOT NULL, user_id BIGINT NOT NULL,
                              mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,
                              PRIMARY KEY (guild_id, user_id));
        CREATE INDEX ratings_rank ON ratings (guild_id, mu DESC);
        CREATE FUNCTION ratings_positive() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.sigma <= 0 THEN RAISE EXCEPTION 'sigma'; END IF; RETURN NEW; END $$;
        CREATE TRIGGER ratings_positive BEFORE INSERT ON ratings
            FOR EACH ROW EXECUTE FUNCTION ratings_positive();
    """,
}


async def test_next_migration_applies_on_reopen(empty_backend: Backend) -> None:
    bundled = bundled_migrations(empty_backend.dialect)  # type: ignore[arg-type]
    store = await empty_backend.open()
    await store.save_table(table())
    await store.close()
    extra = Migration(len(bundled) + 1, "ratings",
                      textwrap.dedent(LATER_MIGRATION[empty_backend.dialect]))
    store = await empty_backend.open(migrations=[*bundled, extra])
    assert store.schema_version == extra.version
    assert await store.load_tables() == [table()]
    await store.close()
    assert (await applied(empty_backend))[-1][:2] == (extra.version, "ratings")
    with pytest.raises(Exception, match="sigma"):
        await empty_backend.raw("INSERT INTO ratings VALUES (1, 1, 25.0, -1.0)")
    with pytest.raises(StoreError, match="newer than this bot"):
        await empty_backend.open()


async def test_failed_migration_leaves_nothing_behind(empty_backend: Backend) -> None:
    bundled = bundled_migrations(empty_backend.dialect)  # type: ignore[arg-type]
    broken = Migration(len(bundled) + 1, "broken",
                       "CREATE TABLE half (x INTEGER);\nCREATE TABLE oops (;\n")
    with pytest.raises(StoreError, match="migrations"):
        await empty_backend.open(migrations=[*bundled, broken])
    names = await empty_backend.table_names()
    assert "half" not in names and "matches" in names
    assert [v for v, _, _ in await applied(empty_backend)] == [m.version for m in bundled]


@pytest.mark.parametrize("change, message", [
    ("INSERT INTO schema_version VALUES (999, 'future', 0)", "schema version 999, newer"),
    ("UPDATE schema_version SET name = 'other' WHERE version = 1", "expects 'initial'"),
], ids=["newer", "renamed"])
async def test_foreign_schema_is_refused(empty_backend: Backend, change: str,
                                         message: str) -> None:
    await (await empty_backend.open()).close()
    await empty_backend.raw(change)
    with pytest.raises(StoreError, match=message):
        await empty_backend.open()


async def test_another_programs_database_is_refused(empty_backend: Backend) -> None:
    if empty_backend.dialect == "sqlite":
        Path(empty_backend.target).parent.mkdir(parents=True)
    await empty_backend.raw("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)")
    with pytest.raises(StoreError, match=r"not a Shengji database: it holds other tables "
                                         r"\(invoices\)"):
        await empty_backend.open()
    assert await empty_backend.table_names() == {"invoices"}  # and nothing was added to it


def test_bundled_sqlite_migrations_split_into_whole_statements() -> None:
    statements = split_statements(bundled_migrations("sqlite")[0])
    trigger = next(s for s in statements if "CREATE TRIGGER actions_no_gap" in s)
    assert trigger.endswith("END;")


async def test_open_store_picks_the_backend_by_its_setting(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    url = await postgres_server.new_database(empty=True)
    for target, kind in ((str(tmp_path / "a.sqlite3"), SqliteStore), (url, PostgresStore),
                         (url.replace("postgresql://", "postgres://"), PostgresStore)):
        store = await open_store(target)
        try:
            assert isinstance(store, kind) and await store.load_tables() == []
        finally:
            await store.close()


async def test_a_postgres_server_that_is_not_there_is_a_clear_error(tmp_path: Path) -> None:
    url = f"postgresql://shengji:secret@/shengji?host={tmp_path}"
    with pytest.raises(StoreUnreachable, match="cannot connect to the PostgreSQL database") \
            as info:
        await open_store(url)  # (no server there yet: the bot tries again)
    assert "secret" not in str(info.value)


async def test_a_postgres_server_that_answers_no_is_not_tried_again(
        postgres_server: PostgresServer) -> None:
    with pytest.raises(StoreError, match='database "nowhere" does not exist') as info:
        await open_store(postgres_server.url("nowhere"))
    assert not isinstance(info.value, StoreUnreachable)


# -- the SQLite file: WAL, and refused when it is not a Shengji database -------------------


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "shengji.sqlite3"


async def test_sqlite_uses_wal_and_foreign_keys(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    try:
        with sqlite3.connect(db_path) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master "
                                                 "WHERE type='table'")}
        assert {"schema_version", "players", "guild_settings", "tables", "matches",
                "match_players", "actions", "hands"} <= tables
    finally:
        await store.close()


async def test_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are not the tables you are looking for" * 100)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        await SqliteStore.open(path)


async def test_an_empty_file_is_refused_not_taken_as_a_new_database(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.touch()
    with pytest.raises(StoreError, match=r"is empty \(0 bytes\).*Restore it from a backup"):
        await SqliteStore.open(db_path)
    assert db_path.stat().st_size == 0  # left as found


async def test_damaged_pages_are_found_at_start(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    match_id = await store.create_match(GUILD, CHANNEL, 9, RULES, seats())
    for seq in range(300):
        await store.append_action(match_id, seq, {"type": "Play", "note": "x" * 200})
    await store.close()
    damage_pages(db_path)
    with pytest.raises(StoreError, match=r"is damaged \(.*restore it from a backup"):
        await SqliteStore.open(db_path)


# -- nothing else depends on a database driver ---------------------------------------------


def test_only_the_backends_import_their_drivers() -> None:
    allowed = {"sqlite3": ROOT / "bot" / "store" / "sqlite.py",
               "aiosqlite": ROOT / "bot" / "store" / "sqlite.py",
               "asyncpg": ROOT / "bot" / "store" / "postgres.py"}
    bad = []
    for package in ("bot", "cogs", "images", "engine"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                bad += [f"{path.relative_to(ROOT)} imports {n}" for n in names
                        if n.split(".")[0] in allowed and allowed[n.split(".")[0]] != path]
    assert not bad, "\n".join(bad)
