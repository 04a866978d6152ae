"""How fast the stats commands answer with many stored matches.

Builds a SQLite database through the store's own methods (``create_match``,
``record_hand``, ``finish_match``) and counts every hand with the real StatsCounter
(per-hand stats and openskill ratings), then times the queries behind ``leaderboard``
(each order, first and a middle page), ``stats`` and ``history``, as the bot runs them.

    .venv/bin/python bench/leaderboard.py                      # 10,000 matches
    .venv/bin/python bench/leaderboard.py --matches 2000 --db /tmp/lb.sqlite3 --keep

A second server holds a fifth as many matches, so every query has to filter by server.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.stats.counting import StatsCounter
from bot.stats.queries import StatsQueries
from bot.stats.settings import ServerSettingsService
from bot.store import HandRecord, SeatRecord, SqliteStore
from engine.rules import ruleset

GUILD, OTHER = 1_000_000_000_000_001, 1_000_000_000_000_002
LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


async def build(store: SqliteStore, stats: StatsCounter, *, matches: int, players: int,
                seed: int) -> None:
    rng = random.Random(seed)
    rules = ruleset("classic").to_dict()
    for n in range(matches + matches // 5):
        guild = GUILD if n < matches else OTHER
        pool = range(1, players + 1) if guild == GUILD else range(10_001, 10_001 + players // 5)
        humans = rng.sample(list(pool), rng.choice((2, 3, 4)))
        seats = [SeatRecord("human", u, f"Player {u}") for u in humans]
        seats += [SeatRecord("ai", None, f"Bot {i}", "easy") for i in range(4 - len(seats))]
        rng.shuffle(seats)
        match = await store.create_match(guild, 42, rng.randrange(2**62), rules, seats,
                                         ranked=rng.random() < 0.9)
        levels = [0, 0]
        dealer = rng.randrange(4)
        for hand_no in range(rng.choice((1, 2, 3))):
            defenders = dealer % 2
            winner = rng.randrange(2)
            gained = rng.choice((1, 1, 2, 3))
            before = [LEVELS[levels[0]], LEVELS[levels[1]]]
            levels[winner] = min(levels[winner] + gained, len(LEVELS) - 1)
            await store.record_hand(HandRecord(
                match_id=match, hand_no=hand_no, dealer=dealer, level=before[defenders],
                trump="S", defenders_team=defenders, attacker_points=rng.randrange(0, 200, 5),
                kitty_multiplier=rng.choice((0, 0, 2, 4)), last_trick_team=rng.randrange(2),
                winner_team=winner, levels_gained=gained, levels_before=before,
                levels_after=[LEVELS[levels[0]], LEVELS[levels[1]]], result={},
                last_trick_seat=rng.randrange(4)))
            dealer = (dealer + 1) % 4 if winner != defenders else (dealer + 2) % 4
        await stats.count_match(match)
        if rng.random() < 0.95:
            await store.finish_match(match, "finished", rng.randrange(2))
        else:
            await store.finish_match(match, "abandoned", None)


async def timed(label: str, runs: int, make) -> tuple[str, float, float]:  # type: ignore[no-untyped-def]
    await make()  # warm the page cache and statement cache
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await make()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return label, statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=300, help="humans in the server")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="reuse --db if it exists")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "bench.sqlite3"
        reuse = args.keep and path.exists()
        if path.exists() and not reuse:
            path.unlink()
        store = await SqliteStore.open(path)
        counter = StatsCounter(store, ServerSettingsService(store))
        stats = StatsQueries(store)
        try:
            if not reuse:
                start = time.perf_counter()
                await build(store, counter, matches=args.matches, players=args.players,
                            seed=args.seed)
                print(f"built {args.matches:,} matches (+{args.matches // 5:,} in another "
                      f"server) in {time.perf_counter() - start:.1f} s")
            board = await stats.leaderboard(GUILD, "rating", 0)
            user = board.rows[0].user_id
            middle = board.pages // 2
            rows = [
                await timed("leaderboard rating, page 1", args.runs,
                            lambda: stats.leaderboard(GUILD, "rating", 0)),
                await timed(f"leaderboard rating, page {middle + 1}", args.runs,
                            lambda: stats.leaderboard(GUILD, "rating", middle)),
                await timed("leaderboard wins, page 1", args.runs,
                            lambda: stats.leaderboard(GUILD, "wins", 0)),
                await timed("leaderboard levels, page 1", args.runs,
                            lambda: stats.leaderboard(GUILD, "levels", 0)),
                await timed("stats (one player)", args.runs, lambda: stats.stats(GUILD, user)),
                await timed("history (one player, 10 matches)", args.runs,
                            lambda: stats.history(GUILD, user)),
            ]
        finally:
            await store.close()
    print(f"{args.matches:,} matches, {board.total} ranked players in the server; "
          f"median and 95th percentile of {args.runs} runs")
    print("| query | median | p95 |")
    print("|---|---|---|")
    for label, median, p95 in rows:
        print(f"| {label} | {median:.2f} ms | {p95:.2f} ms |")


if __name__ == "__main__":
    asyncio.run(main())
