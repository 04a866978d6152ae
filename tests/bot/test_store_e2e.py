"""Start-up checks of the SQLite file, on the real bot process: killed mid-game, its database
damaged, the bot refuses to start with a message that says what is wrong and what to do, and
leaves the file as it found it (never taken as a new, empty database)."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

from tests.bot.harness import ROOT, create_and_start, running_bot
from tests.bot.backends import damage_pages
from tests.fakediscord import BotProcess


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _other_program(path: Path) -> None:
    path.unlink()
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")


DAMAGES: list[tuple[str, Callable[[Path], None], str]] = [
    ("truncated to 0 bytes", _empty, "is empty (0 bytes), so it holds no Shengji database"),
    ("random bytes over its pages", damage_pages, "is damaged ("),
    ("another program's database", _other_program,
     "is not a Shengji database: it holds other tables (recipes)"),
]


async def test_a_damaged_database_is_refused_at_restart_with_a_clear_message(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        alice = world.fake.add_user("Alice")
        await create_and_start(world, alice)
        assert world.bot.proc is not None
        world.bot.proc.kill()  # SIGKILL mid-game: the WAL still holds the last writes
        await world.bot.proc.wait()
        pristine = tmp_path / "pristine"
        pristine.mkdir()
        for name in ("db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm"):
            if (tmp_path / name).exists():
                shutil.copy(tmp_path / name, pristine / name)
        for what, damage, message in DAMAGES:
            for name in ("db.sqlite3-wal", "db.sqlite3-shm"):
                (tmp_path / name).unlink(missing_ok=True)
            for copy in pristine.iterdir():
                shutil.copy(copy, tmp_path / copy.name)
            damage(Path(world.db))
            damaged = Path(world.db).read_bytes()
            again = BotProcess(world.fake, ["-m", "bot"], cwd=ROOT, extra_env=world.bot_env(),
                               log_path=tmp_path / f"{what.replace(' ', '-')}.log")
            await again.start()
            assert again.proc is not None
            code = await asyncio.wait_for(again.proc.wait(), 60)
            output = again.output()
            assert code == 2, (what, output[-2000:])
            assert f"The database '{world.db}' cannot be used: " in output, what
            assert message in output, (what, output[-2000:])
            assert "Traceback" not in output, what
            assert Path(world.db).read_bytes() == damaged, f"{what}: the file was changed"
