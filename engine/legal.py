"""Legal actions for one seat: the basis of autocomplete, hints and computer players.

Everything here uses only what the seat may know, so it is safe to show the seat:
``sure`` throws are judged against the cards the seat has not seen, never against the
other hands (a throw that is sure for the seat always stands).

Enumeration bounds (documented in docs/rules.md):

* leads: every single, n-of-a-kind and tractor (changzhu: every pattern, at most
  ``PATTERN_CAP`` per kind); throws: per suit, every combination of its sure components
  when there are at most 5, else the largest sure throw and each that leaves one out;
  suit by suit, by suit number (the side suits, then the trumps);
* follows: the constructive follow first; then, built from what is owed, every legal
  follow of a changzhu lead and of a classic n-of-a-kind; for tractors and throws every
  legal follow when the seat's candidate combinations number at most ``FOLLOW_BUDGET``,
  beyond that the legal ones among the first ``FOLLOW_BUDGET`` (highest cards first),
  the candidates that cannot meet the first obligation owed skipped untried
  (``shapes.multisets_meeting``); a tractor follow owing groups for all its cards is
  built from the seat's groups alone (``shapes.multisets_of_groups``), the same list.

Speed (bench/engine.py): what a suit of a hand offers as leads, apart from what is
unseen, is worked out once per suit of cards and kept with the seat until the suit loses
a card (``_Suit``), and so are its sure throws by the suit's unseen tops where those
alone tell them; the cards played in finished tricks are counted by the game as each
trick ends (``Playing.played``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from heapq import nsmallest
from itertools import combinations, filterfalse, product

from engine.cards import ALL_CARDS, Card, Rank
from engine.errors import EngineError
from engine.game import Dealing, Game, MatchState, Playing, remove_cards
from engine.order import TRUMP, TrumpContext
from engine.plays import FOLLOW_BUDGET, Lead, PlayRules
from engine.rules import DeclarationStyle
from engine.shapes import (
    Holding,
    Unit,
    as_multiset,
    decompose,
    decompose_distinct,
    decompose_greedy,
    grouped,
    multisets,
    n_of_a_kind,
    strength_runs,
    unbeatable_by,
    unit_cards,
    unit_of,
    without,
)
from engine.values import derived

Cards = tuple[Card, ...]


def check_play(game: Game, seat: int, cards: Sequence[Card]) -> None:
    """Would ``Play(seat, cards)`` be accepted? Raises the same ``EngineError`` as ``apply``
    would, without changing anything. (A throw that would fail is still a legal play.)"""
    phase = game.phase
    if not isinstance(phase, Playing):
        raise EngineError("wrong_phase", phase=phase.name, action="play")
    if seat != phase.turn:
        raise EngineError("not_your_turn", turn=phase.turn, task="play")
    remove_cards(phase.hands[seat], cards)
    lead = phase.trick.lead
    if lead is None:
        game.play_rules.lead(cards, phase.ctx)
    else:
        game.play_rules.check_follow(lead, cards, phase.hands[seat], phase.ctx)


def seen_by(game: Game, seat: int) -> Counter[Card]:
    """Every card the seat has seen: its hand, the cards played, the kitty it buried."""
    phase = game.phase
    assert isinstance(phase, Playing)
    counts = _seen_counts(phase, seat)
    return Counter({ALL_CARDS[i]: n for i, n in enumerate(counts) if n})


def unseen_by(game: Game, seat: int) -> Counter[Card]:
    phase = game.phase
    assert isinstance(phase, Playing)
    decks = game.rules.decks
    return Counter({ALL_CARDS[i]: decks - n for i, n in enumerate(_seen_counts(phase, seat))
                    if n < decks})


def _seen_counts(phase: Playing, seat: int) -> list[int]:
    """``seen_by`` as counts by card index."""
    counts = list(phase.played)
    for card in phase.hands[seat]:
        counts[card.index] += 1
    _add_seen_off_hand(phase, seat, counts)
    return counts


def _add_seen_off_hand(phase: Playing, seat: int, counts: list[int]) -> None:
    """Adds to ``counts`` what the seat has seen beside its hand and the finished tricks:
    the trick's plays so far and the kitty it buried."""
    for _, cards in phase.trick.plays:
        for card in cards:
            counts[card.index] += 1
    if phase.taker == seat:
        for card in phase.kitty:
            counts[card.index] += 1


def legal_plays(game: Game, seat: int) -> list[Cards]:
    """Legal plays for ``seat`` now (empty when it is not the seat's turn to play)."""
    state = game.state  # (the state's: the ``Game`` properties cost a call each)
    phase = state.phase
    if not isinstance(phase, Playing) or phase.turn != seat:
        return []
    lead = phase.trick.lead
    if lead is None:
        return _leads(state, phase, seat)
    return legal_follows(game, lead, phase.hands[seat], phase.ctx)


