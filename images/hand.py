"""A player's hand as a picture: cards in rows, sorted as a player sorts them, numbered.

Order (RULES.md §1 "Trump order"): with a :class:`TrumpContext`, the engine's display order
(``sort_for_display``: trumps strongest first, then each side suit, ace first); without one
(trump not known yet), jokers, then ♠ ♥ ♣ ♦, each from the ace down. Groups are set apart by
a gap, trumps are underlined in gold, and the number under each card is its 1-based
position in that order, which :func:`render_hand` returns so that the bot can turn
"3 7 12" back into cards.

Marks (``selected``, ``unplayable``, ``new``) are multisets of cards, not positions: with
two or more decks the same card can be held twice, and marking one ♠A marks the first
♠A in display order (identical cards look the same, so which one is marked doesn't matter).
A mark on a card the hand doesn't hold is a :class:`RenderError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from PIL import Image, ImageDraw

from engine.cards import Card, Rank, Suit, card_index, deck
from engine.order import TrumpContext
from images.canvas import (
    ENGLISH,
    FELT,
    GOLD,
    INK,
    NEW,
    SELECTED,
    Labels,
    Rendered,
    encode,
    fill,
)
from images.cards import card_face, card_width
from images.errors import RenderError
from images.fonts import Font, bold_font, draw_plain_text, text_font

CARD_HEIGHT = 120
CARD_WIDTH = card_width(CARD_HEIGHT)
STEP = 40  # the visible strip of an overlapped card
GROUP_GAP = 18
MARGIN = 14
RAISE = 16  # a selected card stands this much higher
NUMBER_AREA = 26  # gold trump bar and the index number under a card
ROW_GAP = 6
MAX_WIDTH = 920
MAX_CARDS = 120

_DIMMED_NUMBER = (110, 140, 120)
_SIDE_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}


@dataclass(frozen=True, slots=True)
class _Slot:
    card: Card
    group: int
    trump: bool
    selected: bool = False
    unplayable: bool = False
    new: bool = False


def render_hand(
    cards: Sequence[Card],
    ctx: TrumpContext | None = None,
    *,
    selected: Iterable[Card] = (),
    unplayable: Iterable[Card] = (),
    new: Iterable[Card] = (),
    four_colour: bool = False,
    labels: Labels = ENGLISH,
) -> tuple[Rendered, list[Card]]:
    """The hand as a PNG with its alt text, and the cards in the order they are numbered.

    ``selected`` cards stand raised in a blue frame, ``unplayable`` ones are greyed out and
    ``new`` ones (just dealt) carry an orange dot; each is a multiset of cards (see the
    module docstring). Up to :data:`MAX_CARDS` cards; more raise :class:`RenderError`.
    """
    if len(cards) > MAX_CARDS:
        raise RenderError(f"a hand of {len(cards)} cards is more than {MAX_CARDS}")
    order = display_order(cards, ctx)
    slots = _mark(order, ctx, selected=selected, unplayable=unplayable, new=new)
    alt_text = _alt_text(slots, ctx, labels)
    if not slots:
        return encode(_draw(slots, four_colour, labels), alt_text, _palette()), order
    return encode(_assemble(slots, four_colour), alt_text), order


# -- order and marks ----------------------------------------------------------------------


def display_order(cards: Sequence[Card], ctx: TrumpContext | None = None) -> list[Card]:
    """The order ``render_hand`` numbers the cards in (1-based index = position + 1)."""
    return ctx.sort_for_display(cards) if ctx is not None else sorted(cards, key=_plain_key)


def _plain_key(card: Card) -> tuple[int, int]:
    if card.suit is None:
        return (-1, -int(card.rank))
    return (_SIDE_SUIT_ORDER[card.suit], -int(card.rank))


def _mark(
    order: list[Card],
    ctx: TrumpContext | None,
    *,
    selected: Iterable[Card],
    unplayable: Iterable[Card],
    new: Iterable[Card],
) -> list[_Slot]:
    wanted = {"selected": Counter(selected), "unplayable": Counter(unplayable), "new": Counter(new)}
    slots = []
    for card in order:
        flags = {}
        for name, counter in wanted.items():
            flags[name] = counter[card] > 0
            if flags[name]:
                counter[card] -= 1
        if ctx is not None:
            group, trump = ctx.display_group(card), ctx.is_trump(card)
        else:
            group, trump = _plain_key(card)[0], False
        slots.append(_Slot(card, group, trump, **flags))
    for name, counter in wanted.items():
        extra = sorted((card for card, count in counter.items() if count > 0),
                       key=card_index)
        if extra:
            shown = " ".join(card.pretty for card in extra)
            raise RenderError(f"{name} cards not in the hand: {shown}")
    return slots


# -- layout ---------------------------------------------------------------------------------


def _break_rows(groups: Sequence[int], limit: int) -> list[list[int]]:
    """Positions per row, filling each row up to ``limit`` pixels of cards."""
    rows: list[list[int]] = [[0]] if groups else []
    x = 0
    for i in range(1, len(groups)):
        nx = x + STEP + (GROUP_GAP if groups[i] != groups[i - 1] else 0)
        if nx + CARD_WIDTH > limit:
            rows.append([i])
            x = 0
        else:
            rows[-1].append(i)
            x = nx
    return rows


def _layout(groups: Sequence[int]) -> list[list[int]]:
    """As few rows as fit in :data:`MAX_WIDTH`, then as evenly filled as they can be."""
    limit = MAX_WIDTH - 2 * MARGIN
    count = len(_break_rows(groups, limit))
    low, high = CARD_WIDTH, limit
    while low < high:  # the narrowest limit that still needs no more rows
        middle = (low + high) // 2
        if len(_break_rows(groups, middle)) <= count:
            high = middle
        else:
            low = middle + 1
    return _break_rows(groups, low)


def _row_offsets(row: Sequence[int], groups: Sequence[int]) -> list[int]:
    xs = [0]
    for a, b in pairwise(row):
        xs.append(xs[-1] + STEP + (GROUP_GAP if groups[a] != groups[b] else 0))
    return xs


# -- drawing -------------------------------------------------------------------------------


def _draw(slots: list[_Slot], four_colour: bool, labels: Labels) -> Image.Image:
    row_height = RAISE + CARD_HEIGHT + NUMBER_AREA
    if not slots:
        font = text_font(20)
        width = max(CARD_WIDTH, round(font.getlength(labels.no_cards))) + 2 * MARGIN + 20
        image = Image.new("RGB", (width, row_height + 2 * MARGIN), FELT)
        ImageDraw.Draw(image).text(
            (width / 2, image.height / 2), labels.no_cards, font=font, fill=INK, anchor="mm"
        )
        return image
    groups = [slot.group for slot in slots]
    rows = _layout(groups)
    offsets = [_row_offsets(row, groups) for row in rows]
    width = max(xs[-1] for xs in offsets) + CARD_WIDTH + 2 * MARGIN
    height = len(rows) * row_height + (len(rows) - 1) * ROW_GAP + 2 * MARGIN
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    number_font = bold_font(17)
    for r, (row, xs) in enumerate(zip(rows, offsets, strict=True)):
        top = MARGIN + r * (row_height + ROW_GAP)
        card_top = top + RAISE
        bar_y = card_top + CARD_HEIGHT + 3
        for i, x in zip(row, xs, strict=True):
            slot = slots[i]
            face = _face((slot.card, slot.selected, slot.unplayable, slot.new), four_colour)
            image.paste(face, (MARGIN + x, card_top - (RAISE if slot.selected else 0)), face)
        for k, (i, x) in enumerate(zip(row, xs, strict=True)):
            slot = slots[i]
            if slot.trump:
                if k + 1 == len(row):
                    end = x + CARD_WIDTH
                elif slots[row[k + 1]].trump:
                    end = xs[k + 1]
                else:
                    end = x + STEP
                draw.rectangle((MARGIN + x, bar_y, MARGIN + end - 1, bar_y + 2), fill=GOLD)
            _draw_number(image, draw, (MARGIN + x + STEP // 2, bar_y + 12), i + 1, slot,
                         number_font)
    return image


# -- the picture from cached columns ----------------------------------------------------------
#
# Each card's column (from its left edge to the next card's) is pasted from two parts drawn
# once and cached already quantized: the cards that show in it (the card, and the one or
# two before it that reach under it) and, below, its trump bar and number. Their keys are
# all that they show, so a part cannot go stale; tests check that the result is the
# picture :func:`_draw` makes in one piece.

_Face = tuple[Card, bool, bool, bool]  # card, selected, unplayable, new


def _assemble(slots: list[_Slot], four_colour: bool) -> Image.Image:
    """:func:`_draw`'s picture, quantized, from cached columns (the same pixels)."""
    row_height = RAISE + CARD_HEIGHT + NUMBER_AREA
    groups = [slot.group for slot in slots]
    rows = _layout(groups)
    offsets = [_row_offsets(row, groups) for row in rows]
    width = max(xs[-1] for xs in offsets) + CARD_WIDTH + 2 * MARGIN
    height = len(rows) * row_height + (len(rows) - 1) * ROW_GAP + 2 * MARGIN
    image = Image.new("P", (width, height), _felt_index())
    image.putpalette(_palette().getpalette() or [])
    faces: list[_Face] = [(s.card, s.selected, s.unplayable, s.new) for s in slots]
    for r, (row, xs) in enumerate(zip(rows, offsets, strict=True)):
        top = MARGIN + r * (row_height + ROW_GAP)
        for k, (i, x) in enumerate(zip(row, xs, strict=True)):
            last = k + 1 == len(row)
            column = CARD_WIDTH if last else xs[k + 1] - x
            under = tuple((xs[j] - x, faces[row[j]]) for j in range(max(0, k - 2), k)
                          if xs[j] + CARD_WIDTH > x)
            image.paste(_cards_tile(under, faces[i], column, four_colour), (MARGIN + x, top))
            slot = slots[i]
            bar = None
            if slot.trump:
                bar = column if last or slots[row[k + 1]].trump else STEP
            style = "selected" if slot.selected else "new" if slot.new else (
                "unplayable" if slot.unplayable else "")
            image.paste(_number_tile(i + 1, style, bar, column),
                        (MARGIN + x, top + RAISE + CARD_HEIGHT))
    return image


