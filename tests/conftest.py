"""Shared fixtures: a real bot on a real database, driven through the interaction harness.

The campaign's tests run on both backends: a module marked ``pytestmark = both_backends`` runs
each test that uses ``database`` (or ``open_database``, ``store``, ``harness``) once on a SQLite
file and once on a fresh PostgreSQL database (tests/pg.py; CI starts the server, never skips).
Other modules run on SQLite only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.client import MordheimBot
from bot.config import Config
from bot.harness import Actor, Harness
from engine.storage import open_store
from tests.pg import _pg_admin, _pg_session_database, pg_db_url, pg_new_database, pg_url  # noqa: F401  (PostgreSQL)


BACKENDS = ("sqlite", "postgresql")
both_backends = pytest.mark.both_backends


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "both_backends: run the module's database tests on SQLite and on PostgreSQL")
    config.addinivalue_line("markers", "sqlite_only: a test of SQLite itself (its files, query plans), in a module of both")


def pytest_generate_tests(metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        marked = metafunc.definition.get_closest_marker
        both = marked("both_backends") is not None and marked("sqlite_only") is None
        metafunc.parametrize("backend", BACKENDS if both else BACKENDS[:1], scope="function")


@pytest.fixture
def database(backend: str, tmp_path, request) -> str:
    """What MORDHEIM_DB would name for this test: a new SQLite file, or an empty PostgreSQL database."""
    if backend == "postgresql":
        return request.getfixturevalue("pg_db_url")
    return str(tmp_path / "mordheim.db")


@pytest.fixture
def open_database(database: str) -> Iterator[Callable[[], Any]]:
    """Opens this test's database; each call is a new store on it (as another process or host would
    open it). Every store opened is closed after the test."""
    opened = []

    def open_() -> Any:
        opened.append(open_store(database))
        return opened[-1]

    yield open_
    for store in opened:
        store.close()


@pytest.fixture
def store(open_database):
    """This test's database, opened."""
    return open_database()


def make_bot(tmp_path, seed: int = 1234, database: str | None = None) -> MordheimBot:
    url = database if database is not None and database.startswith("postgresql://") else None
    config = Config(db_path=tmp_path / "mordheim.db", database_url=url)
    return MordheimBot(config, rng=random.Random(seed))


@pytest.fixture
async def harness(tmp_path, database):
    async with Harness(make_bot(tmp_path, database=database)) as h:
        yield h


@pytest.fixture
async def harness_on_postgres(tmp_path, request):
    """The bot on an empty PostgreSQL database (for what only PostgreSQL does: a connection dropping)."""
    async with Harness(make_bot(tmp_path, database=request.getfixturevalue("pg_db_url"))) as h:
        yield h


@pytest.fixture
def actor() -> Actor:
    return Actor()
