"""The search's decision rule judged against a much bigger search, on fixed positions.

Run: .venv/bin/python bench/ai_rule.py collect --hands 4 --first 700 --worlds 200 --out FILE
     .venv/bin/python bench/ai_rule.py judge FILE [--repeats 20]

``collect`` plays ``--hands`` duplicate deal pairs of hard against easy (seeds
``--first``, …, as ``bench/ai_eval.py``) and keeps every card-play decision of a hard seat
that compares more than one play. For each it plays every compared play in ``--worlds``
sampled worlds (hard's sampler, inference included) and stores the values: a matrix
of plays × worlds, with the CPU ms a play-out and a sampled world cost there.

``judge`` replays hard's decision rule (``search.race``, the very code of
``search_play``) on those matrices: each round's fresh worlds are drawn from the first
half of a position's worlds, the second half judges the choice. A position's regret is
the best play's mean minus the chosen play's mean on the judging half (utility: about
the chance of winning the hand), averaged over ``--repeats`` draws; the judging half is
independent of the draws, so its noise adds the same to every rule. Printed per rule:
mean regret, the share of decisions that keep the heuristic's play, and the model's CPU
ms per decision (play-outs and sampled worlds at the position's measured costs) p50 /
p95 / mean. The rules are the current budget and variants of it (``VARIANTS``).

It measures how close a rule comes to the same search with unlimited worlds, not how
well that search plays: a play that the play-outs misjudge is misjudged here too. The
strength figure is ``bench/ai_eval.py``'s.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench.ai_eval as ai_eval
from engine.ai import player as ai_player
from engine.ai import search
from engine.ai.knowledge import Knowledge
from engine.ai.policy import candidates, ruffable_lead
from engine.ai.table import take_over_threshold
from engine.views import SeatView


@dataclasses.dataclass
class Position:
    hand: int  # cards in the seat's hand
    seats: int
    values: list[list[float]]  # plays × worlds
    ranks: list[int]  # each play's rank among the heuristic's candidates (0: its choice)
    playout_ms: float  # CPU ms a play-out
    world_ms: float  # CPU ms a sampled world (inference included)


def options_of(knowledge: Knowledge, rng: random.Random, limit: int) -> list[Any]:
    """``search_play``'s plays to compare, with up to ``limit`` candidates."""
    here = knowledge.world(rng)
    seat = knowledge.seat
    options = candidates(here, seat, limit=limit)
    options = search.certain_points(here, seat, options)
    return options[:1] + [o for o in options[1:] if not ruffable_lead(here, seat, o)]


def measure(view: SeatView, seed: int, worlds: int, limit: int) -> Position | None:
    budget = dataclasses.replace(ai_player.BUDGETS[ai_player.Level.HARD], time_limit=None)
    knowledge = Knowledge.from_view(view)
    rng = random.Random(seed)
    ranked = candidates(knowledge.world(random.Random(seed)), knowledge.seat, limit=limit)
    options = options_of(knowledge, rng, limit)
    if len(options) < 2:
        return None
    ranks = [ranked.index(o) for o in options]
    seat = knowledge.seat
    threshold = take_over_threshold(knowledge.rules, view.bid)
    exact = len(view.hand) <= budget.endgame
    start = time.process_time()
    sampled = search._worlds(knowledge, rng, budget, worlds, time.perf_counter())
    world_ms = (time.process_time() - start) * 1000 / worlds
    start = time.process_time()
    values: list[list[float]] = [[] for _ in options]
    for world in sampled:
        for i, cards in enumerate(options):
            child = world.copy()
            child.play(cards)
            if exact:
                values[i].append(search._exact(child, seat, threshold))
            else:
                search.playout(child)
                values[i].append(search.utility(child, seat, threshold))
    playout_ms = (time.process_time() - start) * 1000 / (worlds * len(options))
    return Position(len(view.hand), view.players, values, ranks, playout_ms, world_ms)


def collect(args: argparse.Namespace) -> None:
    ai_eval.uncapped()
    found: list[tuple[SeatView, int]] = []
    real_choose = ai_eval.choose

    def recording(view: SeatView, level: str, seed: int) -> object:
        if level == "hard" and view.phase == "play" and view.turn == view.seat:
            found.append((view, seed))
        return real_choose(view, level, seed)

    ai_eval.choose = recording  # type: ignore[assignment]
    for n in range(args.hands):
        ai_eval.play_pair(("classic", args.first + n, "hard", "easy", None))
    ai_eval.choose = real_choose
    positions = []
    for k, (view, seed) in enumerate(found):
        position = measure(view, seed, args.worlds, args.candidates)
        if position is not None:
            positions.append(position)
        if k % 20 == 0:
            print(f"{k}/{len(found)} decisions, {len(positions)} kept", flush=True)
    with open(args.out, "wb") as f:
        pickle.dump(positions, f)
    print(f"{len(positions)} positions of {len(found)} decisions written to {args.out}")


class Draws:
    """A race's ``play``: each round's fresh worlds drawn from ``order``, values read
    from the matrix ``values``; counts the play-outs and worlds used."""

    def __init__(self, values: list[list[float]], order: list[int]) -> None:
        self.values, self.order = values, order
        self.drawn = self.used = 0

    def __call__(self, count: int, alive: list[int], into: list[list[float]]) -> bool:
        if self.drawn + count > len(self.order):
            raise ValueError(f"the rule wants more than {len(self.order)} worlds")
        for w in self.order[self.drawn:self.drawn + count]:
            for i in alive:
                into[i].append(self.values[i][w])
        self.drawn += count
        self.used += count * len(alive)
        return True


