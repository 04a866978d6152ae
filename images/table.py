"""The table as a picture that tells the game at a glance, and reads on a phone.

From the top: the trump (a chip with its pip and the level rank, ``?`` while it is hidden,
or the rank alone for no trump), the hand number and the cards left to deal; each team's
level and whether it defends or attacks; the attackers' points and the point cards they
won (while dealing: the standing declaration instead). Below, the seats around an oval:
seat 0 sits at the bottom and play goes counter-clockwise (to the right, then up), as
players of 升级 sit. Each seat has a name plate (team colour, cards left, dealer badge,
"to play" or "away"); the cards it played to the current trick lie between its plate and
the middle, the cards currently winning in a gold frame with a star. At the bottom, the
previous trick, its winner framed.

The picture is drawn for Discord's phone view, where it is shown about 380 pixels wide
(0.475 of :data:`WIDTH`): no text is smaller than 20 px here (under 10 px there), card
ranks are 22 px on the trick at four seats (18 at six) and 30 px on the previous trick.
The felt, panels, card faces and words are cached and the PNG is 8-bit on a fixed
palette, so a warm render is mostly pasting and encoding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import Card, Rank, Suit, parse_cards
from engine.order import Colour, TrumpSuit
from images.canvas import (
    DEFENDING_COLOUR,
    ENGLISH,
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    GOLD,
    INK,
    INK_MUTED,
    PLATE,
    RGB,
    TEAM_COLOURS,
    Labels,
    Rendered,
    Side,
    encode,
    fill,
    plain_text,
    player_text,
    side_colour,
)
from images.cards import (
    card_back,
    card_colour,
    card_face,
    card_index,
    card_width,
    index_width,
    star_icon,
    suit_colour,
    suit_icon,
)
from images.errors import RenderError
from images.fonts import Font, bold_font, draw_text, emphasis_font, text_font, text_width

WIDTH = 800
ROW = 56  # one line of the header
TRUMP_ROW = 68
HEADER = TRUMP_ROW + 2 * ROW
STRIP = 96  # the previous trick
MIN_SEATS = 2
MAX_SEATS = 8
PLATE_SIZE = (216, 80)
MARGIN = 18
_CLEARANCE = 14
_INDEX_HEIGHT = 60  # the cards of the previous trick and of a declaration

_BACKGROUND: RGB = (14, 44, 30)
_PANEL: RGB = (22, 60, 40)
_TURN: RGB = (255, 214, 0)
_AWAY: RGB = (120, 130, 125)
_CHIP: RGB = (250, 250, 250)
_CHIP_INK: RGB = (40, 40, 40)
_ATTACK: RGB = (255, 150, 110)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as everybody sees it. ``team`` (fixed teams) picks the plate's colour;
    without fixed teams ``side`` does (None: not known to everybody yet, neutral).
    ``level``: the seat's own level where levels are per player (shown on its plate);
    ``is_friend``: a called friend, found by play. While bidding (three-bid), ``bid`` is
    the seat's last bid and ``passed`` whether it passed."""

    name: str
    cards_left: int
    is_dealer: bool = False
    is_turn: bool = False
    team: int | None = None
    away: bool = False
    level: Rank | None = None
    side: Side | None = None
    is_friend: bool = False
    bid: int | None = None
    passed: bool = False


@dataclass(frozen=True, slots=True)
class CallInfo:
    """find-friends: a called card, "the ``copy``-th ``card`` played"; ``by``: the seat
    that played that copy (public from that moment), None while nobody has."""

    card: Card
    copy: int
    by: int | None = None


@dataclass(frozen=True, slots=True)
class BidInfo:
    """three-bid: the bid (``points`` None: nobody has bid yet) and its ``seat``;
    ``standing``: the bidding goes on (the lowest bid so far), else the hand's bid."""

    points: int | None
    seat: int | None = None
    standing: bool = False


@dataclass(frozen=True, slots=True)
class DeclarationInfo:
    """The standing declaration while the cards are dealt: who, and the cards everybody
    saw (none: a hidden declaration, shown as ``?``)."""

    seat: int
    cards: Sequence[Card] = ()


Play = tuple[int, Sequence[Card]]


@dataclass(frozen=True, slots=True)
class TableScene:
    """What the table shows.

    ``trick`` holds (seat, cards) in play order; ``winner`` is the seat whose play
    currently wins it; ``previous_trick`` and ``previous_winner`` the same for the trick
    before. ``trump`` is a suit, a colour (red-black), or None for no trump;
    ``trump_hidden`` shows ``?`` instead (changzhu before the reveal, or nothing declared
    yet). ``level`` is this hand's level rank; ``levels`` each team's level, by the
    team numbers of :class:`SeatInfo`, and ``defenders`` the team that defends (the others
    attack). ``point_cards`` are the point cards the attackers won. ``hand_number`` 0 is
    not shown. While ``dealing``, ``cards_to_deal`` and ``declaration`` are shown.
    Without team levels (levels by player: each seat's is on its plate) the teams' row
    shows the called friends (``calls``; ``calls_pending``: the dealer is still to call)
    or the bid (``bid``); ``level`` is None while the hand has none yet (three-bid's
    bidding). ``bottom`` is the seat drawn at the bottom (a viewer's own), the others
    counter-clockwise from it.
    """

    seats: Sequence[SeatInfo]
    level: Rank | None
    trump: TrumpSuit | None = None
    trump_hidden: bool = False
    trick: Sequence[Play] = ()
    winner: int | None = None
    attacker_points: int = 0
    title: str = ""
    levels: Sequence[Rank] = ()
    defenders: int | None = None
    point_cards: Sequence[Card] = ()
    previous_trick: Sequence[Play] = ()
    previous_winner: int | None = None
    hand_number: int = 0
    dealing: bool = False
    cards_to_deal: int = 0
    declaration: DeclarationInfo | None = None
    calls: Sequence[CallInfo] = ()
    calls_pending: bool = False
    bid: BidInfo | None = None
    bottom: int = 0


Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class _Spot:
    """Where a seat's play lies: between ``left`` and ``right``, against the ``align`` side
    (``l``, ``r``) or centred (``m``), its cards centred on ``y``."""

    left: float
    right: float
    y: float
    align: str


