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
from bot.services import Services, services_of
from bot.table_data import Table
from bot.text.catalogue import say
from bot.tree import locale_of, reply, report_error
from bot.ui.panels import open_panel

ACTIONS = ("join", "leave", "addai", "start", "hand", "back", "again")


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
                seat = await join_or_ask(services, interaction, self.channel_id)
                if seat is not None:
                    await reply(interaction, say(locale, "joined", seat=seat + 1))
            elif self.action == "leave":
                await tables.leave(self.channel_id, user.id)
                await reply(interaction, say(locale, "left"))
            elif self.action == "addai":
                seat = await tables.add_ai(self.channel_id, user.id)
                await reply(interaction, say(locale, "ai_added", seat=seat + 1,
                                             level=say(locale, "ai_level_easy")))
            elif self.action == "back":
                was_away = await tables.back(self.channel_id, user.id)
                await reply(interaction, say(locale, "back" if was_away else "not_away"))
            elif self.action == "start":
                await interaction.response.defer(ephemeral=True, thinking=True)
                await tables.start(self.channel_id, user.id, can_manage=can_manage(interaction))
                await reply(interaction, say(locale, "started"))
            elif self.action == "again":
                await tables.play_again(self.channel_id, user.id,
                                        can_manage=can_manage(interaction))
                await reply(interaction, say(locale, "play_again_done"))
            else:
                await open_panel(services, interaction)
        except Exception as exc:  # every failure gets an answer
            await report_error(interaction, exc)


def can_manage(interaction: discord.Interaction) -> bool:
    """The user may manage the server (a host's powers at any table of it)."""
    return bool(interaction.permissions.manage_guild)


async def join_or_ask(services: Services, interaction: discord.Interaction, channel_id: int
                      ) -> int | None:
    """Sit down; during a match, someone who never sat here asks the host to take over
    a computer's seat (a public request with a button only the host may press): None."""
    user = interaction.user
    try:
        return await services.tables.join(channel_id, user.id, user.display_name)
    except BotError as exc:
        if exc.key != "ask_host":
            raise
        seat = int(exc.params["seat"])
    table = services.tables.get(channel_id)
    view = discord.ui.View(timeout=None)
    view.add_item(LetInButton(channel_id, seat, user.id,
                              say(table.locale, "btn_let_in", name=user.display_name[:40],
                                  seat=seat + 1)))
    assert isinstance(interaction.channel, discord.abc.Messageable)
    await interaction.channel.send(
        say(table.locale, "seat_request", name=user.mention, seat=seat + 1), view=view,
        allowed_mentions=discord.AllowedMentions.none())
    await reply(interaction, say(locale_of(interaction), "seat_requested", seat=seat + 1))
    return None


class LetInButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"sj:letin:(?P<channel>[0-9]+):(?P<seat>[0-9]):(?P<user>[0-9]+)"):
    """The host lets a newcomer take over a computer-played seat during a match."""

    def __init__(self, channel_id: int, seat: int, user_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or f"Let in ({seat + 1})", style=discord.ButtonStyle.success,
            custom_id=f"sj:letin:{channel_id}:{seat}:{user_id}"))
        self.channel_id, self.seat, self.user_id = channel_id, seat, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> LetInButton:
        return cls(int(match["channel"]), int(match["seat"]), int(match["user"]),
                   item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        try:
            if interaction.channel_id != self.channel_id:
                raise BotError("no_table")
            guild = interaction.guild
            member = guild.get_member(self.user_id) if guild else None
            name = member.display_name if member else await self._name(interaction)
            await services.tables.let_in(self.channel_id, interaction.user.id, self.seat,
                                         self.user_id, name,
                                         can_manage=can_manage(interaction))
            text = say(services.tables.get(self.channel_id).locale, "seat_given",
                       name=name, seat=self.seat + 1)
            await interaction.response.edit_message(content=text, view=None)
        except Exception as exc:  # every failure gets an answer
            await report_error(interaction, exc)

    async def _name(self, interaction: discord.Interaction) -> str:
        user = interaction.client.get_user(self.user_id) or \
            await interaction.client.fetch_user(self.user_id)
        return user.display_name


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
    elif table.status == "finished" and table.match_id is not None:
        view.add_item(TableButton("again", table.channel_id, say(locale, "btn_play_again"),
                                  discord.ButtonStyle.success))
    return view
