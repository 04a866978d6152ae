"""Engine speed: full random hands per second, legal-play enumeration, play checks.

Run: .venv/bin/python bench/engine.py [--hands N] [--rounds R]
     [--preset NAME[:option=value,...] ...] [--callgrind [--warmup W]]
     [--replay [--listings leads|follows]] [--interleave [--warmup W]]
Every hand is dealt card by card with random declarations, buried, played to the end
with random legal plays through ``Game.apply`` (all validation on) and scored. The
presets take turns, round after round, and each figure is the median over the rounds;
"µs/card" is a hand's time over its cards played (every seat's hand: the deal less the
kitty, as ``--callgrind`` counts). Of the lead listings: "leads/card", how many a card
played; "plays/lead", the plays one lists; "hand/lead", the cards in hand then; "µs/lead
play", a listing's time over the plays it lists (the listing's cost for what it gives).
``four-decks`` is classic with four decks.
Times are the process's CPU time (``time.process_time``): the machine is shared, and
the wall clock also counts the time spent waiting for a core.

``--callgrind`` counts instructions instead (``valgrind --tool=callgrind``, noise-free on a
loaded machine): for each preset, ``--warmup`` + ``--hands`` and ``--warmup`` + ``2 *
--hands`` hands in two processes (``PYTHONHASHSEED=0``), the difference over ``--hands``
being a hand without the start-up; printed a hand, a card played (every seat's hand: the
deal less the kitty) and against classic's card.

``--replay`` (timed, or with ``--callgrind``) measures the engine alone: the same random
hands are played first, untimed, and their actions are then applied again to a new game
(``engine.record.replay``: ``Game.apply`` with every check), without the random player's
choosing (its listing of every lead, its follows). Under ``--callgrind`` both processes
play the same ``--warmup`` + ``2 * --hands`` hands first and replay ``--warmup`` +
``--hands`` or ``--warmup`` + ``2 * --hands`` of them, so the difference is replays only.

``--interleave`` times the presets side by side: in each of ``--rounds`` fresh processes,
after ``--warmup`` hands of each, they take turns hand by hand (which goes first moves on
by one each hand), so that all run at the machine's speed of the same moments (a round of
a preset's hands alone takes long enough for that speed to move by a third); printed, by
preset, the medians over the processes of µs a card and of its ratio to classic's card
in the same process.

``--replay --listings leads`` (or ``follows``) adds to the replay the random player's
listings of legal leads (or follows): ``legal_plays`` called where ``random_play`` calls it,
before that play is applied, the lead listings in the same order and so with the same
caches. Less the replay alone, that is what those listings cost in the random hand; the
random hand less the replay and both is the rest of the random player's choosing (its
random draws, its declarations, its free follows).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.actions import Action, Play
from engine.game import Game, Playing
from engine.legal import check_play, legal_plays
from engine.record import GameRecord, replay
from engine.rules import Ruleset, ruleset
from engine.simulate import lists_legal_plays, play_random_hand, random_action

CLOCK = time.process_time
#: This script, as a new interpreter runs it.
SCRIPT = str(Path(__file__).resolve())
EXTRA = {"four-decks": ("classic", {"decks": 4})}


#: Every preset, four decks, and find-friends' other tables.
DEFAULT = ["classic", "changzhu", "one-deck", "red-black", "titanic", "four-decks", "six",
           "three-bid", "find-friends", "find-friends:decks=3",
           "find-friends:players=6,decks=3"]


def rules_of(spec: str) -> Ruleset:
    """``preset``, ``four-decks``, or ``preset:option=value,...``."""
    name, _, rest = spec.partition(":")
    base, preset_options = EXTRA.get(name, (name, {}))
    options: dict[str, object] = {**preset_options}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = value
    return ruleset(base, **options)


def hands_per_second(preset: str, hands: int) -> float:
    rules = rules_of(preset)
    start = CLOCK()
    play_seeds(rules, range(hands))
    return hands / (CLOCK() - start)


def enumeration_and_check(preset: str, hands: int) -> tuple[float, ...]:
    """(µs per legal-play enumeration on a lead, on a follow, µs per play check, leads
    listed a card played, plays a lead listing lists, cards in hand at a lead)."""
    rules = rules_of(preset)
    lead_t, follow_t, check_t = [], [], []
    options_at_lead, hand_at_lead = [], []
    for seed in range(hands):
        game = Game(rules, seed)
        rng = random.Random(seed)
        while True:
            phase = game.phase
            if isinstance(phase, Playing):
                seat = phase.turn
                t0 = CLOCK()
                options = legal_plays(game, seat)
                t1 = CLOCK()
                if phase.trick.lead is None:
                    lead_t.append(t1 - t0)
                    options_at_lead.append(len(options))
                    hand_at_lead.append(len(phase.hands[seat]))
                else:
                    follow_t.append(t1 - t0)
                choice = rng.choice(options)
                t2 = CLOCK()
                check_play(game, seat, choice)
                check_t.append(CLOCK() - t2)
            action = random_action(game, rng)
            if action is None or phase.name == "hand_over":
                break
            game.apply(action)
    return (statistics.mean(lead_t) * 1e6, statistics.mean(follow_t) * 1e6,
            statistics.mean(check_t) * 1e6, len(lead_t) / (hands * _cards_played(rules)),
            statistics.mean(options_at_lead), statistics.mean(hand_at_lead))


def interleaved_hands(presets: list[str], hands: int, warmup: int) -> dict[str, float]:
    """µs a card played of each preset's random hands (seeds 0 to ``hands`` - 1, as
    ``hands_per_second``), the presets taking turns hand by hand in this process, which
    one goes first moving on by one each hand, after ``warmup`` hands of each: so that
    every preset runs at the machine's speed of the same moments."""
    rules = {preset: rules_of(preset) for preset in presets}
    for preset in presets:
        play_seeds(rules[preset], warmup_seeds(warmup))
    took = dict.fromkeys(presets, 0.0)
    for seed in range(hands):
        first = seed % len(presets)
        for preset in presets[first:] + presets[:first]:
            start = CLOCK()
            random_hand(rules[preset], seed)
            took[preset] += CLOCK() - start
    return {preset: t / hands / _cards_played(rules[preset]) * 1e6
            for preset, t in took.items()}


