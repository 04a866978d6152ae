"""The command tree's one error handler, and ``reply()`` which every answer goes through.

``reply`` answers through the interaction in whatever state it is: the first answer is
the response, later ones are followups; an expired interaction is logged at DEBUG and
dropped (private content never falls back to a public message).
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.errors import BotError
from bot.guard import context_error, options_error
from bot.store import StoreUnreachable
from bot.text.catalogue import say
from bot.text.events import engine_reason

log = logging.getLogger(__name__)


def locale_of(interaction: discord.Interaction) -> str:
    return str(interaction.locale.value if interaction.locale else "en-US")


#: The most characters Discord takes in a message's content.
_MAX_CONTENT = 2000
#: The most characters of a text an error repeats (a user's own input, as in ``'9999…' is
#: not a card``): more than any text of ours, never enough to crowd out the reason.
_MAX_ECHO = 200


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer through the interaction, whatever its state."""
    view = kwargs.get("view")
    if view is not None and ephemeral and _only_dynamic(view):
        # discord.py gives an ephemeral view without timeout one of 15 minutes and keeps
        # the view alive until then (one per hand panel opened); ours are dynamic items,
        # answered by custom_id (bot/guard.py), so a stopped view is sent and not kept
        view.stop()
    if content is not None and len(content) > _MAX_CONTENT:  # (Discord refuses the answer)
        content = content[:_MAX_CONTENT - 1] + "…"
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.followup.send(content or "", ephemeral=ephemeral, **kwargs)
    except discord.NotFound:
        log.debug("interaction %s expired before it could be answered", interaction.id)
    except discord.HTTPException as exc:
        if exc.code == 40060:  # answered meanwhile: send as a followup instead
            await interaction.followup.send(content or "", ephemeral=ephemeral, **kwargs)
        else:
            raise


def _only_dynamic(view: discord.ui.View) -> bool:
    return not any(item.is_dispatchable() and not isinstance(item, discord.ui.DynamicItem)
                   for item in view.walk_children())


async def defer_privately(interaction: discord.Interaction) -> None:
    """Acknowledge now ("thinking…", visible only to the caller); the answer follows."""
    if not interaction.response.is_done():
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.NotFound:
            log.debug("interaction %s expired before it could be deferred", interaction.id)


def mark_stored(interaction: discord.Interaction) -> None:
    """The caller's action was stored: a failure from here on must not say otherwise."""
    interaction.extras["stored"] = True


def error_text(interaction: discord.Interaction, error: BaseException) -> str:
    locale = locale_of(interaction)
    if isinstance(error, BotError):
        params = _echoes_clipped(error.params)
        if error.from_rules:
            given = params.pop("engine_params", None)
            params["reason"] = engine_reason(locale, params.get("code"),
                                             given and _echoes_clipped(given))
        if "seat" in params and isinstance(params["seat"], int):
            params["seat"] = params["seat"] + 1  # seats are shown from 1
        return say(locale, error.key, **params)
    stored = interaction.extras.get("stored")
    if isinstance(error, StoreUnreachable) and not stored:  # (the server restarts, say)
        log.warning("interaction %s: %s", interaction.id, error)
        return say(locale, "store_unreachable")
    error_id = uuid.uuid4().hex[:8]
    log.error("error %s in interaction %s", error_id, interaction.id, exc_info=error)
    return say(locale, "generic_stored" if stored else "generic", error_id=error_id)


def _echoes_clipped(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with every long text (a user's own input, repeated back) shortened, and
    what the user typed (``text``, ``value``, ``part``) shown as typed: ``**AS**`` not
    bold, ``<@id>`` not a mention."""
    out = {name: value[:_MAX_ECHO - 1] + "…"
           if isinstance(value, str) and len(value) > _MAX_ECHO else value
           for name, value in params.items()}
    for name in _TYPED:
        if isinstance(out.get(name), str):
            out[name] = as_typed(out[name])
    return out


def as_typed(text: str) -> str:
    """Text a person wrote (a display name, what they typed), in a message shown as
    written: its markdown (``||``, ``**``, a backtick) escaped, and a mention in it
    (``<@&id>``, ``@everyone``) broken, so that it neither formats the message nor shows as
    a mention. (Pictures, buttons, menus and autocomplete show no markdown: not there.)"""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


#: The parameters of a refusal that repeat what the user typed.
_TYPED = ("text", "value", "part")


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong, privately. Used by commands and components."""
    if interaction.type is discord.InteractionType.autocomplete:
        if not isinstance(error, BotError):
            error_text(interaction, error)  # logs it
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.autocomplete([])
        return
    await reply(interaction, error_text(interaction, error), ephemeral=True)


class ShengjiTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse (with an answer) what Discord would never send: a guild that is not the
        channel's, options that do not fit the command."""
        error = context_error(interaction) or options_error(interaction)
        if error is not None:
            await report_error(interaction, error)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction,
                       error: app_commands.AppCommandError) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) \
            else error
        if isinstance(original, app_commands.MissingPermissions):
            original = BotError("not_host")
        await report_error(interaction, original)
