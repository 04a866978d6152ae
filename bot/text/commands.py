"""The slash commands' names and descriptions in other languages (discord.py's translator).

The texts are in the catalogues' ``command`` context (``bot/text/locales/*.po``), keyed by
the English name or description the cogs declare."""

from __future__ import annotations

from collections.abc import Sequence

from discord import Locale, app_commands

from bot.text.catalogue import command_text, say


class ShengjiTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return command_text(locale.value, string.message)


def help_text(locale: str | None, group: str, commands: Sequence[tuple[str, str]]) -> str:
    """``/shengji help``: how a table goes, then each subcommand of ``group`` (its name and
    description, as the cogs declare them), named as the player's Discord shows them."""
    def slash(name: str) -> str:
        return f"`/{command_text(locale, group) or group} {command_text(locale, name) or name}`"

    intro = say(locale, "help_intro", create=slash("create"), play=slash("play"),
                rules=slash("rules"), join=say(locale, "btn_join"),
                start=say(locale, "btn_start"), hand=say(locale, "btn_hand"),
                back=say(locale, "btn_back"), again=say(locale, "btn_play_again"))
    lines = [f"{slash(name)} — {command_text(locale, description) or description}"
             for name, description in commands]
    return "\n".join([intro, "", say(locale, "help_commands"), *lines])
