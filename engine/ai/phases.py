"""Decisions of the games whose sides form in the hand (RULES §5 find-friends, §6
three-bid): bidding, naming the trump, burying before the trump is named, calling
friends, and the level transfer after a hand. Every level plays them alike (as for
declaring), from the seat's ``SeatView`` only.

* **Bid** (three-bid): value the hand for the trump it would name (``trump_strength``:
  trumps, the high ones and pairs among them, side aces), turn that into the attackers'
  points it expects to concede (``expected_points``), and bid while the standing bid is
  above that by a safety margin, one step (5) under it; pass otherwise.
* **Name the trump**: the suit the hand is strongest in (``best_trump``); the burial
  before it keeps that suit (the kitty is buried before the trump is named).
* **Call** (find-friends): the usual human call: an ace (at level A a king) of a side
  suit, the copy after the dealer's own copies (the dealer plays those first, so the
  next one is another seat's), in a suit with copies left outside the dealer's hand and
  kitty, preferring suits where the dealer has low cards to lead towards the friend.
  With no such side card, the highest card with a copy outside. Never a copy the rules
  refuse (1 to ``decks``, each call a different copy).
* **Transfer** (``level_transfer``): take the levels off the highest opponent who can
  lose them, else give them to the lowest teammate, else nowhere; a gift offered is
  accepted (levels only help the one who gets them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.actions import (
    Action,
    AnswerTransfer,
    Bid,
    Bury,
    CallFriends,
    NameTrump,
    PassBid,
    Transfer,
)
from engine.ai.bidding import bury_order
from engine.cards import ALL_CARDS, Card
from engine.order import TRUMP, TrumpContext, TrumpSuit, trump_context
from engine.rules import Ruleset
from engine.views import SeatView

Cards = tuple[Card, ...]

#: The attackers' points a lone dealer with an average hand concedes, and how many
#: points each unit of ``trump_strength`` above the average saves: three-bid, a least-
#: squares fit over 120 hands of the heuristic players (seeds 0-39, each seat dealing
#: once at bid 100): mean strength 25.3, mean points 128.6, slope -3.2, residual sd 29.
AVERAGE_CONCEDED = 129
POINTS_PER_STRENGTH = 3.2
AVERAGE_STRENGTH = 25.3
#: Points of safety between what the hand expects to concede and the lowest bid it makes
#: (half the fit's residual sd: a bid made holds about seven times in ten).
BID_MARGIN = 15


def decide(view: SeatView) -> Action | None:
    """The seat's decision in a bid, naming, calling or transfer phase (None: none)."""
    seat = view.seat
    if seat is None or view.rules is None or view.turn != seat:
        return None
    if view.phase == "bid":
        points = choose_bid(view)
        return PassBid(seat) if points is None else Bid(seat, points)
    if view.phase == "name_trump":
        return NameTrump(seat, trump_word(best_trump(view.hand, view)))
    if view.phase == "call":
        cards, copies = choose_calls(view)
        return CallFriends(seat, cards, copies)
    if view.phase == "transfer":
        if view.transfers and view.transfers[0][0] == seat:
            return Transfer(seat, choose_transfer(view))
        return AnswerTransfer(seat, True)
    if view.phase == "bury" and view.ctx is None and view.bid is not None:
        return Bury(seat, bury_for_named_trump(view))
    return None


# -- the trump a hand would name --------------------------------------------------------

def _context(view: SeatView, trump: TrumpSuit | None) -> TrumpContext:
    rules = view.rules
    assert rules is not None and view.seat is not None
    level = view.level if view.level is not None else view.seat_levels[view.seat]
    return trump_context(level, trump, frozenset(rules.permanent_trumps), rules.suits)


def trump_strength(hand: Sequence[Card], ctx: TrumpContext) -> float:
    """How strong ``hand`` is with this trump: one per trump, more for high trumps and
    trump pairs (they win tricks and draw the others' trumps), and the side aces."""
    eff, strength, ident = ctx.eff, ctx.strength, ctx.ident
    top = len(ctx.tiers[TRUMP]) - 1 if ctx.tiers.get(TRUMP) else 0
    score = 0.0
    copies: Counter[int] = Counter()
    for card in hand:
        suit = eff[card.index]
        if suit == TRUMP:
            copies[ident[card.index]] += 1
            score += 1 + (strength[card.index] / top if top else 0)
        elif strength[card.index] == len(ctx.tiers[suit]) - 1:
            score += 1  # a side ace
    score += sum(1 for n in copies.values() if n >= 2)
    return score


def best_trump(hand: Sequence[Card], view: SeatView) -> TrumpSuit | None:
    """The trump ``hand`` is strongest with (no trump only when no suit adds to it)."""
    rules = view.rules
    assert rules is not None
    options: list[TrumpSuit | None] = [*rules.suits.side_suits, None]
    return max(options, key=lambda t: (trump_strength(hand, _context(view, t)), t is None))


