"""The Bot: wires the store, the services and the publisher, and loads the cogs."""

from __future__ import annotations

import logging
from dataclasses import replace

import discord
from discord.ext import commands

from bot.ai import EngineDeciders
from bot.config import Settings
from bot.services import Services
from bot.stats.counting import StatsCounter
from bot.stats.export import MatchExporter
from bot.stats.queries import StatsQueries
from bot.stats.settings import ServerSettingsService
from bot.store import Store, open_store
from bot.table_data import Table, TableSettings
from bot.tables import TableService
from bot.text.commands import ShengjiTranslator
from bot.tree import ShengjiTree
from bot.ui.panel_registry import PanelRegistry
from bot.ui.publisher import DiscordPublisher, Postbox
from engine.ai import AiPool

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.lobby", "cogs.play", "cogs.stats", "cogs.admin")


class ShengjiBot(commands.AutoShardedBot):
    store: Store
    tables: TableService
    counter: StatsCounter
    deciders: EngineDeciders
    publisher: DiscordPublisher
    services: Services

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
        panels = PanelRegistry()
        publisher = DiscordPublisher(Postbox(self), message_posted=self._message_posted,
                                     redrawn=panels.redraw,
                                     edit_interval=self.settings.edit_interval)
        server_settings = ServerSettingsService(self.store)
        self.counter = StatsCounter(self.store, server_settings)
        self.deciders = EngineDeciders(AiPool(workers=1))
        self.tables = TableService(self.store, publisher, self.deciders,
                                   default_settings=self.default_table_settings,
                                   seed=self.settings.seed, stats=self.counter)
        self.publisher = publisher
        self.services = Services(
            tables=self.tables, notes=publisher, panels=panels,
            server_settings=server_settings, stats=StatsQueries(self.store),
            exports=MatchExporter(self.store),
            default_table_settings=self.default_table_settings)
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
        counted = await self.counter.catch_up()
        if counted:
            log.info("counted %d hand(s) into player stats", counted)
        for restored_table in restored:
            publisher.remember_events(restored_table.table, restored_table.recent)
            publisher.schedule(restored_table.table)

    async def _message_posted(self, table: Table, message_id: int) -> None:
        await self.tables.remember_message(table, message_id)

    async def close(self) -> None:
        # stop the clocks, then the redraws, while the HTTP session is still open
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "publisher"):
            await self.publisher.close()
        if hasattr(self, "store"):
            await self.store.close()
        if hasattr(self, "deciders"):
            self.deciders.close()
        await super().close()

    async def on_ready(self) -> None:
        log.info("connected as %s", self.user)
