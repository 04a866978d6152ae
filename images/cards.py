"""Card faces, suit pips and card backs, drawn by the project (no glyphs for suits).

A face is a white rounded rectangle with a grey border, the rank and a pip in the top-left
corner (turned upside down in the bottom-right one), and a big pip in the middle; courts
(J Q K) get a big letter inside an inner frame; jokers read ``JOKER`` downwards with a star,
the big joker red and filled, the small joker black and hollow. The four-colour option
paints ♠ black, ♥ red, ♦ blue, ♣ green.

Everything is drawn :data:`SCALE` times larger and scaled down, which smooths the edges,
and cached per (card, height, options): a face is drawn once per process. Returned images
are shared: paste them, never draw on them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import Card, Rank, Suit
from images.canvas import GOLD, NEW, RGB, SELECTED
from images.fonts import bold_font

SCALE = 4
WIDTH_RATIO = 0.7

RED: RGB = (204, 22, 36)
BLACK: RGB = (22, 22, 26)
BLUE: RGB = (18, 80, 200)
GREEN: RGB = (12, 128, 48)
BORDER: RGB = (105, 105, 110)
PAPER: RGB = (255, 255, 255)
BACK: RGB = (36, 72, 160)
DIM: RGB = (110, 115, 112)

_TWO_COLOURS = {Suit.SPADES: BLACK, Suit.HEARTS: RED, Suit.DIAMONDS: RED, Suit.CLUBS: BLACK}
_FOUR_COLOURS = {Suit.SPADES: BLACK, Suit.HEARTS: RED, Suit.DIAMONDS: BLUE, Suit.CLUBS: GREEN}

Point = tuple[float, float]


def card_width(height: int) -> int:
    return round(height * WIDTH_RATIO)


def suit_colour(suit: Suit, four_colour: bool = False) -> RGB:
    return (_FOUR_COLOURS if four_colour else _TWO_COLOURS)[suit]


def card_colour(card: Card, four_colour: bool = False) -> RGB:
    if card.suit is None:
        return RED if card.rank is Rank.BIG_JOKER else BLACK
    return suit_colour(card.suit, four_colour)


# -- suit shapes in a unit box (x to the right, y down) ---------------------------------


def _heart(points: int = 72) -> list[Point]:
    raw = []
    for step in range(points):
        t = 2 * math.pi * step / points
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    return _fit(raw, (0.0, 0.04, 1.0, 0.96))


def _fit(points: Sequence[Point], box: tuple[float, float, float, float]) -> list[Point]:
    """Scale ``points`` to fill ``box`` (x0, y0, x1, y1)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    sx = (box[2] - box[0]) / (max(xs) - min(xs))
    sy = (box[3] - box[1]) / (max(ys) - min(ys))
    return [(box[0] + (x - min(xs)) * sx, box[1] + (y - min(ys)) * sy) for x, y in points]


def _stem(top: float) -> list[Point]:
    """The flared foot of a spade or club, from ``top`` down to the bottom of the box."""
    left: list[Point] = []
    right: list[Point] = []
    for step in range(13):
        s = step / 12
        half = 0.035 + 0.2 * s**2.2
        y = top + (1.0 - top) * s
        left.append((0.5 - half, y))
        right.append((0.5 + half, y))
    return left + right[::-1]


def _diamond() -> list[Point]:
    corners = [(0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5)]
    points: list[Point] = []
    for i, (x0, y0) in enumerate(corners):
        x1, y1 = corners[(i + 1) % 4]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        cx, cy = cx + (0.5 - cx) * 0.16, cy + (0.5 - cy) * 0.16  # sides bow in a little
        for step in range(10):
            t = step / 10
            points.append(
                (
                    (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t**2 * x1,
                    (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t**2 * y1,
                )
            )
    return points


_HEART = _heart()
_SPADE_BODY = _fit([(x, -y) for x, y in _heart()], (0.0, 0.0, 1.0, 0.78))
_STEM = _stem(0.5)
_DIAMOND = _diamond()
_CLUB_LOBES = ((0.5, 0.27), (0.24, 0.57), (0.76, 0.57))
_CLUB_RADIUS = 0.235


def star_points(cx: float, cy: float, radius: float, inner: float = 0.42) -> list[Point]:
    points = []
    for k in range(10):
        angle = math.radians(-90 + 36 * k)
        r = radius if k % 2 == 0 else radius * inner
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return points


def draw_suit(
    draw: ImageDraw.ImageDraw, suit: Suit, box: tuple[float, float, float], fill: RGB
) -> None:
    """A pip of ``suit`` in the square whose top-left is (x, y) and side ``size``."""
    x, y, size = box

    def place(points: Sequence[Point]) -> list[Point]:
        return [(x + px * size, y + py * size) for px, py in points]

    if suit is Suit.HEARTS:
        draw.polygon(place(_HEART), fill=fill)
    elif suit is Suit.DIAMONDS:
        draw.polygon(place(_DIAMOND), fill=fill)
    elif suit is Suit.SPADES:
        draw.polygon(place(_SPADE_BODY), fill=fill)
        draw.polygon(place(_STEM), fill=fill)
    else:
        r = _CLUB_RADIUS * size
        for cx, cy in _CLUB_LOBES:
            px, py = x + cx * size, y + cy * size
            draw.ellipse((px - r, py - r, px + r, py + r), fill=fill)
        draw.polygon(place([(0.5, 0.3), (0.3, 0.6), (0.7, 0.6)]), fill=fill)
        draw.polygon(place(_STEM), fill=fill)


@lru_cache(maxsize=256)
def suit_icon(suit: Suit, size: int, colour: RGB) -> Image.Image:
    """A smooth pip ``size`` pixels square on a transparent background."""
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (*colour, 0))
    draw_suit(ImageDraw.Draw(big), suit, (0, 0, size * SCALE), colour)
    return big.reduce(SCALE)


@lru_cache(maxsize=16)
def star_icon(size: int, colour: RGB, hollow: bool = False) -> Image.Image:
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (*colour, 0))
    draw = ImageDraw.Draw(big)
    half = size * SCALE / 2
    points = star_points(half, half * 1.08, half * 0.98)
    if hollow:
        draw.polygon(points, outline=colour, width=max(1, round(size * SCALE * 0.09)))
    else:
        draw.polygon(points, fill=colour)
    return big.reduce(SCALE)