def trump_word(trump: TrumpSuit | None) -> str:
    """The word ``NameTrump`` takes for ``trump``."""
    if trump is None:
        return "none"
    return str(trump.value)


# -- three-bid: bidding and burying ------------------------------------------------------

def expected_points(view: SeatView) -> int:
    """The attackers' points this hand expects to concede alone, with its best trump."""
    hand = view.hand
    ctx = _context(view, best_trump(hand, view))
    strength = trump_strength(hand, ctx)
    return round(AVERAGE_CONCEDED - POINTS_PER_STRENGTH * (strength - AVERAGE_STRENGTH))


def choose_bid(view: SeatView) -> int | None:
    """The bid to make (points), or None to pass: one step under the standing bid (the
    highest bid when none stands), if that still leaves the margin over what the hand
    expects to concede."""
    rules = view.rules
    assert rules is not None
    offer = rules.max_bid if view.bid is None else view.bid - 5
    if offer < 5:
        return None
    limit = expected_points(view) + BID_MARGIN
    return offer if offer >= limit else None


def bury_for_named_trump(view: SeatView) -> Cards:
    """three-bid: bury as if the trump the hand will name were already trump."""
    rules = view.rules
    assert rules is not None
    ctx = _context(view, best_trump(view.hand, view))
    return tuple(bury_order(view.hand, ctx, rules.kitty_size)[: rules.kitty_size])


# -- find-friends: calling ----------------------------------------------------------------

def choose_calls(view: SeatView) -> tuple[Cards, tuple[int, ...]]:
    """``rules.friends`` calls: (cards, copies)."""
    rules = view.rules
    assert rules is not None and view.ctx is not None
    ctx = view.ctx
    held = Counter(view.hand)
    buried = Counter(view.kitty)
    decks = rules.decks
    ranked = _call_order(view, ctx, rules)
    cards: list[Card] = []
    copies: list[int] = []
    for card in ranked:
        if len(cards) == rules.friends:
            break
        if decks - held[card] - buried[card] > 0:  # a copy is in another hand
            cards.append(card)
            copies.append(held[card] + 1)  # the dealer's own copies come first
    for card in ranked:  # (never reached with real hands: some copy is always outside)
        if len(cards) == rules.friends:
            break
        copy = next((k for k in range(1, decks + 1)
                     if (card, k) not in zip(cards, copies, strict=True)), None)
        if copy is not None:
            cards.append(card)
            copies.append(copy)
    return tuple(cards), tuple(copies)


def _call_order(view: SeatView, ctx: TrumpContext, rules: Ruleset) -> list[Card]:
    """Every card, the best to call first: side aces (the level A: kings), in suits with
    low cards to lead and few copies held; then the other cards, highest first."""
    eff, strength = ctx.eff, ctx.strength
    hand = view.hand
    held = Counter(hand)
    suit_len: Counter[int] = Counter(eff[c.index] for c in hand)

    def top_rank(card: Card) -> bool:
        suit = eff[card.index]
        return suit != TRUMP and strength[card.index] == len(ctx.tiers[suit]) - 1

    def key(card: Card) -> tuple[int, int, int, int, int]:
        suit = eff[card.index]
        side = suit != TRUMP
        lead_low = int(side and suit_len[suit] - held[card] > 0)
        return (int(top_rank(card)), lead_low, -held[card], int(side),
                strength[card.index] + (100 if not side else 0))

    return sorted(ALL_CARDS, key=lambda c: (key(c), -c.index), reverse=True)


# -- level transfer -------------------------------------------------------------------------

def choose_transfer(view: SeatView) -> int | None:
    """Where the chooser's stopped levels go: off the highest opponent above the first
    level, else to the lowest teammate, else nowhere. A kitty penalty's excess
    (``penalty``): off the highest opponent above the first level but the J penalty's
    kitty winner, else in seat order (None)."""
    rules = view.rules
    seat = view.seat
    assert rules is not None and seat is not None
    ranks = rules.level_ranks
    defenders = set(view.defenders)
    mine = seat in defenders
    others = [s for s in range(view.players) if s != seat]
    opponents = [s for s in others if (s in defenders) != mine]
    teammates = [s for s in others if (s in defenders) == mine]

    def height(s: int) -> int:
        return ranks.index(view.seat_levels[s])

    beatable = [s for s in opponents if height(s) > 0 and s != view.penalty_kitty_winner]
    if beatable:
        return max(beatable, key=lambda s: (height(s), -s))
    if teammates and view.penalty is None:
        return min(teammates, key=lambda s: (height(s), s))
    return None