# -- leads ------------------------------------------------------------------------------

def _units_of(by_ident: dict[int, list[Card]], ctx: TrumpContext, max_width: int
              ) -> list[Cards]:
    """Every n-of-a-kind and tractor of one suit (``by_ident``: its cards by ident, in
    hand order): by width, then by length, then strongest first (the idents of a step in
    ascending order)."""
    strength = ctx.strength
    out: list[Cards] = []
    for width in range(2, max_width + 1):
        by_strength: dict[int, list[int]] = {}
        for key in sorted(by_ident):
            if len(by_ident[key]) >= width:
                by_strength.setdefault(strength[key], []).append(key)
        if not by_strength:
            break
        down: dict[int, int] = {}  # strength -> length of the run ending there, going down
        for s in sorted(by_strength):
            down[s] = down.get(s - 1, 0) + 1
        tops = sorted(by_strength, reverse=True)
        for length in range(1, max(down.values()) + 1):
            for top in tops:
                if down[top] < length:
                    continue
                if length == 1 and len(by_strength[top]) == 1:
                    out.append(tuple(by_ident[by_strength[top][0]][:width]))
                    continue
                steps = [by_strength[top - k] for k in range(length)]
                for choice in product(*steps):
                    out.append(tuple(c for key in choice for c in by_ident[key][:width]))
    return out


def _distinct_units(order: list[int], by_ident: dict[int, list[Card]], strength: Sequence[int],
                    max_width: int) -> list[Cards]:
    """``_units_of`` for a suit whose idents (``order``, strongest first) all differ in
    strength."""
    out: list[Cards] = []
    for width in range(2, max_width + 1):
        present = [key for key in order if len(by_ident[key]) >= width]
        if not present:
            break
        out += [tuple(by_ident[key][:width]) for key in present]
        runs = strength_runs(present, strength)
        for length in range(2, max(map(len, runs)) + 1):
            for run in runs:
                for i in range(len(run) - length + 1):
                    out.append(tuple(c for key in run[i:i + length] for c in by_ident[key][:width]))
    return out


def legal_leads(game: Game, seat: int) -> list[Cards]:
    phase = game.state.phase
    assert isinstance(phase, Playing)
    return _leads(game.state, phase, seat)


def _leads(state: MatchState, phase: Playing, seat: int) -> list[Cards]:
    ctx = phase.ctx
    rules = state.play_rules
    width = rules.lead_width
    throws = rules.throws
    patterned = rules.has_pattern_leads
    unseen: _Unseen | None = None
    hand = phase.hands[seat]
    seen: list[int] = []
    decks = state.rules.decks
    eff = ctx.eff
    # the hand's cards by suit number (``TRUMP + 1`` of them: a list indexed, not a dict)
    by_suit: list[list[Card]] = [[], [], [], [], []]
    if throws:  # the hand split by suit and its cards tallied as seen in one pass
        seen = list(phase.played)
        for card in hand:
            i = card.index
            seen[i] += 1
            by_suit[eff[i]].append(card)
        if phase.taker == seat or phase.trick.plays:
            _add_seen_off_hand(phase, seat, seen)
    else:
        for card in hand:
            by_suit[eff[card.index]].append(card)
    out: list[Cards] = []
    # The seat's suits as its last lead listing of this hand left them (the hand's kitty,
    # held by the entry, tells the hand); a suit that lost no card since is reused.
    kitty = phase.kitty
    seat_key = id(kitty) * 8 + seat  # (``_SEAT_SUITS``' key)
    kept = _SEAT_SUITS.get(seat_key)
    last: Sequence[_Suit | None]
    if kept is not None and kept[0] is kitty and kept[1] is ctx and kept[2] == width:
        last, tiers = kept[3], kept[4]
    else:
        last, tiers = _NO_SUITS, _flat_tiers(ctx)
    suits: list[_Suit | None] = [None, None, None, None, None]
    # Singles, units, throws and patterns of a suit are distinct plays (distinct cards,
    # shapes or sizes), and so are those of different suits. The suits come by number.
    for suit, cards in enumerate(by_suit):
        if not cards:
            continue
        if len(cards) == 1 and not patterned:  # (a lone card: its single, nothing kept)
            out.append(_ONE[cards[0].index])
            continue
        plays = last[suit]
        if plays is None or plays.cards != cards:
            before = plays
            plays = _suit(cards, ctx, width)
            if before is not None and before.beaten_by is not None:
                plays.may_be_beaten_by(before.beaten_by)
        suits[suit] = plays
        out += plays.leads
        if patterned and plays.has_patterns:
            out += plays.patterns(rules)
        if throws and len(cards) > 1:
            beaten_by = plays.beaten_by
            if beaten_by is not None and seen[beaten_by] < decks:
                continue  # (still unseen: its second single is beaten, so is every throw)
            if unseen is None:  # asked per suit as needed, made once
                unseen = _Unseen(seen, decks, ctx, tiers)
            out += plays.sure_throws(unseen, suit)
    if kept is None and len(_SEAT_SUITS) >= _SEAT_SUITS_ENTRIES:
        _SEAT_SUITS.clear()
    _SEAT_SUITS[seat_key] = (kitty, ctx, width, suits, tiers)
    return out


