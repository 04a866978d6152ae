"""The public table message's buttons: persistent, with stable ``custom_id``s.

Template ``sj:<action>:<channel>``: the id carries no hidden state, only which table.
They are registered as dynamic items at start-up, so buttons of messages posted before a
restart keep working.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import BotError
from bot.guard import GuardedControl
from bot.services import services_of
from bot.table_data import Table
from bot.text.catalogue import say
from bot.tree import locale_of, reply, report_error
from bot.ui.panels import open_panel

ACTIONS = ("join", "leave", "addai", "start", "hand", "back")


def custom_id(action: str, channel_id: int) -> str:
    return f"sj:{action}:{channel_id}"


class TableButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"sj:(?P<action>{'|'.join(ACTIONS)}):(?P<channel>[0-9]+)"):
    def __init__(self, action: str, channel_id: int, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or action, style=style,
                                           custom_id=custom_id(action, channel_id)))
        self.action = action
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> TableButton:
        return cls(match["action"], int(match["channel"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        tables = services.tables
        locale = locale_of(interaction)
        user = interaction.user
        try:
            if interaction.channel_id != self.channel_id:
                raise BotError("no_table")
            if self.action == "join":
                seat = await tables.join(self.channel_id, user.id, user.display_name)
                await reply(interaction, say(locale, "joined", seat=seat + 1))
            elif self.action == "leave":
                await tables.leave(self.channel_id, user.id)
                await reply(interaction, say(locale, "left"))
            elif self.action == "addai":
                seat = await tables.add_ai(self.channel_id, user.id)
                await reply(interaction, say(locale, "ai_added", seat=seat + 1, level="easy"))
            elif self.action == "back":
                was_away = await tables.back(self.channel_id, user.id)
                await reply(interaction, say(locale, "back" if was_away else "not_away"))
            elif self.action == "start":
                await interaction.response.defer(ephemeral=True, thinking=True)
                await tables.start(self.channel_id, user.id)
                await reply(interaction, say(locale, "started"))
            else:
                await open_panel(services, interaction)
        except Exception as exc:  # every failure gets an answer
            await report_error(interaction, exc)


def table_buttons(table: Table) -> discord.ui.View:
    """The buttons for the table message as it is now."""
    view = discord.ui.View(timeout=None)
    locale = table.locale
    if table.status == "lobby":
        view.add_item(TableButton("join", table.channel_id, say(locale, "btn_join"),
                                  discord.ButtonStyle.primary))
        view.add_item(TableButton("leave", table.channel_id, say(locale, "btn_leave")))
        view.add_item(TableButton("addai", table.channel_id, say(locale, "btn_add_ai")))
        view.add_item(TableButton("start", table.channel_id, say(locale, "btn_start"),
                                  discord.ButtonStyle.success))
    elif table.status == "playing":
        view.add_item(TableButton("hand", table.channel_id, say(locale, "btn_hand"),
                                  discord.ButtonStyle.primary))
        if any(seat is not None and seat.away for seat in table.seats):
            view.add_item(TableButton("back", table.channel_id, say(locale, "btn_back"),
                                      discord.ButtonStyle.success))
        view.add_item(TableButton("leave", table.channel_id, say(locale, "btn_leave")))
    return view
