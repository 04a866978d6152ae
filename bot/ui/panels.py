"""A player's private hand panel: an ephemeral message with the hand picture, its text,
and the choices the rules allow right now (declarations, plays, no-swap).

The panel is refreshed in place as cards arrive and turns pass (through the interaction
that opened it, for up to 15 minutes). Everything in it is the owner's own view.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

from bot.ai import rank_plays
from bot.errors import BotError
from bot.services import Services
from bot.text.catalogue import say
from bot.tree import locale_of, reply, report_error
from bot.ui.render import hand_picture, hand_text
from engine.cards import Card, format_cards, parse_cards
from engine.game import Burying, Dealing, Playing, Swapping
from engine.legal import legal_declarations, legal_plays

MAX_OPTIONS = 25


def play_choices(services: Services, channel_id: int, user_id: int) -> list[tuple[Card, ...]]:
    """The user's legal plays now, best first (empty when it is not their turn)."""
    table, seat, _ = services.tables.view_for(channel_id, user_id)
    game = table.game
    assert game is not None
    return rank_plays(game, seat, legal_plays(game, seat))


def declaration_choices(services: Services, channel_id: int, user_id: int
                        ) -> list[tuple[Card, ...]]:
    table, seat, _ = services.tables.view_for(channel_id, user_id)
    assert table.game is not None
    return legal_declarations(table.game, seat)


async def build_panel(services: Services, channel_id: int, user_id: int, locale: str
                      ) -> tuple[str, discord.File, discord.ui.View]:
    table, seat, view = services.tables.view_for(channel_id, user_id)
    game = table.game
    assert game is not None
    phase = game.phase
    lines = [hand_text(locale, view)]
    ui = discord.ui.View(timeout=None)
    unplayable: Sequence[Card] = ()
    if isinstance(phase, Dealing):
        if phase.pending_return and phase.pending_return[0] == seat:
            lines.append(say(locale, "hint_return", count=phase.pending_return[2]))
        options = declaration_choices(services, channel_id, user_id)
        if options:
            ui.add_item(_Choice(services, channel_id, "declare", say(locale, "pick_declaration"),
                                options))
    elif isinstance(phase, Burying) and phase.taker == seat:
        lines.append(say(locale, "hint_bury", count=phase.kitty_size))
    elif isinstance(phase, Swapping) and phase.declarer == seat:
        lines.append(say(locale, "hint_swap"))
        ui.add_item(_NoSwap(services, channel_id, say(locale, "btn_no_swap")))
    elif isinstance(phase, Playing) and phase.turn == seat:
        lines.append(say(locale, "your_turn"))
        options = play_choices(services, channel_id, user_id)
        playable = {c for play in options for c in play}
        unplayable = [c for c in view.hand if c not in playable]
        ui.add_item(_Choice(services, channel_id, "play", say(locale, "pick_play"), options))
    elif not isinstance(phase, Playing) and phase.name in ("hand_over", "match_over"):
        lines.append(say(locale, "hand_over_panel"))
    lines += services.notes.take_private(channel_id, user_id)
    picture = await hand_picture(view, unplayable=unplayable)
    file = discord.File(io.BytesIO(picture.png), filename="hand.png",
                        description=picture.alt_text[:1024])
    return "\n".join(lines)[:1990], file, ui


async def open_panel(services: Services, interaction: discord.Interaction) -> None:
    """Show the caller their hand privately, and keep it fresh."""
    assert interaction.channel_id is not None
    channel_id, user_id = interaction.channel_id, interaction.user.id
    locale = locale_of(interaction)
    content, file, ui = await build_panel(services, channel_id, user_id, locale)
    await reply(interaction, content, file=file, view=ui, ephemeral=True)

    async def refresh() -> None:
        content, file, ui = await build_panel(services, channel_id, user_id, locale)
        await interaction.edit_original_response(content=content, attachments=[file], view=ui)

    services.panels.keep(channel_id, user_id, refresh)


class _Choice(discord.ui.Select[discord.ui.View]):
    def __init__(self, services: Services, channel_id: int, kind: str, placeholder: str,
                 options: Sequence[tuple[Card, ...]]) -> None:
        super().__init__(placeholder=placeholder, min_values=1, max_values=1, options=[
            discord.SelectOption(label=" ".join(c.pretty for c in cards)[:100],
                                 value=format_cards(cards)[:100])
            for cards in options[:MAX_OPTIONS]])
        self.services = services
        self.channel_id = channel_id
        self.kind = kind

    async def callback(self, interaction: discord.Interaction) -> None:
        cards = parse_cards(self.values[0])
        try:
            if self.kind == "declare":
                await self.services.tables.declare(self.channel_id, interaction.user.id, cards)
            else:
                await self.services.tables.play(self.channel_id, interaction.user.id, cards)
        except BotError as exc:
            await report_error(interaction, exc)
            return
        await refresh_from(self.services, interaction, self.channel_id)


class _NoSwap(discord.ui.Button[discord.ui.View]):
    def __init__(self, services: Services, channel_id: int, label: str) -> None:
        super().__init__(label=label, style=discord.ButtonStyle.secondary)
        self.services = services
        self.channel_id = channel_id

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.services.tables.swap(self.channel_id, interaction.user.id, (), ())
        except BotError as exc:
            await report_error(interaction, exc)
            return
        await refresh_from(self.services, interaction, self.channel_id)


async def refresh_from(services: Services, interaction: discord.Interaction, channel_id: int
                       ) -> None:
    """Answer a component click on the panel by redrawing the panel."""
    content, file, ui = await build_panel(services, channel_id, interaction.user.id,
                                          locale_of(interaction))
    await interaction.response.edit_message(content=content, attachments=[file], view=ui)