@dataclass(frozen=True, slots=True)
class _Layout:
    """The seats' area: its height, each seat's plate and play spot, the cards' size."""

    height: int
    plates: tuple[Box, ...]
    spots: tuple[_Spot, ...]
    card_height: int
    step: int


def _card_size(count: int) -> tuple[int, int]:
    """Card height and overlap step of the trick's cards."""
    if count <= 4:
        return 112, 28
    if count <= 6:
        return 92, 24
    return 80, 20


@lru_cache(maxsize=MAX_SEATS)
def _layout(count: int) -> _Layout:
    """Seat 0 at the bottom, then counter-clockwise as seen from above: up the right side,
    across the top (seat ``count / 2`` in the middle when the count is even), down the
    left. The top and bottom seats play above or below their plates, the side seats beside
    them towards the middle, one band of the picture each, so no two plays can overlap."""
    card_height, step = _card_size(count)
    w, h = PLATE_SIZE
    rows = (count - 1) // 2  # side seats on each side
    has_top = count % 2 == 0
    end_band = h + _CLEARANCE + card_height + 10  # a plate and its play, top or bottom
    side_band = max(h, card_height) + 12
    height = 2 * 8 + end_band * (2 if has_top else 1) + rows * side_band
    if not has_top:
        height += 20
    top = HEADER
    plates: dict[int, Box] = {}
    spots: dict[int, _Spot] = {}
    cx = WIDTH / 2
    # bottom seat
    y1 = top + height - 8
    plates[0] = (round(cx - w / 2), y1 - h, round(cx + w / 2), y1)
    spots[0] = _Spot(cx - 250, cx + 250, y1 - h - _CLEARANCE - card_height / 2, "m")
    first_row = top + 8 + (end_band if has_top else 20)
    right = list(range(1, rows + 1))  # from the bottom up
    left = list(range(count - 1, count - 1 - rows, -1))  # from the bottom up, too
    for row in range(rows):
        y = first_row + (rows - 1 - row) * side_band + side_band / 2
        for seat, on_left in ((right[row], False), (left[row], True)):
            x0 = 8 if on_left else WIDTH - 8 - w
            plates[seat] = (x0, round(y - h / 2), x0 + w, round(y + h / 2))
            if on_left:
                spots[seat] = _Spot(x0 + w + _CLEARANCE, cx - 5, y, "l")
            else:
                spots[seat] = _Spot(cx + 5, x0 - _CLEARANCE, y, "r")
    if has_top:
        seat = count // 2
        y0 = top + 8
        plates[seat] = (round(cx - w / 2), y0, round(cx + w / 2), y0 + h)
        spots[seat] = _Spot(cx - 250, cx + 250, y0 + h + _CLEARANCE + card_height / 2, "m")
    seats = range(count)
    return _Layout(height, tuple(plates[s] for s in seats), tuple(spots[s] for s in seats),
                   card_height, step)


def picture_size(seats: int) -> tuple[int, int]:
    """The table picture's width and height: the same all match for one seat count."""
    return WIDTH, HEADER + _layout(seats).height + STRIP


def render_table(
    scene: TableScene, *, four_colour: bool = False, labels: Labels = ENGLISH
) -> Rendered:
    """The table as a PNG with its alt text; :class:`RenderError` if the scene is impossible."""
    _check(scene)
    return encode(_assemble(scene, four_colour, labels), _alt_text(scene, labels))


