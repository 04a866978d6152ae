"""Who plays with whom (engine.teams) and how a throw breaks into units (RULES §1, §4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, Card, Rank, Suit, parse_cards
from engine.order import trump_context
from engine.rules import ruleset
from engine.shapes import decompose
from engine.teams import Formation, FriendCall, Seating, Sides, reveal


@pytest.mark.parametrize(("cards", "max_width", "shapes"), [
    # RULES §4: tractors first, the longest first: a three-pair tractor and a single
    ("5S 5S 5S 6S 6S 7S 7S", 3, [(2, 3), (1, 1)]),
    ("5S 5S 5S 6S 6S 6S 7S 7S", 3, [(3, 2), (2, 1)]),  # a tie in cards: the wider
    ("5S 5S 5S 6S 6S 6S 7S 7S 7S", 3, [(3, 3)]),
    ("9S 8S 8S 4S 4S", 2, [(2, 1), (2, 1), (1, 1)]),
    ("5S 5S 5S 5S 6S 6S 6S 6S", 4, [(4, 2)]),
    ("5S 5S 5S 5S 6S 6S 6S", 4, [(3, 2), (1, 1)]),
    ("5S 5S 5S 5S 9S 9S 9S", 4, [(4, 1), (3, 1)]),
])
def test_throw_decomposition(cards: str, max_width: int, shapes: list[tuple[int, int]]) -> None:
    ctx = trump_context(Rank.TWO, Suit.HEARTS)
    units = decompose(parse_cards(cards), ctx, max_width)
    assert [(u.width, u.length) for u in units] == shapes


def test_fixed_partnerships_four_opposite_six_alternating() -> None:
    four, six = Seating(4), Seating(6)
    assert four.teammates(0) == (2,) and four.teammates(3) == (1,)
    assert six.teammates(0) == (2, 4) and six.teammates(1) == (3, 5)
    assert six.sides(3).defenders == {1, 3, 5}
    assert six.next_defender(3, six.sides(3).defenders) == 5


def test_called_friends_start_unknown_and_become_public() -> None:
    seating = Seating(5, Formation.CALLED, individual_levels=True, friends=1)
    sides = seating.sides(2)
    assert sides.defenders == {2} and not sides.settled
    assert sides.same_side(0, 1) is None and sides.same_side(2, 4) is None
    found = sides.with_friend(4).settle()
    assert found.same_side(2, 4) and found.same_side(0, 1) and not found.same_side(0, 2)
    assert seating.holder(3) == 3 and seating.level_holders == 5


def test_bid_sides_the_bidder_alone() -> None:
    sides = ruleset("three-bid").seating.sides(1)
    assert sides.defenders == {1} and sides.attackers == {0, 2} and sides.settled


_FEW = ALL_CARDS[:4]  # (calls and plays drawn from a few cards, so that they meet)
_Case = tuple[Sides, tuple[FriendCall, ...], int, tuple[Card, ...]]


@st.composite
def _calls_and_a_play(draw: st.DrawFn) -> _Case:
    players = 5
    sides = Seating(players, Formation.CALLED, individual_levels=True, friends=2).sides(0)
    calls = []
    for _ in range(draw(st.integers(0, 2))):
        copy = draw(st.integers(1, 3))
        seen = draw(st.integers(0, copy))
        by = draw(st.integers(0, players - 1)) if seen == copy else None
        calls.append(FriendCall(draw(st.sampled_from(_FEW)), copy, seen, by))
    for call in calls:
        if call.by is not None and call.by != 0:
            sides = sides.with_friend(call.by)
    if calls and all(call.done for call in calls) and draw(st.booleans()):
        sides = sides.settle()
    play = tuple(draw(st.lists(st.sampled_from(_FEW), min_size=1, max_size=4)))
    return sides, tuple(calls), draw(st.integers(0, players - 1)), play


@given(_calls_and_a_play())
def test_reveal_counts_the_called_copies_each_play_makes_known(case: _Case) -> None:
    """RULES §5: the ``copy``-th card called, played, makes its player a friend (a new one
    unless already a defender); once every call is answered the sides are settled. Plays
    that answer nothing keep the calls and sides as they were."""
    sides, calls, seat, play = case
    new_sides, new_calls, answered = reveal(sides, calls, seat, play)
    defenders = set(sides.defenders)
    made_known = []
    for before, after in zip(calls, new_calls, strict=True):
        assert (after.card, after.copy) == (before.card, before.copy)
        if before.done:
            assert after == before
            continue
        seen = before.seen + play.count(before.card)
        if seen < before.copy:
            assert after == FriendCall(before.card, before.copy, seen)
            continue
        assert after == FriendCall(before.card, before.copy, seen, seat)
        made_known.append((after, seat not in defenders))
        defenders.add(seat)
    assert answered == made_known
    assert new_sides.defenders == defenders
    assert new_sides.settled == (sides.settled or (bool(calls) and all(c.done for c in new_calls)))
    if not made_known and all(c == n for c, n in zip(calls, new_calls, strict=True)):
        assert new_calls is calls  # (nothing changed: the calls are kept, not rebuilt)
