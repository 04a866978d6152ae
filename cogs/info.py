"""``/shengji rules``: the presets and their options (the engine says what they are)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.errors import EngineError
from engine.rules import PRESETS, ruleset

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]


class Info(commands.Cog):
    shengji = app_commands.Group(name="shengji", description="Shengji (升级 / Tractor)")

    @shengji.command(name="rules", description="The options of a preset")
    @app_commands.describe(preset="Which preset (default: classic)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str = "classic") -> None:
        try:
            options = ruleset(preset).describe()
        except EngineError as exc:
            await interaction.response.send_message(exc.message, ephemeral=True)
            return
        lines = [f"**{preset}**"] + [f"`{k}` = {v or '—'}" for k, v in options
                                     if k != "preset"]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info())
