"""Sharded processes at the store: a store serves only the servers of the shards it claimed,
and refuses shards that another live process holds (a lease row per shard in PostgreSQL,
a file lock on a SQLite database)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys

import pytest

from bot.store import HandRecord, PostgresStore, SeatRecord, StoreError, TableRecord
from tests.bot.backends import Backend


def guild_in_shard(shard: int, count: int, n: int = 0) -> int:
    """A server id that Discord routes to ``shard`` of ``count``."""
    return ((1_000 + n) * count + shard) << 22


def _table(channel: int, guild: int) -> TableRecord:
    return TableRecord(channel_id=channel, guild_id=guild, host_id=7, message_id=None,
                       preset="classic", options={}, settings={},
                       seats=[SeatRecord("human", 7, "Ann"), None, None, None], match_id=None,
                       status="lobby", locale="en")


async def test_a_store_restores_and_counts_only_its_shards_servers(backend: Backend) -> None:
    setup = await backend.open()
    guilds = [guild_in_shard(s, 3, n) for n in range(2) for s in range(3)]
    pending = {}
    for channel, guild in enumerate(guilds, start=1):
        await setup.save_table(_table(channel, guild))
        match = await setup.create_match(guild, channel, 1, {}, [SeatRecord("human", 7, "A")])
        await setup.record_hand(HandRecord(
            match_id=match, hand_no=0, dealer=0, level="2", trump=None, defenders_team=0,
            attacker_points=0, kitty_multiplier=0, last_trick_team=0, winner_team=None,
            levels_gained=0, levels_before=["2"], levels_after=["2"], result={}))
        pending[match] = guild
    await setup.close()
    store = await backend.open()
    try:
        assert len(await store.load_tables()) == 6  # before claiming: everything
        await store.claim_shards(3, [2, 0])
        assert [t.guild_id for t in await store.load_tables()] == \
            [g for g in guilds if (g >> 22) % 3 in (0, 2)]
        assert [pending[m] for m in await store.pending_stats()] == \
            [g for g in guilds if (g >> 22) % 3 in (0, 2)]
    finally:
        await store.close()


@pytest.mark.parametrize("count, ids, message", [
    (0, [0], "at least 1"), (2, [2], "from 0 to 1"), (2, [], "from 0 to 1")],
    ids=["no-shards", "id-too-big", "none-chosen"])
async def test_nonsense_shards_are_refused(backend: Backend, count: int, ids: list[int],
                                           message: str) -> None:
    store = await backend.open()
    try:
        with pytest.raises(StoreError, match=message):
            await store.claim_shards(count, ids)
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_one_sqlite_file_is_served_by_one_process(backend: Backend) -> None:
    first = await backend.open()
    await first.claim_shards(2, [0])
    second = await backend.open()  # reading it (a test, migrate-db) is still fine
    try:
        with pytest.raises(StoreError, match="another live bot process is serving .* "
                                             "one process only"):
            await second.claim_shards(2, [1])
        await first.close()
        await second.claim_shards(1, [0])  # free once the first has stopped
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_postgres_shard_is_served_by_one_live_process(backend: Backend) -> None:
    first = await backend.open()
    second = await backend.open()
    try:
        await first.claim_shards(4, [0, 1])
        with pytest.raises(StoreError, match=r"shard 1 of 4 is served by another live "
                                             r"process \(.*seen 0 s ago\)"):
            await second.claim_shards(4, [1, 2])
        with pytest.raises(StoreError, match="SHENGJI_SHARD_COUNT=2: every process of one "
                                             "database must use the same count"):
            await second.claim_shards(2, [1])
        await second.claim_shards(4, [2, 3])
        assert sorted(await backend.raw("SELECT shard_id, owner FROM shard_leases")) == [
            (0, first.owner), (1, first.owner), (2, second.owner), (3, second.owner)]
    finally:
        await first.close()
    assert {r[0] for r in await backend.raw("SELECT shard_id FROM shard_leases")} == {2, 3}
    third = await backend.open()
    try:
        await third.claim_shards(4, [0, 1])  # let go of by close()
    finally:
        await third.close()
        await second.close()


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


@pytest.mark.parametrize("owner, age_s, taken", [
    ("elsewhere:123:ab", 3, False),
    ("elsewhere:123:ab", 20, True),
    ("HERE:DEAD:ab", 3, True),
    ("HERE:SELF:ab", 3, False),
], ids=["other-machine-live", "other-machine-expired", "this-machine-ended",
        "this-machine-running"])
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_lease_is_free_when_expired_or_its_process_has_ended(
        backend: Backend, owner: str, age_s: int, taken: bool) -> None:
    owner = owner.replace("HERE", socket.gethostname()).replace(
        "DEAD", str(_dead_pid())).replace("SELF", str(os.getpid()))
    store = await backend.open()
    try:
        await backend.raw(
            "INSERT INTO shard_leases VALUES (0, 1, ?, "
            "(extract(epoch FROM clock_timestamp()) * 1000)::bigint - ?)",
            (owner, age_s * 1000))
        assert PostgresStore.LEASE_SECONDS == 15
        if taken:
            await store.claim_shards(1, [0])
            assert await backend.raw("SELECT owner FROM shard_leases") == [(store.owner,)]
        else:
            with pytest.raises(StoreError, match="shard 0 of 1 is served by another"):
                await store.claim_shards(1, [0])
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_live_process_keeps_renewing_its_lease(backend: Backend,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PostgresStore, "LEASE_SECONDS", 0.6)
    first = await backend.open()
    second = await backend.open()
    try:
        await first.claim_shards(1, [0])
        [(claimed,)] = await backend.raw("SELECT heartbeat_at FROM shard_leases")
        await asyncio.sleep(1.0)  # past the lease time: only renewals keep it
        [(renewed,)] = await backend.raw("SELECT heartbeat_at FROM shard_leases")
        assert renewed > claimed
        with pytest.raises(StoreError, match="served by another live process"):
            await second.claim_shards(1, [0])
    finally:
        await first.close()
        await second.close()
