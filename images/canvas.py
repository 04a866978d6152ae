"""What every picture shares: the result type, the words, colours, alt text and PNG output."""

from __future__ import annotations

import enum
import io
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from images.fonts import Font, clean_text, fit_text

#: Discord's limit on an attachment's description.
ALT_TEXT_LIMIT = 1024

RGB = tuple[int, int, int]

FELT: RGB = (28, 92, 60)
FELT_DARK: RGB = (20, 70, 45)
FELT_LIGHT: RGB = (38, 112, 74)
INK: RGB = (240, 244, 240)
INK_MUTED: RGB = (150, 180, 160)
PLATE: RGB = (16, 48, 32)
SELECTED: RGB = (40, 130, 255)
NEW: RGB = (255, 140, 0)
GOLD: RGB = (255, 196, 30)
TEAM_COLOURS: tuple[RGB, ...] = ((80, 160, 255), (255, 120, 90), (190, 130, 255), (90, 220, 160))
#: Without fixed teams a seat's colour tells its side this hand, once everybody knows it.
DEFENDING_COLOUR: RGB = (80, 160, 255)
ATTACKING_COLOUR: RGB = (255, 150, 110)
UNKNOWN_COLOUR: RGB = (120, 130, 125)


class Side(enum.Enum):
    """A seat's side this hand, once everybody knows it (no fixed teams)."""

    DEFENDING = "defending"
    ATTACKING = "attacking"


def side_colour(side: Side | None) -> RGB:
    if side is Side.DEFENDING:
        return DEFENDING_COLOUR
    if side is Side.ATTACKING:
        return ATTACKING_COLOUR
    return UNKNOWN_COLOUR


@dataclass(frozen=True, slots=True)
class Rendered:
    """A PNG and its text equivalent (message text and attachment description)."""

    png: bytes
    alt_text: str
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class Labels:
    """Every word the pictures and their alt texts use, English by default.

    The bot fills one from its text catalogue (``bot/text``) for other languages. ``{n}``
    stands for a number.
    """

    hand: str = "Hand ({n} cards)"
    trumps: str = "Trumps"
    jokers: str = "Jokers"
    red: str = "red"
    black: str = "black"
    selected: str = "Selected"
    new: str = "New"
    unplayable: str = "Can't play now"
    no_cards: str = "no cards"
    trump: str = "Trump"
    no_trump: str = "no trump"
    hidden_trump: str = "hidden"
    level: str = "Level"
    dealer: str = "Dealer"
    dealer_badge: str = "D"
    points: str = "Attackers' points"
    cards_left: str = "{n} cards"
    one_card_left: str = "{n} card"
    to_play: str = "to play"
    winning: str = "winning"
    away: str = "away"
    trick: str = "Trick"
    kitty: str = "Kitty"
    kitty_points: str = "{n} points"
    multiplier: str = "×{n}"
    levels: str = "Levels"
    next_dealer: str = "Next dealer"
    hand_number: str = "Hand {n}"
    to_deal: str = "{n} to deal"
    declared: str = "Declared"
    no_declaration: str = "No declaration yet"
    team: str = "Team"
    defending: str = "defending"
    attacking: str = "attacking"
    point_cards: str = "point cards"
    last_trick: str = "Last trick"
    won_by: str = "won by"
    seat_level: str = "Lv {n}"  # a seat's own level on its plate ({n}: the rank)
    friend: str = "Friend"
    friend_badge: str = "F"
    calls: str = "Calls"
    no_calls: str = "No friend called yet"
    friend_unknown: str = "friend unknown"
    no_new_friend: str = "no new friend"
    first_copy: str = "1st"
    second_copy: str = "2nd"
    third_copy: str = "3rd"
    nth_copy: str = "{n}th"
    bid: str = "Bid"
    lowest_bid: str = "Lowest bid"
    no_bid: str = "No bid yet"
    seat_bid: str = "bid {n}"
    passed: str = "pass"
    next_declarers: str = "Declare next"
    separator: str = ", "  # between the items of a list (the reasons of a level change)

    def copy(self, n: int) -> str:
        """Which copy of a called card: ``1st``, ``2nd``…"""
        named = (self.first_copy, self.second_copy, self.third_copy)
        return named[n - 1] if 1 <= n <= len(named) else fill(self.nth_copy, n)


ENGLISH = Labels()


def fill(template: str, n: int | str) -> str:
    """A label with its ``{n}`` replaced (other braces are left alone)."""
    return template.replace("{n}", str(n))


def plain_text(text: str) -> str:
    """Player text for alt text: one line, no control characters (emoji are kept)."""
    return "".join(
        " " if c in "\n\r\t" else c
        for c in text
        if unicodedata.category(c) != "Cc" or c in "\n\r\t"
    ).strip()


def limit_alt_text(text: str) -> str:
    """At most :data:`ALT_TEXT_LIMIT` characters, cut with ``…``."""
    if len(text) <= ALT_TEXT_LIMIT:
        return text
    return text[: ALT_TEXT_LIMIT - 1].rstrip() + "…"


def encode(image: Image.Image, alt_text: str, palette: Image.Image | None = None) -> Rendered:
    """PNG bytes, the same for the same image (no metadata, fixed settings).

    With a ``palette`` (a "P" image), each pixel takes its nearest palette colour first: an
    8-bit PNG is encoded about ten times faster than an RGB one, and is smaller. zlib's
    fastest level: encoding is half of a warm picture's time, and level 1 is about 10%
    faster than 3 for files about 8% larger (a table 32 KB instead of 29); no ``optimize``.
    """
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)
    return Rendered(buffer.getvalue(), limit_alt_text(alt_text), image.width, image.height)


@lru_cache(maxsize=4096)
def player_text(text: str, font: Font, max_width: int) -> str:
    """A name or other player-supplied text, cleaned and fitted to ``max_width`` pixels."""
    return fit_text(clean_text(text), font, max_width)
