"""Declaring trump during the deal (RULES.md §2 "Declaring trump", §3 "Declaring").

A :class:`Declaration` is parsed from the cards a seat shows; ``can_override`` says
whether it may replace the standing one. Two styles:

* ``level_cards`` (classic): n identical level cards make their suit trump; a pair (or
  more) of identical jokers means no trump. Strength: more cards is stronger, jokers
  beat level cards, big jokers beat small ones.
* ``joker_and_pair`` (changzhu): a joker shown plus a face-down pair (亮), a joker pair
  plus a pair (顶), a joker plus a tractor (粘亮), a joker pair plus a tractor (粘顶).
  Only a strictly higher tier overrides; a stick (粘) is followed by a 回牌.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Rank, Suit
from engine.errors import EngineError
from engine.order import Colour, SuitSystem, TrumpSuit, trump_context
from engine.rules import DeclarationStyle, Ruleset

#: changzhu declaration kinds, by tier: a declaration overrides only a lower tier.
CHANGZHU_TIERS = {"plain": 1, "top": 2, "stick": 2, "stick_top": 3}


@dataclass(frozen=True)
class Declaration:
    seat: int
    cards: tuple[Card, ...]
    trump: TrumpSuit | None  # None: no trump suit
    kind: str  # level, jokers | plain, top, stick, stick_top
    strength: tuple[int, ...]

    @property
    def jokers(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.is_joker)

    @property
    def is_stick(self) -> bool:
        return self.kind in ("stick", "stick_top")

    def shown(self, hidden: bool) -> tuple[Card, ...]:
        """The cards the whole table sees face up: changzhu shows the jokers only (the
        pairs lie face down), a hidden suit shows nothing; otherwise all of them."""
        if self.kind in CHANGZHU_TIERS:
            return self.jokers
        return () if hidden else self.cards


def trump_of_card(card: Card, suits: SuitSystem) -> TrumpSuit:
    assert card.suit is not None
    if suits is SuitSystem.RED_BLACK:
        return Colour.RED if card.suit.is_red else Colour.BLACK
    return card.suit


def parse_declaration(seat: int, cards: Sequence[Card], level: Rank, rules: Ruleset
                      ) -> Declaration:
    if not cards:
        raise EngineError("bad_declaration", rule="no_cards")
    if rules.declaration is DeclarationStyle.JOKER_AND_PAIR:
        return _parse_changzhu(seat, cards, level, rules)
    return _parse_level_cards(seat, cards, level, rules)


def _parse_level_cards(seat: int, cards: Sequence[Card], level: Rank, rules: Ruleset
                       ) -> Declaration:
    ctx = trump_context(level, None, suits=rules.suits)
    first = cards[0]
    if any(not ctx.same_card(c, first) for c in cards):
        raise EngineError("bad_declaration", rule="not_identical", level=level.label)
    n = len(cards)
    if first.is_joker:
        if n < 2:
            raise EngineError("bad_declaration", rule="single_joker", level=level.label)
        return Declaration(seat, tuple(cards), None, "jokers",
                           (1, n, int(first.rank is Rank.BIG_JOKER)))
    if first.rank != level:
        raise EngineError("bad_declaration", rule="not_level", level=level.label)
    return Declaration(seat, tuple(cards), trump_of_card(first, rules.suits), "level",
                       (0, n, 0))


def _parse_changzhu(seat: int, cards: Sequence[Card], level: Rank, rules: Ruleset
                    ) -> Declaration:
    jokers = [c for c in cards if c.is_joker]
    rest = [c for c in cards if not c.is_joker]
    if len(jokers) not in (1, 2) or (len(jokers) == 2 and jokers[0] is not jokers[1]):
        raise EngineError("bad_declaration", rule="joker_and_pair")
    suits = {c.suit for c in rest}
    if len(suits) != 1 or len(rest) not in (2, 4):
        raise EngineError("bad_declaration", rule="joker_and_pair")
    suit = rest[0].suit
    assert isinstance(suit, Suit)
    counts = Counter(rest)
    if any(n != 2 for n in counts.values()):
        raise EngineError("bad_declaration", rule="joker_and_pair")
    if len(rest) == 4:
        ctx = trump_context(level, suit, frozenset(rules.permanent_trumps))
        a, b = sorted(ctx.strength[c.index] for c in counts)
        if not (ctx.is_trump(rest[0]) and all(ctx.is_trump(c) for c in rest) and b == a + 1):
            raise EngineError("bad_declaration", rule="stick", suit=suit.value)
    double = len(jokers) == 2
    kind = {(False, 2): "plain", (True, 2): "top", (False, 4): "stick",
            (True, 4): "stick_top"}[(double, len(rest))]
    return Declaration(seat, tuple(cards), suit, kind, (CHANGZHU_TIERS[kind],))


def check_override(new: Declaration, standing: Declaration | None, rules: Ruleset) -> None:
    """Refuse ``new`` unless it may replace ``standing`` (RULES §2, §3)."""
    if standing is None:
        return
    if standing.seat == new.seat:
        if not rules.reinforce or rules.wait_to_die:
            raise EngineError("no_reinforce")
        if new.trump != standing.trump:
            raise EngineError("reinforce_same_suit")
        if rules.declaration is DeclarationStyle.JOKER_AND_PAIR:
            _check_changzhu_reinforce(new, standing)
        elif len(new.cards) <= len(standing.cards) or new.kind != standing.kind:
            raise EngineError("reinforce_more", rule="more_cards")
        return
    if new.strength <= standing.strength:
        raise EngineError("too_weak", seat=standing.seat, declaration=standing.kind,
                          size=len(standing.cards), shown=standing.shown(hidden=True))


def _check_changzhu_reinforce(new: Declaration, standing: Declaration) -> None:
    old_rest = Counter(c for c in standing.cards if not c.is_joker)
    new_rest = Counter(c for c in new.cards if not c.is_joker)
    if old_rest != new_rest or len(new.jokers) != 2 or len(standing.jokers) != 1 \
            or new.jokers[0] is not standing.jokers[0]:
        raise EngineError("reinforce_more", rule="second_joker")
