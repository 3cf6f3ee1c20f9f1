"""Storage: the only package that speaks SQL (ARCHITECTURE.md, "Storage: one boundary").

``open_store(target)`` opens what ``MORDHEIM_DB`` names once at start-up: a SQLite file
(``Store``: one file, WAL, foreign keys, migrations; the embedded default) or a PostgreSQL URL
(``PostgresStore``: a pool, for a bot on several hosts). Both give the same transactions to the
same repositories and unit of work (unit_of_work.py); call ``close()`` at shutdown.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.storage.errors import DatabaseBusy, StorageUnavailable
from engine.storage.store import DEFAULT_DB_PATH, BackupError, Store, WriteWouldWait, backup_database, db_path_from_env
from engine.storage.urls import is_postgres_url

if TYPE_CHECKING:
    from engine.storage.postgres import PostgresStore

__all__ = ["DEFAULT_DB_PATH", "BackupError", "DatabaseBusy", "Store", "StorageUnavailable", "WriteWouldWait", "backup_database",
           "db_path_from_env", "open_store"]


def open_store(target: str | Path) -> Store | PostgresStore:
    """The database ``target`` names: a ``postgresql://`` URL, else a SQLite file (created if missing).
    StorageUnavailable, one line saying why, when it cannot be used."""
    if isinstance(target, str) and is_postgres_url(target):
        from engine.storage.postgres import PostgresStore  # the driver is imported only when it is used

        return PostgresStore.open(target)
    return Store.open(target)
