"""A real PostgreSQL server for the tests, started by them in a temporary directory.

One server per test session (``initdb`` + ``pg_ctl``, listening only on a Unix socket, no
fsync). A test gets the shared database emptied (``TRUNCATE``, a few milliseconds) or, when
it changes the schema or runs a bot, a database of its own (``CREATE DATABASE``, a few tenths
of a second), copied from a template that already holds the schema or from an empty one. PostgreSQL refuses to run as root, and the tests run as root in CI, so the server
then runs as the ``postgres`` user (``runuser``). Where the binaries are missing, the tests
that need them are skipped with :data:`HOW_TO_GET`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg

HOW_TO_GET = ("PostgreSQL is not installed (no initdb/pg_ctl on PATH or in "
              "/usr/lib/postgresql/*/bin): install it (Debian/Ubuntu: apt-get install "
              "postgresql) to run the PostgreSQL store tests; .ci/run installs it")
TEMPLATE = "shengji_template"
SHARED = "shengji_shared"


def find_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: PATH first, then Debian's versioned folders."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


class PostgresServer:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="sjpg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root / "sock"
        self._names = itertools.count()
        self._user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("tests run as root and there is no 'postgres' user to run "
                                   "the PostgreSQL server as") from None
            self._user = "postgres"

    def _run(self, *argv: str) -> None:
        command = [str(self.bindir / argv[0]), *argv[1:]]
        if self._user:
            command = ["runuser", "-u", self._user, "--", *command]
        subprocess.run(command, check=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self) -> None:
        self.socket_dir.mkdir()
        if self._user:
            shutil.chown(self.root, self._user)
            shutil.chown(self.socket_dir, self._user)
        self.root.chmod(0o755)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust",
                  "--no-sync", "-E", "UTF8", "--locale=C")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w",
                  "-o", f"-k {self.socket_dir} -c listen_addresses= -F "
                  "-c full_page_writes=off -c max_connections=200", "start")
        # on a thread of its own: the first test to ask may be inside a running event loop
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, self._make_template()).result()

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    async def _make_template(self) -> None:
        from bot.store import PostgresStore

        await self._admin(f"CREATE DATABASE {TEMPLATE}")
        store = await PostgresStore.open(self.url(TEMPLATE))
        await store.close()
        await self._admin(f"CREATE DATABASE {SHARED} TEMPLATE {TEMPLATE}")

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def emptied_shared_database(self) -> str:
        """The shared database's URL, every table but ``schema_version`` emptied."""
        conn = await asyncpg.connect(self.url(SHARED))
        try:
            names = [r[0] for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                "AND tablename <> 'schema_version'")]
            await conn.execute(f"TRUNCATE {', '.join(names)} RESTART IDENTITY CASCADE")
        finally:
            await conn.close()
        return self.url(SHARED)

    async def new_database(self, *, empty: bool = False) -> str:
        """A new database's URL: with the current schema, or ``empty``."""
        name = f"t{os.getpid()}_{next(self._names)}"
        template = "template0" if empty else TEMPLATE
        await self._admin(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        """Drop a database of ``new_database`` (a bot still connected is disconnected)."""
        name = url.rsplit("/", 1)[1].split("?")[0]
        await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
