"""The cogs share one /shengji group (cogs/group.py): loading them adds their subcommands
to it in the order they are written, unloading a cog takes out its subcommands and its
controls, and the group goes when the last cog does."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.client import EXTENSIONS
from bot.services import Services
from bot.table_data import TableSettings
from bot.ui.render import ThreadPictures

LOBBY = ["create", "join", "leave", "addbot", "removebot", "start", "remove", "end", "status",
         "rules", "help"]
PLAY = ["hand", "play", "declare", "bury", "swap", "return", "choose", "call"]
STATS = ["leaderboard", "stats", "history", "export"]
ADMIN = ["settings", "erase-data"]


class Bot(commands.Bot):
    services: Services


async def _loaded() -> Bot:
    bot = Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.none())
    # the cogs only keep the services until a command runs
    bot.services = Services(None, None, None, None, None, None,  # type: ignore[arg-type]
                            TableSettings(), ThreadPictures(), None)  # type: ignore[arg-type]
    for name in EXTENSIONS:
        await bot.load_extension(name)
    return bot


def _subcommands(bot: commands.Bot) -> list[str]:
    group = bot.tree.get_command("shengji")
    assert isinstance(group, discord.app_commands.Group)
    return [command.name for command in group.commands]


def _controls(bot: commands.Bot) -> set[str]:
    # DEP-WARN: discord.py has no public list of the registered dynamic items
    registered = bot._connection._view_store._dynamic_items
    return {item.__name__ for item in registered.values()}


async def test_the_cogs_share_one_group_in_the_written_order() -> None:
    bot = await _loaded()
    assert [c.name for c in bot.tree.get_commands()] == ["shengji"]
    assert _subcommands(bot) == LOBBY + PLAY + STATS + ADMIN
    assert len(_subcommands(bot)) <= 25  # Discord's most subcommands in a group
    group = bot.tree.get_command("shengji")
    assert isinstance(group, discord.app_commands.Group) and group.guild_only
    play = group.get_command("play")
    assert isinstance(play, discord.app_commands.Command)
    assert play.binding is bot.get_cog("Play")  # the handler runs on its own cog
    assert [p.name for p in play.parameters] == ["cards"] and play.parameters[0].autocomplete
    await bot.close()


async def test_unloading_a_cog_takes_out_its_subcommands_and_controls() -> None:
    bot = await _loaded()
    assert {"LeaderboardButton", "TableButton", "LetInButton", "PanelChoice", "NoSwapButton",
            "PickMenu", "PickButton", "EraseButton", "ForgetButton"} <= _controls(bot)
    await bot.unload_extension("cogs.stats")
    assert _subcommands(bot) == LOBBY + PLAY + ADMIN
    assert "LeaderboardButton" not in _controls(bot)
    await bot.load_extension("cogs.stats")  # and back, at the end of the group
    assert _subcommands(bot) == LOBBY + PLAY + ADMIN + STATS
    for name in EXTENSIONS:
        await bot.unload_extension(name)
    assert bot.tree.get_commands() == []
    assert not {"LeaderboardButton", "TableButton"} & _controls(bot)
    await bot.close()
