"""The table picture: seats, names in any script, trick, trump, teams, points, the previous
trick and the deal (images/table.py)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

from engine.cards import Rank, Suit, parse_cards
from engine.order import Colour
from images import (
    BidInfo,
    CallInfo,
    DeclarationInfo,
    Labels,
    RenderError,
    SeatInfo,
    Side,
    TableScene,
    render_table,
    table,
)
from images.canvas import (
    ALT_TEXT_LIMIT,
    ATTACKING_COLOUR,
    DEFENDING_COLOUR,
    ENGLISH,
    UNKNOWN_COLOUR,
    encode,
)
from images.table import PLATE_SIZE, WIDTH, _layout, picture_size


def seats(count: int, names: list[str] | None = None) -> list[SeatInfo]:
    names = names or [f"Player {i}" for i in range(count)]
    return [
        SeatInfo(name, 25 - (i == 0), is_dealer=i == 0, is_turn=i == 1, team=i % 2)
        for i, name in enumerate(names)
    ]


def scene(count: int = 4, **changes: object) -> TableScene:
    base = {
        "seats": seats(count),
        "level": Rank.FIVE,
        "trump": Suit.HEARTS,
        "trick": [(0, parse_cards("AS AS KS KS"))],
        "winner": 0,
        "attacker_points": 35,
    }
    base.update(changes)
    return TableScene(**base)  # type: ignore[arg-type]


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("count", range(2, 9), ids=lambda n: f"{n}-seats")
def test_tables_of_two_to_eight_seats_render(count: int) -> None:
    trick = [(seat, parse_cards("QD QD JD JD 10D 10D 9D 9D")) for seat in range(count)]
    rendered = render_table(scene(count, trick=trick, winner=count - 1))
    assert pixels(rendered.png).size == picture_size(count) == (rendered.width, rendered.height)
    assert len(rendered.png) < 300 * 1024
    assert all(f"Player {i}" in rendered.alt_text for i in range(count))


NAMES = [
    ("chinese", "小明"),
    ("traditional-only", "張偉"),
    ("emoji", "🐉 Dragon"),
    ("emoji-zwj-family", "👨‍👩‍👧 family"),
    ("flags", "🇨🇳🇺🇸"),
    ("skin-tone", "👍🏽"),
    ("korean", "김민수"),
    ("arabic", "محمد"),
    ("combining", "Zoë Ångström"),
    ("control-characters", "bad\x00\x07name"),
    ("newline", "two\nlines"),
    ("empty", ""),
    ("spaces-only", "   "),
    ("very-long", "Bob the Builder of Extraordinarily Long Display Names " * 3),
    ("private-use", "\ue000\U000f0000"),
]


@pytest.mark.parametrize("name", [n for _, n in NAMES], ids=[i for i, _ in NAMES])
def test_any_unicode_name_renders(name: str) -> None:
    names = [name, "Bob", "Alice", "王小二"]
    rendered = render_table(scene(seats=seats(4, names)))
    assert pixels(rendered.png).size == picture_size(4)
    assert len(rendered.alt_text) <= ALT_TEXT_LIMIT


@pytest.mark.parametrize(
    "name", ["小明", "🐉", "👨\u200d👩\u200d👧"], ids=["hanzi", "emoji", "zwj"]
)
def test_names_are_drawn_with_real_glyphs_not_boxes(name: str) -> None:
    def picture(name: str) -> Image.Image:
        return pixels(render_table(scene(seats=seats(4, [name, "B", "C", "D"]))).png)

    drawn, boxes, blank = picture(name), picture("□" * len(name)), picture("")
    assert ImageChops.difference(drawn, boxes).getbbox() is not None
    assert ImageChops.difference(drawn, blank).getbbox() is not None


@given(st.lists(st.text(max_size=30), min_size=4, max_size=6))
def test_random_names_never_crash(names: list[str]) -> None:
    rendered = render_table(scene(len(names), seats=seats(len(names), names)))
    assert rendered.width == WIDTH


@pytest.mark.parametrize(
    "trump, hidden, expected",
    [
        (Suit.HEARTS, False, "Trump: ♥, Level: 5."),
        (None, False, "Trump: no trump, Level: 5."),
        (Suit.SPADES, True, "Trump: ? (hidden), Level: 5."),
        (Colour.RED, False, "Trump: red, Level: 5."),
    ],
    ids=["suit", "no-trump", "hidden-changzhu", "red-black-colour"],
)
def test_trump_is_shown_as_suit_question_mark_or_no_trump(
    trump: Suit | Colour | None, hidden: bool, expected: str
) -> None:
    rendered = render_table(scene(trump=trump, trump_hidden=hidden))
    assert rendered.alt_text.startswith(expected)
    assert rendered.png != render_table(scene(trump=Suit.CLUBS)).png


def test_a_hidden_trump_leaves_no_trace_of_the_suit() -> None:
    spades = render_table(scene(trump=Suit.SPADES, trump_hidden=True))
    hearts = render_table(scene(trump=Suit.HEARTS, trump_hidden=True))
    assert spades == hearts


def test_the_winning_play_is_highlighted() -> None:
    trick = [(0, parse_cards("3S")), (1, parse_cards("AS"))]
    first = render_table(scene(trick=trick, winner=0))
    second = render_table(scene(trick=trick, winner=1))
    assert first.png != second.png
    assert "winning: Player 0." in first.alt_text


def test_alt_text_names_seats_trick_and_points() -> None:
    rendered = render_table(scene(title="Table 3"))
    assert rendered.alt_text == (
        "Table 3. Trump: ♥, Level: 5. Attackers' points: 35. "
        "Trick: Player 0 ♠A ♠A ♠K ♠K. winning: Player 0. "
        "Player 0 (24 cards, Dealer); Player 1 (25 cards, to play); Player 2 (25 cards); "
        "Player 3 (25 cards)."
    )



def test_alt_text_says_one_card_for_a_seat_with_one_card_left() -> None:
    last = [replace(seat, cards_left=n) for seat, n in zip(seats(4), (1, 0, 1, 2), strict=True)]
    rendered = render_table(scene(seats=last, trick=[], winner=None))
    assert "Player 0 (1 card, Dealer); Player 1 (0 cards, to play); Player 2 (1 card); " \
        "Player 3 (2 cards)" in rendered.alt_text

MID_HAND = {
    "levels": (Rank.FIVE, Rank.JACK),
    "defenders": 0,
    "point_cards": parse_cards("KD 10C 5S"),
    "previous_trick": [(2, parse_cards("QC")), (3, parse_cards("KC")), (0, parse_cards("3C"))],
    "previous_winner": 3,
    "hand_number": 4,
}


def test_alt_text_tells_the_game_at_a_glance() -> None:
    rendered = render_table(scene(**MID_HAND))
    assert rendered.alt_text == (
        "Hand 4. Trump: ♥, Level: 5. "
        "Team 1+3 (defending): Level 5; Team 2+4 (attacking): Level J. "
        "Attackers' points: 35 (point cards: ♦K ♣10 ♠5). "
        "Trick: Player 0 ♠A ♠A ♠K ♠K. winning: Player 0. "
        "Last trick: Player 2 ♣Q; Player 3 ♣K; Player 0 ♣3. won by: Player 3. "
        "Player 0 (24 cards, Dealer); Player 1 (25 cards, to play); Player 2 (25 cards); "
        "Player 3 (25 cards)."
    )


def test_alt_text_while_dealing_tells_the_declaration_and_cards_to_deal() -> None:
    dealing = {"trick": [], "winner": None, "dealing": True, "cards_to_deal": 38}
    declared = render_table(
        scene(declaration=DeclarationInfo(2, parse_cards("5H 5H")), hand_number=1, **dealing)
    )
    assert declared.alt_text.startswith(
        "Hand 1, 38 to deal. Trump: ♥, Level: 5. Declared: Player 2 ♥5 ♥5. "
    )
    nothing = render_table(scene(trump_hidden=True, **dealing))
    assert nothing.alt_text.startswith("38 to deal. Trump: ? (hidden), Level: 5. "
                                       "No declaration yet. ")


def region(png: bytes, top: int, bottom: int) -> Image.Image:
    image = pixels(png)
    return image.crop((0, top, image.width, bottom))


@pytest.mark.parametrize(
    "field, value, where",
    [
        ("levels", (Rank.FIVE, Rank.NINE), "header"),
        ("defenders", 1, "header"),
        ("point_cards", parse_cards("KD KD"), "header"),
        ("hand_number", 5, "header"),
        ("previous_trick", [(3, parse_cards("2C"))], "strip"),
        ("previous_winner", 2, "strip"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_each_fact_is_drawn_where_the_eye_looks_for_it(
    field: str, value: object, where: str
) -> None:
    base = scene(**MID_HAND)
    changed = scene(**{**MID_HAND, field: value})
    height = picture_size(4)[1]
    top, bottom = (0, 180) if where == "header" else (height - 96, height)
    assert region(render_table(base).png, top, bottom) != region(
        render_table(changed).png, top, bottom
    )
    assert region(render_table(base).png, 180, height - 96) == region(
        render_table(changed).png, 180, height - 96
    )


def test_a_hidden_declaration_shows_no_suit() -> None:
    def dealt(trump: Suit) -> bytes:
        return render_table(
            scene(trump=trump, trump_hidden=True, trick=[], winner=None, dealing=True,
                  declaration=DeclarationInfo(1, ()))
        ).png

    assert dealt(Suit.SPADES) == dealt(Suit.HEARTS)


def test_a_scene_without_the_new_fields_still_renders() -> None:
    rendered = render_table(TableScene(seats(4), Rank.TWO))
    assert rendered.alt_text.startswith("Trump: no trump, Level: 2. Attackers' points: 0. ")


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("count", range(2, 9), ids=lambda n: f"{n}-seats")
def test_no_play_covers_another_play_or_a_plate(count: int) -> None:
    layout = _layout(count)
    half = layout.card_height / 2
    plays = [(s.left, s.y - half, s.right, s.y + half) for s in layout.spots]
    for seat, play in enumerate(plays):
        others = [p for k, p in enumerate(plays) if k != seat] + list(layout.plates)
        assert not any(overlaps(play, other) for other in others), seat
        assert play[0] >= 0 and play[2] <= WIDTH
    assert all(plate[2] - plate[0] == PLATE_SIZE[0] for plate in layout.plates)


@pytest.mark.parametrize(
    "changes",
    [
        {"seats": seats(1)},
        {"seats": seats(9)},
        {"trick": [(4, parse_cards("AS"))], "winner": None},
        {"trick": [(0, parse_cards("AS")), (0, parse_cards("KS"))], "winner": 0},
        {"trick": [(0, parse_cards("AS"))], "winner": 2},
        {"seats": [SeatInfo("A", -1)] * 4},
        {"previous_trick": [(5, parse_cards("AS"))]},
        {"previous_trick": [(1, parse_cards("AS"))], "previous_winner": 2},
        {"levels": (Rank.TWO, Rank.TWO), "defenders": 2},
        {"point_cards": parse_cards("KS QS")},
        {"declaration": DeclarationInfo(7, ())},
        {"cards_to_deal": -1},
    ],
    ids=[
        "one-seat",
        "nine-seats",
        "seat-out-of-range",
        "seat-plays-twice",
        "winner-not-in-trick",
        "negative-cards-left",
        "previous-trick-seat-out-of-range",
        "previous-winner-not-in-it",
        "no-such-defending-team",
        "point-cards-without-points",
        "declaration-by-no-seat",
        "negative-cards-to-deal",
    ],
)
def test_an_impossible_scene_is_a_render_error(changes: dict[str, object]) -> None:
    with pytest.raises(RenderError):
        render_table(scene(**changes))  # type: ignore[arg-type]


def test_same_scene_gives_the_same_bytes() -> None:
    assert render_table(scene(**MID_HAND)) == render_table(scene(**MID_HAND))


CHINESE = Labels(
    trump="主牌", level="级", points="攻方得分", team="队", defending="守方", attacking="攻方",
    point_cards="分牌", hand_number="第 {n} 局", last_trick="上一轮", won_by="赢家",
    dealer_badge="庄", cards_left="{n} 张", dealer="庄家", to_play="出牌", trick="本轮",
    winning="最大",
)


def test_every_word_comes_from_the_labels() -> None:
    rendered = render_table(scene(**MID_HAND), labels=CHINESE)
    assert rendered.alt_text.startswith(
        "第 4 局. 主牌: ♥, 级: 5. 队 1+3 (守方): 级 5; 队 2+4 (攻方): 级 J. "
        "攻方得分: 35 (分牌: ♦K ♣10 ♠5). 本轮: Player 0 ♠A ♠A ♠K ♠K. 最大: Player 0. "
        "上一轮: Player 2 ♣Q; Player 3 ♣K; Player 0 ♣3. 赢家: Player 3. "
        "Player 0 (24 张, 庄家)"
    )


def test_a_dealer_badge_in_hanzi_is_drawn() -> None:
    def badge(text: str) -> bytes:
        return render_table(scene(), labels=replace(ENGLISH, dealer_badge=text)).png

    assert badge("庄") != badge("") != badge("D")


def test_the_game_state_survives_the_alt_text_limit() -> None:
    long_names = seats(6, [f"{i + 1}. {'Bartholomew ' * 8}" for i in range(6)])
    trick = [(seat, parse_cards("QD QD JD JD 10D 10D")) for seat in range(6)]
    rendered = render_table(
        scene(6, seats=long_names, trick=trick, winner=1, previous_trick=trick,
              previous_winner=2, levels=(Rank.FIVE, Rank.SIX), defenders=0)
    )
    assert len(rendered.alt_text) <= ALT_TEXT_LIMIT
    assert "Team 1+3+5 (defending): Level 5; Team 2+4+6 (attacking): Level 6." in (
        rendered.alt_text
    )
    assert "Last trick: 1. Bartholomew" in rendered.alt_text


# -- levels by player, sides, friends and bids (find-friends, three-bid) ----------------

LEVELS = (Rank.TWO, Rank.FIVE, Rank.NINE, Rank.JACK, Rank.ACE, Rank.KING)


def by_player(count: int, **changes: object) -> TableScene:
    """Levels by player: seat 0 deals and defends, the others' sides not yet known."""
    infos = [SeatInfo(f"{i + 1}. Player", 20, is_dealer=i == 0, level=LEVELS[i],
                      side=Side.DEFENDING if i == 0 else None) for i in range(count)]
    return scene(count, **{"seats": infos, "calls": [CallInfo(parse_cards("AS")[0], 2)],
                           **changes})