def timed_interleaved(presets: list[str], hands: int, warmup: int, processes: int) -> None:
    """``interleaved_hands`` in ``processes`` fresh processes: each process's µs a card,
    then by preset the medians of µs a card and of its ratio to classic's card in the
    same process (classic first when it is not among the presets)."""
    if "classic" not in presets:
        presets = ["classic", *presets]
    runs = []
    for n in range(processes):
        runs.append(fresh_process([SCRIPT, "--side", "interleaved", "--hands", str(hands),
                                   "--warmup", str(warmup), "--preset", *presets]))
        print(f"process {n + 1}: " + ", ".join(f"{p} {us:.1f}" for p, us in runs[-1].items())
              + " µs a card", flush=True)
    print(f"{'preset':30} {'µs/card':>8} {'x classic/card':>14} {'(by process)':>16}")
    for preset in presets:
        ratios = sorted(run[preset] / run["classic"] for run in runs)
        print(f"{preset:30} {statistics.median(run[preset] for run in runs):8.1f} "
              f"{statistics.median(ratios):14.2f} {f'{ratios[0]:.2f} to {ratios[-1]:.2f}':>16}")
    print(f"({time.strftime('%Y-%m-%d')}, {processes} processes, each {hands} hands a preset "
          f"after {warmup}, the presets taking turns hand by hand, cpu time)")


def fresh_process(arguments: list[str]) -> dict[str, float]:
    """The figures a new interpreter run with ``arguments`` (a script and its options)
    prints as JSON on its last line (so that each run starts cold, with its own hash seed
    and memory layout)."""
    out = subprocess.run([sys.executable, *arguments], check=True, capture_output=True,
                         text=True).stdout
    found: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return found


def random_records(preset: str, seeds: list[int]) -> list[GameRecord]:
    """The random hands of ``seeds`` (``play_hands``' hands), as records to replay."""
    rules = rules_of(preset)
    out = []
    for seed in seeds:
        out.append(GameRecord(seed, rules, tuple(random_hand(rules, seed))))
    return out


