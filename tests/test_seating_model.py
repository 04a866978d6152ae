"""Who plays with whom comes from one model, ``engine/teams.py`` (issue: "nothing outside
this model computes a team from a seat number"): no other module of the engine, the bot
or the cogs takes a seat number modulo 2."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "engine" / "teams.py"


def _modulo_two(path: Path) -> list[int]:
    """The lines of ``path`` with an ``x % 2``."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and \
                isinstance(node.right, ast.Constant) and node.right.value == 2:
            lines.append(node.lineno)
    return lines


def test_no_module_but_the_seating_model_works_out_teams_from_seats() -> None:
    found = {}
    for package in ("engine", "bot", "cogs"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path != MODEL and (lines := _modulo_two(path)):
                found[str(path.relative_to(ROOT))] = lines
    assert not found, f"teams worked out from seat numbers outside engine/teams.py: {found}"


def test_the_check_sees_a_team_worked_out_from_a_seat(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def team(seat):\n    return seat % 2\n", encoding="utf-8")
    assert _modulo_two(sample) == [2]
    assert _modulo_two(MODEL)  # the model itself does it, once
