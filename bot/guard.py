"""Every interaction gets an answer, including the ones Discord would never send.

discord.py silently drops a component interaction whose ``custom_id`` matches no
registered control, or whose control is not on the message it came from; the user then
sees "This interaction failed". ``answer_orphans`` is an ``on_interaction`` listener that
answers those at once, privately. ``context_error`` refuses an interaction whose guild is
not the guild of its channel (a forged or confused request); the command tree and the
controls call it before they act.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any

import discord

from bot.errors import BotError
from bot.text.catalogue import say

log = logging.getLogger(__name__)


def context_error(interaction: discord.Interaction) -> BotError | None:
    """A reason to refuse the interaction's context, or None when it is consistent."""
    channel = interaction.client.get_channel(interaction.channel_id or 0) \
        if interaction.channel_id else None
    guild = getattr(channel, "guild", None)
    if guild is not None and interaction.guild_id is not None and guild.id != interaction.guild_id:
        log.warning("interaction %s names guild %s for a channel of guild %s: refused",
                    interaction.id, interaction.guild_id, guild.id)
        return BotError("no_table")
    return None


def _components(rows: Iterable[Any]) -> Iterator[dict[str, Any]]:
    for row in rows:
        if not isinstance(row, dict):
            continue
        yield row
        yield from _components(row.get("components") or [])


def is_orphan(interaction: discord.Interaction, templates: Iterable[re.Pattern[str]]) -> bool:
    """A component interaction that no control of ours will answer."""
    if interaction.type is not discord.InteractionType.component:
        return False
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    if not isinstance(custom_id, str) or not any(t.fullmatch(custom_id) for t in templates):
        return True
    message = interaction.message
    if message is None:
        return True
    shown = {c.get("custom_id") for c in _components(
        [c.to_dict() for c in message.components])}
    return custom_id not in shown


async def answer_orphan(interaction: discord.Interaction, text: str) -> None:
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:  # answered meanwhile, or expired
        log.debug("could not answer interaction %s: %r", interaction.id, exc)


def _given_options(data: Any) -> list[dict[str, Any]]:
    """The leaf options of a (sub)command invocation's data."""
    options = data.get("options") if isinstance(data, dict) else None
    while isinstance(options, list) and len(options) == 1 and isinstance(options[0], dict) \
            and options[0].get("type") in (1, 2):
        options = options[0].get("options")
    return [o for o in options or [] if isinstance(o, dict)]


_PYTHON_TYPES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
}


def options_error(interaction: discord.Interaction) -> BotError | None:
    """Options that do not fit the command as it was synced (wrong type, out of range,
    unknown): Discord checks these itself, so only a forged request has them."""
    command = interaction.command
    parameters = {p.name: p for p in getattr(command, "parameters", [])}
    if not isinstance(command, discord.app_commands.Command):
        return None
    for option in _given_options(interaction.data):
        parameter = parameters.get(str(option.get("name")))
        if parameter is None:
            return BotError("bad_options")
        value = option.get("value")
        if option.get("type") != parameter.type.value:
            return BotError("bad_options")
        expected = _PYTHON_TYPES.get(parameter.type)
        if expected is not None and (not isinstance(value, expected) or (
                bool not in expected and isinstance(value, bool))):
            return BotError("bad_options")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            low, high = parameter.min_value, parameter.max_value
            if (low is not None and value < low) or (high is not None and value > high):
                return BotError("bad_options")
        if isinstance(value, str) and len(value) > 6000:
            return BotError("bad_options")
    return None


class GuardedControl:
    """Mixin for our DynamicItems: a click whose guild is not its channel's is refused."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        error = context_error(interaction)
        if error is None:
            return True
        locale = str(interaction.locale.value) if interaction.locale else "en-US"
        await answer_orphan(interaction, say(locale, error.key))
        return False
