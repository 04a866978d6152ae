"""The hand picture: order, numbering, marks, rows, determinism (images/hand.py)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from engine.cards import Card, Rank, Suit, card_index, deck, parse_cards
from engine.order import Colour, SuitSystem, TrumpContext
from images import RenderError, display_order, hand, render_hand
from images import cards as faces
from images.canvas import ALT_TEXT_LIMIT, ENGLISH, encode
from images.hand import CARD_HEIGHT, CARD_WIDTH, MAX_WIDTH, NUMBER_AREA, RAISE

HEARTS_5 = TrumpContext(Rank.FIVE, Suit.HEARTS)
HEARTS_2 = TrumpContext(Rank.TWO, Suit.HEARTS)
CHANGZHU = TrumpContext(
    Rank.SEVEN, Suit.SPADES, permanent=frozenset({Rank.TWO, Rank.THREE, Rank.FIVE})
)
RED_BLACK = TrumpContext(Rank.TEN, Colour.RED, suits=SuitSystem.RED_BLACK)


def dealt(decks: int, count: int, seed: int) -> list[Card]:
    cards = deck(decks)
    random.Random(seed).shuffle(cards)
    return cards[:count]


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def changed_box(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(pixels(a), pixels(b)).getbbox()


def test_every_hand_size_renders_within_limits() -> None:
    heights = []
    for count in [*range(53), 60, 120]:
        cards = dealt(4, count, seed=count)
        rendered, order = render_hand(cards, HEARTS_5)
        image = pixels(rendered.png)
        assert image.size == (rendered.width, rendered.height)
        assert rendered.width <= MAX_WIDTH
        assert sorted(order, key=card_index) == sorted(cards, key=card_index)
        assert len(rendered.alt_text) <= ALT_TEXT_LIMIT
        assert len(rendered.png) < 300 * 1024
        heights.append(rendered.height)
    assert heights == sorted(heights), "more cards never make fewer rows"
    assert heights[52] >= heights[1] + 2 * (RAISE + CARD_HEIGHT), "52 cards wrap to 3+ rows"


def test_too_many_cards_is_a_render_error() -> None:
    with pytest.raises(RenderError):
        render_hand(dealt(4, 121, seed=1), None)


@pytest.mark.parametrize(
    "ctx",
    [HEARTS_5, CHANGZHU, RED_BLACK, TrumpContext(Rank.ACE, None)],
    ids=["classic", "changzhu", "red-black", "no-trump"],
)
def test_order_is_the_engines_display_order(ctx: TrumpContext) -> None:
    cards = dealt(2, 26, seed=7)
    _, order = render_hand(cards, ctx)
    assert order == ctx.sort_for_display(cards)


def test_without_context_jokers_then_suits_ace_first() -> None:
    _, order = render_hand(parse_cards("2D AS SJ KH 3C BJ AD 10S"), None)
    assert " ".join(map(str, order)) == "BJ SJ AS 10S KH 3C AD 2D"


@pytest.mark.parametrize(
    "cards, ctx, expected",
    [
        ("AS KS 2H BJ", HEARTS_2, "Hand (4 cards). Trumps: BJ ♥2; ♠: A K."),
        ("AS KS 2H BJ", None, "Hand (4 cards). Jokers: BJ; ♠: A K; ♥: 2."),
        ("AS KC 10D 10H 4H", RED_BLACK, "Hand (5 cards). Trumps: ♥10 ♦10 ♥4; black: ♠A ♣K."),
        ("5S 5D 2C 7S 7H AH", CHANGZHU, "Hand (6 cards). Trumps: ♠7 ♥7 ♠5 ♦5 ♣2; ♥: A."),
        ("", HEARTS_5, "Hand (0 cards). no cards"),
    ],
    ids=["trumps-first", "no-context", "red-black-colours", "changzhu-permanent", "empty"],
)
def test_alt_text_lists_groups_in_display_order(
    cards: str, ctx: TrumpContext | None, expected: str
) -> None:
    rendered, _ = render_hand(parse_cards(cards), ctx)
    assert rendered.alt_text == expected


def test_index_numbers_follow_the_returned_order() -> None:
    """Selecting the k-th returned card changes the picture at the k-th place, reading
    left to right and row by row."""
    cards = dealt(1, 30, seed=3)  # one deck: every card is distinct
    plain, order = render_hand(cards, HEARTS_5)
    places = []
    for card in order:
        marked, again = render_hand(cards, HEARTS_5, selected=[card])
        assert again == order
        box = changed_box(plain.png, marked.png)
        assert box is not None
        places.append((box[1], box[0]))
    assert places == sorted(places)
    assert len(set(places)) == len(places)


@pytest.mark.parametrize("mark", ["selected", "unplayable", "new"])
def test_a_mark_changes_only_that_cards_area(mark: str) -> None:
    cards = dealt(2, 25, seed=5)
    plain, order = render_hand(cards, HEARTS_5)
    selected_box = changed_box(plain.png, render_hand(cards, HEARTS_5, selected=[order[6]])[0].png)
    marked = render_hand(cards, HEARTS_5, **{mark: [order[6]]})[0]  # type: ignore[arg-type]
    box = changed_box(plain.png, marked.png)
    assert box is not None and selected_box is not None
    assert box[2] - box[0] <= CARD_WIDTH
    assert box[3] - box[1] <= RAISE + CARD_HEIGHT + NUMBER_AREA
    left, _, right, bottom = selected_box
    assert left <= box[0] and box[2] <= right and bottom >= box[3], "inside the card's slot"


def test_marks_count_copies_of_the_same_card() -> None:
    cards = parse_cards("AS AS KS")
    once = render_hand(cards, HEARTS_5, selected=parse_cards("AS"))[0]
    twice = render_hand(cards, HEARTS_5, selected=parse_cards("AS AS"))[0]
    assert once.alt_text.endswith("Selected: 1 ♠A.")
    assert twice.alt_text.endswith("Selected: 1 ♠A, 2 ♠A.")


@pytest.mark.parametrize(
    "marks",
    [{"selected": "QH"}, {"unplayable": "AS AS AS"}, {"new": "BJ"}],
    ids=["selected-card-not-held", "more-copies-than-held", "new-card-not-held"],
)
def test_marking_a_card_not_in_the_hand_is_a_render_error(marks: dict[str, str]) -> None:
    with pytest.raises(RenderError):
        render_hand(
            parse_cards("AS AS KS"),
            HEARTS_5,
            **{k: parse_cards(v) for k, v in marks.items()},  # type: ignore[arg-type]
        )


@pytest.mark.parametrize(
    "cards, changes",
    [("AS KH QS BJ SJ", False), ("AS AD", True), ("KC", True)],
    ids=["spades-hearts-jokers-keep-colours", "diamonds-turn-blue", "clubs-turn-green"],
)
def test_four_colours_repaint_only_diamonds_and_clubs(cards: str, changes: bool) -> None:
    two = render_hand(parse_cards(cards), None)[0]
    four = render_hand(parse_cards(cards), None, four_colour=True)[0]
    assert (two.png != four.png) is changes


def test_same_hand_gives_the_same_bytes_even_with_cold_caches() -> None:
    cards = dealt(3, 39, seed=11)
    first = render_hand(cards, CHANGZHU, selected=cards[:2], new=cards[5:6])[0]
    faces.card_face.cache_clear()
    faces.suit_icon.cache_clear()
    second = render_hand(cards, CHANGZHU, selected=cards[:2], new=cards[5:6])[0]
    assert first == second


def hands_as_played(decks: int, count: int, seed: int) -> list[dict[str, object]]:
    """A hand as a player sees it change: cards dealt (the new ones dotted), cards picked
    (raised, the others maybe unplayable), cards played away; in two and four colours."""
    cards = dealt(decks, count, seed)
    order = HEARTS_5.sort_for_display(cards)
    states: list[dict[str, object]] = [{"cards": cards[:n], "new": cards[n - 3:n]}
                                       for n in (5, count // 2, count)]
    for picked in (1, 2, 5):
        states.append({"cards": cards, "selected": order[2:2 + picked],
                       "unplayable": order[10:]})
    states.append({"cards": cards, "selected": order[::4], "four_colour": True})
    held = list(order)
    for played in (order[0], order[7], order[-1]):
        held.remove(played)
        states.append({"cards": list(held)})
    return states


def render(state: dict[str, object]) -> bytes:
    return render_hand(ctx=HEARTS_5, **state)[0].png  # type: ignore[arg-type]


def drawn_whole(state: dict[str, object]) -> bytes:
    """The hand drawn in one piece, without the cached columns."""
    marks = {k: state.get(k, ()) for k in ("selected", "unplayable", "new")}
    order = display_order(state["cards"], HEARTS_5)  # type: ignore[arg-type]
    slots = hand._mark(order, HEARTS_5, **marks)  # type: ignore[arg-type]
    image = hand._draw(slots, bool(state.get("four_colour")), ENGLISH)
    return encode(image, "", hand._palette()).png


@pytest.mark.parametrize("decks, count", [(2, 25), (3, 33), (4, 60)],
                         ids=["two-decks", "six-seats-with-kitty", "four-decks-with-kitty"])
def test_a_hand_from_cached_columns_is_the_hand_drawn_whole(decks: int, count: int) -> None:
    for state in hands_as_played(decks, count, seed=count):
        assert render(state) == drawn_whole(state)


def test_hands_rendered_in_a_row_are_the_hands_rendered_alone() -> None:
    states = hands_as_played(4, 60, seed=3) + hands_as_played(2, 25, seed=4)
    in_a_row = [render(state) for state in states]
    alone = []
    for state in states:
        hand._cards_tile.cache_clear()
        hand._number_tile.cache_clear()
        alone.append(render(state))
    assert in_a_row == alone
    assert len(set(in_a_row)) == len(in_a_row)  # every state its own picture