def _draw(scene: TableScene, four_colour: bool, labels: Labels) -> Image.Image:
    """The whole picture in RGB, drawn part after part: the palette is made from these,
    and :func:`_assemble` gives the same pixels, quantized, from cached parts."""
    count = len(scene.seats)
    image = _background(count).copy()
    draw = ImageDraw.Draw(image)
    _draw_trump_row(image, draw, scene, labels, four_colour)
    _draw_teams(image, draw, scene, labels, four_colour)
    _draw_third_row(image, draw, scene, labels, four_colour)
    layout = _layout(count)
    for seat, cards in scene.trick:
        _draw_play(image, draw, cards, layout, layout.spots[(seat - scene.bottom) % count],
                   seat == scene.winner,
                   four_colour)
    for seat, info in enumerate(scene.seats):
        box = layout.plates[(seat - scene.bottom) % count]
        _draw_plate(image, draw, info, box, labels)
    if scene.previous_trick:
        _draw_previous(image, draw, scene, labels, four_colour, HEADER + layout.height)
    return image


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The 256 colours of every table picture: those of sample tables in play, dealing and
    with a hidden trump, with two-colour and four-colour cards, every mark, both teams,
    both sides and the unknown ones of find-friends, and three-bid's bidding."""
    seats = [
        SeatInfo("1. Zoë 🐉", 13, is_dealer=True, team=0),
        SeatInfo("2. 小明", 13, is_turn=True, team=1),
        SeatInfo("3. Bob", 12, away=True, team=0),
        SeatInfo("4. 王小二", 12, team=1),
    ]
    base = TableScene(
        seats, Rank.FIVE, Suit.HEARTS, levels=(Rank.FIVE, Rank.ACE), defenders=0, hand_number=3
    )
    playing = replace(
        base,
        trick=[(0, parse_cards("AS KS QS JS")), (1, parse_cards("BJ SJ 10H 5D"))],
        winner=1, attacker_points=85, point_cards=parse_cards("KH KS 10C 10D 5S 5H"),
        previous_trick=[(2, parse_cards("QC")), (3, parse_cards("JD"))], previous_winner=2,
    )
    dealing = replace(
        base, level=Rank.TWO, trump=Colour.BLACK, dealing=True, cards_to_deal=20,
        declaration=DeclarationInfo(1, parse_cards("2S 2S")),
    )
    hidden = replace(
        base, trump_hidden=True, winner=2,
        trick=[(2, parse_cards("9C 9C 8D 8D")), (3, parse_cards("4H 3H 6S 7C"))],
    )
    # levels by player: friends found and not, both sides, the call; the bidding
    friends = TableScene(
        [SeatInfo("1. Zoë", 19, is_dealer=True, level=Rank.FIVE, side=Side.DEFENDING),
         SeatInfo("2. 小明", 19, is_turn=True, level=Rank.TWO),
         SeatInfo("3. Bob", 18, level=Rank.JACK, side=Side.DEFENDING, is_friend=True),
         SeatInfo("4. Ann", 18, level=Rank.ACE, side=Side.ATTACKING),
         SeatInfo("5. 王", 18, level=Rank.TEN)],
        Rank.FIVE, Suit.SPADES, calls=[CallInfo(parse_cards("AS")[0], 2),
                                       CallInfo(parse_cards("KH")[0], 1, 2)],
        trick=[(0, parse_cards("KD KD")), (1, parse_cards("3C 4C"))], winner=0,
        attacker_points=40, point_cards=parse_cards("KC 10H 5D"),
    )
    bidding = TableScene(
        [SeatInfo("1. Zoë", 33, bid=85, level=Rank.THREE), SeatInfo("2. 小明", 33, passed=True),
         SeatInfo("3. Bob", 33, is_turn=True, level=Rank.KING)],
        None, trump_hidden=True, bid=BidInfo(85, 0, standing=True),
    )
    drawn = [_draw(scene, four_colour, ENGLISH) for scene, four_colour in (
        (playing, False), (dealing, False), (hidden, True), (playing, True),
        (friends, False), (bidding, False))]
    sample = Image.new("RGB", (WIDTH, sum(image.height for image in drawn)))
    top = 0
    for image in drawn:
        sample.paste(image, (0, top))
        top += image.height
    return sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _check(scene: TableScene) -> None:
    count = len(scene.seats)
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise RenderError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {count}")
    for name, trick, winner in (
        ("trick", scene.trick, scene.winner),
        ("previous trick", scene.previous_trick, scene.previous_winner),
    ):
        played = [seat for seat, _ in trick]
        if any(not 0 <= seat < count for seat in played):
            raise RenderError(f"a {name} names a seat outside 0..{count - 1}: {played}")
        if len(set(played)) != len(played):
            raise RenderError(f"a seat plays twice in one {name}: {played}")
        if winner is not None and winner not in played:
            raise RenderError(f"seat {winner} wins a {name} it has not played in")
    if any(info.cards_left < 0 for info in scene.seats):
        raise RenderError("a seat has fewer than 0 cards left")
    if scene.defenders is not None and not 0 <= scene.defenders < len(scene.levels):
        raise RenderError(f"team {scene.defenders} defends, but there are {len(scene.levels)}")
    if any(card.points == 0 for card in scene.point_cards):
        raise RenderError("a card without points is among the attackers' point cards")
    if scene.declaration is not None and not 0 <= scene.declaration.seat < count:
        raise RenderError(f"a declaration by seat {scene.declaration.seat}, not 0..{count - 1}")
    if any(not 0 <= c.by < count for c in scene.calls if c.by is not None):
        raise RenderError(f"a called card played by a seat outside 0..{count - 1}")
    if any(c.copy < 1 for c in scene.calls):
        raise RenderError("a call names a copy before the first")
    if not 0 <= scene.bottom < count:
        raise RenderError(f"seat {scene.bottom} at the bottom, not 0..{count - 1}")
    if scene.bid is not None and scene.bid.seat is not None and not 0 <= scene.bid.seat < count:
        raise RenderError(f"a bid by seat {scene.bid.seat}, not 0..{count - 1}")
    if scene.cards_to_deal < 0 or scene.hand_number < 0:
        raise RenderError("a negative hand number or count of cards to deal")


# -- what does not change between renders ----------------------------------------------------


@lru_cache(maxsize=MAX_SEATS)
def _background(count: int) -> Image.Image:
    """The felt, the header and the strip for the previous trick (copied, never drawn on)."""
    width, height = picture_size(count)
    image = Image.new("RGB", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, HEADER - 1), fill=PLATE)
    draw.line((MARGIN, TRUMP_ROW, width - MARGIN, TRUMP_ROW), fill=_PANEL, width=2)
    top, bottom = HEADER, height - STRIP
    draw.ellipse((34, top + 40, width - 34, bottom - 40), fill=FELT_DARK)
    draw.ellipse((44, top + 50, width - 44, bottom - 50), fill=FELT)
    draw.rectangle((0, bottom, width, height), fill=PLATE)
    return image


@lru_cache(maxsize=MAX_SEATS)
def _quantized_background(count: int) -> Image.Image:
    return _quantize(_background(count))


def _quantize(image: Image.Image) -> Image.Image:
    """Each pixel its nearest colour of the palette: the same whether a part or the whole
    picture is quantized (no dithering), so cached parts can be pasted as they are."""
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


# -- the picture from cached parts -------------------------------------------------------------
#
# A warm table is pasted together from parts drawn once and cached already quantized: the
# header's three rows, the plays (those whose pixels touch, together), the seat plates
# (with a mask of their shape) and the previous trick. Each part is cached by a scene that
# holds only what that part shows, so a cached part cannot go stale; tests check that the
# result is the picture :func:`_draw` makes in one piece.

_HEADER_BANDS = ((0, TRUMP_ROW), (TRUMP_ROW, TRUMP_ROW + ROW), (TRUMP_ROW + ROW, HEADER))


