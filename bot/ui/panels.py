"""A player's private hand panel: an ephemeral message with the hand picture, its text,
and the choices the rules allow right now (declarations, plays, no-swap).

The panel is refreshed in place as cards arrive and turns pass, through the interaction
that opened it or last used it; Discord allows that for 15 minutes, after which the panel
says so. Its menus and buttons are dynamic items whose ids carry only the kind and the
channel, so they keep working after a restart. Everything in it is the owner's own view.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Sequence
from typing import Any

import discord

from bot.ai import rank_plays
from bot.errors import BotError
from bot.guard import GuardedControl
from bot.services import Services, services_of
from bot.text.catalogue import say
from bot.tree import defer_privately, locale_of, mark_stored, reply, report_error
from bot.ui.render import hand_picture, hand_text
from engine.cards import Card, format_cards, parse_cards
from engine.errors import EngineError
from engine.game import Burying, Dealing, Playing, Swapping
from engine.legal import legal_declarations, legal_plays

MAX_OPTIONS = 25
# Discord lets a bot edit an interaction's messages for 15 minutes; stop a little before
PANEL_LIFETIME = 14 * 60.0


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
            ui.add_item(PanelChoice("declare", channel_id, say(locale, "pick_declaration"),
                                    options))
    elif isinstance(phase, Burying) and phase.taker == seat:
        lines.append(say(locale, "hint_bury", count=phase.kitty_size))
    elif isinstance(phase, Swapping) and phase.declarer == seat:
        lines.append(say(locale, "hint_swap"))
        ui.add_item(NoSwapButton(channel_id, say(locale, "btn_no_swap")))
    elif isinstance(phase, Playing) and phase.turn == seat:
        lines.append(say(locale, "your_turn"))
        options = play_choices(services, channel_id, user_id)
        playable = {c for play in options for c in play}
        unplayable = [c for c in view.hand if c not in playable]
        ui.add_item(PanelChoice("play", channel_id, say(locale, "pick_play"), options))
    elif not isinstance(phase, Playing) and phase.name in ("hand_over", "match_over"):
        lines.append(say(locale, "hand_over_panel"))
    lines += services.notes.take_private(channel_id, user_id)
    picture = await hand_picture(view, unplayable=unplayable, locale=locale)
    file = discord.File(io.BytesIO(picture.png), filename="hand.png",
                        description=picture.alt_text[:1024])
    return "\n".join(lines)[:1990], file, ui


async def open_panel(services: Services, interaction: discord.Interaction) -> None:
    """Show the caller their hand privately, and keep it fresh."""
    assert interaction.channel_id is not None
    channel_id, user_id = interaction.channel_id, interaction.user.id
    await defer_privately(interaction)  # drawing the hand takes a while: answer first
    await services.tables.back(channel_id, user_id)  # looking at one's hand: not away
    content, file, ui = await build_panel(services, channel_id, user_id, locale_of(interaction))
    await reply(interaction, content, file=file, view=ui, ephemeral=True)
    keep_fresh(services, interaction, channel_id)


def keep_fresh(services: Services, interaction: discord.Interaction, channel_id: int) -> None:
    """Refresh the panel this interaction answered (or was clicked on) as the game goes."""
    user_id = interaction.user.id
    locale = locale_of(interaction)
    opened = time.monotonic()

    async def refresh() -> bool:
        if time.monotonic() - opened > PANEL_LIFETIME:
            await interaction.edit_original_response(content=say(locale, "panel_expired"),
                                                     attachments=[], view=None)
            return False
        content, file, ui = await build_panel(services, channel_id, user_id, locale)
        await interaction.edit_original_response(content=content, attachments=[file], view=ui)
        return True

    services.panels.keep(channel_id, user_id, refresh)


class PanelChoice(GuardedControl, discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"sj:pick:(?P<kind>declare|play):(?P<channel>[0-9]+)"):
    """The panel's menu of declarations or plays."""

    def __init__(self, kind: str, channel_id: int, placeholder: str = "",
                 options: Sequence[tuple[Card, ...]] = ()) -> None:
        choices = [discord.SelectOption(label=" ".join(c.pretty for c in cards)[:100],
                                        value=format_cards(cards)[:100])
                   for cards in options[:MAX_OPTIONS]]
        super().__init__(discord.ui.Select(
            custom_id=f"sj:pick:{kind}:{channel_id}", placeholder=placeholder or None,
            min_values=1, max_values=1,
            options=choices or [discord.SelectOption(label="-", value="-")]))
        self.kind = kind
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Select[Any], match: re.Match[str]
                             ) -> PanelChoice:
        return cls(match["kind"], int(match["channel"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        try:
            if interaction.channel_id != self.channel_id or not self.item.values:
                raise BotError("no_table")
            await interaction.response.defer()  # (an update of the panel follows)
            try:
                cards = parse_cards(self.item.values[0])
            except EngineError as exc:
                raise BotError("bad_cards", exc.message, code=exc.code,
                           engine_params=exc.params) from None
            if self.kind == "declare":
                await services.tables.declare(self.channel_id, interaction.user.id, cards)
            else:
                await services.tables.play(self.channel_id, interaction.user.id, cards)
            mark_stored(interaction)
            await refresh_from(services, interaction, self.channel_id)
        except Exception as exc:  # every failure gets a private answer
            await report_error(interaction, exc)


class NoSwapButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"sj:noswap:(?P<channel>[0-9]+)"):
    """changzhu: the declarer keeps the kitty as it is."""

    def __init__(self, channel_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "No swap",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"sj:noswap:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> NoSwapButton:
        return cls(int(match["channel"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        try:
            if interaction.channel_id != self.channel_id:
                raise BotError("no_table")
            await interaction.response.defer()  # (an update of the panel follows)
            await services.tables.swap(self.channel_id, interaction.user.id, (), ())
            mark_stored(interaction)
            await refresh_from(services, interaction, self.channel_id)
        except Exception as exc:  # every failure gets a private answer
            await report_error(interaction, exc)


PANEL_ITEMS = (PanelChoice, NoSwapButton)


async def refresh_from(services: Services, interaction: discord.Interaction, channel_id: int
                       ) -> None:
    """Answer a component click on the panel by redrawing the panel, and keep that panel
    fresh through this (newer) interaction."""
    content, file, ui = await build_panel(services, channel_id, interaction.user.id,
                                          locale_of(interaction))
    if interaction.response.is_done():  # deferred: the panel is the original message
        await interaction.edit_original_response(content=content, attachments=[file], view=ui)
    else:
        await interaction.response.edit_message(content=content, attachments=[file], view=ui)
    keep_fresh(services, interaction, channel_id)
