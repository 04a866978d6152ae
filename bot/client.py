"""The Bot: wires the store, the table service and the publisher, and loads the cogs."""

from __future__ import annotations

import logging
from dataclasses import replace

import discord
from discord.ext import commands

from bot.ai import EngineDeciders
from engine.ai import AiPool
from bot.config import Settings
from bot.publisher import DiscordPublisher
from bot.stats import LeaderboardButton, StatsService
from bot.store import Store, open_store
from bot.tables import TableService, TableSettings
from bot.translator import ShengjiTranslator
from bot.tree import ShengjiTree

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.shengji",)


class ShengjiBot(commands.AutoShardedBot):
    store: Store
    tables: TableService
    publisher: DiscordPublisher
    stats: StatsService

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.default()  # no privileged intent is needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         allowed_mentions=discord.AllowedMentions.none(),
                         help_command=None, tree_cls=ShengjiTree,
                         # not sharded: one shard of one; sharded: docs/deploy.md
                         shard_count=settings.shard_count or 1,
                         shard_ids=list(settings.shards or (0,)))
        self.settings = settings
        self.default_table_settings = replace(TableSettings().scaled(settings.pause_scale),
                                              turn_timer=settings.turn_timer)

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.database)
        # before anything is restored: no other live process may act on these tables
        await self.store.claim_shards(self.settings.shard_count or 1,
                                      self.settings.shards or (0,))
        self.publisher = DiscordPublisher(self, edit_interval=self.settings.edit_interval)
        self.stats = StatsService(self.store)
        self.deciders = EngineDeciders(AiPool(workers=1))
        self.tables = TableService(self.store, self.publisher, self.deciders,
                                   default_settings=self.default_table_settings,
                                   seed=self.settings.seed, stats=self.stats)
        self.add_dynamic_items(LeaderboardButton)  # leaderboard pages survive restarts
        await self.tree.set_translator(ShengjiTranslator())
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
        restored = await self.tables.restore()
        log.info("restored %d table(s)", len(restored))
        counted = await self.stats.catch_up()
        if counted:
            log.info("counted %d hand(s) into player stats", counted)
        for table in restored:
            self.loop.create_task(self.publisher.refresh(table))

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "store"):
            await self.store.close()
        if hasattr(self, "deciders"):
            self.deciders.close()
        await super().close()

    async def on_ready(self) -> None:
        log.info("connected as %s", self.user)
