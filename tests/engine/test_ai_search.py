"""The search's decision rule (engine.ai.search): racing on common worlds. The clearly
worse plays are dropped, the close ones get more worlds, a clear winner is never dropped,
and the heuristic's first choice has a preference that shrinks as the worlds grow. Voids
found by counting reach what the seat knows; budgets are counted in simulations."""

from __future__ import annotations

import dataclasses
import random

from engine.ai.knowledge import Knowledge
from engine.ai.player import BUDGETS, Level
from engine.ai.policy import certain_loss
from engine.ai.search import Budget, certain_points, pick, race, search_play, survivors
from engine.cards import parse_cards
from engine.order import TRUMP
from engine.views import seat_view
from tests.engine.test_ai_blunders import POSITIONS, position

RULE = Budget(worlds=8, candidates=6, time_limit=None, simulations=144, rounds=3)


def _values(gains: list[float], n: int = 40, seed: int = 3) -> list[list[float]]:
    """Paired values on ``n`` worlds: the first play, and challengers better by ``gains``
    on average, with noise."""
    rng = random.Random(seed)
    base = [rng.gauss(1.0, 0.2) for _ in range(n)]
    return [base] + [[b + g + rng.gauss(0, 0.1) for b in base] for g in gains]


def test_the_clearly_worse_go_and_at_most_half_survive_a_round() -> None:
    values = _values([-0.3, -0.01, 0.01, -0.5, 0.0], n=8)
    alive = survivors(values, list(range(6)), RULE)
    assert 1 not in alive and 4 not in alive  # clearly worse than the leader
    assert len(alive) == 3 and 0 in alive and 3 in alive  # the heuristic, the leader


def test_a_clear_winner_is_never_dropped_and_a_clearly_worse_heuristic_goes() -> None:
    # every challenger clearly better than the heuristic and none clearly worse than
    # another: all kept, beyond half
    base = [1.0, 0.6, 1.2, 0.9, 1.1, 0.8, 1.0, 0.7]
    values = [base] + [[b + 0.5 + (0.2 if (n + i) % 2 else -0.2) for n, b in enumerate(base)]
                       for i in range(5)]
    alive = survivors(values, list(range(6)), RULE)
    assert alive == [1, 2, 3, 4, 5]


def test_the_preference_for_the_heuristic_shrinks_with_the_worlds() -> None:
    # the same small gain with the same spread of differences: under the preference on
    # few worlds, past it on many
    diffs = [0.04 + (0.3 if n % 2 else -0.3) for n in range(400)]
    few = [[0.0] * 8, diffs[:8]]
    many = [[0.0] * 400, diffs]
    assert pick(few, [0, 1], RULE) == 0
    assert pick(many, [0, 1], RULE) == 1


def test_the_best_mean_wins_among_those_past_the_preference() -> None:
    values = _values([0.0, 0.08, 0.2, 0.0])
    assert pick(values, list(range(5)), RULE) == 3
    values = _values([0.0, 0.0, -0.2])
    assert pick(values, list(range(4)), RULE) == 0
    assert pick(values, [1, 3], RULE) == 1  # the heuristic's play dropped: the best mean


def test_a_race_spends_its_budget_on_the_survivors() -> None:
    spent, alive = 0, 6
    counts = []
    for round_ in range(RULE.rounds):
        count = RULE.round_worlds(spent, round_, alive, 6)
        counts.append(count)
        spent += count * alive
        alive = (alive + 1) // 2
    assert counts == [8, 16, 24] and spent == RULE.simulations
    assert Budget(worlds=3, candidates=3, time_limit=None).total(2) == 6


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


def test_same_seed_same_decision_without_a_clock() -> None:
    data = next(p for p in POSITIONS if p["name"] == "no_club_points_into_a_shown_void")
    game = position(data)
    view = seat_view(game, game.phase.turn)  # type: ignore[union-attr]
    budget = dataclasses.replace(BUDGETS[Level.HARD], time_limit=None)
    first = [search_play(Knowledge.from_view(view), random.Random(s), budget) for s in (4, 5)]
    again = [search_play(Knowledge.from_view(view), random.Random(s), budget) for s in (4, 5)]
    assert first == again


