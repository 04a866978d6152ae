"""Trump order and effective suits (RULES.md §1 "Trump order", §3 "Order", §4 red-black).

A card is only ever ordered together with a :class:`TrumpContext`: the level rank, the
trump suit (or none), the permanent-trump ranks of the preset and its suit system
(four suits, or two colour suits in ``red-black``). The context precomputes three
tables indexed by ``Card.index``:

* ``eff``: the effective suit, ``TRUMP`` for every trump, else the side suit's number;
* ``strength``: a dense rank inside the effective suit; adjacent numbers are adjacent
  cards (so tractors are runs of consecutive strengths), equal numbers are equal cards;
* ``ident``: which cards are "identical" for pairs (same rank and same printed suit, or
  in red-black the same rank and colour).

``tiers`` lists each effective suit's cards by strength (weakest first), and
``ident_tiers`` the same with the cards of one strength grouped by ident.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from engine.cards import ALL_CARDS, BIG_JOKER, PLAIN_RANKS, SMALL_JOKER, SUITS, Card, Rank, Suit

#: The effective suit of every trump card.
TRUMP = 4


class Colour(enum.Enum):
    """The two suits of the ``red-black`` preset."""

    BLACK = "black"
    RED = "red"

    @property
    def symbol(self) -> str:
        return "♠♣" if self is Colour.BLACK else "♥♦"


TrumpSuit = Suit | Colour


class SuitSystem(enum.Enum):
    STANDARD = "standard"  # four suits
    RED_BLACK = "red_black"  # hearts+diamonds are one suit, spades+clubs another

    def base_suit(self, suit: Suit) -> int:
        """The number of the suit a printed suit belongs to in this system."""
        if self is SuitSystem.STANDARD:
            return suit.number
        return 1 if suit.is_red else 0

    @property
    def side_suits(self) -> tuple[TrumpSuit, ...]:
        if self is SuitSystem.STANDARD:
            return SUITS
        return (Colour.BLACK, Colour.RED)

    def trump_number(self, trump: TrumpSuit | None) -> int | None:
        if trump is None:
            return None
        if isinstance(trump, Colour):
            if self is not SuitSystem.RED_BLACK:
                raise ValueError("colour trumps exist only in the red-black suit system")
            return 0 if trump is Colour.BLACK else 1
        return self.base_suit(trump)


#: Order of side suits on screen: alternating colours.
_DISPLAY_SUIT_ORDER = {0: 0, 1: 1, 3: 2, 2: 3}


@dataclass(frozen=True)
class TrumpContext:
    """Everything needed to order cards in one hand of play."""

    level: Rank
    trump: TrumpSuit | None
    permanent: frozenset[Rank] = frozenset()
    suits: SuitSystem = SuitSystem.STANDARD
    eff: tuple[int, ...] = field(init=False, repr=False, compare=False)
    strength: tuple[int, ...] = field(init=False, repr=False, compare=False)
    ident: tuple[int, ...] = field(init=False, repr=False, compare=False)
    tiers: dict[int, tuple[tuple[int, ...], ...]] = field(init=False, repr=False, compare=False)
    ident_tiers: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = field(
        init=False, repr=False, compare=False)
    #: Whether each card is its own ident (four suits: only equal cards pair).
    ident_is_card: bool = field(init=False, repr=False, compare=False)
    #: Sort keys, strongest first: by card, and by card index (or ident).
    strongest_first: dict[Card, int] = field(init=False, repr=False, compare=False)
    strongest_first_index: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: The cards of each effective suit: ``filter(suit_cards[s].__contains__, hand)``
    #: picks a suit out of a hand without a Python step per card.
    suit_cards: dict[int, frozenset[Card]] = field(init=False, repr=False, compare=False)
    #: Each suit's idents strongest first where no two share a strength; None where some
    #: do (off-suit level cards): a suit's idents put in order by a filter, not a sort.
    distinct_idents: dict[int, tuple[int, ...] | None] = field(init=False, repr=False,
                                                                compare=False)

    def __post_init__(self) -> None:
        eff = [0] * len(ALL_CARDS)
        strength = [0] * len(ALL_CARDS)
        ident = [0] * len(ALL_CARDS)
        tiers: dict[int, list[tuple[int, ...]]] = {}
        for number, tier_list in self._build_tiers().items():
            tiers[number] = []
            for s, tier in enumerate(tier_list):
                indices = tuple(card.index for card in tier)
                tiers[number].append(indices)
                for card in tier:
                    eff[card.index] = number
                    strength[card.index] = s
        system = self.suits
        canonical: dict[tuple[Rank, int | None], int] = {}
        for card in ALL_CARDS:
            key = (card.rank, None if card.suit is None else system.base_suit(card.suit))
            ident[card.index] = canonical.setdefault(key, card.index)
        object.__setattr__(self, "eff", tuple(eff))
        object.__setattr__(self, "strength", tuple(strength))
        object.__setattr__(self, "ident", tuple(ident))
        object.__setattr__(self, "tiers", {k: tuple(v) for k, v in tiers.items()})
        grouped: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {}
        for number, index_tiers in self.tiers.items():
            grouped[number] = tuple(
                tuple(tuple(i for i in indices if ident[i] == key)
                      for key in dict.fromkeys(ident[i] for i in indices))
                for indices in index_tiers)
        object.__setattr__(self, "ident_tiers", grouped)
        object.__setattr__(self, "ident_is_card", all(i == k for k, i in enumerate(ident)))
        object.__setattr__(self, "strongest_first_index", tuple(-s for s in strength))
        object.__setattr__(self, "strongest_first",
                           {card: -strength[card.index] for card in ALL_CARDS})
        object.__setattr__(self, "suit_cards", {
            number: frozenset(ALL_CARDS[i] for tier in index_tiers for i in tier)
            for number, index_tiers in self.tiers.items()})
        object.__setattr__(self, "distinct_idents", {
            number: tuple(ident[tier[0][0]] for tier in reversed(tiers))
            if all(len(tier) == 1 for tier in tiers) else None
            for number, tiers in grouped.items()})

    def _build_tiers(self) -> dict[int, list[list[Card]]]:
        """Ascending lists of equal-strength cards, per effective suit."""
        system = self.suits
        trump_number = system.trump_number(self.trump)
        level = self.level
        permanent = sorted(r for r in self.permanent if r != level)
        plain = [r for r in PLAIN_RANKS if r != level and r not in self.permanent]
        numbers = sorted({system.base_suit(s) for s in SUITS})

        def cards_of(rank: Rank, number: int) -> list[Card]:
            return [Card(rank, s) for s in SUITS if system.base_suit(s) == number]

        tiers: dict[int, list[list[Card]]] = {}
        for number in numbers:
            if number != trump_number:
                tiers[number] = [cards_of(r, number) for r in plain]
        trump_tiers: list[list[Card]] = []
        if trump_number is not None:
            trump_tiers += [cards_of(r, trump_number) for r in plain]
        trump_tiers += [[Card(r, s) for s in SUITS] for r in permanent]
        off_level = [c for n in numbers if n != trump_number for c in cards_of(level, n)]
        trump_tiers.append(off_level)  # equal to each other (red-black: one colour, a pair)
        if trump_number is not None:
            trump_tiers.append(cards_of(level, trump_number))
        trump_tiers += [[SMALL_JOKER], [BIG_JOKER]]
        tiers[TRUMP] = trump_tiers
        return tiers

    # -- questions about single cards -------------------------------------------------

    def is_trump(self, card: Card) -> bool:
        return self.eff[card.index] == TRUMP

    def effective_suit(self, card: Card) -> int:
        return self.eff[card.index]

    def same_card(self, a: Card, b: Card) -> bool:
        """Identical for pairs: same rank and printed suit (red-black: same colour)."""
        return self.ident[a.index] == self.ident[b.index]

    def suit_label(self, eff: int) -> str:
        """A human label of an effective suit: "trump", "♠", or "red"."""
        if eff == TRUMP:
            return "trump"
        return str(self.suits.side_suits[eff].symbol if self.suits is SuitSystem.STANDARD
                   else self.suits.side_suits[eff].value)

    # -- sorting for display ------------------------------------------------------------

    def display_key(self, card: Card) -> tuple[int, int, int]:
        """Trumps first, strongest first; then each side suit, ace first."""
        e = self.eff[card.index]
        group = -1 if e == TRUMP else _DISPLAY_SUIT_ORDER.get(e, e)
        suit_number = 4 if card.suit is None else card.suit.number
        return (group, -self.strength[card.index], suit_number)

    def display_group(self, card: Card) -> int:
        """Cards with the same group are shown together (trumps, then each side suit)."""
        return self.display_key(card)[0]

    def sort_for_display(self, cards: Iterable[Card]) -> list[Card]:
        return sorted(cards, key=self.display_key)


@lru_cache(maxsize=512)
def trump_context(level: Rank, trump: TrumpSuit | None, permanent: frozenset[Rank] = frozenset(),
                  suits: SuitSystem = SuitSystem.STANDARD) -> TrumpContext:
    """A shared, cached context (contexts are immutable; building one costs ~0.4 ms)."""
    return TrumpContext(level, trump, permanent, suits)