class _Unseen:
    """The cards one seat has not seen, asked per suit as the leads need them."""

    __slots__ = ("_flat", "_holdings", "_paired", "_paired_seen", "ctx", "decks", "seen")

    def __init__(self, seen: list[int], decks: int, ctx: TrumpContext,
                 tiers: tuple[Flat | None, Paired | None] | None = None) -> None:
        """``tiers``: ``_flat_tiers(ctx)``, where the caller has them."""
        self.seen = seen
        self.decks = decks
        self.ctx = ctx
        self._flat, self._paired = _flat_tiers(ctx) if tiers is None else tiers
        # (``seen`` and, past its end, a group's missing second card: seen ``decks`` times)
        self._paired_seen = seen + [decks] if self._paired is not None else seen
        self._holdings: dict[int, Holding] | None = None  # (seldom asked: made when first)

    def strongest(self, suit: int, floor: int) -> tuple[int, int | None]:
        """The strength of the strongest card of the suit the seat has not seen where it
        is above ``floor`` (else -1), and, where each card is its own ident, that card's
        index (else None). (A suit of singles asks it once: the scan stops at its
        weakest single.)"""
        flat = self._flat
        if flat is None:
            top = self.tops(suit, 1)[1]
            return (top if top > floor else -1), None
        seen, decks = self.seen, self.decks
        for s, i in flat[suit]:
            if s <= floor:
                break
            if seen[i] < decks:
                return s, i
        return -1, None

    def tops(self, suit: int, widest: int) -> list[int]:
        """By width up to ``widest``, the strength of the strongest unseen n-of-a-kind of
        the suit (-1: none): an unseen n-of-a-kind of ``width`` beats a kind of strength
        ``top`` where ``tops[width] > top``. (One scan of the suit, down to where the
        widest is found; a listing asks each suit once, so nothing is kept.)"""
        seen, decks = self.seen, self.decks
        found = [-1] * (widest + 1)
        width = 1  # the narrowest not yet found
        if self._flat is not None:
            for s, i in self._flat[suit]:
                n = decks - seen[i]
                if n >= width:
                    while width <= n and width <= widest:
                        found[width] = s
                        width += 1
                    if width > widest:
                        break
            return found
        if self._paired is not None:
            seen, both = self._paired_seen, 2 * decks
            for s, i, j in self._paired[suit]:
                n = both - seen[i] - seen[j]
                if n >= width:
                    while width <= n and width <= widest:
                        found[width] = s
                        width += 1
                    if width > widest:
                        break
            return found
        tiers = self.ctx.ident_tiers[suit]
        for s in range(len(tiers) - 1, -1, -1):
            for group in tiers[s]:
                n = decks - seen[group[0]] if len(group) == 1 else \
                    sum(decks - seen[i] for i in group)
                while width <= n and width <= widest:
                    found[width] = s
                    width += 1
            if width > widest:
                break
        return found

    def beats_tractor(self, suit: int, unit: Unit) -> bool:
        """Is an unseen tractor stronger than ``unit`` (a tractor of the suit)? (Read
        from the suit's cards strongest first where each card is its own ident, down to
        where no run above ``unit`` can go on; else ``unbeatable_by`` on the holding.)"""
        if self._flat is None:
            return not unbeatable_by(unit, self.holding(suit), self.ctx)
        seen, decks = self.seen, self.decks
        width, length, top = unit.width, unit.length, unit.top
        run_top = low = -2  # the run of levels holding ``width`` unseen copies
        for s, i in self._flat[suit]:
            if s == low or decks - seen[i] < width:
                continue  # (a level already in the run, or too few copies)
            if s == low - 1:
                low = s
            elif s <= top:
                return False  # a run starting here or below is not stronger
            else:
                run_top = low = s
            if run_top > top and run_top - low + 1 >= length:
                return True
        return False

    def holding(self, suit: int) -> Holding:
        if self._holdings is None:
            self._holdings = {}
        found = self._holdings.get(suit)
        if found is None:
            seen, decks, ident = self.seen, self.decks, self.ctx.ident
            found = self._holdings[suit] = {}
            for tier in self.ctx.ident_tiers[suit]:
                for group in tier:
                    n = decks - seen[group[0]] if len(group) == 1 else \
                        sum(decks - seen[i] for i in group)
                    if n > 0:
                        found[ident[group[0]]] = n
        return found


