"""Computer player strength and speed, by duplicate deals.

Run: .venv/bin/python bench/ai_eval.py [--pairs N] [--preset NAME] [--workers W]
                                        [--match hard:easy] [--match easy:random] ...
     .venv/bin/python bench/ai_eval.py --latency TABLES [--workers W]

``--latency``: TABLES tables of four ``hard`` players play a hand each at once on one
asyncio event loop, every decision sent to an ``AiPool`` of W worker processes, while a
trivial coroutine ticks every 50 ms; prints how late the ticks were.

Duplicate: every deal (seed) is played twice with the same cards in the same seats and
the same dealer, once with player A in seats 0 and 2 and B in seats 1 and 3, once
swapped. Each seat decides from its own ``SeatView`` only (``engine.ai.choose``);
``random`` is the engine's random legal player (``engine.simulate``). Dealing, the end
of the deal and the next hand are the table's clock: cards are dealt a round at a time,
and after each round every seat in turn may declare.

A hand is WON by the defenders when the attackers do not take the deal (the level
table's row for the attackers' points, kitty included, does not pass the deal to them:
classic two decks, under 80 points), and by the attackers otherwise. A team's point
margin is (attackers' points - take-over threshold) when it attacks, the opposite when
it defends. Levels per hand: levels the team gained minus levels the other team gained.
Decision times are wall-clock ms of ``choose`` for card play, burying and swapping.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.actions import Deal, Declare, EndDeal, ReturnCards, SwapKitty
from engine.ai import AiPool, choose
from engine.ai import player as ai_player
from engine.ai.table import take_over_threshold
from engine.errors import EngineError
from engine.game import Burying, Dealing, Game, HandOver, MatchOver, Playing, Swapping
from engine.legal import legal_declarations
from engine.rules import ruleset
from engine.scoring import NOBODY
from engine.simulate import random_action, random_return
from engine.views import seat_view

DEFINITION = (
    "A hand is won by the defenders if the attackers do not take the deal (their points, "
    "kitty included, fall in a level-table row that keeps the deal with the defenders), "
    "and by the attackers otherwise. Player A's hand win rate is the share of all hands "
    "(both tables of every duplicate pair) that A's team won.")


@dataclass
class HandRecord:
    a_won: bool
    a_margin: int
    a_levels: int


@dataclass
class PairResult:
    hands: list[HandRecord] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    illegal: int = 0
    refused: int = 0


def _decide(game: Game, seat: int, kind: str, seed: int, rng: random.Random,
            times: dict[str, list[float]]) -> object:
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
    start = time.perf_counter()
    action = choose(view, kind, seed)
    if not isinstance(game.phase, Dealing):
        times.setdefault(kind, []).append((time.perf_counter() - start) * 1000)
    return action


def play_table(preset: str, seed: int, kinds: list[str], result: PairResult) -> HandRecord:
    """One hand of one table; ``kinds[s]`` plays seat s. A's seats are those of kinds[0]."""
    rules = ruleset(preset)
    game = Game(rules, seed, dealer=seed % rules.players)
    rng = random.Random(seed * 7919 + 1)
    step = 0
    while not isinstance(game.phase, (HandOver, MatchOver)):
        phase = game.phase
        step += 1
        action = None
        if isinstance(phase, Dealing):
            for seat in range(rules.players):
                action = _decide(game, seat, kinds[seat], seed * 1000 + step, rng, result.times)
                if action is not None:
                    break
            if action is None:
                action = Deal(rules.players) if phase.stock else EndDeal()
        else:
            if isinstance(phase, Burying):
                seat = phase.taker
            elif isinstance(phase, Swapping):
                seat = phase.declarer  # type: ignore[assignment]
            else:
                assert isinstance(phase, Playing)
                seat = phase.turn
            action = _decide(game, seat, kinds[seat], seed * 1000 + step, rng, result.times)
        try:
            game.apply(action)  # type: ignore[arg-type]
        except EngineError as exc:
            result.illegal += 1
            print(f"ILLEGAL seed {seed} {kinds}: {action} ({exc})", file=sys.stderr)
            game.apply(random_action(game, rng))  # type: ignore[arg-type]
    hand = game.phase.result
    defenders = hand.dealer % 2
    a_team = 0  # kinds[0] sits at seats 0 and 2
    a_defends = defenders == a_team
    attackers_win = hand.row.take_over
    a_won = attackers_win != a_defends
    threshold = take_over_threshold(rules)
    margin = hand.attacker_points - threshold
    a_margin = -margin if a_defends else margin
    if hand.side == NOBODY:
        a_levels = 0
    else:
        a_levels = hand.levels if (hand.side == "defenders") == a_defends else -hand.levels
    return HandRecord(a_won, a_margin, a_levels)


def play_pair(args: tuple[str, int, str, str]) -> PairResult:
    preset, seed, a, b = args
    result = PairResult()
    before = ai_player.refused_plays
    for kinds in ([a, b, a, b], [b, a, b, a]):
        record = play_table(preset, seed, kinds, result)
        if kinds[0] == b:  # A sat in seats 1 and 3: flip the record to A's side
            record = HandRecord(not record.a_won, -record.a_margin, -record.a_levels)
        result.hands.append(record)
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
    won = sum(h.a_won for h in hands)
    lo, hi = wilson(won, len(hands))
    pair_scores = [sum(h.a_won for h in r.hands) / 2 for r in results]
    mean_pair = statistics.mean(pair_scores)
    sd_pair = statistics.pstdev(pair_scores) if len(pair_scores) > 1 else 0.0
    half = 1.96 * sd_pair / math.sqrt(len(pair_scores))
    margins = [h.a_margin for h in hands]
    levels = [h.a_levels for h in hands]
    print(f"\n### {a} vs {b} — preset {preset}, {len(results)} deal pairs ({len(hands)} hands), "
          f"{seconds / 60:.1f} min")
    print(f"- hand win rate of {a}: {won}/{len(hands)} = {won / len(hands):.1%} "
          f"(95% Wilson interval {lo:.1%}–{hi:.1%}; by deal pair {mean_pair:.1%} "
          f"± {half:.1%})")
    print(f"- mean point margin of {a}: {statistics.mean(margins):+.1f} points per hand "
          f"(sd {statistics.pstdev(margins):.1f})")
    print(f"- levels per hand of {a} (gained minus conceded): {statistics.mean(levels):+.2f}")
    print(f"- illegal decisions: {sum(r.illegal for r in results)}; AI plays refused by the "
          f"engine and replaced: {sum(r.refused for r in results)}")
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
    """One table of four hard players, every decision through the pool. Returns the
    number of decisions (all applied: an illegal one would raise)."""
    import asyncio

    loop = asyncio.get_running_loop()
    rules = ruleset(preset)
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
            seat = (phase.taker if isinstance(phase, Burying) else
                    phase.declarer if isinstance(phase, Swapping) else phase.turn)  # type: ignore[union-attr]
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
    print(f"\n### Responsiveness: {tables} tables of 4 hard players at once, {preset}, "
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