def _assemble(scene: TableScene, four_colour: bool, labels: Labels) -> Image.Image:
    """:func:`_draw`'s picture, quantized, from cached parts (the same pixels)."""
    count = len(scene.seats)
    layout = _layout(count)
    image = _quantized_background(count).copy()
    for row, part in enumerate(_header_parts(scene)):
        image.paste(_header_tile(row, part, four_colour, labels), (0, _HEADER_BANDS[row][0]))
    for box, plays in _play_groups(scene, layout):
        image.paste(_plays_tile(count, plays, box, four_colour), box[:2])
    for seat, info in enumerate(scene.seats):
        box = layout.plates[(seat - scene.bottom) % count]
        sprite, mask = _plate_sprite(info, box, labels)
        image.paste(sprite, (box[0] - 5, box[1] - 5), mask)
    if scene.previous_trick:
        seats = tuple(SeatInfo("", 0, team=info.team, side=info.side) for info in scene.seats)
        part = TableScene(seats, None, previous_trick=_plays(scene.previous_trick),
                          previous_winner=scene.previous_winner)
        image.paste(_previous_tile(part, four_colour, labels), (0, HEADER + layout.height))
    return image


def _plays(trick: Sequence[Play]) -> tuple[Play, ...]:
    return tuple((seat, tuple(cards)) for seat, cards in trick)


def _header_parts(scene: TableScene) -> tuple[TableScene, TableScene, TableScene]:
    """What each header row shows, and nothing else (the key of its cached tile)."""
    names = tuple(SeatInfo(info.name, 0, team=info.team) for info in scene.seats)
    declaration = scene.declaration
    if declaration is not None:
        declaration = DeclarationInfo(declaration.seat, tuple(declaration.cards))
    trump = TableScene((), scene.level, scene.trump, scene.trump_hidden, title=scene.title,
                       hand_number=scene.hand_number, dealing=scene.dealing,
                       cards_to_deal=scene.cards_to_deal)
    teams = TableScene(names, scene.level, levels=tuple(scene.levels),
                       defenders=scene.defenders, calls=tuple(scene.calls),
                       calls_pending=scene.calls_pending, bid=scene.bid)
    third = TableScene(names, None, attacker_points=scene.attacker_points,
                       point_cards=tuple(scene.point_cards), dealing=scene.dealing,
                       declaration=declaration, bid=scene.bid)
    return trump, teams, third


@lru_cache(maxsize=96)
def _header_tile(row: int, part: TableScene, four_colour: bool, labels: Labels) -> Image.Image:
    image = _background(MIN_SEATS).crop((0, 0, WIDTH, HEADER))  # the same for every count
    draw_row = (_draw_trump_row, _draw_teams, _draw_third_row)[row]
    draw_row(image, ImageDraw.Draw(image), part, labels, four_colour)
    top, bottom = _HEADER_BANDS[row]
    return _quantize(image.crop((0, top, WIDTH, bottom)))


_PlayKey = tuple[tuple[int, int, tuple[Card, ...], bool], ...]  # (order, spot, cards, winning)


def _play_groups(scene: TableScene, layout: _Layout) -> list[tuple[Box, _PlayKey]]:
    """The trick's plays in groups whose boxes do not touch each other (a winning play's
    star can reach a neighbour's cards), each group's box and plays in play order."""
    count = len(scene.seats)
    width, height = picture_size(count)
    groups: list[tuple[Box, _PlayKey]] = []
    for order, (seat, cards) in enumerate(scene.trick):
        if not cards:
            continue
        spot = (seat - scene.bottom) % count
        winning = seat == scene.winner
        x0, y0, x1, y1 = _play_box(len(cards), layout, layout.spots[spot], winning)
        box = (max(0, x0), max(0, y0), min(width, x1), min(height, y1))
        plays: _PlayKey = ((order, spot, tuple(cards), winning),)
        merged = True
        while merged:  # a merged box can reach a third group
            merged = False
            for k, (other, others) in enumerate(groups):
                if _overlap(box, other):
                    box = (min(box[0], other[0]), min(box[1], other[1]),
                           max(box[2], other[2]), max(box[3], other[3]))
                    plays = tuple(sorted(plays + others))
                    del groups[k]
                    merged = True
                    break
        groups.append((box, plays))
    return groups


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@lru_cache(maxsize=192)
def _plays_tile(count: int, plays: _PlayKey, box: Box, four_colour: bool) -> Image.Image:
    image = _background(count).crop(box)
    draw = ImageDraw.Draw(image)
    layout = _layout(count)
    for _, spot, cards, winning in plays:
        _draw_play(image, draw, cards, layout, layout.spots[spot], winning, four_colour,
                   box[:2])
    return _quantize(image)


@lru_cache(maxsize=256)
def _plate_sprite(info: SeatInfo, box: Box, labels: Labels) -> tuple[Image.Image, Image.Image]:
    """A seat's plate, 5 px round it for the turn's frame, and the mask of its shape:
    everything the plate draws is opaque and inside it, whatever lies under it."""
    x0, y0, x1, y1 = box
    # drawn 5 px in from its corner: moved by a whole number of pixels (and by an even
    # one, as Python rounds halves to even), the plate's pixels are those of the picture
    ox, oy = x0 - 5, y0 - 5
    dx, dy = ox % 2, oy % 2
    local = (x0 - ox + dx, y0 - oy + dy, x1 - ox + dx, y1 - oy + dy)
    size = (x1 + 6 - ox + dx, y1 + 6 - oy + dy)
    image = Image.new("RGB", size)
    _draw_plate(image, ImageDraw.Draw(image), info, local, labels)
    mask = Image.new("L", size, 0)
    _plate_shape(ImageDraw.Draw(mask), info, local, 255)
    inner = (dx, dy, size[0], size[1])
    return _quantize(image.crop(inner)), mask.crop(inner)


