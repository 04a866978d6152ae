"""Computer player strength and speed, by duplicate deals.

Run: .venv/bin/python bench/ai_eval.py [--pairs N] [--preset NAME[:option=value,...]]
                                        [--workers W] [--match hard:easy] [--lone] ...
                                        [--progress K] [--hands-log DIR]
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
The matches play with the search budgets' time caps removed (counted in simulations,
a decision is then a function of the view, the level and the seed: the figures do not
depend on the machine's load, only the time does); ``--latency`` keeps them.
Decision times are wall-clock ms of ``choose`` for every decision after the deal
(burying, the changzhu swap, bidding, naming the trump, calling, card play, transfer),
and the CPU ms of the deciding process (``time.process_time``): on a shared machine the
wall clock counts the other processes' turns too, the CPU time does not.

``--lone``: A alone. Every deal is played twice, once with A in one seat (``lone_seat``:
over players² deals in a row, every seat under every dealer) and B in all the others,
once with B in every seat; A's figures are that seat's, B's the same seat's in the hand
of B alone, so the paired difference is what changing that one seat's player changed.
The duplicate pairs above put A's seats on one side with fixed partnerships (4 or 6
seats), but where the sides form during the hand (find-friends' called friends,
three-bid's bid) A and B sit on both sides of most hands, and their seat-hands measure
little of either; this does. Printed over all deals and by the seat's role in B's hand
(the dealer, another defender, an attacker).

``--without MODULE.FUNCTION`` (repeatable) screens a change to the computer players
against the code without it: a player ``LEVEL-without`` is ``LEVEL`` with those functions
switched off (each replaced, while that seat decides, by one returning None, which the
change's code reads as "not here"), e.g. ``--match easy:easy-without --without
engine.ai.policy._cheapest_structure``. Name the module the function is looked up in
when called (a function imported by name into another module is switched off there).
Every match also prints A minus B by deal pair, with its standard error.

``--progress K`` prints the running figures every K deal pairs (a long run that is
stopped still says what it measured). ``--hands-log DIR`` writes one readable
transcript per hand (``DIR/<match>-<seed>-<table>.txt``): seats and their players,
declarations, the hands after burying, the kitty, every trick with its winner and
points, and the result. ``--results FILE`` writes one JSON line per deal pair (its
seed; A's and B's won share, point margin and levels in each hand) as the pairs finish,
for ``bench/ai_compare.py`` to compare two runs on the same seeds pair by pair.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine import rules_of
from bot.text.catalogue import SOURCE
from bot.text.events import result_lines
from engine.actions import (
    AnswerTransfer,
    Bid,
    Bury,
    CallFriends,
    Deal,
    Declare,
    EndDeal,
    NameTrump,
    PassBid,
    Play,
    ReturnCards,
    SwapKitty,
    Transfer,
)
from engine.ai import AiPool, choose
from engine.ai import player as ai_player
from engine.ai.table import attackers_win, take_over_threshold
from engine.cards import Card, format_cards
from engine.errors import EngineError
from engine.game import Burying, Dealing, Game, HandOver, MatchOver, Playing, Swapping
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
    defends: list[bool] = field(default_factory=list)  # on the hand's final sides
    dealer: int = 0  # the hand's dealer (three-bid: who won the bid)


@dataclass
class PairResult:
    # (A's mean, B's mean) over their seat-hands of each hand: won share, margin, levels
    hands: list[tuple[float, float, float, float, float, float]] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    illegal: int = 0
    refused: int = 0
    undecided: int = 0  # a computer seat to act that had no decision (random instead)
    seed: int = 0
    role: str = ""  # ``--lone``: the lone seat's role in the hand of B alone


#: ``--without``: the functions a ``LEVEL-without`` player decides without.
WITHOUT: list[str] = []


def switch_off(names: list[str]) -> None:
    """Sets ``WITHOUT`` (in each worker process too), checking that every name is a
    function of an importable module."""
    for name in names:
        module, attr = _module_and_name(name)
        if not callable(getattr(module, attr, None)):
            raise SystemExit(f"--without {name}: no such function")
    WITHOUT[:] = names


def _module_and_name(name: str) -> tuple[object, str]:
    """``MODULE.FUNCTION``: the module (imported) and the function's name in it."""
    module, _, attr = name.rpartition(".")
    return importlib.import_module(module), attr


