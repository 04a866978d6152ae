"""Our engine beside jerryyyu/shengji's pure-Python engine, interleaved (issue 16).

Run: .venv/bin/python bench/engine_vs_peer.py --peer "$TMPDIR/peer/server" [--rounds 7]

``--peer`` is the ``server/`` folder of a snapshot of the public jerryyyu/shengji
repository, kept outside the project (never commit it); the peer is timed by
``../shared/peer/bench_peer.py`` (see ``../shared/peer/README.md``), which imports it
from there. Each round runs ours, then the peer, each in a fresh process; the figures
are the medians over the rounds. Our random hand is ``bench/engine.py``'s (card-by-card
deal with declarations, bury, random legal plays with throws through ``Game.apply``,
scoring); the peer's has no declarations and no throws, so the ratio is conservative.

``--callgrind`` counts instructions instead (``valgrind --tool=callgrind``, noise-free on
a loaded machine): each side plays ``--warmup`` + ``--hands`` hands and ``--warmup`` +
``2 * --hands`` hands in two processes, and the difference over ``--hands`` is the cost
of a hand without the start-up. It prints both, and the ratio.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.game import Game  # noqa: E402
from engine.rules import ruleset  # noqa: E402
from engine.simulate import play_random_hand  # noqa: E402

DRIVER = ROOT.parent / "shared" / "peer" / "bench_peer.py"


def _bench_engine():  # type: ignore[no-untyped-def]
    """bench/engine.py, whose measures these are (a script, so loaded by path)."""
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "bench" / "engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}

#: Runs the driver with its clock (``time.perf_counter``, read at import) swapped.
PEER_WITH_CLOCK = ("import runpy, sys, time; time.perf_counter = time.{}; "
                   "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def ours(hands: int, warmup: int, preset: str, clock: str) -> dict[str, float]:
    """Hands per second, and µs per legal-play listing on a lead and on a follow."""
    bench = _bench_engine()
    bench.CLOCK = CLOCKS[clock]
    rules = ruleset(preset)
    for seed in range(10**6, 10**6 + warmup):
        play_random_hand(Game(rules, seed), random.Random(seed))
    rate = bench.hands_per_second(preset, hands)
    lead, follow, _ = bench.enumeration_and_check(preset, hands)
    return {"hands_per_s": rate, "lead_us": lead, "follow_us": follow}


def ours_hands(hands: int, warmup: int, preset: str) -> None:
    """Only play hands (what ``--callgrind`` counts): the warm-up seeds, then ``hands``."""
    rules = _bench_engine().rules_of(preset)
    for seed in [*range(10**6, 10**6 + warmup), *range(hands)]:
        play_random_hand(Game(rules, seed), random.Random(seed))


def instructions(command: list[str]) -> int:
    """The instructions ``command`` executes, counted by callgrind."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        *command], check=True, capture_output=True)
        found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        assert found is not None, "callgrind wrote no total"
        return int(found.group(1))


def per_hand(command: list[str], hands: int) -> float:
    """Instructions a hand: ``command`` with ``hands`` and twice as many, the difference."""
    return (instructions([*command, "--hands", str(2 * hands)])
            - instructions([*command, "--hands", str(hands)])) / hands


def callgrind(args: argparse.Namespace) -> None:
    if shutil.which("valgrind") is None:
        sys.exit("--callgrind needs valgrind (apt-get install valgrind)")
    me = [sys.executable, str(Path(__file__).resolve()), "--side", "ours-hands",
          "--warmup", str(args.warmup), "--preset", args.preset]
    them = [sys.executable, str(args.driver), "--root", args.peer, "--enum", "rules",
            "--runs", "1", "--warmup", str(args.warmup), "--validate-hands", "0"]
    mine = per_hand(me, args.hands)
    print(f"ours ({args.preset}): {mine / 1e6:.2f} M instructions a hand", flush=True)
    theirs = per_hand(them, args.hands)
    print(f"jerryyyu/shengji (classic): {theirs / 1e6:.2f} M instructions a hand")
    print(f"ours / peer: {theirs / mine:.2f}x as fast, in instructions "
          f"({time.strftime('%Y-%m-%d')}, {args.hands} hands a side after {args.warmup})")