# -- faces ------------------------------------------------------------------------------


class _Geometry:
    """Sizes of one card height, in supersampled pixels."""

    def __init__(self, height: int) -> None:
        s = SCALE
        self.height = height * s
        self.width = card_width(height) * s
        h = self.height
        self.radius = round(0.07 * h)
        self.border = s
        self.pad = round(0.035 * h)
        self.column = round(0.235 * h)
        self.rank_size = round(0.2 * h)
        self.rank_top = round(0.025 * h)
        self.pip = round(0.125 * h)
        self.pip_top = round(0.235 * h)
        self.corner_height = self.pip_top + self.pip + round(0.01 * h)


def _corner(card: Card, g: _Geometry, colour: RGB) -> Image.Image:
    """The rank and pip (or JOKER and star) that stand in a corner, on transparency."""
    corner = Image.new("RGBA", (g.column, round(0.8 * g.height)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(corner)
    middle = g.column / 2
    if card.suit is None:
        size = round(0.118 * g.height)
        font = bold_font(size)
        y = g.rank_top
        for letter in "JOKER":
            draw.text((middle, y), letter, font=font, fill=colour, anchor="mt")
            y += round(size * 0.97)
        star = round(0.13 * g.height)
        y += round(0.015 * g.height)
        points = star_points(middle, y + star / 2, star / 2)
        if card.rank is Rank.BIG_JOKER:
            draw.polygon(points, fill=colour)
        else:
            draw.polygon(points, outline=colour, width=round(star * 0.1))
        return corner.crop((0, 0, g.column, round(y + star + 0.01 * g.height)))
    label = card.rank.label
    font = bold_font(g.rank_size)
    text_width = font.getlength(label)
    if text_width > g.column * 0.98:  # "10": squeeze it into the column
        wide = Image.new("RGBA", (math.ceil(text_width) + 4, g.rank_size * 2), (0, 0, 0, 0))
        ImageDraw.Draw(wide).text((2, 0), label, font=font, fill=colour)
        box = wide.getbbox() or (0, 0, 1, 1)
        wide = wide.crop((box[0], 0, box[2], wide.height))
        wide = wide.resize((round(g.column * 0.98), wide.height), Image.Resampling.LANCZOS)
        corner.alpha_composite(wide, (round(g.column * 0.01), g.rank_top))
    else:
        draw.text((middle, g.rank_top), label, font=font, fill=colour, anchor="mt")
    draw_suit(draw, card.suit, (middle - g.pip / 2, g.pip_top, g.pip), colour)
    return corner.crop((0, 0, g.column, g.corner_height))


def _draw_centre(card: Card, g: _Geometry, draw: ImageDraw.ImageDraw, colour: RGB) -> None:
    w, h = g.width, g.height
    cx, cy = w / 2, h / 2
    if card.suit is None:
        radius = 0.2 * h
        points = star_points(cx, cy + 0.02 * h, radius)
        if card.rank is Rank.BIG_JOKER:
            draw.polygon(points, fill=colour)
            inner = star_points(cx, cy + 0.02 * h, radius * 0.45)
            draw.polygon(inner, fill=GOLD)
        else:
            draw.polygon(points, outline=colour, width=round(0.022 * h))
        return
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        frame = (0.25 * w, 0.16 * h, 0.75 * w, 0.84 * h)
        tint = tuple(round(255 - (255 - c) * 0.14) for c in colour)
        draw.rounded_rectangle(
            frame, radius=g.radius // 2, fill=tint, outline=colour, width=round(0.01 * h)
        )
        font = bold_font(round(0.27 * h))
        draw.text((cx, cy - 0.05 * h), card.rank.label, font=font, fill=colour, anchor="mm")
        pip = 0.13 * h
        draw_suit(draw, card.suit, (cx - pip / 2, cy + 0.1 * h, pip), colour)
        return
    pip = (0.44 if card.rank is Rank.ACE else 0.3) * h
    draw_suit(draw, card.suit, (cx - pip / 2, cy - pip / 2, pip), colour)


@lru_cache(maxsize=128)
def _blank(height: int, border: RGB) -> Image.Image:
    g = _Geometry(height)
    image = Image.new("RGBA", (g.width, g.height), (*border, 0))  # no dark fringe when reduced
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, g.width - 1, g.height - 1),
        radius=g.radius,
        fill=PAPER,
        outline=border,
        width=g.border,
    )
    return image