def test_a_budget_in_cards_gives_long_play_outs_fewer_worlds() -> None:
    budget = Budget(worlds=8, candidates=5, time_limit=None, simulations=240, cards=4500,
                    least=40, rounds=3)
    assert budget.total(5, 100) == 45  # the first trick: 100 cards left to play
    assert budget.total(5, 52) == 86
    assert budget.total(5, 12) == 240  # the most
    assert dataclasses.replace(budget, cards=2000).total(5, 100) == 40  # the fewest
    assert budget.total(5) == 240  # no length given: play-outs as before


def _race(budget: Budget, table: list[list[float]]) -> tuple[int, int]:
    """The race's choice over the matrix ``table`` (plays × worlds, each round's fresh
    worlds taken in order), and the play-outs it spent."""
    drawn = spent = 0

    def play(count: int, alive: list[int], into: list[list[float]]) -> bool:
        nonlocal drawn, spent
        for w in range(drawn, drawn + count):
            for i in alive:
                into[i].append(table[i][w])
        drawn += count
        spent += count * len(alive)
        return True

    return race(len(table), budget, False, play, 52), spent


def test_plays_that_cannot_beat_the_heuristic_by_a_gain_that_counts_stop_the_race() -> None:
    # every world: the same value for every play (the hand is decided)
    table = [[1.0] * 300 for _ in range(5)]
    full = Budget(worlds=8, candidates=5, time_limit=None, simulations=120, rounds=3)
    choice, spent = _race(full, table)
    assert choice == 0 and spent > 100  # without: every round, the budget spent
    choice, spent = _race(dataclasses.replace(full, equal_z=2.0), table)
    assert choice == 0 and spent == 5 * 8  # the first round only
    # a play better by 0.1 everywhere is no equal: it wins either way
    table[3] = [1.1] * 300
    assert _race(dataclasses.replace(full, equal_z=2.0), table)[0] == 3


def test_the_final_pick_can_read_every_round() -> None:
    # play 1 looks better on the first round's worlds only; on the later worlds the two
    # are alike: the last round alone keeps the heuristic's play, every round picks 1
    rng = random.Random(5)
    base = [rng.gauss(1.0, 0.3) for _ in range(300)]
    gain = [0.3 if w < 12 else 0.0 for w in range(300)]  # not clearly better at first
    other = [b + g + (0.5 if w % 2 else -0.5) for w, (b, g) in enumerate(zip(base, gain))]
    table = [base, other]
    last = Budget(worlds=8, candidates=2, time_limit=None, simulations=48, rounds=2)
    # (12 worlds a round: 48 play-outs, two plays, two rounds)
    assert _race(last, table)[0] == 0
    assert _race(dataclasses.replace(last, judge_all=True), table)[0] == 1


def test_a_sure_loss_gives_no_more_points_than_the_heuristic() -> None:
    # the trick is lost whatever the seat plays (an opponent leads it, only opponents
    # follow): a play giving it more points than the heuristic's is not raced
    for name in ("certain_loss_when_last", "certain_loss_before_an_opponent"):
        data = next(p for p in POSITIONS if p["name"] == name)
        game = position(data)
        knowledge = Knowledge.from_view(seat_view(game, game.phase.turn))  # type: ignore[union-attr]
        state = knowledge.world(random.Random(0))
        seat = knowledge.seat
        low, five = parse_cards("7S 9S"), parse_cards("5S 9S")
        assert certain_loss(state, seat, tuple(low)) and certain_loss(state, seat, tuple(five))
        assert certain_points(state, seat, [tuple(low), tuple(five)]) == [tuple(low)]
        assert certain_points(state, seat, [tuple(five), tuple(low)]) == \
            [tuple(five), tuple(low)]
