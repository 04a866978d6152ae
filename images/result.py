"""The end of a hand as a picture: the kitty turned up, points, level changes, next dealer.

The numbers and sentences come from the engine's scoring (RULES.md §2, §5, §6,
``HandResult``): this module only lays them out. With fixed teams a level change is one
row per team; with levels by player (find-friends, three-bid) one row per seat, in its
side's colour, with the reasons of its change in words. The explanation ``lines`` are
shown as given, wrapped to the picture's width.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.cards import Card, points
from images.canvas import (
    ENGLISH,
    FELT,
    GOLD,
    INK,
    INK_MUTED,
    PLATE,
    Labels,
    Rendered,
    Side,
    encode,
    fill,
    plain_text,
    player_text,
    side_colour,
)
from images.cards import card_face, card_width
from images.fonts import bold_font, clean_text, draw_text, emphasis_font, text_font, wrap_text

WIDTH = 760
MARGIN = 24
KITTY_HEIGHT = 100
KITTY_STEP = 34
LINE_HEIGHT = 26


class LevelChange(NamedTuple):
    """A team's or a player's (``who``) level before and after the hand, as the player
    reads them ("5", "A"); for a player, the ``reasons`` of the change in words, the
    ``side`` it played on and whether it dealt."""

    who: str
    old: str
    new: str
    reasons: tuple[str, ...] = ()
    side: Side | None = None
    is_dealer: bool = False


@dataclass(frozen=True, slots=True)
class ResultScene:
    """What the result shows. ``lines`` are the engine's explanation, already in words."""

    kitty: Sequence[Card]
    multiplier: int
    attacker_points: int
    level_changes: Sequence[LevelChange] = ()
    next_dealer: str = ""
    lines: Sequence[str] = ()
    title: str = ""
    bid: int | None = None  # three-bid: the threshold the attackers played for
    next_declarers: Sequence[str] = ()  # find-friends: who may declare the next deal


