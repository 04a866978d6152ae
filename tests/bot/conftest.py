"""Every store test runs on both backends: ``backend`` is a SQLite file or a PostgreSQL
database (a real server the session starts, see ``tests/postgres.py``)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests import postgres
from tests.bot.backends import Backend
from tests.bot.posting import Posting, open_posting
from tests.postgres import HOW_TO_GET, PostgresServer

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = postgres.find_binaries()
    if bindir is None:
        if os.environ.get("CI"):  # CI must run them: .ci/run installs PostgreSQL
            pytest.fail(HOW_TO_GET)
        pytest.skip(HOW_TO_GET)
    server = PostgresServer(bindir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """A database with no rows, on each backend in turn: a SQLite file that does not exist
    yet, or the PostgreSQL test database emptied. Tests must not change its schema."""
    if request.param == "sqlite":
        return Backend("sqlite", str(tmp_path / "data" / "shengji.sqlite3"))
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return Backend("postgres", await server.emptied_shared_database())


@pytest.fixture(params=BACKENDS)
async def empty_backend(request: pytest.FixtureRequest,
                        tmp_path: Path) -> AsyncIterator[Backend]:
    """A database with nothing in it, not even the schema, that a test may change."""
    if request.param == "sqlite":
        yield Backend("sqlite", str(tmp_path / "data" / "shengji.sqlite3"))
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = await server.new_database(empty=True)
    yield Backend("postgres", url)
    await server.drop_database(url)


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """``SHENGJI_DB`` for a bot or a store on each backend in turn: a file path that does
    not exist yet, or a PostgreSQL database that already holds the schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "db.sqlite3")
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = await server.new_database()
    yield url
    await server.drop_database(url)


@pytest.fixture
async def posting(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Posting]:
    """A publisher against the fake Discord (``tests/bot/posting.py``)."""
    async with open_posting(monkeypatch) as opened:
        yield opened
