"""SQLite storage for the bot: one file, opened once, WAL, foreign keys, migrations.

Use ``Store.open(path)`` once at start-up and ``store.close()`` at shutdown; hand the store
to ``engine.warbands.Campaigns``.
"""

from engine.storage.store import DEFAULT_DB_PATH, BackupError, Store, WriteWouldWait, backup_database, db_path_from_env

__all__ = ["DEFAULT_DB_PATH", "BackupError", "Store", "WriteWouldWait", "backup_database", "db_path_from_env"]
