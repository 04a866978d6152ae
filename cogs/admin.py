"""``/shengji settings``: a server's defaults for new tables (changing them needs
Manage Server); ``/shengji erase-data``: the caller's own record erased, or everything
stored of the server (Manage Server), asked first."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.services import Services, services_of
from bot.table_data import HOSTED_PRESETS
from bot.tree import locale_of, reply
from bot.ui.erasure import EraseButton, ForgetButton, player_question, server_question
from bot.ui.leaderboard import settings_text
from cogs.group import ShengjiCog, can_manage_server, server_of, subcommand

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in HOSTED_PRESETS]
WHOSE_CHOICES = [app_commands.Choice(name=name, value=name) for name in ("mine", "server")]


class Admin(ShengjiCog):
    # an erase question answered after a restart still works
    controls = (EraseButton, ForgetButton)

    def __init__(self, services: Services, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.services = services

    @subcommand("settings", "Defaults for new tables (Manage Server)")
    @app_commands.describe(preset="Default preset", options="Default options for it "
                           "(e.g. decks=3 level_ranks=K,A; '-' clears)",
                           timer="Default seconds per turn",
                           nudge="Seconds a turn waits before the table is posted again "
                           "to notify the player (0: never)",
                           computers_ranked="May computer players sit at ranked tables?",
                           reset="Back to the bot's defaults first")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def settings(self, interaction: discord.Interaction, preset: str | None = None,
                       options: str | None = None,
                       timer: app_commands.Range[int, 10, 3600] | None = None,
                       nudge: app_commands.Range[int, 0, 3600] | None = None,
                       computers_ranked: bool | None = None, reset: bool = False) -> None:
        guild = server_of(interaction)
        changing = reset or any(v is not None for v in (preset, options, timer, nudge,
                                                         computers_ranked))
        if changing:
            if not can_manage_server(interaction):
                raise BotError("need_manage_server")
            current = await self.services.server_settings.update(
                guild, preset=preset, options=options,
                turn_timer=None if timer is None else float(timer),
                nudge_after=None if nudge is None else float(nudge),
                computers_ranked=computers_ranked, reset=reset)
        else:
            current = await self.services.server_settings.get(guild)
        await reply(interaction, settings_text(current, self.services.default_table_settings,
                                               locale_of(interaction)))

    @subcommand("erase-data", "Erase your data on this server, or all of the server's")
    @app_commands.describe(whose="mine (default): your name, stats and rating; server: "
                           "everything of this server (Manage Server)")
    @app_commands.choices(whose=WHOSE_CHOICES)
    async def erase_data(self, interaction: discord.Interaction, whose: str = "mine") -> None:
        """Asks first, privately, saying what would go (``bot.ui.erasure``)."""
        guild, locale = server_of(interaction), locale_of(interaction)
        if whose == "server":
            if not can_manage_server(interaction):
                raise BotError("need_manage_server_erase")
            text, view = server_question(await self.services.server_data.guild_data(guild),
                                         locale, guild)
        else:
            user = interaction.user.id
            text, view = player_question(
                await self.services.server_data.player_data(guild, user), locale, guild, user)
        if view is None:
            await reply(interaction, text)
        else:
            await reply(interaction, text, view=view)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(services_of(bot), bot))