def replays_per_second(preset: str, hands: int, listings: str | None = None) -> float:
    """Random hands' actions applied again (``replay_listing``), hands a second."""
    records = random_records(preset, list(range(hands)))
    start = CLOCK()
    for record in records:
        replay_listing(record, listings)
    return hands / (CLOCK() - start)


def replay_hands(preset: str, hands: int, recorded: int, warmup: int,
                 listings: str | None = None) -> None:
    """What ``--callgrind --replay`` counts: the warm-up seeds' hands and ``recorded``
    more played, then the warm-up's and the first ``hands`` of those replayed."""
    records = random_records(preset, [*warmup_seeds(warmup), *range(recorded)])
    for record in records[:warmup + hands]:
        replay_listing(record, listings)


def replay_listing(record: GameRecord, listings: str | None) -> Game:
    """``replay``, with the random player's listings of ``listings`` (``"leads"`` or
    ``"follows"``) made again where it made them (``engine.simulate.lists_legal_plays``)."""
    if listings is None:
        return replay(record)
    leads = listings == "leads"
    game = Game(record.rules, record.seed)
    for action in record.actions:
        if type(action) is Play:
            phase = game.state.phase
            assert isinstance(phase, Playing)
            if (phase.trick.lead is None) == leads and lists_legal_plays(phase, action.seat):
                legal_plays(game, action.seat)
        game.apply(action)
    return game


def _cards_played(rules: Ruleset) -> int:
    """A hand's cards played: every seat's hand (the deal less the kitty)."""
    return rules.players * rules.hand_size


def warmup_seeds(warmup: int) -> range:
    """The warm-up hands' seeds: apart from the measured hands' 0, 1, 2, ..."""
    return range(10**6, 10**6 + warmup)


def play_seeds(rules: Ruleset, seeds: Iterable[int]) -> None:
    """A random hand of each seed."""
    for seed in seeds:
        random_hand(rules, seed)


def random_hand(rules: Ruleset, seed: int) -> list[Action]:
    """The random hand of ``seed`` (its own game and generator, both of that seed): the
    actions taken."""
    return play_random_hand(Game(rules, seed), random.Random(seed))


def play_hands(preset: str, hands: int, warmup: int) -> None:
    """Only play hands (what ``--callgrind`` counts): the warm-up seeds, then ``hands``."""
    play_seeds(rules_of(preset), [*warmup_seeds(warmup), *range(hands)])


#: The hash seed callgrind's counts use, so that two processes' sets and dicts iterate
#: alike (otherwise the counts move by about 5% from run to run).
SAME_HASHES = {"PYTHONHASHSEED": "0"}


