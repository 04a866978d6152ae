"""A table whose channel is deleted, or whose server removed the bot, ends (the real bot
process and the fake Discord): its match is abandoned, as by ``/shengji end``, nothing more
is posted or tried there, and a restart does not bring it back. Also when it happened
while the bot was down."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from tests.bot.harness import (
    World,
    answered,
    create_and_start,
    has_table,
    running_bot,
    wait_until,
)
from tests.fakediscord import FakeChannel

pytestmark = pytest.mark.asyncio
#: Commands in every server (not one's): a server the bot left is not one to register in.
EVERY_SERVER = {"SHENGJI_GUILD_ID": ""}


def _stored(world: World, channel: FakeChannel) -> tuple[str | None, str | None]:
    """The channel's stored table status and its last match's status (None: none)."""
    with closing(sqlite3.connect(f"file:{world.db}?mode=ro", uri=True)) as db:
        table = db.execute("SELECT status FROM tables WHERE channel_id = ?",
                           (channel.id,)).fetchone()
        match = db.execute("SELECT status FROM matches WHERE channel_id = ? "
                           "ORDER BY id DESC LIMIT 1", (channel.id,)).fetchone()
    return table and table[0], match and match[0]


def _log(world: World) -> str:
    return "".join(path.read_text() for path in world.logs if path.exists())


async def _requests_stop(world: World, channel: FakeChannel) -> None:
    """No request to ``channel`` for a second and a half (the table's redraws, a second
    apart at most, would show), after half a second for one already on its way."""
    path = f"/channels/{channel.id}/"
    await asyncio.sleep(0.5)
    seen = len(world.fake.requests)
    for _ in range(3):
        await asyncio.sleep(0.5)
        tried = [r for r in world.fake.requests[seen:] if path in r[1]]
        assert not tried, f"the bot still calls the deleted channel: {tried}"


async def _kill(world: World) -> None:
    assert world.bot.proc is not None
    world.bot.proc.kill()
    await world.bot.proc.wait()
    await wait_until(lambda: not world.fake.bot_connected, timeout=10)


async def _restart_restores(world: World, count: int) -> None:
    await world.restart()
    await wait_until(lambda: f"restored {count} table(s)" in world.logs[-1].read_text())


async def _match_and_lobby(world: World) -> FakeChannel:
    """Alice's match in the world's channel, and Bob's lobby in another of its server."""
    fake = world.fake
    await create_and_start(world, fake.add_user("Alice"))
    other = fake.add_channel(world.guild, "second-table")
    await answered(await fake.slash(fake.add_user("Bob"), other, "shengji", "create",
                                    preset="classic"))
    await wait_until(lambda: has_table(world, other))
    return other


async def test_a_deleted_channel_ends_its_table_and_a_restart_leaves_it_ended(tmp_path: Path
                                                                             ) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        other = await _match_and_lobby(world)
        assert _stored(world, world.channel) == ("playing", "playing")

        fake.delete_channel(world.channel)
        await wait_until(lambda: "was deleted: its table ended" in _log(world))
        assert _stored(world, world.channel) == (None, "abandoned")
        await _requests_stop(world, world.channel)
        assert _stored(world, other)[0] == "lobby"  # the other channel's table stays

        await _restart_restores(world, 1)
        await _requests_stop(world, world.channel)
        assert _stored(world, world.channel) == (None, "abandoned")
        assert "Traceback" not in _log(world)


async def test_a_deleted_thread_ends_its_table(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        thread = fake.add_thread(world.channel, "table")
        alice = fake.add_user("Alice")
        # a lobby, which nothing redraws: only the gateway's THREAD_DELETE can end it
        await answered(await fake.slash(alice, thread, "shengji", "create", preset="classic"))
        await wait_until(lambda: has_table(world, thread))
        assert _stored(world, thread) == ("lobby", None)

        fake.delete_channel(thread)
        await wait_until(lambda: "was deleted: its table ended" in _log(world))
        assert _stored(world, thread) == (None, None)
        await _requests_stop(world, thread)
        assert "Traceback" not in _log(world)


async def _gone_while_down(world: World, change: Callable[[], None], said: str) -> None:
    """A match in play; the bot is killed, ``change`` happens (nobody tells the bot), and
    the restarted bot ends the table, saying ``said``; a second restart finds no table."""
    await create_and_start(world, world.fake.add_user("Alice"))
    await _kill(world)
    change()
    await world.restart()
    await wait_until(lambda: said in _log(world))
    assert _stored(world, world.channel) == (None, "abandoned")
    await _requests_stop(world, world.channel)
    await _restart_restores(world, 0)
    assert "Traceback" not in _log(world)


async def test_a_channel_deleted_while_the_bot_was_down_ends_its_table_at_the_restart(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        # its first redraw finds the channel gone (404, Unknown Channel)
        await _gone_while_down(world, lambda: world.fake.delete_channel(world.channel),
                               "was deleted: its table ended")


async def test_a_server_that_removes_the_bot_has_its_tables_ended_and_no_other(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path, EVERY_SERVER) as world:
        fake = world.fake
        second = await _match_and_lobby(world)
        elsewhere = fake.add_guild("Elsewhere")
        far = fake.add_channel(elsewhere, "shengji")
        carol = fake.add_user("Carol")
        fake.add_member(elsewhere, carol)
        await answered(await fake.slash(carol, far, "shengji", "create", preset="classic"))
        await wait_until(lambda: has_table(world, far))

        fake.remove_bot(world.guild)
        await wait_until(lambda: "removed the bot: 2 table(s) ended" in _log(world))
        assert _stored(world, world.channel) == (None, "abandoned")
        assert _stored(world, second) == (None, None)
        await _requests_stop(world, world.channel)
        await _requests_stop(world, second)
        # the table elsewhere stays, and still answers
        assert _stored(world, far) == ("lobby", None)
        status = await answered(await fake.slash(carol, far, "shengji", "status"))
        assert "Carol" in status.message.content
        assert "Traceback" not in _log(world)


async def test_a_server_that_removed_the_bot_while_it_was_down_has_its_tables_ended(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path, EVERY_SERVER) as world:
        # the server is no longer in the bot's list when it connects
        await _gone_while_down(world, lambda: world.fake.remove_bot(world.guild),
                               "removed the bot: 1 table(s) ended")

