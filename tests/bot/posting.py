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
    posted: list[int] = field(default_factory=list)  # the ids ``message_posted`` was told
    # every call of ``message_posted``: (message_id, moving_from)
    stored: list[tuple[int, int | None]] = field(default_factory=list)


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
    stored: list[tuple[int, int | None]] = []

    async def message_posted(table: Table, message_id: int, *,
                             moving_from: int | None = None) -> None:
        # (as the table service remembers them)
        table.message_id, table.moving_from = message_id, moving_from
        if not posted or posted[-1] != message_id:
            posted.append(message_id)
        stored.append((message_id, moving_from))

    async def nothing(*_: object) -> None:
        pass

    publisher = DiscordPublisher(Postbox(client), message_posted=message_posted,
                                 redrawn=nothing, channel_gone=nothing,
                                 pictures=ThreadPictures(), edit_interval=0)
    try:
        yield Posting(fake, channel, users, publisher, posted, stored)
    finally:
        await publisher.close()
        await client.close()
        await fake.stop()
