"""A PostgreSQL server the bot cannot reach (on the real bot process and a real server).

At start (a database that comes up after the bot, as under docker compose, or restarts):
tried again until it answers; a stop asked meanwhile ends the bot at once; a database that
answers "no" (no such database) stops it at once saying why. Mid-match (the server
restarts): an action is answered "could not be saved; nothing changed", a question that
needs the database is answered that the database cannot be reached, and once the server
is back the same action goes through, with no restart of the bot."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from pathlib import Path

import asyncpg

from bot.text.catalogue import say
from tests.bot.harness import (
    FAST,
    ROOT,
    World,
    act_when_asked,
    answered,
    create_and_start,
    relay,
    table_message,
    wait_until,
)
from tests.fakediscord import BotProcess, FakeChannel, FakeDiscord
from tests.postgres import PostgresServer

SOCKET = ".s.PGSQL.5432"  # (the file libpq and asyncpg look for in the host folder)


class LatePostgres:
    """A socket folder where nothing listens (the server is not up yet) until ``open``
    makes it pass connections on to the test server."""

    def __init__(self, server: PostgresServer) -> None:
        self.target = str(server.socket_dir / SOCKET)
        # (short: a socket's path may not be longer than 107 bytes, which tmp_path can be)
        self.folder = Path(tempfile.mkdtemp(prefix="sjpg-late-"))
        self.server: asyncio.Server | None = None
        self.passing: list[asyncio.StreamWriter] = []  # both ends of every connection

    def url(self, database_url: str) -> str:
        """``database_url`` (a database of the test server) reached through this folder."""
        return database_url.replace(f"host={self.target.rsplit('/', 1)[0]}",
                                    f"host={self.folder}")

    async def open(self) -> None:
        self.server = await asyncio.start_unix_server(self._pass_on,
                                                      path=str(self.folder / SOCKET))

    async def _pass_on(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server = await asyncio.open_unix_connection(self.target)
        self.passing.extend([writer, server[1]])
        await relay((reader, writer), server)

    async def cut(self) -> None:
        """The server goes away: every connection dropped, and nothing listens."""
        if self.server is not None:
            self.server.close()
            self.server = None
        for writer in self.passing:
            writer.close()
        self.passing.clear()
        (self.folder / SOCKET).unlink(missing_ok=True)

    async def close(self) -> None:
        await self.cut()
        shutil.rmtree(self.folder, ignore_errors=True)


async def start_bot(tmp_path: Path, database: str, name: str
                    ) -> tuple[FakeDiscord, BotProcess]:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Friends")
    fake.add_channel(guild, "shengji")
    process = BotProcess(fake, ["-m", "bot"], cwd=ROOT, log_path=tmp_path / f"{name}.log",
                         extra_env={**FAST, "SHENGJI_GUILD_ID": str(guild.id),
                                    "SHENGJI_DB": database})
    return fake, await process.start()


async def test_a_database_that_comes_up_after_the_bot_is_tried_again_until_it_answers(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    database = await postgres_server.new_database()
    late = LatePostgres(postgres_server)
    fake, process = await start_bot(tmp_path, late.url(database), "late")
    try:
        await wait_until(lambda: process.output().count("Cannot reach the database") >= 2
                         or process.returncode is not None, timeout=30)
        output = process.output()
        assert process.returncode is None, output[-2000:]
        assert f"host={late.folder}" in output  # (which database: the URL, less any password)
        assert "Trying again in 1 s." in output and "Trying again in 2 s." in output
        assert fake.synced_commands() == []  # nothing set up before the database answers
        await late.open()
        await process.wait_ready(timeout=30)
        guild = next(iter(fake.guilds.values()))
        channel: FakeChannel = next(iter(fake.channels.values()))
        world = World(fake, process, guild, channel, late.url(database), process.log_path, {})
        await create_and_start(world, fake.add_user("Alice"))  # stored in that database
        assert "Traceback" not in process.output()
    finally:
        await process.stop()
        await late.close()
        await fake.stop()
        await postgres_server.drop_database(database)


async def test_a_stop_while_waiting_for_the_database_ends_the_bot_at_once(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    late = LatePostgres(postgres_server)
    fake, process = await start_bot(tmp_path, late.url(postgres_server.url("shengji")),
                                    "stopped")
    try:
        await wait_until(lambda: "Trying again in 4 s." in process.output()
                         or process.returncode is not None, timeout=30)
        assert process.proc is not None
        process.proc.terminate()
        # (a wait of 4 s or more was under way: an exit within 3 s is the stop's)
        code = await asyncio.wait_for(process.proc.wait(), 3)
        output = process.output()
        assert code == 0 and "Traceback" not in output, output[-2000:]
    finally:
        await process.stop()
        await late.close()
        await fake.stop()


async def test_a_database_that_answers_no_stops_the_bot_at_once_saying_why(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    url = postgres_server.url("no_such_database")
    fake, process = await start_bot(tmp_path, url, "missing")
    try:
        assert process.proc is not None
        code = await asyncio.wait_for(process.proc.wait(), 60)
        output = process.output()
        assert code == 2, output[-2000:]
        assert f"The database '{url}' cannot be used: cannot connect" in output
        assert 'database "no_such_database" does not exist' in output
        assert "Trying again" not in output and "Traceback" not in output
    finally:
        await process.stop()
        await fake.stop()


async def test_a_database_restart_mid_match_is_said_and_the_match_goes_on_after(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    database = await postgres_server.new_database()
    late = LatePostgres(postgres_server)
    await late.open()
    fake, process = await start_bot(tmp_path, late.url(database), "restart")
    try:
        await process.wait_ready(timeout=30)
        guild = next(iter(fake.guilds.values()))
        channel: FakeChannel = next(iter(fake.channels.values()))
        world = World(fake, process, guild, channel, late.url(database), process.log_path, {})
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        # the computers play until Alice is to play (burying first if she took the kitty)
        loop = asyncio.get_running_loop()
        end = loop.time() + 120
        while "Alice to play" not in (table_message(world).content or ""):
            assert loop.time() < end, fake.describe_recent()
            await act_when_asked(world, alice, "Alice")
            await asyncio.sleep(0.1)
        choices = await fake.autocomplete(alice, channel, "shengji", "play",
                                          focused="cards", value="")
        stored = await _actions(database)

        async def play() -> str:
            ix = await answered(await fake.slash(alice, channel, "shengji", "play",
                                                 cards=choices[0]["value"]))
            assert ix.message.ephemeral
            return ix.message.content

        await late.cut()  # the server restarts
        assert await play() == say("en-US", "storage")  # told the truth: not stored
        board = await answered(await fake.slash(alice, channel, "shengji", "leaderboard"))
        assert board.message.ephemeral
        assert board.message.content == say("en-US", "store_unreachable")
        admin = fake.add_user("Admin", manage_guild=True)
        erase = await answered(await fake.slash(admin, channel, "shengji", "erase-data",
                                                  whose="server"))
        assert erase.message.ephemeral and not erase.message.custom_ids()
        assert erase.message.content == say("en-US", "store_unreachable")
        await late.open()
        assert await _actions(database) == stored  # nothing changed
        # the server is back: the same play goes through, stored once, next in the log
        assert await play() != say("en-US", "storage")
        assert await _action(database, stored) == {"type": "Play", "seat": 0,
                                                   "cards": choices[0]["value"]}
        output = process.output()
        assert "could not store an action of match" in output
        assert "Traceback" not in output, output[-3000:]
    finally:
        await process.stop()
        await late.close()
        await fake.stop()
        await postgres_server.drop_database(database)


async def _actions(database: str) -> int:
    """The actions stored in ``database`` (read by the test, past the bot)."""
    conn = await asyncpg.connect(database)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM actions"))
    finally:
        await conn.close()


async def _action(database: str, seq: int) -> object:
    """The stored action number ``seq`` of the one match in ``database``."""
    conn = await asyncpg.connect(database)
    try:
        return json.loads(await conn.fetchval("SELECT action FROM actions WHERE seq = $1", seq))
    finally:
        await conn.close()
