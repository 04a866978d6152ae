"""The real bot (``python -m bot``) against the local fake Discord."""

from __future__ import annotations

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
