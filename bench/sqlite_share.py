"""How much of a command's CPU time is spent inside SQLite: a floor no change to our Python can go under.

``inside_sqlite(store)`` swaps the store's two write connections for stand-ins that add up the CPU
time (``time.process_time``) of every call into SQLite (``execute``, ``executemany``, and fetching
a statement's rows, where SQLite runs the statement's steps), the ``BEGIN IMMEDIATE``,
``COMMIT`` and WAL checkpoint included. A hire or a post-battle step reads and writes only inside
its write transaction, so this is all of its SQL. The stand-ins' own Python is not counted, but
it slows the command down, so commands are timed for their ratio without them; this measures
only the share (``median_inside_sqlite``: the median call's, as ``common.ratio`` takes the median
batch's, so that the one call in a few hundred that makes the WAL checkpoint does not decide it).
"""

from __future__ import annotations

import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass
class SqliteClock:
    """CPU seconds spent inside SQLite since the block began."""

    seconds: float = 0.0


class _TimedCursor:
    def __init__(self, cursor: sqlite3.Cursor, clock: SqliteClock) -> None:
        self._cursor = cursor
        self._clock = clock

    def fetchone(self) -> Any:
        start = time.process_time()
        try:
            return self._cursor.fetchone()
        finally:
            self._clock.seconds += time.process_time() - start

    def fetchall(self) -> list[Any]:
        start = time.process_time()
        try:
            return self._cursor.fetchall()
        finally:
            self._clock.seconds += time.process_time() - start

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())

    def __getattr__(self, name: str) -> Any:  # rowcount, lastrowid, description
        return getattr(self._cursor, name)


class _TimedConnection:
    def __init__(self, conn: sqlite3.Connection, clock: SqliteClock) -> None:
        self._conn = conn
        self._clock = clock

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _TimedCursor:
        start = time.process_time()
        try:
            return _TimedCursor(self._conn.execute(sql, params), self._clock)
        finally:
            self._clock.seconds += time.process_time() - start

    def executemany(self, sql: str, rows: Any) -> _TimedCursor:
        start = time.process_time()
        try:
            return _TimedCursor(self._conn.executemany(sql, rows), self._clock)
        finally:
            self._clock.seconds += time.process_time() - start

    def __getattr__(self, name: str) -> Any:  # in_transaction, close, ...
        return getattr(self._conn, name)


@contextmanager
def inside_sqlite(store: Any) -> Iterator[SqliteClock]:
    """Count the CPU time spent inside SQLite by ``store``'s write connections in this block."""
    clock = SqliteClock()
    plain, at_once = store._conn, store._conn_at_once
    store._conn, store._conn_at_once = _TimedConnection(plain, clock), _TimedConnection(at_once, clock)
    try:
        yield clock
    finally:
        store._conn, store._conn_at_once = plain, at_once


async def median_inside_sqlite(store: Any, fn: Callable[[], Awaitable[object]], calls: int) -> float:
    """The median CPU seconds one call of ``fn`` spends inside SQLite, over ``calls`` calls."""
    each = []
    with inside_sqlite(store) as clock:
        for _ in range(calls):
            before = clock.seconds
            await fn()
            each.append(clock.seconds - before)
    return statistics.median(each)
