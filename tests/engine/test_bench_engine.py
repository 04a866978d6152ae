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


def test_the_replay_lists_where_the_random_player_listed(monkeypatch) -> None:
    """``--replay --listings``: the listings added to the replay are the random player's,
    at the same positions (the same plays listed), leads and follows apart."""
    bench = _bench()
    import engine.simulate as simulate

    real = simulate.legal_plays

    def recording(into: list[tuple[int, tuple]]):  # type: ignore[no-untyped-def]
        def legal_plays(game: Game, seat: int) -> list:
            plays = real(game, seat)
            into.append((len(game.log), tuple(plays)))  # (the position: actions so far)
            return plays
        return legal_plays

    for preset in ("classic", "four-decks", "three-bid", "changzhu"):
        kinds = set()
        for record in bench.random_records(preset, [5, 6, 7]):
            listed: list[tuple[int, tuple]] = []
            monkeypatch.setattr(simulate, "legal_plays", recording(listed))
            play_random_hand(Game(bench.rules_of(preset), record.seed),
                             random.Random(record.seed))
            monkeypatch.undo()
            again: dict[str, list[tuple[int, tuple]]] = {"leads": [], "follows": []}
            for which, found in again.items():
                monkeypatch.setattr(bench, "legal_plays", recording(found))
                bench.replay_listing(record, which)
                monkeypatch.undo()
            assert sorted(again["leads"] + again["follows"]) == listed, preset
            kinds |= {which for which, found in again.items() if found}
        assert kinds == {"leads", "follows"}, preset  # (both kinds were asked)
