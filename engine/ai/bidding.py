"""Decisions outside card play: declaring (亮主), 回牌, burying the kitty, the changzhu swap.

All of them read the seat's ``SeatView`` only.

* Declare when the suit the seat would make trump holds clearly more of its cards than
  that suit's share of the deck (a strong holding); override only an opponent, and only
  with a declaration the seat can be sure is stronger (a hidden pair of jokers counts as
  big jokers). At the last chance a plain majority is enough.
* 回牌: give back the weakest permanent trump and the least useful side cards.
* Bury: keep trumps, pairs, aces and points; bury the short side suits first (voids to
  ruff with), low cards first.
* Swap: take every trump-suit card of the kitty that a side card of the same rank pays for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from engine.bidding import CHANGZHU_TIERS, Declaration, check_override, parse_declaration
from engine.cards import Card, Rank, deck
from engine.errors import EngineError
from engine.order import TRUMP, TrumpContext, trump_context
from engine.rules import DeclarationStyle, Ruleset
from engine.teams import Formation
from engine.views import DeclarationView, SeatView

Cards = tuple[Card, ...]


# -- declaring ------------------------------------------------------------------------------

def _declaring_level(view: SeatView, rules: Ruleset, seat: int) -> Rank:
    """The rank ``seat`` declares with: the hand's, or its own with levels by player."""
    if rules.individual_levels and view.seat_levels:
        return view.seat_levels[seat]
    assert view.level is not None
    return view.level


def _standing(view: SeatView, rules: Ruleset) -> Declaration | None:
    """The standing declaration as strong as this seat must assume it to be."""
    seen: DeclarationView | None = view.standing
    if seen is None:
        return None
    if len(seen.cards) == seen.size:
        return parse_declaration(seen.seat, seen.cards, _declaring_level(view, rules, seen.seat),
                                 rules)
    if seen.kind in CHANGZHU_TIERS:
        strength: tuple[int, ...] = (CHANGZHU_TIERS[seen.kind],)
    elif seen.kind == "jokers":
        strength = (1, seen.size, 1)
    else:
        strength = (0, seen.size, 0)
    return Declaration(seen.seat, (), None, seen.kind, strength)


def _declarations(hand: Sequence[Card], level: Rank, rules: Ruleset) -> list[Cards]:
    counts = Counter(hand)
    out: list[Cards] = []
    jokers = [c for c in counts if c.is_joker]
    if rules.declaration is DeclarationStyle.JOKER_AND_PAIR:
        pairs = [c for c, n in counts.items() if not c.is_joker and n >= 2]
        for joker in jokers:
            for k in range(1, min(2, counts[joker]) + 1):
                out += [(joker,) * k + (p, p) for p in pairs]
                out += [(joker,) * k + (a, a, b, b) for a, b in combinations(pairs, 2)
                        if a.suit == b.suit]
        return out
    ctx = trump_context(level, None, suits=rules.suits)
    groups: dict[int, list[Card]] = {}
    for card in hand:
        if card.is_joker or card.rank == level:
            groups.setdefault(ctx.ident[card.index], []).append(card)
    for cards in groups.values():
        for k in range(2 if cards[0].is_joker else 1, len(cards) + 1):
            out.append(tuple(cards[:k]))
    return out


def _trump_share(hand: Sequence[Card], ctx: TrumpContext, rules: Ruleset) -> tuple[float, float]:
    """(share of the hand that would be trump, that share in a whole deck)."""
    mine = sum(1 for c in hand if ctx.is_trump(c)) / max(1, len(hand))
    full = deck(1)
    base = sum(1 for c in full if ctx.is_trump(c)) / len(full)
    return mine, base


def _teammates(rules: Ruleset, seat: int) -> tuple[int, ...]:
    """Fixed teammates (with sides that form in the hand, nobody is a sure partner)."""
    seating = rules.seating
    return seating.teammates(seat) if seating.formation is Formation.FIXED else ()


