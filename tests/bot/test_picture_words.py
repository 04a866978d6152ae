"""The pictures' words come from the bot's catalogue, in the table's language."""

from __future__ import annotations

from dataclasses import fields

import pytest

from bot.text.catalogue import EN, ZH
from bot.ui.render import picture_labels
from images import Labels

WORDS = [f.name for f in fields(Labels)]


def test_english_pictures_say_what_the_catalogue_says() -> None:
    assert picture_labels("en-US") == Labels()


@pytest.mark.parametrize("word", WORDS)
def test_every_picture_word_has_a_chinese_text_with_the_same_number(word: str) -> None:
    key = f"picture_{word}"
    assert key in EN and key in ZH
    assert ("{n}" in ZH[key]) == ("{n}" in EN[key])
    assert getattr(picture_labels("zh-CN"), word) == ZH[key]
