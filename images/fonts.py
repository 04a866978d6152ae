"""Fonts and text fitting for every picture.

The fonts are files under ``images/assets/`` (Noto Sans CJK SC subsets, SIL OFL 1.1, see
``assets/README.md``), so a fresh machine draws exactly the same pixels: no system font is
ever looked up, and Pillow's basic layout engine is used so that whether libraqm happens to
be installed changes nothing. Suit symbols are never taken from a font: ``images.cards``
draws them as shapes.

Text from players (names, team names) can hold anything. :func:`clean_text` drops control
and formatting characters (zero-width joiners, variation selectors, skin-tone modifiers)
and turns every character the font lacks (emoji, hangul, rare hanzi) into a box ``□``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from images.errors import RenderError

ASSETS = Path(__file__).with_name("assets")
TEXT_FONT_FILE = ASSETS / "NotoSansCJKsc-Regular-subset.otf"
BOLD_FONT_FILE = ASSETS / "NotoSansCJKsc-Bold-subset.otf"
MISSING = "□"
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont

_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)
_REGIONAL_INDICATORS = range(0x1F1E6, 0x1F200)
_ZWJ = "\u200d"
_NO_LINE_START = frozenset("。，、；：！？）」』》〉】,.;:!?)]}%…")
_VARIATION_SELECTORS = (range(0xFE00, 0xFE10), range(0xE0100, 0xE01F0))


@lru_cache(maxsize=64)
def text_font(size: int) -> Font:
    """The regular face: Latin, Greek, Cyrillic, GB 2312 hanzi, kana, symbols."""
    return _load(TEXT_FONT_FILE, size)


@lru_cache(maxsize=64)
def bold_font(size: int) -> Font:
    """The bold face, ASCII and Latin-1 only: card ranks, index numbers, badges."""
    return _load(BOLD_FONT_FILE, size)


def _load(path: Path, size: int) -> Font:
    try:
        return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
    except OSError as error:  # a broken install: name the file that is missing
        raise RenderError(f"cannot load the font {path}: {error}") from error


def emphasis_font(text: str, size: int) -> Font:
    """The bold face when it can draw all of ``text`` (Latin-1), else the regular face."""
    return bold_font(size) if all(ord(c) < 0x100 for c in text) else text_font(size)


@lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    """Whether the text font has a visible glyph for ``char`` (its missing glyph is empty)."""
    if char.isspace():
        return True
    x0, y0, x1, y1 = text_font(32).getbbox(char)
    return x1 > x0 and y1 > y0


def _dropped(char: str) -> bool:
    code = ord(char)
    if code in _EMOJI_MODIFIERS or any(code in r for r in _VARIATION_SELECTORS):
        return True
    return unicodedata.category(char) in _DROPPED_CATEGORIES


def clean_text(text: str) -> str:
    """``text`` as the text font can draw it: one line, missing characters as ``□``.

    An emoji sequence (joined by U+200D, or a flag's two regional indicators) gives one box.
    """
    out: list[str] = []
    joined = False
    flag_halves = 0
    for char in unicodedata.normalize("NFC", text):
        if char == _ZWJ:
            joined = True
            continue
        flag_halves = flag_halves + 1 if ord(char) in _REGIONAL_INDICATORS else 0
        if char in "\n\t\r":
            out.append(" ")
        elif _dropped(char):
            continue
        elif unicodedata.category(char) == "Mn":
            if _drawable(char):
                out.append(char)
        elif _drawable(char):
            out.append(char)
        else:
            completes_flag = flag_halves > 0 and flag_halves % 2 == 0
            if not (out and out[-1] == MISSING and (joined or completes_flag)):
                out.append(MISSING)
        joined = False
    return "".join(out).strip()


def text_width(text: str, font: Font) -> int:
    return round(font.getlength(text))


def fit_text(text: str, font: Font, max_width: int) -> str:
    """``text`` shortened with ``…`` so that it is at most ``max_width`` pixels wide."""
    if text_width(text, font) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that still fits with the ellipsis
        middle = (low + high + 1) // 2
        if text_width(text[:middle].rstrip() + ELLIPSIS, font) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


def wrap_text(text: str, font: Font, max_width: int) -> list[str]:
    """Lines of at most ``max_width`` pixels: break at spaces, or anywhere in CJK text, but
    never put closing punctuation (``。``, ``，``, ``)``…) at the start of a line."""
    lines: list[list[str]] = [[]]
    for word in _words(text):
        line = lines[-1]
        if not line or text_width(("".join(line) + word).rstrip(), font) <= max_width:
            line.append(word)
        elif word[0] in _NO_LINE_START and len(line) > 1:
            lines.append([line.pop(), word])  # the word before goes down with it
        else:
            lines.append([word.lstrip()])
    out = ["".join(line).strip() for line in lines]
    return [fit_text(line, font, max_width) for line in out if line] or [""]


def _words(text: str) -> list[str]:
    """Break points: after each space, and around every wide (CJK) character."""
    words: list[str] = []
    current = ""
    for char in text:
        wide = unicodedata.east_asian_width(char) in ("W", "F")
        if wide:
            if current:
                words.append(current)
            words.append(char)
            current = ""
        else:
            current += char
            if char == " ":
                words.append(current)
                current = ""
    if current:
        words.append(current)
    return words
