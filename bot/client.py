"""The Bot: wires the store, the services and the publisher, and loads the cogs."""

from __future__ import annotations

import asyncio
import ctypes
import logging
import re
import signal
import sys
import threading
from dataclasses import replace
from typing import Any

import discord
from discord.ext import commands

from bot.ai import EngineDeciders
from bot.config import ConfigError, Settings
from bot.guard import answer_orphan, is_orphan
from bot.retry import Stopped, reason, stopped_within, waits
from bot.services import Services
from bot.stats.counting import StatsCounter
from bot.stats.export import MatchExporter
from bot.stats.queries import StatsQueries
from bot.stats.settings import ServerSettingsService
from bot.store import Store, StoreError, StoreUnreachable, open_store
from bot.table_data import Table, TableSettings
from bot.tables import TableService
from bot.text.catalogue import say
from bot.text.commands import ShengjiTranslator
from bot.tree import ShengjiTree, locale_of
from bot.ui.panel_registry import PanelRegistry
from bot.ui.publisher import DiscordPublisher, Postbox
from bot.ui.render import PictureWorkers
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
    panels: PanelRegistry
    pictures: PictureWorkers

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.default()  # no privileged intent is needed
        # no voice: no start-up warnings that the voice libraries are missing
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         allowed_mentions=discord.AllowedMentions.none(),
                         help_command=None, tree_cls=ShengjiTree,
                         # not sharded: one shard of one; sharded: docs/deploy.md
                         shard_count=settings.shard_count or 1,
                         shard_ids=list(settings.shards or (0,)))
        self.settings = settings
        # from the start of ``setup_hook``: a log-in that fails after is not tried again
        self.setting_up = False
        # set by SIGTERM/SIGINT (``bot.__main__``): also ends a wait for the database at start
        self.stopping = asyncio.Event()
        self._controls: set[re.Pattern[str]] = set()  # custom_id templates of our controls
        # (the turn's timer and nudge are the operator's seconds, never scaled)
        self.default_table_settings = replace(TableSettings().scaled(settings.pause_scale),
                                              turn_timer=settings.turn_timer,
                                              nudge_after=settings.nudge_after)

    async def setup_hook(self) -> None:
        self.setting_up = True
        # pictures are drawn in a worker process, away from the event loop (started first,
        # so that it is warm for the first picture)
        self.pictures = PictureWorkers(workers=1)
        self.store = await self._open_store()
        # before anything is restored: no other live process may act on these tables
        await self.store.claim_shards(self.settings.shard_count or 1,
                                      self.settings.shards or (0,))
        panels = PanelRegistry()
        self.panels = panels
        publisher = DiscordPublisher(Postbox(self), message_posted=self._message_posted,
                                     redrawn=panels.redraw, channel_gone=self._channel_gone,
                                     pictures=self.pictures,
                                     edit_interval=self.settings.edit_interval)
        server_settings = ServerSettingsService(self.store)
        self.counter = StatsCounter(self.store, server_settings)
        self.deciders = EngineDeciders(AiPool(workers=1))
        self.tables = TableService(self.store, publisher, self.deciders,
                                   default_settings=self.default_table_settings,
                                   seed=self.settings.seed, stats=self.counter,
                                   idle_lobby=self.settings.lobby_hours * 3600 or None,
                                   idle_paused=self.settings.paused_hours * 3600 or None)
        self.publisher = publisher
        self.services = Services(
            tables=self.tables, notes=publisher, panels=panels,
            server_settings=server_settings, stats=StatsQueries(self.store),
            exports=MatchExporter(self.store),
            default_table_settings=self.default_table_settings, pictures=self.pictures,
            server_data=self.store)
        # `kill -USR1 <pid>` logs the memory figures (bench/memory.py reads them)
        self.loop.add_signal_handler(signal.SIGUSR1, self.log_memory)
        await self.tree.set_translator(ShengjiTranslator())
        for name in EXTENSIONS:
            try:
                await self.load_extension(name)
            except commands.ExtensionError:
                log.exception("could not load %s", name)
        if self.settings.guild_id:
            guild = discord.Object(self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                await self.tree.sync(guild=guild)
            except (discord.Forbidden, discord.NotFound) as exc:
                raise ConfigError(
                    f"The slash commands cannot be registered in the server "
                    f"SHENGJI_GUILD_ID={self.settings.guild_id} ({exc.status} {exc.text}): the "
                    f"bot is not in that server, or was invited without the scope "
                    f"applications.commands. Invite it there (README, \"Installing the bot "
                    f"in a server\"), or unset SHENGJI_GUILD_ID to register them in every "
                    f"server.") from None
        else:
            await self.tree.sync()
        restored = await self.tables.restore()
        log.info("restored %d table(s); %d could not be restored and are kept aside%s",
                 len(restored), len(self.tables.damaged),
                 "".join(f"\n  channel {d.record.channel_id}: {d.reason}"
                         for d in self.tables.damaged.values()))
        for damaged in self.tables.damaged.values():
            await publisher.show_damaged(damaged.record.channel_id, damaged.record.message_id,
                                         damaged.record.locale, damaged.reason)
        counted = await self.counter.catch_up()
        if counted:
            log.info("counted %d hand(s) into player stats", counted)
        # (in a lobby or in play: a finished table's message stays as it ended, saying who
        # won, which a table restored without its game could not say again)
        for restored_table in restored:
            await publisher.finish_move(restored_table.table)  # (a nudge a kill stopped)
            publisher.remember_events(restored_table.table, restored_table.recent)
            publisher.schedule(restored_table.table)

    async def _open_store(self) -> Store:
        """The store, tried again while its server cannot be reached (a database that starts
        after the bot, or restarts), with one line in the log a try; a refused password or a
        missing database raises at once."""
        waiting = waits()
        while True:
            try:
                return await open_store(self.settings.database)
            except StoreUnreachable as exc:
                wait = next(waiting)
                log.warning("Cannot reach the database: %s. Trying again in %d s.",
                            reason(exc), wait)
            if await stopped_within(self.stopping, wait):
                raise Stopped

    async def _message_posted(self, table: Table, message_id: int, *,
                              moving_from: int | None = None) -> None:
        await self.tables.remember_message(table, message_id, moving_from=moving_from)

    async def close(self) -> None:
        # stop the clocks, then the redraws, while the HTTP session is still open
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "publisher"):
            await self.publisher.close()
        if hasattr(self, "pictures"):
            self.pictures.close()
        if hasattr(self, "store"):
            await self.store.close()
        if hasattr(self, "deciders"):
            self.deciders.close()
        await super().close()

    def log_memory(self) -> None:
        """One log line: what the process holds, and what keeps it (see README, Memory)."""
        views = self._connection._view_store
        in_use, cached = _malloc_figures()
        log.info("memory: rss_kib=%d python_blocks=%d malloc_used_kib=%d "
                 "malloc_free_kib=%d threads=%d panels=%d views=%d message_views=%d "
                 "view_timeouts=%d messages=%d", _rss_kib(), sys.getallocatedblocks(),
                 in_use // 1024, cached // 1024, threading.active_count(), len(self.panels),
                 len(views._views), len(views._synced_message_views), _view_timeouts(),
                 len(self._connection._messages or ()))

    async def on_ready(self) -> None:
        log.info("connected as %s", self.user)
        # servers that removed the bot while it was down: Discord no longer lists them
        # (one that is only unavailable is still listed)
        for guild_id in self.tables.guilds():
            if self.get_guild(guild_id) is None:
                await self._guild_gone(guild_id)

    # -- a table's channel or server that is gone: its tables end ------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._guild_gone(guild.id)

    async def _channel_gone(self, channel_id: int) -> None:
        try:
            await self.tables.channel_gone(channel_id)
        except StoreError as exc:  # (told again by the next redraw's 404, or at a restart)
            log.warning("could not end the table of the deleted channel %s: %s",
                        channel_id, exc)

    async def _guild_gone(self, guild_id: int) -> None:
        try:
            await self.tables.guild_gone(guild_id)
        except StoreError as exc:  # (told again at the next start)
            log.warning("could not end the tables of the server %s that removed the bot: "
                        "%s", guild_id, exc)

    # -- every interaction is answered (see bot/guard.py) ------------------------------------

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._controls.update(item.__discord_ui_compiled_template__ for item in items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        self._controls.difference_update(item.__discord_ui_compiled_template__
                                         for item in items)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if is_orphan(interaction, self._controls):
            await answer_orphan(interaction, say(locale_of(interaction), "stale_control"))


def _view_timeouts() -> int:
    """Views discord.py keeps alive until their timeout (each waits in its own task)."""
    return sum(1 for task in asyncio.all_tasks()
               if getattr(task.get_coro(), "__qualname__", "").endswith("__timeout_task_impl"))


def _rss_kib() -> int:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:  # not Linux
        pass
    return -1


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _malloc_figures() -> tuple[int, int]:
    """glibc malloc: bytes in use, and bytes freed but kept in its arenas (-1, -1 when
    the C library is not glibc 2.33+)."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return -1, -1
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return info.uordblks + info.hblkhd, info.fordblks