@contextmanager
def _switched_off(names: list[str]) -> Iterator[None]:
    saved = []
    for name in names:
        module, attr = _module_and_name(name)
        saved.append((module, attr, getattr(module, attr)))
        setattr(module, attr, _off)
    try:
        yield
    finally:
        for module, attr, function in reversed(saved):
            setattr(module, attr, function)


def _off(*args: object, **kwargs: object) -> None:
    return None


def _decide(game: Game, seat: int, kind: str, seed: int, rng: random.Random,
            result: PairResult) -> object:
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
    level, _, variant = kind.partition("-")
    start, cpu = time.perf_counter(), time.process_time()
    if variant == "without":
        with _switched_off(WITHOUT):
            action = choose(view, level, seed)
    else:
        action = choose(view, kind, seed)
    if not isinstance(game.phase, Dealing):
        result.times.setdefault(kind, []).append((time.perf_counter() - start) * 1000)
        result.cpu.setdefault(kind, []).append((time.process_time() - cpu) * 1000)
    return action


class Transcript:
    """A hand told trick by trick, for a person to review."""

    def __init__(self, seed: int, kinds: list[str]) -> None:
        self.kinds = kinds
        self.lines = [f"Deal seed {seed}; seats: " +
                      ", ".join(f"S{s} {k}" for s, k in enumerate(kinds))]
        self.trick: list[str] = []
        self.tricks = 0

    def seat(self, seat: int) -> str:
        return f"S{seat} ({self.kinds[seat]})"

    def before(self, game: Game, action: object) -> None:
        phase = game.phase
        if isinstance(action, Declare):
            self.lines.append(f"{self.seat(action.seat)} declares {format_cards(action.cards)}")
        elif isinstance(action, ReturnCards):
            self.lines.append(f"{self.seat(action.seat)} returns {format_cards(action.cards)}")
        elif isinstance(action, Bury):
            assert isinstance(phase, Burying)
            self.lines.append(f"Dealer S{phase.dealer}; trump: {_trump_name(phase)}; "
                              f"{self.seat(action.seat)} buries {format_cards(action.cards)} "
                              f"({sum(c.points for c in action.cards)} points)")
        elif isinstance(action, Bid):
            self.lines.append(f"{self.seat(action.seat)} bids {action.points}")
        elif isinstance(action, PassBid):
            self.lines.append(f"{self.seat(action.seat)} passes")
        elif isinstance(action, NameTrump):
            self.lines.append(f"{self.seat(action.seat)} names the trump: {action.trump}")
        elif isinstance(action, CallFriends):
            called = ", ".join(f"copy {copy} of {format_cards([card])}"
                               for card, copy in zip(action.cards, action.copies, strict=True))
            self.lines.append(f"{self.seat(action.seat)} calls {called}")
        elif isinstance(action, Transfer):
            self.lines.append(f"{self.seat(action.seat)} places the stopped levels: "
                              f"{'nowhere' if action.target is None else f'S{action.target}'}")
        elif isinstance(action, AnswerTransfer):
            self.lines.append(f"{self.seat(action.seat)} "
                              f"{'accepts' if action.accept else 'refuses'} the levels")
        elif isinstance(action, Play):
            assert isinstance(phase, Playing)
            if not phase.trick.plays:
                if not phase.tricks:
                    self.lines.append("Hands at the first lead:")
                    for s, hand in enumerate(phase.hands):
                        self.lines.append(f"  {self.seat(s)}: {_sorted(hand, phase)}")
                self.tricks += 1
                self.trick = [f"Trick {self.tricks}: {self.seat(action.seat)} leads "
                              f"{format_cards(action.cards)}"]
            else:
                self.trick.append(f"{self.seat(action.seat)} {format_cards(action.cards)}")

    def after(self, game: Game) -> None:
        phase = game.phase
        if self.trick and not (isinstance(phase, Playing) and phase.trick.plays):
            if isinstance(phase, Playing):
                _, winner, points = phase.tricks[-1]
                tail = f" — won by S{winner}, {points} points; attackers {phase.attacker_points}"
            else:
                assert isinstance(phase, (HandOver, MatchOver))
                tail = f" — the last trick, won by the {phase.result.last_trick_side}"
            self.lines.append("; ".join(self.trick) + tail)
            self.trick = []
        if isinstance(phase, (HandOver, MatchOver)):
            result = phase.result
            self.lines.append(f"Kitty: {format_cards(result.kitty)}")
            self.lines += result_lines(SOURCE, result)

    def write(self, path: Path) -> None:
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")