@lru_cache(maxsize=64)
def _previous_tile(part: TableScene, four_colour: bool, labels: Labels) -> Image.Image:
    count = len(part.seats)
    top = HEADER + _layout(count).height
    image = _background(count).crop((0, top - top % 2, WIDTH, top + STRIP))  # (even: see above)
    _draw_previous(image, ImageDraw.Draw(image), part, labels, four_colour, top % 2)
    return _quantize(image.crop((0, top % 2, WIDTH, image.height)))


# -- header -----------------------------------------------------------------------------------


def _label(image: Image.Image, x: float, y: float, text: str, font: Font,
           max_width: int = 220, colour: RGB = INK_MUTED) -> float:
    """A catalogue word, muted; returns the x after it and a small gap."""
    return draw_text(image, (x, y), player_text(text, font, max_width), font, colour) + 10


def _draw_trump_row(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, labels: Labels,
    four_colour: bool,
) -> None:
    y = TRUMP_ROW / 2
    font = text_font(26)
    x = _label(image, MARGIN, y, labels.trump, font, 180)
    x = _draw_trump_chip(image, draw, (x, y), scene)
    if scene.trump is None and not scene.trump_hidden:
        x = _label(image, x + 10, y, labels.no_trump, font, 160, GOLD)
    elif scene.trump_hidden:
        x = _label(image, x + 10, y, labels.hidden_trump, font, 160)
    right: float = WIDTH - MARGIN
    parts = _progress(scene, labels)
    if parts:
        text = player_text(" · ".join(parts), font, round(right - x - 20))
        right = draw_text(image, (right, y), text, font, INK, "rm") - text_width(text, font) - 24
    if scene.title and right - x > 80:
        title = player_text(scene.title, text_font(22), round(right - x - 10))
        draw_text(image, (right, y), title, text_font(22), INK_MUTED, "rm")


def _progress(scene: TableScene, labels: Labels) -> list[str]:
    """The hand number and, while dealing, the cards left to deal."""
    parts = []
    if scene.hand_number:
        parts.append(fill(labels.hand_number, scene.hand_number))
    if scene.dealing:
        parts.append(fill(labels.to_deal, scene.cards_to_deal))
    return parts


def _draw_trump_chip(
    image: Image.Image, draw: ImageDraw.ImageDraw, at: tuple[float, float], scene: TableScene
) -> float:
    """The trump chip: the trump's pips and the level rank; returns the x where it ends."""
    x, y = at
    size = 52
    rank_font = bold_font(38)
    if scene.trump_hidden:
        draw.rounded_rectangle((x, y - size / 2, x + size, y + size / 2), radius=9, fill=_CHIP)
        draw_text(image, (x + size / 2, y), "?", rank_font, _CHIP_INK, "mm")
        return x + size
    suits = _trump_suits(scene.trump) if scene.trump is not None else ()
    pip = 36
    label = scene.level.label if scene.level is not None else "?"
    width = 14 + len(suits) * (pip + 4) + round(rank_font.getlength(label)) + 12
    draw.rounded_rectangle((x, y - size / 2, x + width, y + size / 2), radius=9, fill=_CHIP)
    px = x + 10
    for suit in suits:
        icon = suit_icon(suit, pip, suit_colour(suit))
        image.paste(icon, (round(px), round(y - pip / 2)), icon)
        px += pip + 4
    colour = suit_colour(suits[0]) if suits else _CHIP_INK
    draw_text(image, (px + 2, y + 1), label, rank_font, colour, "lm")
    return x + width


def _trump_suits(trump: TrumpSuit) -> tuple[Suit, ...]:
    if isinstance(trump, Colour):
        return (Suit.HEARTS, Suit.DIAMONDS) if trump is Colour.RED else (Suit.SPADES, Suit.CLUBS)
    return (trump,)


def team_name(scene: TableScene, team: int) -> str:
    """A team by its seats' numbers, as the players read them: ``1+3``."""
    seats = [str(i + 1) for i, info in enumerate(scene.seats) if info.team == team]
    return "+".join(seats) or str(team + 1)


def _draw_teams(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, labels: Labels,
    four_colour: bool,
) -> None:
    top = TRUMP_ROW + 4
    y = TRUMP_ROW + ROW / 2
    font = text_font(24)
    level_font = bold_font(36)
    if not scene.levels:
        if scene.bid is not None:
            _draw_bid(image, scene, scene.bid, labels)
        elif scene.calls:
            _draw_calls(image, draw, scene, labels)
        elif scene.calls_pending:
            _label(image, MARGIN, y, labels.no_calls, font, WIDTH - 2 * MARGIN)
        elif scene.level is not None:
            x = _label(image, MARGIN, y, labels.level, font)
            draw_text(image, (x, y), scene.level.label, level_font, GOLD, "lm")
        return
    gap = 12
    teams = len(scene.levels)
    width = (WIDTH - 2 * MARGIN - gap * (teams - 1)) / teams
    for team, level in enumerate(scene.levels):
        x0 = MARGIN + team * (width + gap)
        x1 = x0 + width
        draw.rounded_rectangle((x0, top, x1, top + ROW - 8), radius=10, fill=_PANEL)
        colour = TEAM_COLOURS[team % len(TEAM_COLOURS)]
        draw.rounded_rectangle((x0, top, x0 + 10, top + ROW - 8), radius=5, fill=colour)
        rank = level.label
        rank_x = x1 - 14 - level_font.getlength(rank)
        draw_text(image, (rank_x, y), rank, level_font, GOLD, "lm")
        level_word = player_text(labels.level, font, 110)
        level_x = rank_x - 8 - text_width(level_word, font)
        draw_text(image, (level_x, y), level_word, font, INK_MUTED)
        x = draw_text(image, (x0 + 22, y), team_name(scene, team), font, INK) + 12
        if scene.defenders is not None:
            defending = team == scene.defenders
            role = labels.defending if defending else labels.attacking
            role = player_text(role, font, round(level_x - x - 10))
            draw_text(image, (x, y), role, font, INK_MUTED if defending else _ATTACK)


