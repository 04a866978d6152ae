"""``/shengji erase-data``'s Discord side: what would be erased, asked privately, and the
two buttons that answer (erase, keep). The buttons are persistent: their id says which
server and which answer, and the erase is checked again when pressed (Manage Server, no
table open), so a question left open for a while never erases what it did not say."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import BotError
from bot.guard import GuardedControl
from bot.services import services_of
from bot.store import GuildData
from bot.text.catalogue import say
from bot.tree import locale_of, report_error
from bot.ui.buttons import can_manage


def live_tables_text(found: GuildData, locale: str | None) -> str:
    """The refusal while tables are open: their channels, and how to end them."""
    channels = say(locale, "name_separator").join(f"<#{c}>" for c in found.live_channels)
    return say(locale, "erase_live_tables", channels=channels)


def question(found: GuildData, locale: str | None, guild_id: int
             ) -> tuple[str, discord.ui.View | None]:
    """What the command answers: the question with its buttons, or why there is none."""
    if found.live_channels:
        return live_tables_text(found, locale), None
    if found.empty:
        return say(locale, "erase_nothing"), None
    view = discord.ui.View(timeout=None)
    view.add_item(EraseButton(guild_id, "yes", say(locale, "btn_erase")))
    view.add_item(EraseButton(guild_id, "no", say(locale, "btn_keep")))
    key = "erase_question_settings" if found.settings else "erase_question"
    return say(locale, key, **_counts(found, locale)), view


def _counts(found: GuildData, locale: str | None) -> dict[str, str]:
    return {"matches": say(locale, "erase_matches", n=found.matches),
            "players": say(locale, "erase_players", n=found.players)}


class EraseButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"sj:erase:(?P<guild>[0-9]+):(?P<answer>yes|no)"):
    """The answer to the erase question of ``guild``: ``yes`` erases, ``no`` keeps."""

    def __init__(self, guild_id: int, answer: str, label: str = "") -> None:
        style = discord.ButtonStyle.danger if answer == "yes" \
            else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label or answer, style=style,
                                           custom_id=f"sj:erase:{guild_id}:{answer}"))
        self.guild_id = guild_id
        self.answer = answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> EraseButton:
        return cls(int(match["guild"]), match["answer"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:
            if interaction.guild_id != self.guild_id:
                raise BotError("no_table")
            if self.answer == "no":
                await interaction.response.edit_message(content=say(locale, "erase_kept"),
                                                        view=None)
                return
            if not can_manage(interaction):  # (it may have been taken away since)
                raise BotError("need_manage_server_erase")
            erased = await services_of(interaction.client).server_data.erase_guild(
                self.guild_id)
            if erased.live_channels:  # a table was opened since the question
                text = live_tables_text(erased, locale)
            else:
                text = say(locale, "erase_done", **_counts(erased, locale))
            await interaction.response.edit_message(content=text, view=None)
        except Exception as exc:  # every failure gets an answer
            await report_error(interaction, exc)