def instructions(command: list[str], env: dict[str, str] | None = SAME_HASHES) -> int:
    """The instructions ``command`` executes, counted by callgrind (``env`` added to ours)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        *command], check=True, capture_output=True,
                       env=None if env is None else {**os.environ, **env})
        found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        assert found is not None, "callgrind wrote no total"
        return int(found.group(1))


def per_hand(command: list[str], hands: int, env: dict[str, str] | None = SAME_HASHES,
             replays: bool = False) -> float:
    """Instructions a hand: ``command`` with ``hands`` and twice as many, the difference
    (``replays``: both having first played ``2 * hands`` hands to replay)."""
    record = ["--recorded", str(2 * hands)] if replays else []
    return (instructions([*command, *record, "--hands", str(2 * hands)], env)
            - instructions([*command, *record, "--hands", str(hands)], env)) / hands


def callgrind(presets: list[str], hands: int, warmup: int, replays: bool = False,
              listings: str | None = None) -> None:
    if shutil.which("valgrind") is None:
        sys.exit("--callgrind needs valgrind (apt-get install valgrind)")
    print(f"{'preset':28} {'M instr/hand':>12} {'cards played':>12} {'k instr/card':>12} "
          f"{'x classic/card':>14}", flush=True)
    classic = None
    for preset in presets:
        me = [sys.executable, SCRIPT, "--side",
              "replays" if replays else "hands", "--warmup", str(warmup), "--preset", preset,
              *(["--listings", listings] if listings else [])]
        found = per_hand(me, hands, replays=replays)
        cards = _cards_played(rules_of(preset))
        if preset == "classic":
            classic = found / cards
        print(f"{preset:28} {found / 1e6:12.2f} {cards:12} {found / cards / 1e3:12.1f} "
              f"{_against(found / cards, classic)}", flush=True)
    what = "replays" if replays else "hands"
    if listings:
        what += f" with the random player's listings of {listings}"
    print(f"({time.strftime('%Y-%m-%d')}, {hands} {what} a preset after {warmup})")


def timed_replays(presets: list[str], hands: int, rounds: int, listings: str | None = None
                  ) -> None:
    found: dict[str, list[float]] = {p: [] for p in presets}
    for _ in range(rounds):
        for preset in presets:
            found[preset].append(replays_per_second(preset, hands, listings))
    print(f"{'preset':28} {'replays/s':>9} {'ms/hand':>8} {'µs/card':>8} {'x classic/card':>14}")
    classic = None
    for preset, rates in found.items():
        rate = statistics.median(rates)
        per_card = 1e6 / rate / _cards_played(rules_of(preset))
        if preset == "classic":
            classic = per_card
        print(f"{preset:28} {rate:9.0f} {1000 / rate:8.2f} {per_card:8.1f} "
              f"{_against(per_card, classic)}")


def _against(per_card: float, classic: float | None) -> str:
    """The ``x classic/card`` column: blank until classic has been measured."""
    return f"{per_card / classic:14.2f}" if classic else f"{'':14}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--preset", nargs="*", default=DEFAULT,
                        help="presets, or preset:option=value,...")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions a hand under callgrind instead of timing")
    parser.add_argument("--warmup", type=int, default=3,
                        help="--callgrind's and --interleave's warm-up hands")
    parser.add_argument("--replay", action="store_true",
                        help="the engine alone: random hands' actions applied again")
    parser.add_argument("--listings", choices=("leads", "follows"),
                        help="with --replay: add the random player's listings of these")
    parser.add_argument("--interleave", action="store_true",
                        help="timed: the presets take turns hand by hand, in --rounds fresh "
                             "processes")
    parser.add_argument("--side", choices=("hands", "replays", "interleaved"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--recorded", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.listings and not args.replay and args.side != "replays":
        parser.error("--listings goes with --replay")
    if args.interleave and (args.callgrind or args.replay):
        parser.error("--interleave times random hands: not with --callgrind or --replay")
    if args.side == "hands":  # what --callgrind counts, in its own process
        for preset in args.preset:
            play_hands(preset, args.hands, args.warmup)
        return
    if args.side == "interleaved":
        print(json.dumps(interleaved_hands(args.preset, args.hands, args.warmup)))
        return
    if args.side == "replays":
        for preset in args.preset:
            replay_hands(preset, args.hands, args.recorded, args.warmup, args.listings)
        return
    if args.callgrind:
        callgrind(args.preset, args.hands, args.warmup, args.replay, args.listings)
        return
    if args.interleave:
        timed_interleaved(args.preset, args.hands, args.warmup, args.rounds)
        return
    if args.replay:
        timed_replays(args.preset, args.hands, args.rounds, args.listings)
        return
    found: dict[str, list[tuple[float, ...]]] = {p: [] for p in args.preset}
    for _ in range(args.rounds):
        for preset in args.preset:
            rate = hands_per_second(preset, args.hands)
            found[preset].append((rate, *enumeration_and_check(preset,
                                                               max(10, args.hands // 10))))
    print(f"{'preset':10} {'hands/s':>8} {'ms/hand':>8} {'µs/card':>8} {'lead enum µs':>13} "
          f"{'follow enum µs':>15} {'check µs':>9} {'leads/card':>11} {'plays/lead':>11} "
          f"{'hand/lead':>10} {'µs/lead play':>13}")
    for preset, rows in found.items():
        rate, lead, follow, check, leads, plays, hand = (
            statistics.median(r[i] for r in rows) for i in range(7))
        cards = _cards_played(rules_of(preset))
        print(f"{preset:10} {rate:8.0f} {1000 / rate:8.2f} {1e6 / rate / cards:8.1f} "
              f"{lead:13.0f} {follow:15.0f} {check:9.1f} {leads:11.3f} {plays:11.1f} "
              f"{hand:10.1f} {lead / plays:13.2f}")


if __name__ == "__main__":
    main()