@lru_cache(maxsize=1)
def _felt_index() -> int:
    index = Image.new("RGB", (1, 1), FELT).quantize(palette=_palette(),
                                                   dither=Image.Dither.NONE).getpixel((0, 0))
    assert isinstance(index, int)
    return index


def _face(face: _Face, four_colour: bool) -> Image.Image:
    card, selected, unplayable, new = face
    return card_face(card, CARD_HEIGHT, four_colour, selected=selected, dimmed=unplayable,
                     new=new)


@lru_cache(maxsize=2048)
def _cards_tile(under: tuple[tuple[int, _Face], ...], face: _Face, width: int,
                four_colour: bool) -> Image.Image:
    """A card's column down to the cards' bottom: the cards before it that reach under it
    (at their offsets), then the card, as on the felt."""
    tile = Image.new("RGB", (width, RAISE + CARD_HEIGHT), FELT)
    for dx, other in (*under, (0, face)):
        image = _face(other, four_colour)
        tile.paste(image, (dx, 0 if other[1] else RAISE), image)
    return tile.quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1024)
def _number_tile(number: int, style: str, bar: int | None, width: int) -> Image.Image:
    """A card's column under the cards: its trump bar (``bar`` pixels long) and number."""
    tile = Image.new("RGB", (width, NUMBER_AREA), FELT)
    draw = ImageDraw.Draw(tile)
    if bar is not None:
        draw.rectangle((0, 3, bar - 1, 5), fill=GOLD)
    slot = _Slot(Card(Rank.ACE, Suit.SPADES), 0, False, selected=style == "selected",
                 unplayable=style == "unplayable", new=style == "new")
    _draw_number(tile, draw, (STEP // 2, 15), number, slot, bold_font(17))
    return tile.quantize(palette=_palette(), dither=Image.Dither.NONE)


def _draw_number(
    image: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[int, int], number: int,
    slot: _Slot, font: Font,
) -> None:
    text = str(number)
    if slot.selected:
        half = font.getlength(text) / 2 + 5
        cx, cy = centre
        draw.rounded_rectangle((cx - half, cy - 10, cx + half, cy + 10), radius=8, fill=SELECTED)
        colour = INK
    elif slot.new:
        colour = NEW
    elif slot.unplayable:
        colour = _DIMMED_NUMBER
    else:
        colour = INK
    draw_plain_text(image, centre, text, font, colour)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The 256 colours of every hand picture, from every card face with every mark, in two
    and four colours, trumps underlined: an 8-bit PNG encodes about three times faster than
    an RGB one, and is half the size (no colour moves by more than a few steps)."""
    cards = deck(1)
    ctx = TrumpContext(Rank.FIVE, Suit.HEARTS)
    samples = []
    for four_colour in (False, True):
        order = display_order(cards, ctx)
        for k in range(3):  # each card selected, then unplayable, then new, once
            slots = _mark(order, ctx, selected=order[k::3], unplayable=order[(k + 1) % 3::3],
                          new=order[(k + 2) % 3::3])
            samples.append(_draw(slots, four_colour, ENGLISH))
    sample = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    top = 0
    for image in samples:
        sample.paste(image, (0, top))
        top += image.height
    return sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


# -- text equivalent ---------------------------------------------------------------------------


def _group_label(card: Card, ctx: TrumpContext | None, labels: Labels) -> str:
    if ctx is None:
        return labels.jokers if card.suit is None else card.suit.symbol
    if ctx.is_trump(card):
        return labels.trumps
    side = ctx.suits.side_suits[ctx.effective_suit(card)]
    if isinstance(side, Suit):
        return side.symbol
    return labels.red if side.value == "red" else labels.black


def describe_cards(cards: Sequence[Card]) -> str:
    """``♠A ♠K`` style; ranks only (``A K``) when every card is of one printed suit."""
    suits = {card.suit for card in cards}
    if len(suits) == 1 and None not in suits:
        return " ".join(card.rank.label for card in cards)
    return " ".join(card.pretty for card in cards)


def _alt_text(slots: list[_Slot], ctx: TrumpContext | None, labels: Labels) -> str:
    if not slots:
        return fill(labels.hand, 0) + ". " + labels.no_cards
    parts: list[str] = []
    start = 0
    for end in range(1, len(slots) + 1):
        if end == len(slots) or slots[end].group != slots[start].group:
            group = [slot.card for slot in slots[start:end]]
            parts.append(f"{_group_label(group[0], ctx, labels)}: {describe_cards(group)}")
            start = end
    text = fill(labels.hand, len(slots)) + ". " + "; ".join(parts) + "."
    for name, flag in (
        (labels.selected, "selected"),
        (labels.new, "new"),
        (labels.unplayable, "unplayable"),
    ):
        marked = [f"{i + 1} {s.card.pretty}" for i, s in enumerate(slots) if getattr(s, flag)]
        if marked:
            text += f" {name}: " + ", ".join(marked) + "."
    return text