Flat = dict[int, tuple[tuple[int, int], ...]]
Paired = dict[int, tuple[tuple[int, int, int], ...]]

# By context (``derived``), each suit's ident groups
# strongest first, for the scans of what is unseen (one step a group, no tier loop or
# group to open): where every card is its own ident, as (strength, card index); else,
# where no group has more than two cards (red-black: a rank of a colour), as (strength,
# card index, the other card's index or ``_NO_CARD`` past the counts' end); else None.
_FLAT: dict[int, tuple[TrumpContext, tuple[Flat | None, Paired | None]]] = {}
_NO_CARD = len(ALL_CARDS)


def _flat_tiers(ctx: TrumpContext) -> tuple[Flat | None, Paired | None]:
    return derived(ctx, _FLAT, _make_flat_tiers)


def _make_flat_tiers(ctx: TrumpContext) -> tuple[Flat | None, Paired | None]:
    groups = {suit: [(s, group) for s in range(len(tiers) - 1, -1, -1) for group in tiers[s]]
              for suit, tiers in ctx.ident_tiers.items()}
    if ctx.ident_is_card:
        return {suit: tuple((s, group[0]) for s, group in steps)
                for suit, steps in groups.items()}, None
    if all(len(group) <= 2 for steps in groups.values() for _, group in steps):
        return None, {suit: tuple((s, group[0], group[1] if len(group) == 2 else _NO_CARD)
                                  for s, group in steps)
                      for suit, steps in groups.items()}
    return None, None


# By context (``derived``), each ident's single and pair (``n_of_a_kind``'s shared
# units), read by index where a suit is built: a cached call each cost more than the
# rest of a suit's components.
_KINDS: dict[int, tuple[TrumpContext, tuple[tuple[Unit, ...], tuple[Unit, ...]]]] = {}


def _kinds(ctx: TrumpContext) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    return derived(ctx, _KINDS, _make_kinds)


def _make_kinds(ctx: TrumpContext) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    strength = ctx.strength
    singles, pairs = (tuple(n_of_a_kind(width, i, s) for i, s in enumerate(strength))
                      for width in (1, 2))
    return singles, pairs


class _Suit:
    """One suit of a seat's hand as its lead listings ask it (``_suit``): the leads that
    do not depend on what is unseen, and the sure throws given what is unseen."""

    __slots__ = ("_patterns", "_throws", "beaten_by", "cards", "ctx", "has_patterns", "leads")

    def __init__(self, cards: list[Card], ctx: TrumpContext, leads: list[Cards]) -> None:
        self.cards = cards
        self.ctx = ctx
        self.leads = leads
        self._throws: dict[tuple[int, ...], list[Cards]] | None = None  # made when first kept
        self._patterns: list[Cards] | None = None
        self.has_patterns = True  # until ``patterns`` finds none
        # Of a suit of singles: a card it was last told the seat has not seen, stronger
        # than its second single (no throw while it stays unseen). Each card one ident.
        self.beaten_by: int | None = None

    def sure_throws(self, unseen: _Unseen, suit: int) -> list[Cards]:
        raise NotImplementedError

    def may_be_beaten_by(self, card: int) -> None:
        """Takes ``card`` (the card index of a single the seat had not seen) as
        ``beaten_by`` where it would be (a suit of singles). (Where the suit lost cards
        since, the card that beat it still does.)"""

    def _kept_throws(self, sure: tuple[int, ...], parts: Sequence[Cards]) -> list[Cards]:
        """``_groups``, kept by ``sure`` (most suits are asked more than once)."""
        if self._throws is None:
            self._throws = {}
        found = self._throws.get(sure)
        if found is None:
            found = self._throws[sure] = self._groups(sure, parts)
        return found

    @staticmethod
    def _groups(sure: tuple[int, ...], parts: Sequence[Cards]) -> list[Cards]:
        """Every combination of the components ``sure`` (at most 5), else all of them and
        each that leaves one out; largest first."""
        groups: list[tuple[int, ...]]
        if len(sure) <= 5:
            groups = [g for n in range(len(sure), 1, -1) for g in combinations(sure, n)]
        else:
            groups = [sure] + [sure[:i] + sure[i + 1:] for i in range(len(sure))]
        out = []
        for group in groups:
            throw = parts[group[0]]
            for i in group[1:]:
                throw = throw + parts[i]
            out.append(throw)
        return out

    def patterns(self, rules: PlayRules) -> list[Cards]:
        """The style's pattern leads of the suit (``PlayRules.pattern_leads``), cached."""
        if self._patterns is None:
            self._patterns = rules.pattern_leads(self.cards, self.ctx)
            self.has_patterns = bool(self._patterns)
        return self._patterns


