"""``bench/ai_eval.py --lone``: one seat's player changed, everything else the same."""

from __future__ import annotations

import importlib
from types import ModuleType


def _bench() -> ModuleType:
    """bench/ai_eval.py (``bench`` is a folder of scripts, imported from the project root)."""
    return importlib.import_module("bench.ai_eval")


def test_the_lone_seat_meets_every_dealer_from_every_seat() -> None:
    bench = _bench()
    for players in (3, 4, 5, 6):
        seen = {(seed % players, bench.lone_seat(seed, players))
                for seed in range(700, 700 + players ** 2)}
        assert len(seen) == players ** 2


def test_a_lone_deal_compares_one_seat_with_the_same_seat_of_the_other_player() -> None:
    bench = _bench()
    preset, seed = "find-friends:players=5,decks=2", 100_007
    seat = bench.lone_seat(seed, 5)
    lone = bench.play_lone((preset, seed, "easy", "random", None))
    tables = []
    for kinds in ([("easy" if s == seat else "random") for s in range(5)], ["random"] * 5):
        tables.append(bench.play_table(preset, seed, kinds, bench.PairResult(seed=seed)))
    with_a, alone = tables
    assert lone.hands == [(with_a.won[seat], with_a.margin[seat], with_a.levels[seat],
                           alone.won[seat], alone.margin[seat], alone.levels[seat])]
    role = "dealer" if seat == alone.dealer else "defender" if alone.defends[seat] \
        else "attacker"
    assert lone.role == role
    # the easy player decided in its seat only: its decisions were timed, nobody else's
    assert set(lone.times) == {"easy"}


def test_in_three_bid_the_lone_seat_is_the_bid_s_winner_or_an_attacker() -> None:
    """The dealer is who won the bid, alone: no seat there is "another defender"."""
    bench = _bench()
    roles = [bench.play_lone(("three-bid", seed, "easy", "random", None)).role
             for seed in range(100_000, 100_009)]
    assert set(roles) == {"dealer", "attacker"}