def plate_boxes(count: int) -> list[tuple[int, int, int, int]]:
    """Each seat's plate as the PNG shows it: what changes when that seat is to play (its
    gold frame and the words "to play")."""
    base = by_player(count, trick=[], winner=None)
    idle = pixels(render_table(base).png)
    boxes = []
    for seat in range(count):
        infos = [replace(info, is_turn=k == seat) for k, info in enumerate(base.seats)]
        turn = pixels(render_table(replace(base, seats=infos)).png)
        box = ImageChops.difference(idle, turn).getbbox()
        assert box is not None, seat
        boxes.append(box)
    return boxes


@pytest.mark.parametrize("count", [3, 4, 5, 6], ids=lambda n: f"{n}-seats")
def test_seat_plates_do_not_overlap_in_the_picture(count: int) -> None:
    boxes = plate_boxes(count)
    width, height = picture_size(count)
    for seat, box in enumerate(boxes):
        assert box[0] >= 0 and box[2] <= width and box[1] >= 180 and box[3] <= height - 96
        assert not any(overlaps(box, other) for k, other in enumerate(boxes) if k != seat)
    # seat 0 at the bottom, the next seats up the right side
    assert max(box[3] for box in boxes) == boxes[0][3]
    assert boxes[1][0] > boxes[0][0]