def _suit(cards: list[Card], ctx: TrumpContext, max_width: int) -> _Suit:
    """The suit of ``cards`` (one effective suit's, in hand order)."""
    # (distinct idents are distinct cards; of a suit's few cards, a set built by a
    # comprehension is cheaper than one of two maps)
    if len(set(cards) if ctx.ident_is_card else {ctx.ident[card.index] for card in cards}
           ) == len(cards):
        # no two identical cards: only singles, strongest first, the cards' order on a tie
        return _SuitOfSingles(cards, ctx, [_ONE[card.index] for card in sorted(
            cards, key=ctx.strongest_first.__getitem__)])
    return _SuitLeads(cards, ctx, max_width)


class _SuitOfSingles(_Suit):
    """A suit without two identical cards: its singles, strongest first (the cards' order
    on a tie), are its leads and its components."""

    __slots__ = ()

    def sure_throws(self, unseen: _Unseen, suit: int) -> list[Cards]:
        # the strongest singles no unseen card beats
        leads, strength = self.leads, self.ctx.strength
        top, card = unseen.strongest(suit, strength[leads[-1][0].index])
        if top > strength[leads[1][0].index]:
            self.beaten_by = card
            return []  # the second strongest is beaten, and so is every other
        sure = 2
        while sure < len(leads) and top <= strength[leads[sure][0].index]:
            sure += 1
        return self._kept_throws(tuple(range(sure)), leads)

    def may_be_beaten_by(self, card: int) -> None:
        if len(self.leads) > 1:
            strength = self.ctx.strength
            if strength[card] > strength[self.leads[1][0].index]:
                self.beaten_by = card


