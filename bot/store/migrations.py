"""The schema's migrations: ``bot/migrations/<dialect>/NNN_name.sql``, read in order.

Applying them is the backend's part (``SqlBackend.migrate`` in ``bot/store/sql.py``): each
migration runs in one transaction with its ``schema_version`` row, so it is applied once.
"""

from __future__ import annotations

import importlib.resources
import re
from dataclasses import dataclass
from typing import Literal

from bot.store.records import StoreError

Dialect = Literal["sqlite", "postgres"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgres")

_MIGRATION_FILE = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """``bot/migrations/<dialect>/NNN_name.sql`` in order; versions run 1, 2, 3... without
    gaps."""
    found: list[Migration] = []
    folder = importlib.resources.files("bot.migrations").joinpath(dialect)
    for entry in folder.iterdir():
        match = _MIGRATION_FILE.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise StoreError(f"bot/migrations/{dialect} must be numbered 1..n without gaps, "
                         f"found {versions}")
    return found
