"""Fonts and text fitting (images/fonts.py), and the images layer's import boundary."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

from images import fonts
from images.fonts import (
    EMOJI_SHAPING,
    MISSING,
    clean_text,
    draw_text,
    fit_text,
    text_font,
    text_width,
    wrap_text,
)

IMAGES = Path(__file__).resolve().parents[2] / "images"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("小明", "小明"),
        ("Zoë", "Zoë"),
        ("🐉 Dragon", "🐉 Dragon"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
        ("🇨🇳🇺🇸", "🇨🇳🇺🇸"),
        ("👍🏽", "👍🏽"),
        ("❤️", "❤️"),
        ("1️⃣", "1️⃣"),
        ("김", MISSING),
        ("김민수", MISSING * 3),
        ("\ue000x", "x"),
        ("bad\x00\x07name", "badname"),
        ("two\nlines", "two lines"),
        ("zero\u200bwidth", "zerowidth"),
        ("a\u200db", "ab"),
    ],
    ids=[
        "hanzi",
        "latin-diacritic",
        "emoji",
        "zwj-sequence",
        "two-flags",
        "skin-tone",
        "variation-selector",
        "keycap",
        "hangul",
        "three-hangul",
        "private-use",
        "control",
        "newline",
        "zero-width-space",
        "joiner-between-letters",
    ],
)
def test_clean_text_keeps_what_the_fonts_draw_and_boxes_the_rest(text: str, expected: str) -> None:
    assert clean_text(text) == expected


def stamp(text: str) -> Image.Image:
    image = Image.new("L", (200, 60), 0)
    draw_text(image, (10, 30), clean_text(text), text_font(32), 255)
    return image


@pytest.mark.parametrize("emoji", ["🐉", "😀", "👍🏽", "🇨🇳", "❤️"], ids=str)
def test_emoji_are_drawn_with_their_own_glyphs_not_boxes(emoji: str) -> None:
    drawn = stamp(emoji)
    assert drawn.getbbox() is not None
    assert ImageChops.difference(drawn, stamp(MISSING)).getbbox() is not None


def test_an_emoji_sequence_is_one_glyph_when_pillow_can_shape_it() -> None:
    family = "👨\u200d👩\u200d👧"
    width = text_width(family, text_font(32))
    assert width < text_width("👨👩👧", text_font(32)) if EMOJI_SHAPING else width > 0


def test_without_shaping_an_emoji_sequence_is_drawn_part_by_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fonts, "EMOJI_SHAPING", False)
    runs = list(fonts._split_runs("A 👨\u200d👩\u200d👧🏽"))
    assert runs == [("A ", False), ("👨👩👧", True)]


def test_fitting_never_cuts_an_emoji_sequence() -> None:
    family = "👨\u200d👩\u200d👧"
    font = text_font(20)
    fitted = fit_text(family * 3, font, text_width(family * 2, font) + 12)
    assert fitted.removesuffix("…").replace(family, "") == ""


@given(st.text(max_size=60), st.integers(min_value=20, max_value=400))
def test_fit_text_never_exceeds_the_width(text: str, width: int) -> None:
    font = text_font(18)
    fitted = fit_text(clean_text(text), font, width)
    assert text_width(fitted, font) <= width or fitted == "…"


@given(st.text(alphabet="升级拖拉机小明，。 ", max_size=120))
def test_wrapped_cjk_lines_fit_and_keep_every_character(text: str) -> None:
    font = text_font(17)
    lines = wrap_text(text, font, 200)
    assert all(text_width(line, font) <= 200 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_wrapping_never_starts_a_line_with_closing_punctuation() -> None:
    lines = wrap_text("一二三四五六七八九十。一二三", text_font(20), 200)
    assert len(lines) > 1
    assert not any(line.startswith("。") for line in lines)


ALLOWED_PROJECT_IMPORTS = {"engine.cards", "engine.order"}
PROJECT_PACKAGES = {"engine", "bot", "cogs", "images", "tests"}


@pytest.mark.parametrize("path", sorted(IMAGES.glob("*.py")), ids=lambda p: p.name)
def test_images_imports_only_card_and_trump_order_types(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            top = module.split(".")[0]
            if top in PROJECT_PACKAGES and top != "images":
                assert module in ALLOWED_PROJECT_IMPORTS, f"{path.name} imports {module}"
