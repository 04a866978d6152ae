"""The one ``/shengji`` command group, shared by the cogs (lobby, play, stats, admin).

discord.py gives every cog that declares a group a group of its own, and two groups of
one name cannot both be on the tree. So a cog marks its handlers with
:func:`subcommand`; :class:`ShengjiCog` adds them, bound to the cog, to the single
group on the tree when the cog loads (before the tree is synced), and takes them out
when it unloads; likewise the persistent controls (dynamic items) the cog answers.
Parameter decorators (``describe``, ``choices``, ``autocomplete``)
work on the marked methods as on any app command callback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.text.catalogue import say
from bot.tree import locale_of
from bot.ui.publisher import TABLE_PERMISSIONS

GROUP_NAME = "shengji"
GROUP_DESCRIPTION = "Shengji (升级 / Tractor) tables"

_MARK = "__shengji_subcommand__"
F = TypeVar("F", bound=Callable[..., Any])


def subcommand(name: str, description: str) -> Callable[[F], F]:
    """Mark a cog method as ``/shengji <name>``."""
    def mark(func: F) -> F:
        setattr(func, _MARK, (name, description))
        return func
    return mark


def shengji_group(tree: app_commands.CommandTree[Any]) -> app_commands.Group:
    """The ``/shengji`` group on ``tree``, made on first use."""
    found = tree.get_command(GROUP_NAME)
    if isinstance(found, app_commands.Group):
        return found
    group = app_commands.Group(name=GROUP_NAME, description=GROUP_DESCRIPTION,
                               guild_only=True)
    tree.add_command(group)
    return group


class ShengjiCog(commands.Cog):
    """A cog whose marked methods are subcommands of ``/shengji``, and whose
    ``controls`` are registered while it is loaded (the bot is used for that only)."""

    controls: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()

    def __init__(self, bot: commands.Bot) -> None:
        self._bot = bot
        self._added: list[str] = []

    async def cog_load(self) -> None:
        self._bot.add_dynamic_items(*self.controls)
        group = shengji_group(self._bot.tree)
        for attr, func in vars(type(self)).items():  # in the order they are written
            marked = getattr(func, _MARK, None)
            if marked is None:
                continue
            name, description = marked
            group.add_command(app_commands.Command(name=name, description=description,
                                                   callback=getattr(self, attr)))
            self._added.append(name)

    async def cog_unload(self) -> None:
        group = shengji_group(self._bot.tree)
        for name in self._added:
            group.remove_command(name)
        self._added.clear()
        if not group.commands:
            self._bot.tree.remove_command(GROUP_NAME)
        self._bot.remove_dynamic_items(*self.controls)


def channel_of(interaction: discord.Interaction) -> int:
    """The channel of the table a command is about (tables live in server channels)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise BotError("no_table")
    return interaction.channel_id


def check_can_post_table(interaction: discord.Interaction) -> None:
    """Refuses (``cannot_post``, naming what is missing) where the bot may not post its
    table message in the channel (the text, its picture, its buttons): a table there would
    be one nobody sees. Read from the interaction's ``app_permissions``: no request."""
    allowed = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed = [("send_messages_in_threads" if in_thread and name == "send_messages" else name)
              for name in TABLE_PERMISSIONS]
    missing = [name for name in needed if not getattr(allowed, name)]
    if missing:
        locale = locale_of(interaction)
        raise BotError("cannot_post", missing=say(locale, "name_separator").join(
            say(locale, f"permission_{name}") for name in missing))


def server_of(interaction: discord.Interaction) -> int:
    """The caller's server: every stats query is confined to it."""
    if interaction.guild_id is None:
        raise BotError("no_table")
    return interaction.guild_id


def can_manage_server(interaction: discord.Interaction) -> bool:
    member = interaction.user
    return isinstance(member, discord.Member) and member.guild_permissions.manage_guild