class _SuitLeads(_Suit):
    """A suit with identical cards: its singles and units, and the components
    (``decompose``) any throw of the suit is made of."""

    __slots__ = (
        "_by_ident",
        "_by_tops",
        "_order",
        "_part_cards",
        "_parts",
        "_throw_parts",
        "_widest",
        "choice_free",
        "max_width",
    )

    def __init__(self, cards: list[Card], ctx: TrumpContext, max_width: int) -> None:
        _Suit.__init__(self, cards, ctx, [])
        self.max_width = max_width
        self._parts: list[Unit] | None = None
        self._throw_parts: dict[tuple[int, ...], list[tuple[Cards, list[Unit]]]] | None = None
        # sure throws by the suit's unseen tops, where those alone tell them
        self._by_tops: dict[tuple[int, ...], list[Cards]] | None = None
        self._by_ident: dict[int, list[Card]] | None = None
        self._order: list[int] | None = None
        self.choice_free = True
        strength = ctx.strength
        suit_order = ctx.distinct_idents[ctx.eff[cards[0].index]]
        if suit_order is not None and ctx.ident_is_card and max_width >= 2:
            ordered = sorted(cards, key=ctx.strongest_first.__getitem__)
            if self._pairs_of_cards(ordered, strength):
                return  # (classic's suits with pairs: no grouping by ident)
            # (a card held three times or more: grouped from the same sort, strongest first)
            by_ident = grouped(ordered, ctx.ident)
            order = list(by_ident)
        elif suit_order is not None:  # (a filter in C: cheaper than a sort with a key)
            by_ident = grouped(cards, ctx.ident)
            order = list(filter(by_ident.__contains__, suit_order))
        else:
            by_ident = grouped(cards, ctx.ident)
            order = sorted(by_ident, key=ctx.strongest_first_index.__getitem__)
            self.choice_free = len(set(map(strength.__getitem__, order))) == len(order)
        if self.choice_free and ctx.ident_is_card:
            # one card an ident, one ident a strength: the singles are ``order``'s cards
            self.leads = [_ONE[key] for key in order]
        else:
            self.leads = [_ONE[card.index] for card in sorted(
                dict.fromkeys(cards), key=ctx.strongest_first.__getitem__)]
        most = max(map(len, by_ident.values()))
        self._widest = min(most, max_width)  # (what is unseen is asked no wider)
        if self.choice_free and max_width >= 2 and most == 2:
            self._pairs_only(order, by_ident, strength)
            return  # (the suit's cards by ident are not kept: fewer objects for the collector)
        self._by_ident = by_ident
        self._order = order if self.choice_free else None
        self.leads += (_distinct_units(order, by_ident, strength, max_width)
                       if self.choice_free else _units_of(by_ident, ctx, max_width))

    def _pairs_only(self, order: list[int], by_ident: dict[int, list[Card]],
                    strength: Sequence[int]) -> None:
        """The units and the components of a suit without choices whose idents are held
        once or twice (most suits with pairs): both from its runs of pairs, found once
        (``_distinct_units`` and ``decompose_distinct`` are the oracles). The components
        are worked out at once: each such suit has its throws asked."""
        single_of, pair_of = _kinds(self.ctx)
        pairs: list[int] = []
        kinds: list[Cards] = []
        single_parts: list[Unit] = []
        single_cards: list[Cards] = []
        for key in order:
            same = by_ident[key]
            if len(same) == 2:
                pairs.append(key)
                kinds.append(tuple(same))
            else:
                single_parts.append(single_of[key])
                single_cards.append(_ONE[same[0].index])
        self._runs_of_pairs(pairs, kinds, single_parts, single_cards, strength, pair_of)

    def _pairs_of_cards(self, ordered: Sequence[Card], strength: Sequence[int]) -> bool:
        """``_pairs_only`` where each card is its own ident (classic), straight from the
        cards ``ordered`` strongest first: identical cards lie side by side, so one pass
        finds the singles, the pairs and the cards held once. False (nothing done) where a
        card is held more than twice or none twice."""
        single_of, pair_of = _kinds(self.ctx)
        leads: list[Cards] = []
        pairs: list[int] = []
        kinds: list[Cards] = []
        single_parts: list[Unit] = []
        single_cards: list[Cards] = []
        prev = None
        for card in ordered:
            i = card.index
            if card is prev:
                if pairs and pairs[-1] == i:
                    return False  # (a third copy: the general path)
                single_parts.pop()  # (its first copy, taken as held once)
                single_cards.pop()
                pairs.append(i)
                kinds.append((card, card))
            else:
                one = _ONE[i]
                leads.append(one)
                single_parts.append(single_of[i])
                single_cards.append(one)
                prev = card
        if not pairs:
            return False
        self.leads = leads
        self._widest = 2
        self._runs_of_pairs(pairs, kinds, single_parts, single_cards, strength, pair_of)
        return True

    def _runs_of_pairs(self, pairs: list[int], kinds: list[Cards], single_parts: list[Unit],
                       single_cards: list[Cards], strength: Sequence[int],
                       pair_of: Sequence[Unit]) -> None:
        """``_pairs_only``'s units and components from the suit's pairs (``pairs``: their
        idents strongest first, ``kinds``: their cards) and its cards held once
        (``pair_of``: ``_kinds``' pairs, which the caller looked up with its singles)."""
        leads = self.leads
        leads += kinds
        runs = strength_runs(pairs, strength)
        parts: list[Unit] = []
        part_cards: list[Cards] = []
        if len(runs) < len(pairs):  # tractors: by length, then strongest first
            of_pair = dict(zip(pairs, kinds))
            for length in range(2, max(map(len, runs)) + 1):
                for run in runs:
                    for i in range(len(run) - length + 1):
                        leads.append(tuple(c for key in run[i:i + length] for c in of_pair[key]))
            for run in sorted(runs, key=len, reverse=True):  # (stable: the higher first)
                if len(run) == 1:
                    break
                parts.append(unit_of(2, len(run), strength[run[0]], tuple(run)))
                part_cards.append(tuple(c for key in run for c in of_pair[key]))
        first = 0  # the run's first pair in ``kinds``
        for run in runs:
            if len(run) == 1:
                parts.append(pair_of[run[0]])
                part_cards.append(kinds[first])
            first += len(run)
        self._parts = parts + single_parts
        self._part_cards = part_cards + single_cards

    def _components(self) -> list[Unit]:
        """The components of a suit with identical cards (``decompose``), worked out when
        first asked."""
        if self._parts is None:
            ctx, by_ident, width, order = self.ctx, self._by_ident, self.max_width, self._order
            assert by_ident is not None  # (of singles, the components are the leads)
            holding = {key: len(same) for key, same in by_ident.items()}
            if order is None:  # (two idents of a strength: ``decompose``'s greedy path)
                self._parts = decompose_greedy(holding, ctx, width)
            else:
                self._parts = decompose_distinct(order, holding, ctx, width)
            self._part_cards = [tuple(by_ident[u.idents[0]][:u.width]) if u.length == 1 else
                                tuple(c for key in u.idents for c in by_ident[key][:u.width])
                                for u in self._parts]
        return self._parts

    def sure_throws(self, unseen: _Unseen, suit: int) -> list[Cards]:
        tops = unseen.tops(suit, self._widest)
        tops_key = tuple(tops)
        by_tops = self._by_tops
        if by_tops is None:
            by_tops = self._by_tops = {}
        else:
            found = by_tops.get(tops_key)
            if found is not None:
                return found
        found, told_by_tops = self._sure_of_units(unseen, suit, tops)
        if told_by_tops:
            by_tops[tops_key] = found
        return found

    def _sure_of_units(self, unseen: _Unseen, suit: int, tops: list[int]
                       ) -> tuple[list[Cards], bool]:
        """``sure_throws`` of a suit with identical cards (``tops``: ``unseen.tops`` of
        the suit), and whether ``tops`` alone told them (no unseen tractor asked about):
        then they hold wherever the suit's unseen tops are the same."""
        if self._parts is None and not self._may_throw(tops):
            return [], True  # (most suits of many decks: no components worked out)
        sure: list[int] = []
        told_by_tops = True
        for i, unit in enumerate(self._components()):
            width = unit.width
            if tops[width] <= unit.top:  # (no unseen kind above its top: no tractor either)
                sure.append(i)
            elif unit.length == 1:
                if width == 1:
                    break  # the singles come last, strongest first
            else:
                told_by_tops = False
                if not unseen.beats_tractor(suit, unit):
                    sure.append(i)
        if len(sure) < 2:
            return [], told_by_tops
        key = tuple(sure)
        if not self.choice_free:
            # ``_sure``'s questions: each of the throw's own components unbeaten (no
            # unseen kind as wide above a kind, no unseen tractor above a tractor)
            out = []
            for throw, parts in self._kept_parts(key):
                for p in parts:
                    if tops[p.width] > p.top:
                        if p.length == 1:
                            break
                        told_by_tops = False
                        if unseen.beats_tractor(suit, p):
                            break
                else:
                    out.append(throw)
            return out, told_by_tops
        # Without choices in the decomposition (one ident per strength), any components
        # of a decomposition together decompose into just those components: removing
        # whole components never lets a longer tractor form across what is left.
        return self._kept_throws(key, self._part_cards), told_by_tops

    def _may_throw(self, tops: list[int]) -> bool:
        """Can two of the suit's components be sure? (False: they cannot; told from the
        cards by ident, without the components.) An ident held no more than the widest
        kind and in no possible tractor is one component, the kind of all its cards; its
        kinds are sure only if no unseen kind as wide is stronger (and a narrower one is
        beaten wherever a wider one is); an ident that may be in a tractor, or is held
        more often, counts its cards; each tractor holds two pairs of cards at least."""
        by_ident = self._by_ident
        assert by_ident is not None
        strength, width = self.ctx.strength, self.max_width
        paired = {strength[key] for key, same in by_ident.items() if len(same) >= 2}
        found = pairs = 0
        for key, same in by_ident.items():
            count, s = len(same), strength[key]
            loose = count > width
            if count >= 2 and (s + 1 in paired or s - 1 in paired):
                pairs += count // 2
                loose = True
            if tops[min(count, width)] <= s:
                found += count if loose else 1
                if found >= 2:
                    return True
        return found + pairs // 2 >= 2

    def _kept_parts(self, sure: tuple[int, ...]) -> list[tuple[Cards, list[Unit]]]:
        """For a suit with choices, ``_groups`` of ``sure`` that decompose into more than
        one component, each with its components, kept by ``sure``."""
        if self._throw_parts is None:
            self._throw_parts = {}
        found = self._throw_parts.get(sure)
        if found is None:
            ctx, width = self.ctx, self.max_width
            found = self._throw_parts[sure] = [
                (throw, parts) for throw in self._groups(sure, self._part_cards)
                if len(parts := decompose(throw, ctx, width)) > 1]
        return found