def peer(root: str, driver: Path, hands: int, warmup: int, clock: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", PEER_WITH_CLOCK.format(CLOCKS[clock].__name__),
         str(driver), "--root", root, "--enum", "rules", "--hands", str(hands),
         "--runs", "1", "--warmup", str(warmup), "--validate-hands", "0"],
        check=True, capture_output=True, text=True).stdout
    found = json.loads(out.strip().splitlines()[-1])
    return {"hands_per_s": found["hands_per_s_median"], "lead_us": found["enum_lead_us_mean"],
            "follow_us": found["enum_follow_us_mean"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", help="the peer's server/ folder (outside the project)")
    parser.add_argument("--driver", type=Path, default=DRIVER, help="bench_peer.py")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--hands", type=int, default=100, help="hands per side and round")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--preset", default="classic", help="our preset (the peer: classic)")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="CPU time of each process (default) or the wall clock")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions a hand under callgrind instead of timing")
    parser.add_argument("--side", choices=("ours", "ours-hands"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side == "ours":  # one round of ours, in its own process
        print(json.dumps(ours(args.hands, args.warmup, args.preset, args.clock)))
        return
    if args.side == "ours-hands":
        ours_hands(args.hands, args.warmup, args.preset)
        return
    if not args.peer:
        parser.error("--peer is required: the server/ folder of a jerryyyu/shengji snapshot")
    if args.callgrind:
        callgrind(args)
        return
    me = [sys.executable, str(Path(__file__).resolve()), "--side", "ours",
          "--hands", str(args.hands), "--warmup", str(args.warmup), "--preset", args.preset,
          "--clock", args.clock]
    rows: dict[str, list[dict[str, float]]] = {"ours": [], "peer": []}
    print(f"{'round':>5} {'side':5} {'hands/s':>8} {'ms/hand':>8} {'lead µs':>8} {'follow µs':>9}")
    for n in range(1, args.rounds + 1):
        for side in ("ours", "peer"):
            if side == "ours":
                found = json.loads(subprocess.run(me, check=True, capture_output=True,
                                                  text=True).stdout)
            else:
                found = peer(args.peer, args.driver, args.hands, args.warmup, args.clock)
            rows[side].append(found)
            print(f"{n:5} {side:5} {found['hands_per_s']:8.1f} "
                  f"{1000 / found['hands_per_s']:8.2f} {found['lead_us']:8.1f} "
                  f"{found['follow_us']:9.1f}", flush=True)
    medians = {side: {key: statistics.median(r[key] for r in found)
                      for key in ("hands_per_s", "lead_us", "follow_us")}
               for side, found in rows.items()}
    me_, them = medians["ours"], medians["peer"]
    print(f"\nmedians over {args.rounds} interleaved rounds of {args.hands} hands, "
          f"{args.clock} time ({time.strftime('%Y-%m-%d')}):")
    for side, found in medians.items():
        print(f"  {side}: {found['hands_per_s']:.1f} hands/s ({1000 / found['hands_per_s']:.2f}"
              f" ms a hand), {found['lead_us']:.1f} µs a lead listing, "
              f"{found['follow_us']:.1f} µs a follow listing")
    ratios = [o["hands_per_s"] / p["hands_per_s"]
              for o, p in zip(rows["ours"], rows["peer"], strict=True)]
    print(f"  ours / peer: {me_['hands_per_s'] / them['hands_per_s']:.2f}x the hands per second "
          f"(round by round: median {statistics.median(ratios):.2f}x, "
          f"{min(ratios):.2f}x to {max(ratios):.2f}x); lead listing "
          f"{them['lead_us'] / me_['lead_us']:.2f}x as fast, follow listing "
          f"{them['follow_us'] / me_['follow_us']:.2f}x as fast")


if __name__ == "__main__":
    main()
