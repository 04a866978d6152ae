"""The real bot against the fake Discord: a lobby nobody starts is closed after
``SHENGJI_LOBBY_HOURS``, saying so on its table message, and the channel takes a new
table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import answered, has_table, running_bot, table_message, wait_until

pytestmark = pytest.mark.asyncio


async def test_a_lobby_nobody_starts_is_closed_saying_so(tmp_path: Path) -> None:
    async with running_bot(tmp_path, env={"SHENGJI_LOBBY_HOURS": "0.001"}) as world:
        fake = world.fake
        ann = fake.add_user("Ann")
        await answered(await fake.slash(ann, world.channel, "shengji", "create"))
        await wait_until(lambda: has_table(world), timeout=10)
        lobby = table_message(world)
        await wait_until(lambda: "nobody started it in 0.001 hours"
                         in (fake.message(lobby.id).content or ""), timeout=20)
        closed = fake.message(lobby.id)
        assert "`/shengji create` opens a new one." in closed.content
        ix = await answered(await fake.slash(ann, world.channel, "shengji", "status"))
        assert "There is no Shengji table in this channel" in ix.message.content
        ix = await answered(await fake.slash(ann, world.channel, "shengji", "create"))
        assert ix.message.content.startswith("Table created")
        await wait_until(lambda: has_table(world), timeout=10)
        assert "This table is closed" not in table_message(world).content
        assert not closed.custom_ids()  # (the closed table's message has no buttons left)
        assert "Traceback" not in world.bot.output()
    fake.assert_clean()
