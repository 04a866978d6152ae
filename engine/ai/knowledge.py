"""What one seat knows in the play phase, read from its ``SeatView`` only, and worlds
sampled from it (determinization).

Known: the seat's hand, every card played (so the multiset of unseen cards), the kitty
if the seat buried it, each seat's hand size, the voids each seat has shown (a seat that
played fewer cards of the led effective suit than were led holds none of it), and the
declared cards that were shown face up (still held by the declarer unless played, when
the declarer did not bury a kitty they might be in). Voids are also inferred by
counting: when every unseen card of an effective suit is accounted for (none unseen, or
all of them face-up declaration cards still held), every other seat is void in it. A
sampled world deals the unseen
cards to the other seats (and the kitty, when the seat did not bury it) at random,
respecting all of that.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from engine.ai.table import PlayState, SuitParts
from engine.cards import ALL_CARDS, Card, card_index
from engine.game import play_rules_for
from engine.order import TrumpContext
from engine.plays import Lead, PlayRules
from engine.referee import play_key, trick_winner
from engine.rules import Ruleset
from engine.teams import FriendCall
from engine.views import SeatView


@dataclass
class Knowledge:
    view: SeatView
    rules: Ruleset
    prules: PlayRules
    ctx: TrumpContext
    seat: int
    unseen: Counter[Card]
    voids: list[set[int]]
    kitty_known: bool
    fixed: dict[int, list[Card]]  # seat -> unseen cards known to be in its hand
    # (``PlayState.decomposed``, shared by the worlds of this decision and, from
    # ``from_view``, by the decisions under the same trump: ``shared_parts``)
    decomposed: dict[tuple[int, ...], SuitParts] = field(default_factory=dict, repr=False)
    # what every sample and every world of this knowledge start from, made once
    _plan: _Plan | None = field(default=None, compare=False, repr=False)
    _table: _Table | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        assert view.seat is not None and view.rules is not None and view.ctx is not None
        rules = view.rules
        ctx = view.ctx
        seat = view.seat
        players = view.players
        seen: Counter[Card] = Counter(view.hand)
        voids: list[set[int]] = [set() for _ in range(players)]
        played_by: list[Counter[Card]] = [Counter() for _ in range(players)]
        eff = ctx.eff
        for plays in [t[0] for t in view.tricks] + [view.trick]:
            if not plays:
                continue
            suit = eff[plays[0][1][0].index]
            size = len(plays[0][1])
            for who, cards in plays:
                seen.update(cards)
                played_by[who].update(cards)
                if sum(1 for c in cards if eff[c.index] == suit) < size:
                    voids[who].add(suit)
        kitty_known = view.kitty_taker == seat
        if kitty_known:
            seen.update(view.kitty)
        total = Counter(dict.fromkeys(ALL_CARDS, rules.decks))
        unseen = total - seen
        fixed: dict[int, list[Card]] = {}
        standing = view.standing
        if standing is not None and standing.cards and standing.seat != seat \
                and standing.seat != view.kitty_taker:
            left = Counter(unseen)
            held: list[Card] = []
            for card, n in Counter(standing.cards).items():
                k = min(n - played_by[standing.seat][card], left[card])
                if k > 0:
                    held += [card] * k
                    left[card] -= k
            held = held[: view.hand_sizes[standing.seat]]
            if held:
                fixed[standing.seat] = held
        _count_voids(unseen, fixed, voids, seat, ctx)
        prules = play_rules_for(rules)
        return cls(view, rules, prules, ctx, seat, unseen, voids, kitty_known, fixed,
                   shared_parts(ctx, prules.lead_width))

    # -- sampling -------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """Hands of every seat and the kitty, consistent with this knowledge."""
        plan = self._plan
        if plan is None:
            plan = self._plan = _Plan(self)
        players, seat = plan.players, self.seat
        capacity = plan.capacity
        cards = list(plan.cards)
        options_of = plan.options  # card index -> the slots it may go to
        ranks = plan.ranks
        for attempt in range(30):
            respect_voids = attempt < 29
            rng.shuffle(cards)
            order = sorted(cards, key=lambda c: ranks[c.index]) if respect_voids else cards
            left = list(capacity)
            slots = [list(h) for h in plan.base]
            ok = True
            for card in order:
                options = options_of[card.index] if respect_voids else plan.open_slots
                total = 0
                for s in options:
                    total += left[s]
                if total == 0:
                    ok = False
                    break
                pick = rng.randrange(total)
                for s in options:
                    w = left[s]
                    if pick < w:
                        break
                    pick -= w
                slots[s].append(card)
                left[s] -= 1
            if ok:
                break
        hands = slots[:players]
        hands[seat] = list(self.view.hand)
        for hand in hands:  # one canonical order: the policy breaks ties by position
            hand.sort(key=card_index)
        kitty = list(self.view.kitty) if self.kitty_known else slots[players]
        return hands, kitty

    def world(self, rng: random.Random) -> PlayState:
        """A sampled world as a ``PlayState`` at the current moment of the trick."""
        return self.world_from(*self.sample(rng))

    def world_from(self, hands: list[list[Card]], kitty: list[Card]) -> PlayState:
        """The world with these sampled ``hands`` and ``kitty`` (from ``sample``)."""
        view = self.view
        assert view.dealer is not None and view.kitty_taker is not None
        table = self._table
        if table is None:
            table = self._table = _Table(self)
        assert table.leader is not None
        state = PlayState(self.rules, self.prules, self.ctx, view.dealer, view.kitty_taker,
                          hands, kitty, table.leader, view.attacker_points,
                          remaining={suit: dict(counts)
                                     for suit, counts in table.remaining.items()},
                          voids=[set(v) for v in self.voids],
                          defenders=frozenset(view.defenders), settled=view.sides_settled,
                          calls=table.calls, won=list(table.won), bid=view.bid,
                          decomposed=self.decomposed)
        if table.lead is not None:
            state.lead = table.lead
            state.plays = list(table.plays)
            state.best = table.best
            state.best_key = table.best_key
        return state

    def calls(self, *, at_start: bool = False) -> tuple[FriendCall, ...]:
        """find-friends: the calls as the view shows them now (or, ``at_start``, before
        the first trick): each open call's copies seen are the copies played so far."""
        view = self.view
        if at_start:
            return tuple(FriendCall(card, copy) for card, copy, _ in view.calls)
        played: Counter[Card] = Counter()
        for plays in [t[0] for t in view.tricks] + [view.trick]:
            for _, cards in plays:
                played.update(cards)
        return tuple(FriendCall(card, copy, played[card] if by is None else copy, by)
                     for card, copy, by in view.calls)


