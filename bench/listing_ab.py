"""A change to the lead listing, timed against the code it changes, in one process.

Run: .venv/bin/python bench/listing_ab.py VARIANT [--preset classic] [--listings 3000]
[--passes 9] [--chunk 50]

``VARIANT`` is a copy of ``engine/legal.py`` with the change (kept outside ``engine/``). Both
are loaded side by side, each with its own caches; the leads of ``bench/engine_vs_peer.py``'s
random hands are recorded once, both modules must list every one of them alike (else the
script stops), and then each pass forgets both modules' caches, warms them with the
warm-up's listings and times the listings with the two taking turns every ``--chunk``
listings (which goes first alternates). On this shared machine the speed moves by tens of
percent from second to second, and between fresh processes by as much through hash seeds
and memory layout; taking turns within one process leaves a few percent a pass. Run it
with ``engine/legal.py`` itself as the variant to see that floor (about 0.97x to 1.03x
over nine passes here).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from engine_vs_peer import load_script, ours_leads, take_turns  # noqa: E402

from engine import legal  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variant", type=Path, help="a changed copy of engine/legal.py")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--listings", type=int, default=3000)
    parser.add_argument("--warmup", type=int, default=3, help="hands whose leads warm up")
    parser.add_argument("--passes", type=int, default=9)
    parser.add_argument("--chunk", type=int, default=50)
    args = parser.parse_args()
    changed = load_script(args.variant.resolve(), "engine.legal_variant")
    leads, warm = ours_leads(args.warmup, args.listings, args.preset)
    legal.forget()
    changed.forget()
    for n, (game, seat) in enumerate(leads):
        if legal.legal_plays(game, seat) != changed.legal_plays(game, seat):
            sys.exit(f"recorded lead {n} (seat {seat}): the variant lists other leads, so "
                     "it is not the same listing")
    gc.freeze()  # the recorded games are no garbage: keep the collector off them
    timed = leads[warm:]
    sides = {"current": legal, "variant": changed}

    def lister(module: ModuleType) -> Callable[[int, int], None]:
        def list_leads(start: int, stop: int) -> None:
            for game, seat in timed[start:stop]:
                module.legal_plays(game, seat)
        return list_leads

    listers = {name: lister(module) for name, module in sides.items()}
    ratios = []
    print(f"{'pass':>4} {'current µs':>10} {'variant µs':>10} {'variant speed':>13}")
    for n in range(args.passes):
        took = dict.fromkeys(sides, 0.0)
        for module in sides.values():
            module.forget()
            for game, seat in leads[:warm]:
                module.legal_plays(game, seat)
        take_turns(listers, len(timed), args.chunk, took, n, time.process_time)
        ratios.append(took["current"] / took["variant"])
        print(f"{n + 1:4} {took['current'] / len(timed) * 1e6:10.2f} "
              f"{took['variant'] / len(timed) * 1e6:10.2f} {ratios[-1]:12.3f}x", flush=True)
    print(f"\nthe variant ({args.preset}, {len(timed)} listings a pass): median "
          f"{statistics.median(ratios):.3f}x the current listing's speed "
          f"({min(ratios):.3f}x to {max(ratios):.3f}x over {args.passes} passes)")


if __name__ == "__main__":
    main()
