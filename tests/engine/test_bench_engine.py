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


def test_interleaved_presets_take_turns_hand_by_hand_on_the_same_seeds(monkeypatch) -> None:
    """``--interleave``: every preset plays seeds 0 to n - 1 after its warm-up, one hand
    each in turn, the first of each turn moving on by one."""
    bench = _bench()
    played: list[tuple[int, int]] = []  # (players, seed) of each hand, in order
    monkeypatch.setattr(bench, "play_random_hand", lambda game, rng: played.append(
        (game.rules.players, game.seed)))
    per_card = bench.interleaved_hands(["classic", "three-bid", "six"], 3, 1)
    warm = [(4, 10**6), (3, 10**6), (6, 10**6)]
    assert played == warm + [(4, 0), (3, 0), (6, 0), (3, 1), (6, 1), (4, 1),
                             (6, 2), (4, 2), (3, 2)]
    assert set(per_card) == {"classic", "three-bid", "six"}
    assert all(us >= 0 for us in per_card.values())


def test_the_interleaved_benchmark_prints_each_preset_against_classic() -> None:
    run = subprocess.run([sys.executable, "bench/engine.py", "--interleave", "--hands", "2",
                          "--warmup", "0", "--rounds", "2", "--preset", "red-black"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.count("process ") == 2, run.stdout
    rows = dict(re.findall(r"^(\S+) +[\d.]+ +([\d.]+) +[\d.]+ to [\d.]+$", run.stdout, re.M))
    assert rows.get("classic") == "1.00", run.stdout  # (classic is added: the ratios are to it)
    assert float(rows["red-black"]) > 0, run.stdout