@lru_cache(maxsize=4096)
def card_face(
    card: Card,
    height: int,
    four_colour: bool = False,
    *,
    selected: bool = False,
    dimmed: bool = False,
    new: bool = False,
) -> Image.Image:
    """The face of ``card``, ``height`` pixels tall, RGBA with transparent corners.

    ``selected`` draws a thick blue frame, ``dimmed`` greys the card out (it cannot be
    played now), ``new`` puts an orange dot in the bottom-left corner (just dealt).
    """
    g = _Geometry(height)
    colour = card_colour(card, four_colour)
    image = _blank(height, BORDER).copy()
    draw = ImageDraw.Draw(image)
    _draw_centre(card, g, draw, colour)
    corner = _corner(card, g, colour)
    image.alpha_composite(corner, (g.pad, 0))
    image.alpha_composite(
        corner.rotate(180), (g.width - g.pad - corner.width, g.height - corner.height)
    )
    if new:
        r = round(0.06 * g.height)
        cx, cy = g.pad + g.column / 2, g.height - round(0.1 * g.height)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=NEW, outline=PAPER, width=SCALE)
    if selected:
        width = 3 * SCALE
        draw.rounded_rectangle(
            (0, 0, g.width - 1, g.height - 1), radius=g.radius, outline=SELECTED, width=width
        )
    face = image.reduce(SCALE)
    if dimmed:
        grey = Image.new("RGBA", face.size, (*DIM, 255))
        alpha = face.getchannel("A")
        face = Image.blend(face, grey, 0.55)
        face.putalpha(alpha)
    return face


@lru_cache(maxsize=16)
def card_back(height: int) -> Image.Image:
    """A plain blue back with a white frame (for "cards left" counters)."""
    g = _Geometry(height)
    image = Image.new("RGBA", (g.width, g.height), (*BORDER, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, g.width - 1, g.height - 1),
        radius=g.radius,
        fill=PAPER,
        outline=BORDER,
        width=g.border,
    )
    inset = round(0.08 * g.height)
    draw.rounded_rectangle(
        (inset, inset, g.width - 1 - inset, g.height - 1 - inset),
        radius=g.radius // 2,
        fill=BACK,
    )
    return image.reduce(SCALE)


@lru_cache(maxsize=512)
def card_index(card: Card, height: int, four_colour: bool = False) -> Image.Image:
    """A small card that shows only its index (rank over pip; a star for a joker), for
    lists of cards that must stay readable when the picture is shrunk to a phone's width."""
    s = SCALE
    h, w = height * s, index_width(height) * s
    colour = card_colour(card, four_colour)
    image = Image.new("RGBA", (w, h), (*BORDER, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=round(0.12 * h), fill=PAPER, outline=BORDER, width=s
    )
    if card.suit is None:
        points = star_points(w / 2, h / 2, 0.36 * h)
        if card.rank is Rank.BIG_JOKER:
            draw.polygon(points, fill=colour)
        else:
            draw.polygon(points, outline=colour, width=round(0.06 * h))
        return image.reduce(s)
    label = card.rank.label
    font = bold_font(round(0.5 * h))
    squeeze = font.getlength(label) > 0.9 * w
    if squeeze:  # "10": draw it apart and narrow it to the card
        wide = Image.new("RGBA", (math.ceil(font.getlength(label)) + 4, h), (0, 0, 0, 0))
        ImageDraw.Draw(wide).text((2, 0.04 * h), label, font=font, fill=colour)
        box = wide.getbbox() or (0, 0, 1, 1)
        wide = wide.crop((box[0], 0, box[2], h)).resize(
            (round(0.9 * w), h), Image.Resampling.LANCZOS
        )
        image.alpha_composite(wide, (round(0.05 * w), 0))
    else:
        draw.text((w / 2, 0.04 * h), label, font=font, fill=colour, anchor="mt")
    pip = 0.34 * h
    draw_suit(draw, card.suit, (w / 2 - pip / 2, 0.58 * h, pip), colour)
    return image.reduce(s)


def index_width(height: int) -> int:
    return round(height * 0.68)
