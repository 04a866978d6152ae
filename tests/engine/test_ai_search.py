"""The search's decision rule (engine.ai.search): a challenger must beat the heuristic's
first choice by a margin that grows with the number of challengers; a clear winner
wins; voids found by counting reach what the seat knows."""

from __future__ import annotations

import random

from engine.ai.knowledge import Knowledge
from engine.ai.player import BUDGETS, Level
from engine.ai.search import Budget, _pick, search_play
from engine.order import TRUMP
from engine.views import seat_view
from tests.engine.test_ai_blunders import POSITIONS, position

RULE = Budget(worlds=40, candidates=5, time_limit=None)


def _values(gains: list[float], n: int = 40, seed: int = 3) -> list[list[float]]:
    """Paired values on ``n`` worlds: the first play, and challengers better by ``gains``
    on average, with noise."""
    rng = random.Random(seed)
    base = [rng.gauss(1.0, 0.2) for _ in range(n)]
    return [base] + [[b + g + rng.gauss(0, 0.1) for b in base] for g in gains]


def test_the_margin_grows_with_the_number_of_challengers() -> None:
    margins = [RULE.threshold(k) for k in range(1, 6)]
    assert margins == sorted(margins) and margins[0] < margins[-1]
    assert 1.25 < margins[0] < 1.3 and 1.95 < margins[3] < 1.97  # z for 10% and 2.5%


def test_a_challenger_just_better_than_one_standard_error_does_not_switch() -> None:
    values = _values([0.0, 0.0, 0.0, 0.0])
    base = values[0]
    # one challenger better by 1.6 standard errors of the paired difference: the
    # differences are m ± 0.1, alternately
    se = 0.1 * (40 / 39) ** 0.5 / 40 ** 0.5
    values[1] = [b + 1.6 * se + (0.1 if n % 2 else -0.1) for n, b in enumerate(base)]
    assert _pick(values[:2], RULE) == 1  # alone, it passes the 10% test
    assert _pick(values, RULE) == 0  # among four challengers it does not


def test_a_clear_winner_switches_and_the_largest_gain_wins() -> None:
    values = _values([0.0, 0.08, 0.2, 0.0])
    assert _pick(values, RULE) == 3


def test_a_tiny_gain_never_switches() -> None:
    base = [1.0] * 40
    values = [base, [1.005] * 40]  # certain, but below min_gain
    assert _pick(values, RULE) == 0


def test_counting_finds_voids_nobody_showed() -> None:
    data = next(p for p in POSITIONS if p["name"] == "no_king_led_into_a_counted_void")
    game = position(data)
    view = seat_view(game, game.phase.turn)  # type: ignore[union-attr]
    knowledge = Knowledge.from_view(view)
    spades = knowledge.ctx.eff[view.hand[0].index]
    assert spades != TRUMP
    shown = [set() for _ in range(4)]
    for trick, _, _ in view.tricks:  # nobody failed to follow a spade lead
        for seat, cards in trick:
            if len(cards) != len(trick[0][1]):
                shown[seat].add(-1)
    assert all(not s for s in shown)
    assert [spades in knowledge.voids[s] for s in range(4)] == [False, True, True, True]
    # every sampled world respects it
    for seed in range(5):
        hands, _ = knowledge.sample(random.Random(seed))
        assert all(knowledge.ctx.eff[c.index] != spades for s in (1, 2, 3) for c in hands[s])


def test_budgets_are_counted_in_simulations() -> None:
    hard = BUDGETS[Level.HARD]
    assert hard.worlds_for(5) * 5 >= hard.simulations and hard.worlds_for(2) == 30
    assert hard.extra_for(2) == 24 and hard.extra_for(8) == hard.extra_worlds


def test_same_seed_same_decision_without_a_clock() -> None:
    data = next(p for p in POSITIONS if p["name"] == "no_club_points_into_a_shown_void")
    game = position(data)
    view = seat_view(game, game.phase.turn)  # type: ignore[union-attr]
    budget = Budget(worlds=12, candidates=5, time_limit=None, simulations=60, inference=2,
                    extra_worlds=12, extra_simulations=48)
    first = [search_play(Knowledge.from_view(view), random.Random(s), budget) for s in (4, 5)]
    again = [search_play(Knowledge.from_view(view), random.Random(s), budget) for s in (4, 5)]
    assert first == again
