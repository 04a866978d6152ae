"""Combinations inside one effective suit: units, decomposition and matching (RULES §1).

A *unit* is n identical cards (single, pair, triple) or a tractor: two or more units of
the same width at consecutive strengths. Cards are handled as a holding, a mapping
``ident -> count`` (see ``TrumpContext.ident``); strengths come from the context.

Three questions are answered here, and only here:

* ``decompose``: how a lead breaks into units (longest tractors first, widest first);
* ``follow_value``: how much of a lead's structure a holding can match, the measure
  behind the follow obligations of RULES §2 ("tractor before pairs, pairs before
  singles");
* ``deciding_strength``: whether a play has the lead's structure, and how strong its
  deciding component is (who wins a trick).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, islice
from math import comb
from operator import add

from engine.cards import Card, card_index
from engine.order import TrumpContext

Holding = dict[int, int]


@dataclass(frozen=True, slots=True)
class Unit:
    """``width`` identical cards, ``length`` times at consecutive strengths."""

    width: int
    length: int
    top: int  # strength of the highest step
    idents: tuple[int, ...]  # one ident per step, highest first

    @property
    def size(self) -> int:
        return self.width * self.length

    @property
    def is_tractor(self) -> bool:
        return self.length >= 2

    @property
    def shape(self) -> tuple[int, int]:
        return (self.width, self.length)

    @property
    def bottom(self) -> int:
        return self.top - self.length + 1


def unit_order(unit: Unit) -> tuple[int, int, int, int]:
    """Largest first: tractors before n-of-a-kind, more cards first, then wider, then higher."""
    return (-int(unit.is_tractor), -unit.size, -unit.width, -unit.top)


def holding_of(cards: Iterable[Card], ctx: TrumpContext) -> Holding:
    ident = ctx.ident
    out: Holding = {}
    for card in cards:
        key = ident[card.index]
        out[key] = out.get(key, 0) + 1
    return out


def _by_strength(holding: Holding, ctx: TrumpContext, width: int) -> dict[int, list[int]]:
    strength = ctx.strength
    out: dict[int, list[int]] = {}
    for ident in sorted(holding):
        if holding[ident] >= width:
            out.setdefault(strength[ident], []).append(ident)
    return out


def runs(holding: Holding, ctx: TrumpContext, width: int) -> list[tuple[int, int]]:
    """Maximal runs of consecutive strengths holding ``width`` copies: (top, length)."""
    levels = sorted(_by_strength(holding, ctx, width))
    out: list[tuple[int, int]] = []
    start = prev = -2  # (no run yet: no strength is -1)
    for s in levels:
        if s == prev + 1:
            prev = s
            continue
        if start >= 0:
            out.append((prev, prev - start + 1))
        start = prev = s
    if start >= 0:
        out.append((prev, prev - start + 1))
    return out


def _take_run(holding: Holding, ctx: TrumpContext, width: int, top: int, length: int,
              *, fewest: bool = False) -> Unit:
    """Remove one ident per strength from ``top`` down: of equal cards of several suits
    (off-suit level cards), the most plentiful (the lowest ident on a tie: a follow's
    choice), or with ``fewest`` the one held fewest times, so that a wider n-of-a-kind
    of the others stays whole (a throw's decomposition, RULES §4: the tractors, then the
    widest n-of-a-kind: ``2S 2S 2C 2C 2C 2H 2H`` at level 2, trump ♥, is the tractor
    ``2S 2S 2H 2H`` and the triple ``2C 2C 2C``, not a pair and a single)."""
    by_strength = _by_strength(holding, ctx, width)
    idents = []
    for s in range(top, top - length, -1):
        ident = min(by_strength[s], key=lambda i: (holding[i], i)) if fewest else \
            max(by_strength[s], key=lambda i: (holding[i], -i))
        holding[ident] -= width
        if not holding[ident]:
            del holding[ident]
        idents.append(ident)
    return unit_of(width, length, top, tuple(idents))


def longest_run(holding: Holding, ctx: TrumpContext, width: int, cap: int) -> tuple[int, int]:
    """The longest run (at most ``cap`` long, highest on ties): (top, length) or (0, 0)."""
    best = (0, 0)
    for top, length in runs(holding, ctx, width):
        length = min(length, cap)
        if length > best[1] or (length == best[1] and top > best[0]):
            best = (top, length)
    return best


def decompose(cards: Sequence[Card], ctx: TrumpContext, max_width: int) -> list[Unit]:
    """Units of a play of one effective suit, largest first (RULES §1 "throw", §4
    "Decomposing a throw"): tractors first, the one with the most cards first (the wider
    on a tie), then the widest n-of-a-kind, then singles. ``5 5 5 6 6 7 7`` is the
    tractor ``5 5 6 6 7 7`` and a single 5."""
    holding = holding_of(cards, ctx)
    order = distinct_strengths(holding, ctx)
    if order is None:
        return decompose_greedy(holding, ctx, max_width)
    return decompose_distinct(order, holding, ctx, max_width)


def distinct_strengths(holding: Holding, ctx: TrumpContext) -> list[int] | None:
    """The idents of ``holding`` strongest first, or None when two share a strength
    (off-suit level cards of several suits)."""
    strength = ctx.strength
    if len({strength[i] for i in holding}) < len(holding):
        return None
    return sorted(holding, key=ctx.strongest_first_index.__getitem__)


def decompose_distinct(order: list[int], holding: Holding, ctx: TrumpContext, max_width: int
                       ) -> list[Unit]:
    """``decompose`` of a holding whose idents (``order``, strongest first) all differ in
    strength: the same choices as ``decompose_greedy``, made on counts in strength order
    (each strength has one ident, so no ident is chosen and no run is looked up)."""
    strength = ctx.strength
    if len(order) == sum(holding.values()):
        return [n_of_a_kind(1, i, strength[i]) for i in order]
    most = max(holding.values())
    if most == 2 <= max_width:  # pairs only: each maximal run of pairs is a tractor
        tractors: list[Unit] = []
        pairs: list[Unit] = []
        for run in strength_runs([i for i in order if holding[i] >= 2], strength):
            if len(run) > 1:
                tractors.append(unit_of(2, len(run), strength[run[0]], tuple(run)))
            else:
                pairs.append(n_of_a_kind(2, run[0], strength[run[0]]))
        if len(tractors) > 1:
            tractors.sort(key=unit_order)
        return tractors + pairs + [n_of_a_kind(1, i, strength[i]) for i in order if holding[i] != 2]
    counts = [holding[i] for i in order]
    # joined[k]: order[k] and order[k + 1] are consecutive strengths
    joined = [strength[a] == strength[b] + 1 for a, b in zip(order, order[1:])] + [False]
    # (no tractor is wider than the most two adjacent strengths both hold: most holdings
    # have none, and the search below is not made)
    widest = min(max_width, max([min(a, b) for a, b, j in zip(counts, counts[1:], joined)
                                 if j], default=0))
    tractors = []
    while widest > 1:  # the tractor with the most cards (the wider, then the higher, on a tie)
        best = (0, 0, 0, 0)  # (cards, width, start, length)
        for width in range(widest, 1, -1):
            start = length = 0
            longest = (0, 0)  # (length, start): the first found is the highest
            for k, count in enumerate(counts):
                if count >= width:
                    if not length:
                        start = k
                    length += 1
                    if length > longest[0]:
                        longest = (length, start)
                    if not joined[k]:
                        length = 0
                else:
                    length = 0
            if longest[0] >= 2 and (width * longest[0], width) > best[:2]:
                best = (width * longest[0], width, longest[1], longest[0])
        cards, width, start, length = best
        if not cards:
            break
        for k in range(start, start + length):
            counts[k] -= width
        tractors.append(unit_of(width, length, strength[order[start]],
                             tuple(order[start:start + length])))
    kinds: list[Unit] = []
    for width in range(min(max_width, most), 1, -1):  # (none wider than the most held)
        for k, ident in enumerate(order):
            while counts[k] >= width:
                counts[k] -= width
                kinds.append(n_of_a_kind(width, ident, strength[ident]))
    if len(tractors) > 1:
        tractors.sort(key=unit_order)
    return tractors + kinds + [n_of_a_kind(1, ident, strength[ident])
                               for k, ident in enumerate(order) for _ in range(counts[k])]


def strength_runs(idents: list[int], strength: Sequence[int]) -> list[list[int]]:
    """``idents`` (strongest first, distinct strengths) cut into runs of consecutive
    strengths."""
    out: list[list[int]] = []
    for ident in idents:
        if out and strength[out[-1][-1]] == strength[ident] + 1:
            out[-1].append(ident)
        else:
            out.append([ident])
    return out


@lru_cache(maxsize=4096)
def n_of_a_kind(width: int, ident: int, top: int) -> Unit:
    """``width`` identical cards (units are immutable: shared)."""
    return Unit(width, 1, top, (ident,))


@lru_cache(maxsize=4096)
def unit_of(width: int, length: int, top: int, idents: tuple[int, ...]) -> Unit:
    """``Unit(width, length, top, idents)``, shared: a frozen dataclass's constructor sets
    each field through ``object.__setattr__``, some ten thousand instructions a unit."""
    return Unit(width, length, top, idents)


def decompose_greedy(holding: Holding, ctx: TrumpContext, max_width: int) -> list[Unit]:
    """``decompose`` of any holding, also where equal cards of different idents meet
    (off-suit level cards): for each width, widest first, the longest run first (the
    highest on a tie), then n-of-a-kind."""
    holding = dict(holding)
    units: list[Unit] = []
    strength = ctx.strength
    most_at: dict[int, int] = {}  # strength -> the most copies of one of its idents
    for i, n in holding.items():
        if n >= 2 and n > most_at.get(strength[i], 0):
            most_at[strength[i]] = n
    # (no tractor is wider than two adjacent strengths both hold: most holdings have none)
    widest = min(max_width, max([min(n, most_at[s + 1]) for s, n in most_at.items()
                                 if s + 1 in most_at], default=0))
    while widest >= 2:
        best = (0, 0, 0, 0)  # (cards, width, top, length)
        for width in range(widest, 1, -1):
            top, length = longest_run(holding, ctx, width, cap=99)
            if length >= 2 and (width * length, width) > best[:2]:
                best = (width * length, width, top, length)
        if not best[0]:
            break
        units.append(_take_run(holding, ctx, best[1], best[2], best[3], fewest=True))
    # n-of-a-kind, widest first, then singles: ``_take_run`` of length 1 made here on a
    # table of each strength's idents, not on the holding re-sorted for every kind
    idents = sorted(holding, key=lambda i: -strength[i])  # (what is left keeps this order)
    at: dict[int, list[int]] | None = None
    for width in range(max_width, 1, -1):
        for ident in idents:
            while holding.get(ident, 0) >= width:
                if at is None:
                    at = {}
                    for i in sorted(holding):
                        at.setdefault(strength[i], []).append(i)
                top = strength[ident]
                # the most plentiful of the strength (the lowest ident on a tie)
                chosen = max([i for i in at[top] if holding.get(i, 0) >= width],
                             key=lambda i: (holding[i], -i))
                holding[chosen] -= width
                if not holding[chosen]:
                    del holding[chosen]
                units.append(n_of_a_kind(width, chosen, top))
    for ident in idents:
        for _ in range(holding.get(ident, 0)):
            units.append(n_of_a_kind(1, ident, strength[ident]))
    units.sort(key=unit_order)
    return units


@dataclass(frozen=True, slots=True)
class Obligation:
    """One line of what a follower owes: ``amount`` tractor steps (``tractor``) or
    n-of-a-kind of ``width`` cards, for the lead component ``component``."""

    component: int
    tractor: bool
    width: int
    amount: int


@lru_cache(maxsize=1024, typed=True)
def obligation(component: int, tractor: bool, width: int, amount: int) -> Obligation:
    """``Obligation(...)``, shared (``unit_of``'s reason: a line is made for each line of
    every follow matched)."""
    return Obligation(component, tractor, width, amount)


def follow_value(holding: Holding, lead: Sequence[Unit], ctx: TrumpContext) -> list[Obligation]:
    """How much of the lead's structure ``holding`` can match, line by line.

    For each component of the lead, largest first: the longest tractor of its width (up
    to its length), then as many n-of-a-kind of that width as the rest needs, then (for
    triples) pairs. A follow is legal when, compared line by line, its amounts are no
    less than the hand's (the first line that differs decides).
    """
    return [ob for ob, _ in _match(holding, lead, ctx)]


def fill_units(holding: Holding, ctx: TrumpContext, lead: Sequence[Unit]) -> list[Unit]:
    """The units of ``holding`` that ``follow_value`` picks (a constructive legal follow)."""
    return [unit for _, units in _match(holding, lead, ctx) for unit in units]


def _match(holding: Holding, lead: Sequence[Unit], ctx: TrumpContext
           ) -> list[tuple[Obligation, list[Unit]]]:
    if may_fall_short(holding, lead):
        return match_best(holding, lead, ctx)
    order = distinct_strengths(holding, ctx)
    if order is None:
        return match_greedy(holding, lead, ctx)
    return _match_distinct(order, holding, lead, ctx.strength)


def _match_distinct(order: list[int], holding: Holding, lead: Sequence[Unit],
                    strength: Sequence[int]) -> list[tuple[Obligation, list[Unit]]]:
    """``match_greedy`` of a holding whose idents (``order``, strongest first) all differ
    in strength: the same choices, made on counts in strength order."""
    counts = dict(holding)
    out: list[tuple[Obligation, list[Unit]]] = []
    for index, unit in enumerate(lead):
        width = unit.width
        if width < 2:
            continue
        need = unit.length
        if need >= 2:  # the longest run up to ``need``, the highest on a tie
            best: list[int] = []
            for run in strength_runs([i for i in order if counts[i] >= width], strength):
                if min(len(run), need) > len(best):
                    best = run[:need]
            taken = []
            if len(best) >= 2:
                for ident in best:
                    counts[ident] -= width
                taken.append(unit_of(width, len(best), strength[best[0]], tuple(best)))
                need -= len(best)
            out.append((obligation(index, True, width, len(best) if taken else 0), taken))
        for w in range(width, 1, -1):
            taken = []
            for ident in order:
                while need and counts[ident] >= w:
                    counts[ident] -= w
                    need -= 1
                    taken.append(n_of_a_kind(w, ident, strength[ident]))
            out.append((obligation(index, False, w, len(taken)), taken))
    return out


def match_greedy(holding: Holding, lead: Sequence[Unit], ctx: TrumpContext
                 ) -> list[tuple[Obligation, list[Unit]]]:
    """What ``follow_value`` and ``fill_units`` read, for any holding: per lead component,
    the obligation lines and the units of ``holding`` that meet them."""
    remaining = dict(holding)
    out: list[tuple[Obligation, list[Unit]]] = []
    strength = ctx.strength
    for index, unit in enumerate(lead):
        if unit.width < 2:
            continue
        need = unit.length
        if unit.length >= 2:
            top, length = longest_run(remaining, ctx, unit.width, cap=need)
            taken = []
            if length >= 2:
                taken.append(_take_run(remaining, ctx, unit.width, top, length))
                need -= length
            out.append((obligation(index, True, unit.width, length if taken else 0), taken))
        for width in range(unit.width, 1, -1):
            taken = []
            for ident in sorted(remaining, key=lambda i: -strength[i]):
                while need and remaining.get(ident, 0) >= width:
                    taken.append(_take_run(remaining, ctx, width, strength[ident], 1))
                    need -= 1
            out.append((obligation(index, False, width, len(taken)), taken))
    return out


def may_fall_short(holding: Holding, lead: Sequence[Unit]) -> bool:
    """Can the greedy match (each line the most it can, from the strongest cards) give a
    later line less than the holding can? Only where two or more lead components ask for
    groups and a card is held three times or more: a pair taken out of a triple for the
    first component leaves the second's triple short, where another pair would not have.
    (``lead`` is sorted largest first: singles come last.)"""
    return len(lead) > 1 and lead[1].width >= 2 and max(holding.values(), default=0) >= 3


def follow_lines(lead: Sequence[Unit]) -> list[tuple[int, bool, int, int]]:
    """The lines a follow is measured by (``follow_value``), in order: for each lead
    component of groups, its run (a tractor's), then its n-of-a-kind of its width down
    to pairs; each as (component, tractor, width, the component's length where its
    first line is, else 0)."""
    lines: list[tuple[int, bool, int, int]] = []
    for index, unit in enumerate(lead):
        if unit.width < 2:
            continue
        start = unit.length
        if unit.length >= 2:
            lines.append((index, True, unit.width, start))
            start = 0
        for width in range(unit.width, 1, -1):
            lines.append((index, False, width, start))
            start = 0
    return lines


def match_best(holding: Holding, lead: Sequence[Unit], ctx: TrumpContext
               ) -> list[tuple[Obligation, list[Unit]]]:
    """``match_greedy``'s lines, each the most the holding can give once every line
    before it has the most it can (RULES §2: the follower's cards must contain a structure
    meeting all the obligations; which pair or triple makes each is the follower's
    choice): a search over the units each line may take, the first best kept (the
    strongest first, as the greedy match takes them)."""
    strength = ctx.strength
    lines = follow_lines(lead)
    known: dict[tuple[int, int, tuple[tuple[int, int], ...]],
                tuple[tuple[int, ...], list[list[Unit]]]] = {}

    def best(at: int, need: int, counts: Holding) -> tuple[tuple[int, ...], list[list[Unit]]]:
        """The amounts of lines ``at`` on, and their units, the best the counts give."""
        if at == len(lines):
            return (), []
        _, tractor, width, start = lines[at]
        if start:
            need = start
        key = (at, need, tuple(sorted(counts.items())))
        found = known.get(key)
        if found is not None:
            return found
        options: list[tuple[int, list[Unit], Holding]] = []
        if tractor:
            _, length = longest_run(counts, ctx, width, cap=need)
            if length >= 2:
                for unit in unit_candidates(counts, ctx, width, length):
                    after = _remove(counts, unit)
                    assert after is not None
                    options.append((length, [unit], after))
        elif need:
            amount = min(need, sum(count // width for count in counts.values()))
            if amount:
                options = list(_groups_taken(counts, width, amount, strength))
        if not options:
            options.append((0, [], counts))
        chosen: tuple[tuple[int, ...], list[list[Unit]]] | None = None
        for amount, units, after in options:
            amounts, taken = best(at + 1, need - amount, after)
            if chosen is None or (amount, *amounts) > chosen[0]:
                chosen = ((amount, *amounts), [units, *taken])
        assert chosen is not None
        known[key] = chosen
        return chosen

    amounts, taken = best(0, 0, {ident: count for ident, count in holding.items() if count})
    return [(obligation(index, tractor, width, amount), units)
            for (index, tractor, width, _), amount, units in zip(lines, amounts, taken,
                                                                 strict=True)]


def _groups_taken(counts: Holding, width: int, amount: int, strength: Sequence[int]
                  ) -> Iterator[tuple[int, list[Unit], Holding]]:
    """Every way to take ``amount`` groups of ``width`` identical cards from ``counts``
    (an ident held twice as often gives two), as (amount, units, the counts left): the
    strongest cards first, as many of each as it gives first."""
    idents = sorted((i for i, count in counts.items() if count >= width),
                    key=lambda i: -strength[i])
    room = [counts[i] // width for i in idents]
    after_room = [sum(room[k:]) for k in range(len(idents) + 1)]
    taking = [0] * len(idents)

    def rec(k: int, left: int) -> Iterator[tuple[int, list[Unit], Holding]]:
        if not left:
            units: list[Unit] = []
            rest = dict(counts)
            for i, times in zip(idents, taking, strict=True):
                if times:
                    units += [n_of_a_kind(width, i, strength[i])] * times
                    rest[i] -= width * times
                    if not rest[i]:
                        del rest[i]
            yield amount, units, rest
            return
        if after_room[k] < left:
            return
        for times in range(min(room[k], left), -1, -1):
            taking[k] = times
            yield from rec(k + 1, left - times)
        taking[k] = 0

    yield from rec(0, amount)


def follow_amounts(holding: Holding, lead: Sequence[Unit], ctx: TrumpContext) -> list[int]:
    """``follow_value``'s amounts alone, line by line (what a legality test compares)."""
    if may_fall_short(holding, lead):
        return [ob.amount for ob in follow_value(holding, lead, ctx)]
    strength = ctx.strength
    by_level: dict[int, int] = {}
    for ident, count in holding.items():
        if strength[ident] in by_level:  # equal cards of two idents: the general way
            return [ob.amount for ob in follow_value(holding, lead, ctx)]
        by_level[strength[ident]] = count
    out: list[int] = []
    for unit in lead:
        width = unit.width
        if width < 2:
            continue
        need = unit.length
        if need >= 2:  # the longest run up to ``need`` (the highest on a tie)
            best_top = best_length = 0
            levels = sorted(s for s, count in by_level.items() if count >= width)
            start = 0
            for i in range(1, len(levels) + 1):
                if i == len(levels) or levels[i] != levels[i - 1] + 1:
                    length = min(i - start, need)
                    if length > best_length or (length == best_length and
                                                levels[i - 1] > best_top):
                        best_top, best_length = levels[i - 1], length
                    start = i
            if best_length >= 2:
                for s in range(best_top, best_top - best_length, -1):
                    by_level[s] -= width
                need -= best_length
                out.append(best_length)
            else:
                out.append(0)
        for w in range(width, 1, -1):
            taken = 0
            if need:
                for s in sorted(by_level, reverse=True):
                    while need and by_level[s] >= w:
                        by_level[s] -= w
                        need -= 1
                        taken += 1
            out.append(taken)
    return out


def first_shortfall(play: list[Obligation], hand: list[Obligation]) -> Obligation | None:
    """The hand's first obligation that the play does not meet, if any."""
    for mine, owed in zip(play, hand):
        if mine.amount > owed.amount:
            return None
        if mine.amount < owed.amount:
            return owed
    return None


def unit_candidates(holding: Holding, ctx: TrumpContext, width: int, length: int) -> list[Unit]:
    """Every distinct way to take a unit of this shape, strongest first."""
    out: list[Unit] = []
    by_strength = _by_strength(holding, ctx, width)
    for top, run_length in runs(holding, ctx, width):
        for t in range(top, top - run_length + length - 1, -1):
            for choice in _ident_choices(by_strength, t, length):
                out.append(unit_of(width, length, t, choice))
    out.sort(key=lambda u: -u.top)
    return out


def _ident_choices(by_strength: dict[int, list[int]], top: int, length: int
                   ) -> Iterator[tuple[int, ...]]:
    if length == 0:
        yield ()
        return
    for ident in by_strength[top]:
        for rest in _ident_choices(by_strength, top - 1, length - 1):
            yield (ident, *rest)


def _remove(holding: Holding, unit: Unit) -> Holding | None:
    out = dict(holding)
    for ident in unit.idents:
        left = out.get(ident, 0) - unit.width
        if left < 0:
            return None
        if left:
            out[ident] = left
        else:
            del out[ident]
    return out


def _fill(holding: Holding, ctx: TrumpContext, lead: list[Unit], i: int) -> bool:
    if i == len(lead):
        return True
    unit = lead[i]
    if unit.width == 1 and unit.length == 1:
        return sum(holding.values()) >= len(lead) - i
    for cand in unit_candidates(holding, ctx, unit.width, unit.length):
        rest = _remove(holding, cand)
        if rest is not None and _fill(rest, ctx, lead, i + 1):
            return True
    return False


def deciding_strength(holding: Holding, ctx: TrumpContext, lead: Sequence[Unit]
                      ) -> tuple[int, int] | None:
    """(tier, strength) of the best deciding component of a play with the lead's
    structure, or None when the play does not have that structure (and cannot win).

    The deciding component is the lead's largest (``lead`` is sorted largest first).
    A wider tractor of as many cards stands for a tractor lead and beats any tractor of
    the led width (RULES §4: a triple tractor beats a pair tractor, a quad tractor a
    triple tractor, with the same number of cards); its tier is how much wider it is.
    """
    first = lead[0]
    if sum([count for count in holding.values() if count >= first.width]) < first.size:
        # every unit that can stand for the largest (as wide or wider, as many cards) is
        # made of cards held ``first.width`` times or more: too few of them, told at once
        return None
    rest = list(lead[1:])
    shapes = [(width - first.width, width, first.size // width)
              for width in range(4, first.width, -1)
              if first.is_tractor and first.size % width == 0 and first.size // width >= 2]
    shapes.append((0, first.width, first.length))
    for tier, width, length in shapes:
        for cand in unit_candidates(holding, ctx, width, length):
            remaining = _remove(holding, cand)
            if remaining is not None and _fill(remaining, ctx, rest, 0):
                return (tier, cand.top)
    return None


def unbeatable_by(unit: Unit, other: Holding, ctx: TrumpContext) -> bool:
    """No unit of the same shape in ``other`` is higher (RULES §2 throw validation)."""
    if unit.length == 1:
        strength, width, top = ctx.strength, unit.width, unit.top
        for ident, count in other.items():
            if count >= width and strength[ident] > top:
                return False
        return True
    return not any(top > unit.top and length >= unit.length
                   for top, length in runs(other, ctx, unit.width))


def multisets(cards: Sequence[Card], n: int, limit: int | None = None
              ) -> list[tuple[Card, ...]]:
    """The distinct multisets of ``n`` of ``cards`` (the first ``limit`` of them), in one
    fixed order: cards by index, highest first; as many of the first card as possible
    first, then the next."""
    if limit == 0:
        return []
    ordered = sorted(cards, key=card_index, reverse=True)
    distinct = list(dict.fromkeys(ordered))
    if len(distinct) == len(ordered):  # no copies: plain combinations, in the same order
        return list(islice(combinations(ordered, n), limit))
    if n == 1:
        singles: list[tuple[Card, ...]] = [(card,) for card in distinct]
        return singles[:limit]
    out: list[tuple[Card, ...]] = []
    if n == 2:
        for i, card in enumerate(distinct):
            if ordered.count(card) > 1:
                out.append((card, card))
            out += [(card, other) for other in distinct[i + 1:]]
        return out[:limit]
    counts = [ordered.count(card) for card in distinct]
    after = [sum(counts[i:]) for i in range(len(counts) + 1)]  # cards from i on
    cap = limit if limit is not None else -1
    picked: list[Card] = []

    def rec(i: int, left: int) -> bool:  # True: the limit is reached
        if left == 0:
            out.append(tuple(picked))
            return len(out) == cap
        if after[i] < left:
            return False
        card = distinct[i]
        for take in range(min(counts[i], left), -1, -1):
            picked.extend([card] * take)
            if rec(i + 1, left - take):
                return True
            del picked[len(picked) - take:]
        return False

    rec(0, n)
    return out


def without(plays: list[tuple[Card, ...]], play: tuple[Card, ...] | None
            ) -> list[tuple[Card, ...]]:
    """``[p for p in plays if p != play]`` for distinct ``plays`` (multisets): the one
    play found by hash, not compared with each."""
    if play is None:
        return list(plays)
    kept = dict.fromkeys(plays)
    kept.pop(play, None)
    return list(kept)


def take_out(cards: list[Card], taken: Iterable[Card]) -> None:
    """``cards`` less each of ``taken`` (held), in place."""
    for card in taken:
        cards.remove(card)


def copies_of(cards: Iterable[Card]) -> dict[Card, int]:
    """How many of each card, in the order first met (``Counter``'s count, without its
    own Python steps: dearer for the few cards of a play)."""
    copies: dict[Card, int] = {}
    for card in cards:
        copies[card] = copies.get(card, 0) + 1
    return copies


def grouped(cards: Iterable[Card], key: Sequence[int]) -> dict[int, list[Card]]:
    """``cards`` by ``key[card.index]`` (``ctx.eff``: by suit; ``ctx.ident``: by ident),
    each group in the cards' order."""
    out: dict[int, list[Card]] = {}
    for card in cards:
        same = out.get(key[card.index])
        if same is None:
            out[key[card.index]] = [card]
        else:
            same.append(card)
    return out


def as_multiset(cards: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` written as :func:`multisets` writes a multiset: by index, highest first."""
    return tuple(sorted(cards, key=card_index, reverse=True))


def multisets_with_kinds(cards: Sequence[Card], n: int, width: int, kinds: int = 1
                         ) -> list[tuple[Card, ...]]:
    """``[m for m in multisets(cards, n) if m holds kinds groups of width identical
    cards]`` (four copies of a card are two pairs), built without the others: where each
    ident is one card, the follows whose one owed line is ``kinds`` n-of-a-kind of
    ``width`` (at least 2), as ``follow_amounts`` counts them."""
    ordered = sorted(cards, key=card_index, reverse=True)
    copies = copies_of(ordered)
    if kinds == 1 and width == n:  # the play is its kind
        return [(card,) * n for card, count in copies.items() if count >= n]
    distinct = list(copies)
    counts = list(copies.values())
    if kinds == 1 and n == width + 1:  # (a triple followed with pairs: the commonest)
        return _one_kind_and_one(distinct, counts, width)
    if kinds == 1:
        wide = [i for i, count in enumerate(counts) if count >= width]
        if len(wide) <= 1:  # (a tractor followed by a seat with one pair: the commonest)
            return _the_one_group_and_any(ordered, distinct, counts, wide, n, width)
    size = len(distinct)
    after = [0] * (size + 1)  # cards from i on
    kinds_after = [0] * (size + 1)  # groups of ``width`` the cards from i on make
    for i in range(size - 1, -1, -1):
        after[i] = after[i + 1] + counts[i]
        kinds_after[i] = kinds_after[i + 1] + counts[i] // width
    out: list[tuple[Card, ...]] = []
    picked: list[Card] = []

    def rec(i: int, left: int, short: int) -> None:  # short: groups missing (if > 0)
        if left == 0:
            out.append(tuple(picked))  # (a play short of groups is cut before)
            return
        if after[i] < left:
            return
        card = distinct[i]
        for take in range(min(counts[i], left), -1, -1):
            still = short - take // width
            if still > 0 and ((left - take) // width < still or kinds_after[i + 1] < still):
                continue  # the cards left cannot make the groups missing
            picked.extend([card] * take)
            rec(i + 1, left - take, still)
            del picked[len(picked) - take:]

    rec(0, n, kinds)
    return out


def _one_kind_and_one(distinct: list[Card], counts: list[int], width: int
                      ) -> list[tuple[Card, ...]]:
    """``multisets_with_kinds`` of ``width + 1`` cards holding one group of ``width``
    (``distinct`` by index, highest first, held ``counts`` times), written out: by the
    first card, as many of it as can be taken first; a play takes all ``width + 1`` of
    it, ``width`` of it and any later card, or one of it and a later group."""
    n = width + 1
    wide = [(j, card) for j, card in enumerate(distinct) if counts[j] >= width]
    out: list[tuple[Card, ...]] = []
    for i, card in enumerate(distinct):
        count = counts[i]
        if count >= n:
            out.append((card,) * n)
        if count >= width:
            group = (card,) * width
            out += [(*group, other) for other in distinct[i + 1:]]
        out += [(card, *(other,) * width) for j, other in wide if j > i]
    return out


def _the_one_group_and_any(ordered: list[Card], distinct: list[Card], counts: list[int],
                           wide: list[int], n: int, width: int) -> list[tuple[Card, ...]]:
    """``multisets_with_kinds`` of one group where at most one card (``wide``: its
    place in ``distinct``) is held ``width`` times or more: that group and any ``n -
    width`` of the other cards, in the order of those others' multisets (the group adds
    the same to each play, so the plays keep its order), the group written in place."""
    if not wide:
        return []
    i = wide[0]
    kind = distinct[i]
    at = sum(counts[:i])  # the card's first copy in ``ordered`` (highest index first)
    group = (kind,) * width
    top = kind.index
    out: list[tuple[Card, ...]] = []
    for rest in multisets(ordered[:at] + ordered[at + width:], n - width):
        above = 0  # the cards of ``rest`` written before the group
        for card in rest:
            if card.index <= top:
                break
            above += 1
        out.append(rest[:above] + group + rest[above:])
    return out


def _cards_short(whole: Holding, picked: Holding, idents: list[int], tractor: bool,
                 width: int, due: int, strength: Sequence[int]) -> int:
    """How many more cards a play needs, beyond those ``picked``, taking the rest from
    ``whole`` (the picked ones and all those not decided), for one line of
    ``follow_amounts`` worked out on its whole holding (as if every line before took
    nothing) to reach ``due``: a run of ``due`` steps of ``width`` copies, or ``due``
    n-of-a-kind of ``width``; ``idents``: those the hand holds ``width`` of (no others
    count). ``NEVER`` when ``whole`` cannot."""
    if not tractor:  # the cheapest groups of ``width`` (an ident's first is the cheapest)
        if due == 1:
            best = NEVER
            for ident in idents:
                if whole[ident] >= width:
                    missing = width - picked[ident]
                    if missing < best:
                        best = missing if missing > 0 else 0
            return best
        costs: list[int] = []
        for ident in idents:
            have = picked[ident]
            for top in range(width, whole[ident] + 1, width):
                costs.append(min(width, max(0, top - have)))
        if len(costs) < due:
            return NEVER
        return sum(sorted(costs)[:due]) if len(costs) > due else sum(costs)
    step: dict[int, int] = {}  # strength -> the fewest cards missing for a step there
    for ident in idents:
        if whole[ident] >= width:
            s = strength[ident]
            missing = max(0, width - picked[ident])
            if missing < step.get(s, NEVER):
                step[s] = missing
    best = NEVER
    for s in step:  # each run of ``due`` steps, by its lowest
        total = 0
        for k in range(due):
            found = step.get(s + k)
            if found is None:
                break
            total += found
        else:
            best = min(best, total)
    return best


NEVER = 1 << 30


def multisets_meeting(cards: Sequence[Card], n: int, lead: Sequence[Unit], owed: list[int],
                      meets: Callable[[Sequence[Card]], bool], ctx: TrumpContext,
                      limit: int | None = None) -> list[tuple[Card, ...]]:
    """``[m for m in multisets(cards, n, limit) if meets(m)]`` for a follower holding
    ``cards`` of the led suit, whose ``follow_amounts`` are ``owed``, without trying the
    multisets that cannot meet them.

    A play's lines are compared with the hand's, the first that differs deciding. Before
    the first line the hand owes (k), the hand's lines are 0, and so are any play's:
    each line, worked out on an untouched holding, grows with the holding, and a play
    holds no more than the hand. So a legal play reaches line k's amount on its own
    cards, and the multisets that cannot (``_cards_short``: the cards chosen so far
    need more than are left to choose) are skipped, counted towards ``limit``; so are
    those that cannot reach the next line where it completes a run owed. Where the hand
    owes nothing after the lines reached, reaching them is enough (``meets`` is not
    asked); where that line is n-of-a-kind, each ident one card and every candidate
    within ``limit``, the plays are listed directly (``multisets_with_kinds``).
    """
    lines = [(tractor, w) for _, tractor, w, _ in follow_lines(lead)]
    first = next((k for k, due in enumerate(owed) if due), None)
    if first is None or limit == 0:  # nothing is owed: every play meets it
        return multisets(cards, n, limit)
    tractor, width = lines[first]
    due = owed[first]
    # a play reaching line k meets what is owed when nothing more is owed after it
    decided = not any(owed[first + 1:])
    # A run owed, then n-of-a-kind of its width (the rest of the same component): taking
    # the run takes one group of ``width`` from each of its idents, so a play reaches the
    # second line only holding as many groups as both lines' amounts together.
    both = 0
    if tractor and first + 1 < len(owed) and owed[first + 1]:
        assert lines[first + 1] == (False, width)
        both = due + owed[first + 1]
        decided = not any(owed[first + 2:])
    ordered = sorted(cards, key=card_index, reverse=True)
    copies = copies_of(ordered)
    distinct = list(copies)
    counts = list(copies.values())
    counted = limit is not None and comb(len(ordered), n) > limit  # can the limit be met?
    if decided and not tractor and not counted and ctx.ident_is_card:
        # n-of-a-kind owed, and each ident one card: the plays that hold them
        return multisets_with_kinds(ordered, n, width, due)
    keys = [ctx.ident[card.index] for card in distinct]
    size = len(distinct)
    after = [sum(counts[i:]) for i in range(size + 1)]  # cards from i on
    cap = limit if counted and limit is not None else -1
    # ways[i][left]: the multisets of ``left`` cards from distinct[i:] (for the skipped
    # ones to count towards the limit)
    ways = [[0] * (n + 1) for _ in range(size + 1)]
    if counted:
        ways[size][0] = 1
        for i in range(size - 1, -1, -1):
            below, here = ways[i + 1], ways[i]
            for left in range(n + 1):
                here[left] = sum(below[left - t] for t in range(min(counts[i], left) + 1))
    whole = holding_of(cards, ctx)  # the cards chosen so far and all those not decided
    idents = [ident for ident, count in whole.items() if count >= width]
    picked: Holding = dict.fromkeys(whole, 0)
    strength = ctx.strength
    chosen: list[Card] = []
    out: list[tuple[Card, ...]] = []
    tried = 0

    def shortfall() -> int:
        short = _cards_short(whole, picked, idents, tractor, width, due, strength)
        if both:
            return max(short, _cards_short(whole, picked, idents, False, width, both, strength))
        return short

    def rec(i: int, left: int) -> bool:  # True: the limit is reached
        nonlocal tried
        if left == 0:
            tried += 1
            play = tuple(chosen)
            if decided or meets(play):
                out.append(play)
            return tried == cap
        if after[i] < left:
            return False
        card, count, key = distinct[i], counts[i], keys[i]
        held, had = whole[key], picked[key]
        below = ways[i + 1]
        short = -1 if whole[key] >= width else shortfall()  # (no part in it)
        for take in range(min(count, left), -1, -1):
            whole[key] = held - count + take
            picked[key] = had + take
            if (short if short >= 0 else shortfall()) > left - take:
                if counted:
                    tried += below[left - take]  # none of these can meet what is owed
                    if tried >= cap:
                        break
                continue
            chosen.extend([card] * take)
            if rec(i + 1, left - take):
                tried = cap
                break
            del chosen[len(chosen) - take:]
        whole[key], picked[key] = held, had
        return 0 <= cap <= tried

    rec(0, n)
    return out


def multisets_of_groups(cards: Sequence[Card], n: int, width: int, limit: int | None = None
                        ) -> list[tuple[Card, ...]]:
    """The multisets of ``multisets(cards, n, limit)`` that hold each card a multiple of
    ``width`` times, built from the groups alone: the candidates for a follow whose owed
    lines (a run, then n-of-a-kind, each of ``width``) take all its ``n`` cards. Held
    ``k`` groups of a card before ``k - 1``, as ``multisets`` takes it, so in its order."""
    if n % width or limit == 0:
        return []
    ordered = sorted(cards, key=card_index, reverse=True)
    copies = copies_of(ordered)
    groups = [card for card, count in copies.items() for _ in range(count // width)]
    plays = [tuple(card for card in chosen for _ in range(width))
             for chosen in multisets(groups, n // width)]
    if limit is None or comb(len(ordered), n) <= limit:
        return plays
    distinct = list(copies)
    counts = list(copies.values())
    # sums[i][left]: the multisets of up to ``left`` cards from distinct[i:] (a play's
    # rank in the order adds, card by card, those taking more of the card than it does)
    # (sums[i][left] is the sum of sums[i + 1][left - t] for t up to the card's count:
    # added shifted row by row, in C)
    sums = [[1] * (n + 1)]
    for count in reversed(counts):
        below = row = sums[-1]
        for t in range(1, min(count, n) + 1):
            row = list(map(add, row, [0] * t + below[:-t]))
        sums.append(row)
    sums.reverse()

    def rank(play: tuple[Card, ...]) -> int:
        taken = Counter(play)
        total, left = 0, n
        for i, card in enumerate(distinct):
            take = taken.get(card, 0)
            if take < counts[i] and take < left:  # more of it: from left - take - 1 on
                below = sums[i + 1]
                most = min(counts[i], left)
                total += below[left - take - 1] - (below[left - most - 1]
                                                   if left > most else 0)
            left -= take
            if not left:
                break
        return total

    if not plays or rank(plays[-1]) < limit:  # (ranks grow along the list)
        return plays
    return [play for play in plays if rank(play) < limit]


def unit_cards(unit: Unit, cards: Sequence[Card], ctx: TrumpContext) -> tuple[Card, ...]:
    """The actual cards of ``cards`` that make up ``unit`` (red-black pairs mix suits)."""
    pool = list(cards)
    out: list[Card] = []
    for ident in unit.idents:
        same = [c for c in pool if ctx.ident[c.index] == ident][: unit.width]
        for card in same:
            pool.remove(card)
        out.extend(same)
    return tuple(out)
