import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    ALL_CARDS,
    Card,
    Rank,
    Suit,
    deck,
    format_cards,
    parse_card,
    parse_cards,
    points,
)
from engine.errors import EngineError


@pytest.mark.parametrize(
    "text, expected",
    [("10H", "10H"), ("th", "10H"), ("AS", "AS"), ("♠A", "AS"), ("a♥", "AH"), ("bj", "BJ"),
     ("SJ", "SJ"), ("2c", "2C"), ("Q♦", "QD")],
    ids=lambda v: str(v),
)
def test_card_notation(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize(
    "text, rule",
    [("1S", "rank"), ("10X", "suit"), ("11H", "rank"), ("", "empty")],
)
def test_bad_card_says_what_is_wrong(text: str, rule: str) -> None:
    with pytest.raises(EngineError) as info:
        parse_card(text)
    assert info.value.code == "bad_card"
    assert info.value.params == {"text": text, "rule": rule}


def test_cards_separated_by_spaces_and_commas() -> None:
    assert format_cards(parse_cards("AS, AS KS,10h")) == "AS AS KS 10H"


@pytest.mark.parametrize(
    "text, expected",
    [("♠\ufe0fA A♥\ufe0f", "AS AH"),  # a phone's emoji keyboard: ♠️ is ♠ and U+FE0F
     ("♦\ufe0eK ♦\ufe0fK", "KD KD"),
     ("ＡＳ　１０Ｈ，ｋｓ", "AS 10H KS"),  # full-width, as a Chinese keyboard types them
     ("ＢＪ ｓｊ", "BJ SJ")],
    ids=["emoji", "text-style", "full-width", "full-width-jokers"],
)
def test_cards_as_phone_and_chinese_keyboards_type_them(text: str, expected: str) -> None:
    """Was: ``♠️A`` was "not a card" (its invisible variation selector), and so was
    ``ＡＳ``, though the refusal suggested what the player had typed."""
    assert format_cards(parse_cards(text)) == expected
    assert str(parse_card(text.split()[0])) == expected.split()[0]


def test_a_deck_has_100_points_and_54_cards() -> None:
    assert len(deck(1)) == 54 and points(deck(1)) == 100
    assert points(deck(3)) == 300


def test_cards_are_interned_and_ordered_by_index() -> None:
    assert Card(Rank.ACE, Suit.SPADES) is parse_card("AS")
    assert [c.index for c in ALL_CARDS] == list(range(54))


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=30), st.booleans())
def test_parse_of_format_is_identity(cards: list[Card], pretty: bool) -> None:
    assert parse_cards(format_cards(cards, pretty=pretty)) == cards
