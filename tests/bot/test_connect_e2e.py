"""Reaching Discord, on the real bot process: a refused token, or a server it cannot
register its commands in, stops the bot at once with what to do; a Discord it cannot reach
at start is tried again until it answers (a machine whose network comes up after the bot);
a stop asked meanwhile is quick; no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from pathlib import Path

from tests.bot.harness import FAST, ROOT, World, create_and_start, relay, wait_until
from tests.fakediscord import BotProcess, FakeChannel, FakeDiscord, FakeGuild

TOKEN_ADVICE = "press \"Reset Token\", and put the new token in DISCORD_TOKEN"


@contextlib.asynccontextmanager
async def fake_discord() -> AsyncIterator[tuple[FakeDiscord, dict[str, str]]]:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Friends")
    fake.add_channel(guild, "shengji")
    try:
        yield fake, {**FAST, "SHENGJI_GUILD_ID": str(guild.id)}
    finally:
        await fake.stop()


def bot(fake: FakeDiscord, tmp_path: Path, env: dict[str, str], name: str) -> BotProcess:
    return BotProcess(fake, ["-m", "bot"], cwd=ROOT, log_path=tmp_path / f"{name}.log",
                      extra_env={"SHENGJI_DB": str(tmp_path / "db.sqlite3"), **env})


def world_of(fake: FakeDiscord, process: BotProcess, tmp_path: Path) -> World:
    """The harness's view of the one guild and channel, to play through ``process``."""
    guild: FakeGuild = next(iter(fake.guilds.values()))
    channel: FakeChannel = next(c for c in fake.channels.values() if c.guild_id == guild.id)
    return World(fake, process, guild, channel, str(tmp_path / "db.sqlite3"),
                 process.log_path, {})


async def exit_code(process: BotProcess, timeout: float = 60) -> int:
    assert process.proc is not None
    return await asyncio.wait_for(process.proc.wait(), timeout)


async def refused_start(fake: FakeDiscord, tmp_path: Path, env: dict[str, str], name: str
                        ) -> str:
    """The output of a bot process that must stop at start with exit 2 and no traceback."""
    process = await bot(fake, tmp_path, env, name).start()
    code = await exit_code(process)
    output = process.output()
    assert code == 2 and "Traceback" not in output, output[-2000:]
    return output


async def test_a_refused_token_stops_the_bot_at_once_saying_what_to_do(tmp_path: Path) -> None:
    async with fake_discord() as (fake, env):
        output = await refused_start(
            fake, tmp_path, {**env, "DISCORD_TOKEN": "not.this.bots.token"}, "refused")
        assert "Discord refused the bot token in DISCORD_TOKEN (401 Unauthorized)" in output
        assert TOKEN_ADVICE in output and "not.this.bots.token" not in output
        assert "WARNING" not in output  # (no voice, so no word of its missing libraries)
        # refused before anything was set up: no database made, no command registered
        assert not (tmp_path / "db.sqlite3").exists()
        assert fake.synced_commands() == [] and fake.gateway_connections == 0


