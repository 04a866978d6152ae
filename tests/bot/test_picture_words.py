"""The pictures' words come from the bot's catalogue, in the table's language."""

from __future__ import annotations

from dataclasses import fields

import pytest

from bot.text.catalogue import has, template
from bot.ui.render import picture_labels
from images import Labels

WORDS = [f.name for f in fields(Labels)]


def test_english_pictures_say_what_the_catalogue_says() -> None:
    assert picture_labels("en-US") == Labels()


@pytest.mark.parametrize("locale", ["zh-CN", "zh-TW"])
@pytest.mark.parametrize("word", WORDS)
def test_every_picture_word_has_a_chinese_text_with_the_same_number(word: str,
                                                                   locale: str) -> None:
    key = f"picture_{word}"
    assert has(key)
    assert ("{n}" in template(locale, key)) == ("{n}" in template("en", key))
    assert getattr(picture_labels(locale), word) == template(locale, key)


def test_traditional_pictures_are_not_simplified() -> None:
    assert picture_labels("zh-TW").dealer_badge == "莊"
    assert picture_labels("zh-HK").levels == picture_labels("zh-TW").levels
    assert picture_labels("zh-TW").levels != picture_labels("zh-CN").levels


@pytest.mark.parametrize(("count", "expected"), [(1, "Hand ({n} card)"), (2, "Hand ({n} cards)")])
def test_the_hand_picture_counts_its_cards_in_english(count: int, expected: str) -> None:
    assert picture_labels("en-US", {"hand": count}).hand == expected
