"""Who plays with whom: seats, sides and whose level is whose (RULES §1, §4-§6).

The one model of partnerships. Nothing else in ``engine/`` computes a team from a seat
number.

* :class:`Seating` is fixed for a match: how many seats, how the sides of a hand form
  (:class:`Formation`), and whether levels belong to teams or to players.
* :class:`Sides` is one hand's split into defenders and attackers as far as it is known
  to everyone: with fixed partnerships from the start; with called friends the dealer
  alone until a called copy is played (each friend is public from that moment); with a
  bid the lowest bidder alone.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card


class Formation(enum.Enum):
    """How the sides of a hand form."""

    FIXED = "fixed"  # fixed partnerships: 4 seats opposite, 6 seats alternating
    CALLED = "called"  # find-friends: the dealer's friends are whoever play the called copies
    BID = "bid"  # three-bid: the lowest bidder alone against the others


@dataclass(frozen=True, slots=True)
class Seating:
    players: int
    formation: Formation = Formation.FIXED
    individual_levels: bool = False  # levels by player (else by fixed team)
    friends: int = 0  # called friends per hand (Formation.CALLED)

    # -- fixed partnerships ---------------------------------------------------------

    def fixed_team(self, seat: int) -> int:
        """The fixed team of ``seat``: with 4 seats partners sit opposite (0+2, 1+3),
        with 6 they alternate (0, 2, 4 against 1, 3, 5): in both, every second seat."""
        assert self.formation is Formation.FIXED, "only fixed partnerships have teams"
        return seat % 2

    def teammates(self, seat: int) -> tuple[int, ...]:
        """``seat``'s fixed teammates (not ``seat`` itself)."""
        team = self.fixed_team(seat)
        return tuple(s for s in range(self.players) if s != seat and self.fixed_team(s) == team)

    # -- levels ---------------------------------------------------------------------

    @property
    def level_holders(self) -> int:
        """How many levels a match keeps: one per player or one per team."""
        return self.players if self.individual_levels else 2

    def holder(self, seat: int) -> int:
        """The index in the match's levels of ``seat``'s level."""
        return seat if self.individual_levels else self.fixed_team(seat)

    def seats_of_holder(self, holder: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self.holder(s) == holder)

    # -- one hand ---------------------------------------------------------------------

    def sides(self, dealer: int) -> Sides:
        """The sides at the start of a hand dealt by ``dealer``, as everyone knows them."""
        if self.formation is Formation.FIXED:
            team = self.fixed_team(dealer)
            defenders = frozenset(s for s in range(self.players) if self.fixed_team(s) == team)
            return Sides(self.players, dealer, defenders, settled=True)
        if self.formation is Formation.BID:
            return Sides(self.players, dealer, frozenset({dealer}), settled=True)
        return Sides(self.players, dealer, frozenset({dealer}), settled=self.friends == 0)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    def next_defender(self, dealer: int, defenders: frozenset[int]) -> int:
        """The first defender after ``dealer`` in seat order (``dealer`` when alone)."""
        for k in range(1, self.players + 1):
            seat = (dealer + k) % self.players
            if seat in defenders:
                return seat
        return dealer


@dataclass(frozen=True, slots=True)
class Sides:
    """One hand's defenders as known to every seat. ``settled``: no friend is still to be
    found, so every seat not among the defenders is known to attack."""

    players: int
    dealer: int
    defenders: frozenset[int]
    settled: bool = True

    def is_defender(self, seat: int) -> bool:
        return seat in self.defenders

    @property
    def attackers(self) -> frozenset[int]:
        """The seats not (yet) known to defend; final once the hand is over."""
        return frozenset(range(self.players)) - self.defenders

    def same_side(self, a: int, b: int) -> bool | None:
        """Whether ``a`` and ``b`` play together, as far as everyone knows (None: unknown)."""
        if a == b or (a in self.defenders and b in self.defenders):
            return True
        if self.settled:
            return (a in self.defenders) == (b in self.defenders)
        return None  # a seat not yet known to defend may still be a friend

    def with_friend(self, seat: int) -> Sides:
        return Sides(self.players, self.dealer, self.defenders | {seat}, self.settled)

    def settle(self) -> Sides:
        return Sides(self.players, self.dealer, self.defenders, True)


@dataclass(frozen=True, slots=True)
class FriendCall:
    """find-friends: "the ``copy``-th ``card`` played" makes its player the dealer's
    friend. ``seen``: copies played so far; ``by``: who played the called copy (the
    dealer, or a seat already a friend, makes no new friend)."""

    card: Card
    copy: int
    seen: int = 0
    by: int | None = None

    @property
    def done(self) -> bool:
        return self.by is not None


def reveal(sides: Sides, calls: tuple[FriendCall, ...], seat: int, cards: Sequence[Card]
           ) -> tuple[Sides, tuple[FriendCall, ...], list[tuple[FriendCall, bool]]]:
    """The sides and calls after ``seat`` played ``cards``, and the calls this play
    answered, each with whether it made a new friend."""
    pending = False
    for call in calls:
        if not call.done:
            if call.card in cards:
                break
            pending = True
    else:  # (most plays: no called card; the calls and sides are kept, not rebuilt)
        if pending or sides.settled or not calls:
            return sides, calls, []
        return sides.settle(), calls, []
    answered: list[tuple[FriendCall, bool]] = []
    out = []
    for call in calls:
        n = 0 if call.done else cards.count(call.card)
        if not n:
            out.append(call)
            continue
        if call.seen + n < call.copy:
            out.append(FriendCall(call.card, call.copy, call.seen + n))
            continue
        call = FriendCall(call.card, call.copy, call.seen + n, seat)
        new = seat not in sides.defenders
        if new:
            sides = sides.with_friend(seat)
        answered.append((call, new))
        out.append(call)
    if calls and all(c.done for c in out) and not sides.settled:
        sides = sides.settle()
    return sides, tuple(out), answered
