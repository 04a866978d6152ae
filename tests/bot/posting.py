"""A publisher against the fake Discord, for the tests of what it posts (the ``posting``
fixture of ``conftest.py``): a real discord.py client, five users (Cy's DMs closed), and
``message_posted`` remembered as the table service would."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.table_data import Table
from bot.ui.publisher import DiscordPublisher, Postbox
from bot.ui.render import ThreadPictures
from tests.fakediscord import FakeDiscord


@dataclass
class Posting:
    fake: FakeDiscord
    channel: Any
    users: list[Any]
    publisher: DiscordPublisher
    posted: list[int] = field(default_factory=list)  # what ``message_posted`` was told


@asynccontextmanager
async def open_posting(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Posting]:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "shengji")
    users = [fake.add_user(name, blocks_dms=name == "Cy")
             for name in ("Ann", "Bob", "Cy", "Di", "Ed")]
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    client = discord.Client(intents=discord.Intents.none())
    await client.login(fake.token)
    posted: list[int] = []

    async def message_posted(table: Table, message_id: int) -> None:
        table.message_id = message_id  # (as the table service remembers it)
        posted.append(message_id)

    async def nothing(*_: object) -> None:
        pass

    publisher = DiscordPublisher(Postbox(client), message_posted=message_posted,
                                 redrawn=nothing, channel_gone=nothing,
                                 pictures=ThreadPictures(), edit_interval=0)
    try:
        yield Posting(fake, channel, users, publisher, posted)
    finally:
        await publisher.close()
        await client.close()
        await fake.stop()