_ONE = tuple((card,) for card in ALL_CARDS)

# By the hand's kitty (held by the entry, so its id stays unique) and seat, as one int
# (``id(kitty) * 8 + seat``: a ruleset has 3 to 6 seats, and no tuple to build): the hand's
# context, the lead width, the seat's suits at its last lead listing (by suit number)
# and the context's ``_flat_tiers``. Kept per seat, not per suit of cards, so that what is
# kept is only what may be asked again, replaced as the seat's hand changes (a global
# cache of every suit ever built held thousands of objects the collector walked, and
# timed a third slower).
_SEAT_SUITS: dict[int, tuple[Cards, TrumpContext, int, list[_Suit | None],
                             tuple[Flat | None, Paired | None]]] = {}
_SEAT_SUITS_ENTRIES = 1024
_NO_SUITS: tuple[None, ...] = (None,) * (TRUMP + 1)  # (suit numbers: the side suits, then trumps)
# (``_leads`` writes its lists by suit number out as five literals: cheaper than a loop)
assert TRUMP + 1 == 5, "the suit lists written out in _leads expect five suit numbers"


def forget() -> None:
    """Empty this module's caches (for benchmarks that must start cold)."""
    _SEAT_SUITS.clear()
    _FLAT.clear()
    _KINDS.clear()


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
        if _sure(throw, others, ctx, max_width):
            out.append(throw)
    return out


def _sure(throw: Cards, others: Holding, ctx: TrumpContext, max_width: int) -> bool:
    parts = decompose(throw, ctx, max_width)
    return len(parts) > 1 and all(unbeatable_by(p, others, ctx) for p in parts)


# -- follows ------------------------------------------------------------------------------

def constructive_follow(game: Game, lead: Lead, hand: Sequence[Card], ctx: TrumpContext
                        ) -> Cards | None:
    """One legal follow built from the obligations (lowest cards for the free part)."""
    return _constructive(game, lead, hand, list(filter(ctx.suit_cards[lead.suit].__contains__,
                                                       hand)), ctx)