#: ``SuitParts`` by trump context and lead width: a pure function of the cards, so the
#: decisions of a hand share them (bounded: a table is emptied when full)
_PARTS: dict[tuple[TrumpContext, int], dict[tuple[int, ...], SuitParts]] = {}
_PARTS_CONTEXTS = 8
_PARTS_ENTRIES = 10_000


def shared_parts(ctx: TrumpContext, lead_width: int) -> dict[tuple[int, ...], SuitParts]:
    """The table of ``SuitParts`` for ``ctx`` (equal contexts share one: a decision made
    in a worker process gets its context unpickled)."""
    found = _PARTS.get((ctx, lead_width))
    if found is None:
        if len(_PARTS) >= _PARTS_CONTEXTS:
            _PARTS.clear()
        found = _PARTS[(ctx, lead_width)] = {}
    elif len(found) >= _PARTS_ENTRIES:
        found.clear()
    return found


class _Plan:
    """The world-independent part of ``Knowledge.sample``: the slots (the other seats,
    then the kitty) with their capacities and the cards known to be there, the unseen
    cards left to deal in one fixed order, and where each card may go (never to a seat
    void in its suit)."""

    def __init__(self, knowledge: Knowledge) -> None:
        view = knowledge.view
        self.players = players = view.players
        seat = knowledge.seat
        kitty_slot = players  # index of the kitty among the slots
        capacity = [view.hand_sizes[s] if s != seat else 0 for s in range(players)]
        capacity.append(0 if knowledge.kitty_known else knowledge.rules.kitty_size)
        pool = Counter(knowledge.unseen)
        base: list[list[Card]] = [[] for _ in range(players + 1)]
        for who, cards in knowledge.fixed.items():
            base[who] = list(cards)
            capacity[who] -= len(cards)
            pool.subtract(cards)
        self.capacity, self.base = capacity, base
        self.cards = list(pool.elements())
        eff = knowledge.ctx.eff
        self.options: dict[int, list[int]] = {}
        self.ranks: dict[int, int] = {}  # how many slots a card may go to
        by_suit: dict[int, list[int]] = {}
        for card in self.cards:
            suit = eff[card.index]
            if suit not in by_suit:
                by_suit[suit] = [s for s in range(players + 1)
                                 if capacity[s] > 0 and
                                 (s == kitty_slot or suit not in knowledge.voids[s])]
            self.options[card.index] = by_suit[suit]
            self.ranks[card.index] = len(by_suit[suit])
        self.open_slots = [s for s in range(players + 1) if capacity[s] > 0]


class _Table:
    """The world-independent part of ``Knowledge.world_from``: the unplayed cards by
    suit, the points each seat won, the calls, and the trick so far."""

    def __init__(self, knowledge: Knowledge) -> None:
        view = knowledge.view
        ctx, prules = knowledge.ctx, knowledge.prules
        # the cards not yet played as the seat knows them: its hand, its kitty, the unseen
        # (in a real hand exactly the world's cards; in a made-up position with cards
        # that are nowhere, the seat still reasons as if they were somewhere unseen)
        mine = list(view.hand) + (list(view.kitty) if knowledge.kitty_known else [])
        self.remaining = PlayState.tally(mine + list(knowledge.unseen.elements()), ctx)
        self.won = [0] * view.players
        for _, winner, pts in view.tricks:
            self.won[winner] += pts
        self.calls = knowledge.calls()
        trick = list(view.trick)
        self.plays = [(s, tuple(c)) for s, c in trick]
        self.leader = trick[0][0] if trick else view.turn
        self.lead: Lead | None = None
        self.best, self.best_key = 0, None
        if trick:
            self.lead = lead = prules.lead(trick[0][1], ctx)
            self.best = trick_winner(prules, lead, [cards for _, cards in trick], ctx)
            self.best_key = play_key(prules, lead, trick[self.best][1], ctx)


def _count_voids(unseen: Counter[Card], fixed: dict[int, list[Card]], voids: list[set[int]],
                 seat: int, ctx: TrumpContext) -> None:
    """Add to ``voids`` the suits no other seat can hold: every unseen card of the suit
    is a known card of one seat (``fixed``), or there is none at all."""
    eff = ctx.eff
    left: Counter[int] = Counter()
    for card, n in unseen.items():
        left[eff[card.index]] += n
    holders: dict[int, set[int]] = {}
    for who, cards in fixed.items():
        for card in cards:
            left[eff[card.index]] -= 1
            holders.setdefault(eff[card.index], set()).add(who)
    for suit in {eff[c.index] for c in ALL_CARDS}:
        if left[suit] <= 0:
            for other in range(len(voids)):
                if other != seat and other not in holders.get(suit, set()):
                    voids[other].add(suit)

