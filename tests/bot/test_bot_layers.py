"""Inside bot/ and cogs/, imports point down (docs/architecture.md): the services know
nothing of Discord or the UI, the UI and the cogs reach the services through
``bot.services``, and no two modules import each other, even for types only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SERVICES = ("bot.tables", "bot.outbox", "bot.table_data", "bot.stats", "bot.ai",
            "bot.ratings", "bot.errors", "bot.text.catalogue", "bot.text.events")
FORBIDDEN = {
    SERVICES: ("discord", "bot.ui", "bot.client", "bot.tree", "bot.services"),
    ("bot.services",): ("discord", "bot.ui", "bot.client", "bot.tables"),
    ("bot.ui",): ("bot.client", "bot.tables"),
    ("cogs",): ("bot.client", "bot.tables", "bot.store"),
}


def _modules() -> dict[str, Path]:
    out = {}
    for package in ("bot", "cogs"):
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("layer", list(FORBIDDEN), ids=lambda layer: layer[0])
def test_imports_point_down(layer: tuple[str, ...]) -> None:
    bad = [f"{module} imports {name}"
           for module, path in sorted(_modules().items()) if _within(module, layer)
           for name in sorted(_imports(path)) if _within(name, FORBIDDEN[layer])]
    assert not bad, "\n".join(bad)


def test_no_import_circle() -> None:
    modules = _modules()
    graph = {module: {name for name in _imports(path) if name in modules and name != module}
             for module, path in modules.items()}
    circles = []
    for start in graph:  # a path from a module back to itself
        stack, seen = [(start, [start])], set()
        while stack:
            module, path = stack.pop()
            for target in graph[module]:
                if target == start:
                    circles.append(" -> ".join([*path, start]))
                elif target not in seen:
                    seen.add(target)
                    stack.append((target, [*path, target]))
    assert not circles, "\n".join(sorted(set(circles)))
