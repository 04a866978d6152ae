"""The real bot (``python -m bot``) against the local fake Discord."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.fakediscord import BotProcess, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
EPHEMERAL = 64


async def test_bot_connects_syncs_and_answers_rules(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "shengji")
    alice = fake.add_user("Alice")
    bot = BotProcess(fake, ["-m", "bot"], log_path=tmp_path / "bot.log", cwd=ROOT,
                     extra_env={"SHENGJI_GUILD_ID": str(guild.id),
                                "SHENGJI_DB": str(tmp_path / "db.sqlite3")})
    try:
        await bot.start()
        await bot.wait_ready(timeout=30)
        names = [c["name"] for c in fake.synced_commands(guild)]
        assert "shengji" in names
        ix = await fake.slash(alice, channel, "shengji", "rules", preset="changzhu")
        response = await ix.wait_acked()
        assert response["data"]["flags"] & EPHEMERAL
        assert "permanent_trumps" in ix.message.content and "2, 3, 5" in ix.message.content
        assert not fake.public_payloads(channel)
    finally:
        await bot.stop()
        await fake.stop()
    fake.assert_clean()


pytestmark = pytest.mark.asyncio


async def test_a_human_and_three_computers_play_a_full_hand(tmp_path: Path) -> None:
    from tests.bot.harness import act_when_asked, running_bot, table_message, wait_until

    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        ix = await fake.slash(alice, world.channel, "shengji", "create", preset="classic")
        await ix.wait_acked()
        await wait_until(lambda: _has_table(world))
        start = table_message(world).button("Start")
        click = await fake.click(alice, table_message(world), start["custom_id"])
        await click.wait_acked()
        acted: list[str] = []
        loop_end = asyncio.get_running_loop().time() + 120
        while not any("Attackers' total" in (m.content or "") for m in fake.messages(world.channel)):
            assert asyncio.get_running_loop().time() < loop_end, fake.describe_recent()
            done = await act_when_asked(world, alice, "1. Alice")
            if done:
                acted.append(done)
            await asyncio.sleep(0.05)
        public = " ".join(r.text() for r in fake.public_payloads(world.channel))
        # every one of Alice's turns was hers: no computer ever stood in for her
        assert acted.count("play") >= 6 and "is away" not in public
        assert "Your hand" not in public
        refusals = [r.content for r in fake.ephemerals(alice) if "Not allowed" in (r.content or "")]
        assert not refusals
    fake.assert_clean()


def _has_table(world) -> bool:  # type: ignore[no-untyped-def]
    from tests.bot.harness import table_message

    try:
        table_message(world)
    except LookupError:
        return False
    return True
