"""PostgreSQL URLs: whether a setting is one, whether it can be used, and how to name it without its password.

Kept apart from the driver, so reading the configuration imports no database driver.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from engine.storage.errors import StorageUnavailable


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def describe(url: str) -> str:
    """``host:port`` of a PostgreSQL URL, for messages (never the password)."""
    parts = urlsplit(url)
    port: int | str
    try:
        port = parts.port or 5432
    except ValueError:
        port = "?"
    return f"{parts.hostname or 'localhost'}:{port}"


def check_url(url: str) -> None:
    """StorageUnavailable naming what is wrong with a PostgreSQL URL."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        raise StorageUnavailable(f"MORDHEIM_DB is not a usable PostgreSQL URL ({exc}); write it as "
                                 "postgresql://user:password@host:5432/dbname") from None
    if parts.scheme not in ("postgresql", "postgres") or not parts.hostname or not parts.path.strip("/"):
        raise StorageUnavailable("MORDHEIM_DB is not a usable PostgreSQL URL: it needs a host and a database name, "
                                 "as postgresql://user:password@host:5432/dbname")
