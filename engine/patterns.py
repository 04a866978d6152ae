"""changzhu (常主升级) leads and follows: named patterns (RULES.md §3 "Patterns", "Following").

Leads are single, pair, 刮风 (tractor), 下雨 (five in a row), 飘雪花 (a 下雨 with extra
copies), 打雷 (four suits of one permanent-trump or level rank) and 闪电 (打雷 plus one).
A follower who holds the same pattern in the led suit must play it; otherwise pairs
answer 刮风's pairs and the rest is played from the highest card down. A follow wins
only with the same pattern, higher by rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import ClassVar

from engine.cards import ALL_CARDS, Card, Rank, card_index
from engine.errors import EngineError
from engine.order import TRUMP, TrumpContext
from engine.plays import Lead, PlayKey, PlayRules
from engine.rules import Ruleset
from engine.shapes import (
    Holding,
    decompose,
    holding_of,
    multisets,
    runs,
    unit_candidates,
    unit_cards,
)

Cards = tuple[Card, ...]

WIND, RAIN, SNOW, THUNDER, LIGHTNING = "刮风", "下雨", "飘雪花", "打雷", "闪电"

#: The most leads of each of 下雨 and 飘雪花 listed for one suit (docs/rules.md).
PATTERN_CAP = 64


def pattern_of(cards: Sequence[Card], ctx: TrumpContext, permanent: frozenset[Rank]
               ) -> tuple[str, int] | None:
    """(pattern, deciding strength) of a set of cards of one effective suit, or None."""
    n = len(cards)
    if n == 0:
        return None
    strength = ctx.strength
    holding = holding_of(cards, ctx)
    if n == 1:
        return ("single", strength[cards[0].index])
    if n == 2 and len(holding) == 1:
        return ("pair", strength[cards[0].index])
    ranks = {c.rank for c in cards}
    if len(ranks) == 1 and n in (4, 5):
        rank = cards[0].rank
        suits = {c.suit for c in cards}
        if (rank in permanent or rank == ctx.level) and len(suits) == 4 and None not in suits:
            return (THUNDER if n == 4 else LIGHTNING, min(strength[c.index] for c in cards))
    levels: dict[int, set[int]] = {}
    for ident in holding:
        levels.setdefault(strength[ident], set()).add(ident)
    tops = sorted(levels)
    # (before 刮风: five adjacent pairs are 飘雪花, as RULES §3's example A A 2 2 3 3 4 4 5 5)
    if len(tops) == 5 and tops[-1] - tops[0] == 4 and all(len(v) == 1 for v in levels.values()):
        if n == 5:
            return (RAIN, tops[-1])
        if all(c <= 2 for c in holding.values()):
            return (SNOW, tops[-1])
    if all(c == 2 for c in holding.values()) and len(holding) >= 2:
        units = decompose(cards, ctx, 2)
        if len(units) == 1 and units[0].is_tractor:
            return (WIND, units[0].top)
    return None


class ChangzhuPlay(PlayRules):
    throws: ClassVar[bool] = False  # a lead is one pattern
    has_pattern_leads: ClassVar[bool] = True
    follows_units: ClassVar[bool] = False  # a follow answers the pattern

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules)
        self.permanent = frozenset(rules.permanent_trumps)
        self.lead_width = 2  # singles and pairs; the rest are patterns

    def pattern_leads(self, cards: Sequence[Card], ctx: TrumpContext) -> list[Cards]:
        """下雨, 飘雪花, 打雷 and 闪电 in one suit's cards (at most PATTERN_CAP of each of
        the first two), but a 飘雪花 of five pairs (ten cards): the leads list it as the
        five-pair tractor it also is."""
        return [p for p in self._patterns_in(cards, ctx) if len(p) < 10]

    def _patterns_in(self, cards: Sequence[Card], ctx: TrumpContext) -> Iterator[Cards]:
        strength = ctx.strength
        holding = holding_of(cards, ctx)
        by_level: dict[int, list[int]] = {}
        for ident in holding:
            by_level.setdefault(strength[ident], []).append(ident)
        rain = snow = 0
        for low in sorted(by_level):
            window = [by_level.get(low + k) for k in range(5)]
            if not all(window):
                continue
            for choice in _choices(window):  # type: ignore[arg-type]
                if rain < PATTERN_CAP:
                    rain += 1
                    yield tuple(ALL_CARDS[i] for i in choice)
                doubles = [i for i in choice if holding[i] >= 2]
                for n in range(1, len(doubles) + 1):
                    for extra in combinations(doubles, n):
                        if snow < PATTERN_CAP:
                            snow += 1
                            yield tuple(ALL_CARDS[i] for i in choice + extra)
        by_rank: dict[object, list[Card]] = {}
        for card in cards:
            if card.rank in self.permanent or card.rank == ctx.level:
                by_rank.setdefault(card.rank, []).append(card)
        for group in by_rank.values():
            suits = {c.suit: c for c in group}
            if len(suits) == 4:
                thunder = tuple(suits.values())
                yield thunder
                for spare in sorted(set((Counter(group) - Counter(thunder)).elements()),
                                     key=card_index):
                    yield (*thunder, spare)

    def constructive_follow(self, lead: Lead, led: Sequence[Card], ctx: TrumpContext) -> Cards:
        found = self._instance(lead, led, ctx)
        if found is not None:
            return found
        n = lead.size
        chosen: list[Card] = []
        pool = sorted(led, key=lambda c: -ctx.strength[c.index])
        if lead.pattern == WIND:
            holding = holding_of(led, ctx)
            pairs = [i for i, c in sorted(holding.items(), key=lambda kv: -ctx.strength[kv[0]])
                     if c >= 2][: n // 2]
            for ident in pairs:
                got = [c for c in pool if ctx.ident[c.index] == ident][:2]
                chosen += got
                for c in got:
                    pool.remove(c)
        chosen += pool[: n - len(chosen)]
        return tuple(chosen)

    def _instance(self, lead: Lead, led: Sequence[Card], ctx: TrumpContext) -> Cards | None:
        """Cards of ``led`` forming the lead's pattern at its size, if the seat holds one."""
        if lead.pattern in ("single", "pair"):
            return None
        holding = holding_of(led, ctx)
        if not self.holds_pattern(lead, holding, ctx):
            return None
        if lead.pattern == WIND:
            for unit in unit_candidates(holding, ctx, 2, lead.size // 2):
                return unit_cards(unit, led, ctx)
            return None
        for cards in self._patterns_in(led, ctx):
            found = pattern_of(cards, ctx, self.permanent)
            if found and found[0] == lead.pattern and len(cards) == lead.size:
                return cards
        return None

    def built_follows(self, lead: Lead, led: list[Card], ctx: TrumpContext
                      ) -> tuple[list[Cards], bool] | None:
        return self.follows(lead, led, ctx), False

    def lead(self, cards: Sequence[Card], ctx: TrumpContext) -> Lead:
        suit = self.one_suit(cards, ctx)
        found = pattern_of(cards, ctx, self.permanent)
        if found is None:
            raise EngineError("not_a_pattern")
        units = tuple(decompose(cards, ctx, 2))
        return Lead(tuple(cards), suit, units, found[0])

    def holds_pattern(self, lead: Lead, holding: Holding, ctx: TrumpContext) -> bool:
        """Does a holding (of the led suit) contain the lead's pattern, same size?"""
        size = lead.size
        if lead.pattern == WIND:
            return any(length >= size // 2 for _, length in runs(holding, ctx, 2))
        if lead.pattern in (RAIN, SNOW):
            best: dict[int, int] = {}
            for ident, count in holding.items():
                s = ctx.strength[ident]
                best[s] = max(best.get(s, 0), min(count, 2))
            for low in best:
                window = [best.get(low + k, 0) for k in range(5)]
                if all(window) and (sum(window) >= size if lead.pattern == SNOW else True):
                    return True
            return False
        if lead.pattern in (THUNDER, LIGHTNING):
            by_rank: dict[Rank, list[int]] = {}
            for ident, count in holding.items():
                card = ALL_CARDS[ident]
                if card.rank in self.permanent or card.rank == ctx.level:
                    by_rank.setdefault(card.rank, []).append(count)
            return any(len(v) == 4 and sum(v) >= size for v in by_rank.values())
        return False

    def owed(self, lead: Lead, holding: Holding, ctx: TrumpContext) -> FollowOwed:
        """What a follower holding ``holding`` of the led suit, more cards than the lead,
        must play (RULES §3 "Following")."""
        if lead.pattern == "single":
            return FollowOwed(False, 0, False)
        if lead.pattern == "pair":
            return FollowOwed(any(c >= 2 for c in holding.values()), 0, False)
        if self.holds_pattern(lead, holding, ctx):
            return FollowOwed(True, 0, False)
        pairs = 0
        if lead.pattern == WIND:
            pairs = min(lead.size // 2, sum(c // 2 for c in holding.values()))
        return FollowOwed(False, pairs, True)

    def check_follow(self, lead: Lead, play: Sequence[Card], hand: Sequence[Card],
                     ctx: TrumpContext) -> None:
        held, played = self.check_suit(lead, play, hand, ctx)
        if len(held) <= lead.size or lead.pattern == "single":
            return
        holding = holding_of(held, ctx)
        mine = holding_of(played, ctx)
        owed = self.owed(lead, holding, ctx)
        if lead.pattern == "pair":
            if owed.pattern and len(mine) != 1:
                raise EngineError("must_follow_pair", suit=ctx.suit_label(lead.suit), amount=1,
                                  width=2)
            return
        if owed.pattern:
            found = pattern_of(played, ctx, self.permanent)
            if found is None or found[0] != lead.pattern:
                raise EngineError("must_follow_pattern", pattern=lead.pattern)
            return
        if not self._top_down_with_pairs(holding, mine, owed.pairs, ctx):
            if owed.pairs:
                raise EngineError("must_follow_pairs_then_top", pattern=lead.pattern,
                                  pairs=owed.pairs)
            raise EngineError("must_follow_from_top", pattern=lead.pattern)

    @staticmethod
    def _top_down_with_pairs(holding: Holding, mine: Holding, pairs: int, ctx: TrumpContext
                             ) -> bool:
        pair_idents = [i for i, c in mine.items() for _ in range(c // 2)]
        for chosen in set(combinations(sorted(pair_idents), pairs)):
            rest_held = dict(holding)
            rest_mine = dict(mine)
            for ident in chosen:
                rest_held[ident] -= 2
                rest_mine[ident] -= 2
            if _is_top(rest_held, rest_mine, ctx):
                return True
        return False

    def follows(self, lead: Lead, held: Sequence[Card], ctx: TrumpContext) -> list[Cards]:
        """Every legal follow (as distinct multisets) of a seat holding ``held`` of the led
        suit, more cards than the lead: built from what is owed, not tried card by card."""
        holding = holding_of(held, ctx)
        owed = self.owed(lead, holding, ctx)
        n = lead.size
        by_ident: dict[int, list[Card]] = {}
        for card in held:
            by_ident.setdefault(ctx.ident[card.index], []).append(card)
        if owed.pattern:
            return self._pattern_plays(lead, holding, by_ident, ctx)
        if not owed.top_down:
            return multisets(held, n)
        out: list[Cards] = []
        pair_idents = sorted(i for i, c in holding.items() for _ in range(c // 2))
        for chosen in sorted(set(combinations(pair_idents, owed.pairs))):
            rest = list(held)
            pairs: list[Card] = []
            for ident in chosen:
                for _ in range(2):
                    card = next(c for c in rest if ctx.ident[c.index] == ident)
                    rest.remove(card)
                    pairs.append(card)
            out += [tuple(pairs) + top for top in _from_top(rest, n - 2 * owed.pairs, ctx)]
        return out

    def _pattern_plays(self, lead: Lead, holding: Holding, by_ident: dict[int, list[Card]],
                       ctx: TrumpContext) -> list[Cards]:
        """The plays of the lead's pattern and size that ``by_ident`` holds."""
        n = lead.size
        strength = ctx.strength
        candidates: list[Cards] = []
        if lead.pattern == "pair":
            for same in by_ident.values():
                candidates += multisets(same, 2)
        elif lead.pattern == WIND:
            for unit in unit_candidates(holding, ctx, 2, n // 2):
                candidates.append(tuple(c for i in unit.idents for c in by_ident[i][:2]))
        elif lead.pattern in (RAIN, SNOW):
            by_level: dict[int, list[int]] = {}
            for ident in sorted(holding):
                by_level.setdefault(strength[ident], []).append(ident)
            for low in sorted(by_level):
                window = [by_level.get(low + k) for k in range(5)]
                if not all(window):
                    continue
                for choice in product(*window):  # type: ignore[arg-type]
                    for counts in product(*[range(1, min(2, holding[i]) + 1) for i in choice]):
                        if sum(counts) == n:
                            candidates += _product_of(
                                [multisets(by_ident[i], k) for i, k in zip(choice, counts)])
        else:  # 打雷, 闪电: the four suits of one rank, and one more for 闪电
            by_rank: dict[Rank, list[int]] = {}
            for ident in holding:
                card = ALL_CARDS[ident]
                if card.rank in self.permanent or card.rank == ctx.level:
                    by_rank.setdefault(card.rank, []).append(ident)
            for idents in by_rank.values():
                if len(idents) < 4:  # one ident per printed suit
                    continue
                thunder = tuple(by_ident[i][0] for i in idents)
                if n == 4:
                    candidates.append(thunder)
                else:
                    candidates += [thunder + (by_ident[i][1],) for i in idents
                                   if len(by_ident[i]) > 1]
        out: list[Cards] = []
        seen: set[tuple[int, ...]] = set()
        for cards in candidates:
            found = pattern_of(cards, ctx, self.permanent)
            key = tuple(sorted(c.index for c in cards))
            if len(cards) == n and found is not None and found[0] == lead.pattern \
                    and key not in seen:
                seen.add(key)
                out.append(cards)
        return out

    def play_key(self, lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> PlayKey | None:
        eff = ctx.eff
        suit = eff[play[0].index]
        if (suit != lead.suit and suit != TRUMP) or any(eff[c.index] != suit for c in play):
            return None
        found = pattern_of(play, ctx, self.permanent)
        if found is None or found[0] != lead.pattern:
            return None
        return (int(suit == TRUMP), 0, found[1])


@dataclass(frozen=True, slots=True)
class FollowOwed:
    """What a changzhu follower with more led-suit cards than the lead owes: the lead's
    pattern (``pattern``), or else ``pairs`` pairs and then (``top_down``) the highest
    cards of the led suit; nothing of the kind when both are unset."""

    pattern: bool
    pairs: int
    top_down: bool


def _product_of(parts: list[list[Cards]]) -> list[Cards]:
    return [tuple(c for part in choice for c in part) for choice in product(*parts)]


def _from_top(cards: Sequence[Card], n: int, ctx: TrumpContext) -> list[Cards]:
    """Every way to play the ``n`` highest of ``cards`` (equal cards at the cut are free)."""
    if n == 0:
        return [()]
    strength = ctx.strength
    ordered = sorted(cards, key=lambda c: -strength[c.index])
    cut = strength[ordered[n - 1].index]
    above = tuple(c for c in ordered if strength[c.index] > cut)
    at_cut = [c for c in ordered if strength[c.index] == cut]
    return [above + rest for rest in multisets(at_cut, n - len(above))]


def _is_top(held: Holding, chosen: Holding, ctx: TrumpContext) -> bool:
    """Are the chosen cards the highest of the held ones (ties may go either way)?"""
    strength = ctx.strength
    chosen_levels = [strength[i] for i, c in chosen.items() if c > 0]
    if not chosen_levels:
        return True
    lowest = min(chosen_levels)
    left = [strength[i] for i, c in held.items() if c - chosen.get(i, 0) > 0]
    return not left or max(left) <= lowest


def _choices(window: list[list[int]]) -> Iterator[tuple[int, ...]]:
    if not window:
        yield ()
        return
    for ident in window[0]:
        for rest in _choices(window[1:]):
            yield (ident, *rest)
