"""The slash commands' names and descriptions in other languages (discord.py's translator).

The texts are in the catalogues' ``command`` context (``bot/text/locales/*.po``), keyed by
the English name or description the cogs declare."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.text.catalogue import command_text


class ShengjiTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return command_text(locale.value, string.message)
