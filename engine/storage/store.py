"""One SQLite connection shared by the bot's worker threads.

The bot calls the engine through ``asyncio.to_thread``, so several threads may call at once.
One connection (``check_same_thread=False``) guarded by a lock serialises them; each call
holds the lock for a millisecond or so. Writes run in ``BEGIN IMMEDIATE`` so a change and its
ledger row commit together or not at all, and another process waiting on the file gets the
busy timeout instead of a deadlock.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from engine.storage.schema import MIGRATIONS

DEFAULT_DB_PATH = Path("data") / "mordheim.db"
BUSY_TIMEOUT_MS = 10_000


def db_path_from_env(environ: os._Environ[str] | dict[str, str] | None = None) -> Path:
    """``MORDHEIM_DB`` if set, else ``./data/mordheim.db``."""
    env = os.environ if environ is None else environ
    return Path(env.get("MORDHEIM_DB") or DEFAULT_DB_PATH)


class Store:
    """The open database file. Create with ``Store.open(path)``; call ``close()`` once at exit."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.path = path
        self._conn = conn
        self._lock = threading.RLock()
        self.db = Database(conn, execute_plugins=False)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Store:
        """Open (creating parent folders and the file if needed) and apply pending migrations."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves (sqlite3's implicit
        # transactions would otherwise start DEFERRED ones behind our back).
        conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA foreign_keys = ON")
            store = cls(conn, path)
            store.db.enable_wal()
            # NORMAL is safe against a killed process in WAL mode (only power loss can lose the last commits).
            conn.execute("PRAGMA synchronous = NORMAL")
            store._migrate()
        except BaseException:
            conn.close()
            raise
        return store

    def _migrate(self) -> None:
        with self._lock:
            # IMMEDIATE first, so two processes opening a new file at once cannot both
            # decide a migration is pending; Migrations nests its own steps as savepoints.
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                MIGRATIONS.apply(self.db)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def applied_migrations(self) -> list[str]:
        with self._lock:
            return [m.name for m in MIGRATIONS.applied(self.db)]

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: everything inside commits together or is rolled back."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield Connection(self._conn)
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A consistent read snapshot (no writes)."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield Connection(self._conn)
            finally:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")


class Connection:
    """The small query surface the service uses; rows come back as dicts.

    One ``Connection`` lives for one transaction (``Store.read``/``Store.write``), so ``memo``
    may keep what the transaction has read once and will not change under it (a server's
    campaign tables, say): it is gone with the transaction.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.memo: dict[Any, Any] = {}

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cur = self._conn.execute(sql, params)
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        cur = self._conn.execute(sql, params)
        row = cur.fetchone()
        if row is None:
            return None
        return dict(zip([d[0] for d in cur.description], row))

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self._conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def column(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return [r[0] for r in self._conn.execute(sql, params).fetchall()]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self._conn.execute(sql, params)

    def insert(self, table: str, row: dict[str, Any]) -> int:
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        return self._conn.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", list(row.values())).lastrowid

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)
