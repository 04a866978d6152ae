"""Who plays with whom (engine.teams) and how a throw breaks into units (RULES §1, §4)."""

from __future__ import annotations

import pytest

from engine.cards import Rank, Suit, parse_cards
from engine.order import trump_context
from engine.rules import ruleset
from engine.shapes import decompose
from engine.teams import Formation, Seating


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
