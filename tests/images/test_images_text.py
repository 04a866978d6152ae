"""Fonts and text fitting (images/fonts.py), and the images layer's import boundary."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from images.fonts import MISSING, clean_text, fit_text, text_font, text_width, wrap_text

IMAGES = Path(__file__).resolve().parents[2] / "images"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("小明", "小明"),
        ("Zoë", "Zoë"),
        ("🐉 Dragon", f"{MISSING} Dragon"),
        ("👨\u200d👩\u200d👧", MISSING),
        ("🇨🇳🇺🇸", MISSING * 2),
        ("👍🏽", MISSING),
        ("❤️", MISSING),
        ("김", MISSING),
        ("bad\x00\x07name", "badname"),
        ("two\nlines", "two lines"),
        ("zero\u200bwidth", "zerowidth"),
    ],
    ids=[
        "hanzi",
        "latin-diacritic",
        "emoji",
        "zwj-sequence",
        "two-flags",
        "skin-tone",
        "variation-selector",
        "hangul",
        "control",
        "newline",
        "zero-width-space",
    ],
)
def test_clean_text_keeps_what_the_font_draws_and_boxes_the_rest(text: str, expected: str) -> None:
    assert clean_text(text) == expected


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
