"""``/shengji`` play commands: the hand panel, and playing, declaring, burying, swapping
and returning cards (typed, in symbols, or as the numbers under the hand picture), with
autocomplete from the caller's own legal choices."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.services import Services, services_of
from bot.text.catalogue import say
from bot.tree import defer_privately, locale_of, mark_stored, reply
from bot.ui.cards_input import parse_play
from bot.ui.panels import PANEL_ITEMS, declaration_choices, open_panel, play_choices
from cogs.group import ShengjiCog, channel_of, subcommand
from engine.cards import Card, format_cards

MAX_CHOICES = 25  # Discord's limit for autocomplete

Choices = Callable[[Services, int, int], Sequence[tuple[Card, ...]]]


class Play(ShengjiCog):
    controls = PANEL_ITEMS  # the hand panel's menus, also on panels opened before a restart

    def __init__(self, services: Services, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.services = services

    # -- autocomplete: the caller's own choices only ----------------------------------------

    async def play_cards(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        return self._choices(interaction, current, play_choices)

    async def declare_cards(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        return self._choices(interaction, current, declaration_choices)

    # -- commands -----------------------------------------------------------------------------

    @subcommand("hand", "Show your hand (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await open_panel(self.services, interaction)

    @subcommand("play", "Play cards: AS AS KS, ♠A ♠A ♠K, or card numbers")
    @app_commands.describe(cards="The cards, or the numbers under your hand picture")
    @app_commands.autocomplete(cards=play_cards)
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.services.tables.play, cards)

    @subcommand("declare", "Declare trump with cards of your hand")
    @app_commands.describe(cards="The cards to show, e.g. 2H 2H or SJ 7H 7H")
    @app_commands.autocomplete(cards=declare_cards)
    async def declare(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.services.tables.declare, cards)

    @subcommand("bury", "Bury the kitty (cards or numbers)")
    @app_commands.describe(cards="The cards, or the numbers under your hand picture")
    async def bury(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.services.tables.bury, cards)

    @subcommand("swap", "changzhu: swap side cards for kitty trumps")
    @app_commands.describe(give="Your side cards (empty: no swap)",
                           take="Kitty trumps of the same ranks")
    async def swap(self, interaction: discord.Interaction, give: str = "", take: str = ""
                   ) -> None:
        await self._with_cards(interaction, self.services.tables.swap, give, take,
                               may_be_empty=True)

    @subcommand("return", "changzhu 回牌: give cards back after a stick")
    @app_commands.describe(cards="The cards, or the numbers under your hand picture")
    async def give_back(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.services.tables.give_back, cards)

    async def _with_cards(self, interaction: discord.Interaction,
                          act: Callable[..., Awaitable[object]], *texts: str,
                          may_be_empty: bool = False) -> None:
        """Read the caller's cards (text, symbols or hand numbers; empty: none), act, and
        answer privately with any notes kept for them (e.g. a refused DM)."""
        channel = channel_of(interaction)
        # answer first (Discord allows 3 s): storing and publishing may wait on the API
        await defer_privately(interaction)
        _, _, view = self.services.tables.view_for(channel, interaction.user.id)
        # only a swap may name no cards (no swap); elsewhere blank input is unreadable
        cards = [parse_play(text, view) if text.strip() or not may_be_empty else []
                 for text in texts]
        await act(channel, interaction.user.id, *cards)
        mark_stored(interaction)
        notes = self.services.notes.take_private(channel, interaction.user.id)
        await reply(interaction, "\n".join([say(locale_of(interaction), "done"), *notes]))

    def _choices(self, interaction: discord.Interaction, current: str, source: Choices
                 ) -> list[app_commands.Choice[str]]:
        try:
            options = source(self.services, channel_of(interaction), interaction.user.id)
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
            if len(out) == MAX_CHOICES:
                break
        return out


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(services_of(bot), bot))
