"""PostgreSQL for bots that outgrow one host: the same repositories over a pool of connections.

``PostgresStore.open(url)`` checks the URL, reaches the server once (a refusal is one clear line,
``StorageUnavailable``), applies the migrations (engine/storage/schema_postgres.py) under an
advisory lock so that two hosts starting at once do not both apply them, and keeps a
``psycopg_pool.ConnectionPool``. A connection that breaks is replaced by the pool; an action it
was serving fails as a whole (one transaction) and the member is told to try again.

Read-check-write actions stay correct with several hosts: a writing unit of work of one server
takes that server's transaction-scoped advisory lock first, so two hosts changing one server's
warbands take turns (as writes do on SQLite's ``BEGIN IMMEDIATE``), while different servers
write side by side. Reads run in a ``REPEATABLE READ READ ONLY`` transaction: one snapshot.

Nothing waits on the event loop here: ``without_waiting`` makes every write raise
``WriteWouldWait`` so that the bot hands it to a worker thread.
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from engine.errors import DuplicateKey
from engine.storage.errors import DatabaseBusy, StorageUnavailable, check_not_newer
from engine.storage.urls import check_url, describe
from engine.storage.connection import Dialect
from engine.storage.schema_postgres import MIGRATIONS
from engine.storage.store import WriteWouldWait

log = logging.getLogger("mordheim.storage")
_OPENED = itertools.count(1)
POOL_MAX = 10  # connections per process; each worker thread holds one for one transaction
CONNECT_TIMEOUT_S = 5
MIGRATION_LOCK = 7_364_812  # the advisory lock key two starting hosts take turns on
_PLACEHOLDER = re.compile(r"\?")


# What the driver says, and what a server admin reads.
_CAUSES = (("Connection refused", "connection refused"), ("password authentication failed", "wrong password"),
           ("timeout expired", "no answer (timed out)"), ("could not translate host name", "unknown host"))


def _why(exc: BaseException) -> str:
    """The cause of a connection error in a few words (the driver's first line when it is none of the usual)."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return next((said for known, said in _CAUSES if known in text), text)


class PgConnection:
    """One PostgreSQL transaction, as the repositories see it (``engine.storage.connection.Connection``)."""

    dialect: Dialect = "postgresql"
    _converted: dict[str, str] = {}

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn
        self.memo: dict[Any, Any] = {}

    @classmethod
    def _sql(cls, sql: str) -> str:
        """The repositories' ``?`` placeholders as psycopg's (a literal % doubled first)."""
        converted = cls._converted.get(sql)
        if converted is None:
            converted = _PLACEHOLDER.sub("%s", sql.replace("%", "%%"))
            cls._converted[sql] = converted
        return converted

    def _run(self, sql: str, params: Sequence[Any]) -> psycopg.Cursor[Any]:
        try:
            return self._conn.execute(self._sql(sql), params)
        except pg_errors.UniqueViolation as exc:
            raise DuplicateKey(str(exc)) from exc

    def row(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        return self._run(sql, params).fetchone()

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._run(sql, params).fetchall()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cur = self._run(sql, params)
        cols = [d.name for d in cur.description or ()]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        cur = self._run(sql, params)
        row = cur.fetchone()
        return None if row is None else dict(zip([d.name for d in cur.description or ()], row))

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self._run(sql, params).fetchone()
        return None if row is None else row[0]

    def column(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return [r[0] for r in self._run(sql, params).fetchall()]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._run(sql, params).rowcount

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            with self._conn.cursor() as cur:
                cur.executemany(self._sql(sql), rows)
        except pg_errors.UniqueViolation as exc:
            raise DuplicateKey(str(exc)) from exc

    def insert(self, table: str, row: dict[str, Any]) -> int:
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        found = self._run(f"INSERT INTO {table} ({cols}) VALUES ({marks}) RETURNING id", list(row.values())).fetchone()
        assert found is not None
        return int(found[0])

    def next_ids(self, table: str, count: int) -> list[int]:
        if count <= 0:
            return []
        return [int(r[0]) for r in self._run("SELECT nextval(pg_get_serial_sequence(?, 'id')) FROM generate_series(1, ?)",
                                             (table, count)).fetchall()]


class _NoWaiting:
    """This thread is inside ``without_waiting``."""


class PostgresStore:
    """A PostgreSQL database reached through a pool. Create with ``PostgresStore.open(url)``; ``close()`` at exit."""

    dialect: Dialect = "postgresql"

    def __init__(self, pool: ConnectionPool, url: str) -> None:
        self._pool = pool
        self.url = url
        self.database = f"postgresql:{describe(url)}{urlsplit(url).path}#{next(_OPENED)}"
        self._local = threading.local()

    @classmethod
    def open(cls, url: str, *, pool_size: int = POOL_MAX) -> PostgresStore:
        """Reach the server, apply pending migrations, keep a pool; StorageUnavailable saying why when it cannot."""
        check_url(url)
        try:
            with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S) as probe:
                _migrate(probe)
        except StorageUnavailable:
            raise
        except psycopg.Error as exc:
            raise StorageUnavailable(f"can't reach PostgreSQL at {describe(url)}: {_why(exc)}") from None
        pool = ConnectionPool(url, min_size=1, max_size=pool_size, kwargs={"connect_timeout": CONNECT_TIMEOUT_S},
                              check=ConnectionPool.check_connection, open=False, name="mordheim")
        pool.open(wait=True, timeout=CONNECT_TIMEOUT_S * 2)
        return cls(pool, url)

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def applied_migrations(self) -> list[str]:
        with self._pool.connection() as conn:
            return [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall()]

    @contextmanager
    def _transaction(self, *, read_only: bool) -> Iterator[PgConnection]:
        try:
            with self._pool.connection() as conn:
                if read_only:
                    conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                else:
                    conn.execute("BEGIN")
                try:
                    yield PgConnection(conn)
                except BaseException:
                    conn.rollback()
                    raise
                else:
                    conn.commit()
        except (PoolTimeout, psycopg.OperationalError) as exc:
            raise DatabaseBusy(f"PostgreSQL at {describe(self.url)}: {_why(exc)}") from exc

    @contextmanager
    def write(self, *, lock: int | None = None) -> Iterator[PgConnection]:
        """A write transaction; ``lock`` (a server's id) takes that server's turn first."""
        if getattr(self._local, "no_waiting", None) is not None:
            raise WriteWouldWait()  # the event loop never waits for the network
        with self._transaction(read_only=False) as c:
            if lock is not None:
                c.execute("SELECT pg_advisory_xact_lock(?)", (lock,))
            yield c

    @contextmanager
    def read(self) -> Iterator[PgConnection]:
        """A consistent read snapshot (no writes)."""
        with self._transaction(read_only=True) as c:
            yield c

    @contextmanager
    def without_waiting(self) -> Iterator[None]:
        """Writes in this block raise ``WriteWouldWait`` at once (see the module docstring)."""
        outer = getattr(self._local, "no_waiting", None)
        self._local.no_waiting = _NoWaiting()
        try:
            yield
        finally:
            self._local.no_waiting = outer

    def try_write(self, work: Callable[[PgConnection], object]) -> bool:
        """Never on the event loop: always False, having done nothing (the caller uses a worker thread)."""
        return False


def _migrate(conn: psycopg.Connection[Any]) -> None:
    """Apply the migrations not yet applied, each in the one transaction, two hosts taking turns."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        applied = {r[0] for r in conn.execute("SELECT name FROM schema_migrations").fetchall()}
        check_not_newer(applied, {m.name for m in MIGRATIONS}, where="PostgreSQL database")
        for migration in MIGRATIONS:
            if migration.name in applied:
                continue
            for statement in migration.statements:
                conn.execute(statement)
            if migration.data is not None:
                migration.data(conn)
            conn.execute("INSERT INTO schema_migrations (name, applied_at) VALUES (%s, now()::text)", (migration.name,))
            log.info("Applied PostgreSQL migration %s", migration.name)
