"""Fonts and text fitting for every picture.

The fonts are files under ``images/assets/`` (Noto Sans CJK SC subsets and Noto Emoji, SIL
OFL 1.1, see ``assets/README.md``), so a fresh machine draws exactly the same pixels: no
system font is ever looked up. The text faces use Pillow's basic layout engine, so that
whether libraqm happens to be installed changes nothing there; emoji use libraqm when
Pillow has it (one glyph for a family, a flag or a keycap) and are drawn one by one when
it hasn't. Suit symbols are never taken from a font: ``images.cards`` draws them as shapes.

Text from players (names, team names) can hold anything. :func:`clean_text` drops control
and formatting characters, keeps emoji (with their joiners, skin tones and variation
selectors) for the emoji font, and turns every character neither font has (hangul, rare
hanzi, private use) into a box ``□``. Draw such text with :func:`draw_text`, which picks the
font for each run, and measure it with :func:`text_width`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from images.errors import RenderError

ASSETS = Path(__file__).with_name("assets")
TEXT_FONT_FILE = ASSETS / "NotoSansCJKsc-Regular-subset.otf"
BOLD_FONT_FILE = ASSETS / "NotoSansCJKsc-Bold-subset.otf"
EMOJI_FONT_FILE = ASSETS / "NotoEmoji-Regular-static.ttf"
MISSING = "□"
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont
RGB = tuple[int, int, int]

#: libraqm shapes emoji sequences into one glyph; without it each part is drawn.
EMOJI_SHAPING = features.check_feature("raqm")

_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)
_REGIONAL_INDICATORS = range(0x1F1E6, 0x1F200)
_TAGS = range(0xE0020, 0xE0080)  # subdivision flags: 🏴 + tag letters + cancel tag
_ZWJ = "\u200d"
_EMOJI_STYLE = "\ufe0f"
_KEYCAP = "\u20e3"
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


@lru_cache(maxsize=64)
def emoji_font(size: int) -> Font:
    """Noto Emoji (monochrome, drawn in the text's colour)."""
    layout = ImageFont.Layout.RAQM if EMOJI_SHAPING else ImageFont.Layout.BASIC
    return _load(EMOJI_FONT_FILE, size, layout)


def _load(path: Path, size: int, layout: ImageFont.Layout = ImageFont.Layout.BASIC) -> Font:
    try:
        return ImageFont.truetype(path, size, layout_engine=layout)
    except OSError as error:  # a broken install: name the file that is missing
        raise RenderError(f"cannot load the font {path}: {error}") from error


def emphasis_font(text: str, size: int) -> Font:
    """The bold face when it can draw all of ``text`` (Latin-1), else the regular face."""
    return bold_font(size) if all(ord(c) < 0x100 for c in text) else text_font(size)


def _has_glyph(font: Font, char: str) -> bool:
    x0, y0, x1, y1 = font.getbbox(char)
    return x1 > x0 and y1 > y0


@lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    """Whether the text font has a visible glyph for ``char`` (its missing glyph is empty)."""
    return char.isspace() or _has_glyph(text_font(32), char)


@lru_cache(maxsize=4096)
def _emoji_drawable(char: str) -> bool:
    if char.isspace() or unicodedata.category(char) in _DROPPED_CATEGORIES:
        return False  # libraqm refuses to lay out some of these on their own
    return _has_glyph(emoji_font(32), char)


def _dropped(char: str) -> bool:
    code = ord(char)
    if code in _EMOJI_MODIFIERS or any(code in r for r in _VARIATION_SELECTORS):
        return True
    return unicodedata.category(char) in _DROPPED_CATEGORIES


def _extends(cluster: str, char: str) -> bool:
    """Whether ``char`` belongs to the emoji or letter cluster before it."""
    if _dropped(cluster[0]):  # a stray joiner or control character joins nothing
        return False
    code = ord(char)
    joins = cluster.endswith(_ZWJ) or char == _ZWJ or code in _EMOJI_MODIFIERS or code in _TAGS
    if joins:
        return _emoji_drawable(cluster[0])
    if any(code in r for r in _VARIATION_SELECTORS) or unicodedata.category(char) in ("Mn", "Me"):
        return True
    if code in _REGIONAL_INDICATORS:  # the second half of a flag
        halves = 0
        for c in reversed(cluster):
            if ord(c) not in _REGIONAL_INDICATORS:
                break
            halves += 1
        return halves % 2 == 1 and len(cluster) == halves
    return False


def _clusters(text: str) -> Iterator[str]:
    """What a reader sees as one character: a letter with its marks, an emoji sequence."""
    cluster = ""
    for char in unicodedata.normalize("NFC", text):
        if cluster and _extends(cluster, char):
            cluster += char
            continue
        if cluster:
            yield cluster
        cluster = char
    if cluster:
        yield cluster


def _is_emoji(cluster: str) -> bool:
    """Drawn with the emoji font: its base is not in the text font, or the cluster asks
    for emoji style (U+FE0F, a keycap, a skin tone, a joiner, a flag)."""
    base = cluster[0]
    if not _emoji_drawable(base):
        return False
    if not _drawable(base):
        return True
    return any(c in (_EMOJI_STYLE, _KEYCAP, _ZWJ) or ord(c) in _EMOJI_MODIFIERS for c in cluster)


def _clean_cluster(cluster: str) -> str:
    base = cluster[0]
    if base in "\n\t\r":
        return " "
    if _is_emoji(cluster):
        return cluster
    if _dropped(base):
        return ""
    if not _drawable(base):
        return MISSING
    return base + "".join(
        c for c in cluster[1:] if unicodedata.category(c) == "Mn" and _drawable(c)
    )


def clean_text(text: str) -> str:
    """``text`` as the fonts can draw it: one line, emoji kept, the rest as ``□``.

    A sequence neither font draws (a letter with its marks, an emoji sequence) gives one box.
    """
    return "".join(_clean_cluster(cluster) for cluster in _clusters(text)).strip()


@lru_cache(maxsize=4096)
def _runs(text: str) -> tuple[tuple[str, bool], ...]:
    """``text`` split into runs for one font each: (run, is emoji)."""
    return tuple(_split_runs(text))


def _split_runs(text: str) -> Iterator[tuple[str, bool]]:
    run, emoji = "", False
    for cluster in _clusters(text):
        is_emoji = _is_emoji(cluster)
        if is_emoji and not EMOJI_SHAPING:
            cluster = _unjoined(cluster)
        if run and is_emoji != emoji:
            yield run, emoji
            run = ""
        run, emoji = run + cluster, is_emoji
    if run:
        yield run, emoji


def _unjoined(cluster: str) -> str:
    """The parts of an emoji sequence that have a glyph of their own (no shaping)."""
    return "".join(c for c in cluster if not _dropped(c) and ord(c) not in _TAGS)


def _font_for(font: Font, emoji: bool) -> Font:
    return emoji_font(round(font.size)) if emoji else font


@lru_cache(maxsize=4096)
def text_width(text: str, font: Font) -> int:
    return round(sum(_font_for(font, emoji).getlength(run) for run, emoji in _runs(text)))


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    font: Font,
    fill: RGB,
    anchor: str = "lm",
) -> float:
    """Draw cleaned text on ``image``, emoji with the emoji font; returns the x where the
    text ends. ``anchor`` is Pillow's: ``l``, ``m`` or ``r``, then ``m`` (centred on y),
    ``t`` or ``s`` (baseline)."""
    x, y = xy
    if anchor[0] != "l":
        width = text_width(text, font)
        x -= width if anchor[0] == "r" else width / 2
    for run, emoji in _runs(text):
        run_font = _font_for(font, emoji)
        mask, (dx, dy) = _stamp(run, run_font, "l" + anchor[1])
        if mask is not None:
            left, top = round(x) + dx, round(y) + dy
            image.paste(fill, (left, top, left + mask.width, top + mask.height), mask)
        x += run_font.getlength(run)
    return x


