"""Two ``bench/ai_eval.py`` runs compared deal pair by deal pair.

Run: .venv/bin/python bench/ai_compare.py BASE.jsonl VARIANT.jsonl [--match hard:easy]

Each file is what ``bench/ai_eval.py --results FILE`` wrote (one JSON line per deal
pair). Run both on the same ``--seed`` (not seed 1, the final evaluation's) so that the
deal pairs are the same: the difference per pair then cancels most of the cards' luck.
Prints, over the seeds both runs played, each run's win rate of A's seat-hands (the mean
over the pairs of A's won share in the pair's two hands) and the variant's paired
difference with its standard error (sd of the per-pair differences over √pairs).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path


def scores(path: Path, match: str) -> dict[int, float]:
    """A's won share in each deal pair (mean over the pair's hands), by seed."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["match"] == match:
            out[row["seed"]] = statistics.mean(h[0] for h in row["hands"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("variant", type=Path)
    parser.add_argument("--match", default="hard:easy")
    args = parser.parse_args()
    base, variant = scores(args.base, args.match), scores(args.variant, args.match)
    seeds = sorted(base.keys() & variant.keys())
    if len(seeds) < 2:
        raise SystemExit(f"{len(seeds)} common deal pairs: too few to compare")
    diffs = [variant[s] - base[s] for s in seeds]
    error = statistics.stdev(diffs) / math.sqrt(len(diffs))
    mean = statistics.mean(diffs)
    print(f"{args.match}, {len(seeds)} common deal pairs (seeds {seeds[0]}..{seeds[-1]}): "
          f"{args.base.name} {statistics.mean(base[s] for s in seeds):.1%}, "
          f"{args.variant.name} {statistics.mean(variant[s] for s in seeds):.1%}; "
          f"paired difference {mean:+.1%} ± {error:.1%} (z {mean / error if error else 0:+.2f}); "
          f"pairs better {sum(d > 0 for d in diffs)}, worse {sum(d < 0 for d in diffs)}")


if __name__ == "__main__":
    main()
