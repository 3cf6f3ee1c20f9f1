"""The SQLite file shared by the bot's worker threads (and by other processes on the host).

The bot calls the engine through ``asyncio.to_thread``, so several threads may call at once.
Writes share one connection (``check_same_thread=False``) guarded by a lock, which serialises
them; each holds it for a millisecond or so. Writes run in ``BEGIN IMMEDIATE`` so a change and
its ledger row commit together or not at all, and a write waiting for another process's gets
the busy timeout instead of a deadlock.

Reads use a connection of their own per thread: in WAL mode a reader sees the last commit and
never waits for a writer, in this process or another, so a read on the event loop (a server's
settings, a member's reply style) cannot stall behind a write that is itself waiting for the
file. A read inside a write transaction uses the write's connection and sees its changes.

The event loop may write too, but only without waiting: inside ``without_waiting()`` a write
begins only if no other thread of this process is writing and no other process holds the file,
and otherwise raises ``WriteWouldWait`` before anything is done, so the caller can hand the
same work to a worker thread (``try_write`` is the same for one small piece of work).

The WAL is copied back into the database file (a checkpoint: a few milliseconds of writes and
two fsyncs) every ``CHECKPOINT_EVERY`` commits, before the next write begins, and only by a
write that may wait: when one is due, a write without waiting raises ``WriteWouldWait`` and the
worker thread it is handed to does it. SQLite's own checkpoint (off) would run inside whichever
commit crosses 1,000 pages, on the event loop when that commit is one of the loop's.
"""

from __future__ import annotations

import datetime as dt
import itertools
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from engine.errors import DuplicateKey
from engine.storage.connection import Dialect
from engine.storage.errors import check_not_newer
from engine.storage.schema import MIGRATIONS

DEFAULT_DB_PATH = Path("data") / "mordheim.db"
# How long a write waits for another process's write to finish before it fails. Writes hold
# the file for a millisecond or so (tests/engine/test_storage_processes.py), so ten seconds is
# only reached when something is badly wrong, and then the member gets an apology, not a hang.
BUSY_TIMEOUT_MS = 10_000
# Commits between two checkpoints. SQLite's own default is every 1,000 pages of WAL. A kept
# answer writes about 2 pages, a purchase 7, a hire 10 (the warrior, the warband, two ledger rows
# and their indexes), so 300 commits are some 600 to 3,000 pages: a WAL of 2.5 to 12 MB, and a
# checkpoint's two fsyncs spread over as many answers as SQLite would spread them.
CHECKPOINT_EVERY = 300

log = logging.getLogger("mordheim.storage")
_OPENED = itertools.count(1)


def db_path_from_env(environ: os._Environ[str] | dict[str, str] | None = None) -> Path:
    """``MORDHEIM_DB`` if set, else ``./data/mordheim.db``."""
    env = os.environ if environ is None else environ
    return Path(env.get("MORDHEIM_DB") or DEFAULT_DB_PATH)


class BackupError(Exception):
    """The backup could not be made; the message says why and nothing was left half-written."""


def backup_path(source: str | os.PathLike[str], destination: str | os.PathLike[str], *,
                now: dt.datetime | None = None) -> Path:
    """Where ``backup_database`` writes: ``destination`` itself, or, when it is a folder (one that
    exists, or any path written with a trailing slash), a dated file inside it named after the live
    database: ``mordheim-2026-11-27T0530.db`` (the time in UTC), ``-2``, ``-3``... added when a
    backup of the same minute is there already."""
    text = os.fspath(destination)
    folder = Path(text)
    if not (folder.is_dir() or text.endswith(("/", os.sep))):
        return folder
    stamp = (now or dt.datetime.now(dt.timezone.utc)).strftime("%Y-%m-%dT%H%M")
    stem, suffix = Path(source).stem or "mordheim", Path(source).suffix or ".db"
    path, n = folder / f"{stem}-{stamp}{suffix}", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{stamp}-{n}{suffix}"
    return path


def backup_database(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> tuple[Path, int]:
    """A consistent copy of the database at ``source``, even while the bot writes to it.

    SQLite's online backup copies every page inside one read transaction; in WAL mode that is
    a snapshot, and writers go on meanwhile. The copy is written beside where it goes, checked
    (``PRAGMA integrity_check``) and only then moved into place, so a failed backup never leaves
    a file that looks good, nor a half-written one: on any failure the partial copy is removed
    and ``BackupError`` says why. The copy is a single file (no ``-wal``) that ``Store.open`` can
    use as it is. ``destination`` may be a folder (see ``backup_path``). Returns where the copy
    went and its size in bytes.
    """
    source = Path(source)
    if not source.is_file():
        raise BackupError(f"There is no database at {source}.")
    destination = backup_path(source, destination)
    if destination.exists() and not destination.is_file():
        raise BackupError(f"{destination} exists and is not a file; name a file or a folder to write the copy in.")
    if destination.exists() and destination.resolve() == source.resolve():
        raise BackupError("The backup must go to another file than the live database.")
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"Cannot make the folder {destination.parent}: {exc.strerror or exc}.") from exc
    partial = destination.with_name(destination.name + ".partial")
    try:
        partial.unlink(missing_ok=True)
        _copy_checked(source, partial)
        os.replace(partial, destination)
        return destination, destination.stat().st_size
    except BaseException as exc:
        partial.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise BackupError(f"Cannot write {destination}: {exc.strerror or exc}.") from exc
        raise


