"""The rules conformance suite: shared/scenarios (when present) and the project's own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.scenarios import main, run_file, scenario_files

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "scenarios"
OWN = ROOT / "tests" / "scenarios"
SHARED_FOLDERS = ["classic", "variants", "changzhu"]


def _files(folder: Path) -> list[Path]:
    """Scenario files of a folder; ``pending/`` holds cases not yet agreed on."""
    if not folder.is_dir():
        return []
    return [f for f in scenario_files([folder]) if "pending" not in f.relative_to(folder).parts]


@pytest.mark.parametrize("folder", SHARED_FOLDERS)
def test_shared_suite(folder: str) -> None:
    path = SHARED / folder
    if not path.is_dir():
        pytest.skip(f"the shared conformance suite is not here ({path}); CI has it, "
                    "a plain clone does not")
    outcomes = [run_file(f) for f in _files(path)]
    assert outcomes, f"no scenario files in {path}"
    failures = [f"{o.name}: {o.detail}" for o in outcomes if not o.ok]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("path", _files(OWN), ids=lambda p: p.stem)
def test_own_scenarios(path: Path) -> None:
    outcome = run_file(path)
    assert outcome.ok, outcome.detail


def test_own_scenarios_exist() -> None:
    assert len(_files(OWN)) >= 10


def _trick(winner: int, *, second: str = "3S", trump: str = "H", levels: str = "") -> str:
    """A scenario of one trick led with AS, seat 1 playing ``second``, saying that
    ``winner`` wins it (deliberately wrong when that cannot be)."""
    return f'''
title = "one trick: seat 1 plays {second} on a led AS"
preset = "classic"
[position]
level = "2"
trump = "{trump}"
dealer = 0
{levels}
hands = ["AS", "{second}", "4S", "5S"]
[[step]]
seat = 0
play = "AS"
[[step]]
seat = 1
play = "{second}"
[[step]]
seat = 2
play = "4S"
[[step]]
seat = 3
play = "5S"
trick_winner = {winner}
'''


def test_runner_fails_a_wrong_expectation(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(_trick(0))
    bad = tmp_path / "bad.toml"
    bad.write_text(_trick(1))
    assert run_file(good).ok
    outcome = run_file(bad)
    assert not outcome.ok and "trick winner is 0, expected 1" in outcome.detail
    assert main([str(good)]) == 0
    assert main([str(tmp_path)]) == 1


def test_runner_fails_on_unreadable_and_illegal_expectations(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text("this is = = not toml")
    assert not run_file(tmp_path / "broken.toml").ok
    legal_marked_illegal = _trick(0).replace('play = "AS"',
                                                          'play = "AS"\nexpect = "illegal"')
    (tmp_path / "x.toml").write_text(legal_marked_illegal)
    outcome = run_file(tmp_path / "x.toml")
    assert not outcome.ok and "accepted, expected illegal" in outcome.detail


def test_console_script_prints_pass_and_fail(tmp_path: Path) -> None:
    (tmp_path / "good.toml").write_text(_trick(0))
    (tmp_path / "bad.toml").write_text(_trick(2))
    run = subprocess.run([sys.executable, "-m", "engine.scenarios", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1
    assert "PASS " in run.stdout and "FAIL " in run.stdout


@pytest.mark.parametrize("trump", ["H", "h", "♥"])
def test_a_trump_may_be_written_as_its_letter_or_its_symbol(tmp_path: Path, trump: str
                                                            ) -> None:
    for winner, ok in ((1, True), (0, False)):
        path = tmp_path / f"ruff{winner}.toml"
        path.write_text(_trick(winner, second="3H", trump=trump))
        assert run_file(path).ok is ok, run_file(path).detail


def test_a_team_the_levels_do_not_name_plays_the_hand_s_level(tmp_path: Path) -> None:
    path = tmp_path / "levels.toml"
    path.write_text(_trick(1, second="3H", levels='levels = { attackers = "9" }'))
    assert run_file(path).ok, run_file(path).detail
    path.write_text(_trick(1, second="3H", levels='levels = { attackers = "X" }'))
    assert not run_file(path).ok
