"""Erasing stored data, the Discord side: ``/shengji erase-data`` (one player's in a
server) and ``erase-data whose:server`` (a server's, for Manage Server). Each asks privately
first, saying what would go, with two buttons (erase, keep). The buttons are persistent:
their id says whose data and which answer, and the erase is checked again when pressed
(the right to ask, no table open), so a question left open for a while never erases what
it did not say."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import BotError
from bot.guard import GuardedControl
from bot.services import services_of
from bot.store import GuildData, PlayerData
from bot.text.catalogue import say
from bot.tree import locale_of, report_error
from bot.ui.buttons import can_manage


def _guild_counts(found: GuildData, locale: str | None) -> dict[str, str]:
    return {"matches": say(locale, "erase_matches", n=found.matches),
            "players": say(locale, "erase_players", n=found.players)}


def _refused(found: GuildData | PlayerData, key: str, locale: str | None) -> str:
    """Why nothing is erased while a table is open: ``key`` names its channels."""
    channels = say(locale, "name_separator").join(f"<#{c}>" for c in found.live_channels)
    return say(locale, key, channels=channels)


def _question(found: GuildData | PlayerData, locale: str | None, refused: str, nothing: str,
              ask: str, yes: discord.ui.Item[Any], no: discord.ui.Item[Any]
              ) -> tuple[str, discord.ui.View | None]:
    """An erase question: refused while a table is open (``refused``), nothing to erase
    (``nothing``), else ``ask`` with its two buttons."""
    if found.live_channels:
        return _refused(found, refused, locale), None
    if found.empty:
        return say(locale, nothing), None
    view = discord.ui.View(timeout=None)
    view.add_item(yes)
    view.add_item(no)
    return ask, view


def server_question(found: GuildData, locale: str | None, guild_id: int
                    ) -> tuple[str, discord.ui.View | None]:
    """What ``erase-data whose:server`` answers: the question with its buttons, or why
    there is none."""
    key = "erase_question_settings" if found.settings else "erase_question"
    return _question(found, locale, "erase_live_tables", "erase_nothing",
                     say(locale, key, **_guild_counts(found, locale)),
                     EraseButton(guild_id, "yes", say(locale, "btn_erase")),
                     EraseButton(guild_id, "no", say(locale, "btn_keep")))


def player_question(found: PlayerData, locale: str | None, guild_id: int, user_id: int
                    ) -> tuple[str, discord.ui.View | None]:
    """What ``erase-data`` (whose: mine) answers: the question with its buttons, or why
    there is none."""
    return _question(found, locale, "forget_live", "forget_nothing",
                     say(locale, "forget_question",
                         matches=say(locale, "erase_matches", n=found.matches)),
                     ForgetButton(guild_id, user_id, "yes", say(locale, "btn_forget")),
                     ForgetButton(guild_id, user_id, "no", say(locale, "btn_keep")))


def _button(custom_id: str, answer: str, label: str) -> discord.ui.Button[Any]:
    style = discord.ButtonStyle.danger if answer == "yes" else discord.ButtonStyle.secondary
    return discord.ui.Button(label=label or answer, style=style, custom_id=custom_id)


class _Answer:
    """What both erase questions' buttons do when pressed: refused outside their server,
    ``no`` keeps everything, ``yes`` erases (``_erase``: checked again, then done); the
    question is replaced by the answer, without buttons."""

    guild_id: int
    answer: str

    async def _erase(self, interaction: discord.Interaction, locale: str | None) -> str:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:
            if interaction.guild_id != self.guild_id:
                raise BotError("no_table")
            text = say(locale, "erase_kept") if self.answer == "no" \
                else await self._erase(interaction, locale)
            await interaction.response.edit_message(content=text, view=None)
        except Exception as exc:  # every failure gets an answer
            await report_error(interaction, exc)


class EraseButton(_Answer, GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"sj:erase:(?P<guild>[0-9]+):(?P<answer>yes|no)"):
    """The answer to the erase question of ``guild``: ``yes`` erases, ``no`` keeps."""

    def __init__(self, guild_id: int, answer: str, label: str = "") -> None:
        super().__init__(_button(f"sj:erase:{guild_id}:{answer}", answer, label))
        self.guild_id, self.answer = guild_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> EraseButton:
        return cls(int(match["guild"]), match["answer"], item.label or "")

    async def _erase(self, interaction: discord.Interaction, locale: str | None) -> str:
        if not can_manage(interaction):  # (it may have been taken away since)
            raise BotError("need_manage_server_erase")
        erased = await services_of(interaction.client).server_data.erase_guild(self.guild_id)
        return _refused(erased, "erase_live_tables", locale) if erased.live_channels \
            else say(locale, "erase_done", **_guild_counts(erased, locale))


class ForgetButton(_Answer, GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"sj:forget:(?P<guild>[0-9]+):(?P<user>[0-9]+):(?P<answer>yes|no)"):
    """The answer to one player's erase question: ``yes`` erases, ``no`` keeps; only that
    player may press it."""

    def __init__(self, guild_id: int, user_id: int, answer: str, label: str = "") -> None:
        super().__init__(_button(f"sj:forget:{guild_id}:{user_id}:{answer}", answer, label))
        self.guild_id, self.user_id, self.answer = guild_id, user_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> ForgetButton:
        return cls(int(match["guild"]), int(match["user"]), match["answer"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:  # (even "no": the question is theirs)
            await report_error(interaction, BotError("forget_not_yours"))
            return
        await super().callback(interaction)

    async def _erase(self, interaction: discord.Interaction, locale: str | None) -> str:
        erased = await services_of(interaction.client).server_data.erase_player(
            self.guild_id, self.user_id)
        return _refused(erased, "forget_live", locale) if erased.live_channels \
            else say(locale, "forget_done", matches=say(locale, "erase_matches",
                                                        n=erased.matches))
