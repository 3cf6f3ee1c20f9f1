"""Configuration from the environment and an optional ``.env`` file.

Importing this module reads nothing and needs no token: call ``load_config()``.
The token is never printed, logged or shown in a repr.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from engine.storage.errors import StorageUnavailable
from engine.storage.urls import check_url, describe, is_postgres_url

# Every setting the bot reads: key -> (default, what it does). The README's configuration
# table is written from this, and a test checks they agree.
SETTINGS: dict[str, tuple[str, str]] = {
    "DISCORD_TOKEN": ("", "Bot token from the Discord developer portal. Empty: the offline console opens instead."),
    "DISCORD_GUILD_ID": ("", "A test server's id: commands sync there instantly instead of globally."),
    "MORDHEIM_DB": ("./data/mordheim.db", "Where settings and warbands are kept: a SQLite file (created if missing), or a `postgresql://user:password@host:5432/dbname` URL for a bot on several hosts."),
    "MORDHEIM_SYNC_ON_START": ("auto", "`auto` syncs commands on start only when their definitions changed; `never` leaves it to `mordheim-bot sync`."),
    "LOG_LEVEL": ("INFO", "Python logging level: DEBUG, INFO, WARNING or ERROR. Interaction tokens and the bot token are blanked out of every line, at every level."),
    "MORDHEIM_SHARD_COUNT": ("", "How many shards the bot has in all. Empty: as many as Discord recommends, all run by this process."),
    "MORDHEIM_SHARD_IDS": ("", "The shards this process runs, e.g. `0-3` or `0,2` (needs `MORDHEIM_SHARD_COUNT`). Empty: all of them. Only the process running shard 0 syncs commands on start."),
    "MORDHEIM_STOP_TIMEOUT": ("8", "Seconds a stop (SIGTERM, SIGINT) waits for answers in progress before closing; keep it under your supervisor's kill timeout (docker: 10 s)."),
    "MORDHEIM_ANSWERING_AT_ONCE": ("64", "How many interactions are answered at once; more wait their turn, and one still waiting when Discord's three seconds are nearly over is dropped. Raise it if answers wait on a slow network rather than on the processor."),
    "DISCORD_API_URL": ("https://discord.com/api/v10", "Discord's REST API. Change only to go through a REST proxy, or for the wire test's stand-in."),
    "DISCORD_GATEWAY_URL": ("wss://gateway.discord.gg/", "Discord's gateway, when Discord does not name one. Change only for a gateway proxy or the wire test's stand-in."),
}


class _Secret(str):
    """A string that hides itself in repr and str formatting of containers."""

    def __repr__(self) -> str:  # pragma: no cover - trivial
        return "'***'" if self else "''"


@dataclass(frozen=True)
class Config:
    token: str = field(default="", repr=False)
    guild_id: int | None = None
    db_path: Path = Path("./data/mordheim.db")  # the SQLite file; with PostgreSQL, local files go beside it
    database_url: str | None = field(default=None, repr=False)  # a postgresql:// URL: the database is there instead
    sync_on_start: str = "auto"
    log_level: str = "INFO"
    shard_count: int | None = None  # None: Discord's recommendation
    shard_ids: tuple[int, ...] | None = None  # None: every shard of shard_count
    stop_timeout: float = 8.0
    answering_at_once: int = 64
    heavy_workers: int = 1  # threads for work too slow for the event loop (bot/work_queue.py)
    heavy_waiting: int = 4  # pieces of such work that may wait for a thread before "busy"
    api_url: str = SETTINGS["DISCORD_API_URL"][0]
    gateway_url: str = SETTINGS["DISCORD_GATEWAY_URL"][0]

    @property
    def database(self) -> str:
        """What ``MORDHEIM_DB`` names: the PostgreSQL URL, else the SQLite file."""
        return self.database_url or str(self.db_path)

    @property
    def database_secrets(self) -> tuple[str, ...]:
        """What must never reach a log line: the database URL's password."""
        password = urlsplit(self.database_url).password if self.database_url else None
        return (password,) if password else ()

    @property
    def has_token(self) -> bool:
        return bool(self.token.strip())

    def __repr__(self) -> str:
        return (
            f"Config(token={'***' if self.has_token else 'unset'}, guild_id={self.guild_id}, "
            f"db_path={str(self.db_path)!r}, database={_shown(self.database_url)!r}, sync_on_start={self.sync_on_start!r}, log_level={self.log_level!r}, "
            f"shard_count={self.shard_count}, shard_ids={self.shard_ids}, stop_timeout={self.stop_timeout}, "
            f"answering_at_once={self.answering_at_once}, "
            f"api_url={self.api_url!r}, gateway_url={self.gateway_url!r})"
        )

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs commands on start: one process of a sharded bot is enough."""
        return self.shard_ids is None or 0 in self.shard_ids


def _shown(url: str | None) -> str | None:
    """A database URL as it may be printed: its host, port and database, never its password."""
    return None if url is None else f"postgresql://{describe(url)}{urlsplit(url).path}"


class ConfigError(Exception):
    """A setting has a value the bot cannot use; the message names the key."""


def load_config(env: dict[str, str] | None = None, *, dotenv_path: str | os.PathLike | None = ".env") -> Config:
    """Read the settings from ``env`` (default: ``os.environ`` after loading ``.env``)."""
    if env is None:
        if dotenv_path is not None and Path(dotenv_path).is_file():
            from dotenv import load_dotenv

            load_dotenv(dotenv_path, override=False)
        env = dict(os.environ)

    def get(key: str) -> str:
        return (env.get(key) or SETTINGS[key][0]).strip()

    guild_raw = get("DISCORD_GUILD_ID")
    guild_id: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError("DISCORD_GUILD_ID must be a server id (digits only); leave it empty to sync globally.")
        guild_id = int(guild_raw)
    sync = get("MORDHEIM_SYNC_ON_START").lower()
    if sync not in ("auto", "never"):
        raise ConfigError("MORDHEIM_SYNC_ON_START must be `auto` or `never`.")
    level = get("LOG_LEVEL").upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError("LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR.")
    shard_count, shard_ids = _shards(get("MORDHEIM_SHARD_COUNT"), get("MORDHEIM_SHARD_IDS"))
    try:
        stop_timeout = float(get("MORDHEIM_STOP_TIMEOUT"))
    except ValueError:
        stop_timeout = -1.0
    if not 0 <= stop_timeout <= 600:
        raise ConfigError("MORDHEIM_STOP_TIMEOUT must be a number of seconds from 0 to 600, e.g. 8.")
    at_once = get("MORDHEIM_ANSWERING_AT_ONCE")
    if not at_once.isdigit() or not 1 <= int(at_once) <= 10000:
        raise ConfigError("MORDHEIM_ANSWERING_AT_ONCE must be a whole number from 1 to 10000, e.g. 64.")
    api_url = get("DISCORD_API_URL").rstrip("/")
    if not api_url.startswith(("https://", "http://")):
        raise ConfigError("DISCORD_API_URL must be an http(s) URL such as https://discord.com/api/v10.")
    gateway_url = get("DISCORD_GATEWAY_URL")
    if not gateway_url.startswith(("wss://", "ws://")):
        raise ConfigError("DISCORD_GATEWAY_URL must be a ws(s) URL such as wss://gateway.discord.gg/.")
    database = get("MORDHEIM_DB")
    database_url = None
    if is_postgres_url(database):
        try:
            check_url(database)
        except StorageUnavailable as exc:
            raise ConfigError(str(exc)) from None
        database_url, database = database, SETTINGS["MORDHEIM_DB"][0]
    return Config(
        token=_Secret(get("DISCORD_TOKEN")),
        guild_id=guild_id,
        db_path=Path(database),
        database_url=database_url,
        sync_on_start=sync,
        log_level=level,
        shard_count=shard_count,
        shard_ids=shard_ids,
        stop_timeout=stop_timeout,
        answering_at_once=int(at_once),
        api_url=api_url,
        gateway_url=gateway_url,
    )


def _shards(count_raw: str, ids_raw: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``MORDHEIM_SHARD_COUNT`` and ``MORDHEIM_SHARD_IDS`` (``0-3``, ``0,2``, ``1``) read and checked."""
    if not count_raw:
        if ids_raw:
            raise ConfigError("MORDHEIM_SHARD_IDS needs MORDHEIM_SHARD_COUNT: the number of shards in all.")
        return None, None
    if not count_raw.isdigit() or int(count_raw) < 1:
        raise ConfigError("MORDHEIM_SHARD_COUNT must be a whole number of shards, 1 or more.")
    count = int(count_raw)
    if not ids_raw:
        return count, None
    ids: list[int] = []
    for part in ids_raw.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError("MORDHEIM_SHARD_IDS must list shard numbers and ranges, like `0-3` or `0,2`.")
        ids.extend(range(int(first), int(last if dash else first) + 1))
    if not ids or max(ids) >= count:
        raise ConfigError(f"MORDHEIM_SHARD_IDS must be shard numbers from 0 to {count - 1} (MORDHEIM_SHARD_COUNT is {count}).")
    return count, tuple(sorted(set(ids)))