def _trump_name(phase: Burying | Playing) -> str:
    suit = phase.ctx.trump
    return f"level {phase.level.name.lower()}, " + (suit.name.lower() if suit else "no suit")


def _sorted(hand: list[Card], phase: Playing) -> str:
    ctx = phase.ctx
    return format_cards(sorted(hand, key=lambda c: (-ctx.eff[c.index], -ctx.strength[c.index])))


def play_table(preset: str, seed: int, kinds: list[str], result: PairResult,
               log: Path | None = None, actions: list[str] | None = None) -> HandRecord:
    """One hand of one table; ``kinds[s]`` plays seat s. A's seats are those of kinds[0].
    ``log``: where to write the hand's transcript; ``actions``, when given, gets a line
    per action applied (``bench/ai_same.py``)."""
    rules = rules_of(preset)
    game = Game(rules, seed, dealer=seed % rules.players)
    rng = random.Random(seed * 7919 + 1)
    step = 0
    transcript = Transcript(seed, kinds) if log is not None else None
    while not isinstance(game.phase, (HandOver, MatchOver)):
        phase = game.phase
        step += 1
        action = None
        if isinstance(phase, Dealing):
            for seat in range(rules.players):
                action = _decide(game, seat, kinds[seat], seed * 1000 + step, rng, result)
                if action is not None:
                    break
            if action is None:
                action = Deal(rules.players) if phase.stock else EndDeal()
        else:
            seat = public_view(game).turn  # type: ignore[assignment]
            if isinstance(phase, Swapping):
                seat = phase.declarer  # type: ignore[assignment]
            action = _decide(game, seat, kinds[seat], seed * 1000 + step, rng, result)
            if action is None:
                result.undecided += 1
                print(f"UNDECIDED seed {seed} {kinds}: seat {seat} in {phase.name}",
                      file=sys.stderr)
                action = random_action(game, rng)
        if transcript is not None:
            transcript.before(game, action)
        if actions is not None:
            actions.append(f"{seed} {step} {phase.name} {action!r}")
        try:
            game.apply(action)  # type: ignore[arg-type]
        except EngineError as exc:
            result.illegal += 1
            print(f"ILLEGAL seed {seed} {kinds}: {action} ({exc})", file=sys.stderr)
            game.apply(random_action(game, rng))  # type: ignore[arg-type]
        if transcript is not None:
            transcript.after(game)
    if transcript is not None and log is not None:
        transcript.write(log)
    hand = game.phase.result
    attackers_won = attackers_win(rules, hand.attacker_points, hand.bid)
    threshold = take_over_threshold(rules, hand.bid)
    margin = hand.attacker_points - threshold
    ranks = rules.level_ranks
    won, margins, levels, defending = [], [], [], []
    for change in hand.changes:
        defends = change.seat in hand.defenders
        won.append(attackers_won != defends)
        margins.append(-margin if defends else margin)
        levels.append(ranks.index(change.new) - ranks.index(change.old))
        defending.append(defends)
    return HandRecord(won, margins, levels, defending, hand.dealer)


def _means(record: HandRecord, kinds: list[str], kind: str) -> tuple[float, float, float]:
    seats = [s for s, k in enumerate(kinds) if k == kind]
    return (statistics.mean(record.won[s] for s in seats),
            statistics.mean(record.margin[s] for s in seats),
            statistics.mean(record.levels[s] for s in seats))


def play_pair(args: tuple[str, int, str, str, str | None]) -> PairResult:
    preset, seed, a, b, log_dir = args
    result = PairResult(seed=seed)
    before = ai_player.refused_plays
    players = rules_of(preset).players
    even = [a if s % 2 == 0 else b for s in range(players)]  # A in the even seats
    odd = [b if s % 2 == 0 else a for s in range(players)]
    for table, kinds in enumerate((even, odd), 1):
        log = Path(log_dir) / f"{a}-{b}-{seed}-{table}.txt" if log_dir else None
        record = play_table(preset, seed, kinds, result, log)
        result.hands.append((*_means(record, kinds, a), *_means(record, kinds, b)))
    result.refused = ai_player.refused_plays - before
    return result


