"""Two real bot processes over one PostgreSQL database, each with its shard: the fake Discord
routes each server to its shard's process (IDENTIFY with ``[shard_id, shard_count]``); a
third process for a shard that is served is refused; killing and restarting one process
resumes its table and leaves the other's alone; each server's stats read the same from
its shard's process as from one process serving both shards."""

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
from tests.bot.test_stats_e2e import ENV as STATS_ENV
from tests.bot.test_stats_e2e import SHORT, ask, play_match
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


class TwoShards:
    """A fake Discord with one server in each of two shards, and the bot processes that
    serve them over one PostgreSQL database."""

    def __init__(self, tmp_path: Path, url: str, env: dict[str, str]) -> None:
        self.tmp_path, self.url, self.env = tmp_path, url, env
        self.fake = FakeDiscord()
        self.guilds = [self.fake.add_guild(f"Shard {i}", shard=(i, 2)) for i in range(2)]
        self.channels = [self.fake.add_channel(guild, "shengji") for guild in self.guilds]
        self.bots: list[BotProcess] = []

    def process(self, name: str, shards: str | None) -> BotProcess:
        """A bot process serving ``shards`` (None: every shard of the count)."""
        env = {**FAST, **self.env, "SHENGJI_DB": self.url, "SHENGJI_SHARD_COUNT": "2"}
        if shards is not None:
            env["SHENGJI_SHARDS"] = shards
        bot = BotProcess(self.fake, ["-m", "bot"], log_path=self.tmp_path / f"{name}.log",
                         cwd=ROOT, extra_env=env)
        self.bots.append(bot)
        return bot

    async def start(self) -> list[World]:
        """Starts one process per shard; the two servers' worlds, once both are ready."""
        await self.fake.start()
        bots = [self.process("shard0", "0"), self.process("shard1", "1")]
        for bot in bots:
            await bot.start()
        await wait_until(lambda: set(self.fake.shard_sessions()) == {0, 1}, timeout=60)
        await self.fake.wait_until_ready(timeout=60)
        return [World(self.fake, bot, guild, channel, self.url, bot.log_path, {})
                for bot, guild, channel in zip(bots, self.guilds, self.channels)]

    async def stop(self) -> None:
        for bot in self.bots:
            await bot.stop()
        await self.fake.stop()


async def test_two_processes_serve_their_own_shards_of_one_postgres_database(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    shards = TwoShards(tmp_path, await postgres_server.new_database(), {})
    fake = shards.fake
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    try:
        worlds = await shards.start()
        guilds, bots = shards.guilds, [world.bot for world in worlds]
        for shard, session in fake.shard_sessions().items():  # each was told of its guild only
            told = [f["d"]["id"] for f in session.history if f["t"] == "GUILD_CREATE"]
            assert told == [str(guilds[shard].id)], (shard, told)

        await create_and_start(worlds[0], alice)
        await create_and_start(worlds[1], bob)
        await _play(worlds[0], alice, 2)
        await _play(worlds[1], bob, 2)

        # a second process for shard 1 is refused while the first one lives
        intruder = shards.process("intruder", "1")
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
        bots[0] = worlds[0].bot = shards.process("shard0-again", "0")
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
        await shards.stop()
    fake.assert_clean()


async def test_each_servers_stats_read_the_same_from_its_shards_process_and_from_one_for_both(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    """Two processes each finish a match in their own server; every answer of the stats
    commands (leaderboard, stats, history) is then the same from one process serving both
    shards: the stats live in the one database, not in a process."""
    shards = TwoShards(tmp_path, await postgres_server.new_database(), STATS_ENV)
    fake = shards.fake
    admin = fake.add_user("Admin", manage_guild=True)
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")

    async def answers(world: World) -> list[object]:
        """What Alice sees of her server's stats: the board, her record, her history."""
        seen: list[object] = []
        for command in ("leaderboard", "stats", "history"):
            ix = await ask(world, alice, command)
            seen.append((ix.message.content, ix.message.embeds))
        return seen

    try:
        worlds = await shards.start()
        played = []
        for world in worlds:  # a one-hand match in each server, served by its own process
            await ask(world, admin, "settings", options=SHORT)
            played.append(await play_match(world, alice, bob))
        before = [await answers(world) for world in worlds]
        for world, match in zip(worlds, played):
            stats = (await ask(world, alice, "stats")).message.embeds[0]["description"]
            assert f"Matches: 1 played, {int(match.winner_team == 0)} won" in stats, stats
        for world in worlds:
            await world.bot.stop()

        both = shards.process("both", None)  # every shard of the count
        for world in worlds:
            world.bot = both
        old = fake.shard_sessions()
        await both.start()
        await wait_until(lambda: all(fake.shard_sessions()[shard] is not old[shard]
                                     for shard in (0, 1)), timeout=60)
        await wait_until(lambda: "connected as" in both.output(), timeout=60)
        assert [await answers(world) for world in worlds] == before
    finally:
        await shards.stop()
    fake.assert_clean()