class LateDiscord:
    """A port where nothing answers (bound, not listening: a connection is refused) until
    ``open`` makes it pass connections on to the fake."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server: asyncio.Server | None = None

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def open(self) -> None:
        self.sock.listen()
        self.server = await asyncio.start_server(self._pass_on, sock=self.sock)

    async def _pass_on(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await relay((reader, writer),
                    await asyncio.open_connection(self.fake.host, self.fake.port))

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        self.sock.close()


async def test_discord_out_of_reach_at_start_is_tried_again_until_it_answers(
        tmp_path: Path) -> None:
    async with fake_discord() as (fake, env):
        late = LateDiscord(fake)
        process = await bot(fake, tmp_path, {**env, "DISCORD_API_BASE": late.api_base},
                            "late").start()
        try:
            await wait_until(lambda: process.output().count("Cannot reach Discord") >= 2
                             or process.returncode is not None, timeout=30)
            output = process.output()
            assert process.returncode is None, output[-2000:]
            assert f"Cannot reach Discord ({late.api_base}): " in output
            assert "Trying again in 1 s." in output and "Trying again in 2 s." in output
            assert not (tmp_path / "db.sqlite3").exists()  # nothing set up meanwhile
            await late.open()
            await process.wait_ready(timeout=30)
            # the bot works: a table is made and started through the late port
            await create_and_start(world_of(fake, process, tmp_path), fake.add_user("Alice"))
            assert "Traceback" not in process.output()
        finally:
            await process.stop()
            await late.close()


async def test_a_stop_while_waiting_for_discord_ends_the_bot_at_once(tmp_path: Path) -> None:
    async with fake_discord() as (fake, env):
        late = LateDiscord(fake)
        process = await bot(fake, tmp_path, {**env, "DISCORD_API_BASE": late.api_base},
                            "stopped").start()
        try:
            await wait_until(lambda: "Trying again in 4 s." in process.output()
                             or process.returncode is not None, timeout=30)
            assert process.proc is not None
            process.proc.terminate()
            # (a wait of 4 s or more was under way: an exit within 3 s is the stop's)
            code = await exit_code(process, timeout=3)
            output = process.output()
            assert code == 0 and "Traceback" not in output, output[-2000:]
        finally:
            await process.stop()
            await late.close()


async def test_a_token_reset_while_running_stops_the_bot_saying_what_to_do(
        tmp_path: Path) -> None:
    async with fake_discord() as (fake, env):
        process = await bot(fake, tmp_path, env, "reset").start()
        try:
            await process.wait_ready(timeout=30)
            await create_and_start(world_of(fake, process, tmp_path), fake.add_user("Alice"))
            fake.token = "a.new.token"  # reset in the developer portal: the old one is refused
            # the table's next edit (the deal goes on) is refused before the gateway knows
            await wait_until(lambda: "Discord refused the bot token (401) to update the "
                             "table message" in process.output(), timeout=30)
            await fake.reconnect_bot()
            code = await exit_code(process)
            output = process.output()
            assert code == 2, output[-2000:]
            assert "Discord refused the bot token in DISCORD_TOKEN (gateway close code 4004" \
                in output
            # (a table edit refused meanwhile is one line in the log, not a traceback)
            assert TOKEN_ADVICE in output and "ConnectionClosed" not in output
            assert "Traceback" not in output, output[-3000:]
            # with the new token, the game goes on where it was
            sessions = len(fake.identify_payloads)
            process = await bot(fake, tmp_path, {**env, "DISCORD_TOKEN": "a.new.token"},
                                "new-token").start()
            await wait_until(lambda: len(fake.identify_payloads) > sessions, timeout=30)
            await process.wait_ready(timeout=30)
            assert "restored 1 table(s)" in process.output()
        finally:
            await process.stop()


async def test_discord_failing_at_log_in_is_tried_again(tmp_path: Path) -> None:
    async with fake_discord() as (fake, env):
        fault = fake.inject_fault("GET", "/users/@me", 503, times=2)
        process = await bot(fake, tmp_path, env, "outage").start()
        try:
            await process.wait_ready(timeout=30)
            output = process.output()
            assert fault.hits == 2
            assert output.count(f"Cannot reach Discord ({fake.api_base}): 503 ") == 2, \
                output[-2000:]
            assert "Trying again in 2 s." in output and "Traceback" not in output
        finally:
            await process.stop()


async def test_a_server_id_the_bot_cannot_register_commands_in_stops_it_saying_why(
        tmp_path: Path) -> None:
    async with fake_discord() as (fake, env):
        output = await refused_start(fake, tmp_path, {**env, "SHENGJI_GUILD_ID": "4242"},
                                     "unknown-guild")
        assert ("The slash commands cannot be registered in the server SHENGJI_GUILD_ID=4242 "
                "(404 Unknown Guild): the bot is not in that server") in output
        assert "unset SHENGJI_GUILD_ID" in output
        assert fake.synced_commands() == []