def lone_seat(seed: int, players: int) -> int:
    """``--lone``: the seat A plays in deal ``seed`` (its dealer is ``seed % players``), so
    that over ``players ** 2`` seeds in a row A meets every dealer from every seat."""
    return (seed // players) % players


def play_lone(args: tuple[str, int, str, str, str | None]) -> PairResult:
    """One deal twice: A in one seat (``lone_seat``) among B's, then B in every seat. A's
    won share, margin and levels are the lone seat's, B's the same seat's in the hand of
    B alone: what changing that one seat's player changed."""
    preset, seed, a, b, log_dir = args
    result = PairResult(seed=seed)
    before = ai_player.refused_plays
    players = rules_of(preset).players
    seat = lone_seat(seed, players)
    records = []
    for table, kinds in enumerate(([a if s == seat else b for s in range(players)],
                                   [b] * players), 1):
        log = Path(log_dir) / f"{a}-alone-{b}-{seed}-{table}.txt" if log_dir else None
        records.append(play_table(preset, seed, kinds, result, log))
    lone, alone = records
    result.hands.append((lone.won[seat], lone.margin[seat], lone.levels[seat],
                         alone.won[seat], alone.margin[seat], alone.levels[seat]))
    result.role = "dealer" if seat == alone.dealer else \
        "defender" if alone.defends[seat] else "attacker"
    result.refused = ai_player.refused_plays - before
    return result


def report_lone(preset: str, a: str, b: str, results: list[PairResult], seconds: float
                ) -> None:
    """``--lone``: A's seat against the same seat played by B, deal by deal (paired)."""
    print(f"\n### {a} alone among {b} — preset {preset}, {len(results)} deals, "
          f"{seconds / 60:.1f} min")
    groups = [("all", results)] + [
        (role, [r for r in results if r.role == role]) for role in ("dealer", "defender",
                                                                    "attacker")]
    for name, rows in groups:
        if len(rows) < 2:
            continue
        diffs = [r.hands[0][0] - r.hands[0][3] for r in rows]
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        margins = [r.hands[0][1] - r.hands[0][4] for r in rows]
        levels = [r.hands[0][2] - r.hands[0][5] for r in rows]
        print(f"- {name} ({len(rows)} deals, the role in {b}'s hand): the seat won "
              f"{statistics.mean(r.hands[0][0] for r in rows):.1%} with {a}, "
              f"{statistics.mean(r.hands[0][3] for r in rows):.1%} with {b}; paired "
              f"difference {statistics.mean(diffs):+.1%} ± {error:.1%} (z "
              f"{statistics.mean(diffs) / error if error else 0:+.2f}); better "
              f"{sum(d > 0 for d in diffs)}, worse {sum(d < 0 for d in diffs)}; margin "
              f"{statistics.mean(margins):+.1f} points, levels {statistics.mean(levels):+.2f}")
    print(f"- illegal decisions: {sum(r.illegal for r in results)}; without a decision: "
          f"{sum(r.undecided for r in results)}; AI plays refused: "
          f"{sum(r.refused for r in results)}")
    decision_times(results)


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
    differences = [statistics.mean(h[0] - h[3] for h in r.hands) for r in results]
    if len(differences) > 1:
        print(f"- {a}'s won share minus {b}'s, by deal pair: "
              f"{statistics.mean(differences):+.1%} ± "
              f"{statistics.stdev(differences) / math.sqrt(len(differences)):.1%} "
              "(standard error)")
    print(f"- mean point margin of {a} over {b}: {statistics.mean(margins):+.1f} points per "
          f"seat-hand (sd {statistics.pstdev(margins):.1f})")
    print(f"- levels per seat-hand of {a} minus {b}'s: {statistics.mean(levels):+.2f}")
    print(f"- illegal decisions: {sum(r.illegal for r in results)}; computer seats without "
          f"a decision (random instead): {sum(r.undecided for r in results)}; AI plays "
          f"refused by the engine and replaced: {sum(r.refused for r in results)}")
    decision_times(results)


def decision_times(results: list[PairResult]) -> None:
    """Prints each computer level's ms per decision, wall clock and CPU."""
    times: dict[str, list[float]] = {}
    for r in results:
        for kind, values in r.times.items():
            times.setdefault(kind, []).extend(values)
    cpu: dict[str, list[float]] = {}
    for r in results:
        for kind, values in r.cpu.items():
            cpu.setdefault(kind, []).extend(values)
    for kind, values in sorted(times.items()):
        if kind == "random":
            continue
        used = cpu[kind]
        print(f"- ms per decision, {kind}: p50 {pct(values, 0.5):.1f}, "
              f"p95 {pct(values, 0.95):.1f}, max {max(values):.1f} "
              f"({len(values)} decisions); CPU ms: p50 "
              f"{pct(used, 0.5):.1f}, p95 {pct(used, 0.95):.1f}, max {max(used):.1f}")
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


def uncapped() -> None:
    """Every search budget without its time cap: decisions independent of the clock."""
    for budgets in (ai_player.BUDGETS, ai_player.BURY_BUDGETS):
        for level, budget in budgets.items():
            budgets[level] = dataclasses.replace(budget, time_limit=None)


def tweak(change: str) -> None:
    """``LEVEL:FIELD=VALUE,...``: those fields of the level's card-play budget changed
    (numbers as the field's type; a bool from 0 or 1; text as is); ``LEVEL/bury:...`` changes the
    level's burial budget."""
    level, _, fields = change.partition(":")
    level, _, which = level.partition("/")
    budgets = ai_player.BURY_BUDGETS if which == "bury" else ai_player.BUDGETS
    key = ai_player.Level(level)
    budget = budgets[key]
    kinds = {f.name: f.type for f in dataclasses.fields(budget)}
    values: dict[str, object] = {}
    for item in fields.split(","):
        name, _, text = item.partition("=")
        kind = str(kinds[name])
        values[name] = text if kind == "str" else bool(int(text)) if kind == "bool" else \
            None if text == "None" else float(text) if kind.startswith("float") else int(text)
    budgets[key] = dataclasses.replace(budget, **values)
    print(f"({change.partition(':')[0]} budget: {budgets[key]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match", action="append", default=None,
                        help="A:B, e.g. hard:easy (default: hard:easy and easy:random)")
    parser.add_argument("--progress", type=int, default=0, metavar="K",
                        help="print the running figures every K deal pairs")
    parser.add_argument("--hands-log", default=None, metavar="DIR",
                        help="write a trick-by-trick transcript of every hand into DIR")
    parser.add_argument("--results", default=None, metavar="FILE",
                        help="write one JSON line per deal pair (for bench/ai_compare.py)")
    parser.add_argument("--lone", action="store_true",
                        help="A in one seat among B's, against B in every seat, deal by deal")
    parser.add_argument("--latency", type=int, default=0, metavar="TABLES",
                        help="measure event-loop responsiveness with TABLES tables instead")
    parser.add_argument("--budget", action="append", default=[], metavar="LEVEL:F=V,...",
                        help="change fields of a level's card-play budget, e.g. "
                             "hard:prefer=0.5,judge_all=1 (a variant to screen); "
                             "hard/bury:worlds=48: the burial's")
    parser.add_argument("--without", action="append", default=[], metavar="MODULE.FUNCTION",
                        help="switched off for a LEVEL-without player (repeatable)")
    args = parser.parse_args()
    for change in args.budget:
        tweak(change)
    switch_off(args.without)
    if any(k.endswith("-without") for m in args.match or [] for k in m.split(":")) \
            and not args.without:
        parser.error("a LEVEL-without player needs --without MODULE.FUNCTION")
    if not args.latency:  # (the latency run measures the real thing, caps included)
        uncapped()  # the figures then depend on the seed alone, not on the load
    if args.latency:
        report_latency(args.latency, args.workers, args.preset)
        return
    matches = args.match or ["hard:easy", "easy:random"]
    print(f"# AI evaluation: {args.preset}, duplicate deals, {args.workers} worker process(es)")
    print(DEFINITION)
    if args.hands_log:
        Path(args.hands_log).mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=args.workers, initializer=switch_off,
                             initargs=(args.without,)) as pool:
        for match in matches:
            a, b = match.split(":")
            jobs = [(args.preset, args.seed * 100_000 + i, a, b, args.hands_log)
                    for i in range(args.pairs)]
            start = time.perf_counter()
            results = []
            play, tell = (play_lone, report_lone) if args.lone else (play_pair, report)
            for result in pool.map(play, jobs, chunksize=1):
                results.append(result)
                if args.results:  # (line by line: a stopped run keeps its pairs)
                    with open(args.results, "a", encoding="utf-8") as out:
                        out.write(json.dumps({"match": match, "seed": result.seed,
                                              "hands": result.hands,
                                              "role": result.role}) + "\n")
                if args.progress and len(results) % args.progress == 0 \
                        and len(results) < len(jobs):
                    print(f"\n(so far: the first {len(results)} deal pairs)")
                    tell(args.preset, a, b, results, time.perf_counter() - start)
            tell(args.preset, a, b, results, time.perf_counter() - start)


if __name__ == "__main__":
    main()