def _draw_bid(image: Image.Image, scene: TableScene, bid: BidInfo, labels: Labels) -> None:
    """three-bid: the standing bid while the players bid, then the hand's bid."""
    y = TRUMP_ROW + ROW / 2
    font = text_font(24)
    if bid.points is None:
        _label(image, MARGIN, y, labels.no_bid, font, WIDTH - 2 * MARGIN)
        return
    x = _label(image, MARGIN, y, labels.lowest_bid if bid.standing else labels.bid, font)
    number = str(bid.points)
    draw_text(image, (x, y), number, bold_font(36), GOLD, "lm")
    x += bold_font(36).getlength(number) + 16
    if bid.seat is not None:
        name = player_text(scene.seats[bid.seat].name, font, round(WIDTH - MARGIN - x))
        draw_text(image, (x, y), name, font, INK)


def _draw_calls(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, labels: Labels
) -> None:
    """find-friends: each called card ("2nd ♠A"), then who played it or "friend unknown"."""
    y = TRUMP_ROW + ROW / 2
    font = text_font(24)
    start = _label(image, MARGIN, y, labels.calls, font, 140)
    room = (WIDTH - MARGIN - start) / len(scene.calls)
    height = 44
    for k, call in enumerate(scene.calls):
        x0 = start + k * room
        x = draw_text(image, (x0, y), player_text(labels.copy(call.copy), font, 90), font,
                      INK) + 6
        index = card_index(call.card, height)
        image.paste(index, (round(x), round(y - height / 2)), index)
        x += index.width + 8
        if call.by is None:
            text, colour = labels.friend_unknown, INK_MUTED
        else:
            text, colour = scene.seats[call.by].name, INK
        draw_text(image, (x, y), player_text(text, font, round(x0 + room - x - 12)), font,
                  colour)


def _draw_third_row(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, labels: Labels,
    four_colour: bool,
) -> None:
    """While dealing the standing declaration, else the attackers' points (none while
    three-bid's bidding goes on: no side attacks yet)."""
    if scene.dealing:
        _draw_declaration(image, draw, scene, labels, four_colour)
    elif not _bidding(scene):
        _draw_points(image, draw, scene, labels, four_colour)


def _bidding(scene: TableScene) -> bool:
    """three-bid before the bid is won: nobody attacks yet."""
    return scene.bid is not None and scene.bid.standing


def _draw_points(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, labels: Labels,
    four_colour: bool,
) -> None:
    y = TRUMP_ROW + ROW + ROW / 2
    x = _label(image, MARGIN, y, labels.points, text_font(24), 260)
    number = str(scene.attacker_points)
    draw_text(image, (x, y), number, bold_font(36), GOLD, "lm")
    x += bold_font(36).getlength(number) + 18
    if scene.point_cards:
        _draw_point_cards(image, draw, scene.point_cards, (x, y), four_colour)


_POINT_RANKS = (Rank.KING, Rank.TEN, Rank.FIVE)


def _draw_point_cards(
    image: Image.Image, draw: ImageDraw.ImageDraw, cards: Sequence[Card],
    at: tuple[float, float], four_colour: bool,
) -> None:
    """The point cards on a white pill, by rank: ``K ♠♥  10 ♦  5 ♣♣``."""
    x, y = at
    font = bold_font(30)
    pip = 26
    groups = [
        (rank, sorted((c for c in cards if c.rank is rank), key=lambda c: str(c.suit)))
        for rank in _POINT_RANKS
    ]
    groups = [(rank, group) for rank, group in groups if group]
    labels_width = sum(font.getlength(rank.label) + 8 + 14 for rank, _ in groups)
    room = WIDTH - MARGIN - x - 20 - labels_width
    step = min(pip + 2, max(10, room / max(1, len(cards))))
    width = 10 + labels_width + (len(cards) - 1) * step + pip + 6
    draw.rounded_rectangle((x, y - 22, x + width, y + 22), radius=10, fill=_CHIP)
    cx = x + 10
    for rank, group in groups:
        draw_text(image, (cx, y + 1), rank.label, font, _CHIP_INK, "lm")
        cx += font.getlength(rank.label) + 8
        for card in group:
            assert card.suit is not None  # point cards are never jokers
            icon = suit_icon(card.suit, pip, card_colour(card, four_colour))
            image.paste(icon, (round(cx), round(y - pip / 2)), icon)
            cx += step
        cx += pip - step + 14


def _draw_declaration(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, labels: Labels,
    four_colour: bool,
) -> None:
    y = TRUMP_ROW + ROW + ROW / 2
    font = text_font(24)
    declaration = scene.declaration
    if declaration is None:
        _label(image, MARGIN, y, labels.no_declaration, font, WIDTH - 2 * MARGIN)
        return
    x = _label(image, MARGIN, y, labels.declared, font)
    name = player_text(scene.seats[declaration.seat].name, font, 260)
    x = draw_text(image, (x, y), name, font, INK) + 14
    height = 48
    if not declaration.cards:
        draw.rounded_rectangle((x, y - height / 2, x + 34, y + height / 2), radius=6, fill=_CHIP)
        draw_text(image, (x + 17, y), "?", bold_font(32), _CHIP_INK, "mm")
        return
    for card in declaration.cards:
        index = card_index(card, height, four_colour)
        image.paste(index, (round(x), round(y - height / 2)), index)
        x += index.width + 4


# -- seats and plays --------------------------------------------------------------------------


