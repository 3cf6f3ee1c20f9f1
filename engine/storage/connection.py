"""What a repository talks to: one transaction's connection, the same surface on SQLite and PostgreSQL.

Repositories write their SQL once, with ``?`` placeholders and SQL both databases read (no
``INSERT OR REPLACE``, no ``LIMIT -1``); the PostgreSQL connection turns the placeholders into
psycopg's and gives SQLite's ``instr`` through a function its migrations create. Rows come
back as tuples (``row``/``rows``, the fast path: each repository maps its columns by name in
one place) or as dicts (``one``/``all``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

Dialect = Literal["sqlite", "postgresql"]


class Connection(Protocol):
    """One open transaction (``Store.read()`` / ``Store.write()``)."""

    dialect: Dialect
    #: What the transaction has read once and will not change under it; gone with the transaction.
    memo: dict[Any, Any]

    def row(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None: ...

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None: ...

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]: ...

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def column(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    def insert(self, table: str, row: dict[str, Any]) -> int:
        """Insert one row; its new id."""
        ...

    def next_ids(self, table: str, count: int) -> list[int]:
        """``count`` ids for rows of ``table`` that this transaction will insert with explicit ids,
        each larger than any id given before (the table's AUTOINCREMENT / identity sequence). For
        an append-only table (the ledger)."""
        ...