def draw_plain_text(
    image: Image.Image, xy: tuple[int, int], text: str, font: Font, fill: RGB,
    anchor: str = "mm",
) -> None:
    """Text in one font without emoji (numbers, ranks) at a whole-pixel point, from a
    cached stamp: the pixels ``ImageDraw.text`` draws there, without FreeType each time."""
    mask, (dx, dy) = _stamp(text, font, anchor)
    if mask is not None:
        left, top = xy[0] + dx, xy[1] + dy
        image.paste(fill, (left, top, left + mask.width, top + mask.height), mask)


@lru_cache(maxsize=2048)
def _stamp(text: str, font: Font, anchor: str) -> tuple[Image.Image | None, tuple[int, int]]:
    """The coverage mask of ``text`` and its offset from the anchor point, drawn once: the
    same names and words come back in every picture."""
    x0, y0, x1, y1 = (int(v) for v in font.getbbox(text, anchor=anchor))
    if x1 <= x0 or y1 <= y0:
        return None, (0, 0)
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=font, fill=255, anchor=anchor)
    return mask, (x0, y0)


def fit_text(text: str, font: Font, max_width: int) -> str:
    """``text`` shortened with ``…`` so that it is at most ``max_width`` pixels wide
    (never inside an emoji sequence)."""
    if text_width(text, font) <= max_width:
        return text
    clusters = list(_clusters(text))
    low, high = 0, len(clusters)
    while low < high:  # the longest prefix that still fits with the ellipsis
        middle = (low + high + 1) // 2
        if text_width("".join(clusters[:middle]).rstrip() + ELLIPSIS, font) <= max_width:
            low = middle
        else:
            high = middle - 1
    return "".join(clusters[:low]).rstrip() + ELLIPSIS if low else ELLIPSIS


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
