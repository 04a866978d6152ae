"""Legal actions for one seat: the basis of autocomplete, hints and computer players.

Everything here uses only what the seat may know, so it is safe to show the seat:
``sure`` throws are judged against the cards the seat has not seen, never against the
other hands (a throw that is sure for the seat always stands).

Enumeration bounds (documented in docs/rules.md):

* leads: every single, n-of-a-kind and tractor (changzhu: every pattern, at most
  ``PATTERN_CAP`` per kind); throws: per suit, every combination of its sure components
  when there are at most 5, else the largest sure throw and each that leaves one out;
* follows: every legal follow when the seat's candidate combinations number at most
  ``FOLLOW_BUDGET``; beyond that, the constructive follows plus the legal ones found in
  the first ``FOLLOW_BUDGET`` combinations (strongest cards first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from engine.cards import ALL_CARDS, Card
from engine.errors import EngineError
from engine.game import Dealing, Game, Playing, _remove_cards
from engine.order import TRUMP, TrumpContext
from engine.patterns import WIND, ChangzhuPlay, pattern_of
from engine.plays import Lead
from engine.rules import DeclarationStyle
from engine.shapes import (
    Holding,
    Unit,
    _candidates,
    decompose,
    fill_units,
    holding_of,
    unbeatable_by,
    unit_cards,
)

FOLLOW_BUDGET = 4000
PATTERN_CAP = 64

Cards = tuple[Card, ...]


def check_play(game: Game, seat: int, cards: Sequence[Card]) -> None:
    """Would ``Play(seat, cards)`` be accepted? Raises the same ``EngineError`` as ``apply``
    would, without changing anything. (A throw that would fail is still a legal play.)"""
    phase = game.phase
    if not isinstance(phase, Playing):
        raise EngineError("wrong_phase", "playing cards is not possible now")
    if seat != phase.turn:
        raise EngineError("not_your_turn", f"it is seat {phase.turn}'s turn", turn=phase.turn)
    _remove_cards(phase.hands[seat], cards)
    lead = phase.trick.lead
    if lead is None:
        game.play_rules.lead(cards, phase.ctx)
    else:
        game.play_rules.check_follow(lead, cards, phase.hands[seat], phase.ctx)


def seen_by(game: Game, seat: int) -> Counter[Card]:
    """Every card the seat has seen: its hand, the cards played, the kitty it buried."""
    phase = game.phase
    assert isinstance(phase, Playing)
    seen: Counter[Card] = Counter(phase.hands[seat])
    for trick, _, _ in phase.tricks:
        for _, cards in trick.plays:
            seen.update(cards)
    for _, cards in phase.trick.plays:
        seen.update(cards)
    if phase.taker == seat:
        seen.update(phase.kitty)
    return seen


def unseen_by(game: Game, seat: int) -> Counter[Card]:
    total: Counter[Card] = Counter({c: game.rules.decks for c in ALL_CARDS})
    return total - seen_by(game, seat)


def legal_plays(game: Game, seat: int) -> list[Cards]:
    """Legal plays for ``seat`` now (empty when it is not the seat's turn to play)."""
    phase = game.phase
    if not isinstance(phase, Playing) or phase.turn != seat:
        return []
    hand = phase.hands[seat]
    if phase.trick.lead is None:
        return legal_leads(game, seat)
    return legal_follows(game, phase.trick.lead, hand, phase.ctx)


# -- leads ------------------------------------------------------------------------------

def _by_suit(hand: Sequence[Card], ctx: TrumpContext) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for card in hand:
        out.setdefault(ctx.eff[card.index], []).append(card)
    return out


def _units_of(holding: Holding, cards: Sequence[Card], ctx: TrumpContext, max_width: int
              ) -> list[Cards]:
    out: list[Cards] = []
    for width in range(2, max_width + 1):
        out += [unit_cards(u, cards, ctx) for u in _candidates(holding, ctx, width, 1)]
        length = 2
        while True:
            found = _candidates(holding, ctx, width, length)
            if not found:
                break
            out += [unit_cards(u, cards, ctx) for u in found]
            length += 1
    return out


def legal_leads(game: Game, seat: int) -> list[Cards]:
    phase = game.phase
    assert isinstance(phase, Playing)
    ctx = phase.ctx
    hand = phase.hands[seat]
    out: list[Cards] = []
    seen: set[tuple[int, ...]] = set()

    def add(cards: Sequence[Card]) -> None:
        key = tuple(sorted(c.index for c in cards))
        if key not in seen:
            seen.add(key)
            out.append(tuple(cards))

    changzhu = isinstance(game.play_rules, ChangzhuPlay)
    unseen = None if changzhu else unseen_by(game, seat)
    for suit, cards in _by_suit(hand, ctx).items():
        holding = holding_of(cards, ctx)
        for card in sorted(set(cards), key=lambda c: -ctx.strength[c.index]):
            add((card,))
        for combo in _units_of(holding, cards, ctx, 2 if changzhu else game.rules.max_width):
            add(combo)
        if changzhu:
            for pattern_cards in _changzhu_patterns(cards, ctx, game.play_rules):
                add(pattern_cards)
        else:
            assert unseen is not None
            others = holding_of([c for c in unseen.elements() if ctx.eff[c.index] == suit], ctx)
            for throw in sure_throws(cards, others, ctx, game.rules.max_width):
                add(throw)
    return out


def sure_throws(cards: Sequence[Card], others: Holding, ctx: TrumpContext, max_width: int
                ) -> list[Cards]:
    """Throws of one suit whose every component no unseen card can beat (largest first)."""
    units = [u for u in decompose(cards, ctx, max_width) if unbeatable_by(u, others, ctx)]
    if len(units) < 2:
        return []
    groups: list[list[Unit]]
    if len(units) <= 5:
        groups = [list(g) for n in range(len(units), 1, -1) for g in combinations(units, n)]
    else:
        groups = [units] + [units[:i] + units[i + 1:] for i in range(len(units))]
    out = []
    for group in groups:
        throw = tuple(c for u in group for c in unit_cards(u, cards, ctx))
        parts = decompose(throw, ctx, max_width)
        if len(parts) > 1 and all(unbeatable_by(p, others, ctx) for p in parts):
            out.append(throw)
    return out


def _changzhu_patterns(cards: Sequence[Card], ctx: TrumpContext, rules: object
                       ) -> Iterator[Cards]:
    """下雨, 飘雪花, 打雷 and 闪电 in one suit's cards (at most PATTERN_CAP of each)."""
    assert isinstance(rules, ChangzhuPlay)
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
        if card.rank in rules.permanent or card.rank == ctx.level:
            by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        suits = {c.suit: c for c in group}
        if len(suits) == 4:
            thunder = tuple(suits.values())
            yield thunder
            for extra in sorted(set((Counter(group) - Counter(thunder)).elements())):
                yield thunder + (extra,)


def _choices(window: list[list[int]]) -> Iterator[tuple[int, ...]]:
    if not window:
        yield ()
        return
    for ident in window[0]:
        for rest in _choices(window[1:]):
            yield (ident, *rest)


# -- follows ------------------------------------------------------------------------------

def _multiset_combos(cards: Sequence[Card], n: int) -> Iterator[Cards]:
    counts = sorted(Counter(cards).items(), key=lambda kv: -kv[0].index)
    picked: list[Card] = []

    def rec(i: int, left: int) -> Iterator[Cards]:
        if left == 0:
            yield tuple(picked)
            return
        if i == len(counts):
            return
        card, have = counts[i]
        for take in range(min(have, left), -1, -1):
            picked.extend([card] * take)
            yield from rec(i + 1, left - take)
            del picked[len(picked) - take:]

    yield from rec(0, n)


def constructive_follow(game: Game, lead: Lead, hand: Sequence[Card], ctx: TrumpContext
                        ) -> Cards | None:
    """One legal follow built from the obligations (lowest cards for the free part)."""
    led = [c for c in hand if ctx.eff[c.index] == lead.suit]
    rest = sorted((c for c in hand if ctx.eff[c.index] != lead.suit),
                  key=lambda c: (ctx.eff[c.index] == TRUMP, ctx.strength[c.index], c.points))
    n = lead.size
    if len(led) <= n:
        return tuple(led + rest[: n - len(led)])
    rules = game.play_rules
    chosen: list[Card] = []
    if isinstance(rules, ChangzhuPlay):
        found = _changzhu_instance(lead, led, ctx, rules)
        if found is not None:
            return found
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
    else:
        for unit in fill_units(holding_of(led, ctx), ctx, lead.units):
            chosen += unit_cards(unit, [c for c in led if chosen.count(c) < led.count(c)], ctx)
        pool = list(led)
        for c in chosen:
            pool.remove(c)
        pool.sort(key=lambda c: (ctx.strength[c.index], c.points))
        chosen += pool[: n - len(chosen)]
    return tuple(chosen)


def _changzhu_instance(lead: Lead, led: Sequence[Card], ctx: TrumpContext, rules: ChangzhuPlay
                       ) -> Cards | None:
    """Cards of ``led`` forming the lead's pattern at its size, if the seat holds one."""
    if lead.pattern in ("single", "pair"):
        return None
    holding = holding_of(led, ctx)
    if not rules.holds_pattern(lead, holding, ctx):
        return None
    if lead.pattern == WIND:
        for unit in _candidates(holding, ctx, 2, lead.size // 2):
            return unit_cards(unit, led, ctx)
        return None
    candidates = _changzhu_patterns(led, ctx, rules)
    for cards in candidates:
        found = pattern_of(cards, ctx, rules.permanent)
        if found and found[0] == lead.pattern and len(cards) == lead.size:
            return cards
    return None


def legal_follows(game: Game, lead: Lead, hand: Sequence[Card], ctx: TrumpContext) -> list[Cards]:
    rules = game.play_rules
    n = lead.size
    led = [c for c in hand if ctx.eff[c.index] == lead.suit]
    out: list[Cards] = []
    seen: set[tuple[int, ...]] = set()

    def add(cards: Cards) -> None:
        key = tuple(sorted(c.index for c in cards))
        if key not in seen:
            seen.add(key)
            out.append(cards)

    base = constructive_follow(game, lead, hand, ctx)
    if base is not None:
        try:
            rules.check_follow(lead, base, hand, ctx)
            add(base)
        except EngineError:
            pass
    if len(led) <= n:
        others = [c for c in hand if ctx.eff[c.index] != lead.suit]
        for i, fill in enumerate(_multiset_combos(others, n - len(led))):
            if i >= FOLLOW_BUDGET:
                break
            add(tuple(led) + fill)
        return out
    for i, combo in enumerate(_multiset_combos(led, n)):
        if i >= FOLLOW_BUDGET:
            break
        try:
            rules.check_follow(lead, combo, hand, ctx)
        except EngineError:
            continue
        add(combo)
    return out


# -- declarations ---------------------------------------------------------------------

def legal_declarations(game: Game, seat: int) -> list[Cards]:
    """Every declaration ``seat`` could make now (whole declarations, as shown)."""
    phase = game.phase
    if not isinstance(phase, Dealing) or phase.pending_return is not None:
        return []
    hand = phase.hands[seat]
    counts = Counter(hand)
    candidates: list[Cards] = []
    jokers = [c for c in counts if c.is_joker]
    if game.rules.declaration is DeclarationStyle.JOKER_AND_PAIR:
        pairs = [c for c, n in counts.items() if not c.is_joker and n >= 2]
        for joker in jokers:
            for k in range(1, min(2, counts[joker]) + 1):
                for pair in pairs:
                    candidates.append((joker,) * k + (pair, pair))
                for a, b in combinations(pairs, 2):
                    if a.suit == b.suit:
                        candidates.append((joker,) * k + (a, a, b, b))
    else:
        for card, n in counts.items():
            if card.is_joker or card.rank == phase.level:
                for k in range(2 if card.is_joker else 1, n + 1):
                    candidates.append((card,) * k)
    out = []
    for cards in candidates:
        try:
            game.check_declaration(seat, cards)
        except EngineError:
            continue
        out.append(cards)
    return out
