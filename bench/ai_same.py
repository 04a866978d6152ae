"""Do computer players still decide the same? Fingerprints of every decision, and their CPU cost.

Run: .venv/bin/python bench/ai_same.py [--hands N] [--level hard] [--preset classic]
                                      [--profile FILE]

Plays N seeded hands (seeds 500, 501, …) with every seat at ``--level``, all budgets
without a time cap (``time_limit=None``), so each decision is a function of the view,
the level and the seed alone. Prints one line per action applied (hand, step, phase,
action; the dealing too) and, at the end, a digest of all lines and the CPU time
(``time.process_time``) per decision after the deal: run it on two checkouts and compare
the digests (same digest: same decisions). CPU time, not wall time, so that a loaded
machine changes the figure less. ``--profile FILE``: write a cProfile of the run to FILE.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ai_eval import PairResult, pct, play_table, tweak, uncapped
from bench.engine import rules_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--first", type=int, default=500, help="seed of the first hand")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    parser.add_argument("--profile", default=None, metavar="FILE")
    parser.add_argument("--budget", action="append", default=[], metavar="LEVEL:F=V,...",
                        help="change fields of a level's card-play budget (as ai_eval)")
    args = parser.parse_args()
    for change in args.budget:
        tweak(change)
    uncapped()
    lines: list[str] = []
    result = PairResult()
    kinds = [args.level] * rules_of(args.preset).players
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    for seed in range(args.first, args.first + args.hands):
        play_table(args.preset, seed, kinds, result, actions=lines)
    if profiler:
        profiler.disable()
        profiler.dump_stats(args.profile)
    if not args.quiet:
        print("\n".join(lines))
    cpu = result.cpu[args.level]  # (the deciding process's CPU ms)
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
    print(f"{args.level} {args.preset} seeds {args.first}..{args.first + args.hands - 1}: "
          f"{len(lines)} actions ({len(cpu)} decisions after the deal), digest {digest}")
    print(f"CPU ms per decision after the deal: p50 {pct(cpu, 0.5):.1f}, "
          f"p95 {pct(cpu, 0.95):.1f}, mean {statistics.mean(cpu):.1f}, "
          f"max {max(cpu):.1f}")


if __name__ == "__main__":
    main()
