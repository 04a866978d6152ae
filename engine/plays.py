"""Leads, follows and trick resolution (RULES.md §2 "Leading" to "Who wins a trick").

``PlayRules`` is the interface the game uses; ``ClassicPlay`` implements RULES §2 (and
the one-deck, red-black and titanic presets), ``engine.patterns.ChangzhuPlay`` RULES §3.
Rules are computed as data (a lead's ``Lead`` format, the follower's obligations) and
checked in one place; a refusal names the first unmet rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from math import comb
from typing import ClassVar

from engine.cards import ALL_CARDS, Card, card_index
from engine.errors import EngineError
from engine.order import TRUMP, TrumpContext
from engine.rules import Ruleset
from engine.shapes import (
    Holding,
    Obligation,
    Unit,
    as_multiset,
    copies_of,
    deciding_strength,
    decompose,
    fill_units,
    first_shortfall,
    follow_amounts,
    follow_value,
    grouped,
    holding_of,
    multisets,
    multisets_meeting,
    multisets_of_groups,
    multisets_with_kinds,
    take_out,
    unbeatable_by,
    without,
)
from engine.values import derived

#: A comparable strength of a play in a trick: (is trump, tier, deciding strength).
PlayKey = tuple[int, int, int]

Cards = tuple[Card, ...]

#: The most candidate follows tried one by one for a lead whose legal follows are not
#: built from what is owed (``PlayRules.built_follows``; docs/rules.md).
FOLLOW_BUDGET = 4000


@dataclass(frozen=True)
class Lead:
    """The format of a lead: what every follower answers to."""

    cards: tuple[Card, ...]
    suit: int  # effective suit
    units: tuple[Unit, ...]  # largest first
    pattern: str  # single, pair, triple, tractor, throw (or a changzhu pattern)
    size: int = field(init=False, repr=False, compare=False)  # len(cards), asked often

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.cards))

    @property
    def is_throw(self) -> bool:
        return self.pattern == "throw"


# -- who wins a trick (``engine.referee`` gives these to the game and the simulator) ---------

def play_key(prules: PlayRules, lead: Lead, cards: Sequence[Card], ctx: TrumpContext
             ) -> PlayKey | None:
    """How strong a play is in the trick ``lead`` began, or None when it cannot win
    (``PlayRules.play_key``; a single card, most plays, is ranked here directly)."""
    if lead.size == 1:
        suit = ctx.eff[cards[0].index]
        if suit != lead.suit and suit != TRUMP:
            return None
        return (int(suit == TRUMP), 0, ctx.strength[cards[0].index])
    return prules.play_key(lead, cards, ctx)


def takes_lead(key: PlayKey | None, best: PlayKey | None) -> bool:
    """Does a play of strength ``key`` take the trick from the best so far (``best``)?
    Only a strictly stronger play does: of equal plays, the first played wins."""
    return key is not None and (best is None or key > best)


def trick_winner(prules: PlayRules, lead: Lead, plays: Sequence[Sequence[Card]],
                 ctx: TrumpContext) -> int:
    """Index (in ``plays``, lead first) of the play that wins the trick."""
    if lead.size == 1:  # single cards, most tricks
        return _single_card_winner(lead, plays, ctx)
    # the lead's own key is worked out only once a follow may win: most follows of
    # several cards are off suit or without the lead's shape (None), and it costs a
    # follow's key again
    best, best_key, lead_keyed = 0, None, False
    for i in range(1, len(plays)):
        key = play_key(prules, lead, plays[i], ctx)
        if key is None:
            continue
        if not lead_keyed:
            best_key, lead_keyed = play_key(prules, lead, plays[0], ctx), True
        if takes_lead(key, best_key):
            best, best_key = i, key
    return best


def _single_card_winner(lead: Lead, plays: Sequence[Sequence[Card]], ctx: TrumpContext) -> int:
    """``trick_winner`` of single cards, ``play_key`` written out (a trump beats the led
    suit, a stronger card a weaker one, the first of equal cards keeps the trick)."""
    eff, strength, suit = ctx.eff, ctx.strength, lead.suit
    best, best_key = 0, (int(suit == TRUMP), strength[plays[0][0].index])
    for i in range(1, len(plays)):
        index = plays[i][0].index
        if eff[index] == TRUMP:
            key = (1, strength[index])
        elif eff[index] == suit:
            key = (0, strength[index])
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def cards_of_suit(cards: Sequence[Card], ctx: TrumpContext, suit: int) -> list[Card]:
    eff = ctx.eff
    return [c for c in cards if eff[c.index] == suit]



def fill_structure(cards: Sequence[Card], lead: Lead, ctx: TrumpContext
                   ) -> tuple[list[Card], list[Card]]:
    """The lead's units as far as ``cards`` (of the led suit) can match them
    (``fill_units``), and the cards left over."""
    units = fill_units(holding_of(cards, ctx), ctx, lead.units)
    if not units:
        return [], list(cards)
    chosen: list[Card] = []
    if ctx.ident_is_card:  # an ident is one card: a unit is its cards, ``width`` times each
        for unit in units:
            for key in unit.idents:
                chosen += [ALL_CARDS[key]] * unit.width
        rest = list(cards)
        take_out(rest, chosen)
        return chosen, rest
    by_ident: dict[int, list[Card]] = {}  # each ident's cards, in order
    ident = ctx.ident
    copies: dict[Card, int] = {}
    for card in cards:
        copies[card] = copies.get(card, 0) + 1
        same = by_ident.get(ident[card.index])
        if same is None:
            by_ident[ident[card.index]] = [card]
        else:
            same.append(card)
    used: dict[Card, int] = {}
    for unit in units:  # a unit's first cards of each ident, of the cards not all used
        width = unit.width
        spent = [card for card, n in used.items() if n >= copies[card]]
        taken = [card for key in unit.idents for card in (
            [c for c in by_ident[key] if c not in spent] if spent else by_ident[key])[:width]]
        for card in taken:
            used[card] = used.get(card, 0) + 1
        chosen += taken
    rest = list(cards)
    for card in chosen:
        rest.remove(card)
    return chosen, rest

class PlayRules:
    """What a play style decides. One instance per ruleset (no state).

    Besides checking plays, a style enumerates them (``engine.legal`` asks): the leads
    peculiar to it (``pattern_leads``), one legal follow built from what is owed
    (``constructive_follow``), every legal follow where they can be listed at once
    (``follows_at_once``) or built (``built_follows``), else a test for candidates
    (``meets_shape``)."""

    #: A lead may be a throw: several components of one suit (RULES §2).
    throws: ClassVar[bool] = True
    #: The style has leads of its own (``pattern_leads`` may find some).
    has_pattern_leads: ClassVar[bool] = False
    #: A follow answers the lead's units (n-of-a-kind, tractors: ``fill_units``), not a
    #: named pattern.
    follows_units: ClassVar[bool] = True

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.max_width = rules.max_width
        #: The widest n-of-a-kind a lead is made of (an attribute: read on every listing).
        self.lead_width = self.max_width

    def pattern_leads(self, cards: Sequence[Card], ctx: TrumpContext) -> list[Cards]:
        """The leads of one suit's cards (``cards``) that are no n-of-a-kind, tractor or
        throw: a preset's named patterns."""
        return []

    def constructive_follow(self, lead: Lead, led: Sequence[Card], ctx: TrumpContext) -> Cards:
        """One legal follow for a seat holding ``led`` of the led suit, more cards than
        the lead: built from the obligations, lowest cards for the free part."""
        raise NotImplementedError

    def follows_at_once(self, lead: Lead, led: list[Card], ctx: TrumpContext
                        ) -> list[Cards] | None:
        """Every legal follow, the constructive one first, for a seat holding ``led`` of
        the led suit (more cards than the lead), where the style lists them with no
        candidate checked; None elsewhere (``built_follows``, ``meets_shape``)."""
        return None

    def built_follows(self, lead: Lead, led: list[Card], ctx: TrumpContext
                      ) -> tuple[list[Cards], bool] | None:
        """The legal follows built from what is owed, for a seat with more led-suit cards
        than the lead, and whether they come in candidate order (``multisets``); None
        where they are found by trying candidates (``meets_shape``)."""
        return None

    def meets_shape(self, lead: Lead, held: Sequence[Card], ctx: TrumpContext
                    ) -> Callable[[Sequence[Card]], bool]:
        """For a seat holding ``held`` of the led suit (more cards than the lead): does a
        play of that many of them meet the follow obligations?"""
        def meets(play: Sequence[Card]) -> bool:
            try:
                self.check_follow(lead, play, held, ctx)
            except EngineError:
                return False
            return True
        return meets

    def lead(self, cards: Sequence[Card], ctx: TrumpContext) -> Lead:
        raise NotImplementedError

    def throw_forced(self, lead: Lead, others: Sequence[Holding], ctx: TrumpContext
                     ) -> Unit | None:
        """The component a failed throw must play instead, or None when it stands."""
        return None

    def check_follow(self, lead: Lead, play: Sequence[Card], hand: Sequence[Card],
                     ctx: TrumpContext) -> None:
        raise NotImplementedError

    def play_key(self, lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> PlayKey | None:
        """How strong a play is in this trick, or None when it cannot win (ask the module's
        ``play_key``, which ranks a single card directly)."""
        raise NotImplementedError

    def trick_winner(self, lead: Lead, plays: Sequence[Sequence[Card]], ctx: TrumpContext
                     ) -> int:
        """Index (in ``plays``, lead first) of the play that wins: ``trick_winner``."""
        return trick_winner(self, lead, plays, ctx)

    def largest_component(self, play: Sequence[Card], ctx: TrumpContext) -> int:
        """Cards in the largest component of a play (for the kitty multiplier)."""
        by_suit: dict[int, list[Card]] = {}
        for card in play:
            by_suit.setdefault(ctx.eff[card.index], []).append(card)
        return max(decompose(cards, ctx, self.max_width)[0].size for cards in by_suit.values())

    # -- shared by both styles ------------------------------------------------------

    def one_suit(self, cards: Sequence[Card], ctx: TrumpContext) -> int:
        if not cards:
            raise EngineError("empty_play")
        eff = ctx.eff
        suit = eff[cards[0].index]
        if not ctx.suit_cards[suit].issuperset(cards):  # (in C: no generator a play)
            raise EngineError("mixed_lead")
        return suit

    def check_suit(self, lead: Lead, play: Sequence[Card], hand: Sequence[Card],
                   ctx: TrumpContext) -> tuple[list[Card], list[Card]]:
        """RULES §2 following, rule 1. Returns (led-suit cards held, led-suit cards played)."""
        if len(play) != lead.size:
            raise EngineError("wrong_count", count=lead.size)
        suit = lead.suit
        in_suit = ctx.suit_cards[suit].__contains__  # (one set lookup a card, no indexing)
        held = list(filter(in_suit, hand))
        played = list(filter(in_suit, play))
        if len(held) >= lead.size and len(played) < lead.size:
            raise EngineError("must_follow_suit", suit=ctx.suit_label(lead.suit),
                              rule="enough")
        if len(held) < lead.size and len(played) < len(held):
            raise EngineError("must_follow_suit", suit=ctx.suit_label(lead.suit),
                              rule="all")
        return held, played


# What a follower holding some cards of the led suit owes (``follow_amounts``), by lead,
# context (both held by the entry, so that their ids stay their own) and cards: a
# listing of follows and the check of the play chosen from it ask it of the same cards.
_OWED: dict[tuple[int, int, Cards], tuple[Lead, TrumpContext, list[int]]] = {}
_OWED_ENTRIES = 256


def owed_amounts(lead: Lead, held: Sequence[Card], ctx: TrumpContext) -> list[int]:
    """``follow_amounts`` of the cards ``held`` of the led suit against the lead's units
    (shared: not to be changed)."""
    key = (id(lead), id(ctx), tuple(held))
    entry = _OWED.get(key)
    if entry is not None and entry[0] is lead and entry[1] is ctx:
        return entry[2]
    if len(_OWED) >= _OWED_ENTRIES:
        _OWED.clear()
    owed = follow_amounts(holding_of(held, ctx), lead.units, ctx)
    _OWED[key] = (lead, ctx, owed)
    return owed


# Single-card leads (immutable, so shared), by trump context (keyed by its id, held by
# the entry so that the id stays its own) and card.
_SINGLE_LEADS: dict[int, tuple[TrumpContext, dict[Card, Lead]]] = {}
_SINGLE_LEADS_ENTRIES = 64


class ClassicPlay(PlayRules):
    """RULES §2: singles, n-of-a-kind, tractors and throws; shape obligations."""

    def lead(self, cards: Sequence[Card], ctx: TrumpContext) -> Lead:
        if len(cards) == 1:  # the commonest lead: each made once per context and card
            entry = _SINGLE_LEADS.get(id(ctx))
            if entry is None or entry[0] is not ctx:
                if len(_SINGLE_LEADS) >= _SINGLE_LEADS_ENTRIES:
                    _SINGLE_LEADS.clear()
                entry = _SINGLE_LEADS[id(ctx)] = (ctx, {})
            found = entry[1].get(cards[0])
            if found is None:
                found = entry[1][cards[0]] = self._lead(cards, ctx)
            return found
        return self._lead(cards, ctx)

    def _lead(self, cards: Sequence[Card], ctx: TrumpContext) -> Lead:
        suit = self.one_suit(cards, ctx)
        units = tuple(decompose(cards, ctx, self.max_width))
        if len(units) > 1:
            pattern = "throw"
        else:
            unit = units[0]
            pattern = ("tractor" if unit.is_tractor else
                       {1: "single", 2: "pair", 3: "triple"}.get(unit.width, "throw"))
        return Lead(tuple(cards), suit, units, pattern)

    def throw_forced(self, lead: Lead, others: Sequence[Holding], ctx: TrumpContext
                     ) -> Unit | None:
        if len(lead.units) < 2:
            return None
        beatable = [u for u in lead.units
                    if any(not unbeatable_by(u, other, ctx) for other in others)]
        if not beatable:
            return None
        # the component holding the lowest card; on a tie, the one with fewer cards
        return min(beatable, key=lambda u: (u.bottom, u.size))

    def check_follow(self, lead: Lead, play: Sequence[Card], hand: Sequence[Card],
                     ctx: TrumpContext) -> None:
        if len(play) == lead.size and (self.max_width < 2 or lead.units[0].width < 2):
            eff, suit = ctx.eff, lead.suit
            for card in play:
                if eff[card.index] != suit:
                    break
            else:  # singles answered in the led suit: followed, and nothing else is owed
                return
        held, played = self.check_suit(lead, play, hand, ctx)
        if len(held) <= lead.size or self.max_width < 2:
            return  # all led-suit cards are played: no shape choice is left
        if lead.units[0].width < 2:
            return  # singles (the largest component comes first): nothing else is owed
        if _is_kind(lead):
            if most_alike(played, ctx, lead.size) >= most_alike(held, ctx, lead.size):
                return
        elif self.meets_shape(lead, held, ctx)(played):
            return
        owed = follow_value(holding_of(held, ctx), lead.units, ctx)
        given = follow_value(holding_of(played, ctx), lead.units, ctx)
        short = first_shortfall(given, owed)
        assert short is not None
        raise _shape_error(short, lead, ctx)

    def meets_shape(self, lead: Lead, held: Sequence[Card], ctx: TrumpContext
                    ) -> Callable[[Sequence[Card]], bool]:
        """For a seat holding ``held`` of the led suit (more cards than the lead): does a
        play of that many of them meet the shape obligations? What is owed is worked out
        once, for testing many candidates (``check_follow`` says which rule fails)."""
        return self._meets(lead.units, owed_amounts(lead, held, ctx), ctx)

    @staticmethod
    def _meets(units: Sequence[Unit], owed: list[int], ctx: TrumpContext
               ) -> Callable[[Sequence[Card]], bool]:
        def meets(play: Sequence[Card]) -> bool:
            for mine, due in zip(follow_amounts(holding_of(play, ctx), units, ctx), owed):
                if mine != due:
                    return mine > due  # the first line that differs decides
            return True
        return meets

    def constructive_follow(self, lead: Lead, led: Sequence[Card], ctx: TrumpContext) -> Cards:
        if ctx.ident_is_card and _is_kind(lead):
            return _kind_follow(lead.size, led, ctx)
        chosen, pool = fill_structure(led, lead, ctx)
        pool.sort(key=lowness(ctx).__getitem__)
        chosen += pool[: lead.size - len(chosen)]
        return tuple(chosen)

    def follows_at_once(self, lead: Lead, led: list[Card], ctx: TrumpContext
                        ) -> list[Cards] | None:
        """n-of-a-kind: as many identical cards as the seat holds up to n (``most_alike``),
        then any others; every one of them, none tried."""
        if self.max_width < 2 or not _is_kind(lead):
            return None
        n = lead.size
        if ctx.ident_is_card and len(set(led)) == len(led):
            # no two identical cards (told in C, none counted): ``_kind_follow``'s lowest
            # cards, and any cards of the led suit
            alike = 1
            base = tuple(sorted(led, key=lowness(ctx).__getitem__)[:n])
        elif ctx.ident_is_card:  # (the copies of each card counted once for all three)
            copies = copies_of(led)
            whole = _whole_kind_follows(n, copies, ctx)
            if whole is not None:
                return whole
            alike = min(max(copies.values()), n)
            base = _kind_follow(n, led, ctx, copies)
        elif n == 2 and len(set(led)) == len(led):  # (red-black's pairs: one deck)
            return _pair_follows(led, ctx)
        else:
            alike = most_alike(led, ctx, n)
            base = self.constructive_follow(lead, led, ctx)
        follows: list[Cards]
        if alike < 2:  # no two identical cards: any cards of the led suit
            follows = multisets(led, n, FOLLOW_BUDGET)
        elif ctx.ident_is_card:
            follows = multisets_with_kinds(led, n, alike)
        else:  # (``follow_amounts``: one line per width, n down to 2; the one reached owed)
            owed = [0] * (n - alike) + [1] + [0] * (alike - 2)
            follows = multisets_meeting(led, n, lead.units, owed, _never_asked, ctx)
        if alike >= 2 and most_alike(base, ctx, n) < alike:
            return follows  # (the constructive follow is meant to be legal)
        base_key = as_multiset(base)  # as the listing writes it
        return [base, *without(follows, base_key)]

    def built_follows(self, lead: Lead, led: list[Card], ctx: TrumpContext
                      ) -> tuple[list[Cards], bool] | None:
        n = lead.size
        units = lead.units
        if self.max_width < 2 or units[0].width < 2:  # singles: any cards of the led suit
            return multisets(led, n, FOLLOW_BUDGET), True
        owed = owed_amounts(lead, led, ctx)
        first = units[0]
        if (len(units) == 1 and first.length >= 2 and owed[0] == first.length
                and ctx.ident_is_card and comb(len(led), n) <= FOLLOW_BUDGET):
            return _whole_runs(led, first.width, first.length, ctx), True
        if len(units) == 1 and first.length >= 2 and ctx.ident_is_card and (
                owed[0] + owed[1] == first.length):
            # a shorter run (or none) and groups of its width owed, n cards in all: a
            # legal play is those groups alone (its lines are no more than the hand's),
            # holding a run as long as the hand's (the rest are then the groups owed)
            plays = multisets_of_groups(led, n, first.width, FOLLOW_BUDGET)
            if owed[0]:
                plays = [play for play in plays if _holds_run(play, owed[0], ctx)]
            return plays, True
        meets = self._meets(units, owed, ctx)
        # tractors and throws (n-of-a-kind: ``follows_at_once``): the candidates that can
        # meet what is owed are tried
        return multisets_meeting(led, n, units, owed, meets, ctx, FOLLOW_BUDGET), True

    def play_key(self, lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> PlayKey | None:
        eff = ctx.eff
        suit = eff[play[0].index]
        if suit != lead.suit and suit != TRUMP:
            return None
        if not ctx.suit_cards[suit].issuperset(play):  # (in C: no generator a play)
            return None
        first = lead.units[0]
        if first.width == 1 and len(play) >= len(lead.units):
            # singles (the largest unit first: a throw of singles): every card is one, so
            # the strongest card is the deciding one (``deciding_strength``'s answer)
            strength = ctx.strength
            return (int(suit == TRUMP), 0, max([strength[c.index] for c in play]))
        if len(lead.units) == 1 and first.length == 1 and len(play) == first.width:
            # one card or n-of-a-kind: only as many identical cards can win
            ident = ctx.ident
            alike = ident[play[0].index]
            for c in play:  # (a loop, not a generator a play)
                if ident[c.index] != alike:
                    return None
            return (int(suit == TRUMP), 0, ctx.strength[play[0].index])
        decided = deciding_strength(holding_of(play, ctx), ctx, lead.units)
        if decided is None:
            return None
        return (int(suit == TRUMP), *decided)


def _is_kind(lead: Lead) -> bool:
    """Is the lead n identical cards (n at least 2)?"""
    units = lead.units
    return len(units) == 1 and units[0].length == 1 and units[0].width >= 2


def _whole_kind_follows(n: int, copies: Mapping[Card, int], ctx: TrumpContext
                        ) -> list[Cards] | None:
    """``follows_at_once`` of n identical cards where each ident is one card and the seat
    holds n of a card (most pair follows of many decks): n of each card held n times or
    more, the one ``_kind_follow`` takes first, the others by index, highest first (as
    ``multisets_with_kinds`` lists them; ``copies``: how many of each card the seat holds).
    None where the seat holds no n of a card."""
    kinds = [card for card, count in copies.items() if count >= n]
    if not kinds:
        return None
    if len(kinds) == 1:
        return [(kinds[0],) * n]
    kind = _strongest_kind(kinds, copies, ctx)
    kinds.sort(key=card_index, reverse=True)  # (no two alike: the order is the index's)
    return [(kind,) * n] + [(card,) * n for card in kinds if card is not kind]



def _pair_follows(led: Sequence[Card], ctx: TrumpContext) -> list[Cards]:
    """``follows_at_once`` of a pair where an ident groups several cards (red-black) and
    the seat holds no card twice, without ``fill_structure`` or ``multisets_meeting``:
    holding a pair, the pair ``fill_units`` takes (the strongest; of equally strong ones,
    the lowest ident), in the seat's order, then every other pair; else the two lowest
    cards (``constructive_follow``'s), then every other two cards; the others as
    ``multisets`` lists them (by index, highest first)."""
    ident, strength = ctx.ident, ctx.strength
    by_ident = grouped(led, ident)
    pairs = [key for key, same in by_ident.items() if len(same) >= 2]
    if not pairs:
        base = tuple(sorted(led, key=lowness(ctx).__getitem__)[:2])
        return [base, *without(multisets(led, 2, FOLLOW_BUDGET), as_multiset(base))]
    key = max(pairs, key=lambda k: (strength[k], -k))  # (every ident held twice at most)
    base = tuple(by_ident[key][:2])
    return [base, *without([(a, b) for a, b in combinations(as_multiset(led), 2)
                            if ident[a.index] == ident[b.index]], as_multiset(base))]


def _whole_runs(led: Sequence[Card], width: int, length: int, ctx: TrumpContext
                ) -> list[Cards]:
    """The follows of a tractor of ``length`` steps of ``width`` by a seat that can play
    one as long (what it owes, and all a play of that many cards can hold): each run of
    ``length`` consecutive strengths of cards held ``width`` times (each ident one card,
    a strength may have several: off-suit level cards), in candidate order
    (``multisets``: by index, highest first, compared card by card)."""
    copies = copies_of(led)
    strength = ctx.strength
    by_strength: dict[int, list[Card]] = {}
    for card, count in copies.items():
        if count >= width:
            by_strength.setdefault(strength[card.index], []).append(card)
    plays: list[Cards] = []
    for top in by_strength:
        steps = [by_strength.get(top - k, []) for k in range(length)]
        if all(steps):
            plays += [as_multiset([card for card in run for _ in range(width)])
                      for run in product(*steps)]
    plays.sort(key=lambda play: [card.index for card in play], reverse=True)
    return plays


def _holds_run(play: Sequence[Card], length: int, ctx: TrumpContext) -> bool:
    """Does ``play`` (groups of a tractor's width) hold a run of ``length`` steps: as
    many consecutive strengths among its cards?"""
    strength = ctx.strength
    levels = sorted({strength[card.index] for card in play})
    steps = 1
    for low, high in zip(levels, levels[1:]):
        steps = steps + 1 if high == low + 1 else 1
        if steps >= length:
            return True
    return steps >= length


def _strongest_kind(kinds: list[Card], copies: Mapping[Card, int], ctx: TrumpContext) -> Card:
    """Of the cards ``kinds``, the one a kind follow takes: the strongest, of equally
    strong ones the one held most (``copies``), then the lowest (``fill_units``' choice)."""
    strength = ctx.strength
    return max(kinds, key=lambda card: (strength[card.index], copies[card], -card.index))


def _kind_follow(n: int, led: Sequence[Card], ctx: TrumpContext,
                 copies: Mapping[Card, int] | None = None) -> Cards:
    """``constructive_follow`` of n identical cards where each ident is one card, without
    ``fill_structure``: as many copies as the seat holds (up to n) of the strongest card
    held that many times (of equally strong ones, the one held most, then the lowest:
    ``fill_units``' choice), then the lowest other cards (``copies``: of each card in
    ``led``, if counted already)."""
    if copies is None:
        copies = copies_of(led)
    alike = min(max(copies.values()), n)
    pool = list(led)
    chosen: list[Card] = []
    if alike >= 2:
        kind = _strongest_kind([card for card, count in copies.items() if count >= alike],
                               copies, ctx)
        chosen = [kind] * alike
        if alike == n:  # (most pair follows: nothing to add)
            return tuple(chosen)
        take_out(pool, chosen)
    # (``nsmallest``'s equal, sorted in C: its heap is Python code a card)
    return tuple(chosen + sorted(pool, key=lowness(ctx).__getitem__)[:n - len(chosen)])


# By context: each card's lowness, its strength then its points, as one int (points <
# 16), for sorts keyed in C.
_LOWNESS: dict[int, tuple[TrumpContext, dict[Card, int]]] = {}


def lowness(ctx: TrumpContext) -> dict[Card, int]:
    """A card's sort key, lowest first, by (strength, points): a follow's lowest cards
    (the same order as that tuple, so the same ties, kept in place by a stable sort)."""
    return derived(ctx, _LOWNESS, _lowness)


def _lowness(ctx: TrumpContext) -> dict[Card, int]:
    strength = ctx.strength
    return {card: strength[card.index] * 16 + card.points for card in ALL_CARDS}


def most_alike(cards: Sequence[Card], ctx: TrumpContext, cap: int) -> int:
    """The most identical cards among ``cards``, up to ``cap``: what a follower of an
    n-of-a-kind owes, all that its one owed line (``follow_amounts``) depends on."""
    return min(max(holding_of(cards, ctx).values(), default=0), cap)


def _never_asked(play: Sequence[Card]) -> bool:
    raise AssertionError("an n-of-a-kind follow is decided by the one line owed")


def _shape_error(short: Obligation, lead: Lead, ctx: TrumpContext) -> EngineError:
    suit = ctx.suit_label(lead.suit)
    if short.tractor:
        return EngineError("must_follow_tractor", suit=suit, length=short.amount,
                           width=short.width)
    if short.width == 2:
        return EngineError("must_follow_pair", suit=suit, amount=short.amount, width=2)
    if short.width == 3:
        return EngineError("must_follow_triple", suit=suit, amount=short.amount, width=3)
    return EngineError("must_follow_kind", suit=suit, amount=short.amount, width=short.width)
