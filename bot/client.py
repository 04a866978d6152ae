"""The Bot: wires settings and loads the cogs in ``setup_hook`` (one cog per concern)."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.config import Settings

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.info",)


class ShengjiBot(commands.Bot):
    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.default()  # no privileged intent is needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         allowed_mentions=discord.AllowedMentions.none(),
                         help_command=None)
        self.settings = settings

    async def setup_hook(self) -> None:
        for name in EXTENSIONS:
            try:
                await self.load_extension(name)
            except commands.ExtensionError:
                log.exception("could not load %s", name)
        if self.settings.guild_id:
            guild = discord.Object(self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("connected as %s", self.user)
