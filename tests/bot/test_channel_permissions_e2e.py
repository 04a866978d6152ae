"""A channel where the bot may not post its table (Discord's permissions), on the real bot
process: opening a table there is refused privately, naming what is missing, in the
player's language, and nothing is made; permissions lost mid-match are logged once, the
match goes on, and the table message comes back once they are given again."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.bot.harness import answered, create_and_start, running_bot, table_message, wait_until
from tests.fakediscord.model import Perm

ATTACH = int(Perm.ATTACH_FILES)


def _hands_stored(db: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0])


async def test_a_table_is_not_opened_where_the_bot_cannot_post_it(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        muted = fake.add_channel(world.guild, "muted", bot_can_send=False)
        no_files = fake.add_channel(world.guild, "no-files", bot_denied=ATTACH)
        neither = fake.add_channel(world.guild, "neither", bot_can_send=False, bot_denied=ATTACH)
        alice = fake.add_user("Alice")
        li = fake.add_user("Li", locale="zh-CN")
        await asyncio.sleep(0.2)  # (the channels' CHANNEL_CREATE reach the bot)
        for user, channel, said in [
            (alice, muted, "I am missing Send Messages here."),
            (alice, no_files, "I am missing Attach Files here."),
            (alice, neither, "I am missing Send Messages, Attach Files here."),
            (li, neither, "我在这里缺少“发送消息”、“附加文件”权限"),
        ]:
            for command in ("create", "start"):
                ix = await answered(await fake.slash(user, channel, "shengji", command))
                assert ix.message.ephemeral, (channel.name, command)
                assert said in ix.message.content, (channel.name, command, ix.message.content)
            status = await answered(await fake.slash(user, channel, "shengji", "status"))
            assert "no Shengji table" in status.message.content or "没有升级牌桌" in \
                status.message.content, channel.name
            assert fake.messages(channel) == [] and fake.public_payloads(channel) == []
        # where the bot may post, the same command opens a table
        ix = await answered(await fake.slash(alice, world.channel, "shengji", "create"))
        assert "Table created" in ix.message.content


async def test_permissions_lost_mid_match_are_logged_once_and_the_table_comes_back(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake, alice = world.fake, world.fake.add_user("Alice")
        await create_and_start(world, alice)
        before = table_message(world)
        world.channel.bot_denied = ATTACH  # an admin takes Attach Files away mid-match
        left = await answered(await fake.slash(alice, world.channel, "shengji", "leave"))
        assert not left.rejections  # computers play on: every trick asks for a redraw
        await wait_until(lambda: "cannot post the table message" in world.log.read_text(),
                         timeout=30)
        edited_at = before.edited_at
        hands = _hands_stored(world.db)
        # more redraws, and a hand's result post: all refused
        await wait_until(lambda: _hands_stored(world.db) > hands, timeout=60)
        await asyncio.sleep(0.5)
        log = world.log.read_text()
        assert log.count(f"cannot post the table message in {world.channel.id} "
                         "(403 Missing Permissions)") == 1
        assert "Traceback" not in log
        assert table_message(world).edited_at == edited_at  # (nothing got through)
        world.channel.bot_denied = 0  # given back
        joined = await answered(await fake.slash(alice, world.channel, "shengji", "join"))
        assert not joined.rejections
        # (the fake has the edit before the bot has Discord's answer and logs it)
        await wait_until(lambda: f"the table message in {world.channel.id} can be posted "
                         "again" in world.log.read_text(), timeout=30)
        assert table_message(world).edited_at != edited_at