def render_result(
    scene: ResultScene, *, four_colour: bool = False, labels: Labels = ENGLISH
) -> Rendered:
    """The hand's result as a PNG with its alt text."""
    body = text_font(19)
    small = text_font(17)
    inner = WIDTH - 2 * MARGIN
    wrapped = [line for text in scene.lines for line in wrap_text(clean_text(text), small, inner)]
    reasons = [wrap_text(clean_text(labels.separator.join(c.reasons)), small,
                         WIDTH - MARGIN - REASONS_X) if c.reasons else []
               for c in scene.level_changes]
    rows = [max(30, 8 + LINE_HEIGHT * len(lines)) for lines in reasons]
    height = (
        MARGIN
        + (40 if scene.title else 0)
        + KITTY_HEIGHT
        + 16
        + 44
        + (34 + sum(rows) if scene.level_changes else 0)
        + (34 if scene.next_dealer else 0)
        + (34 if scene.next_declarers else 0)
        + (10 + LINE_HEIGHT * len(wrapped) if wrapped else 0)
        + MARGIN
    )
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    if scene.title:
        title = player_text(scene.title, text_font(24), inner)
        draw_text(image, (MARGIN, y + 14), title, text_font(24), INK, "lm")
        y += 40
    y = _draw_kitty(image, draw, scene, y, four_colour, labels)
    label = player_text(labels.points, body, inner // 2)
    draw_text(image, (MARGIN, y + 18), label, body, INK_MUTED, "lm")
    draw.text(
        (MARGIN + body.getlength(label) + 12, y + 18),
        str(scene.attacker_points),
        font=bold_font(30),
        fill=GOLD,
        anchor="lm",
    )
    if scene.bid is not None:
        x = MARGIN + body.getlength(label) + 12 + bold_font(30).getlength(
            str(scene.attacker_points)) + 24
        bid = player_text(labels.bid, body, 160)
        x = draw_text(image, (x, y + 18), bid, body, INK_MUTED, "lm") + 10
        draw_text(image, (x, y + 18), str(scene.bid), bold_font(30), INK, "lm")
    y += 44
    if scene.level_changes:
        levels = player_text(labels.levels, body, inner)
        draw_text(image, (MARGIN, y + 16), levels, body, INK_MUTED, "lm")
        y += 34
        for change, lines, row in zip(scene.level_changes, reasons, rows, strict=True):
            _draw_level_change(image, draw, y, change, lines, labels)
            y += row
    if scene.next_dealer:
        label = player_text(labels.next_dealer, body, inner // 2)
        draw_text(image, (MARGIN, y + 16), label, body, INK_MUTED, "lm")
        x = MARGIN + body.getlength(label) + 12
        name = player_text(scene.next_dealer, body, round(WIDTH - MARGIN - x))
        draw_text(image, (x, y + 16), name, body, INK, "lm")
        y += 34
    if scene.next_declarers:
        label = player_text(labels.next_declarers, body, inner // 2)
        draw_text(image, (MARGIN, y + 16), label, body, INK_MUTED, "lm")
        x = MARGIN + body.getlength(label) + 12
        names = player_text(", ".join(scene.next_declarers), body, round(WIDTH - MARGIN - x))
        draw_text(image, (x, y + 16), names, body, INK, "lm")
        y += 34
    if wrapped:
        y += 10
        draw.line((MARGIN, y - 4, WIDTH - MARGIN, y - 4), fill=PLATE, width=2)
        for line in wrapped:
            draw_text(image, (MARGIN, y + LINE_HEIGHT / 2), line, small, INK, "lm")
            y += LINE_HEIGHT
    return encode(image, _alt_text(scene, labels))


def _draw_kitty(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    scene: ResultScene,
    y: int,
    four_colour: bool,
    labels: Labels,
) -> int:
    body = text_font(19)
    label = player_text(labels.kitty, body, 120)
    draw_text(image, (MARGIN, y + KITTY_HEIGHT / 2), label, body, INK_MUTED, "lm")
    x = MARGIN + max(90, round(body.getlength(label)) + 14)
    step = KITTY_STEP
    cards = list(scene.kitty)
    room = WIDTH - MARGIN - 190 - x
    if len(cards) > 1 and (len(cards) - 1) * step + card_width(KITTY_HEIGHT) > room:
        step = max(6, (room - card_width(KITTY_HEIGHT)) // (len(cards) - 1))
    for k, card in enumerate(cards):
        face = card_face(card, KITTY_HEIGHT, four_colour)
        image.paste(face, (x + k * step, y), face)
    if cards:
        x += (len(cards) - 1) * step + card_width(KITTY_HEIGHT) + 18
    summary = fill(labels.kitty_points, points(cards))
    draw_text(image, (x, y + KITTY_HEIGHT / 2 - 14), summary, body, INK, "lm")
    multiplier = fill(labels.multiplier, scene.multiplier)
    draw_text(image, (x, y + KITTY_HEIGHT / 2 + 16), multiplier, bold_font(24), GOLD, "lm")
    return y + KITTY_HEIGHT + 16


REASONS_X = MARGIN + 470


def _draw_level_change(image: Image.Image, draw: ImageDraw.ImageDraw, y: int,
                       change: LevelChange, reasons: Sequence[str], labels: Labels) -> None:
    body = text_font(19)
    old, new = change.old, change.new
    if change.side is not None:
        draw.rounded_rectangle((MARGIN, y + 3, MARGIN + 8, y + 25), radius=4,
                               fill=side_colour(change.side))
    badge_font = emphasis_font(labels.dealer_badge, 16)
    badge = player_text(labels.dealer_badge, badge_font, 40)
    bw = max(24, round(badge_font.getlength(badge)) + 10) if change.is_dealer else -6
    name = player_text(change.who, body, MARGIN + 310 - bw - 6 - MARGIN - 16)
    x = draw_text(image, (MARGIN + 16, y + 14), name, body, INK, "lm") + 8
    if change.is_dealer:
        draw.rounded_rectangle((x, y + 3, x + bw, y + 25), radius=11, fill=GOLD)
        draw_text(image, (x + bw / 2, y + 14), badge, badge_font, PLATE, "mm")
    small = text_font(17)
    for k, line in enumerate(reasons):
        draw_text(image, (REASONS_X, y + 14 + k * LINE_HEIGHT), line, small, INK_MUTED, "lm")
    x = MARGIN + 340
    old_font, new_font = emphasis_font(old, 22), emphasis_font(new, 22)
    old_text, new_text = player_text(old, old_font, 120), player_text(new, new_font, 120)
    draw_text(image, (x, y + 14), old_text, old_font, INK, "lm")
    x += old_font.getlength(old_text) + 12
    draw_text(image, (x, y + 14), "→", body, INK_MUTED, "lm")
    x += body.getlength("→") + 12
    colour = GOLD if new != old else INK
    draw_text(image, (x, y + 14), new_text, new_font, colour, "lm")


def _alt_text(scene: ResultScene, labels: Labels) -> str:
    parts = []
    if scene.title:
        parts.append(plain_text(scene.title) + ".")
    kitty = " ".join(card.pretty for card in scene.kitty) or "-"
    parts.append(
        f"{labels.kitty}: {kitty} ({fill(labels.kitty_points, points(scene.kitty))}, "
        f"{fill(labels.multiplier, scene.multiplier)})."
    )
    total = f"{labels.points}: {scene.attacker_points}"
    if scene.bid is not None:
        total += f" ({labels.bid}: {scene.bid})"
    parts.append(total + ".")
    if scene.level_changes:
        parts.append(f"{labels.levels}: " + "; ".join(
            _change_text(change, labels) for change in scene.level_changes) + ".")
    if scene.next_dealer:
        parts.append(f"{labels.next_dealer}: {plain_text(scene.next_dealer)}.")
    if scene.next_declarers:
        names = ", ".join(plain_text(name) for name in scene.next_declarers)
        parts.append(f"{labels.next_declarers}: {names}.")
    parts.extend(plain_text(line) for line in scene.lines)
    return " ".join(parts)


def _change_text(change: LevelChange, labels: Labels) -> str:
    """``1. Zoë (Dealer, defending) 5 → 8 (defended)``."""
    roles = [labels.dealer] if change.is_dealer else []
    if change.side is not None:
        roles.append(labels.defending if change.side is Side.DEFENDING else labels.attacking)
    who = plain_text(change.who) + (f" ({', '.join(roles)})" if roles else "")
    text = f"{who} {plain_text(change.old)} → {plain_text(change.new)}"
    reasons = labels.separator.join(plain_text(reason) for reason in change.reasons)
    return text + (f" ({reasons})" if reasons else "")