def _draw_plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    info: SeatInfo,
    box: tuple[int, int, int, int],
    labels: Labels,
) -> None:
    x0, y0, x1, _ = box
    _plate_shape(draw, info, box, PLATE)
    ink = _AWAY if info.away else INK
    font = text_font(26)
    name_left = x0 + 18
    name_right = x1 - 8
    for shown, word, colour in ((info.is_dealer, labels.dealer_badge, GOLD),
                                (info.is_friend, labels.friend_badge, DEFENDING_COLOUR)):
        if not shown:
            continue
        badge_font = emphasis_font(word, 20)
        badge = player_text(word, badge_font, 50)
        bw = max(30, round(badge_font.getlength(badge)) + 12)
        draw.rounded_rectangle((name_right - bw, y0 + 8, name_right, y0 + 38), radius=15,
                               fill=colour)
        draw_text(image, (name_right - bw / 2, y0 + 23), badge, badge_font, PLATE, "mm")
        name_right -= bw + 6
    name = player_text(info.name, font, name_right - name_left)
    draw_text(image, (name_left, y0 + 24), name, font, ink)
    back = card_back(26)
    image.paste(back, (name_left, y0 + 46), back)
    x = name_left + back.width + 8
    count = str(info.cards_left)
    draw_text(image, (x, y0 + 60), count, bold_font(24), ink, "lm")
    x += round(bold_font(24).getlength(count)) + 12
    right = x1 - 8
    if info.level is not None:
        word = fill(labels.seat_level, info.level.label)
        level_font = emphasis_font(word, 22)
        word = player_text(word, level_font, 90)
        draw_text(image, (right, y0 + 60), word, level_font, GOLD, "rm")
        right -= round(text_width(word, level_font)) + 8
    status = _plate_status(info, labels)
    if status and right - x > 16:
        small = text_font(22)
        text = player_text(status, small, right - x)
        colour = _AWAY if info.away else _TURN if status == labels.to_play else INK
        draw_text(image, (x, y0 + 60), text, small, colour)


def _plate_shape(draw: ImageDraw.ImageDraw, info: SeatInfo, box: Box, ink: RGB | int) -> None:
    """The plate, its side's stripe and the turn's frame round it: in their colours, or
    with ``ink`` 255 a mask of its shape."""
    x0, y0, x1, y1 = box
    if info.is_turn:
        frame = _TURN if isinstance(ink, tuple) else ink
        draw.rounded_rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), radius=15, fill=frame)
    draw.rounded_rectangle(box, radius=10, fill=ink)
    stripe = seat_colour(info) if isinstance(ink, tuple) else ink  # (rounder than the plate)
    draw.rounded_rectangle((x0, y0, x0 + 10, y1), radius=5, fill=stripe)


def _plate_status(info: SeatInfo, labels: Labels) -> str:
    if info.away:
        return labels.away
    if info.passed:
        return labels.passed
    if info.bid is not None:
        return fill(labels.seat_bid, info.bid)
    return labels.to_play if info.is_turn else ""


def seat_colour(info: SeatInfo) -> RGB:
    """A fixed team's colour, else the seat's side this hand (neutral while unknown)."""
    if info.team is not None:
        return TEAM_COLOURS[info.team % len(TEAM_COLOURS)]
    return side_colour(info.side)


def _draw_play(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    cards: Sequence[Card],
    layout: _Layout,
    spot: _Spot,
    winning: bool,
    four_colour: bool,
    origin: tuple[int, int] = (0, 0),
) -> None:
    """A seat's play; on a piece of the picture whose top-left corner is ``origin``."""
    if not cards:
        return
    height = layout.card_height
    x0, y0, step, width = _place_play(len(cards), layout, spot)
    x0, y0 = x0 - origin[0], y0 - origin[1]  # (whole pixels: the same pixels anywhere)
    if winning:
        pad = 6
        draw.rounded_rectangle(
            (x0 - pad, y0 - pad, x0 + width + pad, y0 + height + pad),
            radius=10,
            fill=FELT_LIGHT,
            outline=GOLD,
            width=4,
        )
    for k, card in enumerate(cards):
        face = card_face(card, height, four_colour)
        image.paste(face, (x0 + k * step, y0), face)
    if winning:
        star = star_icon(30, GOLD)
        image.paste(star, (x0 - 19, y0 - 19), star)