#: Would-be trumps a declaration needs above an average hand of the same size (before
#: the last chance): a declaration on a handful of cards is a guess.
DECLARE_EXTRA = 1.5


def choose_declaration(view: SeatView) -> Cards | None:
    rules = view.rules
    assert rules is not None and view.seat is not None and view.level is not None
    seat = view.seat
    hand = view.hand
    if view.pending_return is not None or len(hand) < 5 or \
            rules.declaration is DeclarationStyle.NONE or \
            (view.may_declare is not None and seat not in view.may_declare):
        return None
    level = _declaring_level(view, rules, seat)
    standing = _standing(view, rules)
    if standing is not None and standing.seat == seat:
        return _reinforcement(view, standing)
    if standing is not None and standing.seat in _teammates(rules, seat):
        return None  # our side's declaration stands: never fight a partner
    last_chance = view.cards_to_deal == 0
    margin = 0.0 if last_chance else 0.06
    if standing is not None:
        margin += 0.03
    best: tuple[float, int, Cards] | None = None
    for cards in _declarations(hand, level, rules):
        try:
            decl = parse_declaration(seat, cards, level, rules)
            check_override(decl, standing, rules)
        except EngineError:
            continue
        ctx = trump_context(level, decl.trump, frozenset(rules.permanent_trumps),
                            rules.suits)
        mine, base = _trump_share(hand, ctx, rules)
        strong = last_chance or mine * len(hand) >= base * len(hand) + DECLARE_EXTRA
        if mine >= base + margin and strong:
            key = (mine, len(cards), cards)
            if best is None or key[:2] > best[:2]:
                best = key
    return best[2] if best is not None else None


def _reinforcement(view: SeatView, standing: Declaration) -> Cards | None:
    """Reinforce one's own declaration (more of the same cards: harder to override) while
    the suit is still at least an average trump holding."""
    rules = view.rules
    assert rules is not None and view.seat is not None
    if not rules.reinforce or rules.wait_to_die:
        return None
    # (with levels by player, one's own level: the hand's is only provisional then)
    level = _declaring_level(view, rules, view.seat)
    for cards in _declarations(view.hand, level, rules):
        try:
            decl = parse_declaration(view.seat, cards, level, rules)
            check_override(decl, standing, rules)
        except EngineError:
            continue
        ctx = trump_context(level, decl.trump, frozenset(rules.permanent_trumps),
                            rules.suits)
        mine, base = _trump_share(view.hand, ctx, rules)
        if mine >= base:
            return cards
    return None


# -- 回牌 -----------------------------------------------------------------------------------

def _guess_ctx(view: SeatView, rules: Ruleset) -> TrumpContext:
    """The trump context when the seat knows it, else one with no trump suit (jokers,
    level and permanent trumps only, which are trump whatever the suit)."""
    if view.ctx is not None:
        return view.ctx
    assert view.level is not None
    return trump_context(view.level, None, frozenset(rules.permanent_trumps), rules.suits)


def choose_return(view: SeatView, count: int) -> Cards:
    rules = view.rules
    assert rules is not None and view.standing is not None
    ctx = _guess_ctx(view, rules)
    free = list(view.hand)
    for card in view.standing.cards:
        free.remove(card)
    permanent = set(rules.permanent_trumps)
    perms = sorted((c for c in free if c.is_joker or c.rank in permanent),
                   key=lambda c: (ctx.strength[c.index], c.points))
    first = perms[0]
    free.remove(first)
    rest = bury_order(free, ctx)
    return (first, *rest[: count - 1])


# -- burying --------------------------------------------------------------------------------