def _copy_checked(source: Path, partial: Path) -> None:
    """SQLite's online backup of ``source`` into ``partial``, integrity checked; BackupError if not."""
    live = sqlite3.connect(str(source), timeout=BUSY_TIMEOUT_MS / 1000)  # it only reads
    try:
        copy = sqlite3.connect(str(partial))
        try:
            live.backup(copy)  # all pages in one step: one snapshot
            copy.execute("PRAGMA journal_mode = DELETE")
            verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            copy.close()
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite could not copy {source}: {exc}.") from exc
    finally:
        live.close()
    if verdict != "ok":
        raise BackupError(f"The copy failed its integrity check ({verdict}); the live database may need attention.")


class WriteWouldWait(Exception):
    """A write inside ``Store.without_waiting()`` would have had to wait (another thread of this
    process is writing, another process holds the file, or a checkpoint is due). It did not
    begin: nothing was done."""


class _NoWaiting:
    """This thread's ``without_waiting`` block: whether its one write transaction has begun."""

    began = False


class Store:
    """The open database file. Create with ``Store.open(path)``; call ``close()`` once at exit."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.path = path
        # names this open database for what is kept in memory per database (a file reopened, after a
        # restore say, is another one)
        self.database = f"sqlite:{path.resolve()}#{next(_OPENED)}"
        self._conn = conn
        self._lock = threading.RLock()
        self._local = threading.local()  # per thread: its read connection, and whether it is writing
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()  # not the write lock: opening a reader never waits for a write
        self._closed = False
        # Writes that must not wait (the event loop's) begin on a second connection whose busy
        # timeout is 0, so they are refused at once instead of waiting; both take the same lock.
        self._conn_at_once = self._connect(path, busy_timeout_ms=0)
        self._commits = 0  # since the last checkpoint
        self.db = Database(conn, execute_plugins=False)

    @staticmethod
    def _connect(path: Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves (sqlite3's implicit
        # transactions would otherwise start DEFERRED ones behind our back).
        conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=busy_timeout_ms / 1000)
        conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
        conn.execute("PRAGMA foreign_keys = ON")
        # Per connection, so on every one: NORMAL is safe against a killed process in WAL mode (only
        # power loss can lose the last commits), and Store.write checkpoints (the module docstring says why).
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        return conn

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Store:
        """Open (creating parent folders and the file if needed) and apply pending migrations."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = cls._connect(path)
        try:
            store = cls(conn, path)
        except BaseException:
            conn.close()
            raise
        try:
            store.db.enable_wal()
            store._migrate()
        except BaseException:
            store.close()
            raise
        return store

    def _migrate(self) -> None:
        with self._lock:
            # IMMEDIATE first, so two processes opening a new file at once cannot both
            # decide a migration is pending; Migrations nests its own steps as savepoints.
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                known = {m.name for m in MIGRATIONS._migrations}  # sqlite-utils keeps them there; it has no public list
                check_not_newer({m.name for m in MIGRATIONS.applied(self.db)}, known,
                                where=f"SQLite file {self.path}")
                MIGRATIONS.apply(self.db)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def applied_migrations(self) -> list[str]:
        with self._lock:
            return [m.name for m in MIGRATIONS.applied(self.db)]

    def close(self) -> None:
        with self._lock, self._readers_lock:
            self._closed = True
            for reader in self._readers:
                reader.close()
            self._conn_at_once.close()
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self, *, lock: int | None = None) -> Iterator[SqliteConnection]:
        """A write transaction: everything inside commits together or is rolled back. ``lock`` (a
        server's id, for PostgreSQL's per-server turns) changes nothing here: BEGIN IMMEDIATE
        already makes every write of the file take its turn.

        Inside ``without_waiting()`` it begins only if that needs no waiting, else raises
        ``WriteWouldWait`` having done nothing."""
        no_waiting: _NoWaiting | None = getattr(self._local, "no_waiting", None)
        if no_waiting is None:
            self._lock.acquire()
            try:
                if self._commits >= CHECKPOINT_EVERY:
                    self._checkpoint()
                self._conn.execute("BEGIN IMMEDIATE")
            except BaseException:
                self._lock.release()
                raise
        else:
            if no_waiting.began:  # a fallback to a thread would run the first one again
                raise RuntimeError("A without_waiting() block holds one write transaction; this is its second.")
            if self._commits >= CHECKPOINT_EVERY or not self._begin_at_once():
                raise WriteWouldWait()
            no_waiting.began = True
        conn = self._conn if no_waiting is None else self._conn_at_once
        self._local.writing = conn
        try:
            yield SqliteConnection(conn)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")
            self._commits += 1
        finally:
            self._local.writing = None
            self._lock.release()

    def _checkpoint(self) -> None:
        """Copy the WAL back into the database file, holding the write lock: with no commit of
        this process beside it, the checkpoint reaches the WAL's end, and the next write starts
        the WAL again from its beginning. PASSIVE: it never waits for a reader (what a reader
        still needs is copied next time)."""
        self._commits = 0
        try:
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:  # not this write's business: it goes on, and the WAL is only longer until the next one
            log.warning("A WAL checkpoint failed", exc_info=True)

    def _begin_at_once(self) -> bool:
        """Take the lock and ``BEGIN IMMEDIATE`` if neither needs waiting (True, holding both), else
        take neither (False)."""
        if not self._lock.acquire(blocking=False):  # another thread of this process is writing
            return False
        try:
            self._conn_at_once.execute("BEGIN IMMEDIATE")  # its busy timeout is 0: refused at once when locked
        except sqlite3.OperationalError:  # "database is locked": another process is writing
            self._lock.release()
            return False
        except BaseException:
            self._lock.release()
            raise
        return True

    @contextmanager
    def without_waiting(self) -> Iterator[None]:
        """In this block (in this thread), the write transaction begins only if no other thread of
        this process is writing, no other process holds the file and no checkpoint is due;
        otherwise ``write()`` raises ``WriteWouldWait`` before anything is done. For the event
        loop, which must never wait for the file: what raised is to be run again in a worker
        thread, where writes wait their turn (and make the checkpoint that may be due). The block
        holds at most one write transaction, so that running it again repeats nothing."""
        outer = getattr(self._local, "no_waiting", None)
        self._local.no_waiting = _NoWaiting()
        try:
            yield
        finally:
            self._local.no_waiting = outer

    def try_write(self, work: Callable[[SqliteConnection], object]) -> bool:
        """Run ``work`` in a write transaction only if that needs no waiting: no other thread of
        this process is writing, no other process holds the file and no checkpoint is due.
        Returns False, having done nothing, otherwise: then do it with a write that may wait, in a
        worker thread (which makes the checkpoint first). For the event loop, which must never
        wait for the file."""
        try:
            with self.without_waiting(), self.write() as c:
                work(c)
        except WriteWouldWait:
            return False
        return True

    @contextmanager
    def read(self) -> Iterator[SqliteConnection]:
        """A consistent read snapshot (no writes)."""
        writing = getattr(self._local, "writing", None)
        if writing is not None:  # inside this thread's write: read what it wrote
            yield SqliteConnection(writing)
            return
        conn = self._reader()
        conn.execute("BEGIN")
        try:
            yield SqliteConnection(conn)
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")

    def _reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "reader", None)
        if conn is None:
            with self._readers_lock:
                if self._closed:
                    raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
                conn = self._connect(self.path)
                self._readers.append(conn)
            self._local.reader = conn
        return conn