def _place_play(count: int, layout: _Layout, spot: _Spot) -> tuple[int, int, int, int]:
    """Where ``count`` cards played at ``spot`` lie: left, top, overlap step, width."""
    height = layout.card_height
    cw = card_width(height)
    step = layout.step
    room = spot.right - spot.left
    if count > 1 and (count - 1) * step + cw > room:
        step = max(8, int((room - cw) // (count - 1)))
    width = (count - 1) * step + cw
    if spot.align == "l":
        x0 = round(spot.left)
    elif spot.align == "r":
        x0 = round(spot.right - width)
    else:
        x0 = round((spot.left + spot.right - width) / 2)
    return x0, round(spot.y - height / 2), step, width


def _play_box(count: int, layout: _Layout, spot: _Spot, winning: bool) -> Box:
    """Every pixel a play draws (its cards; winning: the frame and the star too)."""
    x0, y0, _, width = _place_play(count, layout, spot)
    if winning:  # the star at (x0 - 19, y0 - 19), the frame 6 px out
        return x0 - 19, y0 - 19, x0 + width + 7, y0 + layout.card_height + 7
    return x0, y0, x0 + width, y0 + layout.card_height


def _draw_previous(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, labels: Labels,
    four_colour: bool, top: int,
) -> None:
    """The trick before, in play order: each seat's number in its team colour, then its
    cards as index cards; the winner's framed in gold."""
    y = top + STRIP / 2
    font = text_font(24)
    x = _label(image, MARGIN, y, labels.last_trick, font, 150) + 4
    badge = 30
    gap = 14
    index_w = index_width(_INDEX_HEIGHT)
    cards = sum(len(c) for _, c in scene.previous_trick)
    plays = len(scene.previous_trick)
    fixed = plays * (badge + 6 + gap) + plays * (index_w - 4)
    room = WIDTH - MARGIN - x - fixed
    step = min(index_w + 4, max(12, room / max(1, cards - plays))) if cards > plays else index_w
    for seat, played in scene.previous_trick:
        colour = seat_colour(scene.seats[seat])
        width = badge + 6 + (len(played) - 1) * step + index_w
        if seat == scene.previous_winner:
            draw.rounded_rectangle(
                (x - 5, y - _INDEX_HEIGHT / 2 - 6, x + width + 5, y + _INDEX_HEIGHT / 2 + 6),
                radius=9, fill=FELT_LIGHT, outline=GOLD, width=3,
            )
        draw.ellipse((x, y - badge / 2, x + badge, y + badge / 2), fill=colour)
        draw_text(image, (x + badge / 2, y), str(seat + 1), bold_font(20), PLATE, "mm")
        cx = x + badge + 6
        for card in played:
            index = card_index(card, _INDEX_HEIGHT, four_colour)
            image.paste(index, (round(cx), round(y - _INDEX_HEIGHT / 2)), index)
            cx += step
        x += width + gap


# -- text equivalent ---------------------------------------------------------------------------


def trump_text(trump: TrumpSuit | None, hidden: bool, labels: Labels) -> str:
    if hidden:
        return f"? ({labels.hidden_trump})"
    if trump is None:
        return labels.no_trump
    if isinstance(trump, Colour):
        return labels.red if trump is Colour.RED else labels.black
    return trump.symbol


def _plays_text(trick: Sequence[Play], names: Sequence[str]) -> str:
    return "; ".join(
        f"{names[seat]} {' '.join(card.pretty for card in cards)}" for seat, cards in trick
    )


def _alt_text(scene: TableScene, labels: Labels) -> str:
    """The picture in words, the game's state first and the seats last (Discord keeps
    only :data:`~images.canvas.ALT_TEXT_LIMIT` characters)."""
    names = [plain_text(info.name) for info in scene.seats]
    parts = []
    if scene.title:
        parts.append(plain_text(scene.title) + ".")
    progress = _progress(scene, labels)
    if progress:
        parts.append(", ".join(progress) + ".")
    trump = f"{labels.trump}: {trump_text(scene.trump, scene.trump_hidden, labels)}"
    if scene.level is not None:
        trump += f", {labels.level}: {scene.level.label}"
    parts.append(trump + ".")
    if scene.bid is not None:
        parts.append(bid_text(scene.bid, names, labels) + ".")
    if scene.calls:
        parts.append(calls_text(scene.calls, names, labels) + ".")
    elif scene.calls_pending:
        parts.append(labels.no_calls + ".")
    if scene.dealing:
        declaration = scene.declaration
        if declaration is None:
            parts.append(labels.no_declaration + ".")
        else:
            shown = " ".join(card.pretty for card in declaration.cards) or "?"
            parts.append(f"{labels.declared}: {names[declaration.seat]} {shown}.")
    if scene.levels:
        teams = []
        for team, level in enumerate(scene.levels):
            role = ""
            if scene.defenders is not None:
                role = labels.defending if team == scene.defenders else labels.attacking
                role = f" ({role})"
            teams.append(
                f"{labels.team} {team_name(scene, team)}{role}: {labels.level} {level.label}"
            )
        parts.append("; ".join(teams) + ".")
    if not _bidding(scene):
        points = f"{labels.points}: {scene.attacker_points}"
        if scene.point_cards:
            points += f" ({labels.point_cards}: {' '.join(c.pretty for c in scene.point_cards)})"
        parts.append(points + ".")
    if scene.trick:
        line = f"{labels.trick}: {_plays_text(scene.trick, names)}."
        if scene.winner is not None:
            line += f" {labels.winning}: {names[scene.winner]}."
        parts.append(line)
    if scene.previous_trick:
        line = f"{labels.last_trick}: {_plays_text(scene.previous_trick, names)}."
        if scene.previous_winner is not None:
            line += f" {labels.won_by}: {names[scene.previous_winner]}."
        parts.append(line)
    seats = []
    for name, info in zip(names, scene.seats, strict=True):
        left = labels.one_card_left if info.cards_left == 1 else labels.cards_left
        notes = [fill(left, info.cards_left), *seat_roles(info, labels)]
        if info.is_turn:
            notes.append(labels.to_play)
        if info.away:
            notes.append(labels.away)
        seats.append(f"{name} ({', '.join(notes)})")
    parts.append("; ".join(seats) + ".")
    return " ".join(parts)


def seat_roles(info: SeatInfo, labels: Labels) -> list[str]:
    """A seat's own level, dealer, friend, side and bid in words (the alt text, the
    table's text)."""
    notes = []
    if info.level is not None:
        notes.append(f"{labels.level} {info.level.label}")
    if info.is_dealer:
        notes.append(labels.dealer)
    if info.is_friend:
        notes.append(labels.friend)
    if info.side is not None:
        notes.append(labels.defending if info.side is Side.DEFENDING else labels.attacking)
    if info.passed:
        notes.append(labels.passed)
    elif info.bid is not None:
        notes.append(fill(labels.seat_bid, info.bid))
    return notes


def bid_text(bid: BidInfo, names: Sequence[str], labels: Labels) -> str:
    """``Lowest bid: 85 (2. Bob)``, ``Bid: 80 (1. Zoë)`` or ``No bid yet``."""
    if bid.points is None:
        return labels.no_bid
    by = f" ({names[bid.seat]})" if bid.seat is not None else ""
    return f"{labels.lowest_bid if bid.standing else labels.bid}: {bid.points}{by}"


def calls_text(calls: Sequence[CallInfo], names: Sequence[str], labels: Labels) -> str:
    """``Calls: 2nd ♠A (friend unknown); 1st ♥K: 3. Bob``"""
    said = []
    for call in calls:
        what = f"{labels.copy(call.copy)} {call.card.pretty}"
        said.append(f"{what} ({labels.friend_unknown})" if call.by is None
                    else f"{what}: {names[call.by]}")
    return f"{labels.calls}: " + "; ".join(said)
