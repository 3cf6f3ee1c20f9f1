"""``mordheim-bot migrate-db SOURCE TARGET``: copy every server's data from one database to another.

A SQLite file into PostgreSQL (a bot moving past one host) or back. The source is only read; the
target is migrated to the current schema first and must hold no data. Rows keep their ids, and
each table's id counter is carried over, so an id once used is never handed out again (undo puts
rows back under their old ids). The copy is one transaction on the target: it lands whole or not
at all. It is then checked twice: every table holds as many rows as in the source, and every
warband's roster sheet (warriors, rating, costs, record) reads the same from both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.storage.connection import Connection

# Every table of a server's data, parents before the rows that point at them.
TABLES = ("server_settings", "warbands", "warriors", "battles", "ledger", "house_lists", "rare_item_searches",
          "postbattle_sequences", "captives", "upkeep_paid", "kept_answers", "server_preferences", "member_preferences", "rolls",
          "roll_stats", "roll_optouts", "secret_rolls", "roll_settings", "games", "game_settings")
# Tables whose rows have an id that the database counts out (their counter is carried over too).
COUNTED = ("warbands", "warriors", "battles", "ledger", "rare_item_searches", "postbattle_sequences", "captives", "upkeep_paid",
           "rolls", "secret_rolls", "games")
CHUNK = 2000  # rows read and written at a time


class MigrationRefused(Exception):
    """The copy was not made; the message says why (nothing was written)."""


@dataclass
class CopyReport:
    source: str
    target: str
    rows: dict[str, int] = field(default_factory=dict)
    sheets_checked: int = 0

    def summary(self) -> str:
        copied = ", ".join(f"{t} {n:,}" for t, n in self.rows.items() if n)
        return (f"Copied {self.source} into {self.target}: {sum(self.rows.values()):,} rows ({copied or 'none'}). "
                f"Row counts match table by table, and {self.sheets_checked} warband sheet"
                f"{'s' if self.sheets_checked != 1 else ''} read the same from both.")


def _open(target: str) -> Any:
    from engine.storage import open_store

    return open_store(target)


def _name(target: str) -> str:
    from engine.storage.urls import describe, is_postgres_url

    return f"PostgreSQL at {describe(target)}" if is_postgres_url(target) else str(Path(target))


def copy_database(source: str, target: str, *, check_sheets: Callable[[Any, Any, list[tuple[int, str]]], None]) -> CopyReport:
    """Copy ``source`` into ``target`` (each a SQLite path or a PostgreSQL URL) and check the copy:
    row counts here, then ``check_sheets(source store, target store, [(server id, warband name), ...])``,
    which compares those warbands' sheets (the campaign engine reads them; storage does not import it)."""
    if source == target:
        raise MigrationRefused("SOURCE and TARGET are the same database.")
    if not source.startswith(("postgresql://", "postgres://")) and not Path(source).is_file():
        raise MigrationRefused(f"There is no SQLite file at {source}.")
    src, dst = _open(source), _open(target)
    report = CopyReport(source=_name(source), target=_name(target))
    try:
        with dst.read() as c:
            filled = [t for t in TABLES if c.scalar(f"SELECT count(*) FROM {t}")]
        if filled:
            raise MigrationRefused(f"{report.target} already holds data ({', '.join(filled)}); copy into an empty database.")
        with src.read() as s, dst.write() as d:
            for table in TABLES:
                report.rows[table] = _copy_table(s, d, table)
            for table in COUNTED:
                _carry_counter(s, d, table)
        with src.read() as s, dst.read() as d:
            warbands = [(int(g), str(n)) for g, n in s.rows("SELECT guild_id, name FROM warbands ORDER BY guild_id, id")]
            for table in TABLES:
                there = int(d.scalar(f"SELECT count(*) FROM {table}"))
                if there != report.rows[table]:
                    raise MigrationRefused(f"{table}: {report.rows[table]} rows read but {there} in the copy.")
        check_sheets(src, dst, warbands)
        report.sheets_checked = len(warbands)
    finally:
        src.close()
        dst.close()
    return report


def _copy_table(s: Connection, d: Connection, table: str) -> int:
    columns = _columns(s, table)
    insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
    select = f"SELECT {', '.join(columns)} FROM {table}"
    copied = 0
    if "id" not in columns:
        rows = [_portable(r) for r in s.rows(select)]
        if rows:
            d.executemany(insert, rows)
        return len(rows)
    at = columns.index("id")
    last = -1
    while True:  # by id, a chunk at a time (a ledger's rows point only at older rows)
        rows = [_portable(r) for r in s.rows(f"{select} WHERE id > ? ORDER BY id LIMIT ?", (last, CHUNK))]
        if not rows:
            return copied
        d.executemany(insert, rows)
        copied += len(rows)
        last = rows[-1][at]


def _portable(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row as both databases take it (PostgreSQL hands binary columns back as memoryview)."""
    return tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)


def _columns(c: Connection, table: str) -> list[str]:
    if c.dialect == "sqlite":
        return [r[1] for r in c.rows(f"PRAGMA table_info({table})")]
    return c.column("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                    "AND table_name = ? ORDER BY ordinal_position", (table,))


def _counter(c: Connection, table: str) -> int:
    """The largest id the table ever handed out."""
    if c.dialect == "sqlite":
        return int(c.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)) or 0)
    row = c.row(f"SELECT last_value, is_called FROM {c.scalar('SELECT pg_get_serial_sequence(?, ?)', (table, 'id'))}")
    return int(row[0]) if row and row[1] else 0


def _carry_counter(s: Connection, d: Connection, table: str) -> None:
    value = max(_counter(s, table), int(d.scalar(f"SELECT COALESCE(max(id), 0) FROM {table}")))
    if not value:
        return
    if d.dialect == "sqlite":
        if d.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (value, table)) == 0:
            d.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, value))
    else:
        d.scalar("SELECT setval(pg_get_serial_sequence(?, 'id'), ?, true)", (table, value))
