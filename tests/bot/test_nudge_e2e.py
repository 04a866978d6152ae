"""The nudge end to end (``SHENGJI_NUDGE_AFTER``): through the real bot process and the
fake Discord, a player who lets their turn wait gets the table posted anew at the
channel's end with a mention of them (which Discord notifies), the old message goes, the
new one's buttons work, and a restart goes on editing the new one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.bot.harness import (
    answered,
    create_and_start,
    running_bot,
    table_message,
    wait_until,
)

pytestmark = pytest.mark.asyncio


async def test_a_waiting_turn_posts_the_table_anew_and_a_restart_keeps_it(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path, env={"SHENGJI_NUDGE_AFTER": "2"}) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        # the computers play until the game waits for Alice (a bury or a play)
        await wait_until(lambda: f"<@{alice.id}>" in table_message(world).content,
                         timeout=120)
        waited = table_message(world)
        mark = fake.mark()
        posted = await fake.wait_for(
            lambda r: r.kind == "channel_message" and r.channel_id == world.channel.id
            and f"<@{alice.id}>" in (r.content or ""), timeout=30, after=mark)
        await wait_until(lambda: fake.message(waited.id).deleted, timeout=10)
        table = table_message(world)
        assert table.id == posted.message_id != waited.id
        assert [int(u) for u in table.extra["allowed_mentions"]["users"]] == [alice.id]
        assert len([m for m in fake.messages(world.channel)
                    if any(c.startswith("sj:") for c in m.custom_ids())]) == 1

        # the new message's buttons work: My hand answers privately
        click = await fake.click(alice, table, table.button("My hand")["custom_id"])
        await answered(click)
        assert click.message.ephemeral

        # a restart (kill -9) edits the table message as it was last posted
        last = table_message(world).id
        mark = fake.mark()
        await world.restart()
        await fake.wait_for(lambda r: r.kind in ("message_edit", "channel_message")
                            and r.channel_id == world.channel.id
                            and r.message_id == last, timeout=30, after=mark)
        first = next(r for r in fake.records[mark:] if r.channel_id == world.channel.id
                     and r.kind in ("message_edit", "channel_message"))
        assert (first.kind, first.message_id) == ("message_edit", last)
    fake.assert_clean()


async def test_a_server_that_turns_the_nudge_off_gets_none(tmp_path: Path) -> None:
    async with running_bot(tmp_path, env={"SHENGJI_NUDGE_AFTER": "2"}) as world:
        fake = world.fake
        admin = fake.add_user("Bob", manage_guild=True)
        ix = await answered(await fake.slash(admin, world.channel, "shengji", "settings",
                                             nudge=0))
        assert "notify the player never" in ix.message.content
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        await wait_until(lambda: f"<@{alice.id}>" in table_message(world).content,
                         timeout=120)
        waited = table_message(world)
        await asyncio.sleep(5)  # (2 s would have nudged her, and the turn timer is 60 s)
        assert f"<@{alice.id}>" in table_message(world).content  # still her turn
        assert table_message(world).id == waited.id and not fake.message(waited.id).deleted
    fake.assert_clean()
