"""``bench/engine.py --replay``: the engine alone, on the random hands' own actions."""

from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from engine.game import Game, HandOver
from engine.record import replay
from engine.simulate import play_random_hand

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    """bench/engine.py (``bench`` is a folder of scripts, imported from the project root)."""
    return importlib.import_module("bench.engine")


def test_a_replayed_record_is_the_random_hand_it_was_made_from() -> None:
    bench = _bench()
    for preset in ("classic", "three-bid", "find-friends"):
        records = bench.random_records(preset, [3, 4])
        for record in records:
            game = Game(bench.rules_of(preset), record.seed)
            play_random_hand(game, random.Random(record.seed))
            again = replay(record)
            assert isinstance(again.state.phase, HandOver)
            assert again.state == game.state
            assert again.log == game.log


def test_the_replay_benchmark_prints_a_card_s_cost_against_classic() -> None:
    run = subprocess.run([sys.executable, "bench/engine.py", "--replay", "--hands", "2",
                          "--rounds", "1", "--preset", "classic", "three-bid"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = dict(re.findall(r"^(\S+) +[\d.]+ +[\d.]+ +[\d.]+ +([\d.]+)$", run.stdout, re.M))
    assert rows.get("classic") == "1.00", run.stdout
    assert float(rows["three-bid"]) > 0, run.stdout
