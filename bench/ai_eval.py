"""Computer player strength and speed, by duplicate deals.

Run: .venv/bin/python bench/ai_eval.py [--pairs N] [--preset NAME[:option=value,...]]
                                        [--workers W] [--match hard:easy] ...
     .venv/bin/python bench/ai_eval.py --latency TABLES [--workers W]
e.g. --preset find-friends:players=5,decks=2, --preset three-bid (the preset options
as ``bench/engine.py`` reads them).

``--latency``: TABLES tables of ``hard`` players play a hand each at once on one
asyncio event loop, every decision sent to an ``AiPool`` of W worker processes, while a
trivial coroutine ticks every 50 ms; prints how late the ticks were.

Duplicate: every deal (seed) is played twice with the same cards in the same seats and
the same dealer, once with player A in the even seats (0, 2, …) and B in the odd ones,
once swapped, so every seat is played by A once and by B once. Each seat decides from
its own ``SeatView`` only (``engine.ai.choose``); ``random`` is the engine's random legal
player (``engine.simulate``). Dealing, the end of the deal and the next hand are the
table's clock: cards are dealt a round at a time, and after each round every seat in
turn may declare.

A hand is WON by the defenders when the attackers do not win it, by the attackers
otherwise; the attackers win when their points, kitty included, take the deal (classic
two decks: 80), reach 120 (find-friends) or reach the bid (three-bid)
(``engine.ai.table.attackers_win``). The sides are the hand's final ones (find-friends:
with the friends found). A seat-hand is one seat in one hand: player A's win rate is the
share of A's seat-hands whose side won (with fixed teams the same as the share of
hands A's team won). A seat's point margin is (attackers' points - threshold) when it
attacks, the opposite when it defends; its levels are the levels its own level moved
(by team or by player), both averaged over A's seat-hands minus the same over B's.
Decision times are wall-clock ms of ``choose`` for every decision after the deal
(burying, the changzhu swap, bidding, naming the trump, calling, card play, transfer).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine import rules_of
from engine.actions import Deal, Declare, EndDeal, ReturnCards, SwapKitty
from engine.ai import AiPool, choose
from engine.ai import player as ai_player
from engine.ai.table import attackers_win, take_over_threshold
from engine.errors import EngineError
from engine.game import Dealing, Game, HandOver, MatchOver, Swapping
from engine.legal import legal_declarations
from engine.simulate import random_action, random_return
from engine.views import public_view, seat_view

DEFINITION = (
    "A hand is won by the defenders if the attackers do not win it (their points, kitty "
    "included, stay under the deal's threshold: the level table's take-over row, 120 in "
    "find-friends, the bid in three-bid), and by the attackers otherwise, with the hand's "
    "final sides. Player A's win rate is the share of A's seat-hands (a seat in one hand, "
    "both tables of every duplicate pair) whose side won.")


@dataclass
class HandRecord:
    """One hand of one table, by seat: won, point margin and levels moved."""

    won: list[bool]
    margin: list[int]
    levels: list[int]


@dataclass
class PairResult:
    # (A's mean, B's mean) over their seat-hands of each hand: won share, margin, levels
    hands: list[tuple[float, float, float, float, float, float]] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    illegal: int = 0
    refused: int = 0
    undecided: int = 0  # a computer seat to act that had no decision (random instead)


def _decide(game: Game, seat: int, kind: str, seed: int, rng: random.Random,
            times: dict[str, list[float]], clock: Callable[[], float] = time.perf_counter
            ) -> object:
    if kind == "random":
        phase = game.phase
        if isinstance(phase, Dealing):
            if phase.pending_return is not None:
                sticker, _, count = phase.pending_return
                return ReturnCards(seat, random_return(game, sticker, count, rng)) \
                    if sticker == seat else None
            options = legal_declarations(game, seat)
            return Declare(seat, rng.choice(options)) if options and rng.random() < 0.15 \
                else None
        if isinstance(phase, Swapping):
            return SwapKitty(seat)
        return random_action(game, rng)
    view = seat_view(game, seat)
    start = clock()
    action = choose(view, kind, seed)
    if not isinstance(game.phase, Dealing):
        times.setdefault(kind, []).append((clock() - start) * 1000)
    return action


def play_table(preset: str, seed: int, kinds: list[str], result: PairResult,
               clock: Callable[[], float] = time.perf_counter,
               log: list[str] | None = None) -> HandRecord:
    """One hand of one table; ``kinds[s]`` plays seat s. ``clock`` times the decisions;
    ``log``, when given, gets a line per action applied (``bench/ai_same.py``)."""
    rules = rules_of(preset)
    game = Game(rules, seed, dealer=seed % rules.players)
    rng = random.Random(seed * 7919 + 1)
    step = 0
    while not isinstance(game.phase, (HandOver, MatchOver)):
        phase = game.phase
        step += 1
        action = None
        if isinstance(phase, Dealing):
            for seat in range(rules.players):
                action = _decide(game, seat, kinds[seat], seed * 1000 + step, rng, result.times,
                                 clock)
                if action is not None:
                    break
            if action is None:
                action = Deal(rules.players) if phase.stock else EndDeal()
        else:
            seat = public_view(game).turn  # type: ignore[assignment]
            if isinstance(phase, Swapping):
                seat = phase.declarer  # type: ignore[assignment]
            action = _decide(game, seat, kinds[seat], seed * 1000 + step, rng, result.times,
                             clock)
            if action is None:
                result.undecided += 1
                print(f"UNDECIDED seed {seed} {kinds}: seat {seat} in {phase.name}",
                      file=sys.stderr)
                action = random_action(game, rng)
        if log is not None:
            log.append(f"{seed} {step} {phase.name} {action!r}")
        try:
            game.apply(action)  # type: ignore[arg-type]
        except EngineError as exc:
            result.illegal += 1
            print(f"ILLEGAL seed {seed} {kinds}: {action} ({exc})", file=sys.stderr)
            game.apply(random_action(game, rng))  # type: ignore[arg-type]
    hand = game.phase.result
    attackers_won = attackers_win(rules, hand.attacker_points, hand.bid)
    threshold = take_over_threshold(rules, hand.bid)
    margin = hand.attacker_points - threshold
    ranks = rules.level_ranks
    won, margins, levels = [], [], []
    for change in hand.changes:
        defends = change.seat in hand.defenders
        won.append(attackers_won != defends)
        margins.append(-margin if defends else margin)
        levels.append(ranks.index(change.new) - ranks.index(change.old))
    return HandRecord(won, margins, levels)


def _means(record: HandRecord, kinds: list[str], kind: str) -> tuple[float, float, float]:
    seats = [s for s, k in enumerate(kinds) if k == kind]
    return (statistics.mean(record.won[s] for s in seats),
            statistics.mean(record.margin[s] for s in seats),
            statistics.mean(record.levels[s] for s in seats))


def play_pair(args: tuple[str, int, str, str]) -> PairResult:
    preset, seed, a, b = args
    result = PairResult()
    before = ai_player.refused_plays
    players = rules_of(preset).players
    even = [a if s % 2 == 0 else b for s in range(players)]  # A in the even seats
    odd = [b if s % 2 == 0 else a for s in range(players)]
    for kinds in (even, odd):
        record = play_table(preset, seed, kinds, result)
        result.hands.append((*_means(record, kinds, a), *_means(record, kinds, b)))
    result.refused = ai_player.refused_plays - before
    return result


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(preset: str, a: str, b: str, results: list[PairResult], seconds: float) -> None:
    hands = [h for r in results for h in r.hands]
    players = rules_of(preset).players
    a_seats = sum((players + 1) // 2 if k == 0 else players // 2 for r in results
                  for k in range(len(r.hands)))
    a_won = round(sum(h[0] * ((players + 1) // 2 if k % 2 == 0 else players // 2)
                      for r in results for k, h in enumerate(r.hands)))
    lo, hi = wilson(a_won, a_seats)
    pair_scores = [statistics.mean(h[0] for h in r.hands) for r in results]
    mean_pair = statistics.mean(pair_scores)
    sd_pair = statistics.pstdev(pair_scores) if len(pair_scores) > 1 else 0.0
    half = 1.96 * sd_pair / math.sqrt(len(pair_scores))
    b_rate = statistics.mean(h[3] for h in hands)
    margins = [h[1] - h[4] for h in hands]
    levels = [h[2] - h[5] for h in hands]
    print(f"\n### {a} vs {b} — preset {preset}, {len(results)} deal pairs ({len(hands)} hands), "
          f"{seconds / 60:.1f} min")
    print(f"- win rate of {a}'s seat-hands: {a_won}/{a_seats} = {a_won / a_seats:.1%} "
          f"(95% Wilson interval {lo:.1%}–{hi:.1%}, seat-hands of one hand are not "
          f"independent; by deal pair {mean_pair:.1%} ± {half:.1%}); {b}'s: {b_rate:.1%}")
    print(f"- mean point margin of {a} over {b}: {statistics.mean(margins):+.1f} points per "
          f"seat-hand (sd {statistics.pstdev(margins):.1f})")
    print(f"- levels per seat-hand of {a} minus {b}'s: {statistics.mean(levels):+.2f}")
    print(f"- illegal decisions: {sum(r.illegal for r in results)}; computer seats without "
          f"a decision (random instead): {sum(r.undecided for r in results)}; AI plays "
          f"refused by the engine and replaced: {sum(r.refused for r in results)}")
    times: dict[str, list[float]] = {}
    for r in results:
        for kind, values in r.times.items():
            times.setdefault(kind, []).extend(values)
    for kind, values in sorted(times.items()):
        if kind == "random":
            continue
        print(f"- ms per decision, {kind}: p50 {pct(values, 0.5):.1f}, "
              f"p95 {pct(values, 0.95):.1f}, "
              f"max {max(values):.1f} ({len(values)} decisions)")
    sys.stdout.flush()


async def _latency_table(pool: AiPool, preset: str, seed: int, stats: dict[str, list[float]]
                         ) -> int:
    """One table of hard players, every decision through the pool. Returns the number
    of decisions (all applied: an illegal one would raise)."""
    import asyncio

    loop = asyncio.get_running_loop()
    rules = rules_of(preset)
    game = Game(rules, seed, dealer=seed % rules.players)
    decisions = 0
    while not isinstance(game.phase, (HandOver, MatchOver)):
        phase = game.phase
        action = None
        if isinstance(phase, Dealing):
            for seat in range(rules.players):
                action = await pool.choose(seat_view(game, seat), "hard", seed, loop=loop)
                if action is not None:
                    break
            if action is None:
                action = Deal(rules.players) if phase.stock else EndDeal()
        else:
            seat = phase.declarer if isinstance(phase, Swapping) else \
                public_view(game).turn  # type: ignore[assignment]
            start = time.perf_counter()
            action = await pool.choose(seat_view(game, seat), "hard", seed, loop=loop)
            stats["decision"].append((time.perf_counter() - start) * 1000)
            decisions += 1
        game.apply(action)  # type: ignore[arg-type]
    return decisions


async def latency(tables: int, workers: int, preset: str) -> dict[str, list[float]]:
    import asyncio

    stats: dict[str, list[float]] = {"lag": [], "decision": []}
    stop = asyncio.Event()

    async def ticker() -> None:
        expected = time.perf_counter() + 0.05
        while not stop.is_set():
            await asyncio.sleep(max(0.0, expected - time.perf_counter()))
            now = time.perf_counter()
            stats["lag"].append((now - expected) * 1000)
            expected = now + 0.05

    with AiPool(workers) as pool:
        tick = asyncio.create_task(ticker())
        counts = await asyncio.gather(*(_latency_table(pool, preset, 900 + t, stats)
                                        for t in range(tables)))
        stop.set()
        await tick
    stats["decisions"] = [float(sum(counts))]
    return stats


def report_latency(tables: int, workers: int, preset: str) -> None:
    import asyncio

    start = time.perf_counter()
    stats = asyncio.run(latency(tables, workers, preset))
    lag = stats["lag"]
    decisions = stats["decision"]
    print(f"\n### Responsiveness: {tables} tables of hard players at once, {preset}, "
          f"AiPool of {workers} worker process(es), {time.perf_counter() - start:.0f} s")
    print(f"- a coroutine scheduled every 50 ms ran late by: p50 {pct(lag, 0.5):.1f} ms, "
          f"p99 {pct(lag, 0.99):.1f} ms, max {max(lag):.1f} ms ({len(lag)} ticks)")
    print(f"- {int(stats['decisions'][0])} decisions (all legal), wall time per decision "
          f"through the pool (queueing included): p50 {pct(decisions, 0.5):.0f} ms, "
          f"p95 {pct(decisions, 0.95):.0f} ms, max {max(decisions):.0f} ms")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match", action="append", default=None,
                        help="A:B, e.g. hard:easy (default: hard:easy and easy:random)")
    parser.add_argument("--latency", type=int, default=0, metavar="TABLES",
                        help="measure event-loop responsiveness with TABLES tables instead")
    args = parser.parse_args()
    if args.latency:
        report_latency(args.latency, args.workers, args.preset)
        return
    matches = args.match or ["hard:easy", "easy:random"]
    print(f"# AI evaluation: {args.preset}, duplicate deals, {args.workers} worker process(es)")
    print(DEFINITION)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for match in matches:
            a, b = match.split(":")
            jobs = [(args.preset, args.seed * 100_000 + i, a, b) for i in range(args.pairs)]
            start = time.perf_counter()
            results = list(pool.map(play_pair, jobs, chunksize=1))
            report(args.preset, a, b, results, time.perf_counter() - start)


if __name__ == "__main__":
    main()
