"""``bench/engine_vs_peer.py``: our side of the comparison, and the schedule both sides
are timed by. (The peer's own hands need its snapshot, kept outside the project, so they
are replaced by recorders here; they were checked by hand against the driver's own digest,
docs/speed.md.)"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

from engine import legal
from engine.game import Game, Playing
from engine.plays import ClassicPlay
from engine.simulate import random_action


def _peer_bench() -> ModuleType:
    return importlib.import_module("bench.engine_vs_peer")


def test_taking_turns_gives_each_side_every_listing_once_and_alternates_who_goes_first(
) -> None:
    bench = _peer_bench()
    calls: list[tuple[str, int, int]] = []
    ticks = iter(range(10**6))

    def side(name: str):  # type: ignore[no-untyped-def]
        return lambda start, stop: calls.append((name, start, stop))

    took = {"ours": 0.0, "peer": 0.0}
    bench.take_turns({"ours": side("ours"), "peer": side("peer")}, 7, 3, took, 1,
                     lambda: float(next(ticks)))
    assert calls == [("peer", 0, 3), ("ours", 0, 3), ("ours", 3, 6), ("peer", 3, 6),
                     ("peer", 6, 7), ("ours", 6, 7)]
    assert took == {"ours": 3.0, "peer": 3.0}  # one clock tick a call, read around it


def test_the_recorded_leads_are_the_random_hands_leads_in_order() -> None:
    bench = _peer_bench()
    leads, warm = bench.ours_leads(1, 30, "classic")
    assert 0 < warm < len(leads) == warm + 30
    # the warm-up hand's leads first, then hand 0's (``bench/engine.py``'s seeds)
    game = Game(bench._bench_engine().rules_of("classic"), 0)
    hand_zero = []
    rng = random.Random(0)
    while len(hand_zero) < 10:
        phase = game.state.phase
        if isinstance(phase, Playing) and phase.trick.lead is None:
            hand_zero.append((phase.turn, game.state))
        action = random_action(game, rng)
        assert action is not None
        game.apply(action)
    assert [(seat, g.state) for g, seat in leads[warm:warm + 10]] == hand_zero
    for recorded, seat in leads:
        phase = recorded.state.phase
        assert isinstance(phase, Playing) and phase.trick.lead is None and phase.turn == seat


def test_units_only_lists_the_full_listing_less_its_throws(monkeypatch) -> None:
    bench = _peer_bench()
    monkeypatch.setattr(ClassicPlay, "throws", True)  # (restored after: it is class-wide)
    leads, _ = bench.ours_leads(0, 120, "classic")
    full = [legal.legal_plays(game, seat) for game, seat in leads]
    bench.without_throws(leads)
    assert ClassicPlay.throws is False
    threw = 0
    for (game, seat), plays in zip(leads, full, strict=True):
        phase = game.state.phase
        assert isinstance(phase, Playing)
        rules = game.state.play_rules
        units = [p for p in plays if not rules.lead(p, phase.ctx).is_throw]
        threw += len(plays) - len(units)
        assert legal.legal_plays(game, seat) == units
    assert threw > 0  # (some recorded lead had a sure throw to leave out)
    legal.forget()  # (what was listed without throws is not kept for other tests)


def test_both_hands_warms_both_sides_then_times_them_in_turns(monkeypatch) -> None:
    """The hand comparison's schedule, with the peer's round (which needs its snapshot)
    and our hands replaced by recorders: our warm-up seeds, the peer's warm-up rounds,
    then both sides' hands in chunks, each timed and divided by the hands."""
    bench = _peer_bench()
    engine_bench = bench._bench_engine()
    calls: list[tuple[str, tuple[int, ...]]] = []
    monkeypatch.setattr(engine_bench, "play_seeds",
                        lambda rules, seeds: calls.append(("ours", tuple(seeds))))
    monkeypatch.setattr(bench, "_peer_driver",
                        lambda root, driver, seed: (None, lambda: calls.append(("peer", ()))))
    ticks = iter(range(10**6))
    per_hand = bench.both_hands("peer-root", "driver.py", hands=5, warmup=2, chunk=2,
                                preset="classic", clock=lambda: float(next(ticks)))
    warm = engine_bench.warmup_seeds(2)
    assert calls == [("ours", tuple(warm)), ("peer", ()), ("peer", ()),
                     ("ours", (0, 1)), ("peer", ()), ("peer", ()),
                     ("peer", ()), ("peer", ()), ("ours", (2, 3)),
                     ("ours", (4,)), ("peer", ())]
    # one clock tick a chunk, read around it: three chunks a side over five hands
    assert per_hand == {"ours": 3 / 5 * 1e6, "peer": 3 / 5 * 1e6}
