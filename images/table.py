"""The table as a picture: seats around an oval, the current trick, trump, level and points.

Seat 0 sits at the bottom and play goes counter-clockwise (to the right, then up), as
players of 升级 sit. Each seat has a name plate (team colour, cards left, dealer badge,
"to play" or "away"); the cards it played to the current trick lie between its plate and
the middle, the cards currently winning in a gold frame with a star. The header shows the
trump (a pip, ``?`` while it is hidden, or "no trump"), the level and the attackers' points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.cards import Card, Rank, Suit
from engine.order import Colour, TrumpSuit
from images.canvas import (
    ENGLISH,
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    GOLD,
    INK,
    INK_MUTED,
    PLATE,
    TEAM_COLOURS,
    Labels,
    Rendered,
    encode,
    fill,
    plain_text,
    player_text,
)
from images.cards import card_back, card_face, card_width, star_icon, suit_colour, suit_icon
from images.errors import RenderError
from images.fonts import Font, bold_font, text_font

WIDTH = 960
HEIGHT = 660
HEADER = 54
MIN_SEATS = 2
MAX_SEATS = 8
PLATE_SIZE = (188, 64)
_PLATE_RADII = (420, 262)
_CLEARANCE = 16

_BACKGROUND = (14, 44, 30)
_TURN = (255, 214, 0)
_AWAY = (120, 130, 125)
_CHIP = (250, 250, 250)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as everybody sees it. ``team`` picks the plate's colour (None: unknown)."""

    name: str
    cards_left: int
    is_dealer: bool = False
    is_turn: bool = False
    team: int | None = None
    away: bool = False


@dataclass(frozen=True, slots=True)
class TableScene:
    """What the table shows. ``trick`` holds (seat, cards) in play order; ``winner`` is the
    seat whose play currently wins it. ``trump`` is a suit, a colour (red-black), or None
    for no trump; ``trump_hidden`` shows ``?`` instead (changzhu, before the reveal)."""

    seats: Sequence[SeatInfo]
    level: Rank
    trump: TrumpSuit | None = None
    trump_hidden: bool = False
    trick: Sequence[tuple[int, Sequence[Card]]] = ()
    winner: int | None = None
    attacker_points: int = 0
    title: str = ""


@dataclass(frozen=True, slots=True)
class _Geometry:
    card_height: int
    step: int
    max_width: int


def _geometry(seats: int) -> _Geometry:
    if seats <= 4:
        return _Geometry(100, 26, 250)
    if seats <= 6:
        return _Geometry(80, 20, 160)
    return _Geometry(66, 16, 130)


