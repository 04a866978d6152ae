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
#: The shared suite's folders: the three it has always had, and any other it holds now
#: (a new game's cases may come in a folder of their own).
SHARED_FOLDERS = sorted({"classic", "variants", "changzhu"} | (
    {d.name for d in SHARED.iterdir() if d.is_dir()} if SHARED.is_dir() else set()))


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


def test_shared_suite_files_outside_a_folder() -> None:
    """Scenario files at the top of the shared suite, beside its folders."""
    top = sorted(SHARED.glob("*.toml")) if SHARED.is_dir() else []
    failures = [f"{o.name}: {o.detail}" for o in map(run_file, top) if not o.ok]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("path", _files(OWN), ids=lambda p: p.stem)
def test_own_scenarios(path: Path) -> None:
    outcome = run_file(path)
    assert outcome.ok, outcome.detail


def test_own_scenarios_exist() -> None:
    assert len(_files(OWN)) >= 10


def _trick(winner: int, *, second: str = "3S", trump: str = "H", levels: str = "",
           level: str = "2", checks: str = "") -> str:
    """A scenario of one trick led with AS, seat 1 playing ``second``, saying that
    ``winner`` wins it (deliberately wrong when that cannot be); ``checks``: more lines
    of the last step."""
    return f'''
title = "one trick: seat 1 plays {second} on a led AS"
preset = "classic"
[position]
level = "{level}"
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
{checks}
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


_DEAL = '''
title = "a joker pair declared during the deal stands"
preset = "classic"
[position]
phase = "deal"
first_hand = true
level = "2"
hands = ["2H 5C", "2S 9D", "SJ SJ 3C", "4D"]
[[step]]
seat = 0
declare = "2H"
[[step]]
seat = 1
declare = "2S"
expect = "illegal"
trump = "{trump}"
declarer = {declarer}
[[step]]
seat = 2
declare = "SJ SJ"
[[step]]
end_deal = true
dealer = 2
declarer = 2
trump = "none"
'''


@pytest.mark.parametrize(("trump", "declarer", "ok"), [
    ("H", 0, True), ("♥\ufe0f", 0, True), ("♡", 0, True), ("S", 0, False), ("H", 1, False)])
def test_the_checks_of_a_refused_step_and_of_the_end_of_the_deal_are_tested(
        tmp_path: Path, trump: str, declarer: int, ok: bool) -> None:
    """Was: the checks of an ``expect = "illegal"`` step were never tested (a wrong one
    passed), and ``declarer`` after ``end_deal`` was always None."""
    path = tmp_path / "deal.toml"
    path.write_text(_DEAL.format(trump=trump, declarer=declarer), encoding="utf-8")
    outcome = run_file(path)
    assert outcome.ok is ok, outcome.detail




@pytest.mark.parametrize(("next_levels", "ok"), [
    ('{ defenders = "K", attackers = "10" }', True),
    ('{ defenders = "k", attackers = "T" }', True),
    ('{ defenders = "K" }', True),
    ('{ attackers = "10" }', True),
    ('{ defenders = "Q" }', False),
])
def test_next_levels_are_read_as_ranks_and_may_name_one_team(tmp_path: Path,
                                                             next_levels: str, ok: bool) -> None:
    """Was: compared as text (``"T"`` against ``10`` failed), and a team not named was a
    KeyError."""
    path = tmp_path / "levels.toml"  # (the defenders keep the last trick, at level 10)
    path.write_text(_trick(0, level="10", checks=f"next_levels = {next_levels}"))
    outcome = run_file(path)
    assert outcome.ok is ok, outcome.detail


def test_a_scenario_that_breaks_the_runner_fails_alone(tmp_path: Path) -> None:
    """Was: a check the runner could not make (a ``declarer`` during three-bid's bidding)
    raised out of the run, and the files after it were never reported."""
    (tmp_path / "a.toml").write_text('''
preset = "three-bid"
[position]
phase = "bid"
first_hand = true
level = "2"
hands = ["AS", "KS", "QS"]
kitty = "2C 3C 4C 5C 6C 7C"
[[step]]
seat = 0
bid = 120
declarer = 0
''')
    (tmp_path / "b.toml").write_text(_trick(0))
    assert not run_file(tmp_path / "a.toml").ok
    assert main([str(tmp_path)]) == 1  # (a's failure reported, b run after it)
    assert run_file(tmp_path / "b.toml").ok