@pytest.mark.parametrize("count", [3, 5, 6], ids=lambda n: f"{n}-seats")
def test_the_alt_text_names_each_seats_own_level(count: int) -> None:
    rendered = render_table(by_player(count))
    assert pixels(rendered.png).size == picture_size(count)
    for seat in range(count):
        assert f"{seat + 1}. Player (20 cards, Level {LEVELS[seat].label}" in rendered.alt_text
    assert "Team" not in rendered.alt_text


def test_a_seats_level_is_drawn_on_its_plate() -> None:
    lower = by_player(5)
    higher = replace(lower, seats=[replace(lower.seats[3], level=Rank.QUEEN)
                                   if k == 3 else info for k, info in enumerate(lower.seats)])
    box = plate_boxes(5)[3]
    diff = ImageChops.difference(pixels(render_table(lower).png),
                                 pixels(render_table(higher).png)).getbbox()
    assert diff is not None and overlaps(diff, box)


def bar_colour(rendered_png: bytes, box: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """The colour of a plate's side bar (its left edge, half way down)."""
    x0, y0, _, y1 = box
    return pixels(rendered_png).getpixel((x0 + 5 + 5, (y0 + y1) // 2))  # type: ignore[return-value]


def near(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(abs(p - q) <= 24 for p, q in zip(a, b, strict=True))


def test_sides_are_coloured_once_known_and_unknown_seats_stay_neutral() -> None:
    base = by_player(5, trick=[], winner=None)
    boxes = plate_boxes(5)
    known = replace(base, seats=[
        replace(info, side=Side.DEFENDING if k in (0, 2) else Side.ATTACKING,
                is_friend=k == 2) for k, info in enumerate(base.seats)])
    before, after = render_table(base).png, render_table(known).png
    assert near(bar_colour(before, boxes[0]), DEFENDING_COLOUR)
    assert all(near(bar_colour(before, boxes[k]), UNKNOWN_COLOUR) for k in (1, 2, 3, 4))
    assert near(bar_colour(after, boxes[2]), DEFENDING_COLOUR)
    assert all(near(bar_colour(after, boxes[k]), ATTACKING_COLOUR) for k in (1, 3, 4))
    assert "3. Player (20 cards, Level 9, Friend, defending)" in render_table(known).alt_text


@pytest.mark.parametrize(
    ("calls", "said"),
    [([CallInfo(parse_cards("AS")[0], 2)], "Calls: 2nd ♠A (friend unknown)."),
     ([CallInfo(parse_cards("AS")[0], 1, 3), CallInfo(parse_cards("KH")[0], 3)],
      "Calls: 1st ♠A: 4. Player; 3rd ♥K (friend unknown)."),
     ([CallInfo(parse_cards("BJ")[0], 4)], "Calls: 4th BJ (friend unknown).")],
    ids=["one-unknown", "one-found-one-not", "fourth-copy"])
def test_the_calls_are_shown_with_the_friend_or_friend_unknown(calls: list[CallInfo],
                                                              said: str) -> None:
    rendered = render_table(by_player(6, calls=calls))
    assert said in rendered.alt_text
    other = render_table(by_player(6, calls=[CallInfo(parse_cards("QD")[0], 1)]))
    header = (0, 0, WIDTH, 180)
    assert pixels(rendered.png).crop(header) != pixels(other.png).crop(header)


@pytest.mark.parametrize(
    ("bid", "said"),
    [(BidInfo(None, standing=True), "No bid yet."),
     (BidInfo(85, 1, standing=True), "Lowest bid: 85 (2. Player)."),
     (BidInfo(80, 2), "Bid: 80 (3. Player).")],
    ids=["nobody-yet", "standing", "the-hands-bid"])
def test_three_bid_shows_the_bid(bid: BidInfo, said: str) -> None:
    rendered = render_table(by_player(3, calls=[], bid=bid, level=None, trump_hidden=True))
    assert said in rendered.alt_text
    assert rendered.alt_text.startswith("Trump: ? (hidden). ")
    # nobody attacks while the bidding goes on: no attackers' points until the bid is won
    assert ("Attackers' points" in rendered.alt_text) == (not bid.standing)


@pytest.mark.parametrize(
    "changes",
    [{"calls": [CallInfo(parse_cards("AS")[0], 1, 5)]},
     {"calls": [CallInfo(parse_cards("AS")[0], 0)]},
     {"bid": BidInfo(85, 3)}],
    ids=["call-answered-by-no-seat", "call-of-copy-0", "bid-by-no-seat"])
def test_an_impossible_call_or_bid_is_a_render_error(changes: dict[str, object]) -> None:
    with pytest.raises(RenderError):
        render_table(by_player(3, **changes))


@pytest.mark.parametrize("count", [3, 5, 6], ids=lambda n: f"{n}-seats")
def test_the_seat_at_the_bottom_turns_the_table(count: int) -> None:
    boxes = plate_boxes(count)
    base = by_player(count, trick=[], winner=None)
    idle = pixels(render_table(replace(base, bottom=2)).png)
    for seat in range(count):
        infos = [replace(info, is_turn=k == seat) for k, info in enumerate(base.seats)]
        turn = pixels(render_table(replace(base, seats=infos, bottom=2)).png)
        assert ImageChops.difference(idle, turn).getbbox() == boxes[(seat - 2) % count]


def test_a_call_still_to_make_is_said() -> None:
    rendered = render_table(by_player(5, calls=[], calls_pending=True))
    assert "No friend called yet." in rendered.alt_text
    with pytest.raises(RenderError):
        render_table(by_player(5, bottom=5))


def a_trick_played_out(count: int) -> list[TableScene]:
    """A table as it changes play by play: a throw of eight cards per seat (a winning
    play's star then reaches its neighbour's cards), the turn moving on, the points rising
    as the lead changes hands, then the next trick led; levels by player at odd counts."""
    fixed = count % 2 == 0
    states = []
    for played in range(count + 2):
        trick = [(seat, parse_cards("QD QD JD JD 10D 10D 9D 9D")) for seat in range(played)]
        if played > count:  # the next trick's lead
            trick = [(count - 1, parse_cards("AS"))]
        turn = played % count
        plates = [SeatInfo(f"Player {i}", 25 - (i < played), is_dealer=i == 0,
                           is_turn=i == turn, team=i % 2 if fixed else None,
                           level=None if fixed else Rank.FIVE,
                           side=Side.DEFENDING if not fixed and i == 0 else None)
                  for i in range(count)]
        states.append(TableScene(
            plates, Rank.FIVE, Suit.HEARTS, trick=trick, winner=trick[-1][0] if trick else None,
            attacker_points=5 * played, point_cards=parse_cards("5D") * min(played, 4),
            levels=(Rank.FIVE, Rank.JACK) if fixed else (), defenders=0 if fixed else None,
            calls=() if fixed else (CallInfo(parse_cards("AS")[0], 1),),
            previous_trick=[(1, parse_cards("QC"))] if played > count else (),
            previous_winner=1 if played > count else None, hand_number=3))
    return states


def other_tables() -> list[tuple[TableScene, bool, Labels]]:
    """Scenes of every header: dealing with and without a declaration, three-bid's
    bidding, a hidden trump, a turned table, in Chinese and with four-colour cards."""
    dealing = {"trick": [], "winner": None, "dealing": True, "cards_to_deal": 38}
    return [
        (scene(declaration=DeclarationInfo(2, parse_cards("5H 5H")), **dealing), False, ENGLISH),
        (scene(trump_hidden=True, **dealing), True, CHINESE),
        (scene(3, bid=BidInfo(85, 0, standing=True), trump_hidden=True, trick=[], winner=None),
         False, ENGLISH),
        (scene(5, bottom=3, **MID_HAND), True, CHINESE),
        (scene(6, trump=Colour.RED, **MID_HAND), False, ENGLISH),
    ]


def clear_table_caches() -> None:
    for cached in (table._header_tile, table._plays_tile, table._plate_sprite,
                   table._previous_tile):
        cached.cache_clear()


def drawn_whole(scene: TableScene, four_colour: bool = False,
                labels: Labels = ENGLISH) -> bytes:
    """The picture drawn in one piece, without the cached parts."""
    return encode(table._draw(scene, four_colour, labels), "", table._palette()).png


@pytest.mark.parametrize("count", range(3, 7), ids=lambda n: f"{n}-seats")
def test_a_table_from_cached_parts_is_the_table_drawn_whole(count: int) -> None:
    for state in a_trick_played_out(count):
        assert render_table(state).png == drawn_whole(state)
    for state, four_colour, labels in other_tables():
        rendered = render_table(state, four_colour=four_colour, labels=labels)
        assert rendered.png == drawn_whole(state, four_colour, labels)


def test_tables_rendered_in_a_row_are_the_tables_rendered_alone() -> None:
    states = [s for count in (4, 6, 5) for s in a_trick_played_out(count)]
    in_a_row = [render_table(state).png for state in states]
    alone = []
    for state in states:
        clear_table_caches()
        alone.append(render_table(state).png)
    assert in_a_row == alone
    assert len(set(in_a_row)) == len(in_a_row)  # every state its own picture