def trump_control(hand: Sequence[Card], ctx: TrumpContext, size: int) -> float:
    """Trumps the hand keeps after burying ``size`` cards, above the number an average
    hand of that size holds: what protects the kitty on the last trick (保底)."""
    kept = len(hand) - size
    share = _TRUMP_SHARE.get(ctx)
    if share is None:
        full = deck(1)
        share = _TRUMP_SHARE[ctx] = sum(1 for c in full if ctx.is_trump(c)) / len(full)
    eff = ctx.eff
    return sum(1 for c in hand if eff[c.index] == TRUMP) - share * kept


#: The share of one deck that is trump, by trump context (guided dealing asks
#: ``bury_order`` for thousands of hands a decision)
_TRUMP_SHARE: dict[TrumpContext, float] = {}


def buried_points_allowed(hand: Sequence[Card], ctx: TrumpContext, size: int) -> int:
    """Points worth burying for a void: none with average trumps (the last trick, lost,
    doubles them for the attackers), 5 more per trump above average."""
    return max(0, int(5 * trump_control(hand, ctx, size)))


def bury_order(hand: Sequence[Card], ctx: TrumpContext, size: int = 0) -> list[Card]:
    """``hand``, the card to bury first first: side cards before trumps; among side
    cards, singles before pairs and aces, no points before points, short suits before
    long ones, low before high. With ``size`` (the kitty's) and no more trumps than an
    average hand, point cards come after pairs and aces: a weak trump hand may lose the
    last trick, and the kitty's points with it, multiplied."""
    eff, ident, strength, tiers = ctx.eff, ctx.ident, ctx.strength, ctx.tiers
    guard = size > 0 and trump_control(hand, ctx, size) < 1
    suit_len: dict[int, int] = {}
    copies: dict[int, int] = {}  # by ident (one ident is one effective suit's)
    for card in hand:
        i = card.index
        suit_len[eff[i]] = suit_len.get(eff[i], 0) + 1
        copies[ident[i]] = copies.get(ident[i], 0) + 1
    # Each card's sort key as one int, fields from the most significant down: trumps
    # (9, strength, index); side cards (guarded, in a pair + an ace, points, suit length,
    # strength, index), eight bits each (every field stays under 256): the index last,
    # so the order does not depend on the hand's (guided dealing asks this for thousands
    # of hands a decision: no key call a card)
    keys = []
    for card in hand:
        i = card.index
        suit = eff[i]
        if suit == TRUMP:
            keys.append(9 << 40 | strength[i] << 8 | i)
            continue
        s = strength[i]
        paired_or_ace = (copies[ident[i]] >= 2) + (s == len(tiers[suit]) - 1)
        guarded = guard and card.points > 0
        keys.append(guarded << 40 | paired_or_ace << 32 | card.points << 24
                    | suit_len[suit] << 16 | s << 8 | i)
    return [hand[k] for k in sorted(range(len(hand)), key=keys.__getitem__)]


def choose_bury(view: SeatView) -> Cards:
    rules = view.rules
    assert rules is not None
    ctx = _guess_ctx(view, rules)
    return tuple(bury_order(view.hand, ctx, rules.kitty_size)[: rules.kitty_size])


# -- changzhu swap ---------------------------------------------------------------------------

def choose_swap(view: SeatView) -> tuple[Cards, Cards]:
    """(give, take): side cards of the hand for the kitty's trump-suit cards, rank for rank."""
    rules = view.rules
    ctx = view.ctx
    assert rules is not None
    if ctx is None:
        return (), ()
    permanent = set(rules.permanent_trumps)
    spare = [c for c in view.hand if not ctx.is_trump(c)]
    spare.sort(key=lambda c: (c.points, ctx.strength[c.index]))
    give: list[Card] = []
    take: list[Card] = []
    for card in view.kitty:
        if not ctx.is_trump(card) or card.is_joker or card.rank in permanent \
                or card.rank == ctx.level:
            continue
        match = next((c for c in spare if c.rank == card.rank), None)
        if match is not None:
            spare.remove(match)
            give.append(match)
            take.append(card)
    return tuple(give), tuple(take)

