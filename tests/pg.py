"""PostgreSQL for the tests: the server for the session, an empty database for each test.

Fixtures (imported by tests/conftest.py, so every test can ask for them):

- ``pg_url`` (session): ``str``, the URL of the test server's database ``mordheim_test``,
  ``postgresql://USER:PASSWORD@127.0.0.1:PORT/mordheim_test``, as a superuser.
- ``pg_db_url`` (function): ``str``, the URL of a database that is empty when the test starts:
  one database per session (``mordheim_t<pid>``) in which, before each test, the connections
  still open from the previous test are ended, every schema is dropped and an empty ``public``
  schema made (about 1 ms when empty; CREATE DATABASE costs 130-400 ms here, see
  tests/engine/test_postgres_cluster.py). Not reset: objects outside schemas (roles, database
  settings, publications, event triggers, large objects); a test that makes those uses
  ``pg_new_database``.
- ``pg_new_database`` (function): a factory; ``pg_new_database()`` creates a brand-new database
  (``CREATE DATABASE ... TEMPLATE template0``) and returns its URL; each is dropped after the test.

Which server: ``MORDHEIM_TEST_PG_URL`` if set (``.ci/run`` sets it; any server where the URL's
user may create databases); unset, the first test that needs PostgreSQL starts a throwaway cluster
with tools/pg_cluster.py (as the unprivileged user when running as root), stopped at the end of the
session. Tests that do not ask for these fixtures never start one. If no server can be had, the
tests that need one fail with the reason: they never skip.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

PG_URL_VAR = "MORDHEIM_TEST_PG_URL"
HOW_TO = (
    "The PostgreSQL tests need a server; they never skip. Either install PostgreSQL (Debian: "
    "apt-get install postgresql; or set MORDHEIM_PG_BIN to the folder with initdb and pg_ctl) and "
    f"leave {PG_URL_VAR} unset, so that the tests start a throwaway cluster themselves; or start one "
    'yourself: eval "$(python3 tools/pg_cluster.py start)", run the tests, then '
    'python3 tools/pg_cluster.py stop "$MORDHEIM_TEST_PG_DIR"; or point '
    f"{PG_URL_VAR} at a server where the user may create databases."
)

_new_names = itertools.count(1)

_RESET = """
DO $$
DECLARE s name;
BEGIN
  PERFORM pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid();
  FOR s IN SELECT nspname FROM pg_namespace
           WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' LOOP
    EXECUTE format('DROP SCHEMA %I CASCADE', s);
  END LOOP;
  CREATE SCHEMA public AUTHORIZATION pg_database_owner;
  GRANT USAGE ON SCHEMA public TO PUBLIC;
END
$$
"""


def load_pg_cluster():
    """tools/pg_cluster.py as a module (tools/ is not a package)."""
    if "pg_cluster" in sys.modules:
        return sys.modules["pg_cluster"]
    path = Path(__file__).resolve().parents[1] / "tools" / "pg_cluster.py"
    spec = importlib.util.spec_from_file_location("pg_cluster", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["pg_cluster"] = module
    spec.loader.exec_module(module)
    return module


def hide_password(url: str) -> str:
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", url)


def with_database(url: str, database: str) -> str:
    """The same server and user, another database."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + database))


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    url = os.environ.get(PG_URL_VAR)
    cluster = None
    if not url:
        pg_cluster = load_pg_cluster()
        try:
            cluster = pg_cluster.start()
        except pg_cluster.ClusterError as exc:
            pytest.fail(f"{PG_URL_VAR} is not set and no throwaway cluster could be started: {exc}\n\n{HOW_TO}",
                        pytrace=False)
        url = cluster.url
    try:
        try:
            psycopg.connect(url, connect_timeout=10).close()
        except psycopg.Error as exc:
            pytest.fail(f"cannot connect to {hide_password(url)} ({PG_URL_VAR}"
                        f"{' from the cluster just started' if cluster else ''}): {exc}\n\n{HOW_TO}", pytrace=False)
        yield url
    finally:
        if cluster is not None:
            cluster.stop()


@pytest.fixture(scope="session")
def _pg_admin(pg_url: str) -> Iterator[psycopg.Connection]:
    """An autocommit connection to pg_url for creating and dropping databases."""
    with psycopg.connect(pg_url, autocommit=True, connect_timeout=10) as conn:
        conn.execute("SET statement_timeout = '60s'")
        yield conn


@pytest.fixture(scope="session")
def _pg_session_database(pg_url: str, _pg_admin: psycopg.Connection) -> Iterator[tuple[str, psycopg.Connection]]:
    """The session's work database, and an autocommit connection to it that resets it."""
    name = f"mordheim_t{os.getpid()}"
    _pg_admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    _pg_admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name)))
    url = with_database(pg_url, name)
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            conn.execute("SET statement_timeout = '60s'")
            yield url, conn
    finally:
        _pg_admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def pg_db_url(_pg_session_database: tuple[str, psycopg.Connection]) -> str:
    url, conn = _pg_session_database
    conn.execute(_RESET)
    return url


@pytest.fixture
def pg_new_database(pg_url: str, _pg_admin: psycopg.Connection) -> Iterator[Callable[[], str]]:
    made: list[str] = []

    def new_database() -> str:
        name = f"mordheim_t{os.getpid()}_{next(_new_names)}"
        _pg_admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name)))
        made.append(name)
        return with_database(pg_url, name)

    yield new_database
    for name in made:
        _pg_admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
