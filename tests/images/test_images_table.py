"""The table picture: seats, names in any script, trick, trump display (images/table.py)."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

from engine.cards import Rank, Suit, parse_cards
from engine.order import Colour
from images import RenderError, SeatInfo, TableScene, render_table
from images.canvas import ALT_TEXT_LIMIT
from images.table import HEIGHT, WIDTH


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
    assert pixels(rendered.png).size == (WIDTH, HEIGHT) == (rendered.width, rendered.height)
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
    assert pixels(rendered.png).size == (WIDTH, HEIGHT)
    assert len(rendered.alt_text) <= ALT_TEXT_LIMIT


def test_chinese_names_are_drawn_with_real_glyphs() -> None:
    def picture(name: str) -> Image.Image:
        return pixels(render_table(scene(seats=seats(4, [name, "B", "C", "D"]))).png)

    chinese, boxes, blank = picture("小明"), picture("□□"), picture("")
    assert ImageChops.difference(chinese, boxes).getbbox() is not None
    assert ImageChops.difference(chinese, blank).getbbox() is not None


@given(st.lists(st.text(max_size=30), min_size=4, max_size=6))
def test_random_names_never_crash(names: list[str]) -> None:
    rendered = render_table(scene(len(names), seats=seats(len(names), names)))
    assert rendered.width == WIDTH


@pytest.mark.parametrize(
    "trump, hidden, expected",
    [
        (Suit.HEARTS, False, "Trump: ♥, Level: 5"),
        (None, False, "Trump: no trump, Level: 5"),
        (Suit.SPADES, True, "Trump: ? (hidden), Level: 5"),
        (Colour.RED, False, "Trump: red, Level: 5"),
    ],
    ids=["suit", "no-trump", "hidden-changzhu", "red-black-colour"],
)
def test_trump_is_shown_as_suit_question_mark_or_no_trump(
    trump: Suit | Colour | None, hidden: bool, expected: str
) -> None:
    rendered = render_table(scene(trump=trump, trump_hidden=hidden))
    assert rendered.alt_text.startswith(expected)


def test_a_hidden_trump_leaves_no_trace_of_the_suit() -> None:
    spades = render_table(scene(trump=Suit.SPADES, trump_hidden=True))
    hearts = render_table(scene(trump=Suit.HEARTS, trump_hidden=True))
    assert spades == hearts


def test_the_winning_play_is_highlighted() -> None:
    trick = [(0, parse_cards("3S")), (1, parse_cards("AS"))]
    first = render_table(scene(trick=trick, winner=0))
    second = render_table(scene(trick=trick, winner=1))
    assert first.png != second.png
    assert first.alt_text.endswith("winning: Player 0.")


def test_alt_text_names_seats_trick_and_points() -> None:
    rendered = render_table(scene(title="Table 3"))
    assert rendered.alt_text == (
        "Table 3. Trump: ♥, Level: 5, Attackers' points: 35. "
        "Player 0 (24 cards, Dealer); Player 1 (25 cards, to play); Player 2 (25 cards); "
        "Player 3 (25 cards). Trick: Player 0 ♠A ♠A ♠K ♠K. winning: Player 0."
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"seats": seats(1)},
        {"seats": seats(9)},
        {"trick": [(4, parse_cards("AS"))], "winner": None},
        {"trick": [(0, parse_cards("AS")), (0, parse_cards("KS"))], "winner": 0},
        {"trick": [(0, parse_cards("AS"))], "winner": 2},
        {"seats": [SeatInfo("A", -1)] * 4},
    ],
    ids=[
        "one-seat",
        "nine-seats",
        "seat-out-of-range",
        "seat-plays-twice",
        "winner-not-in-trick",
        "negative-cards-left",
    ],
)
def test_an_impossible_scene_is_a_render_error(changes: dict[str, object]) -> None:
    with pytest.raises(RenderError):
        render_table(scene(**changes))  # type: ignore[arg-type]


def test_same_scene_gives_the_same_bytes() -> None:
    assert render_table(scene()) == render_table(scene())