class SqliteConnection:
    """One SQLite transaction, as the repositories see it (``engine.storage.connection.Connection``).

    One lives for one transaction (``Store.read``/``Store.write``), so ``memo`` may keep what the
    transaction has read once and will not change under it (a server's campaign tables, say): it
    is gone with the transaction.
    """

    dialect: Dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.memo: dict[Any, Any] = {}

    def row(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        return self._conn.execute(sql, params).fetchone()

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._conn.execute(sql, params).fetchall()

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

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return self._conn.execute(sql, params).rowcount
        except sqlite3.IntegrityError as exc:
            raise _translated(exc) from exc

    def insert(self, table: str, row: dict[str, Any]) -> int:
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        try:
            rowid = self._conn.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", list(row.values())).lastrowid
        except sqlite3.IntegrityError as exc:
            raise _translated(exc) from exc
        assert rowid is not None
        return rowid

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise _translated(exc) from exc

    def next_ids(self, table: str, count: int) -> list[int]:
        # Inside BEGIN IMMEDIATE nothing else inserts, so the ids counted on here from the table's
        # largest are this transaction's to hand out. Only for a table whose rows are never deleted
        # (the ledger): there the largest id is the AUTOINCREMENT counter, found in one step down
        # the primary key (sqlite_sequence has no index; an explicit id moves the counter on).
        key = ("next_id", table)
        first = self.memo.get(key)
        if first is None:
            first = (self.scalar(f"SELECT max(id) FROM {table}") or 0) + 1
        self.memo[key] = first + count
        return list(range(first, first + count))


def _translated(exc: sqlite3.IntegrityError) -> Exception:
    """A broken unique key as the engine's ``DuplicateKey``; any other integrity error as it is."""
    return DuplicateKey(str(exc)) if "UNIQUE" in str(exc) else exc

