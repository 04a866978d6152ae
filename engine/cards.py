"""Cards, decks, points and the card notation of RULES.md §1.

A :class:`Card` is interned: ``Card(Rank.ACE, Suit.SPADES) is Card(Rank.ACE, Suit.SPADES)``,
so identity, equality and hashing are cheap. Every card also has a dense ``index``
(0..53) that the rest of the engine uses for table look-ups. Several decks simply
contain the same card several times. Cards have no order of their own: sort them with
``key=card_index`` (an ``__lt__`` in Python would route every ``==`` between two cards,
in ``list.remove``, ``in`` and tuple comparisons, through a Python-level lookup).
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable
from operator import attrgetter
from typing import ClassVar

from engine.errors import EngineError


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def number(self) -> int:
        return _SUIT_NUMBERS[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_NUMBERS = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class Rank(enum.IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    SMALL_JOKER = 15
    BIG_JOKER = 16

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]

    @property
    def is_joker(self) -> bool:
        return self >= Rank.SMALL_JOKER

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A level rank as written in RULES.md ("2".."10", "T", "J", "Q", "K", "A")."""
        rank = _RANK_BY_LABEL.get(text.strip().upper())
        if rank is None or rank.is_joker:
            raise EngineError("bad_rank", text=text)
        return rank


_RANK_LABELS = {r: str(int(r)) for r in Rank if r <= Rank.TEN}
_RANK_LABELS.update(
    {Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
     Rank.SMALL_JOKER: "SJ", Rank.BIG_JOKER: "BJ"}
)
_RANK_BY_LABEL = {label: rank for rank, label in _RANK_LABELS.items()}
_RANK_BY_LABEL["T"] = Rank.TEN
PLAIN_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if not r.is_joker)


class Card:
    """One playing card. Interned: build with ``Card(rank, suit)`` (suit None for jokers)."""

    __slots__ = ("_text", "index", "points", "rank", "suit")
    _interned: ClassVar[dict[tuple[Rank, Suit | None], Card]] = {}

    rank: Rank
    suit: Suit | None
    index: int
    points: int
    _text: str

    def __new__(cls, rank: Rank, suit: Suit | None = None) -> Card:
        card = cls._interned.get((rank, suit))
        if card is None:
            raise EngineError("bad_card", text=f"{rank.label}{suit.value if suit else ''}",
                              rule="no_such_card")
        return card

    @classmethod
    def _make(cls, rank: Rank, suit: Suit | None, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", index)
        points = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}.get(rank, 0)
        object.__setattr__(card, "points", points)
        text = rank.label if suit is None else rank.label + suit.value
        object.__setattr__(card, "_text", text)
        cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[Rank, Suit | None]]:
        return (Card, (self.rank, self.suit))

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def is_red(self) -> bool:
        """Red cards: hearts, diamonds and the big joker."""
        return self.rank is Rank.BIG_JOKER if self.suit is None else self.suit.is_red

    @property
    def pretty(self) -> str:
        """With a suit symbol: ``♠A``, ``♥10``; jokers stay ``BJ``/``SJ``."""
        return self._text if self.suit is None else self.suit.symbol + self.rank.label

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text})"



def _build_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in SUITS:
        for rank in PLAIN_RANKS:
            cards.append(Card._make(rank, suit, len(cards)))
    cards.append(Card._make(Rank.SMALL_JOKER, None, len(cards)))
    cards.append(Card._make(Rank.BIG_JOKER, None, len(cards)))
    return tuple(cards)


#: Every distinct card, by index: 13 per suit in S H D C order, then SJ (52) and BJ (53).
ALL_CARDS: tuple[Card, ...] = _build_cards()
SMALL_JOKER = ALL_CARDS[52]
BIG_JOKER = ALL_CARDS[53]
POINTS_PER_DECK = 100

#: A card's place in ``ALL_CARDS``, as a sort key.
card_index = attrgetter("index")


def deck(decks: int = 1) -> list[Card]:
    """``decks`` full decks of 54 cards, in index order."""
    return [card for card in ALL_CARDS for _ in range(decks)]


def points(cards: Iterable[Card]) -> int:
    return sum(card.points for card in cards)


_SUIT_BY_TEXT = {s.value: s for s in SUITS} | {s.symbol: s for s in SUITS}
_SUIT_BY_TEXT.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})
_JOKERS = {"BJ": BIG_JOKER, "SJ": SMALL_JOKER}
_TOKEN_SPLIT = re.compile(r"[\s,，、]+")


def typed(text: str) -> str:
    """``text`` as a keyboard may have typed it, made plain: full-width letters and
    digits (Chinese keyboards) as ASCII, and no emoji variation selectors (a phone's
    emoji keyboard types ``♠️``: ``♠`` and U+FE0F)."""
    return unicodedata.normalize("NFKC", text).translate(_NO_VARIATION)


_NO_VARIATION = dict.fromkeys((0xFE0E, 0xFE0F))


def parse_card(token: str) -> Card:
    """One card: ``10H``, ``TH``, ``AS``, ``♠A``, ``A♠``, ``BJ``, ``SJ`` (any case; as
    ``typed`` reads it)."""
    return _card_of(typed(token).strip().upper(), token)


def _card_of(text: str, token: str) -> Card:
    """``parse_card`` of ``text``, made plain and upper case already (``token``: as
    written, for a refusal)."""
    if text in _JOKERS:
        return _JOKERS[text]
    if not text:
        raise EngineError("bad_card", text=token, rule="empty")
    if text[-1] in _SUIT_BY_TEXT:
        suit_text, rank_text = text[-1], text[:-1]
    elif text[0] in _SUIT_BY_TEXT:
        suit_text, rank_text = text[0], text[1:]
    else:
        raise EngineError("bad_card", text=token, rule="suit")
    rank = _RANK_BY_LABEL.get(rank_text)
    if rank is None or rank.is_joker:
        raise EngineError("bad_card", text=token, rule="rank")
    return Card(rank, _SUIT_BY_TEXT[suit_text])


def parse_cards(text: str) -> list[Card]:
    """Cards separated by spaces or commas, in the order written. ``""`` is no cards."""
    # (made plain once for the whole text, not again for each card)
    return [_card_of(token.upper(), token) for token in _TOKEN_SPLIT.split(typed(text).strip())
            if token]


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    return " ".join(card.pretty if pretty else str(card) for card in cards)