def render_table(
    scene: TableScene, *, four_colour: bool = False, labels: Labels = ENGLISH
) -> Rendered:
    """The table as a PNG with its alt text; :class:`RenderError` if the scene is impossible."""
    _check(scene)
    image = Image.new("RGB", (WIDTH, HEIGHT), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    centre = (WIDTH / 2, HEADER + (HEIGHT - HEADER) / 2)
    draw.ellipse((60, HEADER + 36, WIDTH - 60, HEIGHT - 36), fill=FELT_DARK)
    draw.ellipse((70, HEADER + 46, WIDTH - 70, HEIGHT - 46), fill=FELT)
    _draw_header(image, draw, scene, labels)
    g = _geometry(len(scene.seats))
    angles = [math.radians(90 - 360 * seat / len(scene.seats)) for seat in range(len(scene.seats))]
    plates = [_plate_box(angle, centre) for angle in angles]
    for seat, cards in scene.trick:
        where = _trick_spot(plates[seat], angles[seat], g)
        _draw_play(image, draw, cards, where, g, seat == scene.winner, four_colour)
    for info, box in zip(scene.seats, plates, strict=True):
        _draw_plate(image, draw, info, box, labels)
    return encode(image, _alt_text(scene, labels))


def _check(scene: TableScene) -> None:
    count = len(scene.seats)
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise RenderError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {count}")
    played = [seat for seat, _ in scene.trick]
    if any(not 0 <= seat < count for seat in played):
        raise RenderError(f"a trick names a seat outside 0..{count - 1}: {played}")
    if len(set(played)) != len(played):
        raise RenderError(f"a seat plays twice in one trick: {played}")
    if scene.winner is not None and scene.winner not in played:
        raise RenderError(f"seat {scene.winner} wins a trick it has not played in")
    if any(info.cards_left < 0 for info in scene.seats):
        raise RenderError("a seat has fewer than 0 cards left")


def _plate_box(angle: float, centre: tuple[float, float]) -> tuple[int, int, int, int]:
    """Seat 0 at the bottom (angle 90°), then counter-clockwise as seen from above."""
    w, h = PLATE_SIZE
    x = centre[0] + _PLATE_RADII[0] * math.cos(angle) - w / 2
    y = centre[1] + _PLATE_RADII[1] * math.sin(angle) - h / 2
    x0 = round(min(max(x, 8), WIDTH - 8 - w))
    y0 = round(min(max(y, HEADER + 8), HEIGHT - 8 - h))
    return (x0, y0, x0 + w, y0 + h)


def _trick_spot(
    plate: tuple[int, int, int, int], angle: float, g: _Geometry
) -> tuple[float, float]:
    """The middle of a seat's play: beside its plate for seats on the sides, else above or
    below it, far enough that the widest play clears the plate."""
    px, py = (plate[0] + plate[2]) / 2, (plate[1] + plate[3]) / 2
    if abs(math.cos(angle)) > 0.8:
        shift = (plate[2] - plate[0]) / 2 + _CLEARANCE + g.max_width / 2
        return (px - math.copysign(shift, math.cos(angle)), py)
    shift = (plate[3] - plate[1]) / 2 + _CLEARANCE + g.card_height / 2
    return (px, py - math.copysign(shift, math.sin(angle)))


# -- header ---------------------------------------------------------------------------------


def _draw_header(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, labels: Labels
) -> None:
    draw.rectangle((0, 0, WIDTH, HEADER - 1), fill=PLATE)
    font = text_font(20)
    bold = bold_font(22)
    y = HEADER / 2
    x = 18.0
    if scene.title:
        title = player_text(scene.title, text_font(22), 330)
        draw.text((x, y), title, font=text_font(22), fill=INK, anchor="lm")
        x += font.getlength(title) + 34
    x = _header_item(draw, x, y, labels.trump, font)
    x = _draw_trump(image, draw, (x, y), scene, labels, font) + 30
    x = _header_item(draw, x, y, labels.level, font)
    draw.text((x, y), scene.level.label, font=bold, fill=GOLD, anchor="lm")
    x += bold.getlength(scene.level.label) + 30
    x = _header_item(draw, x, y, labels.points, font)
    draw.text((x, y), str(scene.attacker_points), font=bold, fill=GOLD, anchor="lm")


def _header_item(draw: ImageDraw.ImageDraw, x: float, y: float, label: str, font: Font) -> float:
    text = player_text(label, font, 160)
    draw.text((x, y), text, font=font, fill=INK_MUTED, anchor="lm")
    return x + font.getlength(text) + 8


def _draw_trump(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    scene: TableScene,
    labels: Labels,
    font: Font,
) -> float:
    """The trump chip; returns the x where it ends."""
    x, y = at
    size = 34
    if scene.trump_hidden:
        draw.rounded_rectangle((x, y - size / 2, x + size, y + size / 2), radius=7, fill=_CHIP)
        draw.text((x + size / 2, y), "?", font=bold_font(26), fill=(40, 40, 40), anchor="mm")
        return x + size
    if scene.trump is None:
        text = player_text(labels.no_trump, font, 160)
        draw.text((x, y), text, font=font, fill=GOLD, anchor="lm")
        return x + font.getlength(text)
    suits = _trump_suits(scene.trump)
    width = size + (len(suits) - 1) * 26
    draw.rounded_rectangle((x, y - size / 2, x + width, y + size / 2), radius=7, fill=_CHIP)
    for k, suit in enumerate(suits):
        icon = suit_icon(suit, 26, suit_colour(suit))
        image.paste(icon, (round(x + 4 + 26 * k), round(y - 13)), icon)
    return x + width


def _trump_suits(trump: TrumpSuit) -> tuple[Suit, ...]:
    if isinstance(trump, Colour):
        return (Suit.HEARTS, Suit.DIAMONDS) if trump is Colour.RED else (Suit.SPADES, Suit.CLUBS)
    return (trump,)


# -- seats and plays ------------------------------------------------------------------------


def _draw_plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    info: SeatInfo,
    box: tuple[int, int, int, int],
    labels: Labels,
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if info.is_turn:
        draw.rounded_rectangle((x0 - 4, y0 - 4, x0 + w + 4, y0 + h + 4), radius=14, fill=_TURN)
    draw.rounded_rectangle(box, radius=10, fill=PLATE)
    team = TEAM_COLOURS[info.team % len(TEAM_COLOURS)] if info.team is not None else _AWAY
    draw.rounded_rectangle((x0, y0, x0 + 8, y0 + h), radius=4, fill=team)
    ink = _AWAY if info.away else INK
    font = text_font(19)
    name_left = x0 + 16
    name_right = x0 + w - 8
    if info.is_dealer:
        badge = player_text(labels.dealer_badge, text_font(15), 40)
        bw = max(22, round(text_font(15).getlength(badge)) + 10)
        draw.rounded_rectangle((name_right - bw, y0 + 7, name_right, y0 + 29), radius=11, fill=GOLD)
        draw.text(
            (name_right - bw / 2, y0 + 18), badge, font=text_font(15), fill=PLATE, anchor="mm"
        )
        name_right -= bw + 6
    name = player_text(info.name, font, name_right - name_left)
    draw.text((name_left, y0 + 18), name, font=font, fill=ink, anchor="lm")
    back = card_back(24)
    image.paste(back, (name_left, y0 + 35), back)
    small = text_font(16)
    x = name_left + back.width + 6
    count = str(info.cards_left)
    draw.text((x, y0 + 47), count, font=bold_font(17), fill=ink, anchor="lm")
    x += round(bold_font(17).getlength(count)) + 12
    status = labels.away if info.away else labels.to_play if info.is_turn else ""
    if status:
        text = player_text(status, small, x0 + w - 8 - x)
        colour = _AWAY if info.away else _TURN
        draw.text((x, y0 + 47), text, font=small, fill=colour, anchor="lm")


def _draw_play(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    cards: Sequence[Card],
    centre: tuple[float, float],
    g: _Geometry,
    winning: bool,
    four_colour: bool,
) -> None:
    if not cards:
        return
    cw = card_width(g.card_height)
    step = g.step
    if len(cards) > 1 and (len(cards) - 1) * step + cw > g.max_width:
        step = max(8, (g.max_width - cw) // (len(cards) - 1))
    width = (len(cards) - 1) * step + cw
    x0 = round(centre[0] - width / 2)
    y0 = round(centre[1] - g.card_height / 2)
    if winning:
        pad = 6
        draw.rounded_rectangle(
            (x0 - pad, y0 - pad, x0 + width + pad, y0 + g.card_height + pad),
            radius=10,
            fill=FELT_LIGHT,
            outline=GOLD,
            width=4,
        )
    for k, card in enumerate(cards):
        face = card_face(card, g.card_height, four_colour)
        image.paste(face, (x0 + k * step, y0), face)
    if winning:
        star = star_icon(26, GOLD)
        image.paste(star, (x0 - 17, y0 - 17), star)


# -- text equivalent -------------------------------------------------------------------------


def trump_text(trump: TrumpSuit | None, hidden: bool, labels: Labels) -> str:
    if hidden:
        return f"? ({labels.hidden_trump})"
    if trump is None:
        return labels.no_trump
    if isinstance(trump, Colour):
        return labels.red if trump is Colour.RED else labels.black
    return trump.symbol


def _alt_text(scene: TableScene, labels: Labels) -> str:
    names = [plain_text(info.name) for info in scene.seats]
    parts = []
    if scene.title:
        parts.append(plain_text(scene.title) + ".")
    parts.append(
        f"{labels.trump}: {trump_text(scene.trump, scene.trump_hidden, labels)}, "
        f"{labels.level}: {scene.level.label}, {labels.points}: {scene.attacker_points}."
    )
    seats = []
    for name, info in zip(names, scene.seats, strict=True):
        notes = [fill(labels.cards_left, info.cards_left)]
        if info.is_dealer:
            notes.append(labels.dealer)
        if info.is_turn:
            notes.append(labels.to_play)
        if info.away:
            notes.append(labels.away)
        seats.append(f"{name} ({', '.join(notes)})")
    parts.append("; ".join(seats) + ".")
    if scene.trick:
        plays = [
            f"{names[seat]} {' '.join(card.pretty for card in cards)}"
            for seat, cards in scene.trick
        ]
        line = f"{labels.trick}: " + "; ".join(plays) + "."
        if scene.winner is not None:
            line += f" {labels.winning}: {names[scene.winner]}."
        parts.append(line)
    return " ".join(parts)
