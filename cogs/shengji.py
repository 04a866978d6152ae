"""``/shengji …``: the one command group. Handlers parse, call the TableService, reply."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.buttons import TableButton
from bot.errors import BotError
from bot.panels import PANEL_ITEMS, declaration_choices, open_panel, play_choices
from bot.render import parse_play
from bot.stats import (
    history_text,
    leaderboard_embed,
    leaderboard_view,
    parse_option_text,
    settings_text,
    stats_embed,
)
from bot.tables import AI_LEVELS
from bot.text import say
from bot.tree import locale_of, reply
from engine.cards import format_cards
from engine.errors import EngineError
from engine.rules import PRESETS, ruleset

if TYPE_CHECKING:
    from bot.client import ShengjiBot

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in AI_LEVELS]


def _channel(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise BotError("no_table")
    return interaction.channel_id


class Shengji(commands.Cog):
    def __init__(self, bot: ShengjiBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TableButton, *PANEL_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TableButton, *PANEL_ITEMS)

    group = app_commands.Group(name="shengji", description="Shengji (升级 / Tractor) tables",
                               guild_only=True)

    # -- lobby --------------------------------------------------------------------------------

    @group.command(name="create", description="Open a table in this channel")
    @app_commands.describe(preset="Which rules (default: the server's, else classic)",
                           options="Option overrides, e.g. decks=3 throw_penalty=10",
                           timer="Seconds per turn before a computer plays for you")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def create(self, interaction: discord.Interaction, preset: str | None = None,
                     options: str | None = None,
                     timer: app_commands.Range[int, 10, 3600] | None = None) -> None:
        server = await self.bot.stats.server_settings(interaction.guild_id or 0)
        preset, chosen = server.rules_for(preset, parse_option_text(options))
        settings = self.bot.default_table_settings
        turn_timer = float(timer) if timer is not None else server.turn_timer
        if turn_timer is not None:
            settings = replace(settings, turn_timer=turn_timer)
        table = await self.bot.tables.create(
            channel_id=_channel(interaction), guild_id=interaction.guild_id or 0,
            user_id=interaction.user.id, name=interaction.user.display_name, preset=preset,
            options=chosen, locale=locale_of(interaction), settings=settings)
        await reply(interaction, say(locale_of(interaction), "created", preset=table.preset))

    @group.command(name="join", description="Sit at this channel's table")
    @app_commands.describe(seat="Seat number (default: the first free one)")
    async def join(self, interaction: discord.Interaction,
                   seat: app_commands.Range[int, 1, 6] | None = None) -> None:
        got = await self.bot.tables.join(_channel(interaction), interaction.user.id,
                                         interaction.user.display_name,
                                         None if seat is None else seat - 1)
        await reply(interaction, say(locale_of(interaction), "joined", seat=got + 1))

    @group.command(name="leave", description="Leave the table (a computer takes over)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.leave(_channel(interaction), interaction.user.id)
        await reply(interaction, say(locale_of(interaction), "left"))

    @group.command(name="addbot", description="Seat a computer player")
    @app_commands.describe(seat="Seat number (default: the first free one)", level="How strong")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction,
                     seat: app_commands.Range[int, 1, 6] | None = None,
                     level: str = "easy") -> None:
        got = await self.bot.tables.add_ai(_channel(interaction), interaction.user.id,
                                           None if seat is None else seat - 1, level)
        await reply(interaction, say(locale_of(interaction), "ai_added", seat=got + 1,
                                     level=level))

    @group.command(name="removebot", description="Free a computer player's seat")
    async def removebot(self, interaction: discord.Interaction,
                        seat: app_commands.Range[int, 1, 6]) -> None:
        await self.bot.tables.remove_ai(_channel(interaction), interaction.user.id, seat - 1)
        await reply(interaction, say(locale_of(interaction), "ai_removed", seat=seat))

    @group.command(name="start", description="Start the match (empty seats get computers)")
    async def start(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tables.start(_channel(interaction), interaction.user.id)
        await reply(interaction, say(locale_of(interaction), "started"))

    @group.command(name="end", description="Close the table (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        member = interaction.user
        can_manage = isinstance(member, discord.Member) and \
            member.guild_permissions.manage_guild
        await self.bot.tables.end(_channel(interaction), interaction.user.id,
                                  can_manage=can_manage)
        await reply(interaction, say(locale_of(interaction), "ended"))

    @group.command(name="status", description="Show the table")
    async def status(self, interaction: discord.Interaction) -> None:
        table = self.bot.tables.get(_channel(interaction))
        await reply(interaction, self.bot.publisher.summary(table))

    @group.command(name="rules", description="The options of a preset")
    @app_commands.describe(preset="Which preset (default: classic)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str = "classic") -> None:
        try:
            options = ruleset(preset).describe()
        except EngineError as exc:
            raise BotError("bad_rules", reason=exc.message) from None
        lines = [f"**{preset}**"] + [f"`{k}` = {v or '—'}" for k, v in options
                                     if k != "preset"]
        await reply(interaction, "\n".join(lines))

    # -- playing ------------------------------------------------------------------------------

    @group.command(name="hand", description="Show your hand (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await open_panel(self.bot, interaction)

    @group.command(name="play", description="Play cards: AS AS KS, ♠A ♠A ♠K, or card numbers")
    @app_commands.describe(cards="The cards, or the numbers under your hand picture")
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.bot.tables.play, cards)

    @group.command(name="declare", description="Declare trump with cards of your hand")
    @app_commands.describe(cards="The cards to show, e.g. 2H 2H or SJ 7H 7H")
    async def declare(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.bot.tables.declare, cards)

    @group.command(name="bury", description="Bury the kitty (cards or numbers)")
    async def bury(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.bot.tables.bury, cards)

    @group.command(name="swap", description="changzhu: swap side cards for kitty trumps")
    @app_commands.describe(give="Your side cards (empty: no swap)",
                           take="Kitty trumps of the same ranks")
    async def swap(self, interaction: discord.Interaction, give: str = "", take: str = ""
                   ) -> None:
        await self._with_cards(interaction, self.bot.tables.swap, give, take,
                               may_be_empty=True)

    @group.command(name="return", description="changzhu 回牌: give cards back after a stick")
    async def give_back(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.bot.tables.give_back, cards)

    async def _with_cards(self, interaction: discord.Interaction,
                          act: Callable[..., Awaitable[object]], *texts: str,
                          may_be_empty: bool = False) -> None:
        """Read the caller's cards (text, symbols or hand numbers; empty: none), act, and
        answer privately with any notes kept for them (e.g. a refused DM)."""
        channel = _channel(interaction)
        _, _, view = self.bot.tables.view_for(channel, interaction.user.id)
        # only a swap may name no cards (no swap); elsewhere blank input is unreadable
        cards = [parse_play(text, view) if text.strip() or not may_be_empty else []
                 for text in texts]
        await act(channel, interaction.user.id, *cards)
        notes = self.bot.publisher.take_private(channel, interaction.user.id)
        await reply(interaction, "\n".join([say(locale_of(interaction), "done"), *notes]))

    # -- autocomplete: the caller's own choices only ----------------------------------------

    @play.autocomplete("cards")
    async def play_cards(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        return self._choices(interaction, current, play_choices)

    @declare.autocomplete("cards")
    async def declare_cards(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        return self._choices(interaction, current, declaration_choices)

    def _choices(self, interaction: discord.Interaction, current: str, source: Any
                 ) -> list[app_commands.Choice[str]]:
        try:
            options = source(self.bot, _channel(interaction), interaction.user.id)
        except BotError:
            return []
        wanted = current.strip().upper().replace(",", " ")
        out = []
        for cards in options:
            value = format_cards(cards)
            if wanted and not value.upper().startswith(wanted):
                continue
            out.append(app_commands.Choice(name=" ".join(c.pretty for c in cards)[:100],
                                           value=value[:100]))
            if len(out) == 25:
                break
        return out

    # -- stats (issue 7) ------------------------------------------------------------------
    # Leaderboards, stats, history, match export and server settings. The work is in
    # bot/stats.py (StatsService); every query is confined to the caller's server.

    _ORDER_CHOICES = [app_commands.Choice(name=name, value=name)
                      for name in ("rating", "wins", "levels")]

    @staticmethod
    def _server(interaction: discord.Interaction) -> int:
        """The caller's server: every stats query is confined to it."""
        if interaction.guild_id is None:
            raise BotError("no_table")
        return interaction.guild_id

    @group.command(name="leaderboard", description="This server's best players (ranked play)")
    @app_commands.describe(order="rating (default), wins, or levels gained")
    @app_commands.choices(order=_ORDER_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, order: str = "rating"
                          ) -> None:
        locale = locale_of(interaction)
        page = await self.bot.stats.leaderboard(self._server(interaction), order, 0)
        await reply(interaction, embed=leaderboard_embed(page, locale),
                    view=leaderboard_view(page, locale))

    @group.command(name="stats", description="A player's record on this server")
    @app_commands.describe(user="Whose (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None
                    ) -> None:
        target = user or interaction.user
        found = await self.bot.stats.stats(self._server(interaction), target.id)
        await reply(interaction, embed=stats_embed(found, target.display_name,
                                                   locale_of(interaction)))

    @group.command(name="history", description="Recent matches, partners and results")
    @app_commands.describe(user="Whose (default: yours)")
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None
                      ) -> None:
        target = user or interaction.user
        entries = await self.bot.stats.history(self._server(interaction), target.id)
        await reply(interaction, history_text(entries, target.display_name,
                                              locale_of(interaction)))

    @group.command(name="export", description="Download a finished match (seed, rules, actions)")
    @app_commands.describe(match="The match number (see /shengji history)")
    async def export(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1, 2**53]) -> None:
        document = await self.bot.stats.export(self._server(interaction), match)
        data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
        await reply(interaction, say(locale_of(interaction), "export_ready", match=match),
                    file=discord.File(io.BytesIO(data), filename=f"shengji-match-{match}.json"))

    @group.command(name="settings", description="Defaults for new tables (Manage Server)")
    @app_commands.describe(preset="Default preset", options="Default options for it "
                           "(e.g. decks=3 level_ranks=K,A; '-' clears)",
                           timer="Default seconds per turn",
                           computers_ranked="May computer players sit at ranked tables?",
                           reset="Back to the bot's defaults first")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def settings(self, interaction: discord.Interaction, preset: str | None = None,
                       options: str | None = None,
                       timer: app_commands.Range[int, 10, 3600] | None = None,
                       computers_ranked: bool | None = None, reset: bool = False) -> None:
        guild = self._server(interaction)
        changing = reset or any(v is not None for v in (preset, options, timer,
                                                         computers_ranked))
        if changing:
            member = interaction.user
            if not (isinstance(member, discord.Member) and member.guild_permissions.manage_guild):
                raise BotError("need_manage_server")
            current = await self.bot.stats.update_settings(
                guild, preset=preset, options=options,
                turn_timer=None if timer is None else float(timer),
                computers_ranked=computers_ranked, reset=reset)
        else:
            current = await self.bot.stats.server_settings(guild)
        await reply(interaction, settings_text(current, self.bot.default_table_settings.turn_timer,
                                               locale_of(interaction)))

    # -- end of stats (issue 7) -----------------------------------------------------------


async def setup(bot: ShengjiBot) -> None:  # type: ignore[misc]
    await bot.add_cog(Shengji(bot))

