"""``/shengji`` lobby commands: open, join and leave a table, seat computers, start and
end the match, show the table and a preset's rules, and the guide to it all (help)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.services import Services, services_of
from bot.stats.settings import parse_option_text
from bot.table_data import AI_LEVELS, HOSTED_PRESETS
from bot.text.catalogue import say
from bot.text.commands import help_text
from bot.text.presets import preset_rules_text, presets_text
from bot.tree import locale_of, reply
from bot.ui.buttons import LetInButton, TableButton, join_or_ask
from cogs.group import (
    GROUP_NAME,
    ShengjiCog,
    can_manage_server,
    channel_of,
    check_can_post_table,
    subcommand,
)
from engine.errors import EngineError
from engine.rules import ruleset

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in HOSTED_PRESETS]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in AI_LEVELS]
# seat counts a preset may be played with other than its own (find-friends: 5 or 6)
PLAYER_CHOICES = [app_commands.Choice(name=f"{n} players", value=n) for n in (5, 6)]
DECK_CHOICES = [app_commands.Choice(name=f"{n} deck" + "s" * (n > 1), value=n)
                for n in (1, 2, 3, 4)]


class Lobby(ShengjiCog):
    # the table message's buttons, and the host's answer to a seat request, also on old
    # messages
    controls = (TableButton, LetInButton)

    def __init__(self, services: Services, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.services = services

    @subcommand("create", "Open a table in this channel")
    @app_commands.describe(preset="Which rules (default: the server's, else classic)",
                           players="How many players (find-friends: 5 or 6)",
                           decks="How many decks (find-friends: 2 or 3 with 5 players)",
                           options="Option overrides, e.g. decks=3 throw_penalty=10",
                           timer="Seconds per turn before a computer plays for you")
    @app_commands.choices(preset=PRESET_CHOICES)
    @app_commands.choices(players=PLAYER_CHOICES, decks=DECK_CHOICES)
    async def create(self, interaction: discord.Interaction, preset: str | None = None,
                     players: int | None = None, decks: int | None = None,
                     options: str | None = None,
                     timer: app_commands.Range[int, 10, 3600] | None = None) -> None:
        channel = channel_of(interaction)  # (a DM has no table: said before permissions)
        check_can_post_table(interaction)
        server = await self.services.server_settings.get(interaction.guild_id or 0)
        chosen_options: dict[str, Any] = dict(parse_option_text(options))
        # a choice from the menus wins over the same option typed in ``options``
        chosen_options.update({name: value for name, value in
                               (("players", players), ("decks", decks)) if value is not None})
        preset, chosen = server.rules_for(preset, chosen_options)
        settings = server.table_settings(self.services.default_table_settings)
        if timer is not None:
            settings = replace(settings, turn_timer=float(timer))
        table = await self.services.tables.create(
            channel_id=channel, guild_id=interaction.guild_id or 0,
            user_id=interaction.user.id, name=interaction.user.display_name, preset=preset,
            options=chosen, locale=locale_of(interaction), settings=settings)
        rules = table.rules
        await reply(interaction, say(locale_of(interaction), "created_size", preset=table.preset,
                                     players=rules.players, decks=rules.decks))

    @subcommand("join", "Sit at this channel's table")
    @app_commands.describe(seat="Seat number (default: the first free one)")
    async def join(self, interaction: discord.Interaction,
                   seat: app_commands.Range[int, 1, 6] | None = None) -> None:
        channel = channel_of(interaction)
        if seat is None:  # (mid-match, a newcomer asks the host for a computer's seat)
            got = await join_or_ask(self.services, interaction, channel)
        else:
            got = await self.services.tables.join(channel, interaction.user.id,
                                                  interaction.user.display_name, seat - 1)
        if got is not None:
            await reply(interaction, say(locale_of(interaction), "joined", seat=got + 1))

    @subcommand("leave", "Leave the table (a computer takes over)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.services.tables.leave(channel_of(interaction), interaction.user.id)
        await reply(interaction, say(locale_of(interaction), "left"))

    @subcommand("addbot", "Seat a computer player")
    @app_commands.describe(seat="Seat number (default: the first free one)", level="How strong")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction,
                     seat: app_commands.Range[int, 1, 6] | None = None,
                     level: str = "easy") -> None:
        got = await self.services.tables.add_ai(channel_of(interaction), interaction.user.id,
                                                None if seat is None else seat - 1, level)
        locale = locale_of(interaction)
        await reply(interaction, say(locale, "ai_added", seat=got + 1,
                                     level=say(locale, f"ai_level_{level}")))

    @subcommand("removebot", "Free a computer player's seat")
    @app_commands.describe(seat="The computer player's seat number")
    async def removebot(self, interaction: discord.Interaction,
                        seat: app_commands.Range[int, 1, 6]) -> None:
        await self.services.tables.remove_ai(channel_of(interaction), interaction.user.id,
                                             seat - 1)
        await reply(interaction, say(locale_of(interaction), "ai_removed", seat=seat))

    @subcommand("start", "Start the match (empty seats get computers)")
    async def start(self, interaction: discord.Interaction) -> None:
        channel = channel_of(interaction)
        check_can_post_table(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.services.tables.start(channel, interaction.user.id,
                                         can_manage=can_manage_server(interaction))
        await reply(interaction, say(locale_of(interaction), "started"))

    @subcommand("remove", "Free a seat before the start (host or Manage Server)")
    @app_commands.describe(seat="Seat number")
    async def remove(self, interaction: discord.Interaction,
                     seat: app_commands.Range[int, 1, 6]) -> None:
        gone = await self.services.tables.remove(channel_of(interaction), interaction.user.id,
                                                 seat - 1,
                                                 can_manage=can_manage_server(interaction))
        await reply(interaction, say(locale_of(interaction), "seat_removed", seat=seat,
                                     name=gone.name))

    @subcommand("end", "Close the table (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.services.tables.end(channel_of(interaction), interaction.user.id,
                                       can_manage=can_manage_server(interaction))
        await reply(interaction, say(locale_of(interaction), "ended"))

    @subcommand("status", "Show the table")
    async def status(self, interaction: discord.Interaction) -> None:
        table = self.services.tables.get(channel_of(interaction))
        await reply(interaction, self.services.notes.summary(table))

    @subcommand("rules", "The presets, or one preset's options")
    @app_commands.describe(preset="Which preset (default: every preset, in a line each)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        locale = locale_of(interaction)
        if preset is None:
            await reply(interaction, presets_text(locale))
            return
        try:
            rules = ruleset(preset)
        except EngineError as exc:
            raise BotError.refused("bad_rules", exc) from None
        await reply(interaction, preset_rules_text(locale, rules))

    @subcommand("help", "How to play here, and every command")
    async def help(self, interaction: discord.Interaction) -> None:
        command = interaction.command
        group = command.parent if isinstance(command, app_commands.Command) else None
        listed = [(c.name, c.description) for c in group.commands] if group else []
        await reply(interaction, embed=discord.Embed(description=help_text(
            locale_of(interaction), GROUP_NAME, listed)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(services_of(bot), bot))
