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

``--callgrind --listing`` counts a listing of legal leads instead: each side records
every lead of its random hands (ours: ``bench/engine.py``'s, the peer: its driver's,
the same seeds), forgets its caches, puts what it recorded out of the garbage
collector's reach (``gc.freeze``), and lists the leads in the order they were played
(``--warmup`` hands' worth first, then ``--listings`` or ``2 * --listings`` more) in two
processes; the difference over ``--listings`` is the cost of one listing, with the
caches as warm as the listings of a hand leave them (all four with
``PYTHONHASHSEED=0``, the dictionaries' layout moving such counts by some 5%). The
peer's listing is its driver's
(``--enum rules``: every single, pair and tractor per suit), made here from the peer's
public functions (``suit_cards``, ``find_tractor_runs``); ours also lists the sure
throws. Run: .venv/bin/python bench/engine_vs_peer.py --peer "$TMPDIR/peer/server"
--callgrind --listing [--listings 200 --warmup 3]

``--listing`` alone times the same listings instead (``--clock``): each side records its
leads as above and times ``--listings`` of them after the warm-up's, in a fresh process,
the two sides taking turns for ``--rounds`` rounds; it prints the medians and the ratio.
Run: .venv/bin/python bench/engine_vs_peer.py --peer "$TMPDIR/peer/server" --listing
[--listings 1000 --warmup 3 --rounds 7]

``--listing --interleave`` times both sides in one process instead, taking turns every
``--chunk`` listings (about a millisecond), so that the machine's speed, which moves from
second to second here, is the same for both; ``--passes`` times over the recorded
listings, in each of ``--rounds`` fresh processes. Run: .venv/bin/python
bench/engine_vs_peer.py --peer "$TMPDIR/peer/server" --listing --interleave
[--listings 3000 --warmup 3 --rounds 10 --passes 3 --chunk 50]

``--interleave`` without ``--listing`` times whole random hands the same way: both sides in
one process, ``--chunk`` hands a side a turn (default 1: a hand of ours is about 3 ms, one
of the peer's about 10), ``--hands`` a side after ``--warmup`` hands each, in each of
``--rounds`` fresh processes; ours is ``bench/engine.py``'s random hand (its seeds), the
peer's is its driver's (``--enum rules``, its seed; the driver's play loop without its
per-play clock readings). It prints each process's ratio and their median. Run:
.venv/bin/python bench/engine_vs_peer.py --peer "$TMPDIR/peer/server" --interleave
[--hands 100 --warmup 10 --rounds 7]

``--units-only``, with any ``--listing`` above, lists ours like for like: the plays the
peer's listing gives (every single, n-of-a-kind and tractor of each suit), without our
sure throws (``without_throws``).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import itertools
import json
import random
import shutil
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: This script, as a new interpreter runs it.
SCRIPT = str(Path(__file__).resolve())
sys.path.insert(0, str(ROOT))

from engine import legal  # noqa: E402
from engine.game import Game, HandOver, MatchOver, Playing  # noqa: E402
from engine.plays import ClassicPlay  # noqa: E402
from engine.simulate import random_action  # noqa: E402

DRIVER = ROOT.parent / "shared" / "peer" / "bench_peer.py"


def load_script(path: Path, name: str) -> Any:
    """A script's (or a copy of a module's) module, loaded by path as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (a dataclass looks its module up)
    spec.loader.exec_module(module)
    return module


@cache
def _bench_engine() -> Any:
    """bench/engine.py, whose measures these are (loaded once)."""
    return load_script(ROOT / "bench" / "engine.py", "bench_engine")


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}

#: Runs the driver with its clock (``time.perf_counter``, read at import) swapped.
PEER_WITH_CLOCK = ("import runpy, sys, time; time.perf_counter = time.{}; "
                   "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def ours(hands: int, warmup: int, preset: str, clock: str) -> dict[str, float]:
    """Hands per second, and µs per legal-play listing on a lead and on a follow."""
    bench = _bench_engine()
    bench.CLOCK = CLOCKS[clock]
    bench.play_seeds(bench.rules_of(preset), bench.warmup_seeds(warmup))
    rate = bench.hands_per_second(preset, hands)
    lead, follow, *_ = bench.enumeration_and_check(preset, hands)
    return {"hands_per_s": rate, "lead_us": lead, "follow_us": follow}


def ours_leads(warmup: int, count: int, preset: str, units_only: bool = False
               ) -> tuple[list[tuple[Game, int]], int]:
    """Every lead of our random hands (``bench/engine.py``'s ``play_hands``' seeds): the
    game and the leader at each lead of the ``warmup`` hands, then of as many more hands as
    give ``count`` more; and how many the warm-up gave. ``units_only``: listed from then on
    without the sure throws (``without_throws``)."""
    bench = _bench_engine()
    rules = bench.rules_of(preset)
    out: list[tuple[Game, int]] = []
    seeds = itertools.chain(bench.warmup_seeds(warmup), itertools.count())

    def play_hand() -> None:
        seed = next(seeds)
        game = Game(rules, seed)
        rng = random.Random(seed)
        while not isinstance(game.state.phase, (HandOver, MatchOver)):
            phase = game.state.phase
            if isinstance(phase, Playing) and phase.trick.lead is None:
                out.append((Game.of(game.state), phase.turn))
            action = random_action(game, rng)
            assert action is not None
            game.apply(action)

    warm = _leads_after_warmup(warmup, count, play_hand, out)
    if units_only:
        without_throws(out)
    return out, warm


def without_throws(leads: list[tuple[Game, int]]) -> None:
    """Lists our leads without the sure throws for the rest of the process (the classic
    play rules' ``throws`` switched off), as the peer's listing does: every single,
    n-of-a-kind and tractor of each suit. Checks first that on each of ``leads`` that
    listing is the full listing less its throws (else the script stops)."""
    full = [legal.legal_plays(game, seat) for game, seat in leads]
    ClassicPlay.throws = False
    legal.forget()
    for n, ((game, seat), plays) in enumerate(zip(leads, full, strict=True)):
        state = game.state
        assert isinstance(state.phase, Playing)
        units = [p for p in plays if not state.play_rules.lead(p, state.phase.ctx).is_throw]
        if legal.legal_plays(game, seat) != units:
            sys.exit(f"recorded lead {n}: without throws, the listing is not the full one "
                     "less its throws")
    legal.forget()


def ours_listings(listings: int, total: int, warmup: int, preset: str,
                  clock: Callable[[], float] = time.process_time, units_only: bool = False
                  ) -> float:
    """List the leads (``ours_leads``): the warm-up's, then ``listings`` of ``total``;
    returns the time those ``listings`` took (``clock``)."""
    leads, warm = ours_leads(warmup, total, preset, units_only)
    legal.forget()  # as cold as a fresh process: warmed by these listings alone
    gc.freeze()  # the recorded games are no garbage: keep the collector off them
    for game, seat in leads[:warm]:
        legal.legal_plays(game, seat)
    start = clock()
    for game, seat in leads[warm:warm + listings]:
        legal.legal_plays(game, seat)
    return clock() - start


def peer_leads(root: str, driver: Path, total: int, warmup: int, seed: int = 12345
               ) -> tuple[list[tuple[list[str], object]], int, Callable[..., Any],
                          Callable[[], None]]:
    """The peer's side of ``ours_leads``: its driver's random hands (``--enum rules``, its
    seed) replayed through the peer's public functions, recording the hand and ordering
    at each lead; with how many the warm-up gave, the driver's lead listing (nested in
    the driver's ``main``, so written out here; its multisets are the driver's) and a
    function that forgets the memos the listings leave."""
    leads, play_round = _peer_driver(root, driver, seed)
    positions: list[tuple[list[str], object]] = []
    warm = _leads_after_warmup(warmup, total, lambda: play_round(
        lambda hand, ordering: positions.append((list(hand), ordering))), positions)

    def forget() -> None:  # the memos the hands left (``ordering._trcache``, ...)
        for _, o in positions:
            for name in ("_trcache", "_dcache"):
                vars(o).pop(name, None)

    forget()
    return positions, warm, leads, forget


def _leads_after_warmup(warmup: int, count: int, play_hand: Callable[[], None],
                        found: list[Any]) -> int:
    """Plays hands (``play_hand``, which adds each lead it meets to ``found``) until those
    after the first ``warmup`` hands gave ``count`` leads; cuts ``found`` to the warm-up's
    leads and those ``count``, and returns how many the warm-up gave."""
    warm = 0
    for n in itertools.count():
        if n == warmup:
            warm = len(found)
        if n >= warmup and len(found) >= warm + count:
            break
        play_hand()
    del found[warm + count:]
    return warm


def _peer_driver(root: str, driver: Path, seed: int
                 ) -> tuple[Callable[..., Any], Callable[..., None]]:
    """The peer's driver (``--enum rules``) made from the peer's public functions: its
    lead listing, and its round played (dealt, declared and buried the driver's way, then
    every play drawn from the listed ones, from the driver's seed: its ``play_hands``
    without its clocks), which tells ``on_lead`` (where given) each lead's hand and
    ordering before listing it."""
    multiset_combos = load_script(driver, "bench_peer").multiset_combos
    sys.path.insert(0, root)
    from shengji.engine import cards as cards_mod  # type: ignore[import-not-found]
    from shengji.engine import combos
    from shengji.engine import legal as peer_legal
    from shengji.engine.game import Game as PeerGame  # type: ignore[import-not-found]
    from shengji.engine.legal import IllegalPlay  # type: ignore[import-not-found]
    suits = ("S", "H", "C", "D", cards_mod.TRUMP)

    def leads(hand: list[str], o: object) -> list[list[str]]:  # the driver's, on a lead
        out: list[list[str]] = []
        for s in suits:
            cs = peer_legal.suit_cards(hand, s, o)
            if not cs:
                continue
            cnt = Counter(cs)
            out.extend([c] for c in cnt)
            npairs = 0
            for c, k in cnt.items():
                if k >= 2:
                    out.append([c, c])
                    npairs += 1
            for length in range(2, npairs + 1):
                runs = combos.find_tractor_runs(cs, o, length)
                if not runs:
                    break
                out.extend(runs)
        return out

    def follows(rnd: object) -> list[list[str]]:  # the driver's, on a follow
        o, hand = rnd.ordering, rnd.hands[rnd.turn]  # type: ignore[attr-defined]
        lead = rnd.trick.plays[0].cards  # type: ignore[attr-defined]
        n = len(lead)
        h_suit = peer_legal.suit_cards(hand, peer_legal.uniform_suit(lead, o), o)
        if len(h_suit) >= n:
            out = []
            for c in multiset_combos(sorted(Counter(h_suit).items()), n):
                try:
                    peer_legal.validate_follow(c, hand, lead, o)
                except IllegalPlay:
                    continue
                out.append(c)
            return out
        off = sorted((Counter(hand) - Counter(h_suit)).items())
        return [h_suit + c for c in multiset_combos(off, n - len(h_suit))]

    rng = random.Random(seed)
    current: list[Any] = [None]  # the game, until it is over

    def play_round(on_lead: Callable[[list[str], object], object] | None = None) -> None:
        game = current[0]
        if game is None or game.game_over:
            game = current[0] = PeerGame(random.Random(rng.getrandbits(64)))
        rnd = game.start_round()
        while rnd.phase == "deal":
            rnd.deal_next()
        rnd.finalize_declare()
        rnd.bury(rnd.banker, rng.sample(rnd.hands[rnd.banker], 8))
        while rnd.phase == "play":
            seat = rnd.turn
            if not rnd.trick.plays:
                if on_lead is not None:
                    on_lead(rnd.hands[seat], rnd.ordering)
                plays = leads(rnd.hands[seat], rnd.ordering)
            else:
                plays = follows(rnd)
            rnd.play(seat, list(rng.choice(plays)))
        game.finish_round()

    return leads, play_round


def both_hands(root: str, driver: Path, hands: int, warmup: int, chunk: int, preset: str,
               clock: Callable[[], float] = time.process_time, seed: int = 12345
               ) -> dict[str, float]:
    """Both sides' random hands in one process, taking turns every ``chunk`` hands (which
    side goes first alternates), after ``warmup`` hands each: µs a hand, each side."""
    bench = _bench_engine()
    rules = bench.rules_of(preset)
    _, play_round = _peer_driver(root, driver, seed)

    def ours_play(start: int, stop: int) -> None:
        bench.play_seeds(rules, range(start, stop))  # (bench/engine.py's seeds: 0, 1, ...)

    def peer_play(start: int, stop: int) -> None:
        for _ in range(start, stop):
            play_round()

    bench.play_seeds(rules, bench.warmup_seeds(warmup))
    peer_play(0, warmup)
    took = {"ours": 0.0, "peer": 0.0}
    take_turns({"ours": ours_play, "peer": peer_play}, hands, chunk, took, 0, clock)
    return {side: t / hands * 1e6 for side, t in took.items()}


def peer_listings(root: str, driver: Path, listings: int, total: int, warmup: int,
                  seed: int = 12345, clock: Callable[[], float] = time.process_time) -> float:
    """``ours_listings`` for the peer (``peer_leads``)."""
    positions, warm, leads, _ = peer_leads(root, driver, total, warmup, seed)
    gc.freeze()
    for hand, o in positions[:warm]:
        leads(hand, o)
    start = clock()
    for hand, o in positions[warm:warm + listings]:
        leads(hand, o)
    return clock() - start


def both_listings(root: str, driver: Path, listings: int, warmup: int, passes: int,
                  chunk: int, preset: str, clock: Callable[[], float] = time.process_time,
                  units_only: bool = False) -> dict[str, float]:
    """Both sides' recorded lead listings in one process, taking turns every ``chunk``
    listings (which side goes first alternates), so that both run at the machine's speed
    of the same millisecond: ``passes`` times, each from forgotten caches warmed by the
    warm-up's listings. Returns each side's µs a listing over all passes."""
    ours, our_warm = ours_leads(warmup, listings, preset, units_only)
    theirs, their_warm, peer_lead, peer_forget = peer_leads(root, driver, listings, warmup)
    gc.freeze()

    def list_ours(start: int, stop: int) -> None:
        for game, seat in ours[our_warm + start:our_warm + stop]:
            legal.legal_plays(game, seat)

    def list_theirs(start: int, stop: int) -> None:
        for hand, o in theirs[their_warm + start:their_warm + stop]:
            peer_lead(hand, o)

    took = {"ours": 0.0, "peer": 0.0}
    for _ in range(passes):
        legal.forget()
        peer_forget()
        list_ours(-our_warm, 0)  # (the warm-up's listings)
        list_theirs(-their_warm, 0)
        take_turns({"ours": list_ours, "peer": list_theirs}, listings, chunk, took, 0, clock)
    return {side: t / (passes * listings) * 1e6 for side, t in took.items()}


def take_turns(sides: dict[str, Callable[[int, int], None]], count: int, chunk: int,
               took: dict[str, float], first: int, clock: Callable[[], float]) -> None:
    """Two sides' listings ``0`` to ``count`` (each side lists ``start`` to ``stop``
    when called), taking turns every ``chunk``: which goes first alternates, the other
    one first where ``first`` is odd. Adds each side's time (``clock``) to ``took``."""
    names = list(sides)
    for k, start in enumerate(range(0, count, chunk)):
        for name in (names if (k + first) % 2 == 0 else names[::-1]):
            began = clock()
            sides[name](start, min(start + chunk, count))
            took[name] += clock() - began


def instructions(command: list[str], env: dict[str, str] | None = None) -> int:
    """The instructions ``command`` executes, counted by callgrind (bench/engine.py's)."""
    return int(_bench_engine().instructions(command, env))


def per_hand(command: list[str], hands: int) -> float:
    """Instructions a hand (bench/engine.py's count), with the hash seeds left random."""
    return float(_bench_engine().per_hand(command, hands, None))


def per_listing(command: list[str], listings: int) -> float:
    """Instructions a lead listing: ``listings`` and twice as many, the difference."""
    command = [*command, "--total", str(2 * listings)]
    return (instructions([*command, "--listings", str(2 * listings)], SAME_HASHES)
            - instructions([*command, "--listings", str(listings)], SAME_HASHES)) / listings


#: The string hashes of every run alike: a few thousand listings feel the dictionaries'
#: layout (some 5% from one hash seed to another), and both counts must see the same.
SAME_HASHES = {"PYTHONHASHSEED": "0"}


def _units_only(args: argparse.Namespace) -> list[str]:
    """``--units-only`` for a side's process, where given."""
    return ["--units-only"] if args.units_only else []


def _ours(args: argparse.Namespace) -> str:
    """Our side's label in the results."""
    return f"{args.preset}, without its sure throws" if args.units_only else args.preset


def callgrind_listing(args: argparse.Namespace) -> None:
    common = ["--warmup", str(args.warmup), "--peer", args.peer, "--driver", str(args.driver)]
    me = [sys.executable, SCRIPT, "--side", "ours-listing",
          "--preset", args.preset, *common, *_units_only(args)]
    them = [sys.executable, SCRIPT, "--side", "peer-listing", *common]
    mine = per_listing(me, args.listings)
    print(f"ours ({_ours(args)}): {mine / 1e3:.1f} k instructions a lead listing", flush=True)
    theirs = per_listing(them, args.listings)
    print(f"jerryyyu/shengji (classic): {theirs / 1e3:.1f} k instructions a lead listing")
    print(f"ours / peer: {theirs / mine:.2f}x as fast a lead listing, in instructions "
          f"({time.strftime('%Y-%m-%d')}, {args.listings} listings a side after "
          f"{args.warmup} hands' leads)")


def callgrind(args: argparse.Namespace) -> None:
    if shutil.which("valgrind") is None:
        sys.exit("--callgrind needs valgrind (apt-get install valgrind)")
    if args.listing:
        callgrind_listing(args)
        return
    me = [sys.executable, SCRIPT, "--side", "ours-hands",
          "--warmup", str(args.warmup), "--preset", args.preset]
    them = [sys.executable, str(args.driver), "--root", args.peer, "--enum", "rules",
            "--runs", "1", "--warmup", str(args.warmup), "--validate-hands", "0"]
    mine = per_hand(me, args.hands)
    print(f"ours ({args.preset}): {mine / 1e6:.2f} M instructions a hand", flush=True)
    theirs = per_hand(them, args.hands)
    print(f"jerryyyu/shengji (classic): {theirs / 1e6:.2f} M instructions a hand")
    print(f"ours / peer: {theirs / mine:.2f}x as fast, in instructions "
          f"({time.strftime('%Y-%m-%d')}, {args.hands} hands a side after {args.warmup})")


def timed_listing(args: argparse.Namespace) -> None:
    """``--listing`` without ``--callgrind``: the same recorded listings, timed, the two
    sides taking turns in fresh processes round after round; the medians."""
    common = ["--warmup", str(args.warmup), "--peer", args.peer, "--driver", str(args.driver),
              "--listings", str(args.listings), "--clock", args.clock]
    me = ["--side", "ours-listing", "--preset", args.preset, *common, *_units_only(args)]
    them = ["--side", "peer-listing", *common]
    found: dict[str, list[float]] = {"ours": [], "peer": []}
    print(f"{'round':>5} {'side':5} {'µs a lead listing':>18}")
    for n in range(1, args.rounds + 1):
        for side, options in (("ours", me), ("peer", them)):
            found[side].append(_bench_engine().fresh_process([SCRIPT, *options])["us"])
            print(f"{n:5} {side:5} {found[side][-1]:18.1f}", flush=True)
    mine, theirs = statistics.median(found["ours"]), statistics.median(found["peer"])
    ratios = [p / o for o, p in zip(found["ours"], found["peer"], strict=True)]
    print(f"\nmedians over {args.rounds} interleaved rounds of {args.listings} listings after "
          f"{args.warmup} hands' leads, {args.clock} time ({time.strftime('%Y-%m-%d')}):")
    print(f"  ours ({_ours(args)}): {mine:.1f} µs a lead listing; jerryyyu/shengji (classic): "
          f"{theirs:.1f} µs")
    print(f"  ours / peer: {theirs / mine:.2f}x as fast a lead listing (round by round: median "
          f"{statistics.median(ratios):.2f}x, {min(ratios):.2f}x to {max(ratios):.2f}x)")


def interleaved_both_listings(args: argparse.Namespace) -> None:
    """``--listing --interleave``: ``both_listings`` in ``--rounds`` fresh processes (each
    with its own hash seed and memory layout, which move either side by some percent);
    each process's ratio, and their median."""
    ratios = _processes(args, "both-listing", "µs", 1, [
        "--listings", str(args.listings), "--passes", str(args.passes),
        "--chunk", str(args.chunk), *_units_only(args)])
    print(f"\n{args.rounds} processes, each {args.passes} passes of {args.listings} listings a "
          f"side after {args.warmup} hands' leads, the sides taking turns every "
          f"{args.chunk} listings, {args.clock} time ({time.strftime('%Y-%m-%d')}):")
    print(f"  ours ({_ours(args)}) / peer (classic): median {statistics.median(ratios):.2f}x as "
          f"fast a lead listing ({min(ratios):.2f}x to {max(ratios):.2f}x)")


def interleaved_both_hands(args: argparse.Namespace) -> None:
    """``--interleave`` (hands): ``both_hands`` in ``--rounds`` fresh processes; each
    process's ratio, and their median."""
    ratios = _processes(args, "both-hands", "ms", 1e-3, [
        "--hands", str(args.hands), "--chunk", str(args.chunk)])
    print(f"\n{args.rounds} processes, each {args.hands} hands a side after {args.warmup}, "
          f"the sides taking turns every {args.chunk} hands, {args.clock} time "
          f"({time.strftime('%Y-%m-%d')}):")
    print(f"  ours ({args.preset}) / peer (classic): median {statistics.median(ratios):.2f}x "
          f"the hands per second ({min(ratios):.2f}x to {max(ratios):.2f}x)")


def _processes(args: argparse.Namespace, side: str, unit: str, scale: float,
               options: list[str]) -> list[float]:
    """``--rounds`` fresh processes of ``--side side`` (both sides in one process, in µs):
    prints each one's figures (in ``unit``, µs times ``scale``) and returns their ratios."""
    options = ["--side", side, "--preset", args.preset, "--warmup", str(args.warmup),
               "--peer", args.peer, "--driver", str(args.driver), "--clock", args.clock,
               *options]
    print(f"{'process':>7} {'ours ' + unit:>8} {'peer ' + unit:>8} {'ours / peer':>11}")
    ratios = []
    for n in range(1, args.rounds + 1):
        found = _bench_engine().fresh_process([SCRIPT, *options])
        ratios.append(found["peer"] / found["ours"])
        print(f"{n:7} {found['ours'] * scale:8.2f} {found['peer'] * scale:8.2f} "
              f"{ratios[-1]:10.2f}x", flush=True)
    return ratios


def peer(root: str, driver: Path, hands: int, warmup: int, clock: str) -> dict[str, float]:
    found = _bench_engine().fresh_process([
        "-c", PEER_WITH_CLOCK.format(CLOCKS[clock].__name__), str(driver), "--root", root,
        "--enum", "rules", "--hands", str(hands), "--runs", "1", "--warmup", str(warmup),
        "--validate-hands", "0"])
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
    parser.add_argument("--listing", action="store_true",
                        help="a listing of legal leads, not a hand (timed, or with "
                             "--callgrind counted)")
    parser.add_argument("--listings", type=int, default=200,
                        help="with --listing: lead listings per side (and twice as many)")
    parser.add_argument("--units-only", action="store_true",
                        help="with --listing: ours without its sure throws, the plays the "
                             "peer's listing gives (every single, n-of-a-kind and tractor)")
    parser.add_argument("--interleave", action="store_true",
                        help="both sides in one process, taking turns (hands, or with "
                             "--listing listings)")
    parser.add_argument("--passes", type=int, default=3,
                        help="with --interleave: passes over the listings a process")
    parser.add_argument("--chunk", type=int,
                        help="with --interleave: listings (default 50) or hands (default 1) "
                             "a side before the other's turn")
    parser.add_argument("--side", choices=("ours", "ours-hands", "ours-listing", "peer-listing",
                                           "both-listing", "both-hands"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--total", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.chunk is None:
        args.chunk = 50 if args.listing or args.side == "both-listing" else 1
    if args.side in ("ours-listing", "peer-listing"):
        total = args.total or 2 * args.listings
        clock = CLOCKS[args.clock]
        if args.side == "ours-listing":
            took = ours_listings(args.listings, total, args.warmup, args.preset, clock,
                                 args.units_only)
        else:
            took = peer_listings(args.peer, args.driver, args.listings, total, args.warmup,
                                 clock=clock)
        print(json.dumps({"us": took / args.listings * 1e6}))
        return
    if args.side == "both-listing":
        print(json.dumps(both_listings(args.peer, args.driver, args.listings, args.warmup,
                                       args.passes, args.chunk, args.preset,
                                       CLOCKS[args.clock], args.units_only)))
        return
    if args.side == "both-hands":
        print(json.dumps(both_hands(args.peer, args.driver, args.hands, args.warmup,
                                    args.chunk, args.preset, CLOCKS[args.clock])))
        return
    if args.side == "ours":  # one round of ours, in its own process
        print(json.dumps(ours(args.hands, args.warmup, args.preset, args.clock)))
        return
    if args.side == "ours-hands":
        _bench_engine().play_hands(args.preset, args.hands, args.warmup)
        return
    if not args.peer:
        parser.error("--peer is required: the server/ folder of a jerryyyu/shengji snapshot")
    if args.callgrind:
        callgrind(args)
        return
    if args.listing:
        if args.interleave:
            interleaved_both_listings(args)
        else:
            timed_listing(args)
        return
    if args.interleave:
        interleaved_both_hands(args)
        return
    me = ["--side", "ours", "--hands", str(args.hands), "--warmup", str(args.warmup),
          "--preset", args.preset, "--clock", args.clock]
    rows: dict[str, list[dict[str, float]]] = {"ours": [], "peer": []}
    print(f"{'round':>5} {'side':5} {'hands/s':>8} {'ms/hand':>8} {'lead µs':>8} {'follow µs':>9}")
    for n in range(1, args.rounds + 1):
        for side in ("ours", "peer"):
            if side == "ours":
                found = _bench_engine().fresh_process([SCRIPT, *me])
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
