"""Every user-facing string, keyed by error or event, in gettext catalogues.

The texts live in ``bot/text/locales/<language>.po`` (``en``, ``zh_CN`` Simplified,
``zh_TW`` Traditional), read with Babel at start-up; how to edit or add a language is in
``docs/translating.md``. A message id is the key the code uses (``"no_table"``); the
English file holds the English text. A text with a number in it has plural forms: its
English entry says which parameter counts (``#. plural: count``, ``count`` by default).

``language(locale)`` maps a Discord locale to a catalogue (zh-TW and zh-HK → zh_TW,
other Chinese → zh_CN, anything else → en). ``say(locale, key, **params)`` formats one
text; ``bot.text.events`` words engine events, results and refusals with these texts.
"""

from __future__ import annotations

import gettext
import io
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("en", "zh_CN", "zh_TW")
SOURCE = "en"
COMMAND_CONTEXT = "command"  # slash command names and descriptions (bot.text.commands)

#: Texts added in code by older branches; they belong in the .po files (a test says so).
EN: dict[str, str] = {}
ZH: dict[str, str] = {}

_PLURAL_NOTE = re.compile(r"plural:\s*(\w+)")


def language(locale: str | None) -> str:
    """The catalogue for a Discord locale ("zh-TW", "zh-HK" → Traditional; "zh-CN" → Simplified)."""
    tag = (locale or "").replace("_", "-").lower()
    if tag.startswith(("zh-tw", "zh-hk", "zh-mo", "zh-hant")):
        return "zh_TW"
    if tag.startswith("zh"):
        return "zh_CN"
    return SOURCE


def read_catalogue(lang: str) -> Catalog:
    """One language's .po file as Babel reads it."""
    path = resources.files("bot.text") / "locales" / f"{lang}.po"
    with path.open("rb") as fp:
        return read_po(fp, locale=lang)


@dataclass(frozen=True)
class _Texts:
    translations: gettext.GNUTranslations
    counters: dict[str, str]  # plural key -> the parameter that counts


@cache
def _texts(lang: str) -> _Texts:
    catalogue = read_catalogue(lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)  # compiled in memory: no build step, gettext does the rest
    buffer.seek(0)
    translations = gettext.GNUTranslations(buffer)
    if lang != SOURCE:
        translations.add_fallback(_texts(SOURCE).translations)
    source = catalogue if lang == SOURCE else read_catalogue(SOURCE)
    counters = {}
    for message in source:
        if message.id and message.pluralizable and not message.context:
            notes = " ".join(message.auto_comments)
            match = _PLURAL_NOTE.search(notes)
            counters[message.id[0]] = match.group(1) if match else "count"
    return _Texts(translations, counters)


def has(key: str) -> bool:
    """Whether the catalogue has this key (in English, the source language)."""
    return key in _texts(SOURCE).counters or key in _keys() or key in EN


@cache
def _keys() -> frozenset[str]:
    return frozenset(m.id for m in read_catalogue(SOURCE)
                     if isinstance(m.id, str) and m.id and not m.context)


def _text(locale: str | None, key: str, params: dict[str, Any]) -> str:
    lang = language(locale)
    texts = _texts(lang)
    counter = texts.counters.get(key)
    if counter is not None:
        count = params.get(counter)
        return texts.translations.ngettext(key, key, count if isinstance(count, int) else 2)
    text = texts.translations.gettext(key)
    if text == key:  # not in the files: a text added in code (see EN/ZH above)
        return (ZH.get(key) if lang != SOURCE else None) or EN.get(key) or key
    return text


def template(locale: str | None, key: str, count: int | None = None) -> str:
    """A text as written, unformatted (English where the language lacks it).

    A text with plural forms gives its form for ``count`` (for "several" without one)."""
    if count is None:
        return _text(locale, key, {})
    return _text(locale, key, {_texts(SOURCE).counters.get(key, "count"): count})


def say(locale: str | None, key: str, **params: Any) -> str:
    text = _text(locale, key, params)
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def command_text(locale: str | None, source: str) -> str | None:
    """A slash command's name or description in ``locale``'s language, or None."""
    lang = language(locale)
    if lang == SOURCE:
        return None
    translated = _texts(lang).translations.pgettext(COMMAND_CONTEXT, source)
    return None if translated == source else translated
