"""Two real bot processes over one PostgreSQL database, each with its shard: the fake Discord
routes each server to its shard's process (IDENTIFY with ``[shard_id, shard_count]``); a
third process for a shard that is served is refused; killing and restarting one process
resumes its table and leaves the other's alone."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.harness import (
    FAST,
    ROOT,
    World,
    act_when_asked,
    create_and_start,
    hand_numbers,
    table_message,
    wait_until,
)
from tests.fakediscord import BotProcess, FakeDiscord, FakeUser
from tests.postgres import PostgresServer


async def _play(world: World, user: FakeUser, plays: int) -> None:
    done = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while done < plays:
        assert loop.time() < end, world.fake.describe_recent()
        done += await act_when_asked(world, user, f"1. {user.name}") == "play"
        await asyncio.sleep(0.02)


async def test_two_processes_serve_their_own_shards_of_one_postgres_database(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    url = await postgres_server.new_database()
    fake = FakeDiscord()
    await fake.start()
    guilds = [fake.add_guild(f"Shard {i}", shard=(i, 2)) for i in range(2)]
    channels = [fake.add_channel(guild, "shengji") for guild in guilds]
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")

    def process(shard: int, name: str) -> BotProcess:
        env = {**FAST, "SHENGJI_DB": url, "SHENGJI_SHARD_COUNT": "2",
               "SHENGJI_SHARDS": str(shard)}
        return BotProcess(fake, ["-m", "bot"], log_path=tmp_path / f"{name}.log", cwd=ROOT,
                          extra_env=env)

    bots = [process(0, "shard0"), process(1, "shard1")]
    worlds = [World(fake, bot, guild, channel, url, bot.log_path, {})
              for bot, guild, channel in zip(bots, guilds, channels)]
    try:
        for bot in bots:
            await bot.start()
        await wait_until(lambda: set(fake.shard_sessions()) == {0, 1}, timeout=60)
        await fake.wait_until_ready(timeout=60)
        for shard, session in fake.shard_sessions().items():  # each was told of its guild only
            told = [f["d"]["id"] for f in session.history if f["t"] == "GUILD_CREATE"]
            assert told == [str(guilds[shard].id)], (shard, told)

        await create_and_start(worlds[0], alice)
        await create_and_start(worlds[1], bob)
        await _play(worlds[0], alice, 2)
        await _play(worlds[1], bob, 2)

        # a second process for shard 1 is refused while the first one lives
        intruder = process(1, "intruder")
        await intruder.start()
        assert intruder.proc is not None
        assert await asyncio.wait_for(intruder.proc.wait(), 60) == 2
        assert "shard 1 of 2 is served by another live process" in intruder.output()

        # kill shard 0's process; a new one takes over its table where it was
        alice_hand = await hand_numbers(worlds[0], alice)
        bob_hand = await hand_numbers(worlds[1], bob)
        bob_session = fake.shard_sessions()[1]
        old_session = fake.shard_sessions()[0]
        assert bots[0].proc is not None
        bots[0].proc.kill()
        await bots[0].proc.wait()
        bots[0] = worlds[0].bot = process(0, "shard0-again")
        await bots[0].start()
        await wait_until(lambda: fake.shard_sessions()[0] is not old_session, timeout=60)
        await wait_until(lambda: "1. Alice to play" in table_message(worlds[0]).content,
                         timeout=60)
        assert await hand_numbers(worlds[0], alice) == alice_hand
        await _play(worlds[0], alice, 1)

        # shard 1's process and table were not touched, and go on
        assert bots[1].returncode is None and fake.shard_sessions()[1] is bob_session
        assert await hand_numbers(worlds[1], bob) == bob_hand
        await _play(worlds[1], bob, 1)
    finally:
        for bot in bots:
            await bot.stop()
        await fake.stop()
    fake.assert_clean()
