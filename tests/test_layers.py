"""Imports point down only: engine imports no discord/PIL/aiosqlite/bot/images/cogs;
images imports only engine.cards and engine.order from the project; bot never cogs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "engine": {"discord", "PIL", "aiosqlite", "asyncio", "bot", "images", "cogs"},
    "images": {"discord", "aiosqlite", "bot", "cogs", "engine.game", "engine.legal",
               "engine.plays", "engine.rules", "engine.views", "engine.actions"},
    "bot": {"cogs"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for name in _imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[package]):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)
