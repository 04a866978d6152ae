"""``bench/ai_eval.py``: ``--lone`` (one seat's player changed, everything else the same)
and ``--without`` (a player with a function of the computer players switched off)."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest


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


def test_a_without_player_decides_with_the_named_function_switched_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--without``: B ("easy-without") decides with the function off, A with it on,
    and it is back on once each decision is made."""
    bench = _bench()
    policy = importlib.import_module("engine.ai.policy")
    original = policy._cheapest_structure
    decide = bench.choose
    seen = set()

    def spy(view: object, level: str, seed: int = 0) -> object:
        seen.add((level, policy._cheapest_structure is original))
        return decide(view, level, seed)

    monkeypatch.setattr(bench, "choose", spy)
    bench.switch_off(["engine.ai.policy._cheapest_structure"])
    try:
        bench.play_pair(("classic", 100_003, "easy", "easy-without", None))
    finally:
        bench.switch_off([])
    assert seen == {("easy", True), ("easy", False)}
    assert policy._cheapest_structure is original


def test_without_refuses_a_name_that_is_no_function() -> None:
    bench = _bench()
    with pytest.raises(SystemExit, match="no such function"):
        bench.switch_off(["engine.ai.policy.no_such_thing"])
    assert bench.WITHOUT == []
