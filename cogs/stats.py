"""``/shengji`` stats commands: the server's leaderboard, a player's stats and history,
and a finished match's export. Every query is confined to the caller's server."""

from __future__ import annotations

import io
import json

import discord
from discord import app_commands
from discord.ext import commands

from bot.services import Services, services_of
from bot.text.catalogue import say
from bot.tree import locale_of, reply
from bot.ui.leaderboard import (
    LeaderboardButton,
    history_text,
    leaderboard_embed,
    leaderboard_view,
    stats_embed,
)
from cogs.group import ShengjiCog, server_of, subcommand

ORDER_CHOICES = [app_commands.Choice(name=name, value=name)
                 for name in ("rating", "wins", "levels")]


class Stats(ShengjiCog):
    controls = (LeaderboardButton,)  # leaderboard pages survive restarts

    def __init__(self, services: Services, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.services = services

    @subcommand("leaderboard", "This server's best players (ranked play)")
    @app_commands.describe(order="rating (default), wins, or levels gained")
    @app_commands.choices(order=ORDER_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, order: str = "rating"
                          ) -> None:
        locale = locale_of(interaction)
        page = await self.services.stats.leaderboard(server_of(interaction), order, 0)
        await reply(interaction, embed=leaderboard_embed(page, locale),
                    view=leaderboard_view(page, locale))

    @subcommand("stats", "A player's record on this server")
    @app_commands.describe(user="Whose (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None
                    ) -> None:
        target = user or interaction.user
        found = await self.services.stats.stats(server_of(interaction), target.id)
        await reply(interaction, embed=stats_embed(found, target.display_name,
                                                   locale_of(interaction)))

    @subcommand("history", "Recent matches, partners and results")
    @app_commands.describe(user="Whose (default: yours)")
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None
                      ) -> None:
        target = user or interaction.user
        entries = await self.services.stats.history(server_of(interaction), target.id)
        await reply(interaction, history_text(entries, target.display_name,
                                              locale_of(interaction)))

    @subcommand("export", "Download a finished match (seed, rules, actions)")
    @app_commands.describe(match="The match number (see /shengji history)")
    async def export(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1, 2**53]) -> None:
        document = await self.services.exports.export(server_of(interaction), match)
        data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
        await reply(interaction, say(locale_of(interaction), "export_ready", match=match),
                    file=discord.File(io.BytesIO(data), filename=f"shengji-match-{match}.json"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Stats(services_of(bot), bot))