def judge_rule(positions: list[Position], budget: search.Budget, repeats: int,
               seed: int = 1) -> tuple[list[float], float, list[float]]:
    """Per position its mean regret; the share of draws keeping the heuristic's play;
    every draw's model CPU ms."""
    rng = random.Random(seed)
    regrets, kept, costs = [], [], []
    for position in positions:
        mine = []
        rows = [i for i, r in enumerate(position.ranks) if r < budget.candidates]
        values = [position.values[i] for i in rows]
        half = len(values[0]) // 2
        judged = [statistics.mean(v[half:]) for v in values]
        best = max(statistics.mean(v[half:]) for v in position.values)  # of every row
        exact = position.hand <= budget.endgame
        # (the cards left to play: about the seat's hand at every seat)
        length = position.hand * position.seats
        for _ in range(repeats):
            draws = Draws(values, rng.sample(range(half), half))
            choice = 0 if len(values) == 1 else \
                search.race(len(values), budget, exact, draws, length)
            mine.append(best - judged[choice])
            kept.append(choice == 0)
            costs.append(draws.used * position.playout_ms + draws.drawn * position.world_ms)
        regrets.append(statistics.mean(mine))
    return regrets, statistics.mean(kept), costs


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def variants() -> dict[str, search.Budget]:
    hard = ai_player.BUDGETS[ai_player.Level.HARD]
    out = {"current": hard}
    for name, changes in VARIANTS.items():
        out[name] = dataclasses.replace(hard, **changes)
    return out


#: Budget changes to judge beside the current hard budget (edit freely).
VARIANTS: dict[str, dict[str, Any]] = {
    "before (120 play-outs)": {"cards": 0, "simulations": 120, "least": 0, "rounds": 2,
                               "judge_all": False, "equal_z": 0.0},
    "last round only": {"judge_all": False},
    "2 rounds": {"rounds": 2},
    "no equal drop": {"equal_z": 0.0},
    "prefer 2": {"prefer": 2.0},
    "prefer 0.5": {"prefer": 0.5},
    "candidates 7": {"candidates": 7},
    "cards 5500": {"cards": 5500},
    "cards 3500": {"cards": 3500},
}


def judge(args: argparse.Namespace) -> None:
    with open(args.positions, "rb") as f:
        positions: list[Position] = pickle.load(f)
    print(f"{len(positions)} positions, {len(positions[0].values[0])} worlds each, "
          f"{args.repeats} draws a position")
    base: list[float] = []
    for name, budget in variants().items():
        try:
            regrets, kept, costs = judge_rule(positions, budget, args.repeats)
        except ValueError as exc:
            print(f"{name:>24}: {exc}")
            continue
        base = base or regrets
        diffs = [a - b for a, b in zip(regrets, base)]
        error = statistics.stdev(diffs) / len(diffs) ** 0.5
        print(f"{name:>24}: regret {statistics.mean(regrets) * 1000:6.2f} ‰ "
              f"({statistics.mean(diffs) * 1000:+5.2f} ± {error * 1000:4.2f} vs current), "
              f"kept {kept:.0%}, model CPU ms p50 {pct(costs, 0.5):4.0f} "
              f"p95 {pct(costs, 0.95):4.0f} mean {statistics.mean(costs):4.0f}", flush=True)


def by_hand(positions: list[Position], repeats: int) -> None:
    """Regret by the seat's cards in hand, at a few play-out budgets: where more worlds
    pay."""
    hard = ai_player.BUDGETS[ai_player.Level.HARD]
    buckets = [(3, 8), (9, 14), (15, 20), (21, 25)]
    for lo, hi in buckets:
        group = [p for p in positions if lo <= p.hand <= hi]
        if not group:
            continue
        cells = []
        for sims in (60, 120, 240):
            regret, _, costs = judge_rule(group, dataclasses.replace(hard, simulations=sims),
                                          repeats)
            cells.append(f"{sims}: {statistics.mean(regret) * 1000:5.2f} ‰ "
                         f"({statistics.mean(costs):4.0f} ms)")
        playout = statistics.mean(p.playout_ms for p in group)
        world = statistics.mean(p.world_ms for p in group)
        print(f"hand {lo:2}-{hi:2} ({len(group):3} positions, play-out {playout:.2f} ms, "
              f"world {world:.2f} ms): " + ", ".join(cells), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--hands", type=int, default=4)
    c.add_argument("--first", type=int, default=700)
    c.add_argument("--worlds", type=int, default=200)
    c.add_argument("--candidates", type=int, default=7)
    c.add_argument("--out", required=True)
    j = sub.add_parser("judge")
    j.add_argument("positions")
    j.add_argument("--repeats", type=int, default=20)
    j.add_argument("--by-hand", action="store_true", help="regret by cards in hand")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args)
    elif args.by_hand:
        with open(args.positions, "rb") as f:
            by_hand(pickle.load(f), args.repeats)
    else:
        judge(args)


if __name__ == "__main__":
    main()