def _constructive(game: Game, lead: Lead, hand: Sequence[Card], led: list[Card],
                  ctx: TrumpContext) -> Cards | None:
    """``constructive_follow`` for a seat holding ``led`` of the led suit."""
    n = lead.size
    if len(led) <= n:
        eff, strength = ctx.eff, ctx.strength
        short = n - len(led)
        others = filterfalse(ctx.suit_cards[lead.suit].__contains__, hand)
        def lowness(c: Card) -> tuple[bool, int, int]:
            return (eff[c.index] == TRUMP, strength[c.index], c.points)
        # (``nsmallest``'s equal; of two or more sorted in C, its heap being Python code)
        lowest = (nsmallest(short, others, key=lowness) if short < 2 else
                  sorted(others, key=lowness)[:short])
        return tuple(led + lowest)
    return game.play_rules.constructive_follow(lead, led, ctx)


def legal_follows(game: Game, lead: Lead, hand: Sequence[Card], ctx: TrumpContext) -> list[Cards]:
    rules = game.play_rules
    n = lead.size
    in_suit = ctx.suit_cards[lead.suit].__contains__
    led = list(filter(in_suit, hand))
    if len(led) > n:
        listed = rules.follows_at_once(lead, led, ctx)
        if listed is not None:
            return listed
    base = _constructive(game, lead, hand, led, ctx)
    if len(led) <= n:  # every led card goes, with any others: all legal, the base first
        assert base is not None
        others = list(filterfalse(in_suit, hand))
        base_fill = as_multiset(base[len(led):])
        return [base] + [tuple(led) + fill for fill in
                         without(multisets(others, n - len(led), FOLLOW_BUDGET), base_fill)]
    out: list[Cards] = []
    base_key: Cards | None = None
    if base is not None:
        try:
            rules.check_follow(lead, base, hand, ctx)
            out.append(base)
            base_key = as_multiset(base)
        except EngineError:
            pass
    built = rules.built_follows(lead, led, ctx)
    if built is not None:
        follows, in_order = built
        if not in_order:
            follows = _in_candidate_order(follows, led)
        out += without(follows, base_key)
        return out
    meets = rules.meets_shape(lead, led, ctx)
    out += [combo for combo in without(multisets(led, n, FOLLOW_BUDGET), base_key)
            if meets(combo)]
    return out


def _in_candidate_order(follows: list[Cards], led: Sequence[Card]) -> list[Cards]:
    """``follows`` as ``multisets(led, n)`` would list them (each once)."""
    distinct = sorted(set(led), key=lambda c: -c.index)
    out = list(dict.fromkeys(as_multiset(cards) for cards in follows))
    out.sort(key=lambda cards: [-cards.count(c) for c in distinct])
    return out


# -- declarations ---------------------------------------------------------------------

@cache
def _declarable(level: Rank) -> frozenset[Card]:
    """The cards a declaration of ``level`` is made of: the jokers and the level cards."""
    return frozenset(c for c in ALL_CARDS if c.suit is None or c.rank == level)


def legal_declarations(game: Game, seat: int) -> list[Cards]:
    """Every declaration ``seat`` could make now (whole declarations, as shown)."""
    state = game.state
    phase = state.phase
    if not isinstance(phase, Dealing) or not 0 <= seat < state.players or \
            state.declaring_refusal(seat) is not None:
        return []  # (``check_declaration`` would refuse every one)
    style = state.rules.declaration
    hand = phase.hands[seat]
    level = state.declaring_level(seat)
    counts = Counter(hand)
    candidates: list[Cards] = []
    if style is DeclarationStyle.JOKER_AND_PAIR:
        # (``suit is None``: ``is_joker`` without its property's call, on every card held)
        jokers = [c for c in counts if c.suit is None]
        pairs = [c for c, n in counts.items() if c.suit is not None and n >= 2]
        for joker in jokers:
            for k in range(1, min(2, counts[joker]) + 1):
                for pair in pairs:
                    candidates.append((joker,) * k + (pair, pair))
                for a, b in combinations(pairs, 2):
                    if a.suit == b.suit:
                        candidates.append((joker,) * k + (a, a, b, b))
    else:
        # the jokers and level cards held, in the hand's order (picked in C)
        for card in filter(_declarable(level).__contains__, counts):
            for k in range(2 if card.suit is None else 1, counts[card] + 1):
                candidates.append((card,) * k)
    # The seat may declare and holds every candidate: what is left of ``check_declaration``
    # is whether the candidate stands over the standing declaration.
    out = []
    for cards in candidates:
        try:
            state.overriding_declaration(seat, cards, level)
        except EngineError:
            continue
        out.append(cards)
    return out
